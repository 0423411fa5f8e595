// The visible time range of the timeline and the moves on it (zoom around a point, pan),
// kept inside the report's bounds so the user never gets lost in empty time. Pure: no DOM.

const kMinSpanNs = 20;  // below this one nanosecond spans whole pixels: nothing more to see

export class TimeView {
  /** `start`, `end`: the report's time bounds in ns. */
  constructor(start, end) {
    this.setBounds(start, end);
    this.t0 = this.start;
    this.t1 = this.end;
  }

  setBounds(start, end) {
    this.start = start;
    this.end = end > start ? end : start + 1000;
  }

  get span() {
    return this.t1 - this.t0;
  }

  /** Shows [t0, t1], clamped to the bounds. */
  set(t0, t1) {
    const fullSpan = this.end - this.start;
    let span = Math.min(Math.max(t1 - t0, kMinSpanNs), fullSpan);
    let from = t0;
    if (t1 - t0 < kMinSpanNs) from = (t0 + t1) / 2 - span / 2;
    from = Math.min(Math.max(from, this.start), this.end - span);
    this.t0 = from;
    this.t1 = from + span;
  }

  /** Zooms by `factor` (< 1 zooms in) keeping time `anchor` at the same place on screen. */
  zoomAround(anchor, factor) {
    const t0 = anchor - (anchor - this.t0) * factor;
    const t1 = anchor + (this.t1 - anchor) * factor;
    this.set(t0, t1);
  }

  /** Pans by `fraction` of the visible span (positive: later). */
  panBy(fraction) {
    const shift = this.span * fraction;
    this.set(this.t0 + shift, this.t1 + shift);
  }

  reset() {
    this.t0 = this.start;
    this.t1 = this.end;
  }
}
