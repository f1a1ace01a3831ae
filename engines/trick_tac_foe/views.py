"""What each seat may see of a game, and what spectators see."""

from __future__ import annotations

from pydantic import TypeAdapter

from engines.base import JSON, Seat
from engines.trick_tac_foe.board import Line
from engines.trick_tac_foe.cards import sort_cards
from engines.trick_tac_foe.outcome import outcome_of
from engines.trick_tac_foe.seats import COLOURS, ROTATION, cell_for, labels_for, numbering, team_of
from engines.trick_tac_foe.state import FinalPosition, RoundPoints, Trick, TrickTacFoeState

Records = tuple[tuple[Trick, ...], tuple[Trick, ...], tuple[RoundPoints, ...]]
"""The current and previous tricks and the rounds' points: a view shows them as they are stored."""
_RECORDS: TypeAdapter[Records] = TypeAdapter(Records)  # one call of the shared codec for all three
_LINES: TypeAdapter[tuple[Line, ...] | None] = TypeAdapter(tuple[Line, ...] | None)


def coloured(final: FinalPosition) -> dict[str, JSON]:
    """A final position as views show it: colours for team indexes."""
    return {
        "grid": [[None if v is None else COLOURS[v] for v in row] for row in final.grid],
        "lines": _LINES.dump_python(final.lines, mode="json"),
        "colour": None if final.team is None else COLOURS[final.team],
    }


def view(state: TrickTacFoeState, seat: Seat | None) -> dict[str, JSON]:
    """What ``seat`` may know (``None``: a spectator).

    Everyone: the grid, scores, round and trick progress, hand and deck sizes, who has committed, the
    cards revealed so far this round (current and previous trick (set), discard pile), the starting
    seat and which pair reveals first (4p), whose wild choice is pending, and once the game is over the
    grid it ended on (``final``). A seat also sees its own hand and its own committed card. Nobody sees a
    personal deck's cards, another seat's hand, or another seat's committed card before its pair's reveal
    (teammates included).
    """
    n = state.players
    labels = labels_for(n)
    me = seat if seat is not None and 0 <= seat < n else None
    perspective = labels[me] if me is not None else "South"
    seats: list[JSON] = []
    for s in range(n):
        team = team_of(n, s)
        card = state.committed[s]
        seats.append(
            {
                "seat": s,
                "direction": labels[s].lower(),
                "team": team,
                "colour": COLOURS[team],
                "hand_count": len(state.hands[s]),
                "deck_count": len(state.decks[s]),
                "committed": card is not None,
                "card": card if card is not None and state.revealed[s] else None,
                "rotation": ROTATION[labels[s]],
            }
        )
    teams: list[JSON] = [
        {
            "team": t,
            "colour": COLOURS[t],
            "seats": [s for s in range(n) if team_of(n, s) == t],
            "score": state.scores[t],
        }
        for t in (0, 1)
    ]
    grid: list[JSON] = [[None if v is None else COLOURS[v] for v in row] for row in state.grid]
    board: list[JSON] = []
    for k in range(1, 10):
        r, c = cell_for(perspective, k)
        v = state.grid[r][c]
        board.append({"number": k, "cell": [r, c], "token": None if v is None else COLOURS[v]})
    outcome = outcome_of(state)
    current, previous, history = _RECORDS.dump_python((state.current, state.previous, state.history), mode="json")
    return {
        "players": n,
        "one_shot": state.options.one_shot,
        "you": me,
        "your_team": team_of(n, me) if me is not None else None,
        "hand": sort_cards(state.hands[me]) if me is not None else None,
        "your_card": state.committed[me] if me is not None else None,
        "phase": state.phase,
        "wild_seat": state.wild_seat,
        "round": state.round,
        "rounds": state.rounds,
        "trick": state.trick,
        "tricks_in_round": 20 if n == 2 else 10,
        "start_seat": state.start,
        "first_pair": list(state.order[0]),
        "order": [list(pair) for pair in state.order],
        "step": state.step,
        "seats": seats,
        "teams": teams,
        "scores": list(state.scores),
        "grid": grid,
        "perspective": perspective.lower(),  # a direction key, like each seat's: pages phrase it
        "rotation": ROTATION[perspective],
        "numbers": numbering(perspective),
        "board": board,
        "current": current,
        "previous": previous,
        "discard": list(state.discard),
        "history": history,
        "outcome": outcome.to_json() if outcome is not None else None,
        "final": None if state.final is None else coloured(state.final),
    }
