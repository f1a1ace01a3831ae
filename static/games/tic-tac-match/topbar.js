// The bar above the table: whose turn and what to do, the match and score, Double Play's pips, both ID cards.

import { h as el, prefersReducedMotion } from "../../js/dom.js";
import { t, teamName } from "../../js/i18n.js";
import { idCard } from "./cards.js";
import { cardName } from "./names.js";

export function createTopbar(m) {
  const status = el("p", { class: "ttm-status", id: `${m.uid}-status`, "aria-live": "polite" });
  const idsBox = el("div", { class: "ttm-ids" });
  const seriesBox = el("div", { class: "ttm-series" });
  const node = el("div", { class: "ttm-topbar" }, el("div", { class: "ttm-topbar-main" }, status, seriesBox), idsBox);

  function statusText() {
    const { view } = m;
    const dbl = view.double;
    let text;
    if (view.over || m.lastMsg?.outcome) text = t("tic-tac-match.over");
    else if (m.isMyTurn()) {
      const sel = m.selectedCard();
      if (dbl && dbl.fallback) text = t("tic-tac-match.double_fallback");
      else if (dbl) text = t("tic-tac-match.double_you", { n: dbl.plays_left, plays: t(dbl.plays_left === 1 ? "tic-tac-match.play_one" : "tic-tac-match.play_many") });
      else if (sel?.kind === "symbol") {
        const n = m.legalCellsOf(sel).length;
        text = n ? t("tic-tac-match.pick_cell", { card: cardName(sel), n }) : t("tic-tac-match.pick_cell_none", { card: cardName(sel) });
      } else text = `${t("tic-tac-match.your_turn")} — ${t("tic-tac-match.your_turn_hint")}`;
    } else if (view.turn !== null && view.turn !== undefined) {
      text = dbl ? t("tic-tac-match.double_other", { name: m.nameOf(view.turn), n: dbl.plays_left }) : t("tic-tac-match.waiting_for", { name: m.nameOf(view.turn) });
    } else text = "";
    if (m.mySeat === null && !view.over) text = `${t("tic-tac-match.spectating")} · ${text}`;
    return text;
  }

  function drawSeries() {
    const { view } = m;
    const dbl = view.double;
    const parts = [el("span", { class: "ttm-match-no" }, t("tic-tac-match.match_of", { n: view.match }))];
    if (view.series > 1) parts.push(el("span", { class: "muted" }, ` · ${t("tic-tac-match.first_to", { n: view.series })}`));
    const score = el("span", { class: "ttm-score" },
      el("span", { class: "ttm-score-side", "aria-hidden": "true" }, view.players === 4 ? "A" : m.nameOf(0)),
      el("b", { "aria-hidden": "true" }, `${view.sides[0].wins} – ${view.sides[1].wins}`),
      el("span", { class: "ttm-score-side", "aria-hidden": "true" }, view.players === 4 ? "B" : m.nameOf(1)),
      el("span", { class: "visually-hidden" }, `${m.sideName(0)} ${view.sides[0].wins}, ${m.sideName(1)} ${view.sides[1].wins}`));
    const pill = dbl && !view.over
      ? el("span", { class: "ttm-double-pill", role: "img", "aria-label": t("tic-tac-match.double_pill", { n: dbl.plays_left }) },
        el("span", { "aria-hidden": "true" }, "×2"),
        ...[0, 1].map((i) => el("span", { class: `ttm-pip${i < dbl.plays_left ? " is-on" : ""}`, "aria-hidden": "true" })))
      : null;
    seriesBox.replaceChildren(...parts, score, ...(pill ? [pill] : []));
  }

  /** ID cards: mine (or side A's for spectators) and the other side's. */
  function drawIds() {
    const { view } = m;
    const mine = view.your_side ?? 0;
    const anim = m.flipping && !prefersReducedMotion() ? "is-flipping" : "";
    const idBlock = (side, labelText) => {
      const sym = view.sides[side].symbol;
      return el("div", { class: `ttm-id-block ttm-side-${side}`, "aria-label": `${labelText}: ${m.sideName(side)} ${sym}`, role: "group" },
        idCard(sym, anim),
        el("span", { class: "ttm-id-text" }, el("span", { class: "ttm-id-label" }, labelText),
          el("span", { class: "ttm-id-name", title: m.sideName(side) }, view.players === 4 ? teamName(side, "tic-tac-match") : m.sideName(side))));
    };
    idsBox.replaceChildren(
      idBlock(mine, m.mySeat === null ? "ID" : t("tic-tac-match.your_id")),
      el("span", { class: "ttm-vs", "aria-hidden": "true" }, "vs"),
      idBlock(1 - mine, m.mySeat === null ? "ID" : t("tic-tac-match.their_id")),
    );
  }

  return {
    node,
    draw() {
      status.textContent = statusText();
      status.classList.toggle("is-you", m.isMyTurn());
      status.classList.toggle("is-double", Boolean(m.view.double));
      drawSeries();
      drawIds();
    },
  };
}
