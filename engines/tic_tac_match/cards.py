"""Tic Tac Match's deck: what each card id is, which Symbol card may cover which, and a card's JSON."""

from __future__ import annotations

from typing import Literal

from engines.base import JSON

COLOURS = ("blue", "green", "red", "yellow")
SYMBOLS = ("X", "O")
COPIES = 6
SYMBOL_CARDS = len(COLOURS) * len(SYMBOLS) * COPIES  # 48
FLIP_FIRST, WIPEOUT_FIRST, DOUBLE_FIRST = 48, 52, 56
DECK_SIZE = 60
HAND_SIZE = 4

CardKind = Literal["symbol", "flip", "wipeout", "double"]
Cards = tuple[int, ...]


def card_kind(card: int) -> CardKind:
    if card < SYMBOL_CARDS:
        return "symbol"
    if card < WIPEOUT_FIRST:
        return "flip"
    if card < DOUBLE_FIRST:
        return "wipeout"
    return "double"


def card_type(card: int) -> int:
    """A Symbol card's type 0..7: ``type // 2`` is the colour, ``type % 2`` the symbol (0 = X, 1 = O)."""
    return card // COPIES


def types_stack(card_t: int, top_t: int) -> bool:
    """May a Symbol card of type ``card_t`` cover one of type ``top_t``? Colour or symbol, never both."""
    return (card_t // 2 == top_t // 2) != (card_t % 2 == top_t % 2)


def can_stack(card: int, top: int) -> bool:
    """May Symbol card ``card`` go on top of Symbol card ``top``?"""
    return types_stack(card_type(card), card_type(top))


def card_face(card: int) -> dict[str, JSON]:
    """What a card shows, without its id (for records of finished matches)."""
    kind = card_kind(card)
    if kind == "symbol":
        t = card_type(card)
        return {"kind": kind, "colour": COLOURS[t // 2], "symbol": SYMBOLS[t % 2]}
    return {"kind": kind}


def card_json(card: int) -> dict[str, JSON]:
    """A visible card: its id (to address it in actions) and its face."""
    return {"id": card, **card_face(card)}


def rc(cell: int) -> list[int]:
    """A grid cell (0..8, reading order) as the protocol's ``[row, column]``."""
    return [cell // 3, cell % 3]
