// The timeline on reports recorded on the H200 (tests/data/reports), through the real binary:
// it opens on the GPU activity (G), the whole run one key away (0); two reports recorded
// 5,800 s apart are aligned on their starts, absolute time on request; at deep zoom the axis
// labels carry the precision the zoom needs, counted from a chosen origin (O); shift+drag
// selects a range and shows its stats tables, computed by the server; the search box finds
// kernels and NVTX ranges by name. Screenshots:
// <build>/viewer-ui/timeline-*.png.

import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {copyFileSync, mkdtempSync, rmSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {after, before, describe, test} from 'node:test';
import {fileURLToPath, pathToFileURL} from 'node:url';

import {artifactsDir, launchBrowser, openPage} from './lib/browser.mjs';
import {startView} from './lib/gpuscope_view.mjs';
import {nextFrames, sliceCentre, visibleRange, waitForIdle} from './lib/viewer_page.mjs';

const gpuscope = process.env.GPUSCOPE_BIN;
const dataDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../data/reports');

describe('timeline navigation', {skip: !gpuscope && 'GPUSCOPE_BIN is not set'}, () => {
  let work;
  let browser;
  const shot = (page, name) =>
      page.screenshot({path: path.join(artifactsDir(), `timeline-${name}.png`)});
  const copy = (name) => {
    const to = path.join(work, name);
    copyFileSync(path.join(dataDir, name), to);
    return to;
  };
  // The page `gpuscope report` writes for `files`, opened from file://.
  const reportPage = async (files, name) => {
    const html = path.join(work, name + '.html');
    execFileSync(gpuscope, ['report', '-o', html, ...files], {stdio: 'pipe'});
    return openPage(browser, pathToFileURL(html).href);
  };
  // Runs `check` on the report page and on `gpuscope view` of the same files.
  const bothWays = async (files, name, check) => {
    const page = await reportPage(files, name);
    try {
      await check(page, 'report');
    } finally {
      await page.close();
    }
    const {server, url} = await startView(gpuscope, files);
    try {
      const viewPage = await openPage(browser, url);
      try {
        await check(viewPage, 'view');
      } finally {
        await viewPage.close();
      }
    } finally {
      server.kill('SIGTERM');
    }
  };
  const reportsOf = (page) => page.evaluate(() => window.gpuscopeViewer.reports);

  before(async () => {
    work = mkdtempSync(path.join(os.tmpdir(), 'gpuscope-timeline-'));
    browser = await launchBrowser();
  });
  after(async () => {
    if (browser) await browser.close();
    if (work) rmSync(work, {recursive: true, force: true});
  });

  // h100_add: 246 ms of process, its GPU work (a copy, a kernel, a copy) in the last few ms.
  test('a report opens on its GPU activity; 0 shows the whole run, G goes back', async () => {
    await bothWays([copy('h100_add.sqlite')], 'gpu-span', async (page, way) => {
      await waitForIdle(page);
      const [report] = await reportsOf(page);
      assert.ok(report.gpu && report.gpu.end > report.gpu.start, JSON.stringify(report.gpu));
      const opened = await visibleRange(page);
      const run = report.end - report.start;
      assert.ok(
          opened.t0 <= report.gpu.start && report.gpu.end <= opened.t1,
          `the opening view ${JSON.stringify(opened)} holds the GPU activity`);
      assert.ok(
          opened.t1 - opened.t0 < 0.05 * run,
          `opened on ${opened.t1 - opened.t0} ns of a ${run} ns run`);
      // The kernel is drawn as a slice of its own, wide enough to click.
      await sliceCentre(page, 0, 'gpu0.s7', 'add(int, int, int*)');
      if (way === 'report') await shot(page, 'gpu-span');
      await page.locator('canvas.timeline-canvas').focus();
      await page.keyboard.press('0');
      const whole = await visibleRange(page);
      assert.ok(whole.t1 - whole.t0 >= run, 'the whole run');
      await page.keyboard.press('g');
      assert.deepEqual(await visibleRange(page), opened);
      assert.deepEqual(page.problems, []);
    });
  });

  // Recorded 2.9 s apart, each run shorter than that: on one absolute axis each is a part of it.
  test('two reports are aligned on their starts; absolute time is an option', async () => {
    const files = [copy('h100_add.sqlite'), copy('h100_metrics_full.sqlite')];
    await bothWays(files, 'aligned', async (page, way) => {
      await waitForIdle(page);
      const reports = await reportsOf(page);
      const apart = Math.abs(reports[1].start - reports[0].start);
      assert.ok(apart > 1e9, `recorded ${apart} ns apart`);
      const longest = Math.max(...reports.map((r) => r.end - r.start));
      const bounds = await page.evaluate(() => {
        const view = window.gpuscopeViewer.timeline.view;
        return {start: view.start, end: view.end};
      });
      assert.ok(
          bounds.end - bounds.start <= longest * 1.001,
          `aligned: the axis spans ${bounds.end - bounds.start} ns, the longest run ${longest}`);
      // Both reports' GPU work is in the opening view.
      for (const [report, track] of [[0, 'gpu0.s7'], [1, 'gpu0.s7']]) {
        const drawn = await page.evaluate(({report, track}) => {
          const timeline = window.gpuscopeViewer.timeline;
          const row =
              timeline.rows.find((r) => r.report === report && r.track && r.track.id === track);
          const answer = row && timeline.answers.get(row.key);
          return answer ? answer.slices.length + answer.buckets.length : 0;
        }, {report, track});
        assert.ok(drawn > 0, `report ${report} draws its GPU work when aligned`);
      }
      if (way === 'view') await shot(page, 'aligned');
      await page.selectOption('#align-pick', 'absolute');
      await page.waitForFunction(() => window.gpuscopeViewer.timeline.align === 'absolute');
      await waitForIdle(page);
      const absolute = await page.evaluate(() => {
        const view = window.gpuscopeViewer.timeline.view;
        return view.end - view.start;
      });
      assert.ok(absolute >= apart, `absolute: ${absolute} ns wide`);
      assert.deepEqual(page.problems, []);
    });
  });

  // Shift+drag over the middle of the add() kernel: the range's tables hold that kernel and
  // none of the copies before and after it, while the whole run's Summary has them all.
  test('a range of the timeline shows its stats tables', async () => {
    const recorded = copy('h100_add.sqlite');
    const selectRange = async (page) => {
      await waitForIdle(page);
      const {x, y} = await sliceCentre(page, 0, 'gpu0.s7', 'add(int, int, int*)');
      await page.keyboard.down('Shift');
      await page.mouse.move(x - 8, y);
      await page.mouse.down();
      await page.mouse.move(x, y, {steps: 3});
      await page.mouse.move(x + 8, y, {steps: 3});
      await page.mouse.up();
      await page.keyboard.up('Shift');
    };
    const {server, url} = await startView(gpuscope, [recorded]);
    try {
      const page = await openPage(browser, url);
      try {
        await selectRange(page);
        const kern = '#range-stats [data-table="cuda_gpu_kern_sum"]';
        await page.waitForSelector(kern + ' tbody tr');
        const rows =
            await page.$$eval(kern + ' tbody tr', (trs) => trs.map((tr) => tr.textContent));
        assert.equal(rows.length, 1);
        assert.match(rows[0], /add\(int, int, int\*\)$/);
        assert.equal(
            await page.locator('#range-stats [data-table="cuda_gpu_mem_time_sum"] tbody tr')
                .count(),
            0);
        assert.match(await page.textContent('#range-stats h3'), /^Range: \d/);
        const range = await page.evaluate(() => window.gpuscopeViewer.timeline.range);
        assert.ok(range && range.t1 > range.t0, JSON.stringify(range));
        await page.mouse.move(0, 0);  // no tooltip in the picture
        await shot(page, 'range-stats');
        await page.click('#tab-summary');
        await page.waitForSelector('#summary-tables [data-table="cuda_gpu_mem_time_sum"] tbody tr');
        assert.ok(
            await page.locator('#summary-tables [data-table="cuda_gpu_mem_time_sum"] tbody tr')
                    .count() > 0,
            'the whole run has copies');
        assert.deepEqual(page.problems, []);
      } finally {
        await page.close();
      }
    } finally {
      server.kill('SIGTERM');
    }
    // The self-contained page has no server to compute them: it says so.
    const page = await reportPage([recorded], 'range');
    try {
      await selectRange(page);
      await page.waitForSelector('#range-stats .error');
      assert.match(await page.textContent('#range-stats .error'), /gpuscope view/);
    } finally {
      await page.close();
    }
  });

  // h100_nvtx_ranges: NVTX ranges outer > inner (twice) around nvtxWork(int*) kernels.
  test('the search box finds kernels and NVTX ranges by name', async () => {
    await bothWays([copy('h100_nvtx_ranges.sqlite')], 'search', async (page, way) => {
      await waitForIdle(page);
      await page.fill('#search', 'INNER');
      await page.press('#search', 'Enter');
      await page.waitForFunction(() => document.querySelector('#details').dataset.type === 'nvtx');
      assert.match(await page.textContent('.search-summary'), /^2 matches$/);
      const listed = await page.$$eval('.search-result', (bs) => bs.map((b) => b.textContent));
      assert.equal(listed.length, 2);
      assert.ok(listed.every((text) => /^inner · nvtx · /.test(text)), JSON.stringify(listed));
      assert.equal(await page.textContent('#details .details-title'), 'inner');
      const first = await page.evaluate(() => window.gpuscopeViewer.selected);
      // Enter again: the next match, then back to the first.
      await page.press('#search', 'Enter');
      await page.waitForFunction(
          (id) => String(window.gpuscopeViewer.selected.id) !== String(id), first.id);
      await page.press('#search', 'Enter');
      await page.waitForFunction(
          (id) => String(window.gpuscopeViewer.selected.id) === String(id), first.id);
      // A kernel by part of its name; the match is in view, selected.
      await page.fill('#search', 'nvtxwork');
      await page.press('#search', 'Enter');
      await page.waitForFunction(
          () => document.querySelector('#details').dataset.type === 'kernel');
      assert.equal(await page.textContent('#details .details-title'), 'nvtxWork(int*)');
      const {view, selected} = await page.evaluate(() => ({
                                                     view: {
                                                       t0: window.gpuscopeViewer.timeline.view.t0,
                                                       t1: window.gpuscopeViewer.timeline.view.t1
                                                     },
                                                     selected: window.gpuscopeViewer.selected,
                                                   }));
      assert.ok(view.t0 <= selected.s && selected.e <= view.t1, JSON.stringify({view, selected}));
      if (way === 'view') await shot(page, 'search');
      await page.fill('#search', 'no such name');
      await page.press('#search', 'Enter');
      await page.waitForFunction(
          () => /^0 matches$/.test(document.querySelector('.search-summary').textContent));
      assert.equal(await page.locator('.search-result').count(), 0);
      assert.deepEqual(page.problems, []);
    });
  });

  test('deep zoom: axis labels as precise as the zoom, from the chosen origin', async () => {
    const page = await reportPage([copy('h100_add.sqlite')], 'deep-zoom');
    try {
      await waitForIdle(page);
      const {x, y, slice} = await sliceCentre(page, 0, 'gpu0.s7', 'add(int, int, int*)');
      await page.mouse.click(x, y);
      await page.waitForSelector('#details .details-title');
      // A 200 ns window inside the 1 us kernel, 243 ms after the report's start.
      const mid = (slice.s + slice.e) / 2;
      await page.evaluate(
          (mid) => window.gpuscopeViewer.timeline.showRange(mid - 100, mid + 100), mid);
      await nextFrames(page);
      const labelsOf = () => page.evaluate(() => window.gpuscopeViewer.timeline.axisLabels);
      const check = (labels, origin) => {
        assert.ok(labels.length >= 3, JSON.stringify(labels));
        assert.equal(
            new Set(labels.map((l) => l.text)).size, labels.length,
            `labels differ: ${labels.map((l) => l.text)}`);
        const scale = {ns: 1, us: 1e3, ms: 1e6, s: 1e9};
        const step = labels[1].t - labels[0].t;
        for (const label of labels) {
          const [, number, unit] = /^(-?[\d.]+)(ns|us|ms|s)$/.exec(label.text);
          assert.ok(
              Math.abs(Number(number) * scale[unit] - (label.t - origin)) < step / 2,
              `"${label.text}" reads ${label.t - origin} ns from the origin`);
        }
      };
      const fromStart = await labelsOf();
      check(fromStart, await page.evaluate(() => window.gpuscopeViewer.timeline.origin));
      assert.match(fromStart[0].text, /^242\.\d{5}ms$/, 'ms from the start, to 10 ns');
      await shot(page, 'deep-zoom');
      // O: the origin at the selected kernel's start; the labels count from it.
      await page.locator('canvas.timeline-canvas').focus();
      await page.keyboard.press('o');
      await nextFrames(page);
      const origin = await page.evaluate(() => window.gpuscopeViewer.timeline.origin);
      assert.equal(origin, slice.s);
      const fromKernel = await labelsOf();
      check(fromKernel, origin);
      assert.ok(fromKernel.every((l) => /^\d+ns$/.test(l.text)), JSON.stringify(fromKernel));
      await shot(page, 'origin-at-kernel');
      await page.keyboard.press('Shift+O');
      await nextFrames(page);
      assert.deepEqual(await labelsOf(), fromStart);
      assert.deepEqual(page.problems, []);
    } finally {
      await page.close();
    }
  });
});
