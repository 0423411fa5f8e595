// The kernel page's Source tab: the kernel's source lines and its SASS side by side, a heat
// column per source-page metric (each cell coloured by its share of the kernel's total), the
// warp stall reasons per line as a bar, and the link between the two: a click on a line marks
// its instructions and lists them below; a click on an instruction marks its line. Every number
// comes from the server's (or the embedded) /api/kernel "source" object, made by the same
// analysis as `gpuscope source`; this module only lays it out.

import {el, replaceChildren} from './dom.js';
import {formatCount} from './format.js';

// Short headers for ncu's long column names (the full name is the header's tooltip).
const kShortHeaders = {
  'Instructions Executed': 'Instructions',
  'Thread Instructions Executed': 'Thread inst.',
  'Predicated-On Thread Instructions Executed': 'Pred-on thread inst.',
  'Divergent Branches': 'Divergent',
  'L2 Theoretical Sectors Global': 'Global sectors',
  'L2 Theoretical Sectors Global Ideal': 'Sectors ideal',
  'L2 Theoretical Sectors Global Excessive': 'Excess sectors',
  'L1 Wavefronts Shared': 'Shared wavefronts',
  'L1 Wavefronts Shared Ideal': 'Wavefronts ideal',
  'L1 Wavefronts Shared Excessive': 'Excess wavefronts',
  'Warp Stall Sampling (All Samples)': 'Stall samples',
  'Warp Stall Sampling (Not-issued Samples)': 'Not-issued samples',
};

// The columns shown before the user picks: what the work is, what it wastes, where it waits.
const kDefaultColumns = [
  'Instructions Executed', 'L2 Theoretical Sectors Global Excessive',
  'L1 Wavefronts Shared Excessive', 'Warp Stall Sampling (All Samples)'
];

// One colour per stall reason, by the reason's rank in the kernel (the biggest is the reddest).
const kStallPalette =
    ['#dc2626', '#f59e0b', '#2563eb', '#10b981', '#8b5cf6', '#ec4899', '#0891b2', '#84cc16'];
const kOtherStallColor = '#9ca3af';

/** Renders `source` (/api/kernel's "source") into `container`. */
export function renderCodeView(container, source) {
  if (!source || !source.available) {
    replaceChildren(
        container,
        el('p', {className: 'note code-unavailable'},
           'No source data: ' +
               String(
                   (source && source.message) ||
                   'collect with --set full / --section SourceCounters')));
    return;
  }
  const state = {
    source,
    shown: defaultColumns(source.columns || []),
    order: 'line',
    selectedLine: null,
    selectedInstruction: null,
    stallColors: stallColors(source.stall_reasons || []),
  };
  const view = el('div', {className: 'code-view'});
  state.view = view;
  replaceChildren(container, view);
  draw(state);
  const hottest = hottestLine(source);
  if (hottest !== null) selectLine(state, hottest, /*scroll=*/ true);
}

function defaultColumns(columns) {
  const shown =
      columns.map((c, i) => kDefaultColumns.includes(c.name) ? i : -1).filter((i) => i >= 0);
  return shown.length ? shown : columns.map((c, i) => i).slice(0, 4);
}

function stallColors(reasons) {
  const colors = new Map();
  reasons.forEach((r, i) => colors.set(r.name, kStallPalette[i] || kOtherStallColor));
  return colors;
}

// The line with the most of the first column that has a total (instructions executed).
function hottestLine(source) {
  const column = (source.columns || []).findIndex((c) => c.total > 0);
  if (column < 0) return null;
  let best = null;
  (source.lines || []).forEach((line, i) => {
    const value = line.values[column] || 0;
    if (value > 0 && (best === null || value > source.lines[best].values[column])) best = i;
  });
  return best;
}

function columnLabel(column) {
  return kShortHeaders[column.name] || column.name;
}

function draw(state) {
  const {source} = state;
  replaceChildren(
      state.view, summaryBar(state), controls(state),
      source.message ? el('p', {className: 'note code-message'}, 'Note: ' + source.message) : null,
      el('div', {className: 'code-panes'}, linesPane(state), sassPane(state)),
      el('div', {className: 'code-selection'}));
  refreshSelection(state, /*scroll=*/ false);
}

function summaryBar(state) {
  const {source} = state;
  const parts = [];
  const hottest = hottestLine(source);
  const first = (source.columns || []).findIndex((c) => c.total > 0);
  if (hottest !== null) {
    const line = source.lines[hottest];
    const column = source.columns[first];
    parts.push(el(
        'span', {className: 'code-fact'}, 'Hottest line ',
        el('button',
           {className: 'link code-hottest-link', onclick: () => selectLine(state, hottest, true)},
           lineLocation(line)),
        ': ' + share(line.values[first], column.total) + ' of ' + column.name.toLowerCase()));
  }
  const samples = (source.stall_reasons || []).reduce((sum, r) => sum + r.samples, 0);
  if (samples > 0) {
    parts.push(
        el('span', {className: 'code-fact code-stall-legend'}, 'Warps stalled on ',
           source.stall_reasons.slice(0, 5).map(
               (r) =>
                   el('span', {className: 'stall-key', title: formatCount(r.samples) + ' samples'},
                      el('i', {className: 'stall-swatch', style: swatch(state, r.name)}),
                      stallName(r.name) + ' ' + share(r.samples, samples)))));
  }
  parts.push(
      el('span', {className: 'code-fact'},
         formatCount(source.instructions.length) + ' SASS instructions, ' +
             formatCount(source.lines.filter((l) => l.line !== null).length) + ' source lines'));
  return el('div', {className: 'code-summary'}, parts);
}

function controls(state) {
  const {source} = state;
  const chips = source.columns.map((column, i) => {
    const box = el('input', {type: 'checkbox', checked: state.shown.includes(i)});
    box.addEventListener('change', () => {
      state.shown = box.checked ? [...state.shown, i].sort((a, b) => a - b) :
                                  state.shown.filter((c) => c !== i);
      draw(state);
    });
    return el(
        'label', {className: 'code-column-chip', title: column.name}, box, columnLabel(column));
  });
  const order =
      el('select', {className: 'code-order', 'aria-label': 'order of the source lines'},
         el('option', {value: 'line'}, 'In line order'),
         el('option', {value: 'hot'}, 'Hottest first'));
  order.value = state.order;
  order.addEventListener('change', () => {
    state.order = order.value;
    draw(state);
  });
  return el(
      'div', {className: 'code-controls'}, el('span', {className: 'note'}, 'Columns:'), chips,
      order);
}

// "source_probe.cu:22", or the offset of a line-less group.
function lineLocation(line) {
  if (line.line === null || line.line === undefined) return '(no line information)';
  return `${line.file}:${line.line}`;
}

function share(value, total) {
  if (!(total > 0) || value === null || value === undefined) return '-';
  const percent = 100 * value / total;
  return (percent > 0 && percent < 0.1 ? '<0.1' : percent.toFixed(1)) + '%';
}

function stallName(name) {
  return String(name).replace(/^stall_/, '');
}

function swatch(state, reason) {
  return 'background:' + (state.stallColors.get(reason) || kOtherStallColor);
}

// A cell of a heat column: the value, its background as strong as its share of the total.
function heatCell(value, column) {
  const total = column.total || 0;
  const fraction = total > 0 && value ? Math.min(1, value / total) : 0;
  const cell =
      el('td', {
        className: 'num heat heat-' + column.kind,
        title: `${column.name}: ${formatCount(value)} (${share(value, total)} of the kernel)`,
      },
         value === null || value === undefined ? '' : formatCount(value));
  if (fraction > 0) {
    // Square root: a line with 1% of the work still shows; 100% is the full colour.
    const heat = 0.1 + 0.75 * Math.sqrt(fraction);
    cell.style.setProperty('--heat', heat.toFixed(3));
    if (heat > 0.55) cell.classList.add('heat-strong');  // light text on the dark colours
  }
  return cell;
}

// The row's stall reasons as one bar, as long as the row's share of the kernel's samples.
function stallCell(state, stalls) {
  const total = (state.source.stall_reasons || []).reduce((sum, r) => sum + r.samples, 0);
  const rowTotal = (stalls || []).reduce((sum, s) => sum + s[1], 0);
  if (!(total > 0) || rowTotal === 0) return el('td', {className: 'stall-cell'});
  const width = Math.max(2, Math.round(100 * Math.sqrt(rowTotal / total)));
  const segments = stalls.map(
      ([reason, samples]) => el('span', {style: `${swatch(state, reason)};flex-grow:${samples}`}));
  return el(
      'td', {
        className: 'stall-cell',
        title: stalls.map(([r, n]) => `${stallName(r)}: ${formatCount(n)}`).join(', '),
      },
      el('div', {className: 'stall-bar', style: `width:${width}%`}, segments));
}

function headerRow(state, leading) {
  return el(
      'tr', {}, leading.map((label) => el('th', {}, label)), state.shown.map((c) => {
        const column = state.source.columns[c];
        return el('th', {className: 'num', title: column.name}, columnLabel(column));
      }),
      state.source.stall_reasons.length ? el('th', {}, 'Stall reasons') : null);
}

function linesPane(state) {
  const {source} = state;
  const pane = el('section', {className: 'code-pane code-lines-pane'});
  if (!source.has_lines) {
    pane.append(
        el('h3', {}, 'Source'),
        el('p', {className: 'note code-no-lines'}, String(source.lines_note || '')));
    return pane;
  }
  let order = source.lines.map((line, i) => i);
  if (state.order === 'hot' && state.shown.length) {
    const c = state.shown[0];
    order = order.slice().sort(
        (a, b) => (source.lines[b].values[c] || 0) - (source.lines[a].values[c] || 0));
  }
  // Line, source, the heat columns and the stall bar.
  const width = 2 + state.shown.length + (source.stall_reasons.length ? 1 : 0);
  const rows = [];
  let previous = null;
  for (const i of order) {
    const line = source.lines[i];
    if (state.order === 'line') {
      if (!previous || previous.path !== line.path) {
        rows.push(
            el('tr', {className: 'code-file'},
               el('td', {colSpan: width, title: String(line.path ?? '')},
                  line.path === null ? 'Instructions without a source line' : String(line.path))));
      } else if (line.line !== null && previous.line !== null && line.line > previous.line + 1) {
        rows.push(el(
            'tr', {className: 'code-gap'},
            el('td', {colSpan: width},
               `\u22ef ${line.line - previous.line - 1} ${
                   line.line - previous.line - 1 === 1 ? 'line' : 'lines'} without instructions`)));
      }
    }
    previous = line;
    const row = el(
        'tr', {className: 'code-line', 'data-line': i, onclick: () => selectLine(state, i, false)},
        el('td', {className: 'line-number'},
           line.line === null        ? '-' :
               state.order === 'hot' ? lineLocation(line) :
                                       String(line.line)),
        el('td', {className: 'code-text', title: line.text === null ? null : String(line.text)},
           line.text === null ? el('span', {className: 'note'},
                                   line.line === null ? '' : '(source file not stored)') :
                                String(line.text)),
        state.shown.map((c) => heatCell(line.values[c], source.columns[c])),
        source.stall_reasons.length ? stallCell(state, line.stalls) : null);
    rows.push(row);
  }
  pane.append(
      el('h3', {}, 'Source'),
      el('div', {className: 'code-scroll'},
         el('table', {className: 'code-table code-lines'},
            el('thead', {}, headerRow(state, ['Line', 'Source'])), el('tbody', {}, rows))));
  return pane;
}

function sassPane(state) {
  const {source} = state;
  const rows = source.instructions.map(
      (instruction, i) =>
          el('tr', {
            className: 'code-instruction',
            'data-instruction': i,
            onclick: () => selectInstruction(state, i),
          },
             el('td', {className: 'pc'}, String(instruction.pc)),
             el('td', {
               className: 'code-text',
               title: instruction.sass === null ? null : String(instruction.sass),
             },
                instruction.sass === null ? el('span', {className: 'note'}, '(no SASS text)') :
                                            String(instruction.sass)),
             state.shown.map((c) => heatCell(instruction.values[c], source.columns[c])),
             source.stall_reasons.length ? stallCell(state, instruction.stalls) : null));
  return el(
      'section', {className: 'code-pane code-sass-pane'},
      el('h3', {}, 'SASS',
         source.has_sass ? null : el('span', {className: 'note'}, ' (offsets only: no nvdisasm)')),
      el('div', {className: 'code-scroll'},
         el('table', {className: 'code-table code-sass'},
            el('thead', {}, headerRow(state, ['Address', 'Instruction'])), el('tbody', {}, rows))));
}

function selectLine(state, index, scroll) {
  state.selectedLine = index;
  state.selectedInstruction = null;
  refreshSelection(state, scroll);
}

function selectInstruction(state, index) {
  state.selectedInstruction = index;
  state.selectedLine = state.source.instructions[index].line;
  refreshSelection(state, true);
}

// Marks the selected line and its instructions in both panes and lists them below.
function refreshSelection(state, scroll) {
  const {view, source} = state;
  const line = state.selectedLine === null ? null : source.lines[state.selectedLine];
  const members = new Set(line ? line.instructions : []);
  for (const row of view.querySelectorAll('tr.code-line')) {
    row.classList.toggle('selected', Number(row.dataset.line) === state.selectedLine);
  }
  let firstMember = null;
  for (const row of view.querySelectorAll('tr.code-instruction')) {
    const i = Number(row.dataset.instruction);
    row.classList.toggle('linked', members.has(i));
    row.classList.toggle('selected', i === state.selectedInstruction);
    if (members.has(i) && !firstMember) firstMember = row;
  }
  if (scroll) {
    const lineRow = view.querySelector('tr.code-line.selected');
    if (lineRow && state.selectedInstruction === null) scrollIntoPane(lineRow);
    const target = view.querySelector('tr.code-instruction.selected') || firstMember;
    if (target) scrollIntoPane(target);
    if (lineRow && state.selectedInstruction !== null) scrollIntoPane(lineRow);
  }
  const panel = view.querySelector('.code-selection');
  if (panel) replaceChildren(panel, line ? selectionDetails(state, line) : []);
}

// Scrolls the row's pane (not the page) so the row is in view.
function scrollIntoPane(row) {
  const pane = row.closest('.code-scroll');
  if (!pane) return;
  const top = row.offsetTop - pane.clientHeight / 3;
  pane.scrollTop = Math.max(0, top);
}

function selectionDetails(state, line) {
  const {source} = state;
  const samples = (line.stalls || []).reduce((sum, s) => sum + s[1], 0);
  const facts = state.shown.map((c) => {
    const column = source.columns[c];
    return el(
        'span', {className: 'code-fact'},
        `${columnLabel(column)} ${formatCount(line.values[c])} (${
            share(line.values[c], column.total)})`);
  });
  const stalls = samples > 0 ?
      el('div', {className: 'code-line-stalls'}, 'Stall reasons: ',
         line.stalls.map(
             ([reason, n]) =>
                 el('span', {className: 'stall-key'},
                    el('i', {className: 'stall-swatch', style: swatch(state, reason)}),
                    `${stallName(reason)} ${formatCount(n)} (${share(n, samples)})`))) :
      null;
  const instructions = line.instructions.map((i) => {
    const instruction = source.instructions[i];
    return el(
        'tr', {
          className: 'code-member' + (i === state.selectedInstruction ? ' selected' : ''),
          onclick: () => selectInstruction(state, i),
        },
        el('td', {className: 'pc'}, String(instruction.pc)),
        el('td', {className: 'code-text'}, String(instruction.sass ?? '(no SASS text)')),
        state.shown.map((c) => heatCell(instruction.values[c], source.columns[c])),
        source.stall_reasons.length ? stallCell(state, instruction.stalls) : null);
  });
  return [
    el('h3', {className: 'code-selection-title'}, lineLocation(line),
       line.text ? el('code', {}, ' ' + String(line.text).trim()) : null),
    el('div', {className: 'code-summary'}, facts),
    stalls,
    el('table', {className: 'code-table code-members'},
       el('thead', {},
          headerRow(state, ['Address', `Its ${line.instructions.length} instructions`])),
       el('tbody', {}, instructions)),
  ];
}
