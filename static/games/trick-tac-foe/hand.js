// Your hand: playing cards showing the cell each would target; pick one (mouse or arrows), then play it
// face down. Hovering or focusing a card previews its target on the grid.
import { h as el } from "../../js/dom.js";
import { t } from "../../js/i18n.js";
import { cardText } from "../../js/table/cards.js";
import { cardEl } from "./art.js";
import { cardBase, cardLabel, cardRank } from "./deck.js";
import { reducedMotion } from "./state.js";

/**
 * The hand panel of `T`. `onPlay(card)` plays a card; `onChange()` redraws the table after a selection;
 * `onPreview()` redraws the grid when the previewed card changes.
 */
export function handPanel(T, { onPlay, onChange, onPreview }) {
  const panel = el("section", { class: "tf-hand-panel", hidden: T.spectator, "aria-labelledby": `${T.uid}-hand-title` });

  function hint(playable) {
    const view = T.view;
    if (T.over()) return "";
    if (!playable) return view.your_card ? t("trick-tac-foe.hand_hint_wait") : t("trick-tac-foe.hand_hint_idle");
    if (!T.selected) return t("trick-tac-foe.hand_hint_pick");
    return cardRank(T.selected) === 10 ? t("trick-tac-foe.target_hint_wild") : t("trick-tac-foe.target_hint", { n: cardRank(T.selected) });
  }

  function cardButton(card, i, playable, fresh) {
    const k = cardRank(card);
    const selected = card === T.selected;
    const target = k === 10 ? "★" : `→ ${k}`;
    // Begins with what the button shows (the rank and the target: "7♠ → 7"), then says it in words.
    const said = k === 10 ? cardLabel(card) : t("trick-tac-foe.card_target", { card: cardBase(card), n: k });
    const label = `${cardText(card)} ${target}, ${said}${selected ? `, ${t("trick-tac-foe.card_selected")}` : ""}`;
    return el("button", {
      type: "button",
      class: ["tf-hand-card", selected && "is-selected", fresh.has(card) && !reducedMotion() && "is-dealt"],
      "aria-label": label,
      "aria-pressed": selected ? "true" : "false",
      "aria-disabled": playable ? "false" : "true",
      tabindex: i === T.handFocus ? "0" : "-1",
      dataset: { card, index: i },
    }, cardEl(card, { up: true }), el("span", { class: "tf-hand-target", "aria-hidden": "true" }, target));
  }

  function draw() {
    if (T.spectator) return;
    const view = T.view;
    const hand = view.hand || [];
    const pending = T.gate.pending;
    const playable = T.canCommit() && !pending;
    if (T.selected && (!hand.includes(T.selected) || !playable)) T.selected = null;
    const selected = T.selected;
    const sig = JSON.stringify([hand, playable, selected, pending, view.seats?.[T.mySeat]?.deck_count]);
    if (panel.dataset.sig === sig) return;
    const hadFocus = panel.contains(document.activeElement);
    panel.dataset.sig = sig;
    T.handFocus = Math.max(0, Math.min(T.handFocus, hand.length - 1));
    const me = view.seats?.[T.mySeat];
    const fresh = new Set(T.shownHand === null ? [] : hand.filter((c) => !T.shownHand.includes(c)));
    T.shownHand = hand.slice();
    const cardsEls = hand.map((card, i) => cardButton(card, i, playable, fresh));
    const playBtn = el("button", { type: "button", class: "btn btn-primary tf-play-btn", disabled: !playable || !selected, onclick: () => onPlay(selected) },
      selected ? t("trick-tac-foe.play_card", { card: cardText(selected) }) : t("trick-tac-foe.play_select"));
    panel.replaceChildren(
      el("div", { class: "tf-hand-head" },
        el("h3", { class: "tf-h", id: `${T.uid}-hand-title` }, t("trick-tac-foe.hand_title")),
        me ? el("span", { class: "tf-hand-deck muted small" }, el("span", { class: "tf-deck-icon", "aria-hidden": "true" }), t("trick-tac-foe.deck_n", { n: me.deck_count })) : null),
      hand.length ? el("div", { class: ["tf-hand", playable && "is-playable"], role: "group", "aria-label": t("trick-tac-foe.hand_title") }, cardsEls) : el("p", { class: "muted" }, t("trick-tac-foe.hand_empty")),
      el("div", { class: "tf-hand-foot" }, el("p", { class: "tf-hand-hint muted small" }, hint(playable)), playable ? playBtn : null),
    );
    if (hadFocus) {
      const target = panel.querySelector(`.tf-hand-card[data-index="${T.handFocus}"]`) || panel.querySelector(".tf-play-btn");
      target?.focus();
    }
  }

  panel.addEventListener("click", (event) => {
    const btn = event.target.closest?.(".tf-hand-card");
    if (!btn) return;
    const card = btn.dataset.card;
    T.handFocus = Number(btn.dataset.index);
    if (!T.canCommit() || T.gate.pending) return;
    if (T.selected === card) onPlay(card);
    else {
      T.selected = card;
      T.preview = card;
      onChange();
    }
  });
  panel.addEventListener("keydown", (event) => {
    const btn = event.target.closest?.(".tf-hand-card");
    if (!btn) return;
    const n = (T.view?.hand || []).length;
    const i = Number(btn.dataset.index);
    const move = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -1, ArrowDown: 1 }[event.key];
    if (move) {
      event.preventDefault();
      T.handFocus = (i + move + n) % n;
      for (const b of panel.querySelectorAll(".tf-hand-card")) b.setAttribute("tabindex", Number(b.dataset.index) === T.handFocus ? "0" : "-1");
      panel.querySelector(`.tf-hand-card[data-index="${T.handFocus}"]`)?.focus();
    } else if (event.key === "Escape" && T.selected) {
      T.selected = null;
      T.preview = null;
      onChange();
    }
  });
  const setPreview = (card) => {
    if (T.preview === card) return;
    T.preview = card;
    if (T.view) onPreview();
  };
  panel.addEventListener("pointerover", (event) => {
    const btn = event.target.closest?.(".tf-hand-card");
    if (btn) setPreview(btn.dataset.card);
  });
  panel.addEventListener("pointerleave", () => setPreview(T.selected));
  panel.addEventListener("focusin", (event) => {
    const btn = event.target.closest?.(".tf-hand-card");
    if (btn) {
      T.handFocus = Number(btn.dataset.index);
      setPreview(btn.dataset.card);
    }
  });
  panel.addEventListener("focusout", () => setPreview(T.selected));

  return { panel, draw };
}
