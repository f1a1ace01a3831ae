// Trick-Tac-Foe's deck: A to 10 in four suits; a card's number is the cell it targets, a 10 is wild.
import { t } from "../../js/i18n.js";
import { cardSuit, cardText, rankText } from "../../js/table/cards.js";

export const SUIT_ORDER = ["S", "H", "D", "C"];
export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"];

/** 1 for an ace up to 10. */
export const cardRank = (card) => RANKS.indexOf(rankText(card)) + 1;

export const suitName = (suit) => t(`trick-tac-foe.suit.${suit}`);

/** "7 of spades (7♠)". */
export function cardBase(card) {
  const rank = rankText(card) === "A" ? t("trick-tac-foe.ace") : rankText(card);
  return `${t("trick-tac-foe.card_name", { rank, suit: suitName(cardSuit(card)) })} (${cardText(card)})`;
}

/** cardBase, and a 10 adds ", wild". */
export const cardLabel = (card) => (cardRank(card) === 10 ? t("trick-tac-foe.card_wild", { card: cardBase(card) }) : cardBase(card));
