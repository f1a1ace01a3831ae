// The player's own 3×3 grid while writing: the server's copy with our not-yet-confirmed edits on top,
// filled by tapping a word then a cell (or a cell then a word); a filled cell tapped then another moves or
// swaps. Arrow keys move between cells, Delete clears one, Escape drops the selection.

import { h as el } from "../../js/dom.js";
import { CELLS, rc, wordSpan } from "./bits.js";
import { canAct, isLeader } from "./seats.js";
import { send } from "./state.js";

export function displayGrid(g) {
  const grid = Array.isArray(g.view?.grid) ? g.view.grid.slice() : Array(CELLS).fill(null);
  for (const op of g.pendingOps) {
    if (op.type === "clear") grid[op.cell] = null;
    else {
      const at = grid.indexOf(op.word);
      if (at >= 0 && at !== op.cell) grid[at] = null;
      grid[op.cell] = op.word;
    }
  }
  return grid;
}

function gridOp(g, type, cell, word) {
  const op = { id: (g.opSeq += 1), type, cell, word };
  g.pendingOps.push(op);
  send(g, type === "clear" ? { type: "clear", cell } : { type: "place", cell, word })
    .catch(() => {})
    .finally(() => {
      g.pendingOps = g.pendingOps.filter((o) => o.id !== op.id);
      g.render();
    });
}

/** Put `word` into `cell`: moves it if it is elsewhere; swaps when the target cell was filled. */
function assign(g, word, cell) {
  const grid = displayGrid(g);
  if (grid[cell] === word) return;
  const from = grid.indexOf(word);
  const displaced = grid[cell];
  if (from >= 0) {
    gridOp(g, "clear", from);
    gridOp(g, "place", cell, word);
    if (displaced) gridOp(g, "place", from, displaced);
  } else {
    gridOp(g, "place", cell, word);
  }
}

function nextEmpty(g, after) {
  const grid = displayGrid(g);
  for (let i = 1; i <= CELLS; i += 1) {
    const c = (after + i) % CELLS;
    if (grid[c] === null) return c;
  }
  return null;
}

export const writing = (g) => g.view?.phase === "write" && !isLeader(g) && g.mySeat !== null && Array.isArray(g.view.grid) && canAct(g);

export function tapWord(g, word) {
  if (!writing(g)) return;
  g.confirmLock = false;
  const { sel } = g;
  if (sel?.kind === "cell") {
    const cell = sel.cell;
    assign(g, word, cell);
    const next = nextEmpty(g, cell);
    g.sel = next === null ? null : { kind: "cell", cell: next };
    if (next !== null) g.gridFocus = next;
  } else if (sel?.kind === "word" && sel.word === word) {
    g.sel = null;
  } else {
    g.sel = { kind: "word", word };
  }
  g.render();
}

function tapCell(g, cell) {
  if (!writing(g)) return;
  g.confirmLock = false;
  g.gridFocus = cell;
  const grid = displayGrid(g);
  const { sel } = g;
  if (sel?.kind === "word") {
    assign(g, sel.word, cell);
    g.sel = null;
  } else if (sel?.kind === "cell") {
    if (sel.cell === cell) g.sel = null;
    else if (grid[sel.cell] !== null) {
      assign(g, grid[sel.cell], cell);
      g.sel = null;
    } else g.sel = { kind: "cell", cell };
  } else {
    g.sel = { kind: "cell", cell };
  }
  g.render();
}

export function erase(g) {
  if (!writing(g) || g.sel?.kind !== "cell") return;
  if (displayGrid(g)[g.sel.cell] !== null) gridOp(g, "clear", g.sel.cell);
  g.render();
}

/** Lock the grid; with empty cells left, the first tap only asks for a second one. */
export function lockGrid(g) {
  if (!writing(g)) return;
  const blanks = displayGrid(g).filter((w) => w === null).length;
  if (blanks > 0 && !g.confirmLock) {
    g.confirmLock = true;
    g.render();
    return;
  }
  g.confirmLock = false;
  g.sel = null;
  send(g, { type: "done" }).catch(() => {}).finally(g.render);
  g.render();
}

export function editableGrid(g, grid, open) {
  const { sel, t } = g;
  const cells = grid.map((w, cell) => {
    const { r, c } = rc(cell);
    const selected = sel?.kind === "cell" && sel.cell === cell;
    const target = open && (sel?.kind === "word" || (sel?.kind === "cell" && grid[sel.cell] !== null && sel.cell !== cell));
    const pending = g.pendingOps.some((o) => o.cell === cell);
    return el("button", {
      type: "button",
      class: ["ttt-cell", w === null && "is-empty", selected && "is-selected", target && "is-target", pending && "is-pending"],
      tabindex: cell === g.gridFocus ? "0" : "-1",
      "data-cell": cell,
      "data-key": `cell-${cell}`,
      disabled: !open,
      "aria-pressed": selected ? "true" : "false",
      "aria-label": `${t("tic-tac-top.cell", { r, c })}: ${w ?? t("tic-tac-top.empty")}`,
      onclick: () => tapCell(g, cell),
    }, wordSpan(w));
  });
  const node = el("div", { class: ["ttt-grid", "is-editable", !open && "is-locked"], role: "group", "aria-label": t("tic-tac-top.grid_label") }, cells);
  node.addEventListener("keydown", (event) => {
    const cellEl = event.target.closest?.("[data-cell]");
    if (!cellEl) return;
    const cell = Number(cellEl.dataset.cell);
    const moves = { ArrowUp: -3, ArrowDown: 3, ArrowLeft: -1, ArrowRight: 1 };
    if (event.key in moves) {
      event.preventDefault();
      let next = cell + moves[event.key];
      if ((event.key === "ArrowLeft" && cell % 3 === 0) || (event.key === "ArrowRight" && cell % 3 === 2)) next = cell;
      if (next < 0 || next >= CELLS) next = cell;
      g.gridFocus = next;
      for (const b of node.querySelectorAll("[data-cell]")) b.setAttribute("tabindex", Number(b.dataset.cell) === next ? "0" : "-1");
      node.querySelector(`[data-cell="${next}"]`)?.focus();
    } else if ((event.key === "Delete" || event.key === "Backspace") && open && displayGrid(g)[cell] !== null) {
      event.preventDefault();
      gridOp(g, "clear", cell);
      g.render();
    } else if (event.key === "Escape" && g.sel) {
      g.sel = null;
      g.render();
    }
  });
  return node;
}
