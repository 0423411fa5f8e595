// Level of detail for the timeline: what to draw of one track between t0 and t1 on px pixels.
// Events at least one pixel wide come back one by one; narrower ones are merged into buckets of
// one pixel (count and busy time), so the answer has O(px) entries whatever the zoom. This is
// the work the C++ server does for `gpuscope view`; EmbeddedSource does it here in JavaScript.
// Pure functions, no DOM: Node's test runner and the stub API server use them too.

/**
 * Turns a track's columnar arrays ({s, e, ...}, `s` ascending) into the typed arrays the
 * queries scan. `maxDuration` bounds how far before t0 an event visible at t0 can start.
 */
export function indexTrack(columns) {
  // (columns.depth, when present, nests events; bins remember which of theirs are nested.)
  const count = columns.s ? columns.s.length : 0;
  let order = null;
  for (let i = 1; i < count; i++) {
    if (columns.s[i] < columns.s[i - 1]) {
      // Out of order input is sorted once here rather than trusted: binary search needs it.
      order = Array.from({length: count}, (_, k) => k).sort((a, b) => columns.s[a] - columns.s[b]);
      break;
    }
  }
  const at = order ? (k) => order[k] : (k) => k;
  const s = new Float64Array(count);
  const e = new Float64Array(count);
  let maxDuration = 0;
  const depth = columns.depth ? new Uint8Array(count) : null;
  for (let k = 0; k < count; k++) {
    const i = at(k);
    if (depth) depth[k] = Math.min(255, columns.depth[i] || 0);
    s[k] = columns.s[i];
    // An event without an end (an NVTX range never closed) is drawn as an instant.
    const end =
        columns.e && columns.e[i] !== null && columns.e[i] !== undefined ? columns.e[i] : s[k];
    e[k] = Math.max(end, s[k]);
    maxDuration = Math.max(maxDuration, e[k] - s[k]);
  }
  // `depth` (sorted order) only when some event is nested: flat tracks skip the lookups.
  const nests = depth !== null && depth.some((d) => d > 0);
  return {
    s,
    e,
    order,
    maxDuration,
    count,
    depth: nests ? depth : null,
    levels: buildLevels(s, e, nests ? depth : null)
  };
}

const kBinThreshold = 50000;  // smaller tracks are scanned event by event: fast enough
const kEventsPerBin = 16;
const kMaxBins = 1 << 18;
const kLevelFanOut = 16;  // each coarser level merges this many bins of the level below
const kMinLevelBins = 64;

// Bins of growing width (16, 256, 4096... events): a query sums the coarsest level whose bins
// are at most a pixel wide, so even the whole run of 1,000,000 events costs a few thousand
// steps. Null for small tracks.
function buildLevels(s, e, depth) {
  const fine = buildBins(s, e, depth);
  if (!fine) return null;
  const levels = [fine];
  for (let below = fine; below.count >= kMinLevelBins * kLevelFanOut;) {
    const count = Math.ceil(below.count / kLevelFanOut);
    const level = {
      base: below.base,
      width: below.width * kLevelFanOut,
      count,
      first: new Int32Array(count + 1),
      busy: new Float64Array(count),
      maxEnd: new Float64Array(count).fill(-Infinity),
      maxDuration: new Float64Array(count),
      nested: new Uint8Array(count),
    };
    for (let b = 0; b < below.count; b++) {
      const up = Math.floor(b / kLevelFanOut);
      level.busy[up] += below.busy[b];
      if (below.maxEnd[b] > level.maxEnd[up]) level.maxEnd[up] = below.maxEnd[b];
      if (below.maxDuration[b] > level.maxDuration[up])
        level.maxDuration[up] = below.maxDuration[b];
      level.nested[up] |= below.nested[b];
    }
    for (let b = 0; b <= count; b++)
      level.first[b] = below.first[Math.min(b * kLevelFanOut, below.count)];
    levels.push(level);
    below = level;
  }
  return levels;
}

// Fixed-width time bins over a large track: where each bin's events begin (`first`, one more
// entry than bins), their busy time, latest end, longest duration and whether any is nested
// (depth > 0). Zoomed out, a query sums whole bins of depth-0 events instead of visiting each
// event, so 1,000,000 kernels cost ~65,000 steps a frame.
function buildBins(s, e, depth) {
  const count = s.length;
  if (count < kBinThreshold) return null;
  const bins = Math.min(kMaxBins, Math.ceil(count / kEventsPerBin));
  const base = s[0];
  const width = Math.max(1, Math.ceil((s[count - 1] - base + 1) / bins));
  const first = new Int32Array(bins + 1);
  const busy = new Float64Array(bins);
  const maxEnd = new Float64Array(bins).fill(-Infinity);
  const maxDuration = new Float64Array(bins);
  const nested = new Uint8Array(bins);
  let bin = 0;
  for (let k = 0; k < count; k++) {
    const b = Math.min(bins - 1, Math.floor((s[k] - base) / width));
    while (bin < b) first[++bin] = k;
    const duration = e[k] - s[k];
    busy[b] += duration;
    if (e[k] > maxEnd[b]) maxEnd[b] = e[k];
    if (duration > maxDuration[b]) maxDuration[b] = duration;
    if (depth && depth[k] > 0) nested[b] = 1;
  }
  while (bin < bins) first[++bin] = count;
  return {base, width, count: bins, first, busy, maxEnd, maxDuration, nested};
}

/** First index k with s[k] >= t (s ascending); s.length when none. */
export function lowerBound(s, t) {
  let lo = 0;
  let hi = s.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (s[mid] < t)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/**
 * The visible part of an indexed track. `depthOf(k)` gives the nesting depth of event k (NVTX)
 * so that buckets never merge events of different depths. Returns {wide: [k...], buckets:
 * [{s, e, count, busy, depth}]} where k are indexes into the indexed (sorted) arrays.
 */
export function selectVisible(index, t0, t1, px, depthOf) {
  const wide = [];
  const buckets = [];
  const width = Math.max(1, Math.floor(px));
  if (!(t1 > t0) || index.count === 0) return {wide, buckets};
  const scale = width / (t1 - t0);
  const {s, e} = index;
  // Starts ascend, so pixels do too: each depth has at most one open bucket, the current one.
  const open = [];
  const addToBucket = (pixel, depth, start, end, count, busy, k) => {
    let bucket = open[depth];
    if (bucket === undefined || bucket.pixel !== pixel) {
      bucket = {s: start, e: end, count: 0, busy: 0, depth, pixel, first: k};
      open[depth] = bucket;
      buckets.push(bucket);
    }
    bucket.count += count;
    bucket.busy += busy;
    if (end > bucket.e) bucket.e = end;
  };
  const pixelOf = (t) => Math.min(width - 1, Math.max(0, Math.floor((t - t0) * scale)));
  // Visits events [from, to) one by one; returns false once they start after t1.
  const visit = (from, to) => {
    for (let k = from; k < to; k++) {
      const start = s[k];
      if (start > t1) return false;
      const end = e[k];
      if (end < t0) continue;
      if ((end - start) * scale >= 1)
        wide.push(k);
      else
        addToBucket(pixelOf(start), depthOf ? depthOf(k) : 0, start, end, 1, end - start, k);
    }
    return true;
  };

  if (!index.levels) {
    visit(lowerBound(s, t0 - index.maxDuration), index.count);
    return {wide, buckets};
  }
  // Whole bins are summed when a bin is at most a pixel wide (its events then lie in the
  // bucket's pixel or the next one: "about one pixel"), it lies inside the range, none of its
  // events is a pixel wide and none is nested (depth 0: one bucket lane).
  let bins = index.levels[0];
  for (const level of index.levels) {
    if (level.width * scale <= 1) bins = level;
  }
  const sumBins = bins.width * scale <= 1;
  const binOf = (t) =>
      Math.min(bins.count - 1, Math.max(0, Math.floor((t - bins.base) / bins.width)));
  const last = binOf(t1);
  for (let b = binOf(t0 - index.maxDuration); b <= last; b++) {
    const from = bins.first[b];
    const to = bins.first[b + 1];
    if (from === to || bins.maxEnd[b] < t0) continue;
    const binStart = bins.base + b * bins.width;
    if (sumBins && !bins.nested[b] && binStart >= t0 && binStart + bins.width <= t1 &&
        bins.maxDuration[b] * scale < 1) {
      addToBucket(pixelOf(s[from]), 0, s[from], bins.maxEnd[b], to - from, bins.busy[b], from);
    } else if (!visit(from, to)) {
      break;
    }
  }
  return {wide, buckets};
}

/**
 * Counter values between t0 and t1 reduced to at most two points per pixel (the highest value
 * in the pixel, then the last), plus the value in force at t0, so that peaks never vanish.
 * `t` ascending, `v` the value after each change.
 */
export function selectCounter(t, v, t0, t1, px) {
  const points = [];
  const n = t.length;
  if (n === 0 || !(t1 > t0)) return points;
  const width = Math.max(1, Math.floor(px));
  const scale = width / (t1 - t0);
  let k = lowerBound(t, t0);
  if (k > 0) k--;  // the value in force when the range begins
  let pixel = -1;
  let peak = null;
  let last = null;
  const flush = () => {
    if (peak === null) return;
    points.push(peak);
    if (last !== peak) points.push(last);
  };
  for (; k < n && t[k] <= t1; k++) {
    const p = Math.floor((t[k] - t0) * scale);
    if (p !== pixel) {
      flush();
      pixel = p;
      peak = null;
    }
    const point = {t: t[k], v: v[k]};
    if (peak === null || point.v > peak.v) peak = point;
    last = point;
  }
  flush();
  return points;
}
