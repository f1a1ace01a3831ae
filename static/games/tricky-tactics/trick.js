// The trick on a felt table laid out by seat (you at the bottom): each seat's card or empty slot, the led
// suit, the winner, and the previous trick in small once a newer one is on the table.
import { h as el } from "../../js/dom.js";
import { t } from "../../js/i18n.js";
import { cardSuit, cardText } from "../../js/table/cards.js";
import { put, reducedMotion, sameId, suitName } from "./state.js";

/** The trick table of `T` in the section `table`; `draw()` brings it up to date. */
export function trickTable(T, table) {
  let shownTrickKeys = new Set();

  /** Where each player sits: player id -> "bottom" / "left" / "top" / "right". */
  function positions() {
    const ids = T.playerIds();
    const n = ids.length;
    const start = T.spectator ? 0 : Math.max(0, ids.findIndex((id) => sameId(id, T.mySeat)));
    const names = n === 4 ? ["bottom", "left", "top", "right"] : n === 3 ? ["bottom", "left", "right"] : ["bottom", "top"];
    const out = new Map();
    for (let k = 0; k < n; k += 1) out.set(String(ids[(start + k) % n]), names[k]);
    return out;
  }

  /** What the table shows: the held finished trick, the trick in progress, or the last finished one. */
  function displayedTrick() {
    const view = T.view;
    if (T.hold) return { ...T.hold, complete: true, faded: false };
    if ((view.trick || []).length) {
      return { cards: view.trick, leader: view.leader, led: view.led_suit, complete: false, number: T.trickNumber() };
    }
    const tr = view.phase === "action" ? view.tricks?.[view.tricks.length - 1] : view.last_trick;
    if (tr) {
      const winnerCard = tr.cards.find((c) => sameId(c.player, tr.winner))?.card;
      return { cards: tr.cards, leader: tr.leader, led: cardSuit(tr.cards[0].card), winner: tr.winner, card: winnerCard, action: tr.action, complete: true, faded: view.phase !== "action", number: view.phase === "action" ? view.tricks.length : null };
    }
    return { cards: [], leader: view.leader, led: null, complete: false, number: T.trickNumber() };
  }

  function seatSlot(pid, where, shown, animate, newKeys) {
    const view = T.view;
    const { cardEl, cube } = T.art;
    const entry = shown.cards.find((c) => sameId(c.player, pid));
    const isTurn = !shown.complete && view.phase === "play" && sameId(view.turn, pid);
    const isLeader = sameId(shown.leader, pid);
    const winner = shown.complete && sameId(shown.winner, pid);
    let holder;
    if (entry) {
      const key = `${entry.player}:${entry.card}`;
      newKeys.add(key);
      const fresh = animate && !shownTrickKeys.has(key);
      const label = `${T.whoOf(pid)}: ${cardText(entry.card)}${entry.reason ? ` (${T.reasonText(entry.reason)})` : ""}`;
      holder = cardEl(entry.card, [fresh && `tk-from-${where}`, winner && "is-winner", shown.complete && !winner && "is-beaten"].filter(Boolean).join(" "), label);
      if (winner) holder.append(el("span", { class: "tk-win-ribbon" }, "★"));
    } else {
      // A generic div may not carry aria-label (axe: aria-prohibited-attr), so the slot says who and what in text.
      const label = isTurn ? `${T.whoOf(pid)} ${t("tricky-tactics.to_play")}` : `${T.whoOf(pid)}: ${t("tricky-tactics.empty_slot")}`;
      holder = el("div", { class: ["tk-slot-empty", isTurn && "is-turn"] },
        isTurn ? el("span", { class: "tk-slot-dots", "aria-hidden": "true" }, t("tricky-tactics.to_play")) : null,
        el("span", { class: "visually-hidden" }, label));
    }
    const p = T.playerOf(pid);
    const others = !sameId(pid, T.mySeat) && p;
    const cards = others ? t("tricky-tactics.cards", { n: p.hand_size }) : "";
    const plate = el("div", { class: "tk-plate" },
      cube(pid),
      el("span", { class: "tk-plate-name" }, T.whoOf(pid)),
      isLeader ? el("span", { class: "tk-tag tk-tag-lead" }, t("tricky-tactics.leads")) : null,
      others ? el("span", { class: "tk-plate-hand", title: cards }, el("span", { class: "tk-mini-back", "aria-hidden": "true" }), el("span", { "aria-hidden": "true" }, String(p.hand_size)), el("span", { class: "visually-hidden" }, cards)) : null);
    return el("div", { class: ["tk-seat", `tk-pos-${where}`, isTurn && "is-turn", winner && "is-winner"], dataset: { player: String(pid) } }, plate, holder);
  }

  function draw() {
    const view = T.view;
    const pos = positions();
    const shown = displayedTrick();
    const animate = !reducedMotion() && !T.firstUpdate;
    const newKeys = new Set();
    const slots = T.playerIds().map((pid) => seatSlot(pid, pos.get(String(pid)), shown, animate, newKeys));
    shownTrickKeys = newKeys;

    const centre = el("div", { class: "tk-centre" });
    if (shown.led && !shown.complete) {
      centre.append(el("div", { class: "tk-led" }, T.art.suitIcon(shown.led, "tk-led-icon"), el("span", {}, t("tricky-tactics.led", { suit: suitName(shown.led) }))));
    }
    if (shown.number) centre.append(el("div", { class: "tk-trickno muted small" }, t("tricky-tactics.trick_n", { n: shown.number, total: view.tricks_per_round })));
    if (shown.complete && shown.winner !== undefined && shown.card) {
      const line = [el("strong", {}, t("tricky-tactics.wins_with", { name: T.whoOf(shown.winner), card: cardText(shown.card) }))];
      const a = shown.action;
      if (a) line.push(el("span", { class: "tk-centre-action" }, T.actionText(a, true)));
      centre.append(el("div", { class: ["tk-won", shown.faded && "is-faded"] }, line));
    }
    const lastLine = lastTrickLine(shown);
    put(table,
      el("h3", { class: "visually-hidden", id: `${T.uid}-table-title` }, t("tricky-tactics.trick_n", { n: T.trickNumber(), total: view.tricks_per_round })),
      el("div", { class: `tk-felt tk-n${T.playerIds().length}` }, ...slots, centre),
      ...(lastLine ? [lastLine] : []),
    );
  }

  /** The previous finished trick in small, when the table already shows a newer one. */
  function lastTrickLine(shown) {
    const view = T.view;
    const last = view.last_trick;
    if (!last || shown === null || T.hold) return null;
    if (!(view.trick || []).length && view.phase !== "action") return null; // the table shows it already
    const win = last.cards.find((c) => sameId(c.player, last.winner));
    return el("div", { class: "tk-lasttrick" },
      el("span", { class: "tk-lasttrick-title" }, t("tricky-tactics.last_trick")),
      el("span", { class: "tk-lasttrick-cards" }, last.cards.map((c) => T.art.cardEl(c.card, ["tk-card-xs", sameId(c.player, last.winner) && "is-winner"].filter(Boolean).join(" "), `${T.nameOf(c.player)}: ${cardText(c.card)}`))),
      el("span", { class: "tk-lasttrick-text" }, t("tricky-tactics.last_trick_line", { name: T.whoOf(last.winner), card: win ? cardText(win.card) : "" }), last.action ? ` · ${T.actionText(last.action)}` : ""));
  }

  return { draw };
}

/** The trick finished (and acted on) in this update, as the table draws it; null if none. */
export function finishedTrick(T, events) {
  const prevView = T.prevView;
  const action = events.find((e) => e.kind === "action") || null;
  const done = events.find((e) => e.kind === "trick");
  if (done) return { cards: done.cards, leader: done.cards[0]?.player, led: done.led, winner: done.winner, card: done.card, action, number: done.number };
  const before = prevView?.phase === "action" ? prevView.tricks?.[prevView.tricks.length - 1] : null;
  if (!action || !before) return null;
  const card = before.cards.find((c) => sameId(c.player, before.winner))?.card;
  return { cards: before.cards, leader: before.leader, led: cardSuit(before.cards[0].card), winner: before.winner, card, action, number: prevView.tricks.length };
}
