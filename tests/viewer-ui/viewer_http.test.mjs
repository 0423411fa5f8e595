// The viewer as `gpuscope view` serves it (HttpSource), against the Node stub server that
// answers /api/... from the recorded-report fixture.
import {readFileSync} from 'node:fs';

import {startStubServer} from './lib/stub_server.mjs';
import {defineViewerSuite} from './lib/viewer_suite.mjs';

defineViewerSuite('http', async () => {
  const data =
      JSON.parse(readFileSync(new URL('./fixtures/two_reports.json', import.meta.url), 'utf8'));
  return startStubServer(data);
});
