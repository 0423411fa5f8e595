// SVG charts of the kernel page: the roofline (log-log, ceilings and the kernel's points) and
// the occupancy graphs (how occupancy varies with block size, registers, shared memory, with
// the launch's own value marked). Built with createElementNS; labels are text nodes.

import {svg} from './dom.js';

const kWidth = 420;
const kHeight = 260;
const kMargin = {
  left: 56,
  right: 12,
  top: 14,
  bottom: 40
};

/**
 * roofline: {peak_flops, peak_bandwidth, ceilings?: [{name, flops?|bandwidth?}],
 * points: [{label, intensity (FLOP/byte), performance (FLOP/s)}]}.
 */
export function rooflineChart(roofline) {
  const ceilings =
      Array.isArray(roofline.ceilings) && roofline.ceilings.length > 0 ? roofline.ceilings : [
        {name: 'memory', bandwidth: roofline.peak_bandwidth},
        {name: 'compute', flops: roofline.peak_flops},
      ];
  const bandwidths = ceilings.filter((c) => c.bandwidth > 0);
  const peaks = ceilings.filter((c) => c.flops > 0);
  const points = (roofline.points || []).filter((p) => p.intensity > 0 && p.performance > 0);
  const topFlops = Math.max(...peaks.map((c) => c.flops), ...points.map((p) => p.performance), 1);
  const xs = [
    ...points.map((p) => p.intensity),
    ...bandwidths.flatMap((b) => peaks.map((c) => c.flops / b.bandwidth))
  ];
  const xMin = Math.pow(10, Math.floor(Math.log10(Math.min(...xs, 0.1)) - 0.5));
  const xMax = Math.pow(10, Math.ceil(Math.log10(Math.max(...xs, 10)) + 0.5));
  const yMax = Math.pow(10, Math.ceil(Math.log10(topFlops) + 0.2));
  const yMin = yMax / 1e6;
  const plot = logPlot(xMin, xMax, yMin, yMax);
  const parts = [frame(plot, 'Arithmetic intensity (FLOP/byte)', 'Performance (FLOP/s)')];
  const peakFlops = Math.max(...peaks.map((c) => c.flops), 0);
  for (const b of bandwidths) {
    // The memory roof rises until it meets the highest compute roof.
    const ridge = peakFlops > 0 ? peakFlops / b.bandwidth : xMax;
    const x0 = xMin;
    const x1 = Math.min(ridge, xMax);
    parts.push(svg('line', {
      class: 'roof memory-roof',
      x1: plot.x(x0),
      y1: plot.y(Math.max(yMin, b.bandwidth * x0)),
      x2: plot.x(x1),
      y2: plot.y(b.bandwidth * x1)
    }));
    parts.push(svg(
        'text',
        {class: 'roof-label', x: plot.x(x0) + 4, y: plot.y(Math.max(yMin, b.bandwidth * x0)) - 4},
        b.name || 'memory'));
  }
  for (const c of peaks) {
    const ridge =
        bandwidths.length > 0 ? c.flops / Math.max(...bandwidths.map((b) => b.bandwidth)) : xMin;
    parts.push(svg('line', {
      class: 'roof compute-roof',
      x1: plot.x(Math.max(xMin, ridge)),
      y1: plot.y(c.flops),
      x2: plot.x(xMax),
      y2: plot.y(c.flops)
    }));
    parts.push(svg(
        'text',
        {class: 'roof-label', x: plot.x(xMax) - 4, y: plot.y(c.flops) - 4, 'text-anchor': 'end'},
        c.name || 'compute'));
  }
  for (const p of points) {
    parts.push(svg(
        'circle', {class: 'roof-point', cx: plot.x(p.intensity), cy: plot.y(p.performance), r: 5},
        svg('title', {},
            `${p.label || 'kernel'}: ${p.intensity.toPrecision(3)} FLOP/B, ${
                p.performance.toPrecision(3)} FLOP/s`)));
  }
  return svg(
      'svg', {
        class: 'chart roofline-chart',
        width: kWidth,
        height: kHeight,
        viewBox: `0 0 ${kWidth} ${kHeight}`,
        role: 'img',
        'aria-label': 'roofline chart'
      },
      parts);
}

/**
 * One occupancy graph: {name, x_label, points: [[x, occupancy %]...], current: x}. The line shows
 * the theoretical occupancy as that resource varies; a dot marks the launch's own value.
 */
export function occupancyChart(graph) {
  const points = (graph.points || []).filter((p) => Array.isArray(p) && p.length >= 2);
  const xMax = Math.max(...points.map((p) => p[0]), graph.current || 0, 1);
  const yMax = Math.max(100, ...points.map((p) => p[1]));
  const plot = linearPlot(0, xMax, 0, yMax);
  const parts = [frame(plot, graph.x_label || '', 'Occupancy (%)')];
  if (points.length > 0) {
    parts.push(svg('polyline', {
      class: 'occupancy-line',
      fill: 'none',
      points: points.map((p) => `${plot.x(p[0]).toFixed(1)},${plot.y(p[1]).toFixed(1)}`).join(' ')
    }));
  }
  if (graph.current !== undefined && graph.current !== null) {
    const here = points.reduce(
        (best, p) =>
            (best === null || Math.abs(p[0] - graph.current) < Math.abs(best[0] - graph.current) ?
                 p :
                 best),
        null);
    if (here)
      parts.push(
          svg('circle',
              {class: 'occupancy-current', cx: plot.x(graph.current), cy: plot.y(here[1]), r: 5},
              svg('title', {}, `this launch: ${graph.current}`)));
  }
  return svg(
      'svg', {
        class: 'chart occupancy-chart',
        width: kWidth,
        height: kHeight,
        viewBox: `0 0 ${kWidth} ${kHeight}`,
        role: 'img',
        'aria-label': graph.name || 'occupancy chart'
      },
      svg('title', {}, graph.name || 'occupancy'), parts);
}

/** A horizontal bar pair: theoretical and achieved occupancy in percent. */
export function occupancyBars(theoretical, achieved) {
  const rows = [['Theoretical', theoretical], ['Achieved', achieved]].filter(
      ([, v]) => typeof v === 'number');
  const barWidth = kWidth - 130;
  return svg(
      'svg', {
        class: 'chart occupancy-bars',
        width: kWidth,
        height: rows.length * 26 + 8,
        role: 'img',
        'aria-label': 'occupancy'
      },
      rows.map(
          ([label, value], i) =>
              [svg('text', {x: 4, y: i * 26 + 20}, label),
               svg('rect', {class: 'bar-back', x: 90, y: i * 26 + 8, width: barWidth, height: 16}),
               svg('rect', {
                 class: 'bar',
                 x: 90,
                 y: i * 26 + 8,
                 width: (barWidth * Math.min(100, Math.max(0, value))) / 100,
                 height: 16
               }),
               svg('text', {x: 94 + barWidth, y: i * 26 + 20}, value.toFixed(1) + '%'),
  ]));
}

function logPlot(xMin, xMax, yMin, yMax) {
  const w = kWidth - kMargin.left - kMargin.right;
  const h = kHeight - kMargin.top - kMargin.bottom;
  const lx0 = Math.log10(xMin);
  const lx1 = Math.log10(xMax);
  const ly0 = Math.log10(yMin);
  const ly1 = Math.log10(yMax);
  const xTicks = [];
  for (let e = Math.ceil(lx0); e <= lx1; e++) xTicks.push(Math.pow(10, e));
  const yTicks = [];
  for (let e = Math.ceil(ly0); e <= ly1; e += 2) yTicks.push(Math.pow(10, e));
  return {
    x: (v) => kMargin.left + ((Math.log10(v) - lx0) / (lx1 - lx0)) * w,
    y: (v) => kMargin.top + h - ((Math.log10(Math.max(v, yMin)) - ly0) / (ly1 - ly0)) * h,
    xTicks,
    yTicks,
    tickLabel: (v) => v.toExponential(0).replace('e+', 'e'),
  };
}

function linearPlot(xMin, xMax, yMin, yMax) {
  const w = kWidth - kMargin.left - kMargin.right;
  const h = kHeight - kMargin.top - kMargin.bottom;
  const ticks = (lo, hi) => {
    const step = Math.pow(10, Math.floor(Math.log10((hi - lo) / 4 || 1)));
    const nice = [1, 2, 5, 10].map((m) => m * step).find((s) => (hi - lo) / s <= 6) || step * 10;
    const list = [];
    for (let v = lo; v <= hi + 1e-9; v += nice) list.push(v);
    return list;
  };
  return {
    x: (v) => kMargin.left + ((v - xMin) / (xMax - xMin)) * w,
    y: (v) => kMargin.top + h - ((v - yMin) / (yMax - yMin)) * h,
    xTicks: ticks(xMin, xMax),
    yTicks: ticks(yMin, yMax),
    tickLabel: (v) => String(Math.round(v)),
  };
}

// Axes, ticks and axis titles.
function frame(plot, xTitle, yTitle) {
  const left = kMargin.left;
  const bottom = kHeight - kMargin.bottom;
  const parts = [
    svg('line', {class: 'axis', x1: left, y1: kMargin.top, x2: left, y2: bottom}),
    svg('line', {class: 'axis', x1: left, y1: bottom, x2: kWidth - kMargin.right, y2: bottom}),
  ];
  for (const t of plot.xTicks) {
    parts.push(
        svg('text', {class: 'tick', x: plot.x(t), y: bottom + 14, 'text-anchor': 'middle'},
            plot.tickLabel(t)));
  }
  for (const t of plot.yTicks) {
    parts.push(
        svg('text', {class: 'tick', x: left - 4, y: plot.y(t) + 4, 'text-anchor': 'end'},
            plot.tickLabel(t)));
  }
  parts.push(
      svg('text', {
        class: 'axis-title',
        x: left + (kWidth - left - kMargin.right) / 2,
        y: kHeight - 6,
        'text-anchor': 'middle'
      },
          xTitle));
  parts.push(
      svg('text', {
        class: 'axis-title',
        x: 12,
        y: kMargin.top + (bottom - kMargin.top) / 2,
        'text-anchor': 'middle',
        transform: `rotate(-90 12 ${kMargin.top + (bottom - kMargin.top) / 2})`
      },
          yTitle));
  return parts;
}
