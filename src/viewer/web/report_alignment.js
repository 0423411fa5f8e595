// How several reports share the timeline's one axis. Each report's events are drawn at
// (time - offset): aligned on their starts (processes of different runs, or a run recorded
// days after another, sit side by side), at absolute time (processes of one run, which share
// CUPTI's clock), or by rank clocks (the ranks of one job on several hosts: each report's
// clock offset against the reference rank, measured by the server on collectives that end
// together, `clock` in /api/reports; the default when the reports carry ranks). Pure: no DOM.

export const kAlignStarts = 'starts';
export const kAlignAbsolute = 'absolute';
export const kAlignRanks = 'ranks';

/** True when the server aligned the reports' clocks (they carry ranks). */
export function hasRankClocks(reports) {
  return reports.some((r) => r.clock && Number.isFinite(r.clock.offset));
}

/** The alignment a set of reports opens with: by rank clocks when they have them. */
export function defaultAlignment(reports) {
  return hasRankClocks(reports) ? kAlignRanks : kAlignStarts;
}

/** Map report index -> offset (ns) to subtract from its times. */
export function reportOffsets(reports, mode) {
  const offsets = new Map();
  const starts = reports.map((r) => r.start).filter(Number.isFinite);
  const reference = starts.length ? Math.min(...starts) : 0;
  for (const report of reports) {
    if (mode === kAlignRanks) {
      // The server's offset is added to the report's times; drawn at time - offset.
      offsets.set(report.index, report.clock ? 0 - report.clock.offset : 0);  // never -0
      continue;
    }
    const aligned = mode !== kAlignAbsolute && Number.isFinite(report.start);
    offsets.set(report.index, aligned ? report.start - reference : 0);
  }
  return offsets;
}

/** The reports in the order of their rows: by rank when the server placed them. */
export function rowOrder(reports) {
  const position = (r) => (r.clock && Number.isFinite(r.clock.position)) ? r.clock.position :
                                                                           Infinity;
  return [...reports].sort((a, b) => position(a) - position(b) || a.index - b.index);
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
