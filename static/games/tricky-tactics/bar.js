// The status bar (whose move, round and trick), the "round scored" banner and the screen-reader summary.
import { h as el } from "../../js/dom.js";
import { t } from "../../js/i18n.js";
import { cardSuit, cardText, SYMBOL } from "../../js/table/cards.js";
import { put, reducedMotion, suitName } from "./state.js";

/** The status line: whose move it is and what it is. */
export function statusText(T) {
  const view = T.view;
  if (!view) return "";
  if (view.phase === "over" || T.lastMsg?.outcome) return t("tricky-tactics.status_over");
  const led = view.led_suit;
  if (T.isMyTurnToPlay()) {
    if (!led) return t("tricky-tactics.status_play_lead");
    const canFollow = (view.hand || []).some((c) => cardSuit(c) === led);
    return canFollow ? t("tricky-tactics.status_play_follow", { suit: SYMBOL[led] }) : t("tricky-tactics.status_play_free", { suit: SYMBOL[led] });
  }
  if (T.myPendingAction()) return t("tricky-tactics.status_action", { suit: `${SYMBOL[view.pending_action.suit]} ${suitName(view.pending_action.suit)}` });
  if (view.phase === "action" && view.pending_action) return t("tricky-tactics.status_wait_action", { name: T.nameOf(view.pending_action.player) });
  if (view.turn !== null && view.turn !== undefined) return t("tricky-tactics.status_wait_play", { name: T.nameOf(view.turn) });
  return "";
}

/** Draw the bar of `T` into `bar`. */
export function drawBar(T, bar) {
  const view = T.view;
  const myMove = T.isMyTurnToPlay() || Boolean(T.myPendingAction());
  const chips = [
    el("span", { class: "tk-chip" }, t("tricky-tactics.round", { n: view.round, total: view.rounds })),
    view.phase !== "over" ? el("span", { class: "tk-chip" }, t("tricky-tactics.trick_n", { n: T.trickNumber(), total: view.tricks_per_round })) : null,
    view.set_aside ? el("span", { class: "tk-chip tk-chip-muted" }, t("tricky-tactics.set_aside", { n: view.set_aside })) : null,
  ];
  const status = el("p", { class: ["tk-status", myMove && "is-you"], role: "status" }, statusText(T));
  const parts = [status, el("div", { class: "tk-chips" }, chips)];
  if (T.spectator) parts.push(el("p", { class: "tk-spectating muted small" }, t("tricky-tactics.spectating")));
  put(bar, ...parts);
  bar.classList.toggle("is-you", myMove);
}

/** Just after a round is scored: a banner with its points and a button that opens the scoring. */
export function drawBanner(T, banner, scoringPanel) {
  const view = T.view;
  const s = view.last_scoring;
  const fresh = s && view.phase !== "over" && s.round === view.round - 1 && (view.tricks || []).length === 0;
  if (!fresh) {
    banner.hidden = true;
    banner.replaceChildren();
    return;
  }
  banner.hidden = false;
  put(banner,
    el("span", { class: "tk-banner-text" }, t("tricky-tactics.scored_banner", { round: s.round, points: T.pointsLine(s.points) })),
    el("button", {
      type: "button",
      class: "btn btn-secondary btn-sm tk-banner-btn",
      dataset: { focus: "banner-btn" },
      onclick: () => {
        scoringPanel.open = true;
        scoringPanel.scrollIntoView({ behavior: reducedMotion() ? "auto" : "smooth", block: "start" });
      },
    }, t("tricky-tactics.show_scoring")),
  );
}

/** The table in one paragraph, for screen readers: scores, whose turn, the trick, the cards you may know. */
export function summaryLine(T) {
  const view = T.view;
  const bits = [];
  bits.push(t("tricky-tactics.summary_scores", { scores: view.players.map((p) => `${T.nameOf(p.id)} ${p.score}`).join(", ") }));
  const st = statusText(T);
  if (st) bits.push(t("tricky-tactics.summary_turn", { status: st }));
  if ((view.trick || []).length) bits.push(t("tricky-tactics.summary_trick", { cards: view.trick.map((c) => `${T.nameOf(c.player)} ${cardText(c.card)}`).join(", ") }));
  if (view.automa?.row?.length) bits.push(t("tricky-tactics.summary_row", { cards: view.automa.row.map(cardText).join(" ") }));
  if (!T.spectator && (view.hand || []).length) bits.push(t("tricky-tactics.summary_hand", { cards: view.hand.map(cardText).join(" ") }));
  return bits.join(" ");
}
