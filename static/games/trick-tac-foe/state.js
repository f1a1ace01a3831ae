// One mount's state (the view, what is selected, the timeline's overrides) and what it derives from it:
// names, seats around the table, and what you may do now. The other modules read and change it.
import { playerName, seatLabel, t } from "../../js/i18n.js";
import { AckGate } from "../../js/table/acks.js";
import { cardText } from "../../js/table/cards.js";
import { DIR_ANGLE, POS_OF_ANGLE } from "./compass.js";

export { prefersReducedMotion as reducedMotion } from "../../js/dom.js";

export class TableState {
  constructor(ctx) {
    this.ctx = ctx;
    this.uid = `tf${Math.random().toString(36).slice(2, 8)}`;
    this.mySeat = ctx.seat === undefined ? null : ctx.seat;
    this.spectator = this.mySeat === null;
    this.view = null;
    this.lastMsg = null;
    this.gate = new AckGate();
    this.wildFocusedFor = "";
    this.selected = null; // a card code chosen in the hand, not yet played
    this.preview = null; // a card whose target is shown on the grid (hover / focus / selection)
    this.gridFocus = 4; // index in `board` of the roving focus during a wild choice
    this.handFocus = 0;
    // Timeline overrides while the events of a message play back (null = draw the view).
    this.anim = null; // {grid, slots: Map seat -> {card, up, flip, win, lose}, lines, cellFx: Map key -> fx, target}
    this.animToken = 0;
    this.lensSeat = null; // show the grid's numbers as this seat reads them (null: as you read them)
    this.shownHand = null; // the hand last drawn, so newly drawn cards can slide in
    /** Hooks of the log (static/js/log.js): a cell by where it lies on the grid, a card by rank and suit. */
    this.logHooks = {
      cellText: (cell) => t(`trick-tac-foe.compass_${Number(cell[0])}${Number(cell[1])}`),
      cardText: (card) => cardText(String(card)),
    };
  }

  nSeats() {
    return this.view?.players || 2;
  }

  seatInfo(s) {
    return this.view?.seats?.[s] || null;
  }

  /** The seat's direction key ("north"…), for the rules' geometry. */
  directionOf(s) {
    return this.seatInfo(s)?.direction || this.ctx.room?.seats?.[s]?.direction || null;
  }

  /** The seat's direction, for people, in the page's language. */
  seatWord(s) {
    return seatLabel({ index: s, direction: this.directionOf(s) });
  }

  colourOf(s) {
    return this.seatInfo(s)?.colour || "red";
  }

  rawName(s) {
    return playerName(this.ctx.room?.seats?.[s]?.player) || this.seatWord(s);
  }

  nameOf(s) {
    const seats = this.ctx.room?.seats || [];
    const name = playerName(seats[s]?.player);
    if (!name) return this.seatWord(s);
    // two namesakes at one table: add the seat so lines stay unambiguous
    const twins = seats.filter((x) => playerName(x?.player) === name).length > 1;
    return twins ? `${name} (${this.seatWord(s)})` : name;
  }

  whoOf(s) {
    if (s === this.mySeat) return t("trick-tac-foe.you_paren", { name: this.nameOf(s) });
    return this.nameOf(s).includes("(") ? this.nameOf(s) : `${this.nameOf(s)} (${this.seatWord(s)})`;
  }

  toAct() {
    return new Set(this.lastMsg?.to_act || []);
  }

  over() {
    return Boolean(this.lastMsg?.outcome) || this.view?.phase === "over";
  }

  /** An action is in flight, or its ack came before the state it produced: offer nothing meanwhile. */
  busy() {
    return this.gate.busy(this.lastMsg?.version);
  }

  canCommit() {
    const v = this.view;
    return Boolean(v && !this.busy() && !this.spectator && !this.over() && v.phase === "commit" && this.toAct().has(this.mySeat) && !v.your_card && (v.hand || []).length);
  }

  canWild() {
    const v = this.view;
    return Boolean(v && !this.busy() && !this.spectator && !this.over() && v.phase === "wild" && v.wild_seat === this.mySeat && this.toAct().has(this.mySeat));
  }

  boardIndexOf(cell) {
    return (this.view?.board || []).findIndex((b) => b.cell[0] === cell[0] && b.cell[1] === cell[1]);
  }

  /** top / right / bottom / left: where seat s sits as the table is turned for you. */
  positionOf(s) {
    const angle = ((DIR_ANGLE[this.directionOf(s)] ?? 0) + (this.view?.rotation ?? 0)) % 360;
    return POS_OF_ANGLE[angle] || "top";
  }
}

export const colourName = (c) => t(c === "red" ? "trick-tac-foe.colour_red" : "trick-tac-foe.colour_black");

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
