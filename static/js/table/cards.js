// Playing cards as both card games write them ("10H": rank, then suit letter) and their printed corners.
import { s as svg } from "../dom.js";

export const SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const RED_SUITS = new Set(["H", "D"]);

export const cardSuit = (card) => card.slice(-1);
export const rankText = (card) => card.slice(0, -1);
/** "7♠": rank and suit symbol, as the log and the hand write a card. */
export const cardText = (card) => `${rankText(card)}${SYMBOL[cardSuit(card)]}`;

/**
 * A card face's two corners: the rank over the suit symbol (`suit`, already placed) in a group `id`, and its
 * copy turned upside down through <use>, so the card's visible text is its rank once, as the hand button's
 * accessible name begins (axe: label-content-name-mismatch). `text`: the rank's class and position.
 */
export function cardCorners(id, rank, { cls, x, y }, suit) {
  const g = svg("g", { id });
  const text = svg("text", { class: `${cls}${rank === "10" ? " is-ten" : ""}`, x, y, "text-anchor": "middle" });
  text.textContent = rank;
  g.append(text, suit);
  return [g, svg("use", { href: `#${id}`, transform: "rotate(180 50 70)" })];
}
