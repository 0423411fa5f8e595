// The diff of two reports' kernels, shared by EmbeddedSource (which has no precomputed diff)
// and the tests: one row per kernel name found in either report, as /api/diff answers.

/**
 * `a`, `b`: Map name -> {count, total}. Returns [{name, a, b, delta_total, delta_pct}] sorted by
 * the largest absolute change first; a kernel missing from one side has null there.
 */
export function diffKernelAggregates(a, b) {
  const names = new Set([...a.keys(), ...b.keys()]);
  const side = (stats) =>
      (stats ? {count: stats.count, total: stats.total, avg: stats.total / stats.count} : null);
  const rows = [];
  for (const name of names) {
    const left = side(a.get(name));
    const right = side(b.get(name));
    const deltaTotal = (right ? right.total : 0) - (left ? left.total : 0);
    const deltaPct = left && left.total > 0 ? (100 * deltaTotal) / left.total : null;
    rows.push({name, a: left, b: right, delta_total: deltaTotal, delta_pct: deltaPct});
  }
  rows.sort(
      (x, y) => Math.abs(y.delta_total) - Math.abs(x.delta_total) || (x.name < y.name ? -1 : 1));
  return rows;
}
