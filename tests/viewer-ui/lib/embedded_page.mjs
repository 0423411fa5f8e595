// Builds a self-contained viewer page, as `gpuscope report -o out.html` does: index.html with
// style.css inlined, every ES module concatenated into one inline module script (imports
// dropped, `export` keywords removed; the modules keep their top-level names unique so this
// is safe), and the report data in <script type="application/json" id="gpuscope-data"> with
// every '<' written as \u003c so no string can close the block. Opens from file:// offline.

import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

export const kWebDir = fileURLToPath(new URL('../../../src/viewer/web/', import.meta.url));

// `import {a, b} from './x.js';`, possibly wrapped over several lines.
const kImport = /^import\s+\{[^}]*\}\s+from\s+'\.\/([\w.]+\.js)';[ \t]*$/gm;

/** The modules of the viewer in dependency order (each after what it imports), app.js last. */
export function moduleOrder(webDir = kWebDir) {
  const files = readdirSync(webDir).filter((f) => f.endsWith('.js'));
  const imports =
      new Map(files.map((f) => [f, importsOf(readFileSync(path.join(webDir, f), 'utf8'))]));
  const order = [];
  const state = new Map();
  const visit = (file, chain) => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'visiting')
      throw new Error('import cycle: ' + [...chain, file].join(' -> '));
    if (!imports.has(file))
      throw new Error(`${chain[chain.length - 1]} imports missing module ${file}`);
    state.set(file, 'visiting');
    for (const dep of imports.get(file)) visit(dep, [...chain, file]);
    state.set(file, 'done');
    order.push(file);
  };
  visit('app.js', []);
  return order;
}

function importsOf(source) {
  const deps = [...source.matchAll(kImport)].map((match) => match[1]);
  const rest = source.replace(kImport, '');
  const other = /^\s*import[\s{(]/m.exec(rest);
  if (other)
    throw new Error(
        'an import the bundler cannot inline: ' + rest.slice(other.index).split('\n')[0]);
  return deps;
}

/** The modules as one script: imports dropped, exports turned into plain declarations. */
export function bundleModules(webDir = kWebDir) {
  const seen = new Map();
  const parts = [];
  for (const file of moduleOrder(webDir)) {
    const source = readFileSync(path.join(webDir, file), 'utf8');
    for (const name of topLevelNames(source)) {
      if (seen.has(name))
        throw new Error(`top-level name ${name} is declared in both ${seen.get(name)} and ${file}`);
      seen.set(name, file);
    }
    const body = source.replace(kImport, '')
                     .replace(/^export\s+(?=(async\s+)?(function|class|const|let)\b)/gm, '');
    parts.push(`// --- ${file}\n${body}`);
  }
  return parts.join('\n');
}

/** Names declared at the top level of a module (lines starting at column 0). */
export function topLevelNames(source) {
  const names = [];
  const re =
      /^(?:export\s+)?(?:async\s+)?(?:function\*?|class|const|let|var)\s+([A-Za-z_$][\w$]*)/gm;
  for (let m = re.exec(source); m; m = re.exec(source)) names.push(m[1]);
  return names;
}

/** `data` (object or JSON text) as the inside of a <script type="application/json"> block. */
export function embedJson(data) {
  const text = typeof data === 'string' ? data : JSON.stringify(data);
  return text.replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** The whole self-contained page for `data`. */
export function buildEmbeddedPage(data, webDir = kWebDir) {
  let html = readFileSync(path.join(webDir, 'index.html'), 'utf8');
  const css = readFileSync(path.join(webDir, 'style.css'), 'utf8');
  const script = bundleModules(webDir).replace(/<\/script/gi, '<\\/script');
  const replaceOnce = (text, needle, replacement) => {
    if (!text.includes(needle)) throw new Error('index.html lacks ' + needle);
    return text.replace(needle, () => replacement);
  };
  html = replaceOnce(html, '<link rel="stylesheet" href="style.css">', `<style>\n${css}</style>`);
  html = replaceOnce(
      html, '<script type="module" src="app.js"></script>',
      `<script type="application/json" id="gpuscope-data">${embedJson(data)}</script>\n` +
          `<script type="module">\n${script}\n</script>`);
  return html;
}
