// Helpers that drive the viewer page in Playwright: where an event is drawn on the canvas,
// the visible time range, the tooltip and details text.

/** Client coordinates of the centre of the slice `name` drawn on track `trackId` of `report`. */
export async function sliceCentre(page, report, trackId, name) {
  const point = await page.evaluate(({report, trackId, name}) => {
    const timeline = window.gpuscopeViewer.timeline;
    const row = timeline.rows.find(
        (r) => r.type === 'track' && r.report === report && r.track.id === trackId);
    if (!row) return {error: `no row ${trackId} of report ${report}`};
    const answer = timeline.answers.get(row.key);
    const slice = answer && answer.slices.find((s) => s.name === name);
    if (!slice) return {error: `no slice ${name} drawn on ${trackId}`};
    const rect = timeline.canvas.getBoundingClientRect();
    const mid = (Math.max(slice.s, timeline.view.t0) + Math.min(slice.e, timeline.view.t1)) / 2;
    return {
      x: rect.left + timeline.plotLeft +
          ((mid - timeline.view.t0) / timeline.view.span) * timeline.plotWidth,
      y: rect.top + 24 + row.y - timeline.scrollY + (slice.depth || 0) * 18 + 9,
      slice,
    };
  }, {report, trackId, name});
  if (point.error) throw new Error(point.error);
  return point;
}

/** A point inside the plot area of the canvas (fractions of its width and height). */
export async function canvasPoint(page, fx, fy) {
  return page.evaluate(({fx, fy}) => {
    const timeline = window.gpuscopeViewer.timeline;
    const rect = timeline.canvas.getBoundingClientRect();
    return {
      x: rect.left + timeline.plotLeft + fx * timeline.plotWidth,
      y: rect.top + fy * rect.height
    };
  }, {fx, fy});
}

/** {t0, t1} as last drawn (the canvas's data-t0/data-t1), after pending frames. */
export async function visibleRange(page) {
  await nextFrames(page);
  return page.evaluate(() => {
    const canvas = window.gpuscopeViewer.timeline.canvas;
    return {t0: Number(canvas.dataset.t0), t1: Number(canvas.dataset.t1)};
  });
}

export async function nextFrames(page, count = 2) {
  await page.evaluate(
      (count) => new Promise((resolve) => {
        let left = count;
        const step = () => (--left <= 0 ? resolve() : requestAnimationFrame(step));
        requestAnimationFrame(step);
      }),
      count);
}

export async function waitForIdle(page) {
  await page.waitForFunction(() => window.gpuscopeViewer.timeline.inFlight.size === 0);
  await nextFrames(page);
}
