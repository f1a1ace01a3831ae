// A player's writing phase: the 12 words as chips above their grid, Erase and Lock; once locked, the grid
// and the wait for the Leader's words.

import { h as el } from "../../js/dom.js";
import { CELLS, lockIcon, miniGridIcon, rc } from "./bits.js";
import { displayGrid, editableGrid, erase, lockGrid, tapWord, writing } from "./grid.js";
import { countdownBlock, leaderStatus, themeTitle, writersStrip } from "./panels.js";
import { baseSig } from "./seats.js";

function wordChips(g, grid) {
  const { sel, t } = g;
  return el("div", { class: "ttt-chips", role: "group", "aria-label": t("tic-tac-top.words") },
    g.view.theme.words.map((w) => {
      const at = grid.indexOf(w);
      const selected = sel?.kind === "word" && sel.word === w;
      const where = at >= 0 ? t("tic-tac-top.in_cell", rc(at)) : null;
      return el("button", {
        type: "button",
        class: ["ttt-chip", at >= 0 && "is-used", selected && "is-selected"],
        "aria-pressed": selected ? "true" : "false",
        "aria-label": where ? `${w}, ${where}` : w,
        "data-key": `chip-${w}`,
        onclick: () => tapWord(g, w),
      }, at >= 0 ? el("span", { class: "ttt-chip-badge is-mini", "aria-hidden": "true" }, miniGridIcon(at)) : null, el("span", { class: "ttt-chip-text" }, w));
    }));
}

function writerPanel(g, grid, blanks) {
  const { sel, t, confirmLock } = g;
  let hint = t("tic-tac-top.grid_hint");
  if (sel?.kind === "word") hint = t("tic-tac-top.grid_hint_word", { word: sel.word });
  if (sel?.kind === "cell") hint = t("tic-tac-top.grid_hint_cell", rc(sel.cell));
  return el("section", { class: "ttt-panel ttt-own ttt-writer-panel" },
    el("h3", { class: "ttt-panel-title" }, t("tic-tac-top.grid_title"), el("span", { class: "ttt-count" }, t("tic-tac-top.filled", { n: CELLS - blanks }))),
    el("p", { class: ["ttt-hint", sel && "is-active"] }, hint),
    wordChips(g, grid),
    editableGrid(g, grid, true),
    el("div", { class: "ttt-actions" },
      el("button", { type: "button", class: "btn btn-secondary", "data-key": "erase", disabled: !(sel?.kind === "cell" && grid[sel.cell] !== null), onclick: () => erase(g) }, t("tic-tac-top.erase")),
      el("button", { type: "button", class: ["btn", "ttt-lock", confirmLock ? "btn-primary ttt-confirm" : blanks ? "btn-secondary" : "btn-primary"], "data-key": "lock", onclick: () => lockGrid(g) },
        lockIcon(), confirmLock ? t("tic-tac-top.lock_confirm", { n: blanks }) : t("tic-tac-top.lock"))));
}

export function renderPlayerWrite(g) {
  const { view, keyed, t } = g;
  const grid = displayGrid(g);
  const open = writing(g);
  if (g.sel?.kind === "word" && !view.theme.words.includes(g.sel.word)) g.sel = null;
  const blanks = grid.filter((w) => w === null).length;
  const sig = `${baseSig(g)}|${JSON.stringify([grid, g.sel, g.confirmLock, open, g.pendingOps.map((o) => o.cell), view.theme.words, g.gridFocus])}`;
  if (!open) {
    return [
      themeTitle(g),
      countdownBlock(g),
      keyed.part("own-locked", sig, () =>
        el("section", { class: "ttt-panel ttt-own" },
          el("h3", { class: "ttt-panel-title" }, lockIcon(), t("tic-tac-top.locked_title")),
          el("p", { class: "muted" }, t("tic-tac-top.locked_hint")),
          editableGrid(g, grid, false))),
      leaderStatus(g),
      writersStrip(g),
    ];
  }
  return [themeTitle(g), countdownBlock(g), leaderStatus(g), keyed.part("own", sig, () => writerPanel(g, grid, blanks)), writersStrip(g)];
}
