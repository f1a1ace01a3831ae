// Keyed sections (the lobby's rows, Tic Tac Top's phases): a section whose signature did not change keeps
// its DOM node, so its animations do not replay, a tap in progress is not lost and focus stays put.

import { h as el } from "./dom.js";

/** Make `parent`'s children exactly `nodes` (nested arrays and nulls allowed), moving only what moved.
 * Nodes that go are removed first, so a node rebuilt in place does not shift the kept ones after it: a
 * kept node taken out and put back, even at its old place, would lose a press in progress. */
export function reconcile(parent, nodes) {
  const list = nodes.flat(Infinity).filter(Boolean);
  const keep = new Set(list);
  for (const child of [...parent.children]) if (!keep.has(child)) child.remove();
  list.forEach((node, i) => {
    const current = parent.children[i];
    if (current !== node) parent.insertBefore(node, current || null);
  });
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
