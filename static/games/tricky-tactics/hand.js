// Your hand as playing cards grouped by suit: only the view's `playable` cards can be played; arrows, Home
// and End move along it.
import { h as el } from "../../js/dom.js";
import { t } from "../../js/i18n.js";
import { cardSuit, cardText, SYMBOL } from "../../js/table/cards.js";
import { SUITS } from "./art.js";
import { put } from "./state.js";

/** The hand panel of `T`; `submit(action)` sends a play. */
export function handPanel(T, submit) {
  const panel = el("section", { class: "tk-hand-panel", hidden: T.spectator, "aria-labelledby": `${T.uid}-hand-title` });

  function playCard(card) {
    if (T.gate.pending || !T.isMyTurnToPlay() || !(T.view.playable || []).includes(card)) return;
    submit({ type: "play", card });
  }

  function hint(hand, myTurn) {
    const led = T.view.led_suit;
    if (!hand.length) return t("tricky-tactics.hand_empty");
    if (!myTurn) return t("tricky-tactics.hand_hint_wait");
    if (led && hand.some((c) => cardSuit(c) === led)) return t("tricky-tactics.hand_hint_follow", { suit: SYMBOL[led] });
    return t("tricky-tactics.hand_hint_any");
  }

  function draw() {
    const view = T.view;
    if (T.spectator || view.phase === "over") {
      panel.hidden = true;
      return;
    }
    panel.hidden = false;
    const pending = T.gate.pending;
    const hand = view.hand || [];
    const myTurn = T.isMyTurnToPlay();
    const playable = new Set(myTurn ? view.playable || [] : []);
    if (!hand.includes(T.handFocus)) T.handFocus = hand.find((c) => playable.has(c)) ?? hand[0] ?? null;
    if (myTurn && !playable.has(T.handFocus) && !panel.contains(document.activeElement)) T.handFocus = hand.find((c) => playable.has(c)) ?? T.handFocus;
    const groups = [];
    for (const s of SUITS) {
      const cards = hand.filter((c) => cardSuit(c) === s);
      if (!cards.length) continue;
      groups.push(el("div", { class: "tk-suit-group", dataset: { suit: s } },
        cards.map((c) => {
          const ok = playable.has(c) && !pending;
          return el("button", {
            type: "button",
            class: ["tk-hand-card", ok && "is-playable", myTurn && !playable.has(c) && "is-blocked"],
            "aria-disabled": ok ? "false" : "true",
            "aria-label": ok ? t("tricky-tactics.card_playable", { card: cardText(c) }) : t("tricky-tactics.card_unplayable", { card: cardText(c) }),
            tabindex: c === T.handFocus ? "0" : "-1",
            dataset: { card: c, focus: `card-${c}` },
            onclick: () => playCard(c),
          }, el("span", { class: "tk-hand-inner" }, T.art.cardFace(c)));
        })));
    }
    put(panel,
      el("div", { class: "tk-hand-head" },
        el("h3", { class: "tk-h", id: `${T.uid}-hand-title` }, t("tricky-tactics.hand_title"), el("span", { class: "tk-count" }, t("tricky-tactics.hand_count", { n: hand.length }))),
        el("p", { class: ["tk-hand-hint", myTurn && "is-you"] }, hint(hand, myTurn))),
      el("div", { class: ["tk-hand", myTurn && "is-my-turn", pending && "is-busy"], role: "group", "aria-label": t("tricky-tactics.hand_label"), "aria-describedby": `${T.uid}-hand-title` }, groups),
    );
  }

  // keyboard: arrows move along the hand (roving tabindex)
  panel.addEventListener("keydown", (event) => {
    const btn = event.target.closest?.(".tk-hand-card");
    if (!btn) return;
    const cards = [...panel.querySelectorAll(".tk-hand-card")];
    const i = cards.indexOf(btn);
    let j = null;
    if (event.key === "ArrowRight" || event.key === "ArrowDown") j = Math.min(cards.length - 1, i + 1);
    else if (event.key === "ArrowLeft" || event.key === "ArrowUp") j = Math.max(0, i - 1);
    else if (event.key === "Home") j = 0;
    else if (event.key === "End") j = cards.length - 1;
    if (j === null) return;
    event.preventDefault();
    for (const c of cards) c.setAttribute("tabindex", "-1");
    cards[j].setAttribute("tabindex", "0");
    T.handFocus = cards[j].dataset.card;
    cards[j].focus();
  });
  panel.addEventListener("focusin", (event) => {
    const btn = event.target.closest?.(".tk-hand-card");
    if (btn) T.handFocus = btn.dataset.card;
  });

  return { panel, draw };
}
