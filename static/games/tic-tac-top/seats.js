// Who sits where: seat names and chips, who leads and who may act, and the table's signature that every
// keyed section starts from.

import { h as el } from "../../js/dom.js";
import { playerName, seatLabel } from "../../js/i18n.js";
import { SEAT_GLYPHS } from "./bits.js";

/** The seat itself in the page's language ("Player 2"), phrased from the room's seat data: the view only
 * numbers seats (docs/protocol.md "Room summary"). */
export const seatWord = (g, seat) => seatLabel(g.ctx.room?.seats?.[seat] || { index: seat });

export function nameOf(g, seat) {
  const p = g.ctx.room?.seats?.[seat]?.player;
  if (p?.bot) return playerName(p); // "Bot 3 (strong)", as every other game names its bots
  if (p?.name) return p.name;
  return seatWord(g, seat);
}

export const listNames = (g, seats) => seats.map((seat) => nameOf(g, seat)).join(" & ");

export const canAct = (g) => g.mySeat !== null && (g.msg?.to_act || []).includes(g.mySeat) && !g.msg?.outcome;

/** The page's viewer is the room's host (room.js exposes the page state as window.threefold). */
export const isHostViewer = () => {
  try {
    return Boolean(window.threefold?.S?.isHost?.());
  } catch {
    return false;
  }
};

/** A seat-less host may pace the show too, once the server says so (room summary `host_actions`). */
export const hostCanStep = (g) => g.tv && isHostViewer() && (g.ctx.room?.host_actions || []).includes("next") && !g.msg?.outcome;

export const isLeader = (g) => Boolean(g.view) && g.mySeat !== null && g.view.leader === g.mySeat;

/** Game, turn, phase and who sits where: a section built for another table is built again. */
export const baseSig = (g) =>
  [g.ctx.room?.game_number ?? "", g.view.turn, g.view.phase, (g.ctx.room?.seats || []).map((s) => (s.player ? `${s.player.name}/${s.player.bot}` : "")).join(",")].join("|");

export function seatChip(g, seat) {
  return el("span", { class: ["ttt-seat", `ttt-c${seat % 7}`], title: seatWord(g, seat) },
    el("span", { class: "ttt-seat-glyph", "aria-hidden": "true" }, SEAT_GLYPHS[seat % 7]),
    el("span", { class: "ttt-seat-name" }, nameOf(g, seat)),
    seat === g.view?.leader ? el("span", { class: "ttt-crown", title: g.t("tic-tac-top.leader") },
      el("span", { "aria-hidden": "true" }, "♛"), el("span", { class: "visually-hidden" }, `(${g.t("tic-tac-top.leader")})`)) : null);
}
