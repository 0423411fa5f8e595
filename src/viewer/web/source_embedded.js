// EmbeddedSource: answers the viewer's questions (docs/viewer-api.md) from the JSON that
// `gpuscope report -o out.html` embeds in <script type="application/json" id="gpuscope-data">,
// so the file works with no server and no network. Level-of-detail buckets are computed here
// (lod.js) from the columnar event arrays; everything else is looked up in the embedded maps.
// No DOM use beyond fromDocument(), so Node can run it (tests, the stub API server).

import {diffKernelAggregates} from './diff_model.js';
import {indexTrack, selectCounter, selectVisible} from './lod.js';
import {TimeOrigin} from './time_origin.js';

// Pages not laid out as `gpuscope report` writes them are parsed exactly with a reviver up to
// this size (the default event limit makes about 15 MB), plainly beyond (times rounded).
const kMaxExactBytes = 40 * 1024 * 1024;

export class EmbeddedSource {
  /** `data`: the parsed embedded JSON. */
  constructor(data) {
    if (!data || !Array.isArray(data.reports)) {
      throw new Error('embedded report data has no "reports" list');
    }
    this.data = data;
    this.strings = data.strings || [];
    this.indexes = new Map();  // "report/track" -> indexTrack() result, built on first use
  }

  /** Reads the data block of `doc`; throws a one-line Error when it is missing or not JSON. */
  static fromDocument(doc) {
    const block = doc.getElementById('gpuscope-data');
    if (!block) throw new Error('this page has no embedded report data (#gpuscope-data)');
    const times = new TimeOrigin();
    let data;
    try {
      data = times.parseEmbedded(block.textContent, kMaxExactBytes);
    } catch (error) {
      throw new Error('the embedded report data is not valid JSON: ' + error.message);
    }
    if (times.rounded) {
      for (const report of data.reports || []) {
        report.warnings = [
          ...(report.warnings || []),
          'this page is too large to read its times exactly: they are rounded to 256 ns ' +
              '(`gpuscope view` shows them exactly)'
        ];
      }
    }
    const source = new EmbeddedSource(data);
    source.times = times;
    return source;
  }

  /** The absolute time (decimal string) of a time this source returned (see time_origin.js). */
  absoluteTime(t) {
    return (this.times || new TimeOrigin()).absolute(t);
  }

  async reports() {
    return this.data.reports;
  }

  async tracks(report) {
    return (this.data.tracks && this.data.tracks[String(report)]) || [];
  }

  async slices(report, trackId, t0, t1, px) {
    return this.slicesNow(report, trackId, t0, t1, px);
  }

  /** slices() without the promise: the timeline draws the answer in the same frame. */
  slicesNow(report, trackId, t0, t1, px) {
    const columns = this.trackColumns(report, trackId);
    if (!columns) return {slices: [], buckets: [], counter: []};
    if (columns.v) {
      return {
        slices: [],
        buckets: [],
        counter: selectCounter(columns.t || columns.s, columns.v, t0, t1, px)
      };
    }
    const index = this.trackIndex(report, trackId, columns);
    const original = index.order ? (k) => index.order[k] : (k) => k;
    const depthOf = index.depth ? (k) => index.depth[k] : null;
    const {wide, buckets} = selectVisible(index, t0, t1, px, depthOf);
    const slices = wide.map((k) => {
      const i = original(k);
      return {
        id: columns.id ? columns.id[i] : i,
        type: typeAt(columns, i),
        s: index.s[k],
        e: index.e[k],
        name: this.nameAt(columns, i),
        depth: depthOf ? depthOf(k) : 0,
      };
    });
    return {
      slices,
      buckets: buckets.map((b) => ({s: b.s, e: b.e, count: b.count, busy: b.busy, depth: b.depth})),
      counter: [],
    };
  }

  async event(report, type, id) {
    const byType = ((this.data.details || {})[String(report)] || {})[type];
    const detail = byType ? byType[String(id)] : undefined;
    if (detail) return detail;
    // Not every event need carry a details row (a report cut to fit): describe it from the
    // timeline arrays, so a click never comes back empty.
    const found = this.findEvent(report, type, id);
    if (!found) throw new Error(`report ${report} has no ${type} with id ${id}`);
    return {
      id,
      name: found.name,
      start: found.s,
      end: found.e,
      duration: found.e - found.s,
      related: []
    };
  }

  async summary(reports) {
    const summary = this.data.summary || {};
    if (summary.tables) return summary;  // one summary of every embedded report
    const key = reports.join(',');
    if (summary[key]) return summary[key];
    return {tables: {}};
  }

  async kernel(report, name) {
    const page = ((this.data.kernels || {})[String(report)] || {})[name];
    if (page) return page;
    const stats = this.kernelAggregates(report).get(name);
    if (!stats) throw new Error(`report ${report} has no kernel named ${name}`);
    return {
      name,
      mangled: name,
      launches: stats.count,
      total: stats.total,
      avg: stats.total / stats.count,
      min: stats.min,
      max: stats.max,
      configs: [],
      sections: [],
      findings: [],
      roofline: null,
      occupancy: null,
    };
  }

  async diff(a, b) {
    const stored = (this.data.diff || {})[`${a},${b}`];
    if (stored) return stored;
    return diffKernelAggregates(this.kernelAggregates(a), this.kernelAggregates(b));
  }

  // --- helpers -------------------------------------------------------------------------------

  trackColumns(report, trackId) {
    return ((this.data.events || {})[String(report)] || {})[trackId];
  }

  trackIndex(report, trackId, columns) {
    const key = report + '/' + trackId;
    let index = this.indexes.get(key);
    if (!index) {
      index = indexTrack(columns);
      this.indexes.set(key, index);
    }
    return index;
  }

  nameAt(columns, i) {
    if (!columns.name) return '';
    const name = columns.name[i];
    return typeof name === 'number' ? (this.strings[name] ?? '') : String(name ?? '');
  }

  findEvent(report, type, id) {
    for (const columns of Object.values((this.data.events || {})[String(report)] || {})) {
      if (!columns.s || columns.v) continue;
      for (let i = 0; i < columns.s.length; i++) {
        const eventId = columns.id ? columns.id[i] : i;
        if (eventId === id && typeAt(columns, i) === type) {
          return {
            name: this.nameAt(columns, i),
            s: columns.s[i],
            e: columns.e ? columns.e[i] : columns.s[i]
          };
        }
      }
    }
    return null;
  }

  /** name -> {count, total, min, max} over every kernel of a report (cached). */
  kernelAggregates(report) {
    this.aggregates = this.aggregates || new Map();
    let byName = this.aggregates.get(report);
    if (byName) return byName;
    byName = new Map();
    for (const columns of Object.values((this.data.events || {})[String(report)] || {})) {
      if (!columns.s || columns.v) continue;
      for (let i = 0; i < columns.s.length; i++) {
        if (typeAt(columns, i) !== 'kernel') continue;
        const duration = (columns.e ? columns.e[i] : columns.s[i]) - columns.s[i];
        const name = this.nameAt(columns, i);
        const stats = byName.get(name);
        if (stats) {
          stats.count++;
          stats.total += duration;
          stats.min = Math.min(stats.min, duration);
          stats.max = Math.max(stats.max, duration);
        } else {
          byName.set(name, {count: 1, total: duration, min: duration, max: duration});
        }
      }
    }
    this.aggregates.set(report, byName);
    return byName;
  }
}

// A track holds one type ("type":"kernel") or, when mixed, one per event: "types":[...]
// (gpuscope report's spelling) or "type":[...].
function typeAt(columns, i) {
  if (Array.isArray(columns.types)) return columns.types[i];
  return Array.isArray(columns.type) ? columns.type[i] : columns.type || 'kernel';
}
