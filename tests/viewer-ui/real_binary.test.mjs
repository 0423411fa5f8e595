// The viewer served and written by the real binary (GPUSCOPE_BIN, set by CTest) on real
// reports written with the documented schema: `gpuscope report -o out.html` opened from
// file://, `gpuscope view` on two reports, and `gpuscope export --format chrome` checked
// against the Trace Event Format.

import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {after, before, describe, test} from 'node:test';
import {fileURLToPath, pathToFileURL} from 'node:url';

import {artifactsDir, launchBrowser, openPage} from './lib/browser.mjs';
import {startView as startGpuscopeView} from './lib/gpuscope_view.mjs';
import {kHostileImage, kHostileScript, writeSqlReport} from './lib/sql_report.mjs';
import {validateTraceEventFormat} from './lib/trace_event_format.mjs';
import {canvasPoint, sliceCentre, visibleRange, waitForIdle} from './lib/viewer_page.mjs';

// CTest sets GPUSCOPE_BIN whenever the tree builds the gpuscope target, so a binary that is
// missing or lacks one of the commands fails here rather than skipping quietly.
const gpuscope = process.env.GPUSCOPE_BIN;
const help = gpuscope ? execFileSync(gpuscope, ['--help'], {encoding: 'utf8'}) : '';
for (const command of ['report', 'view', 'export']) {
  if (gpuscope && !new RegExp(`^\\s+${command}\\s`, 'm').test(help)) {
    throw new Error(`${gpuscope} has no \`${command}\` command`);
  }
}

describe('the real gpuscope binary', {skip: !gpuscope && 'GPUSCOPE_BIN is not set'}, () => {
  const startView = (files) => startGpuscopeView(gpuscope, files);
  let work;
  let browser;
  let reports;
  const shot = (page, name) =>
      page.screenshot({path: path.join(artifactsDir(), `real-${name}.png`)});

  before(async () => {
    work = mkdtempSync(path.join(os.tmpdir(), 'gpuscope-ui-'));
    reports = [path.join(work, 'fast.sqlite'), path.join(work, 'slow.sqlite')];
    writeSqlReport(reports[0], {pid: 4242, variant: 'fast'});
    writeSqlReport(reports[1], {pid: 4343, variant: 'slow'});
    browser = await launchBrowser();
  });
  after(async () => {
    if (browser) await browser.close();
    if (work) rmSync(work, {recursive: true, force: true});
  });

  // A report recorded on the H200 (tests/data/reports) copied into the work directory as
  // `copyAs`, and the page `gpuscope report` writes for it (`htmlName`).
  function recordedReportPage(file, copyAs, htmlName) {
    const recorded = path.join(work, copyAs);
    copyFileSync(
        path.join(path.dirname(fileURLToPath(import.meta.url)), '../data/reports', file), recorded);
    const html = path.join(work, htmlName);
    execFileSync(gpuscope, ['report', '-o', html, recorded], {stdio: 'pipe'});
    return {recorded, html};
  }

  // Checks shared by both ways of opening the viewer.
  async function checkCommonViews(page, label) {
    const rows = await page.$$eval('.track-list li', (items) => items.map((li) => li.textContent));
    for (const expected
             of ['GPU 0 (NVIDIA H200)', 'Stream 7', 'Stream 13', 'Device memory', 'Thread 4242',
                 'Thread 4343', 'NVTX']) {
      assert.ok(rows.includes(expected), `row "${expected}" in ${JSON.stringify(rows)}`);
    }
    assert.equal(
        await page.textContent('#warnings'), '', 'a report of a normal run has no warnings');
    await waitForIdle(page);
    await shot(page, `${label}-timeline`);

    const {x, y} = await sliceCentre(page, 0, 'gpu0.s7', 'add(int, int, int*)');
    await page.mouse.move(x, y);
    await page.waitForSelector('.tooltip:not([hidden])');
    assert.match(await page.textContent('.tooltip'), /^add\(int, int, int\*\)Duration: 4\.0000us/);
    await page.mouse.click(x, y);
    await page.waitForFunction(() => document.querySelector('#details .details-title'));
    assert.equal(await page.textContent('#details .details-title'), 'add(int, int, int*)');

    const full = await visibleRange(page);
    const point = await canvasPoint(page, 0.5, 0.5);
    await page.mouse.move(point.x, point.y);
    await page.mouse.wheel(0, -300);
    const zoomed = await visibleRange(page);
    assert.ok(zoomed.t1 - zoomed.t0 < full.t1 - full.t0, 'the wheel zooms in');
    await page.keyboard.press('0');

    await page.click('#tab-summary');
    const kern = '[data-table="cuda_gpu_kern_sum"]';
    await page.waitForSelector(kern + ' tbody tr');
    const names = await page.$$eval(
        kern + ' tbody tr', (trs) => trs.map((tr) => tr.lastElementChild.textContent));
    assert.ok(
        names.includes(kHostileScript) && names.includes(kHostileImage) &&
            names.includes('tiny(float*)'),
        JSON.stringify(names));
    await page.fill(kern + ' .table-filter', 'alert');
    assert.equal(await page.locator(kern + ' tbody tr').count(), 2);
    await page.fill(kern + ' .table-filter', '');
    await shot(page, `${label}-summary`);

    await page.click(`${kern} .kernel-link >> text="${kHostileScript}"`);
    await page.waitForFunction(
        (name) => document.querySelector('.kernel-name') &&
            document.querySelector('.kernel-name').textContent === name,
        kHostileScript);
    assert.match(await page.textContent('.kernel-stats'), /Launches2/);
    assert.match(await page.textContent('.no-metrics'), /gpuscope profile/);
    await shot(page, `${label}-kernel`);

    await page.click('#tab-diff');
    await page.waitForSelector('#diff-view tbody tr');
    const diff = await page.$$eval(
        '#diff-view tbody tr',
        (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
    const add = diff.find((r) => r[0] === 'add(int, int, int*)');
    assert.ok(add && /^\+/.test(add[add.length - 1]), 'the slow report spent more time in add()');
    await shot(page, `${label}-diff`);

    assert.equal(await page.locator('img').count(), 0);
    assert.equal(
        await page.$$eval(
            'script', (list) => list.filter((s) => s.textContent.trim() === 'alert(1)').length),
        0);
    assert.deepEqual(page.problems, [], 'no dialog, page error or console error');
  }

  // The tooltip's launch configuration, and a click that details the kernel and outlines its
  // launch call: the server's /api/event for `view`, the embedded columns for `report`.
  async function checkDetailsAndRelated(page, label) {
    const {x, y} = await sliceCentre(page, 0, 'gpu0.s7', 'add(int, int, int*)');
    await page.mouse.move(x, y);
    await page.waitForFunction(
        () => document.querySelector('.tooltip').textContent.includes('Grid'));
    assert.match(await page.textContent('.tooltip'), /Grid: \(64, 1, 1\).*Block: \(256, 1, 1\)/);
    await page.mouse.click(x, y);
    await page.waitForFunction(() => window.gpuscopeViewer.timeline.highlights.length > 1);
    const marks = await page.evaluate(() => window.gpuscopeViewer.timeline.highlights);
    assert.ok(marks.some((m) => !m.selected && m.track === 't4242'), JSON.stringify(marks));
    await page.waitForSelector('#details .related-link');
    assert.match(await page.textContent('#details .related-link'), /^cudaLaunchKernel \(api #/);
    const table = await page.textContent('#details .details-table');
    assert.match(table, /grid_x64/);
    assert.match(table, /correlation_id\d+/);
    await shot(page, `${label}-selected`);
  }

  // A report recorded on the H200 (tests/data/reports, with the command that records it
  // again): reference 002's add program, traced for real, opened both ways.
  // The same checks on the self-contained HTML file (file://, screenshot `name`) and on
  // `gpuscope view` serving the report.
  async function checkReportAndServer(html, recorded, check, name) {
    const page = await openPage(browser, pathToFileURL(html).href);
    try {
      await check(page);
      await shot(page, name);
    } finally {
      await page.close();
    }
    const {server, url} = await startView([recorded]);
    try {
      const viewPage = await openPage(browser, url);
      try {
        await check(viewPage);
      } finally {
        await viewPage.close();
      }
    } finally {
      server.kill('SIGTERM');
    }
  }

  test('a report recorded on the GPU opens in the report page and in gpuscope view', async () => {
    const {recorded, html} =
        recordedReportPage('h100_add.sqlite', 'h100_add.sqlite', 'h100_add.html');
    const check = async (page) => {
      const rows =
          await page.$$eval('.track-list li', (items) => items.map((li) => li.textContent));
      assert.ok(rows.includes('GPU 0 (NVIDIA H100 80GB HBM3)'), JSON.stringify(rows));
      assert.ok(rows.some((r) => /^Stream \d+$/.test(r)), JSON.stringify(rows));
      assert.ok(rows.some((r) => /^Thread \d+$/.test(r)), JSON.stringify(rows));
      await page.click('#tab-summary');
      const kern = '[data-table="cuda_gpu_kern_sum"]';
      await page.waitForSelector(kern + ' tbody tr');
      const kernels = await page.$$eval(
          kern + ' tbody tr', (trs) => trs.map((tr) => tr.lastElementChild.textContent));
      assert.deepEqual(kernels, ['add(int, int, int*)']);
      const api = await page.$$eval(
          '[data-table="cuda_api_sum"] tbody tr',
          (trs) => trs.map((tr) => tr.lastElementChild.textContent));
      // gpuscope stats' order (total time, descending), also among the rows whose Time (%)
      // rounds to the same 0.1 (tests/golden/expected/add_tables.txt).
      // (Recorded before the first launch's prologue nested in it: cuLibraryLoadData and
      // cuLibraryGetKernel show as calls of their own in this report.)
      assert.deepEqual(api, [
        'cudaMalloc', 'cudaLaunchKernel', 'cudaFree', 'cuLibraryLoadData', 'cudaMemcpy',
        'cuDeviceGetAttribute', 'cuDeviceGet', 'cuDeviceGetName', 'cuModuleGetLoadingMode',
        'cuDeviceTotalMem', 'cuDeviceGetCount', 'cuDeviceGetUuid', 'cuLibraryGetKernel'
      ]);
      assert.deepEqual(page.problems, [], 'no dialog, page error or console error');
    };
    await checkReportAndServer(html, recorded, check, 'recorded-report');
  });

  // `gpuscope profile --set full` on the H100 (tests/data/reports/h100_metrics_full.sqlite):
  // the profiled kernels are linked from the summary (their replayed launches have no
  // timestamps, so no kernel summary row leads to them), and the bank-conflict kernel's page
  // shows its findings, sections, roofline and occupancy.
  test('a profiled report shows the kernel page with metrics', async () => {
    const {recorded, html} = recordedReportPage(
        'h100_metrics_full.sqlite', 'h100_metrics_full.sqlite', 'h100_metrics_full.html');
    const kernel = 'k_smem_bank_conflicts(float*, int)';
    const check = async (page) => {
      await page.click('#tab-summary');
      const profiled = '[data-table="profiled_kernels"]';
      await page.waitForSelector(profiled + ' li');
      assert.equal(await page.locator(profiled + ' li').count(), 10);
      await page.click(`${profiled} .kernel-link >> text="${kernel}"`);
      await page.waitForSelector('#kernel-page .findings .finding');
      assert.equal(await page.textContent('.kernel-name'), kernel);
      assert.match(
          await page.locator('#kernel-page .findings .finding').first().textContent(),
          /Shared Memory Bank Conflicts/);
      const sections =
          await page.$$eval('.profile-section h3', (hs) => hs.map((h) => h.textContent));
      assert.equal(sections[0], 'Section: GPU Speed Of Light Throughput');
      assert.ok(sections.includes('Section: Occupancy'), JSON.stringify(sections));
      assert.ok(
          await page.locator('.roofline-chart circle.roof-point').count() > 0,
          'the roofline places the kernel');
      assert.match(await page.textContent('.occupancy'), /75\.0%/);
      assert.equal(await page.locator('.no-metrics').count(), 0);
      assert.deepEqual(page.problems, [], 'no dialog, page error or console error');
    };
    await checkReportAndServer(html, recorded, check, 'profiled-kernel');
  });

  // The trace rules and the kernel rules on the recorded profile, in the report page and in
  // `gpuscope view`: the 18 ms, 256 MiB pageable copy is a finding whose cited row opens on
  // the timeline, selected, with the finding next to it; each profiled kernel's findings link
  // its page.
  test('findings are listed and shown next to the rows they cite', async () => {
    const {recorded, html} = recordedReportPage(
        'h100_metrics_full.sqlite', 'h100_findings.sqlite', 'h100_findings.html');
    const check = async (page) => {
      await page.click('#tab-summary');
      const pageable = '[data-table="findings"] .finding[data-rule="pageable_copies"]';
      await page.waitForSelector(pageable);
      assert.match(await page.textContent(pageable), /pageable host memory/);
      const cited = page.locator(pageable + ' .cited-link').first();
      assert.match(await cited.textContent(), /^memcpys #\d+ · 256\.00MB to pageable memory/);
      const bank = '[data-table="findings"] .kernel-findings' +
          '[data-kernel="k_smem_bank_conflicts(float*, int)"]';
      assert.match(await page.textContent(bank), /Shared Memory Bank Conflicts/);
      await page.screenshot({path: path.join(artifactsDir(), 'real-findings-summary.png')});
      await cited.click();
      await page.waitForSelector('#details .details-findings');
      assert.equal(await page.getAttribute('#details', 'data-type'), 'memcpy');
      assert.match(await page.textContent('#details .details-findings'), /pageable host memory/);
      assert.match(await page.textContent('#details .details-table'), /bytes268435456/);
      // The timeline shows the copy: the view is around it, not the whole run.
      const {t0, t1, mark} = await page.evaluate(
          () => ({
            t0: window.gpuscopeViewer.timeline.view.t0,
            t1: window.gpuscopeViewer.timeline.view.t1,
            mark: window.gpuscopeViewer.timeline.highlights.find((m) => m.selected),
          }));
      assert.ok(
          mark && t0 <= mark.s && mark.e <= t1 && t1 - t0 < 10 * (mark.e - mark.s),
          JSON.stringify({t0, t1, mark}));
      assert.deepEqual(page.problems, [], 'no dialog, page error or console error');
    };
    await checkReportAndServer(html, recorded, check, 'findings-cited-row');
  });

  test('gpuscope report writes a page that works from file:// with no server', async () => {
    const html = path.join(artifactsDir(), 'real-report.html');
    // -f: the page is kept among the artifacts of the build, and replaced on every run.
    execFileSync(gpuscope, ['report', '-f', '-o', html, ...reports], {stdio: 'pipe'});
    const page = await openPage(browser, pathToFileURL(html).href);
    try {
      await checkDetailsAndRelated(page, 'report');
      await checkCommonViews(page, 'report');
    } finally {
      await page.close();
    }
  });

  test('gpuscope view serves the viewer; a click highlights the related launch call', async () => {
    const {server, url} = await startView(reports);
    try {
      const page = await openPage(browser, url);
      try {
        await checkDetailsAndRelated(page, 'view');
        await checkCommonViews(page, 'view');
      } finally {
        await page.close();
      }
    } finally {
      server.kill('SIGTERM');
    }
  });

  // The slow variant's kernels before the burst run longer, so 'tiny burst' starts later in
  // slow.sqlite than in fast.sqlite: aligned on that range, both bursts start at one axis time.
  test('two reports aligned on an NVTX range, from the command line and in the viewer', async () => {
    const kRange = 'tiny burst';
    // Where each report's first 'tiny burst' sits on the axis (found by the search box's query).
    const burstsOnAxis = (page) => page.evaluate(async (name) => {
      const viewer = window.gpuscopeViewer;
      const starts = [];
      for (const report of viewer.reports) {
        const found = await viewer.source.search(report.index, name);
        const range = found.matches.find((m) => m.type === 'nvtx' && m.name === name);
        starts.push(viewer.timeline.toAxis(report.index, range.s));
      }
      return starts;
    }, kRange);
    const alignedOnTheRange = async (page, label) => {
      await page.waitForFunction(() => window.gpuscopeViewer.timeline.align === 'nvtx');
      await waitForIdle(page);
      const [fast, slow] = await burstsOnAxis(page);
      assert.equal(slow, fast, `${label}: both bursts start at one axis time`);
      assert.equal(await page.inputValue('#align-pick'), 'nvtx');
      assert.equal(await page.inputValue('#align-range'), kRange);
    };

    // On the command line: the page of `gpuscope report` and `gpuscope view`.
    const html = path.join(work, 'aligned-nvtx.html');
    execFileSync(
        gpuscope, ['report', '--align', `nvtx:${kRange}`, '-o', html, ...reports], {stdio: 'pipe'});
    const reportPage = await openPage(browser, pathToFileURL(html).href);
    try {
      await alignedOnTheRange(reportPage, 'report page');
      assert.deepEqual(reportPage.problems, []);
    } finally {
      await reportPage.close();
    }
    const aligned = await startView(['--align', `nvtx:${kRange}`, ...reports]);
    try {
      const page = await openPage(browser, aligned.url);
      try {
        await alignedOnTheRange(page, 'view');
        await shot(page, 'aligned-nvtx');
        assert.deepEqual(page.problems, []);
      } finally {
        await page.close();
      }
    } finally {
      aligned.server.kill('SIGTERM');
    }

    // In the viewer: opened on the starts (the bursts apart), then aligned with the control;
    // a range one report lacks is said in one line and the axis stays as it was.
    const plain = await startView(reports);
    try {
      const page = await openPage(browser, plain.url);
      try {
        await waitForIdle(page);
        const [fast, slow] = await burstsOnAxis(page);
        assert.ok(slow - fast > 1000, `on their starts the bursts are ${slow - fast} ns apart`);
        assert.equal(await page.isHidden('#align-range'), true);
        await page.selectOption('#align-pick', 'nvtx');
        await page.fill('#align-range', kRange);
        await page.press('#align-range', 'Enter');
        await alignedOnTheRange(page, 'viewer control');
        await shot(page, 'aligned-nvtx-control');
        const offsets = await page.evaluate(() => [...window.gpuscopeViewer.timeline.offsets]);

        await page.fill('#align-range', 'no such range');
        await page.press('#align-range', 'Enter');
        await page.waitForFunction(() => /cannot align/.test(document.getElementById('status').textContent));
        assert.equal(
            await page.textContent('#status'),
            'cannot align on NVTX range \'no such range\': no range of that name in reports ' +
                '#0 (fast.sqlite), #1 (slow.sqlite)');
        assert.deepEqual(
            await page.evaluate(() => [...window.gpuscopeViewer.timeline.offsets]), offsets,
            'the axis stays as it was');
        await shot(page, 'aligned-nvtx-missing');
        // The server's 404 is logged by the browser; nothing else may be.
        assert.deepEqual(page.problems.filter((p) => !/status of 404/.test(p)), []);
      } finally {
        await page.close();
      }
    } finally {
      plain.server.kill('SIGTERM');
    }
  });

  test('gpuscope view of two ranks on two hosts: one row per rank, on the aligned axis', async () => {
    // Rank 1's host clock reads 5 ms ahead; given first on the command line.
    const ranks = [path.join(work, 'rank1.sqlite'), path.join(work, 'rank0.sqlite')];
    writeSqlReport(ranks[0], {pid: 4343, rank: 1, host: 'nodeB', clockShift: 5_000_000n});
    writeSqlReport(ranks[1], {pid: 4242, rank: 0, host: 'nodeA'});
    const {server, url} = await startView(ranks);
    try {
      const page = await openPage(browser, url);
      try {
        assert.equal(await page.inputValue('#align-pick'), 'ranks');
        const groups = await page.$$eval(
            '.track-list li[data-kind="group"]', (items) => items.map((li) => li.textContent));
        const processes = groups.filter((g) => g.startsWith('rank '));
        assert.deepEqual(processes, ['rank 0 (nodeA, 4242)', 'rank 1 (nodeB, 4343)']);
        // Rank 1 (report 0) is drawn 5 ms earlier than its clock says, rank 0 where it is.
        const offsets = await page.evaluate(
            () => [...window.gpuscopeViewer.timeline.offsets.entries()]);
        assert.deepEqual(offsets, [[0, 5_000_000], [1, 0]]);
        await waitForIdle(page);
        await shot(page, 'ranks-timeline');
        // The other placements stay available.
        await page.selectOption('#align-pick', 'starts');
        await page.waitForFunction(() => window.gpuscopeViewer.timeline.align === 'starts');
      } finally {
        await page.close();
      }
    } finally {
      server.kill('SIGTERM');
    }
  });

  test('gpuscope export --format chrome writes valid Trace Event Format', () => {
    const out = path.join(work, 'trace.json');
    execFileSync(
        gpuscope, ['export', '--format', 'chrome', '-o', out, reports[0]], {stdio: 'pipe'});
    const trace = JSON.parse(readFileSync(out, 'utf8'));
    const summary = validateTraceEventFormat(trace);
    assert.deepEqual(summary.errors, [], summary.errors.slice(0, 5).join('\n'));
    const complete = summary.events.filter((e) => e.ph === 'X');
    const names = new Set(complete.map((e) => e.name));
    for (const name
             of ['add(int, int, int*)', kHostileScript, kHostileImage, 'cudaLaunchKernel',
                 'training step', 'tiny burst']) {
      assert.ok(names.has(name), `a slice named ${name}`);
    }
    assert.equal(
        complete.filter((e) => e.name === 'tiny(float*)').length, 300, 'every kernel is a slice');
    assert.ok(summary.flows >= 308, `flow arrows from launches to kernels (${summary.flows})`);
    assert.ok(summary.events.some((e) => e.ph === 'C'), 'a device-memory counter');
    const threadNames = summary.events.filter((e) => e.ph === 'M' && e.name === 'thread_name')
                            .map((e) => e.args.name);
    assert.ok(
        threadNames.some((n) => /Stream 7/.test(n)) && threadNames.includes('Thread 4242'),
        JSON.stringify(threadNames));
  });
});
