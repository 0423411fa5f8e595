// Canvas drawing of one timeline frame: the time axis, the row labels, slices, density blocks
// of merged buckets, counters and the selection outlines. Text drawn on a canvas is pixels,
// never markup, so names from a report need no escaping here.

import {bucketColor, eventColor} from './colors.js';
import {formatAxisLabels, formatCounter, formatDuration, niceTicks} from './format.js';
import {kRowHeight} from './track_layout.js';

export const kAxisHeight = 24;
export const kLabelWidth = 200;

const kFont = '11px system-ui, sans-serif';
const kCharWidth = 6.2;  // average width of kFont, to cut labels without measuring each one

/**
 * Draws the whole frame. `frame` bundles the state (see Timeline.frame). Returns the axis
 * labels drawn ([{t, text}], t on the axis), which the timeline keeps for tests and tools.
 */
export function drawFrame(ctx, frame) {
  const {width, height, rows, scrollY, view, origin} = frame;
  ctx.clearRect(0, 0, width, height);
  ctx.font = kFont;
  ctx.textBaseline = 'middle';
  const plotWidth = width - kLabelWidth;
  const xOf = (t) => kLabelWidth + ((t - view.t0) / view.span) * plotWidth;

  // Rows clipped to the area under the axis.
  ctx.save();
  ctx.beginPath();
  ctx.rect(0, kAxisHeight, width, height - kAxisHeight);
  ctx.clip();
  for (const row of rows) {
    const top = kAxisHeight + row.y - scrollY;
    if (top + row.height < kAxisHeight || top > height) continue;
    drawRowBackground(ctx, row, top, width);
    if (row.type === 'track') {
      ctx.save();
      ctx.beginPath();
      ctx.rect(kLabelWidth, top, plotWidth, row.height);
      ctx.clip();
      const answer = frame.answers.get(row.key);
      if (answer) drawTrack(ctx, row, top, answer, xOf, plotWidth);
      drawHighlights(ctx, row, top, frame.highlights, xOf);
      ctx.restore();
    }
    drawRowLabel(ctx, row, top);
  }
  ctx.restore();
  if (frame.range) drawRange(ctx, frame.range, xOf, height);
  return drawAxis(ctx, view, origin, xOf, width, plotWidth);
}

function drawRowBackground(ctx, row, top, width) {
  if (row.type === 'group') {
    ctx.fillStyle = row.level === 0 ? '#dde3ea' : '#eef1f5';
    ctx.fillRect(0, top, width, row.height);
  } else {
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, top, width, row.height);
  }
  ctx.fillStyle = '#e3e6ea';
  ctx.fillRect(0, top + row.height - 1, width, 1);
}

function drawRowLabel(ctx, row, top) {
  ctx.fillStyle = row.type === 'group' ? '#dde3ea' : '#f7f8fa';
  if (row.type === 'track') ctx.fillRect(0, top, kLabelWidth, row.height - 1);
  ctx.fillStyle = '#1f2933';
  ctx.font = row.type === 'group' ? 'bold ' + kFont : kFont;
  const indent = row.type === 'group' ? 6 + row.level * 8 : 22;
  const text = fitText(row.label, kLabelWidth - indent - 4);
  ctx.fillText(text, indent, top + Math.min(row.height, kRowHeight + 2) / 2);
  ctx.font = kFont;
  ctx.fillStyle = '#c5ccd4';
  ctx.fillRect(kLabelWidth - 1, top, 1, row.height);
}

function drawTrack(ctx, row, top, answer, xOf, plotWidth) {
  const kind = row.track.kind;
  if (kind === 'counter') {
    drawCounter(ctx, row, top, answer.counter || [], xOf, plotWidth);
    return;
  }
  // Density blocks first: merged buckets, more opaque the busier their pixel was.
  ctx.fillStyle = bucketColor(kind);
  for (const bucket of answer.buckets || []) {
    const x = xOf(bucket.s);
    const w = Math.max(1, xOf(bucket.e) - x);
    const fill = bucket.e > bucket.s ? bucket.busy / (bucket.e - bucket.s) : 1;
    ctx.globalAlpha = 0.35 + 0.65 * Math.min(1, fill);
    const y = top + (bucket.depth || 0) * kRowHeight + 2;
    ctx.fillRect(x, y, w, kRowHeight - 4);
  }
  ctx.globalAlpha = 1;
  for (const slice of answer.slices || []) {
    const x0 = Math.max(kLabelWidth - 2, xOf(slice.s));
    const x1 = Math.min(kLabelWidth + plotWidth + 2, xOf(slice.e));
    const w = Math.max(1, x1 - x0);
    const y = top + (slice.depth || 0) * kRowHeight + 2;
    ctx.fillStyle = eventColor(slice.type, slice.name);
    ctx.fillRect(x0, y, w, kRowHeight - 4);
    if (w > 24) {
      ctx.fillStyle = '#ffffff';
      ctx.fillText(fitText(slice.name, w - 6), x0 + 3, y + (kRowHeight - 4) / 2);
    }
  }
}

function drawCounter(ctx, row, top, points, xOf, plotWidth) {
  if (points.length === 0) return;
  let max = 0;
  for (const p of points) max = Math.max(max, p.v);
  const base = top + row.height - 3;
  const scale = max > 0 ? (row.height - 8) / max : 0;
  ctx.fillStyle = 'rgba(204, 120, 50, 0.45)';
  ctx.strokeStyle = '#b8621b';
  ctx.beginPath();
  ctx.moveTo(kLabelWidth, base);
  let y = base;
  for (const p of points) {
    const x = Math.max(kLabelWidth, xOf(p.t));
    ctx.lineTo(x, y);
    y = base - p.v * scale;
    ctx.lineTo(x, y);
  }
  ctx.lineTo(kLabelWidth + plotWidth, y);
  ctx.lineTo(kLabelWidth + plotWidth, base);
  ctx.closePath();
  ctx.fill();
  ctx.stroke();
  ctx.fillStyle = '#5c3b12';
  ctx.fillText('max ' + formatCounter(max, row.track), kLabelWidth + 4, top + 8);
}

// The selected event and the events correlated with it, outlined on their rows.
function drawHighlights(ctx, row, top, highlights, xOf) {
  for (const mark of highlights) {
    if (mark.track !== row.track.id || mark.report !== row.report) continue;
    const x0 = xOf(mark.s);
    const w = Math.max(3, xOf(mark.e) - x0);
    const depth = mark.depth === undefined || mark.depth === null ? null : mark.depth;
    const y = depth === null ? top + 1 : top + depth * kRowHeight + 1;
    const h = depth === null ? row.height - 2 : kRowHeight - 2;
    ctx.lineWidth = 2;
    ctx.strokeStyle = mark.selected ? '#111827' : '#e11d48';
    ctx.strokeRect(x0 - 1, y, w + 2, h);
  }
  ctx.lineWidth = 1;
}

// Ticks count from `origin` (the report's start, or a time the user chose: O), with the
// precision the zoom needs; a blue mark shows the origin when it is in view.
function drawAxis(ctx, view, origin, xOf, width, plotWidth) {
  ctx.fillStyle = '#f3f4f6';
  ctx.fillRect(0, 0, width, kAxisHeight);
  ctx.fillStyle = '#c5ccd4';
  ctx.fillRect(0, kAxisHeight - 1, width, 1);
  const {step, ticks} = niceTicks(view.t0 - origin, view.t1 - origin, Math.max(2, plotWidth / 110));
  const texts = formatAxisLabels(ticks, step);
  ctx.fillStyle = '#374151';
  const labels = ticks.map((tick, i) => {
    const x = xOf(tick + origin);
    ctx.fillRect(x, kAxisHeight - 6, 1, 6);
    ctx.fillText(texts[i], x + 3, kAxisHeight / 2 - 1);
    return {t: tick + origin, text: texts[i]};
  });
  if (origin >= view.t0 && origin <= view.t1) {
    ctx.fillStyle = '#2563eb';
    ctx.fillRect(xOf(origin) - 1, 0, 2, kAxisHeight);
  }
  ctx.fillStyle = '#f3f4f6';
  ctx.fillRect(0, 0, kLabelWidth, kAxisHeight - 1);
  ctx.fillStyle = '#374151';
  ctx.fillText('span ' + formatDuration(view.span), 6, kAxisHeight / 2 - 1);
  return labels;
}

// The selected range: a tint over the rows, edges marked.
function drawRange(ctx, range, xOf, height) {
  const x0 = Math.max(kLabelWidth, xOf(range.t0));
  const x1 = Math.max(x0, xOf(range.t1));
  ctx.fillStyle = 'rgba(37, 99, 235, 0.12)';
  ctx.fillRect(x0, kAxisHeight, x1 - x0, height - kAxisHeight);
  ctx.fillStyle = '#2563eb';
  ctx.fillRect(x0, kAxisHeight, 1, height - kAxisHeight);
  ctx.fillRect(x1, kAxisHeight, 1, height - kAxisHeight);
}

function fitText(text, width) {
  const chars = Math.floor(width / kCharWidth);
  if (chars <= 1) return '';
  return text.length <= chars ? text : text.slice(0, chars - 1) + '\u2026';
}
