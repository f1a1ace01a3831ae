// One mount's state (the view, the selected card, the action in flight) and what it says: whose turn it is,
// which cards and cells are open, who sits where.

import { teamName } from "../../js/i18n.js";
import { AckGate } from "../../js/table/acks.js";
import { seatPlayerName } from "../../js/table/seats.js";

export function createModel(ctx) {
  const m = {
    uid: `ttm${Math.random().toString(36).slice(2, 8)}`,
    mySeat: ctx.seat === undefined ? null : ctx.seat,
    view: null,
    lastMsg: null,
    selected: null, // card id selected in the hand
    gate: new AckGate(),
    handIds: [],
    lastCell: null, // "r,c" of the last Symbol card played this match
    flipping: false, // a Flip was just played: the ID cards turn over
  };
  m.busy = () => m.gate.busy(m.lastMsg?.version);
  m.nameOf = (seat) => seatPlayerName(ctx.room, seat);
  m.sideOf = (seat) => seat % 2;
  m.sideName = (side) => {
    if (!m.view) return "";
    if (m.view.players === 4) {
      const [a, b] = m.view.sides[side].seats;
      return `${teamName(side, "tic-tac-match")} (${m.nameOf(a)} & ${m.nameOf(b)})`;
    }
    return m.nameOf(m.view.sides[side].seats[0]);
  };
  m.isMyTurn = () => {
    const { view, lastMsg, mySeat } = m;
    return Boolean(view && mySeat !== null && !view.over && view.turn === mySeat && lastMsg && !lastMsg.outcome && (lastMsg.to_act || []).includes(mySeat));
  };
  m.myHand = () => (Array.isArray(m.view?.hand) ? m.view.hand : []);
  m.selectedCard = () => m.myHand().find((c) => c.id === m.selected) || null;
  m.selectable = (card) => m.isMyTurn() && !m.busy() && (card.playable || card.discardable);
  m.legalCellsOf = (card) => (card && card.kind === "symbol" && m.isMyTurn() && !m.busy() ? card.cells || [] : []);
  m.legalAt = (r, c) => m.legalCellsOf(m.selectedCard()).some(([rr, cc]) => rr === r && cc === c);
  m.winningCells = () => {
    const set = new Set();
    for (const line of m.view?.winning_lines || []) for (const [r, c] of line) set.add(`${r},${c}`);
    if (!set.size && m.view?.winning_line) for (const [r, c] of m.view.winning_line) set.add(`${r},${c}`);
    return set;
  };
  return m;
}
