// One mount's state (the view, the Action being chosen, what the automa did last) and what it derives from
// it: players and their names, the automa's reasons in words, and what you may do now.
import { phrase, playerName, seatLabel, t } from "../../js/i18n.js";
import { logContext } from "../../js/log.js";
import { AckGate } from "../../js/table/acks.js";
import { cardText, SYMBOL } from "../../js/table/cards.js";
import { cardArt } from "./art.js";

export { prefersReducedMotion as reducedMotion } from "../../js/dom.js";
/** "K♠": a Location by rank and suit symbol. */
export const locText = (loc) => `${loc[0]}${SYMBOL[loc[1]]}`;
export const sameId = (a, b) => a !== null && a !== undefined && String(a) === String(b);
export const suitName = (s) => t(`tricky-tactics.suit.${s}`);

/** Replace a node's children, skipping null / false / undefined (and flattening arrays). */
export function put(node, ...kids) {
  node.replaceChildren(...kids.flat(Infinity).filter((k) => k !== null && k !== undefined && k !== false).map((k) => (k instanceof Node ? k : String(k))));
}

/** A table's wrapper that scrolls sideways on a narrow screen: focusable and named, so a keyboard can
 * scroll it too. */
export function scrollRegion(label) {
  return { class: "tk-table-wrap", tabindex: "0", role: "region", "aria-label": label };
}

export class TableState {
  constructor(ctx) {
    this.ctx = ctx;
    this.uid = `tk${Math.random().toString(36).slice(2, 8)}`;
    this.art = cardArt(this.uid);
    this.mySeat = ctx.seat === undefined ? null : ctx.seat;
    this.spectator = this.mySeat === null;
    this.view = null;
    this.lastMsg = null;
    this.prevView = null;
    this.gate = new AckGate();
    this.mode = null; // "add" | "remove" while choosing an Action
    this.modeFor = ""; // which pending action the mode belongs to
    this.automaAction = null; // {reason, trick} of the automa's latest Action, remembered across rounds
    this.automaLatest = "play"; // which of its two lines is newer
    this.hold = null; // a just-finished trick kept on the table for a moment
    this.scoringOpenRound = null;
    this.handFocus = null;
    this.flipCards = new Set();
    this.firstUpdate = true;
    /** Hooks of the log (static/js/log.js): the automa by name, cards, Locations and suits by symbol. */
    this.logHooks = {
      seatName: (seat, name) => (seat === "automa" ? t("tricky-tactics.automa") : name),
      cardText: (card) => cardText(String(card)),
      valueText: (name, value) => (name === "location" ? locText(String(value)) : name === "suit" ? SYMBOL[value] : undefined),
    };
  }

  playerIds() {
    return (this.view?.players || []).map((p) => p.id);
  }

  playerOf(pid) {
    return (this.view?.players || []).find((p) => sameId(p.id, pid)) || null;
  }

  indexOf(pid) {
    return this.playerIds().findIndex((id) => sameId(id, pid));
  }

  nameOf(pid) {
    if (pid === "automa") return t("tricky-tactics.automa");
    const seat = this.ctx.room?.seats?.[pid];
    return playerName(seat?.player) || seatLabel(this.playerOf(pid)?.label || seat?.label || `Player ${Number(pid) + 1}`);
  }

  whoOf(pid) {
    return sameId(pid, this.mySeat) ? t("tricky-tactics.you_paren", { name: this.nameOf(pid) }) : this.nameOf(pid);
  }

  /** The automa's reason (log entries, docs/games/tricky-tactics.md) in the page's language. */
  reasonText(reason) {
    if (!Array.isArray(reason)) return "";
    return phrase({ key: "log.clauses", params: { clauses: reason } }, logContext(this.ctx.room, this.logHooks));
  }

  /** "Ada +3, Automa +1": a round's points by player. */
  pointsLine(points) {
    return this.playerIds()
      .map((pid, i) => `${this.nameOf(pid)} +${points?.[i] ?? 0}`)
      .join(", ");
  }

  /** An Action in words; `short` keeps the automa's to what it did, without its reason. */
  actionText(a, short = false) {
    if (a.type === "skip") return this.reasonText(a.reason);
    if (a.player === "automa" && a.reason && !short) return this.reasonText(a.reason);
    if (a.type === "add") return t("tricky-tactics.short_add", { name: this.nameOf(a.player), loc: locText(a.location) });
    return t("tricky-tactics.short_remove", { name: this.nameOf(a.player), owner: this.nameOf(a.owner), loc: locText(a.location) });
  }

  isMyTurnToPlay() {
    const view = this.view;
    return Boolean(view && !this.spectator && view.phase === "play" && sameId(view.turn, this.mySeat) && (this.lastMsg?.to_act || []).includes(this.mySeat) && !this.lastMsg?.outcome);
  }

  /** The Action you must choose now (the view's pending_action), or null. */
  myPendingAction() {
    const view = this.view;
    return view && !this.spectator && view.phase === "action" && view.pending_action && sameId(view.pending_action.player, this.mySeat) && (this.lastMsg?.to_act || []).includes(this.mySeat)
      ? view.pending_action
      : null;
  }

  trickNumber() {
    const view = this.view;
    const done = (view.tricks || []).length;
    if (view.phase === "action") return done;
    return Math.min(done + 1, view.tricks_per_round || done + 1);
  }
}
