// Scored lines as strokes through their cells (new ones drawn in, broken ones faded), and the "+3" that
// floats over a scoring move.

import { prefersReducedMotion, s as svg } from "../../js/dom.js";
import { CELL, geometry } from "./board.js";

const lineKey = (line) => `${line.seat}:${line.cells.map((x) => x.join(".")).join("|")}`;

/** `layer` holds the strokes, `fxLayer` the floating points. */
export function createLines(m, layer, fxLayer) {
  let known = null; // Set of line keys already drawn (null until the first update)

  /** Draw every line; with `still` (first paint, a board that grew: every line moved) none is animated. */
  function draw(still) {
    const g = geometry(m.size);
    const lines = m.view.lines || [];
    if (known === null || still) known = new Set(lines.map(lineKey));
    const fresh = new Set();
    for (const line of lines) if (!known.has(lineKey(line))) fresh.add(lineKey(line));
    known = new Set(lines.map(lineKey));
    const animate = !prefersReducedMotion();
    layer.replaceChildren(
      ...lines.map((line) => {
        const pts = [...line.cells].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
        const [r0, c0] = pts[0];
        const [r1, c1] = pts[pts.length - 1];
        // stretch a little beyond the end cells' centres so the stroke reads as "through"
        const dx = g.cx(c1) - g.cx(c0);
        const dy = g.cy(r1) - g.cy(r0);
        const len = Math.hypot(dx, dy) || 1;
        const ext = CELL * 0.28;
        const x0 = g.cx(c0) - (dx / len) * ext;
        const y0 = g.cy(r0) - (dy / len) * ext;
        const x1 = g.cx(c1) + (dx / len) * ext;
        const y1 = g.cy(r1) + (dy / len) * ext;
        const isNew = fresh.has(lineKey(line));
        return svg("line", {
          class: `tt-line tt-seat-${line.seat}${line.broken ? " is-broken" : ""}${line.points > 1 ? " is-double" : ""}${isNew && animate ? " is-new" : ""}`,
          x1: x0.toFixed(1),
          y1: y0.toFixed(1),
          x2: x1.toFixed(1),
          y2: y1.toFixed(1),
          pathLength: "1",
        });
      }),
    );
  }

  /** "+3" floating over the cell of a scoring move. */
  function floatPoints(events) {
    if (prefersReducedMotion()) return;
    const g = geometry(m.size);
    for (const ev of events) {
      if (ev.kind !== "lines" || !ev.points) continue;
      const cell = m.view.last_move?.cell;
      if (!cell) continue;
      const text = svg("text", { class: `tt-float tt-seat-${ev.seat}`, x: g.cx(cell[1]), y: g.cy(cell[0]) - CELL * 0.2, "text-anchor": "middle" });
      text.textContent = `+${ev.points}`;
      fxLayer.append(text);
      setTimeout(() => text.remove(), 1400);
    }
  }

  return {
    draw,
    floatPoints,
    /** The board grew: every coordinate moved, so no line is new. */
    forget() {
      known = null;
    },
  };
}
