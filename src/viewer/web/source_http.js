// HttpSource: asks `gpuscope view`'s server (docs/viewer-api.md), which reads the reports on
// demand and does the level-of-detail work, so a report of 10 million events opens. Answers
// the same questions with the same JSON as EmbeddedSource. Times come back exact, as offsets
// from one origin (time_origin.js); absoluteTime() gives a time's CUPTI value.

import {TimeOrigin} from './time_origin.js';

export class HttpSource {
  /** `base`: URL prefix of the server ('' when the page was served by it). */
  constructor(base = '') {
    this.base = base;
    this.times = new TimeOrigin();
  }

  /** The absolute time (decimal string) of a time this source returned. */
  absoluteTime(t) {
    return this.times.absolute(t);
  }

  reports() {
    return this.get('/api/reports', {});
  }

  tracks(report) {
    return this.get('/api/tracks', {report});
  }

  slices(report, track, t0, t1, px) {
    // Times are integers in ns: round outwards so the answer covers the whole view.
    return this.get('/api/slices', {
      report,
      track,
      start: this.times.absolute(Math.floor(t0)),
      end: this.times.absolute(Math.ceil(t1)),
      px: Math.max(1, Math.round(px)),
    });
  }

  event(report, type, id) {
    return this.get('/api/event', {report, type, id});
  }

  summary(reports) {
    return this.get('/api/summary', {reports: reports.join(',')});
  }

  /** The stats tables of the events that overlap [start, end] (absolute, exact). */
  rangeSummary(reports, start, end) {
    return this.get('/api/summary', {
      reports: reports.join(','),
      start: this.times.absolute(Math.floor(start)),
      end: this.times.absolute(Math.ceil(end)),
    });
  }

  kernel(report, name) {
    return this.get('/api/kernel', {report, name});
  }

  diff(a, b) {
    return this.get('/api/diff', {a, b});
  }

  search(report, query) {
    return this.get('/api/search', {report, q: query});
  }

  findings(report) {
    return this.get('/api/findings', {report});
  }

  /** The time axis the command line asked for: {mode: 'starts'|'absolute'|'nvtx', range}. */
  alignment() {
    return this.get('/api/alignment', {});
  }

  /**
   * Map report index -> where the first instance of the NVTX range `name` starts; rejects
   * with the server's one line naming the reports that have no such range.
   */
  async rangeStarts(name) {
    const answer = await this.get('/api/alignment', {nvtx: name});
    return new Map((answer.starts || []).map((t, index) => [index, t]));
  }

  /** GET path?params as JSON; a failure becomes an Error with the server's one-line message. */
  async get(path, params) {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(params)) query.set(key, String(value));
    const url = this.base + path + (query.size || [...query].length ? '?' + query.toString() : '');
    let response;
    try {
      response = await fetch(url);
    } catch (error) {
      throw new Error(`the gpuscope server did not answer (${path}): ${error.message}`);
    }
    let body = null;
    try {
      body = this.times.parse(await response.text());
    } catch (error) {
      throw new Error(
          `the gpuscope server sent a non-JSON answer to ${path} (HTTP ${response.status})`);
    }
    if (!response.ok) {
      const message =
          body && typeof body.error === 'string' ? body.error : `HTTP ${response.status}`;
      throw new Error(message);
    }
    return body;
  }
}
