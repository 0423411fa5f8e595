// How several reports share the timeline's one axis. Each report's events are drawn at
// (time - offset): aligned on their starts (the default: processes of different runs, or a
// run recorded days after another, sit side by side), at absolute time (processes of one
// run, which share CUPTI's clock), or on an NVTX range: the first instance of the range
// starts at the same axis time in every report (`--align nvtx:NAME`; the anchors are where
// it starts in each report, from the source's rangeStarts()). Pure: no DOM.

export const kAlignStarts = 'starts';
export const kAlignAbsolute = 'absolute';
export const kAlignNvtx = 'nvtx';

/**
 * Map report index -> offset (ns) to subtract from its times. `anchors` (kAlignNvtx): Map
 * report index -> the time that is aligned (a report without one falls back to its start).
 */
export function reportOffsets(reports, mode, anchors = new Map()) {
  const offsets = new Map();
  const anchorOf = (report) =>
      mode === kAlignNvtx && Number.isFinite(anchors.get(report.index)) ?
      anchors.get(report.index) :
      report.start;
  const points = reports.map(anchorOf).filter(Number.isFinite);
  const reference = points.length ? Math.min(...points) : 0;
  for (const report of reports) {
    const anchor = anchorOf(report);
    const aligned = mode !== kAlignAbsolute && Number.isFinite(anchor);
    offsets.set(report.index, aligned ? anchor - reference : 0);
  }
  return offsets;
}

/** A slices() answer with every time moved by -offset (a copy; the answer may be cached). */
export function shiftAnswer(answer, offset) {
  if (!offset) return answer;
  const shift = (item) => ({...item, s: item.s - offset, e: item.e - offset});
  return {
    ...answer,
    slices: (answer.slices || []).map(shift),
    buckets: (answer.buckets || []).map(shift),
    counter: (answer.counter || []).map((p) => ({...p, t: p.t - offset})),
  };
}

/**
 * The span of GPU activity of `reports` on the shared axis ({start, end}), padded by 2% on
 * each side, or null when no report has GPU activity.
 */
export function gpuSpan(reports, offsets) {
  let start = Infinity;
  let end = -Infinity;
  for (const report of reports) {
    const gpu = report.gpu;
    if (!gpu || !Number.isFinite(gpu.start) || !Number.isFinite(gpu.end)) continue;
    const offset = offsets.get(report.index) || 0;
    start = Math.min(start, gpu.start - offset);
    end = Math.max(end, gpu.end - offset);
  }
  if (!(end > start)) return null;
  const pad = (end - start) * 0.02;
  return {start: start - pad, end: end + pad};
}
