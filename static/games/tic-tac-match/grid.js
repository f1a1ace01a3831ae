// The 3×3 grid: each cell's stack (top card, height), the ghost of the selected card on legal cells, the
// winning line and the last play; one Tab stop, moved with the arrow keys.

import { h as el, prefersReducedMotion } from "../../js/dom.js";
import { t } from "../../js/i18n.js";
import { RovingGrid } from "../../js/table/roving-grid.js";
import { cardEl } from "./cards.js";
import { cardName, cardShown, cellName } from "./names.js";

export function createGrid(m) {
  const node = el("div", { class: "ttm-grid", role: "grid", "aria-labelledby": `${m.uid}-label`, "aria-describedby": `${m.uid}-summary` });
  const cells = [];
  const roving = new RovingGrid({ cell: (r, c) => cells[r]?.[c]?.node, size: () => 3, start: [1, 1] });
  for (let r = 0; r < 3; r += 1) {
    const row = el("div", { class: "ttm-row", role: "row" });
    const rowCells = [];
    for (let c = 0; c < 3; c += 1) {
      const cell = el("div", { class: "ttm-cell", role: "gridcell", tabindex: roving.tabindex(r, c), "data-r": r, "data-c": c });
      row.append(cell);
      rowCells.push({ node: cell, sig: "" });
    }
    node.append(row);
    cells.push(rowCells);
  }

  /** The stack of a cell: its top card over up to three cards' edges, and its height when over one. */
  function stackParts(cell, dropping) {
    if (!cell.top) return [el("div", { class: "ttm-slot", "aria-hidden": "true" })];
    const under = Math.min(cell.height - 1, 3);
    const stack = el("div", { class: "ttm-stack", "aria-hidden": "true", style: `--under:${under}` });
    for (let i = under; i >= 1; i -= 1) stack.append(el("div", { class: "ttm-card ttm-under", style: `--i:${i}` }));
    stack.append(cardEl(cell.top, `ttm-top${dropping && !prefersReducedMotion() ? " is-dropping" : ""}`));
    const parts = [stack];
    if (cell.height > 1) parts.push(" ", el("span", { class: "ttm-height", "aria-hidden": "true", title: t("tic-tac-match.high", { n: cell.height }) }, `×${cell.height}`));
    return parts;
  }

  /** Begins with what the cell shows (the top card's corner, the stack's height), then says it in words. */
  function cellLabel(cell, r, c, { legal, win, last }) {
    const shown = cell.top ? `${cardShown(cell.top)}${cell.height > 1 ? ` ×${cell.height}` : ""}` : null;
    const bits = [...(shown ? [shown] : []), t("tic-tac-match.cell", { where: cellName(r, c) })];
    bits.push(cell.top ? cardName(cell.top) : t("tic-tac-match.cell_empty"));
    if (cell.height > 1) bits.push(t("tic-tac-match.high", { n: cell.height }));
    if (legal) bits.push(t("tic-tac-match.legal"));
    if (win) bits.push(t("tic-tac-match.winning"));
    if (last) bits.push(t("tic-tac-match.last"));
    return bits.join(", ");
  }

  function draw(dropCells) {
    const { view } = m;
    const win = m.winningCells();
    const sel = m.selectedCard();
    const canPick = sel && sel.kind === "symbol" && m.isMyTurn() && !m.busy();
    for (let r = 0; r < 3; r += 1) {
      for (let c = 0; c < 3; c += 1) {
        const obj = cells[r][c];
        const cell = view.grid[r][c];
        const key = `${r},${c}`;
        const legal = canPick && m.legalAt(r, c);
        const sig = `${cell.top ? cell.top.id : "-"}|${cell.height}`;
        if (sig !== obj.sig || dropCells.has(key)) {
          obj.sig = sig;
          obj.node.replaceChildren(...stackParts(cell, dropCells.has(key)), el("div", { class: "ttm-ghost", "aria-hidden": "true" }));
        }
        const ghost = obj.node.querySelector(".ttm-ghost");
        const ghostSig = legal ? String(sel.id) : "";
        if (ghost.dataset.sig !== ghostSig) {
          ghost.dataset.sig = ghostSig;
          ghost.replaceChildren(...(legal ? [cardEl(sel, "ttm-ghost-card", true)] : []));
        }
        obj.node.classList.toggle("is-legal", Boolean(legal));
        obj.node.classList.toggle("is-win", win.has(key));
        obj.node.classList.toggle("is-last", key === m.lastCell && !win.size);
        obj.node.classList.toggle("is-picking", Boolean(canPick));
        obj.node.setAttribute("aria-disabled", legal ? "false" : "true");
        obj.node.setAttribute("aria-label", cellLabel(cell, r, c, { legal, win: win.has(key), last: key === m.lastCell }));
        obj.node.setAttribute("tabindex", roving.tabindex(r, c));
      }
    }
    node.classList.toggle("is-picking", Boolean(canPick));
    node.classList.toggle("is-over", Boolean(view.over));
    node.setAttribute("aria-busy", m.busy() ? "true" : "false");
  }

  return { node, roving, draw };
}
