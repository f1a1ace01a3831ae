"""Which plays the grid allows a Tic Tac Match hand, and the lines they complete (pure functions)."""

from __future__ import annotations

from collections.abc import Sequence

from engines.base import GRID_LINES as LINES
from engines.base import Seat
from engines.tic_tac_match.cards import can_stack, card_kind, card_type
from engines.tic_tac_match.state import TicTacMatchState

LINES_THROUGH: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple(line for line in LINES if cell in line) for cell in range(9)
)


def legal_cells(state: TicTacMatchState, card: int) -> list[int]:
    """The cells (0..8, reading order) where Symbol card ``card`` may be played."""
    return [i for i, stack in enumerate(state.cells) if not stack or can_stack(card, stack[-1])]


def completed_lines(tops: Sequence[int | None], cell: int) -> list[tuple[int, int, int]]:
    """Lines through ``cell`` whose three top cards are of one type (colour and symbol)."""
    top = tops[cell]
    if top is None:
        return []
    t = card_type(top)
    found = []
    for line in LINES_THROUGH[cell]:
        if all((other := tops[i]) is not None and card_type(other) == t for i in line):
            found.append(line)
    return found


def play_result(tops: Sequence[int | None], card: int, cell: int) -> int | None:
    """The symbol (0 = X, 1 = O) of the line completed by playing ``card`` on ``cell``, or None."""
    after = list(tops)
    after[cell] = card
    return card_type(card) % 2 if completed_lines(after, cell) else None


def has_symbol_or_flip_play(state: TicTacMatchState, hand: Sequence[int]) -> bool:
    for card in hand:
        kind = card_kind(card)
        if kind == "flip" or (kind == "symbol" and legal_cells(state, card)):
            return True
    return False


def has_legal_play(state: TicTacMatchState, seat: Seat) -> bool:
    """Can ``seat`` start a turn? (A Double Play is playable only when a Symbol/Flip play is.)"""
    hand = state.hands[seat]
    return any(card_kind(c) == "wipeout" for c in hand) or has_symbol_or_flip_play(state, hand)


def in_fallback(state: TicTacMatchState) -> bool:
    """The second play of a Double Play, with no Symbol/Flip play available."""
    return (
        state.turn is not None and state.plays_left == 1 and not has_symbol_or_flip_play(state, state.hands[state.turn])
    )
