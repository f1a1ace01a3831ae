"""Tic Tac Top: scenario tests for every rule of docs/games/tic-tac-top.md, hidden information and the bot."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import orjson
import pytest

import engines.tic_tac_top.themes as decks
from engines.base import IllegalAction, InvalidOptions, LogEntry, Timer
from engines.tic_tac_top.actions import (
    ChooseTheme,
    Clear,
    Done,
    Draft,
    Lock,
    Next,
    PlaceWord,
    Rank,
    TicTacTopAction,
)
from engines.tic_tac_top.bots import BOT, centrality, preference
from engines.tic_tac_top.grid import grid_lines, grid_marks
from engines.tic_tac_top.rules import ENGINE
from engines.tic_tac_top.scoring import score_turn
from engines.tic_tac_top.state import TicTacTopState

LETTERS = list("ABCDEFGHIJKL")
RANKING = list("ABCDEFG")  # the Leader's 7 words in scoring tests; H..L are never announced


def letter_themes(k: int) -> list[dict[str, Any]]:
    """k custom themes, all with the words A..L (easy to script)."""
    return [{"name": f"Theme {i}", "words": LETTERS} for i in range(k)]


def unique_themes(k: int) -> list[dict[str, Any]]:
    """k custom themes with words that cannot appear by accident in any other text."""
    return [{"name": f"Theme {i}", "words": [f"qz{i}w{j}" for j in range(12)]} for i in range(k)]


def new(players: int = 4, seed: int = 1, **options: Any) -> TicTacTopState:
    raw: dict[str, Any] = {"players": players, "custom_themes": letter_themes(2 * players), "custom_only": True}
    raw.update(options)
    return ENGINE.new_game(ENGINE.parse_options(raw), seed)


def g(text: str) -> list[str | None]:
    """A grid from 'ABC/DEF/GHI' ('.' = blank)."""
    cells = [c for c in text if c != "/"]
    assert len(cells) == 9
    return [None if c == "." else c for c in cells]


def act(state: TicTacTopState, seat: int, action: TicTacTopAction) -> TicTacTopState:
    state, _ = ENGINE.apply(state, seat, action)
    return state


def fill(state: TicTacTopState, seat: int, grid: list[str | None]) -> TicTacTopState:
    for cell, word in enumerate(grid):
        if word is not None:
            state = act(state, seat, PlaceWord(cell=cell, word=word))
    return state


def play_turn(
    state: TicTacTopState, grids: dict[int, list[str | None]], ranking: list[str]
) -> tuple[TicTacTopState, list[Any]]:
    """Choose theme 0, fill the grids, finish them, rank, announce all 7; returns the events of the 7th."""
    leader = state.leader
    state = act(state, leader, ChooseTheme(index=0))
    for seat, grid in grids.items():
        state = act(fill(state, seat, grid), seat, Done())
    state = act(state, leader, Rank(words=tuple(ranking)))
    assert state.phase == "reveal"
    events: list[Any] = []
    for _ in range(7):
        state, events = ENGINE.apply(state, leader, Next())
    return state, events


def rows(scoring: dict[str, Any]) -> list[tuple[str, int, int]]:
    return [(r["part"], r["seat"], r["points"]) for r in scoring["rows"]]


@pytest.fixture
def fixture_deck(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A tiny deck (20 themes per language) standing in for engines/tic_tac_top/decks/."""
    for lang in ("en", "fr"):
        themes = [{"name": f"{lang} {i}", "words": [f"{lang}{i}-{j}" for j in range(12)]} for i in range(20)]
        (tmp_path / f"{lang}.json").write_text(json.dumps(themes), encoding="utf-8")
    monkeypatch.setattr(decks, "DECK_DIR", tmp_path)
    return tmp_path


# ---- options ------------------------------------------------------------------------------------


def test_default_options() -> None:
    o = ENGINE.parse_options({})
    assert (o.players, o.language, o.hard_timer, o.quick_game, o.custom_only, o.reveal_pause) == (
        4,
        "en",
        False,
        False,
        False,
        3.0,
    )
    assert [s.label for s in ENGINE.seats(o)] == ["Player 1", "Player 2", "Player 3", "Player 4"]


@pytest.mark.parametrize("players", [2, 8])
def test_player_count_bounds(players: int) -> None:
    with pytest.raises(InvalidOptions):
        ENGINE.parse_options({"players": players})


def test_quick_game_needs_six_or_seven_players() -> None:
    for players in (3, 4, 5):
        with pytest.raises(InvalidOptions, match="6 or 7 players"):
            ENGINE.parse_options({"players": players, "quick_game": True})
    for players in (6, 7):
        assert ENGINE.parse_options({"players": players, "quick_game": True}).quick_game


@pytest.mark.parametrize(
    ("theme", "reason"),
    [
        ({"name": "Short", "words": LETTERS[:11]}, "exactly 12"),
        ({"name": "Dup", "words": [*LETTERS[:11], "a"]}, "twice"),
        ({"name": "Blank", "words": [*LETTERS[:11], "   "]}, "1–40"),
        ({"name": "Long", "words": [*LETTERS[:11], "x" * 41]}, "1–40"),
        ({"name": "  ", "words": LETTERS}, "theme name"),
        ({"name": "Bad", "words": "ABCDEFGHIJKL"}, "list of strings"),
        ({"name": "Extra", "words": LETTERS, "colour": "red"}, "Extra inputs"),
    ],
)
def test_custom_theme_validation(theme: dict[str, Any], reason: str) -> None:
    with pytest.raises(InvalidOptions, match=reason):
        ENGINE.parse_options({"custom_themes": [theme]})


def test_custom_themes_are_trimmed() -> None:
    o = ENGINE.parse_options({"custom_themes": [{"name": "  Pizza  night ", "words": [f" {w} " for w in LETTERS]}]})
    assert o.custom_themes[0].name == "Pizza night"
    assert o.custom_themes[0].words == tuple(LETTERS)
    # Options round-trip through their JSON form (the state stores them so).
    assert ENGINE.parse_options(o.model_dump(mode="json")) == o


def test_custom_only_needs_a_theme_per_turn() -> None:
    with pytest.raises(InvalidOptions, match="at least one theme per turn"):
        ENGINE.parse_options({"players": 4, "custom_themes": letter_themes(3), "custom_only": True})


@pytest.mark.parametrize("options", [{"reveal_pause": 0.5}, {"reveal_pause": 11}, {"language": "de"}, {"colour": 1}])
def test_other_option_bounds(options: dict[str, Any]) -> None:
    with pytest.raises(InvalidOptions):
        ENGINE.parse_options(options)


# ---- themes -------------------------------------------------------------------------------------


def test_deck_offers_two_fresh_themes_per_turn(fixture_deck: Path) -> None:
    state = ENGINE.new_game(ENGINE.parse_options({"players": 7, "language": "fr"}), 5)
    assert [len(o) for o in state.offers] == [2] * 7
    names = [t.name for offer in state.offers for t in offer]
    assert len(set(names)) == 14 and all(n.startswith("fr ") for n in names)
    # Deterministic from the seed, different for another seed.
    again = ENGINE.new_game(ENGINE.parse_options({"players": 7, "language": "fr"}), 5)
    other = ENGINE.new_game(ENGINE.parse_options({"players": 7, "language": "fr"}), 6)
    assert ENGINE.dump(again) == ENGINE.dump(state) != ENGINE.dump(other)


def test_custom_themes_come_first_then_the_deck(fixture_deck: Path) -> None:
    options = ENGINE.parse_options({"players": 3, "custom_themes": unique_themes(3)})
    state = ENGINE.new_game(options, 2)
    names = [t.name for offer in state.offers for t in offer]
    assert sorted(names[:3]) == ["Theme 0", "Theme 1", "Theme 2"]
    assert all(n.startswith("en ") for n in names[3:])


def test_custom_only_deals_pairs_then_singles() -> None:
    state = ENGINE.new_game(
        ENGINE.parse_options({"players": 4, "custom_themes": unique_themes(5), "custom_only": True}), 3
    )
    assert [len(o) for o in state.offers] == [2, 1, 1, 1]
    assert len({t.name for o in state.offers for t in o}) == 5
    # A single offer: only index 0.
    state = act(state, 0, ChooseTheme(index=0))
    for seat in (1, 2, 3):
        state = act(state, seat, Done())
    state = act(state, 0, Rank(words=tuple(list(state.theme.words[:7]))))  # type: ignore[union-attr]
    for _ in range(8):
        state = act(state, 0, Next())
    assert state.turn == 2 and ENGINE.legal_actions(state, 1) == [ChooseTheme(index=0)]
    with pytest.raises(IllegalAction) as refused:
        ENGINE.apply(state, 1, ChooseTheme(index=1))
    assert refused.value.reason() == {"key": "tic-tac-top.error.bad_theme", "params": {"themes": 1}}


def test_missing_deck_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(decks, "DECK_DIR", tmp_path)
    with pytest.raises(InvalidOptions, match="no 'en' theme deck"):
        ENGINE.new_game(ENGINE.parse_options({}), 1)


def test_a_malformed_deck_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "en.json").write_text(json.dumps([{"name": "X", "words": ["a"] * 12}]), encoding="utf-8")
    monkeypatch.setattr(decks, "DECK_DIR", tmp_path)
    with pytest.raises(InvalidOptions, match="theme #0"):
        ENGINE.new_game(ENGINE.parse_options({}), 1)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_real_decks_load(language: str) -> None:
    path = Path(decks.__file__).parent / "decks" / f"{language}.json"
    assert path.exists(), f"{path} is missing"
    deck = decks.load_deck(language)
    assert len(deck) >= 120
    assert len({t.name.casefold() for t in deck}) == len(deck)


# ---- scoring on hand-built grids ----------------------------------------------------------------


def test_no_line_at_all() -> None:
    grids = [None, g("HIJ/KLA/B.."), g("ABH/IJC/KLD"), g(".........")]
    s = score_turn(RANKING, grids, leader=0).to_json()
    assert s["first_line"] is None and s["max_lines"] == 0
    assert s["points"] == [0, 0, 0, 0]
    assert rows(s) == [("A", 0, 0), ("B", 0, 0), ("D", 1, 0), ("D", 2, 0), ("D", 3, 0)]


def test_first_line_on_the_third_word() -> None:
    grids = [None, g("ABC/HIJ/KLD"), g("HIJ/KLA/BCD"), g("HIJ/KLA/B..")]
    s = score_turn(RANKING, grids, leader=0).to_json()
    assert s["first_line"] == {"index": 3, "word": "C", "seats": [1]}
    assert s["lines_by_seat"] == [None, 1, 1, 0]
    assert s["first_line_by_seat"] == [None, 3, 4, None]
    # Leader: A = +3 (3rd word), B = max(0, 1 - 1) = 0. Player 2: C + D; player 3 (line on word 4): D only.
    assert rows(s) == [("A", 0, 3), ("C", 1, 2), ("B", 0, 0), ("D", 1, 1), ("D", 2, 1), ("D", 3, 0)]
    assert s["points"] == [3, 3, 1, 0]


def test_first_line_tie_gives_every_player_the_bonus_and_the_leader_once() -> None:
    # Seats 1 and 2 both complete their first line on the 4th word (D); seat 3 only on the 5th.
    grids = [None, g("ABD/HIJ/KL."), g("DHI/AJK/CL."), g("AEB/HIJ/KL.")]
    s = score_turn(RANKING, grids, leader=0).to_json()
    assert s["first_line"] == {"index": 4, "word": "D", "seats": [1, 2]}
    assert rows(s) == [
        ("A", 0, 2),
        ("C", 1, 2),
        ("C", 2, 2),
        ("B", 0, 0),
        ("D", 1, 1),
        ("D", 2, 1),
        ("D", 3, 1),
    ]
    assert s["points"] == [2, 3, 3, 1]


def test_two_lines_on_the_same_word() -> None:
    # The centre (E, 5th word) completes the middle row and the middle column at once.
    grids = [g("........."), None, g("HAI/BEC/JDK"), g("HIJ/KL./...")]
    s = score_turn(RANKING, grids, leader=1).to_json()
    assert s["lines_by_seat"] == [0, None, 2, 0]
    assert s["first_line"] == {"index": 5, "word": "E", "seats": [2]}
    # The first-line bonus is +2 once, not per line; the Leader: A = +1 (5th word) and B = 2 - 1.
    assert rows(s) == [("A", 1, 1), ("C", 2, 2), ("B", 1, 1), ("D", 0, 0), ("D", 2, 2), ("D", 3, 0)]
    assert s["points"] == [0, 2, 4, 0]


def test_a_first_line_after_the_fifth_word_gives_the_leader_no_bonus() -> None:
    grids = [None, g("AHI/JFK/LBG"), g(".........")]  # the diagonal A, F, G completes on the 7th word
    s = score_turn(RANKING, grids, leader=0).to_json()
    assert s["first_line"] == {"index": 7, "word": "G", "seats": [1]}
    assert s["rows"][0]["reason"] == {"key": "tic-tac-top.reason.first_line_late", "params": {"word_number": 7}}
    assert rows(s)[:3] == [("A", 0, 0), ("C", 1, 2), ("B", 0, 0)]


@pytest.mark.parametrize(
    ("grid", "m", "b"),
    [
        ("HIJ/KLA/BCD", 1, 0),  # M = 1 -> 0
        ("ABC/DEF/HIJ", 2, 1),  # two rows
        ("ABC/DEH/FIJ", 3, 2),  # the top row, the left column, the anti-diagonal
        ("ABC/DEF/GHI", 4, 3),  # two rows, the left column, the anti-diagonal
        ("AHB/CDE/FIG", 5, 4),  # the maximum: the two blanks on opposite edges
    ],
)
def test_leader_b_is_max_lines_minus_one(grid: str, m: int, b: int) -> None:
    s = score_turn(RANKING, [None, g(grid), g(".........")], leader=0).to_json()
    assert s["max_lines"] == m
    assert [r for r in rows(s) if r[0] == "B"] == [("B", 0, b)]


def test_five_lines_is_the_maximum() -> None:
    # 7 announced words circle 7 of 9 cells: over every choice of the 2 uncircled cells, at most 5 lines.
    best = 0
    for blanks in itertools.combinations(range(9), 2):
        marks = [None if c in blanks else 1 for c in range(9)]
        best = max(best, len(grid_lines(marks)))
    assert best == 5
    s = score_turn(RANKING, [None, g("AHB/CDE/FIG")], leader=0).to_json()
    assert s["lines_by_seat"] == [None, 5] and s["points"] == [1 + 4, 2 + 5]
    # The cap holds even for a grid no game can produce (the same word in every cell: 8 lines).
    s = score_turn(RANKING, [None, ["A"] * 9], leader=0).to_json()
    assert s["lines_by_seat"] == [None, 5]


def test_blank_cells_never_match() -> None:
    grid = g("AB./CD./EFG")
    marks = grid_marks(grid, RANKING)
    assert marks == [1, 2, None, 3, 4, None, 5, 6, 7]
    lines = grid_lines(marks)
    assert lines == [(5, (0, 3, 6)), (6, (1, 4, 7)), (7, (6, 7, 8)), (7, (0, 4, 8))]
    s = score_turn(RANKING, [None, grid, g(".........")], leader=0).to_json()
    assert s["lines_by_seat"] == [None, 4, 0]


# ---- a turn through the engine ------------------------------------------------------------------


def test_leader_rotates_clockwise_and_everyone_leads_once() -> None:
    state = new(players=5)
    leaders = []
    while state.phase != "over":
        leaders.append(state.leader)
        assert ENGINE.to_act(state) == {state.leader}
        others = [s for s in range(5) if s != state.leader]
        with pytest.raises(IllegalAction, match="only the Leader") as refused:
            ENGINE.apply(state, others[0], ChooseTheme(index=0))
        assert refused.value.reason() == {"key": "tic-tac-top.error.leader_chooses", "params": {"seat": state.leader}}
        state, _ = play_turn(state, {s: g("ABC/DEF/GHI") for s in others}, RANKING)
        if state.phase == "score":
            assert ENGINE.timer(state) == Timer(f"score-{state.turn}", 8.0)
            state = act(state, state.leader, Next())
    assert leaders == [0, 1, 2, 3, 4]
    outcome = ENGINE.outcome(state)
    assert outcome is not None and ENGINE.to_act(state) == frozenset()


def test_choose_shows_both_names_to_all_and_words_to_the_leader() -> None:
    state = new()
    names = [t.name for t in state.offers[0]]
    leader_view = ENGINE.view(state, 0)
    assert leader_view["offered"] == [{"name": n, "words": LETTERS} for n in names]
    for viewer in (None, 1, 2, 3):
        v = ENGINE.view(state, viewer)
        assert v["offered"] == [{"name": n} for n in names] and v["theme"] is None
    state, events = ENGINE.apply(state, 0, ChooseTheme(index=1))
    assert state.theme == state.offers[0][1] and state.phase == "write"
    assert events[0].kind == "theme_chosen" and events[0].public["discarded"] == [names[0]]
    assert ENGINE.view(state, None)["theme"] == {"name": names[1], "words": LETTERS}


def test_countdown_locks_unfinished_grids_as_they_are() -> None:
    state = act(new(), 0, ChooseTheme(index=0))
    assert ENGINE.timer(state) is None  # no hard timer: writing is open until the Leader submits
    state = act(fill(state, 1, g("ABC/.../...")), 1, Done())
    state = fill(state, 2, g("DE./F../..."))
    state = act(state, 0, Draft(words=tuple(["A", "B"])))
    assert ENGINE.to_act(state) == {0, 2, 3}
    state, events = ENGINE.apply(state, 0, Rank(words=tuple(RANKING)))
    assert events[0].public == {"seat": 0, "countdown": 5.0}
    assert ENGINE.timer(state) == Timer("close-1", 5.0)
    assert ENGINE.to_act(state) == {2, 3}
    # Other players' moves do not change the countdown's key (the server does not restart it).
    state = act(state, 2, PlaceWord(cell=8, word="G"))
    assert ENGINE.timer(state) == Timer("close-1", 5.0)
    assert ENGINE.view(state, None)["countdown"] is True
    # Time is up: the server applies the timeout action of every seat still to act.
    for seat in sorted(ENGINE.to_act(state)):
        assert ENGINE.timeout_action(state, seat) == Lock()
        state, events = ENGINE.apply(state, seat, ENGINE.timeout_action(state, seat))
    assert state.phase == "reveal" and events[-1].kind == "writing_closed"
    assert events[-1].public["grids"] == [None, g("ABC/.../..."), g("DE./F../..G"), g(".........")]
    assert state.finished == (None, "done", "locked", "locked")
    assert ENGINE.timer(state) == Timer("reveal-1-0", 3.0)


def test_hard_timer_locks_everyone_and_completes_the_leaders_ranking() -> None:
    for leader_first in (True, False):
        state = act(new(hard_timer=True), 0, ChooseTheme(index=0))
        assert ENGINE.timer(state) == Timer("write-1", 90.0)
        state = fill(state, 1, g("AB./.../..."))
        state = act(state, 2, Done())
        state = act(state, 0, Draft(words=tuple(["K", "C", "A"])))
        assert ENGINE.timer(state) == Timer("write-1", 90.0)  # same key: the deadline stands
        seats = sorted(ENGINE.to_act(state), reverse=not leader_first)
        assert set(seats) == {0, 1, 3}
        for seat in seats:
            state = act(state, seat, ENGINE.timeout_action(state, seat))
        # The draft first, then the theme's other words in card order, up to 7.
        assert state.ranking == ("K", "C", "A", "B", "D", "E", "F")
        assert state.phase == "reveal" and list(state.grids[1]) == g("AB./.../...")


def test_writers_finished_before_the_leader_means_no_countdown() -> None:
    state = act(new(players=3), 0, ChooseTheme(index=0))
    state = act(act(state, 1, Done()), 2, Done())
    assert ENGINE.to_act(state) == {0}
    state, events = ENGINE.apply(state, 0, Rank(words=tuple(RANKING)))
    assert [e.kind for e in events] == ["ranked", "writing_closed"]
    assert events[0].public["countdown"] is None and state.phase == "reveal"


def test_reveal_announces_one_word_at_a_time_then_scores() -> None:
    state = act(new(players=3, reveal_pause=2), 0, ChooseTheme(index=0))
    state = act(fill(state, 1, g("ABC/HIJ/KLD")), 1, Done())
    state = act(fill(state, 2, g("HAI/BEC/JDK")), 2, Done())
    state = act(state, 0, Rank(words=tuple(RANKING)))
    assert ENGINE.to_act(state) == {0}
    with pytest.raises(IllegalAction, match="only the Leader"):
        ENGINE.apply(state, 1, Next())
    seen: list[Any] = []
    for i in range(7):
        assert ENGINE.timer(state) == Timer(f"reveal-1-{i}", 2.0)
        assert ENGINE.timeout_action(state, 0) == Next()
        state, events = ENGINE.apply(state, 0, Next())
        seen.append(events[0].public)
        assert ENGINE.view(state, None)["announced"] == RANKING[: i + 1]
    assert seen[2] == {
        "turn": 1,
        "index": 3,
        "word": "C",
        "circled": [{"seat": 1, "cell": 2}, {"seat": 2, "cell": 5}],
        "lines": [{"seat": 1, "cells": [0, 1, 2]}],
        "first_line": {"index": 3, "word": "C", "seats": [1]},
    }
    assert seen[4]["lines"] == [{"seat": 2, "cells": [3, 4, 5]}, {"seat": 2, "cells": [1, 4, 7]}]
    assert seen[4]["first_line"] is None
    assert state.phase == "score" and events[-1].kind == "turn_scored"
    scoring = events[-1].public["scoring"]
    assert scoring["points"] == [3 + 1, 2 + 1, 2] and scoring["totals"] == [4, 3, 2]
    assert state.scores == (4, 3, 2)
    v = ENGINE.view(state, None)
    assert v["scoring"] == scoring and v["ranking"] == RANKING
    assert v["grids"][2]["lines"] == [{"cells": [3, 4, 5], "word": 5}, {"cells": [1, 4, 7], "word": 5}]
    assert v["first_line"] == {"index": 3, "word": "C", "seats": [1]}
    assert [row["seat"] for row in v["standings"]] == [0, 1, 2]


def test_reveal_view_shows_grids_marks_and_lines_so_far() -> None:
    state = act(new(players=3), 0, ChooseTheme(index=0))
    state = act(fill(state, 1, g("ABC/HIJ/KLD")), 1, Done())
    state = act(state, 2, Done())
    state = act(state, 0, Rank(words=tuple(RANKING)))
    for _ in range(3):
        state = act(state, 0, Next())
    for viewer in (None, 0, 1, 2):
        v = ENGINE.view(state, viewer)
        assert v["grids"][0] is None
        assert v["grids"][1] == {
            "words": g("ABC/HIJ/KLD"),
            "marks": [1, 2, 3, None, None, None, None, None, None],
            "lines": [{"cells": [0, 1, 2], "word": 3}],
            "line_count": 1,
            "first_line": 3,
        }
        assert v["announced"] == ["A", "B", "C"]
        assert v["ranking"] == (RANKING if viewer == 0 else None)


def test_game_ends_after_everyone_led_and_ties_share_the_win() -> None:
    state = new(players=3)
    # Each turn, the two players write the same grid: the three seats end level.
    for _ in range(3):
        others = [s for s in range(3) if s != state.leader]
        state, events = play_turn(state, {s: g("ABC/DEF/HIJ") for s in others}, RANKING)
        if state.phase == "score":
            state = act(state, state.leader, Next())
    assert state.phase == "over" and events[-1].kind == "game_over"
    # Per turn: the Leader 3 (A) + 1 (B: 2 lines); each player 2 (C) + 2 (D).
    assert state.scores == (12, 12, 12)
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.winners == [0, 1, 2] and outcome.ranks == [0, 0, 0]
    assert outcome.summary == LogEntry("tic-tac-top.result.shared", {"seats": [0, 1, 2], "points": 12})
    with pytest.raises(IllegalAction, match="over"):
        ENGINE.apply(state, 0, Next())


def _with_scores(state: TicTacTopState, scores: list[int]) -> TicTacTopState:
    data = ENGINE.dump(state)
    data["scores"] = scores
    return ENGINE.load(data)


def test_quick_game_ends_after_a_turn_reaching_25() -> None:
    state = _with_scores(new(players=6, quick_game=True), [0, 0, 0, 0, 0, 24])
    grids = {s: g(".........") for s in range(1, 6)}
    grids[5] = g("ABC/HIJ/KL.")  # one line: 24 + 2 + 1 = 27
    state, events = play_turn(state, grids, RANKING)
    assert state.phase == "over" and state.turn == 1
    assert events[-1].public["quick_game_ended"] is True
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners == [5]
    assert ENGINE.view(state, None)["target"] == 25
    # Without the quick game the same turn goes on to the score screen and turn 2.
    state = _with_scores(new(players=6), [0, 0, 0, 0, 0, 24])
    state, _ = play_turn(state, grids, RANKING)
    assert state.phase == "score"


def test_quick_game_does_not_end_mid_turn_or_below_25() -> None:
    state = _with_scores(new(players=6, quick_game=True), [0, 0, 0, 0, 0, 21])
    state, _ = play_turn(state, {5: g("ABC/HIJ/KL."), **{s: g(".........") for s in range(1, 5)}}, RANKING)
    assert state.scores[5] == 24 and state.phase == "score"


# ---- validation ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seat", "action", "code"),
    [
        (1, {"type": "place", "cell": 9, "word": "A"}, "tic-tac-top.error.bad_cell"),
        (1, {"type": "place", "cell": True, "word": "A"}, "tic-tac-top.error.not_integer"),
        (1, {"type": "place", "cell": 1, "word": "Z"}, "tic-tac-top.error.not_theme_word"),
        (1, {"type": "place", "cell": 1, "word": "A"}, "tic-tac-top.error.word_in_grid"),
        (1, {"type": "place", "cell": 1, "word": 3}, "tic-tac-top.error.bad_word"),
        (1, {"type": "place", "cell": 1}, "action.missing_fields"),
        (1, {"type": "place", "cell": 1, "word": "B", "x": 1}, "action.unexpected_fields"),
        (1, {"type": "clear", "cell": 4}, "tic-tac-top.error.cell_empty"),
        (1, {"type": "rank", "words": RANKING}, "tic-tac-top.error.leader_ranks"),
        (1, {"type": "next"}, "tic-tac-top.error.not_while_writing"),
        (0, {"type": "place", "cell": 1, "word": "B"}, "tic-tac-top.error.leader_no_grid"),
        (0, {"type": "done"}, "tic-tac-top.error.leader_no_grid"),
        (0, {"type": "rank", "words": RANKING[:6]}, "tic-tac-top.error.ranking_size"),
        (0, {"type": "rank", "words": [*RANKING[:6], "A"]}, "tic-tac-top.error.word_twice"),
        (0, {"type": "rank", "words": [*RANKING[:6], "Z"]}, "tic-tac-top.error.not_theme_word"),
        (0, {"type": "rank", "words": "ABCDEFG"}, "tic-tac-top.error.bad_words"),
        (0, {"type": "draft", "words": LETTERS[:8]}, "tic-tac-top.error.ranking_too_long"),
        (0, {"type": "choose_theme", "index": 0}, "tic-tac-top.error.not_while_writing"),
        (2, {"type": "place", "cell": 1, "word": "B"}, "tic-tac-top.error.grid_locked"),
        (7, {"type": "done"}, "action.no_seat"),
    ],
)
def test_illegal_actions_are_refused_with_a_reason(seat: int, action: dict[str, Any], code: str) -> None:
    state = act(new(), 0, ChooseTheme(index=0))
    state = act(state, 1, PlaceWord(cell=0, word="A"))
    state = act(state, 2, Done())
    before = ENGINE.dump(state)
    with pytest.raises(IllegalAction) as refused:
        ENGINE.apply(state, seat, ENGINE.parse_action(action))
    assert refused.value.code == code, refused.value
    assert ENGINE.dump(state) == before


def test_place_overwrites_and_clear_erases() -> None:
    state = act(new(), 0, ChooseTheme(index=0))
    state = act(state, 1, PlaceWord(cell=4, word="A"))
    state = act(state, 1, PlaceWord(cell=4, word="B"))
    assert state.grids[1][4] == "B"
    state = act(state, 1, PlaceWord(cell=0, word="A"))  # A is free again
    assert logged(state, 1, Clear(cell=4)) == [("tic-tac-top.log.erased", {"seat": 1})]
    state, events = ENGINE.apply(state, 1, Clear(cell=4))
    assert list(state.grids[1]) == g("A........")
    assert events[0].public == {"seat": 1, "filled": 1} and events[0].private == {1: {"cell": 4}}
    with pytest.raises(IllegalAction, match="already submitted"):
        ENGINE.apply(act(state, 0, Rank(words=tuple(RANKING))), 0, Draft(words=tuple([])))


def test_apply_does_not_mutate_its_input_and_dump_round_trips() -> None:
    state = act(new(), 0, ChooseTheme(index=0))
    before = ENGINE.dump(state)
    after = act(state, 1, PlaceWord(cell=4, word="A"))
    assert ENGINE.dump(state) == before and after.grids[1][4] == "A"
    dumped = ENGINE.dump(after)
    assert ENGINE.dump(ENGINE.load(orjson.loads(orjson.dumps(dumped)))) == dumped


def test_the_log_is_public() -> None:
    state = new(players=3, custom_themes=unique_themes(6))
    theme = state.offers[0][0].name
    assert logged(state, 0, ChooseTheme(index=0)) == [("tic-tac-top.log.theme_chosen", {"seat": 0, "theme": theme})]
    state = act(state, 0, ChooseTheme(index=0))
    assert state.theme is not None
    w = state.theme.words
    assert logged(state, 1, PlaceWord(cell=4, word=w[0])) == [("tic-tac-top.log.wrote", {"seat": 1})]
    assert logged(state, 0, Rank(words=tuple(list(w[:7]))))[0] == (
        "tic-tac-top.log.ranked_countdown",
        {"seat": 0},
    )
    state = act(act(act(state, 1, Done()), 2, Lock()), 0, Rank(words=tuple(list(w[:7]))))
    assert logged(state, 0, Next())[0] == ("tic-tac-top.log.announced", {"word_number": 1, "word": w[0]})


def logged(state: Any, seat: int, action: TicTacTopAction) -> list[tuple[str, dict[str, Any]]]:
    """The log entries of an action, as (key, params)."""
    entries = ENGINE.log_entries(state, seat, action, ENGINE.apply(state, seat, action))
    return [(entry.key, dict(entry.params)) for entry in entries]


# ---- hidden information -------------------------------------------------------------------------


def _perturb(state: TicTacTopState, owner: int, rng: random.Random, keep: int | None = None) -> TicTacTopState:
    """The same state with ``owner``'s secrets changed: the Leader's unannounced words (beyond ``keep``)
    and draft, or a player's grid (same number of filled cells, other words in other cells)."""
    data = ENGINE.dump(state)
    if data["theme"] is None:
        return state
    words = data["theme"]["words"]
    if owner == state.leader:
        keep = data["announced"] if keep is None else keep
        if data["ranking"]:
            fixed = data["ranking"][:keep]
            rest = [w for w in words if w not in fixed]
            rng.shuffle(rest)
            data["ranking"] = fixed + rest[: 7 - len(fixed)]
        if state.phase == "write":
            data["draft"] = rng.sample(words, len(data["draft"]))
    else:
        k = 9 - data["grids"][owner].count(None)
        grid: list[str | None] = [None] * 9
        for cell, word in zip(rng.sample(range(9), k), rng.sample(words, k), strict=True):
            grid[cell] = word
        data["grids"][owner] = grid
    return ENGINE.load(data)


def _secret_owners(state: TicTacTopState) -> list[int]:
    """Seats holding a secret now: the Leader (if words are unannounced), players while writing."""
    if state.phase == "write":
        return list(range(state.players))
    if state.phase == "reveal":
        return [state.leader]
    return []


def _random_action(state: TicTacTopState, seat: int, rng: random.Random) -> TicTacTopAction:
    """Legal actions, plus drafts, erasing, overwriting and timeouts the sample does not list."""
    roll = rng.random()
    if state.phase == "write" and state.theme is not None:
        words = list(state.theme.words)
        if seat == state.leader and roll < 0.3:
            return Draft(words=tuple(rng.sample(words, rng.randint(0, 7))))
        grid = state.grids[seat]
        if seat != state.leader and roll < 0.15 and any(grid):
            return Clear(cell=rng.choice([c for c in range(9) if grid[c] is not None]))
        if seat != state.leader and roll < 0.35:
            unused = [w for w in words if w not in grid]
            return PlaceWord(cell=rng.randrange(9), word=rng.choice(unused))
    if roll > 0.9:
        return ENGINE.timeout_action(state, seat)
    return rng.choice(ENGINE.legal_actions(state, seat))


def _alternative(state: TicTacTopState, seat: int, action: TicTacTopAction, rng: random.Random) -> TicTacTopAction:
    """Another action of the same kind with other secret content (other words, other cells)."""
    assert state.theme is not None
    words = list(state.theme.words)
    if isinstance(action, Draft | Rank):
        return type(action)(words=tuple(rng.sample(words, len(action.words))))
    grid = state.grids[seat]
    if isinstance(action, PlaceWord):
        # Same number of filled cells afterwards (that count is public), other cell and word.
        options = [
            (c, w)
            for c in range(9)
            for w in words
            if w not in grid and (grid[c] is None) == (grid[action.cell] is None)
        ]
        cell, word = rng.choice(options)
        return PlaceWord(cell=cell, word=word)
    if isinstance(action, Clear):
        return Clear(cell=rng.choice([c for c in range(9) if grid[c] is not None]))
    return action


@pytest.mark.parametrize("seed", range(4))
def test_no_secret_reaches_another_seat_or_the_shared_screen(seed: int) -> None:
    """Non-interference: change a seat's secrets and nobody else's view, events or log line changes."""
    rng = random.Random(seed)
    players = 3 + seed % 2
    state = new(players=players, seed=seed, custom_themes=unique_themes(2 * players))
    viewers: list[int | None] = [None, *range(players)]
    steps = 0
    while ENGINE.to_act(state):
        steps += 1
        # 1. Views: every secret owner's secrets are invisible to every other viewer.
        for owner in _secret_owners(state):
            other = _perturb(state, owner, rng)
            for viewer in viewers:
                if viewer != owner:
                    assert ENGINE.view(other, viewer) == ENGINE.view(state, viewer), (owner, viewer, state.phase)
        seat = rng.choice(sorted(ENGINE.to_act(state)))
        action = _random_action(state, seat, rng)
        after, events = ENGINE.apply(state, seat, action)
        # 2. The actor's secret content (which word, which cell, which ranking) shows in no one else's
        #    events nor in the public log line.
        if isinstance(action, PlaceWord | Clear | Draft | Rank):
            alt = _alternative(state, seat, action, rng)
            _, alt_events = ENGINE.apply(state, seat, alt)
            for viewer in viewers:
                if viewer != seat:
                    assert [e.redact(viewer) for e in alt_events] == [e.redact(viewer) for e in events]
            assert state.theme is not None
            line = orjson.dumps(
                [e.to_json() for e in ENGINE.log_entries(state, seat, action, (after, events))]
            ).decode()
            assert not any(w in line for w in state.theme.words), line
        # 3. Other seats' secrets that are still secret after the action do not shape its events.
        for owner in _secret_owners(after):
            if owner == seat:
                continue
            keep = after.announced if after.phase == "reveal" else None
            other = _perturb(state, owner, rng, keep=keep)
            if after.phase != "write" and owner != state.leader:
                continue  # the grids became public with this very action
            _, other_events = ENGINE.apply(other, seat, action)
            for viewer in viewers:
                if viewer != owner:
                    assert [e.redact(viewer) for e in other_events] == [e.redact(viewer) for e in events]
        state = after
    assert ENGINE.outcome(state) is not None and steps > 30


def test_spectator_sees_nothing_secret_while_writing() -> None:
    state = act(new(), 0, ChooseTheme(index=0))
    state = fill(state, 1, g("ABC/DEF/GHI"))
    state = act(state, 0, Rank(words=tuple(RANKING)))
    for viewer in (None, 2, 3):
        v = ENGINE.view(state, viewer)
        assert v["ranking"] is None and v["draft"] is None and v["grids"] is None and v["announced"] == []
        assert v["writers"][0] == {"seat": 1, "filled": 9, "finished": False, "how": None}
    assert ENGINE.view(state, 1)["grid"] == g("ABC/DEF/GHI")
    assert ENGINE.view(state, 0)["ranking"] == RANKING and ENGINE.view(state, 0)["grid"] is None


# ---- the bot ------------------------------------------------------------------------------------


def test_bot_puts_its_most_central_words_in_the_centre_and_on_the_diagonals() -> None:
    state = act(new(custom_themes=unique_themes(8)), 0, ChooseTheme(index=0))
    theme = state.theme
    assert theme is not None
    rng = random.Random(0)
    while state.finished[1] is None:
        state = act(state, 1, BOT.choose(state, 1, rng))
    prefs = preference(theme.name, theme.words, 1, 1)
    grid = state.grids[1]
    assert [grid[c] for c in (4, 0, 8, 2, 6)] == prefs[:5]
    assert None not in grid and len(set(grid)) == 9
    # The leader bot drafts a word at a time, then ranks its 7 most central words.
    for _ in range(6):
        state = act(state, 0, BOT.choose(state, 0, rng))
    assert list(state.ranking) == preference(theme.name, theme.words, 0, 1)[:7]
    central = centrality(theme.name, theme.words)
    by_centrality = [w for _c, w in sorted(zip(central, theme.words, strict=True), reverse=True)]
    assert len(set(state.ranking) & set(by_centrality[:7])) >= 5


def test_bot_uses_only_what_its_seat_may_know() -> None:
    rng = random.Random(3)
    state = new(players=4, seed=3, custom_themes=unique_themes(8))
    while ENGINE.to_act(state):
        seat = rng.choice(sorted(ENGINE.to_act(state)))
        for owner in _secret_owners(state):
            if owner != seat:
                other = _perturb(state, owner, rng)
                assert BOT.choose(other, seat, random.Random(7)) == BOT.choose(state, seat, random.Random(7))
        state = act(state, seat, BOT.choose(state, seat, rng))


def test_bots_line_up_with_a_bot_leader() -> None:
    """All-bot games: grids built around shared centrality make lines; random grids make far fewer."""
    bot_lines: list[int] = []
    random_lines: list[int] = []
    for seed in range(6):
        rng = random.Random(seed)
        state = new(players=5, seed=seed, custom_themes=unique_themes(10))
        while ENGINE.to_act(state):
            seat = sorted(ENGINE.to_act(state))[0]
            if state.phase == "reveal" and state.announced == 0:
                assert state.theme is not None
                for s in range(5):
                    if s != state.leader:
                        bot_lines.append(len(grid_lines(grid_marks(state.grids[s], state.ranking))))
                        shuffled = rng.sample(state.theme.words, 9)
                        random_lines.append(len(grid_lines(grid_marks(shuffled, state.ranking))))
            state = act(state, seat, BOT.choose(state, seat, rng))
    assert sum(bot_lines) / len(bot_lines) >= 3
    assert sum(bot_lines) > 2 * sum(random_lines)


def test_bot_pacing_hint_follows_the_show() -> None:
    state = new(reveal_pause=2, score_pause=5)
    assert BOT.delay(state, 0) is None
    state = act(state, 0, ChooseTheme(index=0))
    assert BOT.delay(state, 0) == 4.0 and BOT.delay(state, 1) is None
    state = act(act(act(state, 1, Done()), 2, Done()), 3, Done())
    state = act(state, 0, Rank(words=tuple(RANKING)))
    assert BOT.delay(state, 0) == 2.0
    for _ in range(7):
        state = act(state, 0, Next())
    assert BOT.delay(state, 0) == 5.0


def test_a_writers_moves_left_are_its_empty_cells_and_its_done() -> None:
    state = new()
    assert BOT.moves_left(state, 1) is None  # choosing: nothing to hurry
    state = act(state, 0, ChooseTheme(index=0))
    assert BOT.moves_left(state, 0) is None  # the Leader drafts at its own pace
    assert BOT.moves_left(state, 1) == 10
    rng = random.Random(0)
    state = act(state, 1, BOT.choose(state, 1, rng))
    assert BOT.moves_left(state, 1) == 9
    state = act(state, 2, Done())
    assert BOT.moves_left(state, 2) is None
