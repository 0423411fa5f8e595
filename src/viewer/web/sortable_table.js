// A table sortable by clicking a column header (again: reverse) and filtered by a text box
// (rows whose text contains it, case-insensitive). Used by the summary, kernel and diff views.

import {el, replaceChildren} from './dom.js';

/**
 * columns: [{key, label, numeric?, format?(value, row), cell?(row) -> Node}]; rows: objects.
 * Returns the element: a filter box above the table. `options.initialSort`: {key, descending}.
 */
export function sortableTable(columns, rows, options = {}) {
  const state = {
    key: options.initialSort ? options.initialSort.key : null,
    descending: options.initialSort ? options.initialSort.descending : false,
    filter: '',
  };
  const filterBox = el('input', {
    type: 'search',
    className: 'table-filter',
    placeholder: 'Filter rows',
    'aria-label': 'filter rows',
  });
  const count = el('span', {className: 'table-count'});
  const head = el('thead');
  const body = el('tbody');
  const table = el('table', {className: 'data-table'}, head, body);

  const cellText = (column, row) => {
    const value = row[column.key];
    return column.format                      ? column.format(value, row) :
        value === null || value === undefined ? '' :
                                                String(value);
  };
  // Each row's searchable text, computed once.
  const texts =
      rows.map((row) => columns.map((c) => cellText(c, row)).join('\u0001').toLowerCase());

  const render = () => {
    replaceChildren(
        head, el('tr', {}, columns.map((column) => {
          const sorted = state.key === column.key;
          return el(
              'th', {
                scope: 'col',
                className: (column.numeric ? 'num ' : '') + (sorted ? 'sorted' : ''),
                'aria-sort': sorted ? (state.descending ? 'descending' : 'ascending') : 'none',
                'data-key': column.key,
                onclick: () => {
                  state.descending =
                      state.key === column.key ? !state.descending : !!column.numeric;
                  state.key = column.key;
                  render();
                },
              },
              column.label, sorted ? (state.descending ? ' \u25BC' : ' \u25B2') : '');
        })));
    const needle = state.filter.toLowerCase();
    let order = rows.map((_, i) => i).filter((i) => !needle || texts[i].includes(needle));
    if (state.key !== null) {
      const key = state.key;
      // Equal values keep the rows' own order (the tool's: stats sorts by total time, and
      // Time (%) rounds many rows to 0.0) in either direction.
      const sign = state.descending ? -1 : 1;
      order.sort((i, j) => sign * compareValues(rows[i][key], rows[j][key]) || i - j);
    }
    replaceChildren(
        body,
        order.map(
            (i) =>
                el('tr', {},
                   columns.map(
                       (column) =>
                           el('td', {className: column.numeric ? 'num' : ''},
                              column.cell ? column.cell(rows[i]) : cellText(column, rows[i]))))));
    count.textContent = needle ? `${order.length} of ${rows.length} rows` : `${rows.length} rows`;
  };
  filterBox.addEventListener('input', () => {
    state.filter = filterBox.value;
    render();
  });
  render();
  return el(
      'div', {className: 'table-block'}, el('div', {className: 'table-tools'}, filterBox, count),
      table);
}

// Numbers numerically, everything else as text; missing values last.
function compareValues(a, b) {
  const missingA = a === null || a === undefined;
  const missingB = b === null || b === undefined;
  if (missingA || missingB) return missingA === missingB ? 0 : missingA ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b));
}
