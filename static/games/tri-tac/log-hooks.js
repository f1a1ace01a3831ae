// The log's hooks (static/js/log.js): a seat is its player's name and marker, a cell its row and column.

import { t } from "../../js/i18n.js";

export function logHooks(m) {
  return {
    seatName(seat, name) {
      return `${name} (${m.markerOf(seat)})`;
    },
    cellText(cell) {
      return t("tri-tac.cell", { r: Number(cell[0]) + 1, c: Number(cell[1]) + 1 });
    },
  };
}
