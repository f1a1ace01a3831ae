// The matches of a series: each one's final grid with its winning line (a list, and an overlay for a few
// seconds after it is won), and the banner of the side that won the game.

import { h as el } from "../../js/dom.js";
import { t } from "../../js/i18n.js";
import { cardEl, idCard } from "./cards.js";
import { colourName } from "./names.js";

export function matchText(m, match) {
  return t("tic-tac-match.won_by", { side: m.sideName(match.side), n: match.match, colour: colourName(match.colour), sym: match.symbol });
}

function miniGrid(match, cls = "ttm-mini-grid") {
  const line = new Set((match.lines || [match.line]).flat().map(([r, c]) => r * 3 + c));
  return el("div", { class: cls, "aria-hidden": "true" },
    ...(match.grid || []).map((card, i) => el("span", { class: `ttm-mini-cell${line.has(i) ? " is-win" : ""}` }, card ? cardEl(card, "ttm-mini-card") : "")));
}

/** `tableArea` holds the overlay; `news` is the line the winner's banner follows. */
export function createMatches(m, tableArea, news) {
  const node = el("section", { class: "ttm-matches", hidden: true });
  let overlayTimer = 0;

  /** After a match of a series: its final grid with the winning line, over the new deal, for a few seconds. */
  function showOverlay(match) {
    clearTimeout(overlayTimer);
    tableArea.querySelector(".ttm-overlay")?.remove();
    const close = () => {
      clearTimeout(overlayTimer);
      overlay.remove();
    };
    const overlay = el("div", { class: `ttm-overlay ttm-side-${match.side}`, role: "status" },
      el("div", { class: "ttm-overlay-card" },
        el("p", { class: "ttm-overlay-title" }, t("tic-tac-match.match_of", { n: match.match })),
        miniGrid(match, "ttm-mini-grid ttm-mini-big"),
        el("p", {}, matchText(m, match)),
        el("button", { type: "button", class: "btn btn-primary btn-sm", onclick: close }, t("tic-tac-match.next_match"))));
    tableArea.append(overlay);
    overlayTimer = setTimeout(close, 4500);
  }

  function drawList() {
    const { view } = m;
    const list = view.matches || [];
    if (!list.length || view.series <= 1) {
      node.hidden = true;
      node.replaceChildren();
      return;
    }
    node.hidden = false;
    const sig = JSON.stringify(list.map((x) => x.match)) + view.over;
    if (node.dataset.sig === sig) return;
    node.dataset.sig = sig;
    node.replaceChildren(
      el("h3", { class: "ttm-matches-title" }, t("tic-tac-match.matches")),
      el("ol", { class: "ttm-match-list" }, ...list.map((x) => el("li", { class: `ttm-match ttm-side-${x.side}` }, miniGrid(x), el("p", {}, matchText(m, x))))),
    );
  }

  function drawWinner(container) {
    const { view } = m;
    const existing = container.querySelector(".ttm-winner");
    if (!view.over || !(view.matches || []).length) {
      existing?.remove();
      return;
    }
    const last = view.matches[view.matches.length - 1];
    const side = last.side;
    const text = t(view.players === 4 ? "tic-tac-match.winner_banner_team" : "tic-tac-match.winner_banner", {
      side: m.sideName(side),
      colour: colourName(last.colour),
      sym: last.symbol,
    });
    const banner = el("div", { class: `ttm-winner ttm-side-${side}`, role: "status" }, idCard(last.symbol, "ttm-id-mini"), el("span", {}, text));
    if (existing) existing.replaceWith(banner);
    else news.after(banner);
  }

  return {
    node,
    showOverlay,
    draw(container) {
      drawList();
      drawWinner(container);
    },
    destroy() {
      clearTimeout(overlayTimer);
    },
  };
}
