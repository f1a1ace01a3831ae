// The log's hooks (static/js/log.js): cells and cards named as the board names them.

import { cardName, cellName } from "./names.js";

export const logHooks = {
  cellText: (cell) => cellName(Number(cell[0]), Number(cell[1])),
  cardText: (card) => cardName(card),
};
