// Number formatting shared by every view: durations, sizes, counts and the time axis ticks.
// Units follow nvprof's summary (ns, us, ms, s with up to 4 significant digits), so the
// viewer's numbers read like `gpuscope stats`.

const kDurationUnits = [
  [1e9, 's'],
  [1e6, 'ms'],
  [1e3, 'us'],
];

/** "1.234ms": a duration in nanoseconds, auto-scaled. */
export function formatDuration(ns) {
  if (ns === null || ns === undefined || !Number.isFinite(ns)) return '-';
  if (ns === 0) return '0';
  const magnitude = Math.abs(ns);
  for (const [scale, unit] of kDurationUnits) {
    if (magnitude >= scale) return trimNumber(ns / scale) + unit;
  }
  return Math.round(ns) + 'ns';
}

/**
 * The labels of axis ticks `step` ns apart, at times `ticks` (ns from the origin): one unit
 * for the whole axis (the largest that fits its biggest time) and as many decimals as the step
 * needs, so that neighbouring labels always differ, however deep the zoom: "336.43002ms",
 * "336.43004ms" rather than "336.43ms" twice.
 */
export function formatAxisLabels(ticks, step) {
  if (ticks.length === 0) return [];
  const biggest = Math.max(...ticks.map(Math.abs), step);
  let scale = 1;
  let unit = 'ns';
  for (const [unitScale, name] of kDurationUnits) {
    if (biggest >= unitScale) {
      scale = unitScale;
      unit = name;
      break;
    }
  }
  const decimals = Math.max(0, Math.min(9, Math.ceil(Math.log10(scale / step) - 1e-9)));
  return ticks.map((t) => {
    const text = (t / scale).toFixed(decimals);
    return (/^-0(\.0*)?$/.test(text) ? text.slice(1) : text) + unit;
  });
}

/** "1.500 MiB": a byte count in binary units. */
export function formatBytes(bytes) {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return '-';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return (unit === 0 ? String(value) : value.toFixed(3)) + ' ' + units[unit];
}

/**
 * A counter track's value: GPU metric tracks carry their unit and the scale their integer values
 * were stored with ("97.3 %", "3012.5 GB/s"); device memory is bytes.
 */
export function formatCounter(value, track) {
  if (!track || !track.unit) return formatBytes(value);
  if (value === null || value === undefined || !Number.isFinite(value)) return '-';
  return (value / (track.scale || 1)).toFixed(1) + ' ' + track.unit;
}

/** "1,234,567": an integer count with thousands separators. */
export function formatCount(n) {
  if (n === null || n === undefined || !Number.isFinite(n)) return '-';
  return Math.round(n).toLocaleString('en-US');
}

/** "+12.5%": a signed percentage. */
export function formatPercent(p) {
  if (p === null || p === undefined || !Number.isFinite(p)) return '-';
  return (p > 0 ? '+' : '') + p.toFixed(1) + '%';
}

// Four significant digits, no trailing zeros beyond what nvprof prints ("5.7510us").
function trimNumber(x) {
  const magnitude = Math.abs(x);
  if (magnitude >= 100) return x.toFixed(2);
  if (magnitude >= 10) return x.toFixed(3);
  return x.toFixed(4);
}

/**
 * Ticks of the time axis for [t0, t1] (ns) at about `targetCount` ticks: steps of 1, 2 or 5
 * times a power of ten, so labels stay round whatever the zoom.
 * Returns {step, ticks: [t...]} with every tick a multiple of step inside the range.
 */
export function niceTicks(t0, t1, targetCount) {
  const span = t1 - t0;
  if (!(span > 0) || !(targetCount > 0)) return {step: 0, ticks: []};
  const rough = span / targetCount;
  const power = Math.pow(10, Math.floor(Math.log10(rough)));
  let step = power;
  for (const m of [1, 2, 5, 10]) {
    if (power * m >= rough) {
      step = power * m;
      break;
    }
  }
  step = Math.max(1, step);  // times are integer nanoseconds
  const ticks = [];
  for (let t = Math.ceil(t0 / step) * step; t <= t1; t += step) ticks.push(t);
  return {step, ticks};
}
