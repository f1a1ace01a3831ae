"""Tri-Tac scenarios: exact positions for every rule of docs/games/tri-tac.md."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Iterable, Sequence
from typing import Any

import orjson
import pytest

from engines.base import Event, IllegalAction, InvalidOptions, LogEntry, Timer
from engines.registry import get_bot, get_engine
from engines.tri_tac.actions import Pass, Place, Power, TriTacAction, Vote
from engines.tri_tac.bots import BOT
from engines.tri_tac.rules import ENGINE
from engines.tri_tac.scoring import special_count
from engines.tri_tac.state import TriTacState

X, O = 0, 1  # noqa: E741
Cell = tuple[int, int]


# ---- helpers ------------------------------------------------------------------------------------


def new(seed: int = 0, **options: Any) -> TriTacState:
    return ENGINE.new_game(ENGINE.parse_options(options), seed)


def craft(
    rows: Sequence[str],
    *,
    to_move: int = X,
    scores: tuple[int, int] = (0, 0),
    special: Iterable[Cell] = (),
    **options: Any,
) -> TriTacState:
    """A position loaded through ``load``: rows of ``X``/``O``/``.``; nothing scored yet."""
    size = len(rows)
    assert all(len(row) == size for row in rows)
    data = ENGINE.dump(new(size=size, **options))
    data["board"] = [[{"X": X, "O": O, ".": None}[ch] for ch in row] for row in rows]
    data["special"] = sorted([r, c] for r, c in special)
    data["scores"] = list(scores)
    data["to_move"] = to_move
    return ENGINE.load(orjson.loads(orjson.dumps(data)))


def act(state: TriTacState, seat: int, action: TriTacAction) -> tuple[TriTacState, list[Event]]:
    """Play ``action`` for ``seat``; if it is the other player's turn, that player passes first."""
    if state.phase == "turn" and state.to_move != seat:
        state, _ = ENGINE.apply(state, 1 - seat, Pass())
    return ENGINE.apply(state, seat, action)


def place(state: TriTacState, seat: int, *cells: Cell) -> tuple[TriTacState, int]:
    """Place ``cells`` one by one for ``seat`` (the other player passes); returns the points of the last."""
    gained = 0
    for r, c in cells:
        before = state.scores[seat]
        state, _ = act(state, seat, Place(cell=(r, c)))
        gained = state.scores[seat] - before
    return state, gained


def lines_of(state: TriTacState) -> list[tuple[int, list[list[int]], int]]:
    return [(line.seat, [[r, c] for r, c in line.cells], line.points) for line in state.lines]


def scored(state: TriTacState, seat: int, direction: int) -> set[Cell]:
    return set(state.scored[seat][direction])


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def fill_except(size: int, empty: Sequence[Cell]) -> list[str]:
    """A full board with no run of three for anybody (pattern XXOO / OOXX by row pairs), except ``empty``."""
    rows = []
    for r in range(size):
        row = ""
        for c in range(size):
            row += "X" if ((c // 2) + (r % 2)) % 2 == 0 else "O"
        rows.append(row)
    out = [list(row) for row in rows]
    for r, c in empty:
        out[r][c] = "."
    return ["".join(row) for row in out]


# ---- registry, options, setup ---------------------------------------------------------------------


def test_registered_with_bot() -> None:
    assert get_engine("tri-tac") is ENGINE
    assert get_bot("tri-tac") is BOT
    assert ENGINE.title == "Tri-Tac"
    assert [s.label for s in ENGINE.seats(ENGINE.parse_options({}))] == ["Player 1", "Player 2"]


def test_default_options() -> None:
    opts = ENGINE.parse_options(None)
    assert opts.model_dump() == {
        "size": 5,
        "power_play": False,
        "combo_strike": False,
        "time_challenge": False,
        "time_seconds": 30,
        "dynamic_board": False,
        "special_squares": False,
    }
    schema = type(opts).model_json_schema()
    assert schema["properties"]["size"]["minimum"] == 3
    assert schema["properties"]["size"]["maximum"] == 12
    assert all("title" in p and "description" in p for p in schema["properties"].values())


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ({"size": 2}, "size"),
        ({"size": 13}, "size"),
        ({"size": "big"}, "size"),
        ({"time_seconds": 4}, "time_seconds"),
        ({"time_seconds": 301}, "time_seconds"),
        ({"power_play": "maybe"}, "power_play"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_options_validation_errors(raw: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidOptions, match=field):
        ENGINE.parse_options(raw)


def test_first_player_is_drawn_from_the_seed() -> None:
    firsts = {new(seed).to_move for seed in range(40)}
    assert firsts == {X, O}
    for seed in range(10):
        assert new(seed).to_move == new(seed).to_move == new(seed).first


@pytest.mark.parametrize(("size", "count"), [(3, 1), (4, 2), (5, 3), (6, 4), (7, 5), (12, 14)])
def test_special_square_count(size: int, count: int) -> None:
    assert special_count(size * size) == count
    for seed in range(3):
        state = new(seed, size=size, special_squares=True)
        assert len(state.special) == count
        assert all(0 <= r < size and 0 <= c < size for r, c in state.special)
    assert new(0, size=size).special == set()
    assert ENGINE.view(new(0, size=size, special_squares=True), None)["special"] == sorted(
        [r, c] for r, c in new(0, size=size, special_squares=True).special
    )


# ---- lines and points ------------------------------------------------------------------------------


def test_single_line_scores_one() -> None:
    state, gained = place(new(), X, (0, 0), (0, 1))
    assert gained == 0
    state, gained = place(state, X, (0, 2))
    assert gained == 1
    assert state.scores == (1, 0)
    assert lines_of(state) == [(X, [[0, 0], [0, 1], [0, 2]], 1)]
    assert scored(state, X, 0) == {(0, 0), (0, 1), (0, 2)}
    assert state.lines[0].direction == "row"


def test_two_crossing_lines_score_three() -> None:
    state = craft(["XX...", "..X..", "..X..", ".....", "....."])
    state, events = ENGINE.apply(state, X, Place(cell=(0, 2)))
    assert state.scores == (3, 0)
    (scoring,) = [e for e in events if e.kind == "lines"]
    assert scoring.public["breakdown"] == {"lines": 2, "bonus": 1, "special": 0, "combo": 0}
    assert scoring.public["points"] == 3


def test_three_crossing_lines_score_five() -> None:
    state = craft(["X.X..", ".XX..", "XX...", ".....", "....."])
    state, _ = ENGINE.apply(state, X, Place(cell=(2, 2)))
    assert state.scores == (5, 0)
    assert sorted(line.direction for line in state.lines) == ["column", "diagonal", "row"]


def test_four_crossing_lines_score_seven() -> None:
    state = craft(["X.X.X", ".XXX.", "XX...", ".....", "....."])
    state, _ = ENGINE.apply(state, X, Place(cell=(2, 2)))
    assert state.scores == (7, 0)
    assert len(state.lines) == 4


def test_lines_in_all_four_directions() -> None:
    cases = {
        "row": [(2, 0), (2, 1), (2, 2)],
        "column": [(0, 3), (1, 3), (2, 3)],
        "diagonal": [(1, 1), (2, 2), (3, 3)],
        "anti-diagonal": [(0, 4), (1, 3), (2, 2)],
    }
    for direction, cells in cases.items():
        state, gained = place(new(), O, *cells)
        assert gained == 1, direction
        assert [line.direction for line in state.lines] == [direction]
        assert state.lines[0].cells == tuple(cells)


def test_extension_scores_nothing() -> None:
    state, _ = place(new(), X, (0, 0), (0, 1), (0, 2))
    state, gained = place(state, X, (0, 3))
    assert gained == 0
    assert state.scores == (1, 0)
    assert scored(state, X, 0) == {(0, 0), (0, 1), (0, 2), (0, 3)}
    state, gained = place(state, X, (0, 4))
    assert gained == 0 and len(state.lines) == 1


def test_merging_two_scored_lines_scores_nothing() -> None:
    state, _ = place(new(size=7), X, (0, 0), (0, 1), (0, 2), (0, 4), (0, 5), (0, 6))
    assert state.scores == (2, 0)
    state, gained = place(state, X, (0, 3))
    assert gained == 0
    assert scored(state, X, 0) == {(0, c) for c in range(7)}


@pytest.mark.parametrize(
    ("row", "gap", "length"),
    [("XX.X.", 2, 4), ("XX.XX", 2, 5), ("X.XX.", 1, 4)],
)
def test_gap_fill_creating_a_fresh_long_run_scores_one(row: str, gap: int, length: int) -> None:
    state = craft([row, ".....", ".....", ".....", "....."])
    state, _ = ENGINE.apply(state, X, Place(cell=(0, gap)))
    assert state.scores == (1, 0)
    (line,) = state.lines
    assert len(line.cells) == length


def test_run_touching_a_scored_cell_scores_nothing_but_becomes_scored() -> None:
    state, _ = place(new(size=7), X, (0, 0), (0, 1), (0, 2), (0, 4), (0, 5))
    assert state.scores == (1, 0)
    # (0, 3) joins the scored row 0..2 with the unscored pair 4..5: nothing, but 3..5 become scored ...
    state, gained = place(state, X, (0, 3))
    assert gained == 0
    assert scored(state, X, 0) == {(0, c) for c in range(6)}
    # ... so 4..6 is not a fresh line later.
    state, gained = place(state, X, (0, 6))
    assert gained == 0
    # Other directions are independent: a column through a scored row cell still scores.
    state, gained = place(state, X, (1, 4), (2, 4))
    assert gained == 1
    assert state.scores == (2, 0)


def test_runs_shorter_than_three_never_become_scored() -> None:
    state, _ = place(new(), X, (0, 0), (0, 1))
    assert scored(state, X, 0) == set()
    state, gained = place(state, X, (0, 2))
    assert gained == 1


def test_opponent_markers_break_runs_and_players_score_independently() -> None:
    state = craft(["XXOXX", "OO...", ".....", ".....", "....."], to_move=O)
    state, _ = ENGINE.apply(state, O, Place(cell=(1, 2)))
    assert state.scores == (0, 1)
    assert lines_of(state) == [(O, [[1, 0], [1, 1], [1, 2]], 1)]


def test_special_square_line_is_worth_two_and_bonus_is_not_doubled() -> None:
    state = craft(["XX...", ".....", ".....", ".....", "....."], special=[(0, 1)], special_squares=True)
    state, _ = ENGINE.apply(state, X, Place(cell=(0, 2)))
    assert state.scores == (2, 0)
    assert lines_of(state) == [(X, [[0, 0], [0, 1], [0, 2]], 2)]
    # Two crossing lines, one through a special square: 2 + 1 + bonus 1 = 4.
    state = craft(["XX...", "..X..", "..X..", ".....", "....."], special=[(0, 0)], special_squares=True)
    state, events = ENGINE.apply(state, X, Place(cell=(0, 2)))
    assert state.scores == (4, 0)
    assert events[-1].public["breakdown"] == {"lines": 2, "bonus": 1, "special": 1, "combo": 0}
    # Both lines through the special square where they cross: 2 + 2 + bonus 1 = 5 (bonus not doubled).
    state = craft(["XX...", "..X..", "..X..", ".....", "....."], special=[(0, 2)], special_squares=True)
    state, events = ENGINE.apply(state, X, Place(cell=(0, 2)))
    assert state.scores == (5, 0)
    assert events[-1].public["breakdown"] == {"lines": 2, "bonus": 1, "special": 2, "combo": 0}


def test_combo_strike() -> None:
    rows = ["XX...", ".....", "XX...", ".....", "....."]
    for combo, expected in ((True, (3, 0)), (False, (2, 0))):
        state = craft(rows, combo_strike=combo)
        state, _ = ENGINE.apply(state, X, Place(cell=(0, 2)))
        state, _ = ENGINE.apply(state, O, Place(cell=(4, 4)))
        state, events = ENGINE.apply(state, X, Place(cell=(2, 2)))
        assert state.scores == expected
        assert events[-1].public["breakdown"]["combo"] == (1 if combo else 0)
    # It chains: a third scoring turn in a row gets +1 again.
    state = craft(["XX...", ".....", "XX...", ".....", "XX..."], combo_strike=True)
    for cell in ([0, 2], [2, 2], [4, 2]):
        state, _ = act(state, X, Place(cell=cell))
    assert state.scores == (1 + 2 + 2, 0)
    # A non-scoring turn in between breaks the streak ...
    state = craft(rows, combo_strike=True)
    state, _ = place(state, X, (0, 2), (4, 4), (2, 2))
    assert state.scores == (2, 0)
    # ... and so does a pass (a turn without score).
    state = craft(rows, combo_strike=True)
    state, _ = ENGINE.apply(state, X, Place(cell=(0, 2)))
    state, _ = ENGINE.apply(state, O, Pass())
    state, _ = ENGINE.apply(state, X, Pass())
    state, _ = ENGINE.apply(state, O, Pass())
    state, _ = ENGINE.apply(state, X, Place(cell=(2, 2)))
    assert state.scores == (2, 0)
    # The opponent's moves in between do not matter: only the player's own previous turn.
    view = ENGINE.view(state, None)
    assert view["combo_ready"] == [True, False]


# ---- Power Play --------------------------------------------------------------------------------------


def test_power_play_threshold_and_option() -> None:
    rows = ["OOO..", "XX...", ".....", ".....", "....."]
    state = craft(rows, scores=(4, 1), power_play=True)
    with pytest.raises(IllegalAction, match="at least 5 points"):
        ENGINE.apply(state, X, Power(cell=(0, 0)))
    assert not any(isinstance(a, Power) for a in ENGINE.legal_actions(state, X))
    off = craft(rows, scores=(5, 1))
    with pytest.raises(IllegalAction, match="not enabled") as refused:
        ENGINE.apply(off, X, Power(cell=(0, 0)))
    assert refused.value.code == "tri-tac.error.power_off"
    on = craft(rows, scores=(5, 1), power_play=True)
    powers = [a.cell for a in ENGINE.legal_actions(on, X) if isinstance(a, Power)]
    assert powers == [(0, 0), (0, 1), (0, 2)]
    assert ENGINE.view(on, None)["power_play"] == [
        {"used": False, "available": True},
        {"used": False, "available": False},
    ]


def test_power_play_targets_only_opponent_markers() -> None:
    state = craft(["OOO..", "XX...", ".....", ".....", "....."], scores=(5, 1), power_play=True)
    with pytest.raises(IllegalAction, match="your own marker"):
        ENGINE.apply(state, X, Power(cell=(1, 0)))
    with pytest.raises(IllegalAction, match="empty"):
        ENGINE.apply(state, X, Power(cell=(4, 4)))


def test_power_play_scores_like_a_placement_and_opponent_keeps_points() -> None:
    state, _ = place(new(power_play=True), O, (1, 0), (1, 1), (1, 2))
    assert state.scores == (0, 1)
    assert scored(state, O, 0) == {(1, 0), (1, 1), (1, 2)}
    data = ENGINE.dump(state)
    data["scores"] = [5, 1]
    data["board"][0][2] = X
    data["board"][2][2] = X
    state = ENGINE.load(data)
    state, events = act(state, X, Power(cell=(1, 2)))
    assert kinds(events) == ["power", "lines"]
    assert state.board[1][2] == X
    assert state.scores == (5 + 1, 1)  # the column (0..2, 2) is X's new line; O keeps its point
    assert lines_of(state)[-1] == (X, [[0, 2], [1, 2], [2, 2]], 1)
    assert all((1, 2) not in cells for cells in state.scored[O])
    assert scored(state, O, 0) == {(1, 0), (1, 1)}
    view = ENGINE.view(state, None)
    assert [line["broken"] for line in view["lines"]] == [True, False]
    assert view["power_play"] == [{"used": True, "available": False}, {"used": False, "available": False}]
    # Once per game.
    state, _ = place(state, O, (4, 4))
    with pytest.raises(IllegalAction, match="already used"):
        ENGINE.apply(state, X, Power(cell=(4, 4)))
    assert not any(isinstance(a, Power) for a in ENGINE.legal_actions(state, X))


def test_power_play_scores_crossing_lines_and_keeps_combo_rules() -> None:
    state = craft(["XXO..", "..X..", "..X..", ".....", "....."], scores=(5, 0), power_play=True, combo_strike=True)
    state, events = ENGINE.apply(state, X, Power(cell=(0, 2)))
    assert state.scores == (5 + 3, 0)
    assert events[-1].public["breakdown"] == {"lines": 2, "bonus": 1, "special": 0, "combo": 0}


# ---- Time Challenge ------------------------------------------------------------------------------------


def test_time_challenge_pass_and_timer_keys() -> None:
    assert ENGINE.timer(new()) is None
    state = new(3, time_challenge=True, time_seconds=12)
    first = state.to_move
    assert ENGINE.timer(state) == Timer(key="turn-1", seconds=12)
    assert ENGINE.timeout_action(state, first) == Pass()
    assert Pass() not in ENGINE.legal_actions(state, first)
    with pytest.raises(IllegalAction, match="turn"):
        ENGINE.apply(state, 1 - first, Pass())
    state, events = ENGINE.apply(state, first, ENGINE.timeout_action(state, first))
    assert kinds(events) == ["pass"]
    assert state.to_move == 1 - first
    assert state.board == new(3).board
    assert ENGINE.timer(state) == Timer(key="turn-2", seconds=12)
    assert logged(new(3), first, Pass()) == [("tri-tac.log.passed", {"seat": first})]
    state, _ = ENGINE.apply(state, 1 - first, Place(cell=(0, 0)))
    assert ENGINE.timer(state) == Timer(key="turn-3", seconds=12)
    assert ENGINE.view(state, None)["last_move"]["type"] == "place"


# ---- Dynamic Board --------------------------------------------------------------------------------------


def _full_3x3_before_last(**options: Any) -> TriTacState:
    """3×3, X scored the top row, one empty cell (2, 2) with X to move."""
    state = craft(["...", "XOO", "OX."], special=[(1, 1)], special_squares=True, **options)
    state, gained = place(state, X, (0, 0), (0, 1), (0, 2))  # O passes in between
    assert gained == 1 and state.to_move == O
    return state


def test_dynamic_board_both_yes_grows_the_board() -> None:
    state = _full_3x3_before_last(dynamic_board=True)
    assert [tuple(c) for c in state.special] == [(1, 1)]
    state, events = act(state, X, Place(cell=(2, 2)))
    assert state.phase == "vote" and kinds(events)[-1] == "vote_open"
    assert ENGINE.to_act(state) == frozenset({X, O})
    assert ENGINE.legal_actions(state, X) == [
        Vote(expand=True),
        Vote(expand=False),
    ]
    next_mover = state.to_move
    with pytest.raises(IllegalAction, match="vote"):
        ENGINE.apply(state, next_mover, Place(cell=(0, 0)))
    assert logged(state, O, Vote(expand=True)) == [("tri-tac.log.voted", {"seat": O})]
    state, events = ENGINE.apply(state, O, Vote(expand=True))
    assert ENGINE.to_act(state) == frozenset({X})
    # Who voted is public, how is not (only the voter sees their own ballot).
    assert events[0].redact(None) == {"kind": "vote", "seat": O}
    assert events[0].redact(X) == {"kind": "vote", "seat": O}
    assert events[0].redact(O) == {"kind": "vote", "seat": O, "expand": True}
    assert ENGINE.view(state, X)["votes"] == [
        {"voted": False, "expand": None},
        {"voted": True, "expand": None},
    ]
    assert ENGINE.view(state, O)["votes"][O] == {"voted": True, "expand": True}
    assert not ENGINE.same_view_for_all(state), "a ballot is private: one view per seat while voting"
    with pytest.raises(IllegalAction, match="already voted"):
        ENGINE.apply(state, O, Vote(expand=False))
    assert logged(state, X, Vote(expand=True)) == [("tri-tac.log.voted_grow", {"seat": X, "size": 5})]
    state, events = ENGINE.apply(state, X, Vote(expand=True))
    assert kinds(events) == ["vote", "vote_result", "expanded"]
    assert events[1].public == {"votes": [True, True], "expanded": True}
    assert state.phase == "turn" and state.size == 5 and state.to_move == next_mover
    assert ENGINE.same_view_for_all(state)
    assert ENGINE.view(state, None)["board"] == [
        [None, None, None, None, None],
        [None, X, X, X, None],
        [None, X, O, O, None],
        [None, O, X, X, None],
        [None, None, None, None, None],
    ]
    assert scored(state, X, 0) == {(1, 1), (1, 2), (1, 3)}
    assert lines_of(state) == [(X, [[1, 1], [1, 2], [1, 3]], 1)]
    # Special squares: the old one moved to (2, 2); the 16-cell ring got round(1.6) = 2 more, in the ring.
    added = {(r, c) for r, c in events[2].public["special_added"]}
    assert len(added) == 2 and state.special == {(2, 2)} | added
    assert all(r in (0, 4) or c in (0, 4) for r, c in added)
    assert ENGINE.view(state, None)["last_vote"] == {"votes": [True, True], "expanded": True, "size": 3}
    # The shifted scored row still counts as scored: extending it scores nothing.
    state, gained = place(state, X, (1, 4))
    assert gained == 0


def test_dynamic_board_one_no_ends_the_game() -> None:
    for ballots in ((True, False), (False, True), (False, False)):
        state = _full_3x3_before_last(dynamic_board=True, time_challenge=True)
        state, _ = act(state, X, Place(cell=(2, 2)))
        assert ENGINE.timer(state) == Timer(key="vote-3", seconds=30)
        assert ENGINE.timeout_action(state, X) == Vote(expand=False)
        state, _ = ENGINE.apply(state, X, Vote(expand=ballots[0]))
        state, events = ENGINE.apply(state, O, Vote(expand=ballots[1]))
        assert kinds(events) == ["vote", "vote_result", "game_over"]
        assert state.phase == "over" and state.size == 3
        assert ENGINE.to_act(state) == frozenset()
        assert ENGINE.outcome(state) is not None
        assert ENGINE.view(state, None)["last_vote"] == {"votes": list(ballots), "expanded": False, "size": 3}


def test_dynamic_board_growth_is_seeded() -> None:
    def grown(seed: int) -> set[Cell]:
        data = ENGINE.dump(_full_3x3_before_last(dynamic_board=True))
        data["ring_seed"] = seed
        state, _ = act(ENGINE.load(data), X, Place(cell=(2, 2)))
        state, _ = ENGINE.apply(state, X, Vote(expand=True))
        state, _ = ENGINE.apply(state, O, Vote(expand=True))
        return state.special

    assert grown(1) == grown(1)
    assert len({frozenset(grown(s)) for s in range(8)}) > 1


@pytest.mark.parametrize(("size", "votes"), [(10, True), (11, False), (12, False)])
def test_dynamic_board_no_vote_beyond_twelve(size: int, votes: bool) -> None:
    state = craft(fill_except(size, [(0, 0)]), dynamic_board=True)
    state, events = ENGINE.apply(state, X, Place(cell=(0, 0)))
    assert state.phase == ("vote" if votes else "over")
    if votes:
        state, _ = ENGINE.apply(state, X, Vote(expand=True))
        state, _ = ENGINE.apply(state, O, Vote(expand=True))
        assert state.size == 12 and state.phase == "turn"
    else:
        assert kinds(events)[-1] == "game_over"


def test_without_dynamic_board_a_full_board_ends_the_game() -> None:
    state = craft(fill_except(5, [(4, 4)]))
    state, events = ENGINE.apply(state, X, Place(cell=(4, 4)))
    assert state.phase == "over" and kinds(events)[-1] == "game_over"
    with pytest.raises(IllegalAction, match="over"):
        ENGINE.apply(state, O, Vote(expand=True))


# ---- outcome ---------------------------------------------------------------------------------------------


def test_draw_on_equal_scores() -> None:
    state = craft(fill_except(5, [(4, 4)]), scores=(3, 3))
    state, events = ENGINE.apply(state, X, Place(cell=(4, 4)))
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.winners == [] and outcome.ranks == [0, 0] and outcome.scores == [3.0, 3.0]
    assert outcome.summary == LogEntry("tri-tac.result.draw", {"points": 3})
    assert events[-1].public["winners"] == []


def test_most_points_wins() -> None:
    state = craft(fill_except(5, [(4, 4)]), scores=(2, 6))
    state, _ = ENGINE.apply(state, X, Place(cell=(4, 4)))
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.winners == [O] and outcome.ranks == [1, 0]
    assert outcome.summary == LogEntry("tri-tac.result.won", {"seat": O, "points": 6, "other_points": 2})
    assert ENGINE.outcome(new()) is None


# ---- protocol details ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "code", "params"),
    [
        ({"type": "place", "cell": [0, 0]}, "tri-tac.error.cell_taken", {"cell": [0, 0]}),
        ({"type": "place", "cell": [5, 0]}, "tri-tac.error.off_board", {"size": 5}),
        ({"type": "place", "cell": [-1, 0]}, "tri-tac.error.off_board", {"size": 5}),
        ({"type": "place", "cell": [True, 0]}, "tri-tac.error.bad_cell", {}),
        ({"type": "place", "cell": [1]}, "tri-tac.error.bad_cell", {}),
        ({"type": "place", "cell": "1,1"}, "tri-tac.error.bad_cell", {}),
        ({"type": "place"}, "tri-tac.error.bad_cell", {}),
        ({"type": "place", "cell": [1, 1], "extra": 1}, "action.unexpected_fields", {"fields": ["extra"]}),
        ({"type": "vote", "expand": True}, "tri-tac.error.no_vote", {}),
        ({"type": "vote", "expand": "yes"}, "tri-tac.error.bad_vote", {}),
        (
            {"type": "teleport"},
            "action.unknown_type",
            {"type": "teleport", "expected": ["place", "power", "vote", "pass"]},
        ),
    ],
)
def test_illegal_actions(action: dict[str, Any], code: str, params: dict[str, Any]) -> None:
    state = craft(["X....", ".....", ".....", ".....", "....."], to_move=O)
    before = ENGINE.dump(state)
    with pytest.raises(IllegalAction) as refused:
        ENGINE.apply(state, O, ENGINE.parse_action(action))
    assert refused.value.reason() == {"key": code, "params": params}
    assert ENGINE.dump(state) == before
    with pytest.raises(IllegalAction) as refused:
        ENGINE.apply(state, X, Place(cell=(1, 1)))
    assert refused.value.reason() == {"key": "action.turn_of", "params": {"seat": O}}
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 2, Place(cell=(1, 1)))


def test_view_is_public_json() -> None:
    state = new(7, special_squares=True, combo_strike=True)
    state, _ = place(state, X, (0, 0), (0, 1), (0, 2))
    view = ENGINE.view(state, None)
    assert view == ENGINE.view(state, X) == ENGINE.view(state, O)
    assert orjson.loads(orjson.dumps(view)) == view
    assert set(view) == {
        "size", "board", "markers", "special", "scores", "first", "to_move", "phase", "votes", "last_vote",
        "power_play", "combo_ready", "lines", "last_move", "move", "options",
    }  # fmt: skip
    assert view["phase"] == "turn" and view["votes"] is None and view["power_play"] is None
    assert view["lines"][0]["cells"] == [[0, 0], [0, 1], [0, 2]]
    assert view["lines"][0]["seat"] == X and view["lines"][0]["broken"] is False
    assert view["last_move"]["cell"] == [0, 2] and view["last_move"]["seat"] == X
    assert view["move"] == state.move
    assert "ring_seed" not in orjson.dumps(view).decode()


def test_log_entries() -> None:
    state = craft(["XX...", ".....", ".....", ".....", "....."])
    assert logged(state, X, Place(cell=(0, 2))) == [
        ("tri-tac.log.placed_scored", {"seat": X, "cell": [0, 2], "points": 1, "lines": 1})
    ]
    assert logged(state, X, Place(cell=(3, 3))) == [("tri-tac.log.placed", {"seat": X, "cell": [3, 3]})]


def logged(state: TriTacState, seat: int, action: TriTacAction) -> list[tuple[str, dict[str, Any]]]:
    """The log entries of an action, as (key, params)."""
    entries = ENGINE.log_entries(state, seat, action, ENGINE.apply(state, seat, action))
    return [(entry.key, dict(entry.params)) for entry in entries]


def test_dump_load_round_trip_with_everything_on() -> None:
    state = new(5, size=3, special_squares=True, dynamic_board=True, power_play=True, combo_strike=True)
    rng = random.Random(0)
    while ENGINE.to_act(state):
        data = orjson.loads(orjson.dumps(ENGINE.dump(state)))
        assert ENGINE.dump(ENGINE.load(data)) == data
        seat = min(ENGINE.to_act(state))
        state, _ = ENGINE.apply(state, seat, BOT.choose(state, seat, rng))
    assert state.size >= 3


# ---- bot -------------------------------------------------------------------------------------------------


def test_bot_takes_a_line_and_blocks_one() -> None:
    rng = random.Random(0)
    # Its own crossing lines (3) beat blocking the opponent's single line (1).
    state = craft(["XX...", "..X..", "..X..", ".....", "OO..."])
    assert BOT.choose(state, X, rng) == Place(cell=(0, 2))
    state = craft(["X....", ".....", "OO...", ".....", "....."])
    assert BOT.choose(state, X, rng) == Place(cell=(2, 2))


def test_bot_votes() -> None:
    state = _full_3x3_before_last(dynamic_board=True)
    state, _ = act(state, X, Place(cell=(2, 2)))
    assert state.scores == (1, 0)
    assert BOT.choose(state, X, random.Random(0)) == Vote(expand=True)
    assert BOT.choose(state, O, random.Random(0)) == Vote(expand=False)


def test_bot_beats_random_and_is_fast() -> None:
    wins = 0
    for game in range(20):
        bot_seat = game % 2
        rng = random.Random(game)
        state = new(game)
        while ENGINE.to_act(state):
            seat = state.to_move
            bot_turn = seat == bot_seat
            action = BOT.choose(state, seat, rng) if bot_turn else rng.choice(ENGINE.legal_actions(state, seat))
            state, _ = ENGINE.apply(state, seat, action)
        outcome = ENGINE.outcome(state)
        assert outcome is not None
        wins += outcome.winners == [bot_seat]
    assert wins >= 18
    # Speed on the largest board, everything on.
    state = new(1, size=12, power_play=True, combo_strike=True, special_squares=True)
    rng = random.Random(1)
    timings = []
    for _ in range(40):
        seat = state.to_move
        start = time.perf_counter()
        action = BOT.choose(state, seat, rng)
        timings.append(time.perf_counter() - start)
        state, _ = ENGINE.apply(state, seat, action)
    assert statistics.median(timings) < 0.05
