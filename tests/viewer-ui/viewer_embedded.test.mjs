// The viewer as `gpuscope report -o out.html` makes it: one self-contained file opened from
// file:// (EmbeddedSource), built here from src/viewer/web and the recorded-report fixture.
import {readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {pathToFileURL} from 'node:url';

import {artifactsDir} from './lib/browser.mjs';
import {buildEmbeddedPage} from './lib/embedded_page.mjs';
import {defineViewerSuite} from './lib/viewer_suite.mjs';

defineViewerSuite('embedded', async () => {
  const data = readFileSync(new URL('./fixtures/two_reports.json', import.meta.url), 'utf8');
  const file = path.join(artifactsDir(), 'fixture-report.html');
  writeFileSync(file, buildEmbeddedPage(data));
  return {url: pathToFileURL(file).href, close: async () => {}};
});
