"""What each Tic Tac Match seat sees: everything public, and its own hand with each card's legal uses."""

from __future__ import annotations

from pydantic import TypeAdapter

from engines.base import JSON, Seat
from engines.tic_tac_match.cards import SYMBOLS, card_json, card_kind, rc
from engines.tic_tac_match.plays import has_symbol_or_flip_play, in_fallback, legal_cells
from engines.tic_tac_match.state import MatchResult, TicTacMatchState

_RESULT = TypeAdapter(MatchResult)
_RESULTS = TypeAdapter(tuple[MatchResult, ...])


def view(state: TicTacMatchState, seat: Seat | None) -> dict[str, JSON]:
    """What ``seat`` may know (``None``: a spectator).

    Everyone: the grid (top card and height of each cell), discard top and count, draw count, hand sizes,
    ID symbols, sides and score, whose turn it is, a pending Double Play, finished matches. The seat
    alone: its own hand, each card annotated with its legal uses when it is that seat's turn. Never: other
    hands, the draw-pile order, covered cards, the discard pile below its top.
    """
    s = state
    tops = s.tops()
    grid: list[JSON] = [
        [
            {
                "top": card_json(top) if (top := tops[r * 3 + c]) is not None else None,
                "height": len(s.cells[r * 3 + c]),
            }
            for c in range(3)
        ]
        for r in range(3)
    ]
    result = s.results[-1] if s.over and s.results else None
    mine = seat if seat is not None and 0 <= seat < s.players else None
    return {
        "players": s.players,
        "series": s.series,
        "match": s.match,
        "dealer": s.dealer,
        "turn": s.turn,
        "you": mine,
        "your_side": mine % 2 if mine is not None else None,
        "ids": id_symbols(s),
        "sides": [
            {
                "side": side,
                "seats": [x for x in range(s.players) if x % 2 == side],
                "symbol": SYMBOLS[s.side_symbol(side)],
                "wins": s.wins[side],
            }
            for side in (0, 1)
        ],
        "grid": grid,
        "draw_count": len(s.draw),
        "discard_count": len(s.discard),
        "discard_top": discard_top(s),
        "hand_sizes": [len(h) for h in s.hands],
        "hand": _hand_view(s, mine) if mine is not None else None,
        "double": _double_view(s, mine),
        "can_forfeit": mine is not None and mine == s.turn and in_fallback(s),
        "matches": _RESULTS.dump_python(s.results, mode="json"),
        "over": s.over,
        "winner_side": result.side if result is not None else None,
        "winners": list(result.seats) if result is not None else [],
        "winning_line": [list(cell) for cell in result.line] if result is not None else None,
        "winning_lines": [[list(cell) for cell in line] for line in result.lines] if result is not None else [],
    }


def _double_view(s: TicTacMatchState, seat: Seat | None) -> JSON:
    if not s.plays_left or s.turn is None:
        return None
    double: dict[str, JSON] = {"seat": s.turn, "plays_left": s.plays_left}
    if seat == s.turn:  # whether a Symbol/Flip play is left depends on the hand: the player's secret
        double["fallback"] = in_fallback(s)
    return double


def _hand_view(s: TicTacMatchState, seat: Seat) -> list[JSON]:
    my_turn = seat == s.turn
    fallback = my_turn and in_fallback(s)
    ordinary = my_turn and s.plays_left == 0
    double_ok = ordinary and has_symbol_or_flip_play(s, s.hands[seat])
    cards: list[JSON] = []
    for card in s.hands[seat]:
        entry = card_json(card)
        kind = card_kind(card)
        if kind == "symbol":
            cells = [rc(i) for i in legal_cells(s, card)] if my_turn and not fallback else []
            entry["cells"] = cells
            entry["playable"] = bool(cells)
        elif kind == "flip":
            entry["playable"] = my_turn and not fallback
        elif kind == "wipeout":
            entry["targets"] = [t for t in range(s.players) if t != seat] if ordinary else []
            entry["playable"] = ordinary
        else:
            entry["playable"] = double_ok
        if kind in ("wipeout", "double"):
            entry["discardable"] = fallback
        cards.append(entry)
    return cards


def id_symbols(s: TicTacMatchState) -> list[JSON]:
    """The symbol each seat's ID card shows."""
    return [SYMBOLS[s.seat_symbol(seat)] for seat in range(s.players)]


def discard_top(s: TicTacMatchState) -> JSON:
    return card_json(s.discard[-1]) if s.discard else None


def result_json(result: MatchResult) -> dict[str, JSON]:
    """A finished match as events and views show it."""
    data: dict[str, JSON] = _RESULT.dump_python(result, mode="json")
    return data


def winning_card(result: MatchResult) -> dict[str, JSON]:
    """The face of the Symbol cards that made a match's line."""
    return {"kind": "symbol", "colour": result.colour, "symbol": result.symbol}
