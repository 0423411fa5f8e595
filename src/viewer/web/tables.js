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
 * kernel table open the kernel page through `actions.onKernel(name)`.
 */
export function renderSummary(container, summary, actions) {
  const tables = (summary && summary.tables) || {};
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
                 tableOf(name, tables[name] || [], actions))));
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
