// Who sits in a seat, as the page names them.

import { playerName, seatLabel } from "../i18n.js";

/** The name of the player in `seat` of the room summary, else the seat's own label ("Player 2"). */
export function seatPlayerName(room, seat) {
  const s = room?.seats?.[seat];
  return playerName(s?.player) || seatLabel(s?.label || `Player ${seat + 1}`);
}
