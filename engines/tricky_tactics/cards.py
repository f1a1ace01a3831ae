"""Tricky Tactics' cards and map: the 40-card deck, the twelve Locations (K, Q, J of each suit) and card
helpers."""

from __future__ import annotations

from collections.abc import Iterable

Cards = tuple[str, ...]

SUITS = ("S", "H", "D", "C")
RANKS = ("A", "10", "9", "8", "7", "6", "5", "4", "3", "2")
RANK_VALUE = {r: 14 if r == "A" else int(r) for r in RANKS}
SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
LOC_RANKS = ("K", "Q", "J")
LOCATIONS = tuple(f"{lr}{s}" for s in SUITS for lr in LOC_RANKS)
DECK = tuple(f"{r}{s}" for s in SUITS for r in RANKS)


def card_suit(card: str) -> str:
    return card[-1]


def card_rank(card: str) -> int:
    return RANK_VALUE[card[:-1]]


def sort_hand(cards: Iterable[str]) -> Cards:
    """By suit (♠ ♥ ♦ ♣), high to low within a suit."""
    return tuple(sorted(cards, key=lambda c: (SUITS.index(card_suit(c)), -card_rank(c))))


def without(cards: Cards, card: str) -> Cards:
    """``cards`` less the first copy of ``card``."""
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]
