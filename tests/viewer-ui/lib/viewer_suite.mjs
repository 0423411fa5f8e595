// The browser checks of the viewer, run against any way of opening it (the self-contained
// page, the stub API server, the real `gpuscope report` / `gpuscope view`): rows and labels,
// tooltip on hover, zoom and pan, click to details with the related event, summary tables,
// the kernel page, the diff view, hostile names kept as text. Saves screenshots.

import assert from 'node:assert/strict';
import path from 'node:path';
import {after, before, describe, test} from 'node:test';

import {kHostileImage, kHostileScript} from '../fixtures/make_fixture.mjs';

import {artifactsDir, launchBrowser, openPage} from './browser.mjs';
import {canvasPoint, nextFrames, sliceCentre, visibleRange, waitForIdle} from './viewer_page.mjs';

/** `openViewer()` resolves to {url, close()}; `label` names the suite and its screenshots. */
export function defineViewerSuite(label, openViewer) {
  describe(`viewer (${label})`, () => {
    let browser;
    let served;
    let page;
    const shot = (name) =>
        page.screenshot({path: path.join(artifactsDir(), `${label}-${name}.png`)});

    before(async () => {
      browser = await launchBrowser();
      served = await openViewer();
      page = await openPage(browser, served.url);
    });
    after(async () => {
      if (browser) await browser.close();
      if (served) await served.close();
    });

    test('shows rows per process, GPU stream, thread, NVTX and the memory counter', async () => {
      const labels =
          await page.$$eval('.track-list li', (items) => items.map((li) => li.textContent));
      for (const expected
               of ['Process 4242 \u00b7 ./app --variant fast', 'GPU 0 (NVIDIA H200)', 'Stream 7',
                   'Stream 13', 'Device memory', 'Threads', 'Thread 4242', 'NVTX',
                   'Process 4343 \u00b7 ./app --variant slow']) {
        assert.ok(labels.includes(expected), `row "${expected}" in ${JSON.stringify(labels)}`);
      }
      const warning = await page.textContent('#warnings');
      assert.match(warning, /3 records were dropped/);
      assert.match(warning, /report #1: this page holds [\d,]+ of the report's [\d,]+ events/);
      await waitForIdle(page);
      await shot('timeline');
    });

    test('hovering a kernel shows its name, duration, start and launch configuration', async () => {
      const {x, y} = await sliceCentre(page, 0, 'gpu0.s7', 'add(int, int, int*)');
      await page.mouse.move(x, y);
      await page.waitForSelector('.tooltip:not([hidden])');
      await page.waitForFunction(
          () => document.querySelector('.tooltip').textContent.includes('Grid'));
      const text = await page.textContent('.tooltip');
      assert.match(text, /^add\(int, int, int\*\)/);
      assert.match(text, /Duration: 4\.0000us/);
      assert.match(text, /Start: /);
      assert.match(text, /Grid: \(64, 1, 1\)/);
      assert.match(text, /Block: \(256, 1, 1\)/);
      await shot('tooltip');
      const memcpy = await sliceCentre(page, 0, 'gpu0.s7', '[CUDA memcpy HtoD]');
      await page.mouse.move(memcpy.x, memcpy.y);
      await page.waitForFunction(
          () => document.querySelector('.tooltip').textContent.includes('Bytes'));
      assert.match(await page.textContent('.tooltip'), /Bytes: 4\.000 MiB/);
    });

    test(
        'the wheel zooms around the cursor, shift+wheel and A/D pan, W/S zoom, drag pans',
        async () => {
          await page.keyboard.press('0');
          const full = await visibleRange(page);
          const point = await canvasPoint(page, 0.25, 0.5);
          await page.mouse.move(point.x, point.y);
          await page.mouse.wheel(0, -400);
          const zoomed = await visibleRange(page);
          assert.ok(zoomed.t1 - zoomed.t0 < (full.t1 - full.t0) * 0.6, 'zoomed in');
          const anchorBefore = full.t0 + 0.25 * (full.t1 - full.t0);
          const anchorAfter = zoomed.t0 + 0.25 * (zoomed.t1 - zoomed.t0);
          assert.ok(
              Math.abs(anchorAfter - anchorBefore) < (full.t1 - full.t0) * 0.01,
              'the time under the cursor stays put');

          await page.keyboard.down('Shift');
          await page.mouse.wheel(0, 200);
          await page.keyboard.up('Shift');
          const panned = await visibleRange(page);
          assert.ok(panned.t0 > zoomed.t0, 'shift+wheel pans later');
          assert.ok(
              Math.abs((panned.t1 - panned.t0) - (zoomed.t1 - zoomed.t0)) < 1,
              'panning keeps the span');

          await page.keyboard.press('w');
          const keyZoom = await visibleRange(page);
          assert.ok(keyZoom.t1 - keyZoom.t0 < panned.t1 - panned.t0, 'W zooms in');
          await page.keyboard.press('a');
          const keyPan = await visibleRange(page);
          assert.ok(keyPan.t0 < keyZoom.t0, 'A pans earlier');
          await page.keyboard.press('d');
          await page.keyboard.press('d');
          assert.ok((await visibleRange(page)).t0 > keyPan.t0, 'D pans later');
          await page.keyboard.press('s');
          const out = await visibleRange(page);
          assert.ok(out.t1 - out.t0 > keyZoom.t1 - keyZoom.t0, 'S zooms out');

          const start = await canvasPoint(page, 0.5, 0.5);
          const before = await visibleRange(page);
          await page.mouse.move(start.x, start.y);
          await page.mouse.down();
          await page.mouse.move(start.x + 150, start.y, {steps: 5});
          await page.mouse.up();
          const dragged = await visibleRange(page);
          assert.ok(dragged.t0 < before.t0, 'dragging right shows earlier time');
          await page.keyboard.press('0');
          await waitForIdle(page);
        });

    test('clicking a kernel shows its details and highlights its launch call', async () => {
      const {x, y, slice} = await sliceCentre(page, 0, 'gpu0.s7', 'add(int, int, int*)');
      await page.mouse.click(x, y);
      await page.waitForSelector('#details .details-title');
      assert.equal(await page.textContent('#details .details-title'), 'add(int, int, int*)');
      const table = await page.textContent('#details .details-table');
      assert.match(table, /grid_x64/);
      assert.match(table, /correlation_id/);
      const highlights = await page.evaluate(() => window.gpuscopeViewer.timeline.highlights);
      assert.equal(highlights[0].track, 'gpu0.s7');
      assert.equal(highlights[0].s, slice.s);
      const related = highlights.find((h) => !h.selected);
      assert.ok(related, 'the related API call is outlined');
      assert.equal(related.track, 't4242');
      await shot('selected');
      // Following the link selects the API call, which links back to the kernel.
      await page.click('#details .related-link');
      await page.waitForFunction(
          () => document.querySelector('#details').dataset.type === 'api' &&
              document.querySelector('#details .details-title'));
      assert.equal(await page.textContent('#details .details-title'), 'cudaLaunchKernel');
      const back = await page.evaluate(() => window.gpuscopeViewer.timeline.highlights);
      assert.ok(back.some((h) => !h.selected && h.track === 'gpu0.s7' && h.s === slice.s));
    });

    test('clicking a merged bucket zooms onto it', async () => {
      await page.keyboard.press('0');
      await waitForIdle(page);
      const target = await page.evaluate(() => {
        const timeline = window.gpuscopeViewer.timeline;
        const row = timeline.rows.find(
            (r) => r.type === 'track' && r.report === 0 && r.track.id === 'gpu0.s13');
        const bucket = timeline.answers.get(row.key).buckets[0];
        const rect = timeline.canvas.getBoundingClientRect();
        return {
          x: rect.left + timeline.plotLeft +
              ((bucket.s - timeline.view.t0) / timeline.view.span) * timeline.plotWidth + 0.5,
          y: rect.top + 24 + row.y - timeline.scrollY + 9,
          span: timeline.view.span,
        };
      });
      await page.mouse.click(target.x, target.y);
      const range = await visibleRange(page);
      assert.ok(range.t1 - range.t0 < target.span / 10, 'zoomed onto the bucket');
      await page.keyboard.press('0');
    });

    test('summary tables sort by a clicked header and filter by text', async () => {
      await page.click('#tab-summary');
      const kern = '[data-table="cuda_gpu_kern_sum"]';
      await page.waitForSelector(kern + ' table');
      const names = () => page.$$eval(
          kern + ' tbody tr', (rows) => rows.map((r) => r.lastElementChild.textContent));
      const column = (i) => page.$$eval(
          kern + ' tbody tr', (rows, i) => rows.map((r) => r.children[i].textContent), i);
      assert.equal((await names()).length, 5);
      const headers = await page.$$eval(kern + ' th', (ths) => ths.map((th) => th.dataset.key));
      const instances = headers.indexOf('Instances');
      await page.click(`${kern} th[data-key="Instances"]`);
      const down = (await column(instances)).map((t) => Number(t.replace(/,/g, '')));
      assert.deepEqual(
          down, [...down].sort((a, b) => b - a), 'numeric column sorts descending first');
      await page.click(`${kern} th[data-key="Instances"]`);
      const up = (await column(instances)).map((t) => Number(t.replace(/,/g, '')));
      assert.deepEqual(up, [...up].sort((a, b) => a - b), 'a second click reverses');
      await page.click(`${kern} th[data-key="Name"]`);
      const sortedNames = await names();
      assert.deepEqual(sortedNames, [...sortedNames].sort((a, b) => a.localeCompare(b)));
      await page.fill(kern + ' .table-filter', 'TINY');
      assert.deepEqual(await names(), ['tiny_kernel(float*)']);
      assert.match(await page.textContent(kern + ' .table-count'), /1 of 5 rows/);
      await page.fill(kern + ' .table-filter', '');
      assert.equal((await names()).length, 5);
      const api = await page.$$eval('[data-table="cuda_api_sum"] tbody tr', (rows) => rows.length);
      assert.ok(api >= 4);
      await shot('summary');
    });

    test(
        'the kernel page shows launches, configurations, findings, roofline and occupancy',
        async () => {
          await page.click('#tab-summary');
          await page.click(
              '[data-table="cuda_gpu_kern_sum"] .kernel-link >> text="add(int, int, int*)"');
          await page.waitForSelector('#pane-kernel:not([hidden]) .kernel-name');
          assert.equal(await page.textContent('.kernel-name'), 'add(int, int, int*)');
          const stats = await page.textContent('.kernel-stats');
          assert.match(stats, /Launches2/);
          assert.match(await page.textContent('#kernel-page'), /\(64, 1, 1\)/);
          assert.match(await page.textContent('.findings'), /Est\. speedup: 10\.96%/);
          assert.match(await page.textContent('.profile-section'), /Memory Throughput/);
          assert.equal(await page.locator('svg.roofline-chart circle.roof-point').count(), 1);
          assert.equal(await page.locator('svg.occupancy-chart').count(), 2);
          assert.equal(await page.locator('.no-metrics').count(), 0);
          await shot('kernel');
        });

    test('the diff view compares two reports kernel by kernel', async () => {
      await page.click('#tab-diff');
      await page.waitForSelector('#diff-view tbody tr');
      const rows = await page.$$eval(
          '#diff-view tbody tr',
          (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
      const add = rows.find((r) => r[0] === 'add(int, int, int*)');
      assert.ok(add, 'add() is in the diff');
      assert.match(add[add.length - 1], /^\+\d/, 'the slow run took longer');
      assert.ok(rows.some((r) => r[0] === kHostileScript));
      await shot('diff');
    });

    test(
        'hostile kernel names stay text: no dialog, no element, the characters shown literally',
        async () => {
          await page.click('#tab-summary');
          const names = await page.$$eval(
              '[data-table="cuda_gpu_kern_sum"] tbody tr',
              (rows) => rows.map((r) => r.lastElementChild.textContent));
          assert.ok(names.includes(kHostileScript) && names.includes(kHostileImage));
          await page.click(
              `[data-table="cuda_gpu_kern_sum"] .kernel-link >> text="${kHostileImage}"`);
          await page.waitForFunction(
              (name) => document.querySelector('.kernel-name') &&
                  document.querySelector('.kernel-name').textContent === name,
              kHostileImage);
          assert.match(await page.textContent('.no-metrics'), /gpuscope profile/);
          await page.click('#tab-timeline');
          await waitForIdle(page);
          const {x, y} = await sliceCentre(page, 0, 'gpu0.s7', kHostileScript);
          await page.mouse.move(x, y);
          await page.waitForFunction(
              (name) => document.querySelector('.tooltip').textContent.startsWith(name),
              kHostileScript);
          await page.mouse.click(x, y);
          await page.waitForFunction(
              (name) => document.querySelector('#details .details-title') &&
                  document.querySelector('#details .details-title').textContent === name,
              kHostileScript);
          await nextFrames(page);
          assert.equal(await page.locator('img').count(), 0, 'no <img> was created');
          // What `<script>alert(1)</script>` parsed as markup would have created.
          const scripts = await page.$$eval(
              'script', (list) => list.filter((s) => s.textContent.trim() === 'alert(1)').length);
          assert.equal(scripts, 0, 'no script element holds the hostile name');
          assert.deepEqual(page.problems, [], 'no dialog, page error or console error');
          await shot('hostile');
        });
  });
}
