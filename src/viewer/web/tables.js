// The summary tables: the nsys tables of `gpuscope stats` (summary() answers them with the
// same columns and numbers), one sortable, filterable table each.

import {el, replaceChildren} from './dom.js';
import {sortableTable} from './sortable_table.js';

const kTableTitles = {
  cuda_gpu_kern_sum: 'CUDA GPU kernels',
  cuda_api_sum: 'CUDA API calls',
  cuda_gpu_mem_time_sum: 'GPU memory operations by time',
  cuda_gpu_mem_size_sum: 'GPU memory operations by size',
  nvtx_sum: 'NVTX ranges',
  cuda_gpu_kern_gb_sum: 'CUDA GPU kernels by grid and block',
};

/**
 * Renders summary() (`{tables: {name: [row...]}}`) into `container`. Kernel names in the
 * kernel table open the kernel page through `actions.onKernel(name)`. A table that
 * `gpuscope report` cut (`summary.embedded_rows`) says so above its rows.
 */
export function renderSummary(container, summary, actions) {
  const tables = (summary && summary.tables) || {};
  const cuts = (summary && summary.embedded_rows) || {};
  const names = Object.keys(tables);
  if (names.length === 0) {
    replaceChildren(
        container, el('p', {className: 'note'}, 'These reports hold no summary tables.'));
    return;
  }
  replaceChildren(
      container,
      names.map(
          (name) =>
              el('section', {className: 'summary-table', 'data-table': name},
                 el('h3', {}, kTableTitles[name] || name, ' ', el('code', {}, name)),
                 cutNote(name, cuts[name]), tableOf(name, tables[name] || [], actions))));
}

// "this page holds the first 5,000 of the table's 1,057,416 rows: ..." for a cut table.
function cutNote(name, cut) {
  if (!cut || !(cut.rows < cut.total)) return [];
  const count = (n) => Number(n).toLocaleString('en-US');
  return el(
      'p', {className: 'warning'},
      `this page holds the first ${count(cut.rows)} of the table's ${count(cut.total)} rows: ` +
          `\`gpuscope stats -r ${name}\` or \`gpuscope view\` shows them all`);
}

function tableOf(name, rows, actions) {
  if (rows.length === 0) return el('p', {className: 'note'}, 'No rows.');
  // Column order is the order stats writes them in (the keys of its JSON rows).
  const columns = Object.keys(rows[0]).map((key) => {
    const numeric = typeof rows[0][key] === 'number';
    const column = {key, label: key, numeric, format: formatterFor(key, numeric)};
    if (name === 'cuda_gpu_kern_sum' && key === 'Name') {
      column.cell = (row) =>
          el('button',
             {className: 'link kernel-link', onclick: () => actions.onKernel(String(row.Name))},
             String(row.Name));
    }
    return column;
  });
  const timeColumn = columns.find((c) => c.key === 'Time (%)');
  return sortableTable(
      columns, rows, timeColumn ? {initialSort: {key: timeColumn.key, descending: true}} : {});
}

// The numbers stay those stats prints (no unit scaling), with thousands separators to read.
function formatterFor(key, numeric) {
  if (!numeric) return undefined;
  if (key === 'Time (%)') return (value) => (typeof value === 'number' ? value.toFixed(1) : '');
  return (value) => (
             typeof value === 'number' ? value.toLocaleString('en-US', {maximumFractionDigits: 1}) :
                                         '');
}
