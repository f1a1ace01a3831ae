// The viewer's hand of four: one toolbar button per card (arrow keys move, Enter/Space select), the cards that
// can be played now raised, the ones just dealt sliding in.

import { h as el, prefersReducedMotion } from "../../js/dom.js";
import { t } from "../../js/i18n.js";
import { cardEl } from "./cards.js";
import { COLOURS, cardName, cardShown } from "./names.js";

/** `prompt`: the node under the hand (its buttons); `select(id, {fromKeyboard})` picks a card (null: none). */
export function createHand(m, prompt, select) {
  const box = el("div", { class: "ttm-hand", role: "toolbar", "aria-label": t("tic-tac-match.hand"), "aria-orientation": "horizontal" });
  const area = el("section", { class: "ttm-hand-area", "aria-label": t("tic-tac-match.hand") }, el("h3", { class: "ttm-hand-title" }, t("tic-tac-match.hand")), box, prompt);

  /** Begins with what the card shows ("X R", or the action's name), then says it in words. */
  function cardLabel(card) {
    const bits = [cardName(card)];
    if (card.kind === "symbol" && COLOURS[card.colour]) bits[0] = `${cardShown(card)}, ${cardName(card)} (${t(`tic-tac-match.pattern_${COLOURS[card.colour].pattern}`)})`;
    if (m.isMyTurn()) {
      if (card.kind === "symbol") bits.push(card.cells?.length ? t("tic-tac-match.legal_cells", { n: card.cells.length }) : t("tic-tac-match.not_now"));
      else if (card.discardable) bits.push(t("tic-tac-match.discard_as_play"));
      else if (!card.playable) bits.push(t("tic-tac-match.not_now"));
    }
    return bits.join(", ");
  }

  /** Draws the hand; false when there is none to show (a spectator). */
  function draw(fresh) {
    const { view } = m;
    if (m.mySeat === null || !Array.isArray(view.hand)) {
      area.hidden = true;
      return false;
    }
    area.hidden = false;
    const hand = view.hand;
    if (m.selected !== null && !hand.some((c) => c.id === m.selected && m.selectable(c))) m.selected = null;
    const hadFocus = box.contains(document.activeElement);
    const focusedId = hadFocus ? Number(document.activeElement.dataset.cardId) : null;
    let tabbable = hand.findIndex((c) => c.id === (focusedId ?? m.selected));
    if (tabbable < 0) tabbable = Math.max(0, hand.findIndex((c) => m.selectable(c)));
    const buttons = hand.map((card, i) => {
      const can = m.selectable(card);
      const isSel = card.id === m.selected;
      return el("button", {
        type: "button",
        class: `ttm-hand-card${can ? " is-playable" : ""}${isSel ? " is-selected" : ""}${fresh.has(card.id) && !prefersReducedMotion() ? " is-dealt" : ""}`,
        "data-card-id": card.id,
        "data-kind": card.kind,
        "aria-pressed": isSel ? "true" : "false",
        "aria-disabled": can ? "false" : "true",
        "aria-label": cardLabel(card),
        tabindex: i === tabbable ? "0" : "-1",
        style: `--k:${i}`,
      }, cardEl(card));
    });
    box.replaceChildren(...buttons);
    box.classList.toggle("is-my-turn", m.isMyTurn());
    if (hadFocus && focusedId !== null) box.querySelector(`[data-card-id="${focusedId}"]`)?.focus();
    return true;
  }

  box.addEventListener("click", (event) => {
    const btn = event.target.closest(".ttm-hand-card");
    if (!btn) return;
    const id = Number(btn.dataset.cardId);
    const card = m.myHand().find((c) => c.id === id);
    if (!card || !m.selectable(card)) return;
    select(m.selected === id ? null : id, { fromKeyboard: event.detail === 0 });
  });
  box.addEventListener("keydown", (event) => {
    const btn = event.target.closest(".ttm-hand-card");
    if (!btn) return;
    const all = [...box.querySelectorAll(".ttm-hand-card")];
    const i = all.indexOf(btn);
    let j = null;
    if (event.key === "ArrowRight" || event.key === "ArrowDown") j = (i + 1) % all.length;
    else if (event.key === "ArrowLeft" || event.key === "ArrowUp") j = (i - 1 + all.length) % all.length;
    else if (event.key === "Home") j = 0;
    else if (event.key === "End") j = all.length - 1;
    else if (event.key === "Escape" && m.selected !== null) {
      event.preventDefault();
      select(null);
      return;
    }
    if (j !== null) {
      event.preventDefault();
      for (const b of all) b.setAttribute("tabindex", "-1");
      all[j].setAttribute("tabindex", "0");
      all[j].focus();
    }
  });

  return {
    area,
    box,
    draw,
    /** Focus the hand's tab stop, or the card `id`. */
    focus(id = null) {
      (id === null ? box.querySelector('button[tabindex="0"]') : box.querySelector(`[data-card-id="${id}"]`))?.focus();
    },
  };
}
