// Findings (docs/viewer-api.md, /api/findings): what the trace rules (`gpuscope stats --rules`)
// and the kernel rules (`gpuscope profile`) found. Listed at the top of the Summary pane, each
// trace finding with the rows it cites (a click shows the row on the timeline) and each
// profiled kernel's findings with a link to its page; and in the details panel, next to the
// event a finding cites.

import {el} from './dom.js';
import {formatDuration} from './format.js';

function severityBadge(severity) {
  const name = String(severity || 'INF');
  return el('span', {className: 'severity severity-' + name.toLowerCase()}, name);
}

/** A kernel's findings, biggest estimated speedup first (the kernel page's list too). */
export function kernelFindingsList(findings) {
  const sorted = [...findings].sort((a, b) => (b.speedup ?? -1) - (a.speedup ?? -1));
  return el(
      'ul', {className: 'findings'},
      sorted.map(
          (f) =>
              el('li', {className: 'finding', 'data-rule': f.rule}, severityBadge(f.severity), ' ',
                 el('strong', {}, String(f.title ?? f.rule ?? '')),
                 typeof f.speedup === 'number' ?
                     el('span', {className: 'speedup'}, ` Est. speedup: ${f.speedup.toFixed(2)}%`) :
                     null,
                 f.message ? el('div', {className: 'finding-message'}, String(f.message)) : null)));
}

// "memcpys #226 · 256.00MB to pageable memory · 17.980 ms"
function citedLabel(cited) {
  const parts = [`${cited.table} #${cited.correlation}`];
  if (cited.note) parts.push(String(cited.note));
  if (typeof cited.duration === 'number') parts.push(formatDuration(cited.duration));
  return parts.join(' \u00b7 ');
}

function traceFindingItem(report, finding, actions) {
  const cited = Array.isArray(finding.cited) ? finding.cited : [];
  return el(
      'li', {className: 'finding', 'data-rule': finding.rule, 'data-report': report},
      severityBadge(finding.severity), ' ', el('strong', {}, String(finding.title || finding.rule)),
      finding.gain ?
          el('span', {className: 'speedup'}, ` Est. gain: ${formatDuration(finding.gain)}`) :
          null,
      el('div', {className: 'finding-message'}, String(finding.message || '')),
      cited.length ?
          el('ul', {className: 'cited-rows'},
             cited.map(
                 (c) =>
                     el('li', {},
                        c.track !== undefined ? el('button', {
                          className: 'link cited-link',
                          'data-type': c.type,
                          'data-id': c.id,
                          onclick: () => actions.onCited(report, c)
                        },
                                                   citedLabel(c)) :
                                                el('span', {className: 'note'}, citedLabel(c))))) :
          null);
}

/**
 * Renders the findings of every report into `container`. `perReport`: [{report, label,
 * findings}] (findings() answers); `actions`: {onCited(report, cited), onKernel(report, name)}.
 */
export function renderFindings(container, perReport, actions) {
  const items = [];
  for (const {report, label, findings} of perReport) {
    const prefix = perReport.length > 1 ? [el('div', {className: 'finding-report'}, label)] : [];
    const trace = (findings && findings.trace) || [];
    const kernels = (findings && findings.kernels) || [];
    if (trace.length === 0 && kernels.length === 0) continue;
    items.push(...prefix);
    items.push(
        el('ul', {className: 'findings trace-findings'},
           trace.map((f) => traceFindingItem(report, f, actions))));
    for (const kernel of kernels) {
      items.push(
          el('div', {className: 'kernel-findings', 'data-kernel': kernel.kernel},
             el('button', {
               className: 'link kernel-link',
               onclick: () => actions.onKernel(report, String(kernel.kernel))
             },
                String(kernel.kernel)),
             kernelFindingsList(kernel.findings || [])));
    }
  }
  container.append(
      el('section', {className: 'summary-table findings-summary', 'data-table': 'findings'},
         el('h3', {}, 'Findings'),
         items.length ? items :
                        el('p', {className: 'note'},
                           'Findings: none (no trace rule fired, no profiled kernel ' +
                               'has a finding)')));
}

/** The trace findings of `findings` that cite the event (report's `type` #`id`). */
export function findingsCiting(findings, type, id) {
  const trace = (findings && findings.trace) || [];
  return trace.filter(
      (f) => (f.cited || []).some((c) => c.type === type && String(c.id) === String(id)));
}

/** The details panel's block for the findings that cite the selected event. */
export function citingFindingsBlock(report, findings, actions) {
  return el(
      'div', {className: 'details-findings'}, el('h4', {}, 'Findings citing this row'),
      el('ul', {className: 'findings'}, findings.map((f) => traceFindingItem(report, f, actions))));
}
