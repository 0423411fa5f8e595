// Mouse and keyboard on the timeline, like Perfetto: ctrl/plain wheel zooms around the cursor,
// shift+wheel pans, drag pans (and scrolls rows), W/S zoom in/out around the centre, A/D pan,
// 0 shows the whole run, G the GPU activity (the opening view), O puts the axis origin at the
// selected event (shift+O: back at the start); shift+drag selects a range of time.
// A press that does not move is a click (select). The handlers only move the TimeView and ask
// the timeline for a new frame; drawing happens once per animation frame.

const kWheelZoomPerPixel = 0.002;
const kKeyZoomFactor = 0.8;
const kKeyPanFraction = 0.1;
const kClickSlopPx = 3;

/**
 * Binds the input of `canvas` to `timeline`, which provides: view (TimeView), timeAtX(x),
 * plotLeft, plotWidth, scrollRowsBy(dy), requestFrame(), clickAt(x, y), hoverAt(x, y), leave(),
 * setRange({t0, t1}), finishRange(), showGpuActivity(), setOriginAtSelection(reset).
 * Returns a function that unbinds everything.
 */
export function bindTimelineInput(canvas, timeline) {
  const local = (event) => {
    const rect = canvas.getBoundingClientRect();
    return {x: event.clientX - rect.left, y: event.clientY - rect.top};
  };

  const onWheel = (event) => {
    event.preventDefault();
    const {x} = local(event);
    const view = timeline.view;
    if (event.shiftKey || (Math.abs(event.deltaX) > Math.abs(event.deltaY))) {
      const delta = event.shiftKey ? event.deltaY || event.deltaX : event.deltaX;
      view.panBy(delta / timeline.plotWidth);
    } else {
      const anchor = timeline.timeAtX(Math.max(timeline.plotLeft, x));
      view.zoomAround(anchor, Math.exp(event.deltaY * kWheelZoomPerPixel));
    }
    timeline.requestFrame();
  };

  let drag = null;
  const onMouseDown = (event) => {
    if (event.button !== 0) return;
    const at = local(event);
    // Shift+drag selects a range of time (its stats tables); a plain drag pans.
    drag = {x: at.x, y: at.y, lastX: at.x, lastY: at.y, moved: false, range: event.shiftKey};
    canvas.focus();
    event.preventDefault();
  };
  const onMouseMove = (event) => {
    const at = local(event);
    if (!drag) {
      if (event.target === canvas) timeline.hoverAt(at.x, at.y);
      return;
    }
    if (Math.abs(at.x - drag.x) > kClickSlopPx || Math.abs(at.y - drag.y) > kClickSlopPx)
      drag.moved = true;
    if (drag.moved && drag.range) {
      const a = timeline.timeAtX(Math.max(timeline.plotLeft, drag.x));
      const b = timeline.timeAtX(Math.max(timeline.plotLeft, at.x));
      timeline.setRange({t0: Math.min(a, b), t1: Math.max(a, b)});
    } else if (drag.moved) {
      timeline.view.panBy(-(at.x - drag.lastX) / timeline.plotWidth);
      timeline.scrollRowsBy(-(at.y - drag.lastY));
      timeline.requestFrame();
    }
    drag.lastX = at.x;
    drag.lastY = at.y;
  };
  const onMouseUp = (event) => {
    if (!drag) return;
    const wasClick = !drag.moved;
    const selectedRange = drag.range && drag.moved;
    drag = null;
    if (selectedRange) timeline.finishRange();
    if (wasClick) {
      const at = local(event);
      timeline.clickAt(at.x, at.y);
    }
  };
  const onLeave = () => {
    if (!drag) timeline.leave();
  };

  const onKey = (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target &&
        (target.tagName === 'INPUT' || target.tagName === 'SELECT' ||
         target.tagName === 'TEXTAREA'))
      return;
    if (!timeline.isShown()) return;
    const view = timeline.view;
    const centre = (view.t0 + view.t1) / 2;
    switch (event.key.toLowerCase()) {
      case 'w':
        view.zoomAround(centre, kKeyZoomFactor);
        break;
      case 's':
        view.zoomAround(centre, 1 / kKeyZoomFactor);
        break;
      case 'a':
        view.panBy(-kKeyPanFraction);
        break;
      case 'd':
        view.panBy(kKeyPanFraction);
        break;
      case '0':
        view.reset();
        break;
      case 'g':
        timeline.showGpuActivity();
        break;
      case 'o':
        timeline.setOriginAtSelection(event.shiftKey);
        break;
      default:
        return;
    }
    event.preventDefault();
    timeline.requestFrame();
  };

  canvas.addEventListener('wheel', onWheel, {passive: false});
  canvas.addEventListener('mousedown', onMouseDown);
  window.addEventListener('mousemove', onMouseMove);
  window.addEventListener('mouseup', onMouseUp);
  canvas.addEventListener('mouseleave', onLeave);
  document.addEventListener('keydown', onKey);
  return () => {
    canvas.removeEventListener('wheel', onWheel);
    canvas.removeEventListener('mousedown', onMouseDown);
    window.removeEventListener('mousemove', onMouseMove);
    window.removeEventListener('mouseup', onMouseUp);
    canvas.removeEventListener('mouseleave', onLeave);
    document.removeEventListener('keydown', onKey);
  };
}
