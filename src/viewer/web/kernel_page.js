// The kernel page: one kernel's launches, duration statistics and launch configurations, and,
// when the report carries metrics (`gpuscope profile`), its profile sections, findings with
// estimated speedups, roofline and occupancy charts.

import {occupancyBars, occupancyChart, rooflineChart} from './charts.js';
import {el, replaceChildren} from './dom.js';
import {kernelFindingsList} from './findings_view.js';
import {formatBytes, formatCount, formatDuration} from './format.js';
import {sortableTable} from './sortable_table.js';

/** Renders kernel() (`page`) of report `reportLabel` into `container`. */
export function renderKernelPage(container, page, reportLabel) {
  const parts = [
    el('h2', {className: 'kernel-name'}, String(page.name ?? '')),
    page.mangled && page.mangled !== page.name ?
        el('div', {className: 'kernel-mangled'}, String(page.mangled)) :
        null,
    el('div', {className: 'kernel-report'}, reportLabel),
    el('dl', {className: 'kernel-stats'}, stat('Launches', formatCount(page.launches)),
       stat('Total', formatDuration(page.total)), stat('Average', formatDuration(page.avg)),
       stat('Minimum', formatDuration(page.min)), stat('Maximum', formatDuration(page.max))),
    el('h3', {}, 'Launch configurations'),
    configsTable(page.configs || []),
  ];
  const hasMetrics =
      nonEmpty(page.sections) || nonEmpty(page.findings) || page.roofline || page.occupancy;
  if (!hasMetrics) {
    parts.push(
        el('p', {className: 'note no-metrics'},
           'This report holds no metrics for this kernel: `gpuscope profile` collects them.'));
  } else {
    if (nonEmpty(page.findings))
      parts.push(el('h3', {}, 'Findings'), kernelFindingsList(page.findings));
    if (nonEmpty(page.sections)) parts.push(...page.sections.map(sectionTable));
    if (page.roofline) parts.push(el('h3', {}, 'Roofline'), rooflineChart(page.roofline));
    if (page.occupancy) parts.push(el('h3', {}, 'Occupancy'), occupancyBlock(page.occupancy));
  }
  replaceChildren(container, parts);
}

function stat(label, value) {
  return [el('dt', {}, label), el('dd', {}, value)];
}

function nonEmpty(list) {
  return Array.isArray(list) && list.length > 0;
}

function configsTable(configs) {
  if (configs.length === 0)
    return el('p', {className: 'note'}, 'No launch configurations recorded.');
  const rows = configs.map((c) => ({
                             grid: `(${(c.grid || []).join(', ')})`,
                             block: `(${(c.block || []).join(', ')})`,
                             registers: c.registers,
                             static_smem: c.static_smem,
                             dynamic_smem: c.dynamic_smem,
                             count: c.count,
                           }));
  return sortableTable(
      [
        {key: 'grid', label: 'Grid'},
        {key: 'block', label: 'Block'},
        {key: 'registers', label: 'Registers/thread', numeric: true},
        {key: 'static_smem', label: 'Static shared', numeric: true, format: formatBytes},
        {key: 'dynamic_smem', label: 'Dynamic shared', numeric: true, format: formatBytes},
        {key: 'count', label: 'Launches', numeric: true, format: formatCount},
      ],
      rows, {initialSort: {key: 'count', descending: true}});
}

// sections: [{name, metrics: [{name, unit, value}]}] (Nsight Compute's section layout).
function sectionTable(section) {
  const metrics = Array.isArray(section.metrics) ? section.metrics : [];
  return el(
      'section', {className: 'profile-section'},
      el('h3', {}, 'Section: ' + String(section.name ?? '')),
      el('table', {className: 'data-table'},
         el('thead', {},
            el('tr', {}, el('th', {}, 'Metric Name'), el('th', {}, 'Metric Unit'),
               el('th', {className: 'num'}, 'Metric Value'))),
         el('tbody', {},
            metrics.map(
                (m) =>
                    el('tr', {}, el('td', {}, String(m.name ?? '')),
                       el('td', {}, String(m.unit ?? '')),
                       el('td', {className: 'num'},
                          typeof m.value === 'number' ?
                              m.value.toLocaleString('en-US', {maximumFractionDigits: 2}) :
                              String(m.value ?? '')))))));
}

// occupancy: {theoretical, achieved, limits?: {resource: blocks}, graphs?: [graph]}.
function occupancyBlock(occupancy) {
  const parts = [occupancyBars(occupancy.theoretical, occupancy.achieved)];
  if (occupancy.limits && typeof occupancy.limits === 'object') {
    parts.push(
        el('table', {className: 'data-table occupancy-limits'},
           el('thead', {},
              el('tr', {}, el('th', {}, 'Resource'), el('th', {className: 'num'}, 'Block limit'))),
           el('tbody', {},
              Object.entries(occupancy.limits)
                  .map(
                      ([resource, blocks]) =>
                          el('tr', {}, el('td', {}, resource),
                             el('td', {className: 'num'}, String(blocks)))))));
  }
  for (const graph of occupancy.graphs || []) {
    parts.push(
        el('figure', {className: 'occupancy-graph'}, el('figcaption', {}, String(graph.name ?? '')),
           occupancyChart(graph)));
  }
  return el('div', {className: 'occupancy'}, parts);
}
