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
// As many search matches as the server lists (viewer/event_search.h).
const kMaxSearchMatches = 200;

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

  /**
   * The /api/event answer for the columns the page embeds (docs/viewer-api.md, "Embedded
   * format"): id, name, times, correlation ids, a kernel's launch configuration, a copy's or
   * memset's bytes, and `related` - the events of the report's other tracks that share a
   * correlation id, as the server links them.
   */
  async event(report, type, id) {
    const byType = ((this.data.details || {})[String(report)] || {})[type];
    const detail = byType ? byType[String(id)] : undefined;
    if (detail) return detail;
    const found = this.eventIndex(report).byKey.get(type + '/' + id);
    if (!found) throw new Error(`report ${report} has no ${type} with id ${id}`);
    const {columns, i} = found;
    const s = columns.s[i];
    const e = columns.e ? columns.e[i] : s;
    const out = {type, id, name: this.nameAt(columns, i), start: s, end: e, duration: e - s};
    const at = (key) => (Array.isArray(columns[key]) ? columns[key][i] : undefined);
    const set = (key, value) => {
      if (value !== undefined) out[key] = value;
    };
    if (type === 'memcpy' && Array.isArray(columns.copy)) {
      const kind = this.strings[columns.copy[i]];
      if (kind) out.copy_kind = kind;
    }
    if (type === 'memcpy' || type === 'memset') set('bytes', at('bytes'));
    if (type !== 'nvtx' && type !== 'mark') set('correlation_id', at('corr'));
    if (type === 'memcpy') set('runtime_correlation_id', at('rcorr'));
    if (type === 'kernel') {
      set('grid_x', at('gx'));
      set('grid_y', at('gy'));
      set('grid_z', at('gz'));
      set('block_x', at('bx'));
      set('block_y', at('by'));
      set('block_z', at('bz'));
      set('registers_per_thread', at('regs'));
      set('static_shared_memory', at('ssmem'));
      set('dynamic_shared_memory', at('dsmem'));
    }
    out.related = this.related(report, type, [at('corr'), type === 'memcpy' ? at('rcorr') : 0]);
    return out;
  }

  async summary(reports) {
    const summary = this.data.summary || {};
    if (summary.tables) return summary;  // one summary of every embedded report
    const key = reports.join(',');
    if (summary[key]) return summary[key];
    return {tables: {}};
  }

  /**
   * /api/search from the embedded arrays: events whose name contains `query` (any case),
   * the first kMaxSearchMatches by start, and how many match in all.
   */
  async search(report, query) {
    const needle = String(query).toLowerCase();
    const matches = [];
    let total = 0;
    if (!needle) return {total, matches};
    for (const [trackId, columns] of Object.entries(
             (this.data.events || {})[String(report)] || {})) {
      if (!columns.s || columns.v) continue;
      for (let i = 0; i < columns.s.length; i++) {
        const name = this.nameAt(columns, i);
        if (!name.toLowerCase().includes(needle)) continue;
        total++;
        const s = columns.s[i];
        matches.push({
          type: typeAt(columns, i),
          id: columns.id ? columns.id[i] : i,
          track: trackId,
          s,
          e: columns.e ? columns.e[i] : s,
          name
        });
      }
    }
    matches.sort((a, b) => a.s - b.s);
    return {total, matches: matches.slice(0, kMaxSearchMatches)};
  }

  /** The time axis `gpuscope report --align` asked for (starts when the page does not say). */
  async alignment() {
    return this.data.alignment || {mode: 'starts'};
  }

  /**
   * As the server's /api/alignment?nvtx=NAME, from the embedded NVTX events: Map report index
   * -> the start of the range's first instance; an Error naming every report without one.
   */
  async rangeStarts(name) {
    const starts = new Map();
    const missing = [];
    for (const report of this.data.reports) {
      let first = Infinity;
      for (const columns of Object.values((this.data.events || {})[String(report.index)] || {})) {
        if (!columns.s || columns.v) continue;
        for (let i = 0; i < columns.s.length && columns.s[i] < first; i++) {
          if (typeAt(columns, i) === 'nvtx' && this.nameAt(columns, i) === name) first = columns.s[i];
        }
      }
      if (Number.isFinite(first)) {
        starts.set(report.index, first);
      } else {
        const file = String(report.path || '').split('/').pop();
        missing.push(`#${report.index} (${file})`);
      }
    }
    if (missing.length) {
      throw new Error(
          `cannot align on NVTX range '${name}': no range of that name in ` +
          `${missing.length === 1 ? 'report' : 'reports'} ${missing.join(', ')}`);
    }
    return starts;
  }

  /** The tables of a range need the analysis of `gpuscope stats`, which runs in the server. */
  async rangeSummary() {
    throw new Error(
        'the stats tables of a range are computed by `gpuscope view <report>`; ' +
        'this page holds the tables of the whole run (Summary)');
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

  /**
   * The report's findings as embedded. Their cited rows' times were parsed plainly (rounded
   * to 256 ns): each is taken again, exactly, from the event arrays through its type and id;
   * a row whose event the page does not hold (a cut report) loses its link to the timeline.
   */
  async findings(report) {
    const stored = (this.data.findings || {})[String(report)] || {trace: [], kernels: []};
    const index = this.eventIndex(report);
    const trace = (stored.trace || []).map((finding) => ({
                                             ...finding,
                                             cited: (finding.cited || []).map((cited) => {
                                               const found = cited.type !== undefined &&
                                                   index.byKey.get(cited.type + '/' + cited.id);
                                               if (!found) {
                                                 const {type, id, track, s, e, ...row} = cited;
                                                 return row;
                                               }
                                               const s = found.columns.s[found.i];
                                               return {
                                                 ...cited,
                                                 track: found.trackId,
                                                 s,
                                                 e: found.columns.e ? found.columns.e[found.i] : s
                                               };
                                             }),
                                           }));
    return {trace, kernels: stored.kernels || []};
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

  /**
   * Per report, built once on first use: "type/id" -> {trackId, columns, i}, and correlation id
   * -> the API calls (api) and the GPU work (gpu) carrying it; a copy is filed under both its
   * driver call's and its runtime call's correlation ids, as on the server.
   */
  eventIndex(report) {
    this.eventIndexes = this.eventIndexes || new Map();
    let index = this.eventIndexes.get(report);
    if (index) return index;
    index = {byKey: new Map(), api: new Map(), gpu: new Map()};
    const file = (map, correlation, entry) => {
      if (!correlation) return;
      if (!map.has(correlation)) map.set(correlation, []);
      map.get(correlation).push(entry);
    };
    for (const [trackId, columns] of Object.entries(
             (this.data.events || {})[String(report)] || {})) {
      if (!columns.s || columns.v) continue;
      const corr = Array.isArray(columns.corr) ? columns.corr : null;
      const rcorr = Array.isArray(columns.rcorr) ? columns.rcorr : null;
      for (let i = 0; i < columns.s.length; i++) {
        const type = typeAt(columns, i);
        const entry = {trackId, columns, i};
        index.byKey.set(type + '/' + (columns.id ? columns.id[i] : i), entry);
        if (!corr || type === 'nvtx' || type === 'mark') continue;
        if (type === 'api') {
          file(index.api, corr[i], entry);
        } else {
          file(index.gpu, corr[i], entry);
          if (type === 'memcpy' && rcorr && rcorr[i] !== corr[i]) file(index.gpu, rcorr[i], entry);
        }
      }
    }
    this.eventIndexes.set(report, index);
    return index;
  }

  /** `related` of an event of `type` with these correlation ids (0 / undefined: none). */
  related(report, type, correlations) {
    if (type === 'nvtx' || type === 'mark') return [];
    const index = this.eventIndex(report);
    const map = type === 'api' ? index.gpu : index.api;
    const related = [];
    for (const correlation of new Set(correlations.filter((c) => c))) {
      for (const {trackId, columns, i} of map.get(correlation) || []) {
        const s = columns.s[i];
        related.push({
          type: typeAt(columns, i),
          id: columns.id ? columns.id[i] : i,
          track: trackId,
          s,
          e: columns.e ? columns.e[i] : s,
          name: this.nameAt(columns, i),
        });
      }
    }
    return related;
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
