// Cards, cells and colours in words (the board's labels, the news and the log say them the same way).

import { t } from "../../js/i18n.js";

/** Each colour's pattern: colour is never the only cue. */
export const COLOURS = {
  blue: { letter: "B", pattern: "stripes" },
  green: { letter: "G", pattern: "dots" },
  red: { letter: "R", pattern: "checks" },
  yellow: { letter: "Y", pattern: "bands" },
};
const CELL_NAMES = [
  ["top-left", "top", "top-right"],
  ["left", "centre", "right"],
  ["bottom-left", "bottom", "bottom-right"],
];

export const colourName = (colour) => t(`tic-tac-match.colour_${colour}`);

export function cardName(card) {
  if (!card) return "";
  if (card.kind === "symbol") return t("tic-tac-match.card_sym", { colour: colourName(card.colour), sym: card.symbol });
  return t(`tic-tac-match.${card.kind}`);
}

export const cellName = (r, c) => (CELL_NAMES[r]?.[c] ? t(`tic-tac-match.where_${r}${c}`) : "");

/** What a face-up card shows in words: its corner ("X R") or its action's name. Hand cards' and cells'
 * accessible names begin with it (axe: label-content-name-mismatch). */
export const cardShown = (card) => (card.kind === "symbol" ? `${card.symbol} ${t(`tic-tac-match.letter_${card.colour}`)}` : t(`tic-tac-match.${card.kind}`));

export function otherSym(sym) {
  return sym === "X" ? "O" : "X";
}
