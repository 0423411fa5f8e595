// A tiny stand-in for `gpuscope view`: serves src/viewer/web and answers /api/... from an
// embedded-format fixture through EmbeddedSource, so HttpSource is tested end to end before
// (and independently of) the C++ server. Listens on 127.0.0.1, a free port.

import {readFileSync} from 'node:fs';
import {createServer} from 'node:http';
import path from 'node:path';

import {EmbeddedSource} from '../../../src/viewer/web/source_embedded.js';

import {kWebDir} from './embedded_page.mjs';

const kTypes = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8'
};

/** Starts the server for `data`; resolves to {url, close(), requests: [path...]}. */
export async function startStubServer(data) {
  const source = new EmbeddedSource(data);
  const requests = [];
  const server = createServer(async (request, response) => {
    const url = new URL(request.url, 'http://127.0.0.1');
    requests.push(url.pathname + url.search);
    try {
      if (url.pathname.startsWith('/api/')) {
        const answer = await answerApi(source, url.pathname.slice(5), url.searchParams);
        sendJson(response, 200, answer);
        return;
      }
      const file = url.pathname === '/' ? 'index.html' : url.pathname.slice(1);
      if (!/^[\w.]+$/.test(file) || !kTypes[path.extname(file)]) {
        sendJson(response, 404, {error: 'no such file: ' + url.pathname});
        return;
      }
      const body = readFileSync(path.join(kWebDir, file));
      response.writeHead(200, {'Content-Type': kTypes[path.extname(file)]});
      response.end(body);
    } catch (error) {
      sendJson(response, error.status || 404, {error: error.message});
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const {port} = server.address();
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () => new Promise((resolve) => server.close(resolve))
  };
}

function sendJson(response, status, body) {
  response.writeHead(status, {'Content-Type': 'application/json'});
  response.end(JSON.stringify(body));
}

function required(params, name) {
  const value = params.get(name);
  if (value === null || value === '') {
    const error = new Error(`missing parameter '${name}'`);
    error.status = 400;
    throw error;
  }
  return value;
}

async function answerApi(source, endpoint, params) {
  const number = (name) => Number(required(params, name));
  switch (endpoint) {
    case 'reports':
      return source.reports();
    case 'tracks':
      return source.tracks(number('report'));
    case 'slices':
      return source.slices(
          number('report'), required(params, 'track'), number('start'), number('end'),
          number('px'));
    case 'event':
      return source.event(number('report'), required(params, 'type'), number('id'));
    case 'summary':
      return source.summary(required(params, 'reports').split(',').map(Number));
    case 'kernel':
      return source.kernel(number('report'), required(params, 'name'));
    case 'diff':
      return source.diff(number('a'), number('b'));
    case 'findings':
      return source.findings(number('report'));
    case 'alignment': {
      // As the server: the command line's alignment, or where an NVTX range first starts
      // (an error, 404, names the reports without it).
      const range = params.get('nvtx');
      if (range === null) return source.alignment();
      const starts = await source.rangeStarts(required(params, 'nvtx'));
      return {range, starts: [...starts.values()]};
    }
    default: {
      const error = new Error('unknown endpoint /api/' + endpoint);
      error.status = 404;
      throw error;
    }
  }
}
