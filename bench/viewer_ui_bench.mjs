// Viewer speed in headless Chromium with 1,000,000 kernels (issue 5's targets: first paint
// <= 2 s, pan/zoom frames <= 16 ms). Runs the viewer two ways:
//   embedded  a self-contained page (as `gpuscope report -o` writes) of a generated trace:
//             1,000,000 kernels on one stream and their 1,000,000 launch calls on one thread
//   view      `gpuscope view` on a 1,000,000-kernel report from bench/make_synthetic_report,
//             when both binaries are found (GPUSCOPE_BIN / GPUSCOPE_MAKE_REPORT, or build/)
//   report    `gpuscope report` of that report (cut at its default event limit), opened from
//             file://; report-all: the same with --max-events covering every event
// First paint: from navigation start to the end of the first frame that drew data. Frame time:
// the work of one frame after a view change (level of detail + drawing), over a scripted
// sequence of zooms and pans; for `view`, also the time until the server's new answers arrive.
//   node bench/viewer_ui_bench.mjs [kernels]      (needs `npm ci` and Chromium)
// Prints numbers only; record them in bench/RESULTS.md. Not a test: nothing here asserts.

import {execFileSync, spawn} from 'node:child_process';
import {existsSync, mkdtempSync, rmSync, statSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {pathToFileURL} from 'node:url';

import {kRepoRoot, launchBrowser} from '../tests/viewer-ui/lib/browser.mjs';
import {buildEmbeddedPage} from '../tests/viewer-ui/lib/embedded_page.mjs';

const kKernels = Number(process.argv[2] || 1_000_000);
const kFirstPaintTargetMs = 2000;
const kFrameTargetMs = 16;
const kSteps = 60;

function syntheticTrace(kernels) {
  // Launch-bound: a 2 us kernel every 5 us, its launch call 3 us before; 8 kernel names.
  const names = [
    'add(int, int, int*)', 'vecAdd(float const*, float const*, float*, int)',
    'reduce_v2(float const*, float*, int)',
    'matmul_tiled(float const*, float const*, float*, int, int, int)',
    'convolve(float*, float*, float*)', 'fma_loop_k(float*, int)', 'ampere_sgemm_128x64_nn',
    'softmax_kernel(float*, int)'
  ];
  const strings = [...names, 'cudaLaunchKernel'];
  const start = 1_000_000_000;
  const k = {
    type: 'kernel',
    s: new Array(kernels),
    e: new Array(kernels),
    name: new Array(kernels),
    id: new Array(kernels)
  };
  const a = {
    type: 'api',
    s: new Array(kernels),
    e: new Array(kernels),
    name: new Array(kernels),
    id: new Array(kernels)
  };
  for (let i = 0; i < kernels; i++) {
    const t = start + 10_000 + i * 5_000;
    k.s[i] = t;
    k.e[i] = t + 2_000 + (i % 7) * 100;
    k.name[i] = i % names.length;
    k.id[i] = i + 1;
    a.s[i] = t - 3_000;
    a.e[i] = t - 1_000;
    a.name[i] = names.length;
    a.id[i] = i + 1;
  }
  const end = start + 20_000 + kernels * 5_000;
  return {
    reports: [{
      index: 0,
      path: 'synthetic',
      pid: 1,
      hostname: 'bench',
      command_line: `synthetic ${kernels} kernels`,
      start,
      end,
      devices: [{id: 0, name: 'NVIDIA H200', cc: '9.0', sms: 132}],
      counts: {kernels, memcpys: 0, memsets: 0, api_calls: kernels, nvtx: 0},
      warnings: [],
      has_metrics: false
    }],
    tracks: {
      '0': [
        {id: 'gpu0.s7', group: 'GPU 0 (NVIDIA H200)', label: 'Stream 7', kind: 'gpu'},
        {id: 't1', group: 'Threads', label: 'Thread 1', kind: 'api'}
      ]
    },
    events: {'0': {'gpu0.s7': k, 't1': a}},
    strings,
    details: {},
    summary: {tables: {}},
    kernels: {},
  };
}

// Zooms in around points across the run, then pans, then zooms out: each step one frame.
async function measureFrames(page) {
  return page.evaluate(async (steps) => {
    const timeline = window.gpuscopeViewer.timeline;
    const view = timeline.view;
    const times = [];
    const waits = [];
    const settle = async () => {
      // HttpSource: answers arrive asynchronously; wait for them (bounded) and time it.
      const began = performance.now();
      while (timeline.inFlight.size > 0 && performance.now() - began < 5000)
        await new Promise((r) => setTimeout(r, 1));
      timeline.frame();
      return performance.now() - began;
    };
    for (let i = 0; i < steps; i++) {
      const phase = Math.floor((3 * i) / steps);
      if (phase === 0)
        view.zoomAround(view.t0 + view.span * (0.3 + 0.01 * i), 0.8);
      else if (phase === 1)
        view.panBy(i % 2 ? 0.3 : -0.2);
      else
        view.zoomAround((view.t0 + view.t1) / 2, 1.25);
      const began = performance.now();
      timeline.frame();
      times.push(performance.now() - began);
      waits.push(await settle());
    }
    // Also the worst case: the whole run on screen.
    view.reset();
    timeline.asked.clear();  // a fresh query even if the last step showed the whole run too
    const began = performance.now();
    timeline.frame();
    const full = performance.now() - began;
    return {times, waits, full};
  }, kSteps);
}

function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return `p50 ${at(0.5).toFixed(2)} ms, p95 ${at(0.95).toFixed(2)} ms, max ${
      sorted[sorted.length - 1].toFixed(2)} ms`;
}

async function runPage(browser, url, label) {
  const page = await browser.newPage({viewport: {width: 1600, height: 900}});
  const began = Date.now();
  await page.goto(url, {timeout: 120000});
  await page.waitForFunction(
      () => window.gpuscopeViewer && window.gpuscopeViewer.timeline &&
          window.gpuscopeViewer.timeline.stats.firstPaintMs !== null,
      null, {timeout: 120000});
  const firstPaint = await page.evaluate(() => window.gpuscopeViewer.timeline.stats.firstPaintMs);
  const wall = Date.now() - began;
  const frames = await measureFrames(page);
  console.log(
      `${label}: first paint ${firstPaint.toFixed(0)} ms after navigation start (target <= ${
          kFirstPaintTargetMs} ms; wall ${wall} ms)`);
  console.log(
      `${label}: pan/zoom frame work over ${kSteps} steps: ${stats(frames.times)} (target <= ${
          kFrameTargetMs} ms); whole run on screen: ${frames.full.toFixed(2)} ms`);
  if (label.startsWith('view'))
    console.log(
        `${label}: view change until the server's answers are drawn: ${stats(frames.waits)}`);
  await page.close();
}

function findBinary(envName, relative) {
  if (process.env[envName]) return process.env[envName];
  for (const dir of ['build', 'build-viewercpp', 'build-viewerweb']) {
    const candidate = path.join(kRepoRoot, dir, relative);
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

async function runView(browser, work) {
  const gpuscope = findBinary('GPUSCOPE_BIN', 'bin/gpuscope');
  const maker = findBinary('GPUSCOPE_MAKE_REPORT', 'bench/make_synthetic_report');
  let help = '';
  try {
    help = gpuscope ? execFileSync(gpuscope, ['--help'], {encoding: 'utf8'}) : '';
  } catch { /* no usable binary */
  }
  if (!maker || !/\bview\b/.test(help)) {
    console.log(
        'view: skipped (needs gpuscope with `view` and bench/make_synthetic_report; set GPUSCOPE_BIN, GPUSCOPE_MAKE_REPORT)');
    return;
  }
  const report = path.join(work, 'bench.sqlite');
  execFileSync(maker, [report, String(kKernels)], {stdio: 'ignore'});
  const server = spawn(gpuscope, ['view', report], {stdio: ['ignore', 'pipe', 'pipe']});
  try {
    const url = await new Promise((resolve, reject) => {
      let out = '';
      const timer =
          setTimeout(() => reject(new Error('gpuscope view printed no URL: ' + out)), 120000);
      const onData = (chunk) => {
        out += chunk;
        const match = /http:\/\/127\.0\.0\.1:\d+\/?/.exec(out);
        if (match) {
          clearTimeout(timer);
          resolve(match[0]);
        }
      };
      server.stdout.on('data', onData);
      server.stderr.on('data', onData);
      server.on('exit', (code) => reject(new Error(`gpuscope view exited (${code}): ${out}`)));
    });
    await runPage(browser, url, `view (${gpuscope})`);
  } finally {
    server.kill('SIGTERM');
  }
  if (/\breport\b/.test(help)) {
    // The default page (cut at `gpuscope report`'s event limit), then one with every event.
    for (const [label, extra] of [
             ['report', []], ['report-all', ['--max-events', String(4 * kKernels)]]]) {
      const html = path.join(work, label + '.html');
      const began = Date.now();
      execFileSync(gpuscope, ['report', ...extra, '-o', html, report], {stdio: 'ignore'});
      console.log(`${label}: gpuscope report ${extra.join(' ')} wrote ${
          (statSync(html).size / 1e6).toFixed(0)} MB in ${Date.now() - began} ms`);
      await runPage(browser, pathToFileURL(html).href, label);
    }
  }
}

const work = mkdtempSync(path.join(os.tmpdir(), 'gpuscope-ui-bench-'));
const browser = await launchBrowser();
try {
  console.log(
      `viewer UI benchmark: ${kKernels.toLocaleString('en-US')} kernels, headless Chromium, ${
          os.cpus().length} CPUs (${os.cpus()[0].model})`);
  const file = path.join(work, 'embedded.html');
  writeFileSync(file, buildEmbeddedPage(syntheticTrace(kKernels)));
  await runPage(browser, pathToFileURL(file).href, 'embedded');
  await runView(browser, work);
} finally {
  await browser.close();
  rmSync(work, {recursive: true, force: true});
}
