// The TV view (a seat-less viewer: the host's laptop or the room's TV): big type, the theme and its 12
// words while the grids are written; the reveal and the scores are the same as everyone's.

import { h as el } from "../../js/dom.js";
import { countdownBlock, leaderStatus, themeTitle, writersStrip } from "./panels.js";
import { wordSpan } from "./bits.js";
import { baseSig } from "./seats.js";

/** The page gets the TV view's layout (tic-tac-top.css) while a seat-less view is mounted. */
export function markTvPage(on) {
  document.body.classList.toggle("ttt-tv-page", on);
}

export function renderSpectatorWrite(g) {
  return [
    themeTitle(g, true),
    countdownBlock(g),
    leaderStatus(g),
    g.keyed.part("wordboard", `${baseSig(g)}|${g.view.theme.words.join("|")}`, () =>
      el("ul", { class: "ttt-wordboard", "aria-label": g.t("tic-tac-top.words") },
        g.view.theme.words.map((w, i) => el("li", { class: "ttt-card-word", style: { "--i": i } }, wordSpan(w))))),
    writersStrip(g),
  ];
}
