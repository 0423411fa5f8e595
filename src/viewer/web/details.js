// The details panel: every column of the selected event (event()), with links to the kernel
// page and to the correlated API call or GPU work (`related`).

import {el, replaceChildren} from './dom.js';
import {formatDuration} from './format.js';

const kTimeKeys = new Set(['start', 'end']);
const kDurationKeys = new Set(['duration']);

/**
 * Renders `detail` (an /api/event answer) of an event of `type` into `container`.
 * `actions`: {onKernel(name), onRelated(related), absoluteTime(t)?}; `origin`: report start for
 * relative times.
 */
export function renderDetails(container, type, detail, origin, actions) {
  const rows = [];
  for (const [key, value] of Object.entries(detail)) {
    if (key === 'related' || key === 'stack' || key === 'call_site') continue;
    rows.push(
        el('tr', {}, el('th', {scope: 'row'}, key),
           el('td', {}, valueCell(key, value, origin, actions.absoluteTime))));
  }
  const name = detail.name !== undefined ? String(detail.name) : `${type} ${detail.id ?? ''}`;
  const heading = el('h3', {className: 'details-title'}, name);
  const children = [el('div', {className: 'details-type'}, type), heading];
  if (type === 'kernel' && detail.name !== undefined) {
    children.push(
        el('button', {
          className: 'link',
          'data-action': 'kernel-page',
          onclick: () => actions.onKernel(String(detail.name))
        },
           'Open the kernel page'));
  }
  const related = Array.isArray(detail.related) ? detail.related : [];
  if (related.length > 0) {
    children.push(
        el('div', {className: 'details-related'}, 'Related: ',
           related.map(
               (r) =>
                   el('button', {
                     className: 'link related-link',
                     'data-related-id': r.id,
                     onclick: () => actions.onRelated(r)
                   },
                      relatedLabel(r)))));
  }
  if (Array.isArray(detail.stack) && detail.stack.length > 0) children.push(stackList(detail));
  children.push(el('table', {className: 'details-table'}, el('tbody', {}, rows)));
  replaceChildren(container, children);
}

// An API call's host call stack (`--backtrace`), innermost first, its call site marked.
function stackList(detail) {
  return el('div', {className: 'details-stack'}, 'Call stack:',
            el('ol', {}, detail.stack.map((frame, i) => el('li', {
                                             className: i === detail.call_site ? 'call-site' : ''
                                           },
                                                                 String(frame)))));
}

// "cudaLaunchKernel (api #4, 3.0000us)"; the server names related events, the embedded page may
// not.
function relatedLabel(r) {
  const facts = [`${r.type} #${r.id}`];
  if (r.s !== undefined && r.e !== undefined) facts.push(formatDuration(r.e - r.s));
  return r.name ? `${r.name} (${facts.join(', ')})` : facts.join(', ');
}

/** Shows a one-line error in the panel. */
export function renderDetailsError(container, message) {
  replaceChildren(container, el('div', {className: 'error'}, message));
}

// Times: relative to the report start, then the exact absolute CUPTI value.
function valueCell(key, value, origin, absoluteTime) {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' && kTimeKeys.has(key))
    return `${formatDuration(value - origin)} (${absoluteTime ? absoluteTime(value) : value})`;
  if (typeof value === 'number' && kDurationKeys.has(key)) return formatDuration(value);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
