// Entry point of the viewer: picks the data source (the embedded JSON of `gpuscope report`, or
// `gpuscope view`'s HTTP API), then wires the views: timeline with tooltip and details, summary
// tables, kernel page and diff view. `window.gpuscopeViewer` exposes the state for the tests
// and the benchmark.

import {renderDetails, renderDetailsError} from './details.js';
import {renderDiffView, reportLabel} from './diff_view.js';
import {el, replaceChildren} from './dom.js';
import {bucketFacts, sliceFacts} from './event_facts.js';
import {citingFindingsBlock, findingsCiting, renderFindings} from './findings_view.js';
import {formatCount, formatCounter, formatDuration} from './format.js';
import {renderKernelPage} from './kernel_page.js';
import {defaultAlignment, hasRankClocks, kAlignAbsolute, kAlignNvtx, kAlignRanks, kAlignStarts} from './report_alignment.js';
import {bindSearchBox} from './search_box.js';
import {EmbeddedSource} from './source_embedded.js';
import {HttpSource} from './source_http.js';
import {renderSummary} from './tables.js';
import {Timeline} from './timeline.js';
import {Tooltip} from './tooltip.js';

const kHoverDetailDelayMs = 60;

const viewer = {
  source: null,
  reports: [],
  timeline: null,
  selected: null,
  errors: [],
  // Several reports: aligned on their starts, at absolute time, by rank clocks, or on an NVTX
  // range (alignRange, and where its first instance starts in each report: anchors).
  align: kAlignStarts,
  alignRange: '',
  anchors: new Map(),
};
window.gpuscopeViewer = viewer;

function chooseSource() {
  if (document.getElementById('gpuscope-data')) return EmbeddedSource.fromDocument(document);
  return new HttpSource('');
}

function showFatal(message) {
  document.body.dataset.state = 'error';
  replaceChildren(document.getElementById('status'), el('div', {className: 'error'}, message));
}

function showError(error) {
  // A failing query repeats every frame: one line per distinct message is enough.
  if (viewer.errors.includes(error.message)) return;
  viewer.errors.push(error.message);
  const status = document.getElementById('status');
  status.appendChild(el('div', {className: 'error'}, error.message));
}

// --- tabs ---------------------------------------------------------------------------------

const panes = ['timeline', 'summary', 'kernel', 'diff'];

// The summary and the diff are computed over every event (medians and all), which takes the
// server a while on a large report: asked for when their tab is first opened, so that they
// never hold up the timeline's first paint.
const loadOnce = new Map();
function loadPane(name) {
  if (loadOnce.has(name)) return loadOnce.get(name);
  let loading = null;
  if (name === 'summary') loading = Promise.all([openFindings(), openSummary()]);
  if (name === 'diff')
    loading = renderDiffView(document.getElementById('diff-view'), viewer.source, viewer.reports);
  loadOnce.set(name, loading);
  return loading;
}

function showPane(name) {
  if (viewer.reports.length > 0) loadPane(name);
  for (const pane of panes) {
    document.getElementById('pane-' + pane).hidden = pane !== name;
    const tab = document.getElementById('tab-' + pane);
    tab.classList.toggle('active', pane === name);
    tab.setAttribute('aria-selected', String(pane === name));
  }
  document.getElementById('tab-kernel').hidden = name !== 'kernel' && !viewer.kernelShown;
  if (name === 'timeline' && viewer.timeline) viewer.timeline.requestFrame();
}

// --- timeline -----------------------------------------------------------------------------

function currentReports() {
  const pick = document.getElementById('report-pick');
  if (!pick || pick.value === 'all') return viewer.reports;
  return viewer.reports.filter((r) => String(r.index) === pick.value);
}

async function openTimeline() {
  if (viewer.timeline) viewer.timeline.destroy();
  const area = document.getElementById('timeline-area');
  const tooltip = new Tooltip(document.getElementById('timeline-wrap'));
  viewer.tooltip = tooltip;
  const detailCache = new Map();
  let hovered = null;
  let hoverTimer = 0;
  const timeline = new Timeline(
      area, viewer.source, currentReports(), {
        onHover: (hit, x, y) => {
          clearTimeout(hoverTimer);
          if (!hit) {
            hovered = null;
            tooltip.hide();
            return;
          }
          const origin = timeline.origin;
          if (hit.bucket) {
            tooltip.show(
                `${hit.bucket.count} merged events`, bucketFacts(hit.bucket, origin), x, y);
            return;
          }
          if (hit.counter) {
            tooltip.show(
                hit.row.label,
                [
                  [hit.row.track.unit ? 'Value' : 'In use',
                   formatCounter(hit.counter.v, hit.row.track)],
                  ['Since', formatDuration(hit.counter.t - origin)]
                ],
                x, y);
            return;
          }
          const slice = hit.slice;
          const key = `${hit.row.report}/${slice.type}/${slice.id}`;
          hovered = key;
          const show = () => tooltip.show(
              slice.name || slice.type, sliceFacts(slice, origin, detailCache.get(key)), x, y);
          show();
          if (detailCache.has(key)) return;
          // Grid/block and bytes live in the event's row: fetched once the pointer rests on it.
          hoverTimer = setTimeout(() => {
            viewer.source.event(hit.row.report, slice.type, slice.id).then((detail) => {
              detailCache.set(key, detail);
              if (hovered === key) show();
            }, () => detailCache.set(key, null));
          }, kHoverDetailDelayMs);
        },
        onSelect: (slice) => selectEvent(slice),
        onRange: (range) => showRangeStats(range),
        onError: showError,
      },
      {align: viewer.align, anchors: viewer.anchors});
  viewer.timeline = timeline;
  await timeline.load();
}

/** Selects an event: details panel, outline, and the related events outlined too. */
async function selectEvent(target) {
  viewer.selected = target;
  const timeline = viewer.timeline;
  const mark = {
    report: target.report,
    track: target.track,
    s: target.s,
    e: target.e,
    depth: target.depth,
    selected: true
  };
  timeline.setHighlights([mark]);
  const panel = document.getElementById('details');
  try {
    const detail = await viewer.source.event(target.report, target.type, target.id);
    if (viewer.selected !== target) return;
    const related = Array.isArray(detail.related) ? detail.related : [];
    const onAxis = (t) => timeline.toAxis(target.report, t);
    timeline.setHighlights([
      mark, ...related.map((r) => ({
                             report: target.report,
                             track: r.track,
                             s: onAxis(r.s),
                             e: onAxis(r.e),
                             selected: false
                           }))
    ]);
    panel.dataset.type = target.type;
    panel.dataset.id = String(target.id);
    const citing = findingsCiting(await reportFindings(target.report), target.type, target.id);
    if (viewer.selected !== target) return;
    // The row's own times are the report's: relative to the report's start.
    const entry = viewer.reports.find((r) => r.index === target.report);
    renderDetails(panel, target.type, detail, entry ? entry.start : timeline.origin, {
      absoluteTime: (t) => viewer.source.absoluteTime(t),
      onKernel: (name) => openKernel(target.report, name),
      onRelated: (r) => {
        const span = timeline.view.span;
        const s = onAxis(r.s), e = onAxis(r.e);
        if (s < timeline.view.t0 || e > timeline.view.t1)
          timeline.showRange((s + e) / 2 - span / 2, (s + e) / 2 + span / 2);
        selectEvent({report: target.report, type: r.type, id: r.id, track: r.track, s, e});
      },
    });
    if (citing.length)
      panel.append(citingFindingsBlock(target.report, citing, {onCited: showEvent}));
  } catch (error) {
    renderDetailsError(panel, error.message);
  }
}

// --- range statistics ----------------------------------------------------------------------

// The stats tables of a range of the timeline, computed by the server over the events that
// overlap it. Reports aligned on their starts see the range at different absolute times, so
// each gets its own tables then; one set covers them all on absolute time.
async function showRangeStats(range) {
  const timeline = viewer.timeline;
  const section = document.getElementById('range-stats');
  section.hidden = false;
  viewer.range = range;
  const heading =
      el('h3', {},
         `Range: ${formatDuration(range.t1 - range.t0)} from ` +
             `${formatDuration(range.t0 - timeline.origin)}`);
  replaceChildren(section, heading, el('p', {className: 'note'}, 'Computing...'));
  const offsets = new Set(timeline.reports.map((r) => timeline.offsets.get(r.index) || 0));
  const groups = offsets.size <= 1 ? [timeline.reports] : timeline.reports.map((r) => [r]);
  try {
    const parts = [];
    for (const group of groups) {
      const {start, end} = timeline.rangeOf(group[0].index, range);
      const summary = await viewer.source.rangeSummary(group.map((r) => r.index), start, end);
      const tables = el('div', {className: 'range-tables'});
      renderSummary(tables, summary, {onKernel: (name) => openKernel(group[0].index, name)});
      if (groups.length > 1) parts.push(el('h4', {}, reportLabel(group[0])));
      parts.push(tables);
    }
    if (viewer.range !== range) return;
    replaceChildren(section, heading, parts);
  } catch (error) {
    if (viewer.range !== range) return;
    replaceChildren(section, heading, el('div', {className: 'error'}, error.message));
  }
}

// --- findings ------------------------------------------------------------------------------

// findings() per report, asked for once (the trace rules stream the whole report). A report
// whose findings cannot be computed shows the error and no findings.
const findingsOf = new Map();
function reportFindings(report) {
  if (!findingsOf.has(report)) {
    findingsOf.set(report, viewer.source.findings(report).catch((error) => {
      showError(error);
      return {trace: [], kernels: []};
    }));
  }
  return findingsOf.get(report);
}

/**
 * Shows an event of `report` (a row a finding cites, a search match: {type, id, track, s, e}
 * in the report's times) on the timeline, selected, with some time around it.
 */
function showEvent(report, event) {
  showPane('timeline');
  const timeline = viewer.timeline;
  if (!timeline.reports.some((r) => r.index === report)) return;
  const s = timeline.toAxis(report, event.s), e = timeline.toAxis(report, event.e);
  const pad = Math.max((e - s) * 2, 1000);
  timeline.showRange(s - pad, e + pad);
  selectEvent({report, type: event.type, id: event.id, track: event.track, s, e});
}

async function openFindings() {
  const container = document.getElementById('findings-list');
  const perReport = await Promise.all(viewer.reports.map(
      async (r) =>
          ({report: r.index, label: reportLabel(r), findings: await reportFindings(r.index)})));
  replaceChildren(container);
  renderFindings(
      container, perReport,
      {onCited: showEvent, onKernel: (report, name) => openKernel(report, name)});
}

// --- other panes ---------------------------------------------------------------------------

async function openSummary() {
  const container = document.getElementById('summary-tables');
  try {
    const summary = await viewer.source.summary(viewer.reports.map((r) => r.index));
    // The tables cover every report: the page of the first report that ran the kernel.
    renderSummary(container, summary, {onKernel: (name) => openKernel(null, name)});
    container.append(...profiledKernelLinks());
  } catch (error) {
    replaceChildren(container, el('div', {className: 'error'}, error.message));
  }
}

// Launches that `gpuscope profile` replayed have no timestamps, so no summary row and no
// timeline slice leads to their kernel pages (sections, findings, roofline, occupancy):
// link them from the report's `profiled_kernels`.
function profiledKernelLinks() {
  const links = currentReports().flatMap(
      (r) =>
          (r.profiled_kernels || [])
              .map(
                  (name) => el(
                      'li', {},
                      el('button',
                         {className: 'link kernel-link', onclick: () => openKernel(r.index, name)},
                         String(name)))));
  if (links.length === 0) return [];
  return [el(
      'section', {className: 'summary-table', 'data-table': 'profiled_kernels'},
      el('h3', {}, 'Profiled kernels'), el('ul', {className: 'profiled-kernels'}, links))];
}

/** The kernel page of `name` in `report`, or (report null) in the first report that has it. */
async function openKernel(report, name) {
  viewer.kernelShown = true;
  showPane('kernel');
  const container = document.getElementById('kernel-page');
  replaceChildren(container, el('p', {className: 'note'}, 'Loading...'));
  const candidates = report === null ? currentReports().map((r) => r.index) : [report];
  let failure = null;
  for (const index of candidates) {
    try {
      const page = await viewer.source.kernel(index, name);
      const entry = viewer.reports.find((r) => r.index === index);
      renderKernelPage(container, page, entry ? reportLabel(entry) : '');
      return;
    } catch (error) {
      failure = failure || error;
    }
  }
  replaceChildren(
      container, el('div', {className: 'error'}, failure ? failure.message : 'no report'));
}

// `gpuscope report` cuts a report too large to embed; the page must say so, never hide it.
function cutWarning(report) {
  const embedded = report.embedded;
  if (!embedded || !(embedded.events < embedded.total)) return [];
  const at = typeof embedded.cut_at === 'number' ?
      ` (events from ${formatDuration(embedded.cut_at - report.start)} on are left out)` :
      '';
  return [
    `this page holds ${formatCount(embedded.events)} of the report's ${
        formatCount(embedded.total)} events${at}: ` +
    '`gpuscope view` shows them all'
  ];
}

/**
 * Aligns the reports on the first instance of the NVTX range `name`. A report without it
 * leaves the axis as it was and says so (one line naming the reports); false then.
 */
async function alignOnRange(name) {
  try {
    viewer.anchors = await viewer.source.rangeStarts(name);
  } catch (error) {
    showError(error);
    return false;
  }
  viewer.align = kAlignNvtx;
  viewer.alignRange = name;
  return true;
}

function alignControls() {
  const align = el(
      'select', {id: 'align-pick', 'aria-label': 'time axis of several reports'},
      hasRankClocks(viewer.reports) ? el('option', {value: kAlignRanks}, 'Aligned by rank clocks') :
                                      [],
      el('option', {value: kAlignStarts}, 'Aligned on their starts'),
      el('option', {value: kAlignAbsolute}, 'Absolute time'),
      el('option', {value: kAlignNvtx}, 'Aligned on an NVTX range'));
  align.value = viewer.align;
  const range = el('input', {
    id: 'align-range',
    type: 'text',
    placeholder: 'NVTX range, then Enter',
    'aria-label': 'NVTX range to align the reports on',
    value: viewer.alignRange,
  });
  range.hidden = viewer.align !== kAlignNvtx;
  const applyRange = async () => {
    const name = range.value.trim();
    if (!name) return;
    if (await alignOnRange(name)) {
      openTimeline().catch(showError);
    } else {
      align.value = viewer.align;  // the axis stays as it was
      range.hidden = viewer.align !== kAlignNvtx;
    }
  };
  range.addEventListener('change', () => applyRange());
  align.addEventListener('change', () => {
    range.hidden = align.value !== kAlignNvtx;
    if (align.value === kAlignNvtx) {
      if (range.value.trim()) {
        applyRange();
      } else {
        range.focus();
      }
      return;
    }
    viewer.align = align.value;
    openTimeline().catch(showError);
  });
  return [align, range];
}

function renderHeader() {
  const info = document.getElementById('report-info');
  const warnings = viewer.reports.flatMap(
      (r) => [...(r.warnings || []), ...cutWarning(r)].map((w) => `report #${r.index}: ${w}`));
  const picker = viewer.reports.length > 1 ?
      el('select', {id: 'report-pick', 'aria-label': 'reports on the timeline'},
         el('option', {value: 'all'}, `All ${viewer.reports.length} processes`),
         viewer.reports.map((r) => el('option', {value: String(r.index)}, reportLabel(r)))) :
      null;
  if (picker) picker.addEventListener('change', () => openTimeline().catch(showError));
  const align = viewer.reports.length > 1 ? alignControls() : null;
  const devices = viewer.reports.flatMap((r) => r.devices || []).map((d) => `${d.name} (${d.id})`);
  replaceChildren(
      info,
      viewer.reports.length === 1 ? reportLabel(viewer.reports[0]) :
                                    `${viewer.reports.length} reports`,
      devices.length ? ' \u00b7 ' + [...new Set(devices)].join(', ') : '', picker ? ' ' : '',
      picker, align ? ' ' : '', align || []);
  replaceChildren(
      document.getElementById('warnings'),
      warnings.map((w) => el('div', {className: 'warning'}, w)));
}

async function main() {
  for (const pane of panes) {
    document.getElementById('tab-' + pane).addEventListener('click', () => showPane(pane));
  }
  try {
    viewer.source = chooseSource();
    viewer.reports = await viewer.source.reports();
  } catch (error) {
    showFatal(error.message);
    return;
  }
  if (viewer.reports.length === 0) {
    showFatal('no reports to show');
    return;
  }
  // By rank clocks when the reports carry ranks; then the axis the command line asked for
  // (`--align`; a range was checked there).
  viewer.align = defaultAlignment(viewer.reports);
  const initial = await viewer.source.alignment().catch(() => ({mode: kAlignStarts}));
  if (initial.mode === kAlignAbsolute) viewer.align = kAlignAbsolute;
  if (initial.mode === kAlignNvtx && initial.range) await alignOnRange(initial.range);
  renderHeader();
  bindSearchBox(document.getElementById('search-box'), {
    timeline: () => viewer.timeline,
    source: viewer.source,
    show: (match) => showEvent(match.report, match),
    onError: showError,
  });
  showPane('timeline');
  await openTimeline();
  document.body.dataset.state = 'ready';
}

viewer.ready = main().catch((error) => showFatal(error.message));
