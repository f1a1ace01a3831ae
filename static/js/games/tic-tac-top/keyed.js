// Keyed sections: a section whose signature did not change keeps its DOM node, so its animations do not
// replay, a tap in progress is not lost and focus stays put.

import { h as el } from "../../dom.js";

/** Make `parent`'s children exactly `nodes` (nested arrays and nulls allowed), moving only what moved. */
export function reconcile(parent, nodes) {
  const list = nodes.flat(Infinity).filter(Boolean);
  list.forEach((node, i) => {
    const current = parent.children[i];
    if (current !== node) parent.insertBefore(node, current || null);
  });
  while (parent.children.length > list.length) parent.lastElementChild.remove();
}

export class Keyed {
  constructor() {
    this.cache = new Map(); // key -> {sig, node}
    this.used = new Set();
  }

  /** Start a render: sections not asked for again before `sweep()` are forgotten. */
  begin() {
    this.used = new Set();
  }

  sweep() {
    for (const key of [...this.cache.keys()]) if (!this.used.has(key)) this.cache.delete(key);
  }

  /** The node built for `key`, built again only when `sig` changed. */
  part(key, sig, build) {
    this.used.add(key);
    const hit = this.cache.get(key);
    if (hit && hit.sig === sig) return hit.node;
    const node = build();
    this.cache.set(key, { sig, node });
    return node;
  }

  /** A kept wrapper element whose children are reconciled on every render. */
  box(key, tag, attrs, children) {
    const sig = `box|${tag}|${JSON.stringify(attrs)}`;
    const node = this.part(key, sig, () => el(tag, attrs));
    reconcile(node, children);
    return node;
  }
}
