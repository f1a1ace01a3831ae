// The draw pile (backs and a count, pulsing when rebuilt) and the discard pile (its top card and a count).

import { h as el, prefersReducedMotion } from "../../js/dom.js";
import { t } from "../../js/i18n.js";
import { cardEl } from "./cards.js";
import { cardName } from "./names.js";

export function createPiles(m) {
  const drawPile = el("div", { class: "ttm-pile ttm-pile-draw" });
  const discardPile = el("div", { class: "ttm-pile ttm-pile-discard" });
  const node = el("div", { class: "ttm-piles" }, drawPile, discardPile);

  function draw(pulse) {
    const { view } = m;
    const backs = el("div", { class: "ttm-pile-stack", "aria-hidden": "true" },
      ...(view.draw_count > 0 ? Array.from({ length: Math.min(3, view.draw_count) }, (_, i) => cardEl(null, `ttm-pile-card${i ? " ttm-pile-under" : ""}`)) : [el("div", { class: "ttm-slot" })]));
    drawPile.replaceChildren(backs, el("span", { class: "ttm-pile-label" }, el("b", {}, String(view.draw_count)), ` ${t("tic-tac-match.draw_pile")}`));
    drawPile.setAttribute("aria-label", `${t("tic-tac-match.draw_pile")}: ${t("tic-tac-match.cards_n", { n: view.draw_count })}`);
    drawPile.setAttribute("role", "img");
    drawPile.classList.toggle("is-pulsing", Boolean(pulse) && !prefersReducedMotion());
    const top = view.discard_top;
    discardPile.replaceChildren(
      el("div", { class: "ttm-pile-stack", "aria-hidden": "true" }, top ? cardEl(top, "ttm-pile-card") : el("div", { class: "ttm-slot" })),
      el("span", { class: "ttm-pile-label" }, el("b", {}, String(view.discard_count)), ` ${t("tic-tac-match.discard_pile")}`));
    discardPile.setAttribute("role", "img");
    discardPile.setAttribute("aria-label", `${t("tic-tac-match.discard_pile")}: ${t("tic-tac-match.cards_n", { n: view.discard_count })}${top ? `, ${cardName(top)}` : `, ${t("tic-tac-match.empty_pile")}`}`);
  }

  return { node, draw };
}
