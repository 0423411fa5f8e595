// Unit tests of the viewer's pure modules (no browser): level of detail, the embedded source,
// the time view, number formatting, the diff, and the bundling rules gpuscope report relies on.
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import test from 'node:test';

import {diffKernelAggregates} from '../../src/viewer/web/diff_model.js';
import {formatAxisLabels, formatBytes, formatDuration, niceTicks} from '../../src/viewer/web/format.js';
import {indexTrack, lowerBound, selectCounter, selectVisible} from '../../src/viewer/web/lod.js';
import {defaultAlignment, gpuSpan, reportOffsets, rowOrder, shiftAnswer} from '../../src/viewer/web/report_alignment.js';
import {EmbeddedSource} from '../../src/viewer/web/source_embedded.js';
import {TimeOrigin} from '../../src/viewer/web/time_origin.js';
import {TimeView} from '../../src/viewer/web/time_view.js';

import {bundleModules, embedJson, moduleOrder} from './lib/embedded_page.mjs';

const fixture =
    JSON.parse(readFileSync(new URL('./fixtures/two_reports.json', import.meta.url), 'utf8'));

test('lowerBound finds the first start at or after t', () => {
  const s = new Float64Array([1, 3, 3, 7]);
  assert.equal(lowerBound(s, 0), 0);
  assert.equal(lowerBound(s, 3), 1);
  assert.equal(lowerBound(s, 4), 3);
  assert.equal(lowerBound(s, 8), 4);
});

test('wide events come back one by one, narrow ones merge into one-pixel buckets', () => {
  // 0..1000 ns on 10 px: 100 ns per pixel. One wide event, ten 10 ns events in pixel 5.
  const s = [0];
  const e = [400];
  for (let i = 0; i < 10; i++) {
    s.push(500 + i * 10);
    e.push(505 + i * 10);
  }
  const index = indexTrack({s, e});
  const {wide, buckets} = selectVisible(index, 0, 1000, 10);
  assert.deepEqual(wide, [0]);
  assert.equal(buckets.length, 1);
  assert.equal(buckets[0].count, 10);
  assert.equal(buckets[0].busy, 50);
  assert.equal(buckets[0].s, 500);
  assert.equal(buckets[0].e, 595);
});

test('the answer stays O(pixels) whatever the number of events', () => {
  const n = 100000;
  const s = Array.from({length: n}, (_, i) => i * 10);
  const e = s.map((x) => x + 5);
  const index = indexTrack({s, e});
  const {wide, buckets} = selectVisible(index, 0, n * 10, 800);
  assert.equal(wide.length, 0);
  assert.ok(buckets.length <= 800, `${buckets.length} buckets`);
  assert.equal(
      buckets.reduce((sum, b) => sum + b.count, 0), n, 'every event is counted in a bucket');
});

test('an event that started before the range but still runs is visible', () => {
  const index = indexTrack({s: [0, 5000], e: [10000, 5100]});
  const {wide} = selectVisible(index, 8000, 9000, 100);
  assert.deepEqual(wide, [0]);
});

test('out-of-order input is sorted, and buckets never mix NVTX depths', () => {
  const index = indexTrack({s: [30, 10, 20], e: [31, 11, 21]});
  assert.deepEqual([...index.s], [10, 20, 30]);
  const depth = [0, 1, 0];
  const {buckets} = selectVisible(index, 0, 1000, 10, (k) => depth[k]);
  assert.deepEqual(buckets.map((b) => [b.depth, b.count]).sort(), [[0, 2], [1, 1]]);
});

test('counter keeps the value in force at the start and the peak of each pixel', () => {
  const t = [0, 100, 101, 102, 500];
  const v = [1, 50, 9, 3, 7];
  const points = selectCounter(t, v, 50, 600, 5);
  assert.deepEqual(points[0], {t: 0, v: 1}, 'value in force when the range begins');
  assert.ok(points.some((p) => p.v === 50), 'the peak survives');
  assert.deepEqual(points[points.length - 1], {t: 500, v: 7});
});

test('EmbeddedSource answers the API questions from the fixture', async () => {
  const source = new EmbeddedSource(fixture);
  const reports = await source.reports();
  assert.equal(reports.length, 2);
  const tracks = await source.tracks(0);
  assert.deepEqual(tracks.map((t) => t.id), ['gpu0.s7', 'gpu0.s13', 'mem0', 't4242', 'n4242']);
  const r = reports[0];
  const all = await source.slices(0, 'gpu0.s7', r.start, r.end, 2000);
  assert.ok(all.slices.some((s) => s.name === '<script>alert(1)</script>' && s.type === 'kernel'));
  assert.ok(all.slices.some((s) => s.type === 'memcpy'));
  // The burst of 200 tiny kernels on stream 13 merges at full zoom and comes apart zoomed in.
  const burst = await source.slices(0, 'gpu0.s13', r.start, r.end, 400);
  assert.ok(burst.buckets.length > 0 && burst.buckets.length < 200);
  assert.equal(burst.buckets.reduce((n, b) => n + b.count, 0) + burst.slices.length, 200);
  const first = fixture.events['0']['gpu0.s13'];
  const zoomed = await source.slices(0, 'gpu0.s13', first.s[0], first.s[0] + 1000, 1000);
  assert.equal(zoomed.buckets.length, 0);
  assert.equal(zoomed.slices[0].name, 'tiny_kernel(float*)');
  const nvtx = await source.slices(0, 'n4242', r.start, r.end, 1000);
  assert.deepEqual(
      nvtx.slices.map((s) => [s.name, s.depth]), [['training step', 0], ['tiny burst', 1]]);
  const memory = await source.slices(0, 'mem0', r.start, r.end, 1000);
  assert.deepEqual(memory.counter.map((p) => p.v), [4194304, 5242880, 1048576]);
});

test('EmbeddedSource event, kernel, summary and diff', async () => {
  const source = new EmbeddedSource(fixture);
  const kernel = await source.event(0, 'kernel', 1);
  assert.equal(kernel.name, 'add(int, int, int*)');
  assert.equal(kernel.related[0].type, 'api');
  const api = await source.event(0, 'api', kernel.related[0].id);
  assert.equal(api.name, 'cudaLaunchKernel');
  assert.deepEqual(api.related.map((x) => [x.type, x.id]), [['kernel', 1]]);
  await assert.rejects(source.event(0, 'kernel', 99999), /no kernel with id 99999/);
  const page = await source.kernel(0, 'add(int, int, int*)');
  assert.equal(page.launches, 2);
  assert.ok(page.findings.length > 0);
  const summary = await source.summary([0, 1]);
  assert.ok(summary.tables.cuda_gpu_kern_sum.length >= 5);
  const diff = await source.diff(0, 1);
  const add = diff.find((d) => d.name === 'add(int, int, int*)');
  assert.ok(add.b.total > add.a.total, 'the slow variant doubled add()');
  assert.ok(add.delta_pct > 0);
});

test('EmbeddedSource describes an event without a details row from the arrays', async () => {
  const data = structuredClone(fixture);
  delete data.details['0'].kernel['1'];
  const source = new EmbeddedSource(data);
  const kernel = await source.event(0, 'kernel', 1);
  assert.equal(kernel.name, 'add(int, int, int*)');
  assert.equal(kernel.duration, kernel.end - kernel.start);
});

test(
    'EmbeddedSource reads per-event types from "types" (gpuscope report) or a "type" list',
    async () => {
      const reports = [{index: 0, pid: 1, start: 0, end: 100}];
      for (const key of ['types', 'type']) {
        const columns = {s: [0, 50], e: [10, 60], name: [0, 1], id: [4, 9], depth: [0, 0]};
        columns[key] = ['kernel', 'memcpy'];
        if (key === 'types') columns.type = 'kernel';
        const source = new EmbeddedSource(
            {reports, strings: ['k', '[CUDA memcpy HtoD]'], events: {'0': {'gpu0.s7': columns}}});
        const {slices} = await source.slices(0, 'gpu0.s7', 0, 100, 100);
        assert.deepEqual(
            slices.map((s) => [s.type, s.id, s.name]),
            [['kernel', 4, 'k'], ['memcpy', 9, '[CUDA memcpy HtoD]']]);
      }
    });

test(
    'EmbeddedSource answers event() like /api/event from the gpuscope report columns', async () => {
      // As `gpuscope report` writes them: no details rows, per-track "corr" and the launch,
      // bytes and copy-kind columns only where they apply.
      const reports = [{index: 0, pid: 1, start: 0, end: 1000}];
      const strings = [
        'add(int)', '[CUDA memcpy DtoH]', 'DtoH', '', 'cudaLaunchKernel', 'cudaMemcpy',
        'cuMemcpyDtoH_v2', 'step'
      ];
      const events = {
        'gpu0.s7': {
          type: 'kernel',
          s: [100, 300],
          e: [200, 400],
          name: [0, 1],
          id: [1, 1],
          depth: [0, 0],
          types: ['kernel', 'memcpy'],
          corr: [3, 6],
          rcorr: [0, 5],
          gx: [64, 0],
          gy: [2, 0],
          gz: [1, 0],
          bx: [256, 0],
          by: [1, 0],
          bz: [1, 0],
          regs: [32, 0],
          ssmem: [0, 0],
          dsmem: [1024, 0],
          bytes: [0, 4096],
          copy: [3, 2]
        },
        't42': {
          type: 'api',
          s: [50, 250, 260],
          e: [90, 450, 440],
          name: [4, 5, 6],
          id: [3, 5, 6],
          depth: [0, 0, 1],
          corr: [3, 5, 6]
        },
        'n42': {type: 'nvtx', s: [0], e: [900], name: [7], id: [1], depth: [0]},
      };
      const source = new EmbeddedSource({reports, strings, events: {'0': events}, details: {}});
      const kernel = await source.event(0, 'kernel', 1);
      assert.deepEqual(kernel, {
        type: 'kernel',
        id: 1,
        name: 'add(int)',
        start: 100,
        end: 200,
        duration: 100,
        correlation_id: 3,
        grid_x: 64,
        grid_y: 2,
        grid_z: 1,
        block_x: 256,
        block_y: 1,
        block_z: 1,
        registers_per_thread: 32,
        static_shared_memory: 0,
        dynamic_shared_memory: 1024,
        related: [{type: 'api', id: 3, track: 't42', s: 50, e: 90, name: 'cudaLaunchKernel'}]
      });
      const copy = await source.event(0, 'memcpy', 1);
      assert.equal(copy.bytes, 4096);
      assert.equal(copy.copy_kind, 'DtoH');
      assert.equal(copy.runtime_correlation_id, 5);
      assert.equal(copy.grid_x, undefined, 'no launch configuration on a copy');
      // Like the server: a copy links to its driver call and to the runtime call that made it.
      assert.deepEqual(copy.related.map((r) => [r.type, r.id]), [['api', 6], ['api', 5]]);
      const runtime = await source.event(0, 'api', 5);
      assert.deepEqual(
          runtime.related.map((r) => [r.type, r.id, r.track]), [['memcpy', 1, 'gpu0.s7']]);
      assert.equal(runtime.bytes, undefined);
      const launch = await source.event(0, 'api', 3);
      assert.deepEqual(
          launch.related.map((r) => [r.type, r.id, r.s, r.e]), [['kernel', 1, 100, 200]]);
      const range = await source.event(0, 'nvtx', 1);
      assert.deepEqual(range.related, []);
      assert.equal(range.correlation_id, undefined);
      await assert.rejects(source.event(0, 'api', 4), /^Error: report 0 has no api with id 4$/);
      // The correlation index is built once per report.
      assert.equal(source.eventIndex(0), source.eventIndex(0));
    });

test('EmbeddedSource rejects data without reports with one line', () => {
  assert.throws(() => new EmbeddedSource({}), /no "reports" list/);
});

test('diff rows: kernels of one side only, largest change first', () => {
  const rows = diffKernelAggregates(
      new Map([['a', {count: 1, total: 100}], ['gone', {count: 2, total: 10}]]),
      new Map([['a', {count: 1, total: 300}], ['new', {count: 1, total: 50}]]));
  assert.deepEqual(rows.map((r) => r.name), ['a', 'new', 'gone']);
  assert.equal(rows[0].delta_pct, 200);
  assert.equal(rows[1].a, null);
  assert.equal(rows[1].delta_pct, null);
  assert.equal(rows[2].b, null);
});

test('TimeView zooms around the anchor and stays inside the bounds', () => {
  const view = new TimeView(1000, 2000);
  view.zoomAround(1250, 0.5);
  assert.equal(view.t0, 1125);
  assert.equal(view.t1, 1625);
  view.panBy(10);  // far past the end: clamped
  assert.equal(view.t1, 2000);
  assert.equal(view.span, 500);
  view.zoomAround(1500, 100);
  assert.deepEqual([view.t0, view.t1], [1000, 2000]);
  view.zoomAround(1500, 1e-9);
  assert.equal(view.span, 20, 'never narrower than 20 ns');
});

test('formatting: durations, bytes, axis labels and nice ticks', () => {
  assert.equal(formatDuration(5751), '5.7510us');
  assert.equal(formatDuration(97765000), '97.765ms');
  assert.equal(formatDuration(992), '992ns');
  assert.deepEqual(formatAxisLabels([0, 20000, 40000], 20000), ['0us', '20us', '40us']);
  // 20 ns ticks 336 ms from the origin: ten-nanosecond digits, never the same label twice.
  assert.deepEqual(
      formatAxisLabels([336430000, 336430020, 336430040], 20),
      ['336.43000ms', '336.43002ms', '336.43004ms']);
  assert.deepEqual(formatAxisLabels([-500000, 0, 500000], 500000), ['-500us', '0us', '500us']);
  assert.deepEqual(formatAxisLabels([1000000, 1500000], 500000), ['1.0ms', '1.5ms']);
  assert.equal(formatBytes(1048576), '1.000 MiB');
  const {step, ticks} = niceTicks(0, 1000, 5);
  assert.equal(step, 200);
  assert.deepEqual(ticks, [0, 200, 400, 600, 800, 1000]);
  assert.equal(niceTicks(5, 5, 5).ticks.length, 0);
});

test('report alignment: ranks on their clock offsets, rows in rank order', () => {
  // What /api/reports says of two ranks on two hosts: rank 1's clock runs 3000 ns ahead.
  const reports = [
    {index: 0, start: 9000, end: 20000, rank: 1, clock: {offset: -3000, error: 0, position: 1}},
    {index: 1, start: 5000, end: 16000, rank: 0, clock: {offset: 0, error: 0, position: 0}},
  ];
  assert.equal(defaultAlignment(reports), 'ranks');
  assert.equal(defaultAlignment([{index: 0, start: 1, clock: null}]), 'starts');
  // Drawn at time - offset: rank 1's times move back by 3000 ns.
  assert.deepEqual([...reportOffsets(reports, 'ranks')], [[0, 3000], [1, 0]]);
  assert.deepEqual(rowOrder(reports).map((r) => r.index), [1, 0]);
  // Reports without a placement keep the order given.
  assert.deepEqual(rowOrder([{index: 0}, {index: 1}]).map((r) => r.index), [0, 1]);
});

test('report alignment: starts aligned by default, absolute on request, answers shifted', () => {
  const reports = [
    {index: 0, start: 5000, end: 9000, gpu: {start: 8000, end: 8500}},
    {index: 1, start: 1000, end: 2000, gpu: {start: 1500, end: 1600}},
  ];
  const aligned = reportOffsets(reports, 'starts');
  assert.deepEqual([...aligned], [[0, 4000], [1, 0]]);
  assert.deepEqual([...reportOffsets(reports, 'absolute')], [[0, 0], [1, 0]]);
  // GPU spans on the shared axis: report 0's 8000-8500 becomes 4000-4500; padded by 2%.
  const span = gpuSpan(reports, aligned);
  assert.deepEqual(span, {start: 1500 - 60, end: 4500 + 60});
  assert.equal(gpuSpan([{index: 0, start: 0, end: 1, gpu: null}], new Map()), null);
  const answer = {slices: [{s: 5100, e: 5200, id: 1}], buckets: [], counter: [{t: 5000, v: 3}]};
  assert.deepEqual(
      shiftAnswer(answer, 4000),
      {slices: [{s: 1100, e: 1200, id: 1}], buckets: [], counter: [{t: 1000, v: 3}]});
  assert.equal(answer.slices[0].s, 5100, 'the source answer is left as it was');
});

test('the modules bundle into one script: no cycles, unique top-level names, app.js last', () => {
  const order = moduleOrder();
  assert.equal(order[order.length - 1], 'app.js');
  assert.ok(order.indexOf('lod.js') < order.indexOf('source_embedded.js'));
  const script = bundleModules();
  assert.ok(!/^import\s/m.test(script));
  assert.ok(!/^export\s/m.test(script));
});

test('embedded JSON cannot close its script block', () => {
  const text = embedJson({name: '</script><script>alert(1)</script>'});
  assert.ok(!text.includes('<'));
  assert.equal(JSON.parse(text).name, '</script><script>alert(1)</script>');
});

test(
    'no module builds DOM from strings (innerHTML, outerHTML, insertAdjacentHTML, document.write)',
    () => {
      for (const file of moduleOrder()) {
        const source =
            readFileSync(new URL('../../src/viewer/web/' + file, import.meta.url), 'utf8');
        // Code only: comments may name what is forbidden; dom.js names two keys to refuse them.
        const code = source.split('\n')
                         .filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line))
                         .join('\n')
                         .replace(/key === '(inner|outer)HTML'/g, '')
                         .replace(/never ' \+ key/, '');
        assert.ok(!/innerHTML|outerHTML|insertAdjacentHTML|document\.write/.test(code), file);
      }
    });

test(
    'large tracks summed by time bins give the same counts and busy time as event by event', () => {
      // 120,000 events (binned) with a few wide ones and uneven gaps; compare with the same
      // events split into tracks too small to be binned.
      const n = 120000;
      const s = [];
      const e = [];
      let t = 1e9;
      for (let i = 0; i < n; i++) {
        t += 100 + (i % 13) * 17;
        s.push(t);
        e.push(t + (i % 10007 === 0 ? 5e6 : 40 + (i % 5)));
      }
      // Every 1000th event nested one level down (a driver call inside a runtime call).
      const depth = s.map((_, i) => (i % 1000 === 1 ? 1 : 0));
      const binned = indexTrack({s, e, depth});
      assert.ok(
          binned.levels && binned.levels.length >= 2,
          'a track this large is binned, at several widths');
      const depthOf = (k) => binned.depth[k];
      for (const [t0, t1, px] of [
               [s[0], e[n - 1], 1600], [s[1000], s[90000], 800], [s[5000], s[5200], 1000]]) {
        const fast = selectVisible(binned, t0, t1, px, depthOf);
        const plain = selectVisible({...binned, levels: null}, t0, t1, px, depthOf);
        const perDepth = (r, d) =>
            r.buckets.filter((b) => b.depth === d).reduce((sum, b) => sum + b.count, 0);
        assert.equal(perDepth(fast, 1), perDepth(plain, 1), 'nested events stay in their own lane');
        assert.deepEqual(fast.wide, plain.wide, 'the same wide events');
        const total = (r) => r.buckets.reduce((sum, b) => sum + b.count, 0) + r.wide.length;
        assert.equal(total(fast), total(plain), 'every visible event counted once');
        const busy = (r) => r.buckets.reduce((sum, b) => sum + b.busy, 0);
        assert.ok(Math.abs(busy(fast) - busy(plain)) < 1e-6 * busy(plain));
        assert.ok(fast.buckets.length <= 2 * (px + 1), 'at most one bucket per pixel and lane');
      }
    });

test('HttpSource asks the /api endpoints and turns an error answer into its one line', async () => {
  const {HttpSource} = await import('../../src/viewer/web/source_http.js');
  const {startStubServer} = await import('./lib/stub_server.mjs');
  const server = await startStubServer(fixture);
  try {
    const source = new HttpSource(server.url.replace(/\/$/, ''));
    assert.equal((await source.reports()).length, 2);
    const answer = await source.slices(0, 'gpu0.s13', 1000000000.4, 1000200000.6, 400.2);
    assert.ok(answer.buckets.length > 0);
    assert.ok(
        server.requests.includes(
            '/api/slices?report=0&track=gpu0.s13&start=1000000000&end=1000200001&px=400'),
        JSON.stringify(server.requests));
    const page = await source.kernel(0, 'add(int, int, int*)');
    assert.equal(page.launches, 2);
    assert.ok(server.requests.some(
        (r) => r.startsWith('/api/kernel?report=0&name=add%28int%2C+int%2C+int*%29')));
    await assert.rejects(
        source.event(0, 'kernel', 99999), /^Error: report 0 has no kernel with id 99999$/);
    await assert.rejects(source.get('/api/slices', {report: 0}), /missing parameter 'track'/);
    await assert.rejects(
        new HttpSource('http://127.0.0.1:9').reports(), /the gpuscope server did not answer/);
  } finally {
    await server.close();
  }
});

test('TimeOrigin keeps absolute CUPTI times exact as offsets and converts them back', () => {
  const times = new TimeOrigin();
  const text = '{"start":1760000000000005277,"s":[1760000000000005277,1760000000000007717],' +
      '"graph_node_id":1760000000000005277,"pid":42}';
  // JSON.parse's reviver gets the source text in Chromium (and Node >= 21); elsewhere the
  // values stay as JSON.parse gives them, which this test then skips.
  let hasSource = false;
  JSON.parse('[1]', (k, v, context) => {
    hasSource = hasSource || Boolean(context && context.source);
    return v;
  });
  const data = times.parse(text);
  assert.equal(data.pid, 42);
  if (!hasSource) return;
  assert.equal(data.start, 0);
  assert.deepEqual(data.s, [0, 2440], 'a 2440 ns kernel stays 2440 ns');
  assert.equal(times.absolute(2440), '1760000000000007717');
  assert.equal(data.graph_node_id, 1760000000000005277, 'other large integers are not times');
  assert.deepEqual(new TimeOrigin().parse('{"s":[1,2]}'), {s: [1, 2]});
});

test('TimeOrigin.parseEmbedded rewrites the event arrays exactly and leaves strings alone', () => {
  const hasSource = (() => {
    let found = false;
    JSON.parse('[1]', (k, v, context) => {
      found = found || Boolean(context && context.source);
      return v;
    });
    return found;
  })();
  const text = '{"reports":[{"index":0,"start":1760000000000000000,"end":1760000000000009999}],' +
      '"tracks":{"0":[{"id":"t1760000000000000001","events":2}]},' +
      '"events":{"0":{"t1760000000000000001":{"type":"api","s":[1760000000000005277,1769000000000000001],' +
      '"e":[1760000000000007717,1769000000000000002]}}},' +
      '"strings":["k,17600000000000000000,"],"details":{},"summary":{"tables":{}},"kernels":{}}';
  const times = new TimeOrigin();
  const data = times.parseEmbedded(text);
  assert.deepEqual(data.strings, ['k,17600000000000000000,'], 'strings are never rewritten');
  assert.ok(data.events['0']['t1760000000000000001'], 'track ids are never rewritten');
  if (!hasSource) return;  // Node < 21: the reports cannot be read exactly here
  assert.equal(data.reports[0].start, 0);
  assert.equal(data.reports[0].end, 9999);
  const track = data.events['0']['t1760000000000000001'];
  assert.deepEqual(track.s, [5277, 9000000000000001]);
  assert.deepEqual(track.e, [7717, 9000000000000002]);
});
