// `gpuscope view` run by the tests: started on reports, its URL read from its output.

import {spawn} from 'node:child_process';

// Starts `gpuscope view` (the binary `gpuscope`) on `files`; resolves with the server process
// and the URL it printed.
export async function startView(gpuscope, files) {
  const server = spawn(
      gpuscope, ['view', '--exit-after-seconds', '240', ...files],
      {stdio: ['ignore', 'pipe', 'pipe']});
  try {
    const url = await new Promise((resolve, reject) => {
      let out = '';
      const timer =
          setTimeout(() => reject(new Error('gpuscope view printed no URL: ' + out)), 30000);
      const onData = (chunk) => {
        out += chunk;
        const match = /http:\/\/127\.0\.0\.1:\d+\//.exec(out);
        if (match) {
          clearTimeout(timer);
          resolve(match[0]);
        }
      };
      server.stdout.on('data', onData);
      server.stderr.on('data', onData);
      server.on('exit', (code) => reject(new Error(`gpuscope view exited (${code}): ${out}`)));
    });
    return {server, url};
  } catch (error) {
    server.kill('SIGTERM');
    throw error;
  }
}
