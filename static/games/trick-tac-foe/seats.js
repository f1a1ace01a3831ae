// The seat plates around the grid: name, team, hand and deck counts, and the card each seat has down.
import { h as el } from "../../js/dom.js";
import { t } from "../../js/i18n.js";
import { cardEl, tokenBadge } from "./art.js";
import { cardLabel } from "./deck.js";
import { colourName, reducedMotion } from "./state.js";

/** The plates of `T`'s seats, placed in `table`; `draw()` brings them up to date. */
export function seatPlates(T, table) {
  const seatEls = new Map(); // seat -> {plate, slot, head, counts, state, sig, slotSig}

  function ensureSeats() {
    const n = T.nSeats();
    if (seatEls.size === n && [...seatEls.keys()].every((s) => s < n)) return;
    for (const { plate } of seatEls.values()) plate.remove();
    seatEls.clear();
    for (let s = 0; s < n; s += 1) {
      const slot = el("div", { class: "tf-slot" });
      const head = el("div", { class: "tf-plate-head" });
      const counts = el("div", { class: "tf-plate-counts" });
      const state = el("div", { class: "tf-plate-state" });
      const plate = el("section", { class: "tf-plate", dataset: { seat: s } }, el("div", { class: "tf-plate-info" }, head, counts, state), slot);
      seatEls.set(s, { plate, slot, head, counts, state, sig: "", slotSig: "" });
      table.append(plate);
    }
  }

  /** What each seat's slot shows, from the view (or the timeline's override). */
  function slotModel(s) {
    const view = T.view;
    if (T.anim && T.anim.slots.has(s)) return T.anim.slots.get(s);
    const info = T.seatInfo(s);
    if (!info) return null;
    const rec = [...(view.current || [])].reverse().find((r) => r.seats.includes(s));
    if (info.committed) {
      if (info.card) return { card: info.card, up: true, win: rec ? rec.winner === s : false, lose: rec ? rec.winner !== s : false };
      if (s === T.mySeat && view.your_card) return { card: view.your_card, up: true, mine: true };
      return { card: null, up: false };
    }
    const prev = (view.previous || []).find((r) => r.seats.includes(s));
    if (prev && !(view.current || []).length) {
      const card = prev.cards[prev.seats.indexOf(s)];
      return { card, up: true, win: prev.winner === s, lose: prev.winner !== s, last: true };
    }
    return null;
  }

  function drawHead(s, parts, info, acting, pairIdx) {
    const view = T.view;
    const badges = [];
    if (view.players === 4 && view.start_seat === s) badges.push(el("span", { class: "tf-badge tf-badge-start", title: t("trick-tac-foe.starts") }, "★ ", t("trick-tac-foe.starts")));
    if (view.players === 4 && pairIdx >= 0) {
      const first = pairIdx === 0;
      badges.push(el("span", { class: ["tf-badge tf-badge-order", first && "is-first"], title: t(first ? "trick-tac-foe.reveals_first" : "trick-tac-foe.reveals_second") }, first ? "①" : "②"));
    }
    parts.head.replaceChildren(
      tokenBadge(info.colour, 20),
      el("span", { class: "tf-plate-name" }, s === T.mySeat ? t("trick-tac-foe.you_paren", { name: T.rawName(s) }) : T.rawName(s)),
      el("span", { class: "tf-plate-label" }, `${T.seatWord(s)} · ${colourName(info.colour)}`),
      el("span", { class: "tf-plate-badges" }, ...badges),
    );
    const hand = t("trick-tac-foe.hand_n", { n: info.hand_count });
    const deck = t("trick-tac-foe.deck_n", { n: info.deck_count });
    const fan = el("span", { class: "tf-fan", "aria-hidden": "true" }, Array.from({ length: info.hand_count }, () => el("span", { class: "tf-mini-back" })));
    parts.counts.replaceChildren(
      el("span", { class: "tf-count", title: hand }, fan, el("span", { class: "visually-hidden" }, hand), el("span", { "aria-hidden": "true" }, String(info.hand_count))),
      el("span", { class: "tf-count tf-count-deck", title: deck }, el("span", { class: "tf-deck-icon", "aria-hidden": "true" }), el("span", { class: "visually-hidden" }, deck), el("span", { "aria-hidden": "true" }, String(info.deck_count))),
    );
    let stateText = "";
    if (T.over() || T.anim) stateText = ""; // during a reveal the plates would already speak of the next trick
    else if (view.phase === "wild" && view.wild_seat === s) stateText = t("trick-tac-foe.picking");
    else if (view.phase === "commit" || view.phase === "wild") stateText = info.committed ? (info.card ? "" : t("trick-tac-foe.committed")) : acting.has(s) ? t("trick-tac-foe.thinking") : "";
    parts.state.textContent = stateText;
    parts.state.className = ["tf-plate-state", info.committed && !info.card && "is-down", acting.has(s) && "is-thinking"].filter(Boolean).join(" ");
  }

  function drawSlot(slot, s, model) {
    if (!model) {
      slot.replaceChildren(el("div", { class: "tf-slot-empty", "aria-hidden": "true" }), el("span", { class: "visually-hidden" }, `${T.nameOf(s)}: ${t("trick-tac-foe.no_card")}`));
      return;
    }
    let label;
    if (model.card && model.up) label = model.mine ? `${t("trick-tac-foe.your_card_down")}: ${cardLabel(model.card)}` : `${T.nameOf(s)}: ${cardLabel(model.card)}${model.win ? ` (${t("trick-tac-foe.wins")})` : ""}`;
    else label = `${T.nameOf(s)}: ${t("trick-tac-foe.committed")}`;
    const flip = model.flip && !reducedMotion();
    const card = cardEl(model.card, { up: flip ? false : model.up, cls: [model.win && "is-winner", model.lose && "is-loser", model.mine && "is-mine", model.last && "is-last", model.fresh && !reducedMotion() && "is-dealt"].filter(Boolean).join(" "), label });
    const parts = [card];
    if (model.win) parts.push(el("span", { class: "tf-win-tag" }, "✓ ", t("trick-tac-foe.wins")));
    else if (model.mine) parts.push(el("span", { class: "tf-mine-tag" }, t("trick-tac-foe.your_card_down")));
    slot.replaceChildren(...parts);
    if (flip) {
      void card.offsetWidth;
      requestAnimationFrame(() => card.classList.replace("is-down", "is-up"));
    }
  }

  function draw() {
    const view = T.view;
    ensureSeats();
    const acting = T.toAct();
    const order = view.order || [];
    for (const [s, parts] of seatEls) {
      const info = T.seatInfo(s);
      if (!info) continue;
      const pos = T.positionOf(s);
      parts.plate.className = ["tf-plate", `tf-pos-${pos}`, `tf-team-${info.colour}`, s === T.mySeat && "is-me", acting.has(s) && !T.over() && "is-acting"].filter(Boolean).join(" ");
      const pairIdx = order.findIndex((p) => p.includes(s));
      const sig = JSON.stringify([info, T.nameOf(s), acting.has(s), view.start_seat, pairIdx, view.step, view.phase, view.wild_seat, T.over(), Boolean(T.anim)]);
      if (sig !== parts.sig) {
        parts.sig = sig;
        drawHead(s, parts, info, acting, pairIdx);
      }
      const model = slotModel(s);
      const slotSig = JSON.stringify(model);
      if (slotSig !== parts.slotSig) {
        parts.slotSig = slotSig;
        drawSlot(parts.slot, s, model);
      }
    }
  }

  return { draw };
}
