// Launches Debian's Chromium through playwright-core for the viewer tests and the benchmark.
// CHROMIUM overrides the browser path; screenshots go to GPUSCOPE_UI_ARTIFACTS (CTest sets it
// to the build directory) or build/viewer-ui.

import {existsSync, mkdirSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

export const kRepoRoot = fileURLToPath(new URL('../../../', import.meta.url));

export function chromiumPath() {
  const candidates =
      [process.env.CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean);
  const found = candidates.find((p) => existsSync(p));
  if (!found)
    throw new Error(
        'Chromium not found (tried ' + candidates.join(', ') + '): run scripts/setup.sh --deps');
  return found;
}

export async function launchBrowser() {
  let playwright;
  try {
    playwright = await import('playwright-core');
  } catch (error) {
    throw new Error(
        'playwright-core is not installed: run `npm ci` at the repository root (scripts/setup.sh does)');
  }
  return playwright.chromium.launch(
      {executablePath: chromiumPath(), args: ['--headless', '--no-sandbox']});
}

export function artifactsDir() {
  const dir = process.env.GPUSCOPE_UI_ARTIFACTS || path.join(kRepoRoot, 'build', 'viewer-ui');
  mkdirSync(dir, {recursive: true});
  return dir;
}

/**
 * A page that records what must never happen: dialogs (a hostile name that ran script),
 * uncaught errors, console errors. `page.problems` lists them.
 */
export async function openPage(browser, url, viewport = {
  width: 1400,
  height: 900
}) {
  const page = await browser.newPage({viewport});
  page.problems = [];
  page.on('dialog', (dialog) => {
    page.problems.push('dialog: ' + dialog.message());
    dialog.dismiss().catch(() => {});
  });
  page.on('pageerror', (error) => page.problems.push('page error: ' + error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') page.problems.push('console error: ' + message.text());
  });
  await page.goto(url);
  await page.waitForFunction(
      () => document.body.dataset.state !== 'loading', null, {timeout: 20000});
  // The first frame with data is drawn on the next animation frames.
  await page.waitForFunction(() => {
    const t = window.gpuscopeViewer && window.gpuscopeViewer.timeline;
    return t && t.stats.firstPaintMs !== null;
  }, null, {timeout: 20000});
  return page;
}
