// The only way the viewer builds DOM: elements with text set through textContent, never
// innerHTML. Every string from a report (kernel names, NVTX messages, command lines) is data,
// so a kernel named "<script>alert(1)</script>" shows exactly those characters.

/**
 * el('td', {className: 'num', title: 'x'}, 'text', childNode, ...): attributes are set as
 * properties (className, title, ...) or with setAttribute for data-* and aria-*; string
 * children become text nodes.
 */
export function el(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes || {})) {
    if (value === undefined || value === null) continue;
    if (key === 'innerHTML' || key === 'outerHTML')
      throw new Error('el() sets text only, never ' + key);
    if (key.startsWith('data-') || key.startsWith('aria-') || key === 'role') {
      node.setAttribute(key, String(value));
    } else if (key.startsWith('on') && typeof value === 'function') {
      node.addEventListener(key.slice(2), value);
    } else {
      node[key] = value;
    }
  }
  appendChildren(node, children);
  return node;
}

/** Appends strings (as text nodes), nodes and arrays of them; skips null/undefined/false. */
export function appendChildren(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) {
      appendChildren(node, child);
    } else if (child instanceof Node) {
      node.appendChild(child);
    } else {
      node.appendChild(document.createTextNode(String(child)));
    }
  }
}

/** Removes every child of `node` and appends `children` instead. */
export function replaceChildren(node, ...children) {
  while (node.firstChild) node.removeChild(node.firstChild);
  appendChildren(node, children);
}

const kSvgNamespace = 'http://www.w3.org/2000/svg';

/** An SVG element with attributes set by setAttribute; text children become text nodes. */
export function svg(tag, attributes, ...children) {
  const node = document.createElementNS(kSvgNamespace, tag);
  for (const [key, value] of Object.entries(attributes || {})) {
    if (value !== undefined && value !== null) node.setAttribute(key, String(value));
  }
  appendChildren(node, children);
  return node;
}
