// The board: one SVG grid of focusable cells (one Tab stop), rebuilt when the size changes; each cell's
// marker, special star, last-move ring, the preview of what a click would do, and its label in words.

import { prefersReducedMotion, s as svg } from "../../js/dom.js";
import { t } from "../../js/i18n.js";
import { RovingGrid } from "../../js/table/roving-grid.js";
import { starPath } from "../../js/table/shapes.js";
import { markerShape } from "./markers.js";
import { cellKey } from "./model.js";

export const CELL = 100;
const GAP = 6;
const PAD = 10;

export function geometry(n) {
  const total = PAD * 2 + n * CELL;
  return { total, x: (c) => PAD + c * CELL, y: (r) => PAD + r * CELL, cx: (c) => PAD + c * CELL + CELL / 2, cy: (r) => PAD + r * CELL + CELL / 2 };
}

/** `node` is the board's <svg>; `frame` and `layer` its frame and the group the cells go in. */
export function createBoard(m, node, frame, layer) {
  let cells = []; // cells[r][c] = {g, bg, content, ghost}
  const roving = new RovingGrid({ cell: (r, c) => cells[r]?.[c]?.g, size: () => m.size, jumps: true });

  /** A new grid of n × n empty cells (only when the size changes). */
  function build(n) {
    m.size = n;
    const g = geometry(n);
    node.setAttribute("viewBox", `0 0 ${g.total} ${g.total}`);
    node.style.setProperty("--n", String(n));
    node.dataset.size = String(n);
    frame.setAttribute("width", g.total);
    frame.setAttribute("height", g.total);
    frame.setAttribute("rx", 18);
    layer.replaceChildren();
    cells = [];
    for (let r = 0; r < n; r += 1) {
      const row = svg("g", { role: "row" });
      const rowCells = [];
      for (let c = 0; c < n; c += 1) {
        const cell = svg("g", { class: "tt-cell", role: "gridcell", tabindex: "-1", "data-r": r, "data-c": c });
        const bg = svg("rect", { class: "tt-cell-bg", x: g.x(c) + GAP / 2, y: g.y(r) + GAP / 2, width: CELL - GAP, height: CELL - GAP, rx: 12 });
        const content = svg("g", { class: "tt-content" });
        const ghost = svg("g", { class: "tt-ghost" });
        cell.append(bg, content, ghost);
        row.append(cell);
        rowCells.push({ g: cell, bg, content, ghost, sig: "" });
      }
      layer.append(row);
      cells.push(rowCells);
    }
    roving.at = [Math.min(roving.at[0], n - 1), Math.min(roving.at[1], n - 1)];
  }

  /** What the cell (r, c) holds: its star, its marker (popping in when just played), the last-move ring. */
  function content(g, r, c, v, { isSpecial, isLast, pop }) {
    const parts = [];
    if (isSpecial) {
      parts.push(
        v === null
          ? svg("path", { class: "tt-star tt-star-big", d: starPath(g.cx(c), g.cy(r), CELL * 0.3) })
          : svg("path", { class: "tt-star tt-star-small", d: starPath(g.x(c) + CELL - 19, g.y(r) + 19, 11) }),
      );
    }
    if (v !== null && v !== undefined) {
      const shape = markerShape(m.markerOf(v), g.cx(c), g.cy(r), CELL * 0.3, `tt-seat-${v}${pop && !prefersReducedMotion() ? " tt-pop" : ""}`);
      shape.style.transformOrigin = `${g.cx(c)}px ${g.cy(r)}px`;
      parts.push(shape);
    }
    if (isLast) parts.push(svg("rect", { class: "tt-last", x: g.x(c) + GAP / 2 + 3, y: g.y(r) + GAP / 2 + 3, width: CELL - GAP - 6, height: CELL - GAP - 6, rx: 10 }));
    return parts;
  }

  function cellLabel(r, c, v, { isSpecial, isScored, isLast }) {
    const bits = [t("tri-tac.cell", { r: r + 1, c: c + 1 })];
    bits.push(v === null || v === undefined ? t("tri-tac.empty") : m.markerOf(v));
    if (isSpecial) bits.push(t("tri-tac.special"));
    if (isScored) bits.push(t("tri-tac.scored"));
    if (isLast) bits.push(t("tri-tac.last"));
    return bits.join(", ");
  }

  function draw(animateCells) {
    const { view, size } = m;
    const g = geometry(size);
    const special = new Set((view.special || []).map(([r, c]) => cellKey(r, c)));
    const scored = new Set();
    for (const line of view.lines || []) if (!line.broken) for (const [r, c] of line.cells) scored.add(cellKey(r, c));
    const last = view.last_move && view.last_move.cell ? cellKey(view.last_move.cell[0], view.last_move.cell[1]) : null;
    const myTurn = m.isMyTurn();
    for (let r = 0; r < size; r += 1) {
      for (let c = 0; c < size; c += 1) {
        const cellObj = cells[r][c];
        const v = view.board[r][c];
        const key = cellKey(r, c);
        const isSpecial = special.has(key);
        const isLast = key === last;
        const action = m.actionAt(r, c);
        const sig = `${v}|${isSpecial}|${isLast}`;
        if (sig !== cellObj.sig) {
          cellObj.sig = sig;
          cellObj.content.replaceChildren(...content(g, r, c, v, { isSpecial, isLast, pop: animateCells.has(key) }));
        }
        // hover / focus preview of what a click would do
        const ghostSig = action ? `${action.type}` : "";
        if (cellObj.ghostSig !== ghostSig) {
          cellObj.ghostSig = ghostSig;
          cellObj.ghost.replaceChildren(
            ...(action ? [markerShape(m.markerOf(m.mySeat), g.cx(c), g.cy(r), CELL * 0.3, `tt-seat-${m.mySeat}`)] : []),
          );
        }
        cellObj.g.classList.toggle("is-playable", Boolean(action));
        cellObj.g.classList.toggle("is-target", Boolean(action && action.type === "power"));
        cellObj.g.classList.toggle("is-armed", Boolean(m.armed && m.armed[0] === r && m.armed[1] === c));
        cellObj.g.classList.toggle("is-last", isLast);
        cellObj.g.setAttribute("aria-disabled", action ? "false" : "true");
        cellObj.g.setAttribute("aria-label", cellLabel(r, c, v, { isSpecial, isScored: scored.has(key), isLast }));
        cellObj.g.setAttribute("tabindex", roving.tabindex(r, c));
      }
    }
    node.classList.toggle("is-my-turn", myTurn);
    node.classList.toggle("is-power", m.powerMode);
    node.classList.toggle("is-busy", m.busy());
    node.setAttribute("aria-busy", m.busy() ? "true" : "false");
  }

  return { roving, build, draw, cellCount: () => cells.length };
}
