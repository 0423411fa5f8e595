// The timeline of one or more reports (processes of one run share CUPTI's clock, so their rows
// line up on one time axis): a <canvas> redrawn once per animation frame from the source's
// level-of-detail answers (slices one by one, narrow events merged into density buckets).
// Queries run only for rows on screen and only when the view changed; an HTTP answer that
// arrives late is drawn at its absolute times, so panning never waits for the network.

import {el, replaceChildren} from './dom.js';
import {gpuSpan, kAlignStarts, reportOffsets, rowOrder, shiftAnswer} from './report_alignment.js';
import {TimeView} from './time_view.js';
import {drawFrame, kAxisHeight, kLabelWidth} from './timeline_draw.js';
import {bindTimelineInput} from './timeline_input.js';
import {kRowHeight, layoutRows, rowAt} from './track_layout.js';

const kHitSlopPx = 2;
const kMaxCanvasRowsHeight = 560;

export class Timeline {
  /**
   * `container`: element to fill; `source`: EmbeddedSource or HttpSource; `reports`: entries of
   * reports() to show; `hooks`: {onHover(hit, x, y) | onHover(null), onSelect(slice),
   * onRange({t0, t1}), onError}; `options`: {align: 'starts' | 'absolute' | 'ranks'}.
   */
  constructor(container, source, reports, hooks, options = {}) {
    this.source = source;
    this.reports = reports;
    this.hooks = hooks;
    // Times on screen are report times minus the report's offset (report_alignment.js).
    this.align = options.align || kAlignStarts;
    this.offsets = reportOffsets(reports, this.align);
    // A report that never flushed has no start or end: it must not make the axis NaN.
    const starts =
        reports.filter((r) => Number.isFinite(r.start)).map((r) => this.toAxis(r.index, r.start));
    const ends =
        reports.filter((r) => Number.isFinite(r.end)).map((r) => this.toAxis(r.index, r.end));
    this.origin = starts.length ? Math.min(...starts) : 0;
    this.homeOrigin = this.origin;
    this.view = new TimeView(this.origin, ends.length ? Math.max(...ends) : this.origin + 1e6);
    // The view opens on the GPU activity, not on seconds of start-up before it.
    this.gpu = gpuSpan(reports, this.offsets);
    if (this.gpu) this.view.set(this.gpu.start, this.gpu.end);
    this.rows = [];
    this.contentHeight = 0;
    this.scrollY = 0;
    // Keyed by trackKey(report, track id):
    this.answers = new Map();   // the last answer drawn
    this.asked = new Map();     // view key of the last query (answered or in flight)
    this.inFlight = new Set();  // tracks with an HTTP query under way
    this.highlights = [];
    this.range = null;  // {t0, t1} selected with shift+drag
    this.frameScheduled = false;
    this.stats = {frames: 0, lastFrameMs: 0, firstPaintMs: null};

    this.canvas =
        el('canvas', {className: 'timeline-canvas', tabIndex: 0, 'aria-label': 'timeline'});
    this.trackList = el('ul', {className: 'track-list', 'aria-label': 'timeline rows'});
    replaceChildren(container, this.canvas, this.trackList);
    this.unbind = bindTimelineInput(this.canvas, this);
    this.resizeObserver = new ResizeObserver(() => this.requestFrame());
    this.resizeObserver.observe(container);
    this.container = container;
  }

  /** Loads the rows; resolves after the first frame with data is drawn. */
  async load() {
    // Ranks of one job: one process row per report, in rank order, labelled by rank.
    const ordered = rowOrder(this.reports);
    const perReport = await Promise.all(ordered.map((r) => this.source.tracks(r.index)));
    this.rows = [];
    this.contentHeight = 0;
    ordered.forEach((report, i) => {
      const process = report.label ||
          `Process ${report.pid} \u00b7 ${report.command_line || report.path || ''}`.trim();
      const layout = layoutRows(perReport[i], process);
      for (const row of layout.rows) {
        row.y += this.contentHeight;
        row.report = report.index;
        if (row.type === 'track') row.key = trackKey(report.index, row.track.id);
        this.rows.push(row);
      }
      this.contentHeight += layout.height;
    });
    // The list mirrors the canvas rows as text, for screen readers and tests.
    replaceChildren(
        this.trackList,
        this.rows.map(
            (row) => el(
                'li', {'data-kind': row.type === 'group' ? 'group' : row.track.kind}, row.label)));
    this.requestFrame();
  }

  destroy() {
    this.unbind();
    this.resizeObserver.disconnect();
  }

  /** A time of `report` (as the source returns it) on the shared axis, and back. */
  toAxis(report, t) {
    return t - (this.offsets.get(report) || 0);
  }
  fromAxis(report, t) {
    return t + (this.offsets.get(report) || 0);
  }

  /** Shows the span of GPU activity (the opening view), or the whole run without any. */
  showGpuActivity() {
    if (this.gpu)
      this.view.set(this.gpu.start, this.gpu.end);
    else
      this.view.reset();
    this.requestFrame();
  }

  /** The selected range of time (on the axis), shaded while it is dragged out. */
  setRange(range) {
    this.range = range;
    this.requestFrame();
  }

  /** The drag that selects a range ended: the hooks show its tables. */
  finishRange() {
    if (this.range && this.range.t1 > this.range.t0 && this.hooks.onRange)
      this.hooks.onRange(this.range);
  }

  /** [start, end] of the range in `report`'s own times (as the source takes them). */
  rangeOf(report, range) {
    return {start: this.fromAxis(report, range.t0), end: this.fromAxis(report, range.t1)};
  }

  /** Sets the time the axis labels count from (on the axis). */
  setOrigin(t) {
    this.origin = t;
    this.canvas.dataset.origin = String(t);
    this.requestFrame();
  }

  /** O: the origin at the selected event's start (or the view's start); shift+O: back. */
  setOriginAtSelection(reset) {
    if (reset) {
      this.setOrigin(this.homeOrigin);
      return;
    }
    const selected = this.highlights.find((mark) => mark.selected);
    this.setOrigin(selected ? selected.s : this.view.t0);
  }

  isShown() {
    return this.canvas.isConnected && this.canvas.offsetParent !== null;
  }

  get plotLeft() {
    return kLabelWidth;
  }

  get plotWidth() {
    return Math.max(1, this.canvas.clientWidth - kLabelWidth);
  }

  timeAtX(x) {
    return this.view.t0 + ((x - kLabelWidth) / this.plotWidth) * this.view.span;
  }

  scrollRowsBy(dy) {
    const viewport = this.canvas.clientHeight - kAxisHeight;
    const maxScroll = Math.max(0, this.contentHeight - viewport);
    this.scrollY = Math.min(maxScroll, Math.max(0, this.scrollY + dy));
  }

  /** Shows [t0, t1] (ns). */
  showRange(t0, t1) {
    this.view.set(t0, t1);
    this.requestFrame();
  }

  /**
   * Outlines the selected event and its related ones: [{report, track, s, e, depth?, selected}].
   */
  setHighlights(marks) {
    this.highlights = marks;
    this.requestFrame();
  }

  requestFrame() {
    if (this.frameScheduled) return;
    this.frameScheduled = true;
    requestAnimationFrame(() => {
      this.frameScheduled = false;
      this.frame();
    });
  }

  frame() {
    const began = performance.now();
    const width = this.container.clientWidth;
    if (width <= 0) return;  // hidden tab: drawn when shown again
    const height = Math.min(this.contentHeight, kMaxCanvasRowsHeight) + kAxisHeight;
    this.sizeCanvas(width, height);
    this.query();
    const ctx = this.canvas.getContext('2d');
    const ratio = window.devicePixelRatio || 1;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    this.axisLabels = drawFrame(ctx, {
      width,
      height,
      rows: this.rows,
      scrollY: this.scrollY,
      view: this.view,
      origin: this.origin,
      answers: this.answers,
      highlights: this.highlights,
      range: this.range,
    });
    this.canvas.dataset.t0 = String(this.view.t0);
    this.canvas.dataset.t1 = String(this.view.t1);
    this.stats.frames++;
    this.stats.lastFrameMs = performance.now() - began;
    if (this.stats.firstPaintMs === null && this.answers.size > 0) {
      this.stats.firstPaintMs = performance.now();
    }
  }

  sizeCanvas(width, height) {
    const ratio = window.devicePixelRatio || 1;
    if (this.canvas.width !== Math.round(width * ratio) ||
        this.canvas.height !== Math.round(height * ratio)) {
      this.canvas.width = Math.round(width * ratio);
      this.canvas.height = Math.round(height * ratio);
      this.canvas.style.width = width + 'px';
      this.canvas.style.height = height + 'px';
    }
  }

  // Asks the source for every on-screen track whose answer is not for the current view.
  query() {
    const {t0, t1} = this.view;
    const px = this.plotWidth;
    const key = `${t0}|${t1}|${px}`;
    const top = this.scrollY;
    const bottom = top + this.canvas.clientHeight;
    for (const row of this.rows) {
      if (row.type !== 'track' || row.y + row.height < top || row.y > bottom) continue;
      const id = row.track.id;
      const rowKey = row.key;
      if (this.asked.get(rowKey) === key) continue;
      const offset = this.offsets.get(row.report) || 0;
      if (this.source.slicesNow) {
        this.answers.set(
            rowKey,
            shiftAnswer(
                this.source.slicesNow(row.report, id, t0 + offset, t1 + offset, px), offset));
        this.asked.set(rowKey, key);
        continue;
      }
      if (this.inFlight.has(rowKey)) continue;  // asked again when this one lands
      this.inFlight.add(rowKey);
      this.asked.set(rowKey, key);
      this.source.slices(row.report, id, t0 + offset, t1 + offset, px)
          .then(
              (answer) => this.answers.set(rowKey, shiftAnswer(answer, offset)),
              (error) => this.hooks.onError && this.hooks.onError(error),
              )
          .finally(() => {
            this.inFlight.delete(rowKey);
            const {t0: now0, t1: now1} = this.view;
            if (`${now0}|${now1}|${this.plotWidth}` !== key) this.asked.delete(rowKey);
            this.requestFrame();
          });
    }
  }

  /** What is under (x, y): {row, slice} | {row, bucket} | {row, counter} | null. */
  hitTest(x, y) {
    if (x < kLabelWidth || y < kAxisHeight) return null;
    const row = rowAt(this.rows, y - kAxisHeight + this.scrollY);
    if (!row || row.type !== 'track') return null;
    const answer = this.answers.get(row.key);
    if (!answer) return null;
    const t = this.timeAtX(x);
    const slop = (kHitSlopPx / this.plotWidth) * this.view.span;
    const depth = Math.floor((y - kAxisHeight + this.scrollY - row.y) / kRowHeight);
    if (row.track.kind === 'counter') {
      let point = null;
      for (const p of answer.counter || []) {
        if (p.t > t) break;
        point = p;
      }
      return point ? {row, counter: point} : null;
    }
    let best = null;
    for (const slice of answer.slices || []) {
      if ((slice.depth || 0) !== depth) continue;
      if (slice.s - slop <= t && t <= slice.e + slop) {
        // Prefer the innermost (shortest) event under the cursor.
        if (!best || slice.e - slice.s < best.e - best.s) best = slice;
      }
    }
    if (best) return {row, slice: best};
    for (const bucket of answer.buckets || []) {
      if ((bucket.depth || 0) === depth && bucket.s - slop <= t && t <= bucket.e + slop)
        return {row, bucket};
    }
    return null;
  }

  hoverAt(x, y) {
    const hit = this.hitTest(x, y);
    this.canvas.style.cursor = hit && hit.slice ? 'pointer' : 'default';
    this.hooks.onHover(hit, x, y);
  }

  leave() {
    this.hooks.onHover(null, 0, 0);
  }

  clickAt(x, y) {
    const hit = this.hitTest(x, y);
    if (hit && hit.slice) {
      this.hooks.onSelect({...hit.slice, track: hit.row.track.id, report: hit.row.report});
    } else if (hit && hit.bucket) {
      // A merged bucket: zoom onto it so that its events come apart.
      const pad = (hit.bucket.e - hit.bucket.s) * 2 + this.view.span / this.plotWidth * 4;
      this.showRange(hit.bucket.s - pad, hit.bucket.e + pad);
    }
  }
}

/** Key of a track in the timeline's maps: track ids are unique within a report only. */
export function trackKey(report, trackId) {
  return report + '\n' + trackId;
}
