// The automa's panel: its face-down deck, its Reveal Row (Left, Right) and its latest play and Action, each
// with the one-line reason it followed.
import { h as el } from "../../js/dom.js";
import { t } from "../../js/i18n.js";
import { cardText } from "../../js/table/cards.js";
import { put, reducedMotion } from "./state.js";

/** The automa's latest Action in words: this round's, else the one remembered from the feed. */
function latestAutomaAction(T) {
  const mine = [...(T.view.tricks || [])].reverse().find((tr) => tr.action && tr.action.player === "automa");
  if (mine) return { reason: T.actionText(mine.action) };
  return T.automaAction;
}

/** Draw the automa of `T` into `panel` (hidden in a game without one). */
export function drawAutoma(T, panel) {
  const a = T.view.automa;
  if (!a) {
    panel.hidden = true;
    return;
  }
  const { backEl, cardEl, cube } = T.art;
  panel.hidden = false;
  const p = T.playerOf("automa");
  const deckCount = a.unrevealed ?? 0;
  const stack = el("div", { class: "tk-deck" },
    el("div", { class: "tk-deck-stack", "aria-hidden": "true" }, ...Array.from({ length: Math.min(3, Math.max(deckCount, 0)) }, (_, i) => backEl(`tk-deck-${i}`)),
      deckCount === 0 ? el("div", { class: "tk-slot-empty tk-deck-empty" }) : null),
    el("span", { class: "tk-deck-count" }, t("tricky-tactics.automa_face_down", { n: deckCount })));
  const row = a.row || [];
  const slot = (card, label, hint) =>
    el("div", { class: "tk-row-slot" },
      card ? cardEl(card, T.flipCards.has(card) && !reducedMotion() ? "tk-flip" : "", `${label}: ${cardText(card)}`) : el("div", { class: "tk-slot-empty tk-row-hidden" }, el("span", { "aria-hidden": "true" }, "?"), el("span", { class: "visually-hidden" }, `${label}: ${hint}`)),
      el("span", { class: "tk-row-label" }, label));
  const hiddenHint = row.length ? t("tricky-tactics.automa_hidden_next") : t("tricky-tactics.automa_row_empty");
  const rowEl = el("div", { class: "tk-reveal", role: "group", "aria-label": t("tricky-tactics.automa_row") },
    el("span", { class: "tk-reveal-title" }, t("tricky-tactics.automa_row")),
    el("div", { class: "tk-reveal-slots" }, slot(row[0], t("tricky-tactics.left"), hiddenHint), slot(row[1], t("tricky-tactics.right"), hiddenHint)));

  const lines = [];
  if (a.last_card) {
    const chose = (a.last_row || []).map((c) => cardEl(c, ["tk-card-xs", c === a.last_card && "is-played"].filter(Boolean).join(" "), cardText(c)));
    lines.push(el("li", { class: ["tk-reason", T.automaLatest === "play" && "is-latest"], dataset: { kind: "play" } },
      el("span", { class: "tk-reason-head" }, t("tricky-tactics.automa_played", { card: cardText(a.last_card) })),
      el("span", { class: "tk-reason-text" }, T.reasonText(a.last_reason)),
      chose.length ? el("span", { class: "tk-reason-row" }, el("span", { class: "muted small" }, t("tricky-tactics.automa_chose_from")), chose) : null));
  }
  const action = latestAutomaAction(T);
  if (action) {
    lines.push(el("li", { class: ["tk-reason", T.automaLatest === "action" && "is-latest"], dataset: { kind: "action" } },
      el("span", { class: "tk-reason-head" }, t("tricky-tactics.automa_action")),
      el("span", { class: "tk-reason-text" }, action.reason)));
  }
  if (!lines.length) lines.push(el("li", { class: "tk-reason muted" }, t("tricky-tactics.automa_waiting")));
  put(panel,
    el("h3", { class: "tk-h tk-automa-title", id: `${T.uid}-automa-title` }, cube("automa"), el("span", {}, t("tricky-tactics.automa")), el("span", { class: "tk-automa-score" }, t("tricky-tactics.pts", { n: p?.score ?? 0 }))),
    el("div", { class: "tk-automa-cards" }, stack, rowEl),
    el("ul", { class: "tk-speech" }, lines),
  );
  T.flipCards = new Set();
}
