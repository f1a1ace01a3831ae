// The buttons under the hand for the selected card: discard it as Double Play's second play, play Flip or
// Double Play, choose whom to Wipe Out, cancel; and forfeiting the second play.

import { h as el } from "../../js/dom.js";
import { t } from "../../js/i18n.js";
import { idCard } from "./cards.js";
import { cardName, otherSym } from "./names.js";

/** `send(action)` plays; `select(null)` drops the selection; `backToHand()` drops it and refocuses its card. */
export function createPrompt(m, { send, select, backToHand }) {
  const node = el("div", { class: "ttm-actions", "aria-live": "polite" });
  const button = (cls, action, onclick, ...label) => el("button", { type: "button", class: cls, "data-action": action, onclick }, ...label);

  function cardChoices(card) {
    const { view, mySeat } = m;
    const parts = [];
    if (card.discardable) {
      parts.push(button("btn btn-primary", "discard", () => send({ type: "discard", card: card.id }), `${t("tic-tac-match.discard_as_play")} (${cardName(card)})`));
    } else if (card.kind === "flip") {
      const me = view.ids[mySeat];
      parts.push(el("p", { class: "ttm-hint" }, t("tic-tac-match.flip_hint", { sym: otherSym(me), other: me })));
      parts.push(button("btn btn-primary", "flip", () => send({ type: "flip", card: card.id }), t("tic-tac-match.play_flip")));
    } else if (card.kind === "double") {
      parts.push(el("p", { class: "ttm-hint" }, t("tic-tac-match.double_hint")));
      parts.push(button("btn btn-primary", "double", () => send({ type: "double", card: card.id }), t("tic-tac-match.play_double")));
    } else if (card.kind === "wipeout") {
      parts.push(el("p", { class: "ttm-hint" }, `${t("tic-tac-match.wipe_label")} ${t("tic-tac-match.wipe_hint")}`));
      parts.push(el("div", { class: "ttm-targets", role: "group", "aria-label": t("tic-tac-match.wipe_label") },
        ...(card.targets || []).map((target) => el("button", {
          type: "button",
          class: `btn btn-secondary ttm-target ttm-side-${m.sideOf(target)}`,
          "data-action": "wipeout",
          "data-target": target,
          onclick: () => send({ type: "wipeout", card: card.id, target }),
        }, idCard(view.ids[target], "ttm-id-mini"), `${t("tic-tac-match.wipe_target", { name: m.nameOf(target) })} (${m.sideOf(target) === m.sideOf(mySeat) ? t("tic-tac-match.partner") : t("tic-tac-match.opponent")})`))));
    }
    parts.push(button("btn btn-secondary btn-sm", "cancel", () => select(null), t("tic-tac-match.cancel")));
    return parts;
  }

  function draw() {
    const { view } = m;
    const card = m.selectedCard();
    const my = m.isMyTurn() && !m.busy();
    const parts = my && card ? cardChoices(card) : [];
    if (view.can_forfeit && m.isMyTurn() && !m.busy()) {
      parts.push(button("btn btn-secondary", "forfeit", () => send({ type: "forfeit" }), t("tic-tac-match.forfeit")));
    }
    const sig = JSON.stringify([m.selected, my, view.can_forfeit, view.version ?? m.lastMsg?.version]);
    if (node.dataset.sig === sig) return;
    node.dataset.sig = sig;
    node.replaceChildren(...parts);
  }

  node.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && m.selected !== null) {
      event.preventDefault();
      backToHand();
    }
  });

  return { node, draw };
}
