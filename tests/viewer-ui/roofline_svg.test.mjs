// `gpuscope roofline --svg` on the profile recorded on the H200, drawn by Chromium: the
// geometry the browser gives the text (its boxes on screen), not our estimate of it. Roof labels
// never overlap, every text lies inside the viewBox (the legend is not cut), and each kernel has a
// colour and marker pair of its own. Screenshot: <build>/viewer-ui/roofline-svg.png.

import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {after, before, test} from 'node:test';
import {fileURLToPath} from 'node:url';

import {artifactsDir, launchBrowser} from './lib/browser.mjs';

const gpuscope = process.env.GPUSCOPE_BIN;
const recorded = path.join(
    path.dirname(fileURLToPath(import.meta.url)), '../data/reports/h100_metrics_full.sqlite');

let work;
let browser;
before(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), 'gpuscope-roofline-'));
  browser = await launchBrowser();
});
after(async () => {
  if (browser) await browser.close();
  if (work) rmSync(work, {recursive: true, force: true});
});

test(
    'the roofline SVG of 14 kernels: labels apart, legend inside, one style per kernel',
    {skip: !gpuscope && 'GPUSCOPE_BIN is not set'}, async () => {
      const svgPath = path.join(work, 'roof.svg');
      execFileSync(gpuscope, ['roofline', '--svg', svgPath, recorded], {stdio: 'pipe'});
      const page = await browser.newPage({viewport: {width: 1600, height: 1000}});
      try {
        // Inline in a page, as a browser shows an SVG image; the file is the test's own output.
        await page.setContent(
            '<!doctype html><body style="margin:0">' + readFileSync(svgPath, 'utf8') + '</body>');
        const geometry = await page.evaluate(() => {
          const svg = document.querySelector('svg');
          // Screen boxes (rotated text included) in viewBox units.
          const frame = svg.getBoundingClientRect();
          const [, , vw, vh] = svg.getAttribute('viewBox').split(' ').map(Number);
          const sx = vw / frame.width, sy = vh / frame.height;
          const box = (node) => {
            const b = node.getBoundingClientRect();
            return {
              x0: (b.left - frame.left) * sx,
              y0: (b.top - frame.top) * sy,
              x1: (b.right - frame.left) * sx,
              y1: (b.bottom - frame.top) * sy,
              text: node.textContent
            };
          };
          const style = (node) => [node.getAttribute('fill'), node.getAttribute('stroke') || '',
                                   node.getAttribute('fill-opacity') || '1']
                                      .join('|');
          const byKernel = (selector) => {
            const styles = {};
            for (const node of svg.querySelectorAll(selector)) {
              const k = node.dataset.kernel;
              (styles[k] = styles[k] || new Set()).add(style(node));
            }
            return Object.fromEntries(Object.entries(styles).map(([k, s]) => [k, [...s]]));
          };
          return {
            viewBox: svg.getAttribute('viewBox').split(' ').map(Number),
            labels: [...svg.querySelectorAll('text.roof-label')].map(box),
            texts: [...svg.querySelectorAll('text')].map(box),
            legend: byKernel('.legend-marker'),
            points: byKernel('.roof-point'),
          };
        });
        await page.locator('svg').screenshot({path: path.join(artifactsDir(), 'roofline-svg.png')});

        const [vx, vy, vw, vh] = geometry.viewBox;
        for (const t of geometry.texts) {
          assert.ok(
              t.x0 >= vx && t.y0 >= vy && t.x1 <= vx + vw && t.y1 <= vy + vh,
              `"${t.text}" leaves the viewBox: ${JSON.stringify(t)} of ${geometry.viewBox}`);
        }
        assert.ok(geometry.labels.length >= 4, JSON.stringify(geometry.labels));
        assert.ok(
            geometry.labels.some((l) => /FP32/.test(l.text)) &&
            geometry.labels.some((l) => /FP16/.test(l.text)));
        for (let i = 0; i < geometry.labels.length; i++) {
          for (let j = i + 1; j < geometry.labels.length; j++) {
            const a = geometry.labels[i], b = geometry.labels[j];
            const overlap = a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
            assert.ok(!overlap, `"${a.text}" overlaps "${b.text}"`);
          }
        }
        const kernels = Object.keys(geometry.legend);
        assert.equal(kernels.length, 14);
        const styles = kernels.map((k) => {
          assert.equal(geometry.legend[k].length, 1, `kernel ${k} has one legend style`);
          return geometry.legend[k][0];
        });
        assert.equal(new Set(styles).size, kernels.length, 'a colour and marker pair per kernel');
        // The chart's points wear their kernel's legend style.
        for (const [k, pointStyles] of Object.entries(geometry.points)) {
          assert.deepEqual(pointStyles, geometry.legend[k], `kernel ${k}'s points`);
        }
      } finally {
        await page.close();
      }
    });
