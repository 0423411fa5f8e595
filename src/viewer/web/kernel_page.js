// The kernel page: one kernel's launches, duration statistics and launch configurations, and,
// when the report carries metrics (`gpuscope profile`), its profile sections, findings with
// estimated speedups, roofline and occupancy charts (the Overview tab); and the Source tab
// (code_view.js): its source lines and SASS with the source counters, when it has them.

import {occupancyBars, occupancyChart, rooflineChart} from './charts.js';
import {renderCodeView} from './code_view.js';
import {el, replaceChildren} from './dom.js';
import {kernelFindingsList} from './findings_view.js';
import {formatBytes, formatCount, formatDuration} from './format.js';
import {sortableTable} from './sortable_table.js';

/** Renders kernel() (`page`) of report `reportLabel` into `container`. */
export function renderKernelPage(container, page, reportLabel) {
  const header = [
    // A range of the program (--replay-mode app-range) is one result for all its work.
    el('h2', {className: 'kernel-name'},
       page.range_kernels == null ?
           String(page.name ?? '') :
           `Range: ${page.name ?? ''} (${page.range_kernels} ` +
               `${page.range_kernels === 1 ? 'kernel' : 'kernels'})`),
    page.mangled && page.mangled !== page.name ?
        el('div', {className: 'kernel-mangled'}, String(page.mangled)) :
        null,
    el('div', {className: 'kernel-report'}, reportLabel),
  ];
  const overview =
      el('div', {className: 'kernel-tab-body', 'data-tab': 'overview'}, overviewParts(page));
  const source = el('div', {className: 'kernel-tab-body', 'data-tab': 'source', hidden: true});
  const bodies = [overview, source];
  let sourceDrawn = false;
  const buttons = [['overview', 'Overview'], ['source', 'Source']].map(
      ([tab, label]) =>
          el('button', {className: 'tab kernel-tab', 'data-tab': tab, role: 'tab'}, label));
  const show = (tab) => {
    for (const body of bodies) body.hidden = body.dataset.tab !== tab;
    for (const button of buttons) button.classList.toggle('active', button.dataset.tab === tab);
    // Laid out on first view: a kernel of thousands of instructions costs nothing until asked.
    if (tab === 'source' && !sourceDrawn) {
      sourceDrawn = true;
      renderCodeView(source, page.source);
    }
  };
  for (const button of buttons) button.addEventListener('click', () => show(button.dataset.tab));
  replaceChildren(
      container, header, el('nav', {className: 'tabs kernel-tabs', role: 'tablist'}, buttons),
      bodies);
  show('overview');
}

// The launches, configurations and, when profiled, sections, findings, roofline, occupancy.
function overviewParts(page) {
  const parts = [
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
           page.profile_note ?
               'No metrics: ' + String(page.profile_note) :
               'This report holds no metrics for this kernel: `gpuscope profile` collects them.'));
  } else {
    if (nonEmpty(page.findings))
      parts.push(el('h3', {}, 'Findings'), kernelFindingsList(page.findings));
    if (nonEmpty(page.sections)) parts.push(...page.sections.map(sectionTable));
    if (page.roofline) parts.push(el('h3', {}, 'Roofline'), rooflineChart(page.roofline));
    if (page.occupancy) parts.push(el('h3', {}, 'Occupancy'), occupancyBlock(page.occupancy));
  }
  return parts;
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
