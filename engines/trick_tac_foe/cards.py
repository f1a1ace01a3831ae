"""The 40 cards: their codes, their order and how they read (docs/games/trick-tac-foe.md)."""

from __future__ import annotations

from collections.abc import Iterable

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")
SUITS: tuple[str, ...] = ("C", "D", "H", "S")  # low to high: ♣ < ♦ < ♥ < ♠
SUIT_GLYPHS: dict[str, str] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
HAND_SIZE = 4

Cards = tuple[str, ...]

ALL_CARDS: Cards = tuple(rank + suit for rank in RANKS for suit in SUITS)  # lowest first
CARD_SET = frozenset(ALL_CARDS)
_STRENGTH: dict[str, int] = {card: i for i, card in enumerate(ALL_CARDS)}  # looked up in every trick and playout


def card_rank(code: str) -> int:
    """1 (Ace) … 10."""
    return _STRENGTH[code] // 4 + 1


def card_strength(code: str) -> int:
    """A total order on the 40 cards: rank first, then suit ♠ > ♥ > ♦ > ♣ (A♣ = 0 … 10♠ = 39)."""
    return _STRENGTH[code]


def card_text(code: str) -> str:
    """``"7S"`` → ``"7♠"``."""
    return code[:-1] + SUIT_GLYPHS[code[-1]]


def sort_cards(cards: Iterable[str]) -> list[str]:
    return sorted(cards, key=card_strength)
