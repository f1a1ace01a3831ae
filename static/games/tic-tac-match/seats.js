// Every seat at the table (ID card, hand size, turn, dealer) and the ID-card badges lent to the room page.

import { h as el, prefersReducedMotion } from "../../js/dom.js";
import { t } from "../../js/i18n.js";
import { idCard, symbolSvg } from "./cards.js";

export function createSeats(m) {
  const node = el("ul", { class: "ttm-seats", "aria-label": "Players" });
  const badges = new Map(); // seat -> Set of badge elements given to the room page

  function draw(wipedTarget) {
    const { view, mySeat } = m;
    const n = view.players;
    const items = [];
    for (let seat = 0; seat < n; seat += 1) {
      const turn = !view.over && view.turn === seat;
      const side = m.sideOf(seat);
      const size = view.hand_sizes?.[seat] ?? 0;
      const backs = el("span", { class: "ttm-mini-backs", "aria-hidden": "true" }, ...Array.from({ length: Math.min(size, 6) }, () => el("span", { class: "ttm-mini-back" })));
      const rel = mySeat === null ? "" : seat === mySeat ? t("tic-tac-match.you") : side === m.sideOf(mySeat) ? t("tic-tac-match.partner") : t("tic-tac-match.opponent");
      items.push(el("li", {
        class: `ttm-seat ttm-side-${side}${turn ? " is-turn" : ""}${seat === mySeat ? " is-me" : ""}${seat === wipedTarget && !prefersReducedMotion() ? " is-wiped" : ""}`,
        "data-seat": seat,
        "aria-label": `${m.nameOf(seat)}${rel ? ` (${rel})` : ""}, ID ${view.ids[seat]}, ${t("tic-tac-match.cards_n", { n: size })}${turn ? `, ${t("tic-tac-match.to_play")}` : ""}${view.dealer === seat ? `, ${t("tic-tac-match.dealer")}` : ""}`,
      },
      el("span", { class: "ttm-seat-turn", "aria-hidden": "true" }, turn ? "▶" : ""),
      idCard(view.ids[seat], `ttm-id-mini${m.flipping && !prefersReducedMotion() ? " is-flipping" : ""}`),
      el("span", { class: "ttm-seat-text", "aria-hidden": "true" },
        el("span", { class: "ttm-seat-name" }, m.nameOf(seat)),
        el("span", { class: "ttm-seat-sub" }, [view.players === 4 ? "AB"[side] : "", rel, view.dealer === seat ? t("tic-tac-match.dealer") : ""].filter(Boolean).join(" · "))),
      backs,
      el("span", { class: "ttm-seat-count", "aria-hidden": "true" }, String(size))));
    }
    node.replaceChildren(...items);
    node.classList.toggle("is-four", n === 4);
  }

  /** A fresh badge for the players strip, kept up to date on every flip. */
  function badge(seat) {
    const sym = m.view?.ids?.[seat] ?? "X";
    const b = idCard(sym, "ttm-id-mini ttm-badge");
    b.setAttribute("title", t("tic-tac-match.id_title", { sym }));
    if (!badges.has(seat)) badges.set(seat, new Set());
    badges.get(seat).add(b);
    return b;
  }

  function refreshBadges() {
    for (const [seat, set] of badges) {
      for (const b of [...set]) {
        if (!b.isConnected) {
          set.delete(b);
          continue;
        }
        const sym = m.view?.ids?.[seat];
        if (!sym || b.dataset.sym === sym) continue;
        b.replaceChildren(symbolSvg(sym, "ttm-id-svg"));
        b.dataset.sym = sym;
        b.setAttribute("title", t("tic-tac-match.id_title", { sym }));
        if (m.flipping && !prefersReducedMotion()) {
          b.classList.remove("is-flipping");
          void b.offsetWidth;
          b.classList.add("is-flipping");
        }
      }
    }
  }

  return { node, draw, badge, refreshBadges };
}
