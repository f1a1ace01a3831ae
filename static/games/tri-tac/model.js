// One mount's state (the view, Power Play mode, the armed cell, the action in flight) and what it says:
// whose turn it is, who plays which marker, what a click on a cell would do.

import { AckGate } from "../../js/table/acks.js";
import { seatPlayerName } from "../../js/table/seats.js";

export const cellKey = (r, c) => `${r},${c}`;

export function createModel(ctx) {
  const m = {
    uid: `tt${Math.random().toString(36).slice(2, 8)}`,
    mySeat: ctx.seat,
    view: null,
    lastMsg: null,
    size: 0,
    powerMode: false,
    armed: null, // touch: first tap arms a cell, second tap plays it
    gate: new AckGate(),
  };
  m.busy = () => m.gate.busy(m.lastMsg?.version);
  m.markers = () => m.view?.markers || ["X", "O"];
  m.markerOf = (seat) => m.markers()[seat] ?? (seat === 0 ? "X" : "O");
  m.nameOf = (seat) => seatPlayerName(ctx.room, seat);
  m.who = (seat) => `${m.nameOf(seat)} (${m.markerOf(seat)})`;
  m.isMyTurn = () => {
    const { view, lastMsg, mySeat } = m;
    return Boolean(view && mySeat !== null && mySeat !== undefined && view.phase === "turn" && view.to_move === mySeat && lastMsg && (lastMsg.to_act || []).includes(mySeat) && !lastMsg.outcome);
  };
  m.canPower = () => Boolean(m.view?.power_play && m.mySeat !== null && m.view.power_play[m.mySeat]?.available);

  /** What a click on (r, c) would do now, or null. */
  m.actionAt = (r, c) => {
    if (!m.isMyTurn() || m.busy()) return null;
    const v = m.view.board[r]?.[c];
    if (m.powerMode) return v !== null && v !== undefined && v !== m.mySeat && m.canPower() ? { type: "power", cell: [r, c] } : null;
    return v === null ? { type: "place", cell: [r, c] } : null;
  };
  return m;
}
