// The timeline's search box: finds kernels, copies, NVTX ranges and API calls by name (any
// case) in the reports on the timeline (source.search()), lists the first matches and shows
// one on the timeline, selected: a click on a match, or Enter for the next one.

import {el, replaceChildren} from './dom.js';
import {formatDuration} from './format.js';

const kListed = 20;

/**
 * Fills `container` with the box and its results. `hooks`: {timeline() (the current
 * Timeline), source, show(match) (zoom to it and select it; match times are the report's)}.
 */
export function bindSearchBox(container, hooks) {
  const input = el('input', {
    id: 'search',
    type: 'search',
    placeholder: 'Search kernels, ranges, calls by name (Enter: next)',
    'aria-label': 'search events by name',
  });
  const summary = el('span', {className: 'search-summary note'});
  const list = el('ol', {className: 'search-results'});
  replaceChildren(container, input, ' ', summary, list);
  const state = {query: '', matches: [], next: 0};

  const run = async () => {
    const query = input.value.trim();
    const timeline = hooks.timeline();
    if (!timeline) return;
    const answers = await Promise.all(timeline.reports.map(
        (r) => hooks.source.search(r.index, query).then((answer) => ({report: r.index, answer}))));
    if (input.value.trim() !== query) return;  // typed on meanwhile
    const matches =
        answers.flatMap(({report, answer}) => answer.matches.map((m) => ({...m, report})));
    const total = answers.reduce((sum, {answer}) => sum + answer.total, 0);
    matches.sort((a, b) => timeline.toAxis(a.report, a.s) - timeline.toAxis(b.report, b.s));
    Object.assign(state, {query, matches, next: 0});
    summary.textContent = query ?
        `${total} match${total === 1 ? '' : 'es'}${
            total > matches.length ? `, first ${matches.length} listed` : ''}` :
                                     '';
    replaceChildren(
        list,
        matches.slice(0, kListed)
            .map(
                (m, i) =>
                    el('li', {},
                       el('button', {
                         className: 'link search-result',
                         'data-type': m.type,
                         'data-id': m.id,
                         onclick: () => {
                           state.next = i + 1;
                           hooks.show(m);
                         }
                       },
                          `${m.name} \u00b7 ${m.type} \u00b7 ${formatDuration(m.e - m.s)}`))));
  };

  input.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    const query = input.value.trim();
    const step = () => {
      if (state.matches.length === 0) return;
      const match = state.matches[state.next % state.matches.length];
      state.next = (state.next + 1) % state.matches.length;
      hooks.show(match);
    };
    if (query !== state.query)
      run().then(step, hooks.onError);
    else
      step();
  });
  input.addEventListener('input', () => {
    if (input.value.trim() === '') run().catch(hooks.onError);
  });
  return {input, run};
}
