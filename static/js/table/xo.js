// The X and the O as shapes (a cross of two strokes, a ring), so a mark reads without its colour.

import { s as svg } from "../dom.js";

/** An X or O centred on (cx, cy): the O a circle of radius `o`, the X's strokes reaching `x` out along each
 * axis from the centre. `cls` is the shape's class. */
export function xoShape(sym, cx, cy, { o, x }, cls) {
  if (sym === "O") return svg("circle", { class: cls, cx, cy, r: o });
  return svg("path", { class: cls, d: `M${cx - x} ${cy - x}L${cx + x} ${cy + x}M${cx + x} ${cy - x}L${cx - x} ${cy + x}` });
}
