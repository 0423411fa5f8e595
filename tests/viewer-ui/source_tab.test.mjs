// The kernel page's Source tab, in the self-contained page of `gpuscope report` and in
// `gpuscope view`, on a report with source counters: the source probe's k_fp64 as recorded on
// the H100 (GPUSCOPE_WRITE_SOURCE_REPORT writes it, see tests/support/probe_source_report.h).
// It opens on the hottest line (line 22, the FP64 loop) with its instructions marked in the SASS
// pane and listed below; a click on another line lists that line's instructions, a click on an
// instruction selects its line; a kernel without source data says why in one line.
// Screenshots: <artifacts>/source-tab-{report,view}.png.

import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {mkdtempSync, rmSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {after, before, describe, test} from 'node:test';
import {pathToFileURL} from 'node:url';

import {artifactsDir, launchBrowser, openPage} from './lib/browser.mjs';
import {startView} from './lib/gpuscope_view.mjs';

const gpuscope = process.env.GPUSCOPE_BIN;
const writer = process.env.GPUSCOPE_WRITE_SOURCE_REPORT;
const kKernel = 'k_fp64(float const*, float*, int)';
const kNoCounters = 'No source data: no source counters were collected for this launch; ' +
    'profile with --set full or --section SourceCounters';

describe(
    'the kernel page\'s Source tab', {skip: !(gpuscope && writer) && 'CTest sets the binaries'},
    () => {
      let work;
      let browser;
      let report;
      let html;

      before(async () => {
        work = mkdtempSync(path.join(os.tmpdir(), 'gpuscope-source-ui-'));
        report = path.join(work, 'probe.sqlite');
        execFileSync(writer, [report], {stdio: 'pipe'});
        html = path.join(work, 'probe.html');
        execFileSync(gpuscope, ['report', '-o', html, report], {stdio: 'pipe'});
        browser = await launchBrowser();
      });
      after(async () => {
        if (browser) await browser.close();
        if (work) rmSync(work, {recursive: true, force: true});
      });

      // The kernel page of `name` from the Summary pane's kernel table, on its Source tab.
      async function openSourceTab(page, name) {
        await page.click('#tab-summary');
        const kern = '[data-table="cuda_gpu_kern_sum"]';
        await page.waitForSelector(kern + ' tbody tr');
        await page.click(`${kern} .kernel-link >> text="${name}"`);
        await page.waitForFunction(
            (n) => document.querySelector('.kernel-name') &&
                document.querySelector('.kernel-name').textContent === n,
            name);
        await page.click('.kernel-tab[data-tab="source"]');
      }

      const selectedLine = (page) =>
          page.$eval('.code-line.selected', (tr) => ({
                                              number: tr.querySelector('.line-number').textContent,
                                              code: tr.querySelector('.code-text').textContent,
                                              index: Number(tr.dataset.line),
                                            }));
      const linked = (page) => page.$$eval(
          '.code-instruction.linked',
          (trs) => trs.map((tr) => tr.querySelector('.pc').textContent));
      const listed = (page) => page.$$eval(
          '.code-members tbody tr', (trs) => trs.map((tr) => tr.querySelector('.pc').textContent));

      async function checkSourceTab(page, label) {
        await openSourceTab(page, kKernel);
        await page.waitForSelector('.code-view .code-line.selected');
        // Opens on the hottest line: line 22 of source_probe.cu, the FP64 accumulator's loop.
        const hot = await selectedLine(page);
        assert.equal(hot.number, '22');
        assert.match(hot.code, /s \+= a\[\(threadIdx\.x \+ i\) % n\] \* 1\.5;/);
        assert.equal(await page.textContent('.code-hottest-link'), 'source_probe.cu:22');
        assert.match(
            await page.textContent('.code-summary'),
            /Hottest line source_probe\.cu:22: \d+\.\d% of instructions executed/);
        // Its instructions: marked in the SASS pane and listed below, the same ones.
        const hotLinked = await linked(page);
        assert.ok(hotLinked.length > 0, 'the hottest line has instructions');
        assert.deepEqual(await listed(page), hotLinked);
        assert.match(await page.textContent('.code-selection-title'), /^source_probe\.cu:22/);
        const listedCode = await page.$$eval(
            '.code-members tbody tr .code-text', (tds) => tds.map((td) => td.textContent));
        assert.ok(listedCode.some((t) => /DFMA|DADD|DMUL/.test(t)), JSON.stringify(listedCode));
        // The heat columns: the hottest line's Instructions cell is coloured, with its share.
        const heat = await page.$eval(
            '.code-line.selected td.heat',
            (td) => ({style: td.style.getPropertyValue('--heat'), title: td.title}));
        assert.ok(Number(heat.style) > 0.5, JSON.stringify(heat));
        assert.match(heat.title, /^Instructions Executed: [\d,]+ \(\d+\.\d% of the kernel\)$/);
        // Stall reasons per line: a bar with the line's reasons.
        assert.match(
            await page.getAttribute('.code-line.selected td.stall-cell', 'title'),
            /^[a-z_]+: [\d,]+(, [a-z_]+: [\d,]+)*$/);
        await page.screenshot({path: path.join(artifactsDir(), `source-tab-${label}.png`)});

        // Another line: its own instructions.
        const other =
            await page.$$eval('.code-line', (trs) => trs.map((tr) => Number(tr.dataset.line)));
        const next = other.find((i) => i !== hot.index);
        await page.click(`.code-line[data-line="${next}"]`);
        const nextLinked = await linked(page);
        assert.notDeepEqual(nextLinked, hotLinked);
        assert.deepEqual(await listed(page), nextLinked);

        // The reverse: an instruction of the hottest line selects that line again.
        await page.click(`.code-instruction:has(.pc:text-is("${hotLinked[0]}"))`);
        assert.equal((await selectedLine(page)).number, '22');
        assert.equal(
            await page.$eval('.code-instruction.selected .pc', (td) => td.textContent),
            hotLinked[0]);

        // A kernel profiled without source counters says why.
        await openSourceTab(page, 'work()');
        await page.waitForSelector('.code-unavailable');
        assert.equal(await page.textContent('.code-unavailable'), kNoCounters);
        assert.deepEqual(page.problems, [], 'no dialog, page error or console error');
      }

      test('in the page gpuscope report writes', async () => {
        const page = await openPage(browser, pathToFileURL(html).href);
        try {
          await checkSourceTab(page, 'report');
        } finally {
          await page.close();
        }
      });

      test('in gpuscope view', async () => {
        const {server, url} = await startView(gpuscope, [report]);
        try {
          const page = await openPage(browser, url);
          try {
            await checkSourceTab(page, 'view');
          } finally {
            await page.close();
          }
        } finally {
          server.kill('SIGTERM');
        }
      });
    });
