// The diff view: two reports' kernels side by side (diff()), sortable and filterable, with the
// change in total time and percent.

import {el, replaceChildren} from './dom.js';
import {formatCount, formatDuration, formatPercent} from './format.js';
import {sortableTable} from './sortable_table.js';

/** Fills `container` with report pickers and the diff table; `reports` from reports(). */
export function renderDiffView(container, source, reports) {
  if (reports.length < 2) {
    replaceChildren(
        container,
        el('p', {className: 'note'},
           'The diff view compares two reports: open two, e.g. `gpuscope view before.sqlite after.sqlite`.'));
    return;
  }
  const picker = (id, selected) => el(
      'select', {id, 'aria-label': id},
      reports.map(
          (r) => el(
              'option', {value: String(r.index), selected: r.index === selected}, reportLabel(r))));
  const pickA = picker('diff-a', reports[0].index);
  const pickB = picker('diff-b', reports[1].index);
  const result = el('div', {className: 'diff-result'});
  const refresh = async () => {
    const a = Number(pickA.value);
    const b = Number(pickB.value);
    replaceChildren(result, el('p', {className: 'note'}, 'Loading...'));
    try {
      renderDiffTable(result, await source.diff(a, b));
    } catch (error) {
      replaceChildren(result, el('div', {className: 'error'}, error.message));
    }
  };
  pickA.addEventListener('change', refresh);
  pickB.addEventListener('change', refresh);
  replaceChildren(
      container, el('div', {className: 'diff-pickers'}, 'Compare ', pickA, ' with ', pickB),
      result);
  return refresh();
}

/** "#0 pid 123 ./app": how a report is named in pickers and headings. */
export function reportLabel(report) {
  if (report.label) return `#${report.index} ${report.label}`;
  return `#${report.index} pid ${report.pid} ${report.command_line || report.path || ''}`.trim();
}

function renderDiffTable(container, rows) {
  if (rows.length === 0) {
    replaceChildren(container, el('p', {className: 'note'}, 'Neither report has kernels.'));
    return;
  }
  const flat = rows.map((r) => ({
                          name: r.name,
                          a_count: r.a ? r.a.count : null,
                          a_total: r.a ? r.a.total : null,
                          a_avg: r.a ? r.a.avg : null,
                          b_count: r.b ? r.b.count : null,
                          b_total: r.b ? r.b.total : null,
                          b_avg: r.b ? r.b.avg : null,
                          delta_total: r.delta_total,
                          delta_pct: r.delta_pct,
                        }));
  const duration = (v) => (v === null || v === undefined ? '-' : formatDuration(v));
  const count = (v) => (v === null || v === undefined ? '-' : formatCount(v));
  const signed = (v) =>
      (v === null || v === undefined ? '-' : (v > 0 ? '+' : '') + formatDuration(v));
  replaceChildren(
      container,
      sortableTable(
          [
            {key: 'name', label: 'Kernel'},
            {key: 'a_count', label: 'A launches', numeric: true, format: count},
            {key: 'a_total', label: 'A total', numeric: true, format: duration},
            {key: 'a_avg', label: 'A avg', numeric: true, format: duration},
            {key: 'b_count', label: 'B launches', numeric: true, format: count},
            {key: 'b_total', label: 'B total', numeric: true, format: duration},
            {key: 'b_avg', label: 'B avg', numeric: true, format: duration},
            {key: 'delta_total', label: '\u0394 total', numeric: true, format: signed},
            {key: 'delta_pct', label: '\u0394 %', numeric: true, format: (v) => formatPercent(v)},
          ],
          flat));
}
