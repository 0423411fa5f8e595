// The hover tooltip of the timeline: a floating box of "label: value" lines, all text nodes.

import {el, replaceChildren} from './dom.js';

export class Tooltip {
  constructor(parent) {
    this.node = el('div', {className: 'tooltip', role: 'tooltip'});
    this.node.hidden = true;
    parent.appendChild(this.node);
  }

  /** Shows `title` and [[label, value], ...] near (x, y) in the parent's coordinates. */
  show(title, lines, x, y) {
    replaceChildren(
        this.node, el('div', {className: 'tooltip-title'}, title),
        lines.map(
            ([label, value]) =>
                el('div', {className: 'tooltip-line'},
                   el('span', {className: 'tooltip-label'}, label + ': '), String(value))));
    this.node.hidden = false;
    const parent = this.node.parentElement;
    const maxX = parent.clientWidth - this.node.offsetWidth - 4;
    this.node.style.left = Math.max(0, Math.min(x + 14, maxX)) + 'px';
    this.node.style.top = y + 16 + 'px';
  }

  hide() {
    this.node.hidden = true;
  }
}
