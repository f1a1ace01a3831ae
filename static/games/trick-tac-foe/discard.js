// The cards played this round: a small pile that opens on a chart of every card, played or still unseen.
import { h as el } from "../../js/dom.js";
import { t } from "../../js/i18n.js";
import { cardText, RED_SUITS } from "../../js/table/cards.js";
import { cardEl, suitIcon } from "./art.js";
import { RANKS, SUIT_ORDER, suitName } from "./deck.js";

/** The discard panel of `T`; `draw()` brings it up to date. */
export function discardPanel(T) {
  const panel = el("details", { class: "tf-discard" });

  function draw() {
    const view = T.view;
    const discard = view.discard || [];
    const sig = JSON.stringify([discard, view.round]);
    if (panel.dataset.sig === sig) return;
    const wasOpen = panel.open;
    panel.dataset.sig = sig;
    const seen = new Set(discard);
    const top = discard.length ? discard[discard.length - 1] : null;
    const pile = el("span", { class: "tf-pile", "aria-hidden": "true" },
      discard.length > 2 ? el("span", { class: "tf-pile-under" }) : null,
      top ? cardEl(top, { up: true, cls: "tf-card-mini" }) : el("span", { class: "tf-slot-empty tf-card-mini" }));
    const rows = SUIT_ORDER.map((suit) =>
      el("div", { class: "tf-chart-row", role: "row" },
        el("span", { class: "tf-chart-suit", role: "rowheader" }, suitIcon(suit), el("span", { class: "visually-hidden" }, suitName(suit))),
        RANKS.map((rank) => {
          const code = rank + suit;
          const played = seen.has(code);
          const state = played ? t("trick-tac-foe.played") : t("trick-tac-foe.unseen");
          return el("span", { class: ["tf-chart-cell", played && "is-played", RED_SUITS.has(suit) ? "tf-ink-red" : "tf-ink-black"], role: "cell", "aria-label": `${cardText(code)}: ${state}` }, rank);
        })));
    panel.replaceChildren(
      el("summary", {}, pile, el("span", { class: "tf-discard-title" }, t("trick-tac-foe.discard_title")), el("span", { class: "muted small" }, discard.length ? t("trick-tac-foe.discard_count", { n: discard.length }) : t("trick-tac-foe.discard_none"))),
      el("p", { class: "muted small" }, t("trick-tac-foe.discard_hint")),
      el("div", { class: "tf-chart", role: "table", "aria-label": t("trick-tac-foe.discard_title") }, rows),
    );
    panel.open = wasOpen;
  }

  return { panel, draw };
}
