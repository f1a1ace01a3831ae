// The trick records under the grid: who won with which card, and which cell it took or flipped.
import { h as el } from "../../js/dom.js";
import { t } from "../../js/i18n.js";
import { cardSuit, cardText } from "../../js/table/cards.js";
import { inlineCard, tokenBadge } from "./art.js";
import { suitName } from "./deck.js";
import { colourName } from "./state.js";

/** This trick's records, or the last trick's while the new one has none. */
export function latestRecords(view) {
  if ((view.current || []).length) return view.current;
  return view.previous || [];
}

/** The list of records of `T`'s table; `draw()` brings it up to date. */
export function trickRecords(T) {
  const records = el("ul", { class: "tf-records", "aria-label": t("trick-tac-foe.last_trick") });
  const cardSpan = (card) => inlineCard(card, suitName(cardSuit(card)));

  function recordLine(r) {
    const [a, b] = r.seats;
    const [ca, cb] = r.cards;
    const loser = r.winner === a ? b : a;
    const loserCard = r.winner === a ? cb : ca;
    const colour = T.colourOf(r.winner);
    const bits = [
      tokenBadge(colour, 16),
      el("strong", {}, T.nameOf(r.winner)), " ", cardSpan(r.card), " ", el("span", { class: "muted" }, t("trick-tac-foe.vs")), " ", T.nameOf(loser), " ", cardSpan(loserCard), " → ",
    ];
    if (r.cell === null || r.cell === undefined) {
      bits.push(el("em", {}, t("trick-tac-foe.rec_pending", { winner: T.nameOf(r.winner), card: cardText(r.card) })));
    } else {
      const key = r.effect === "flip" ? "trick-tac-foe.rec_flip" : r.effect === "none" ? "trick-tac-foe.rec_none" : "trick-tac-foe.rec_place";
      const mine = T.boardIndexOf(r.cell) + 1;
      bits.push(el("span", {}, t(key, { label: T.seatWord(r.winner), n: r.number, colour: colourName(colour) })));
      if (r.winner !== T.mySeat && !T.spectator) bits.push(el("span", { class: "muted" }, ` (${t("trick-tac-foe.your_cell", { n: mine })})`));
      if (r.scored) bits.push(" ", el("strong", { class: "tf-scored" }, t("trick-tac-foe.rec_scored", { colour: colourName(colour) })));
    }
    return el("li", { class: ["tf-record", `tf-team-${colour}`] }, bits);
  }

  function draw() {
    const view = T.view;
    const recs = T.anim ? [] : latestRecords(view);
    const title = (view.current || []).length ? null : recs.length ? t("trick-tac-foe.last_trick") : null;
    const sig = JSON.stringify([recs, title, T.nameOf(0), T.nameOf(1)]);
    if (records.dataset.sig === sig) return;
    records.dataset.sig = sig;
    records.replaceChildren(...(title ? [el("li", { class: "tf-records-title" }, title)] : []), ...recs.map(recordLine));
  }

  return { records, draw };
}
