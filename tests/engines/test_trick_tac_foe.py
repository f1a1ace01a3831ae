"""Trick-Tac-Foe scenarios (docs/games/trick-tac-foe.md) and hidden-information checks."""

from __future__ import annotations

import copy
import random
import re
from typing import Any

import orjson
import pytest

from engines.base import IllegalAction, InvalidOptions, InvalidState, LogEntry
from engines.registry import get_bot, get_engine
from engines.trick_tac_foe.actions import Commit, TrickTacFoeAction, Wild
from engines.trick_tac_foe.bots import BOT, _threat_cells
from engines.trick_tac_foe.cards import ALL_CARDS, card_strength
from engines.trick_tac_foe.rules import ENGINE
from engines.trick_tac_foe.seats import cell_for, number_for, numbering
from engines.trick_tac_foe.state import TrickTacFoeState

Grid = tuple[tuple[int | None, ...], ...]
RED, BLACK = 0, 1
# 2 players: seat 0 = South, 1 = North. 4 players: 0 = North, 1 = East, 2 = South, 3 = West.
S2, N2 = 0, 1
N4, E4, S4, W4 = 0, 1, 2, 3


# ---- helpers -----------------------------------------------------------------------------------------


def grid_of(picture: str) -> Grid:
    """``"R . . / . B . / . . ."`` (North edge first) → a canonical grid of team indexes."""
    rows = [row.split() for row in picture.split("/")]
    assert len(rows) == 3 and all(len(r) == 3 for r in rows)
    return tuple(tuple({"R": RED, "B": BLACK, ".": None}[v] for v in row) for row in rows)


def scenario(
    players: int,
    hands: list[list[str]],
    *,
    decks: list[list[str]] | None = None,
    grid: str = ". . . / . . . / . . .",
    start: int | None = None,
    scores: tuple[int, int] = (0, 0),
    one_shot: bool = True,
) -> TrickTacFoeState:
    """A position built by hand: exactly these hands and decks, this grid, this starting seat."""
    state = ENGINE.new_game(ENGINE.parse_options({"players": players, "one_shot": one_shot}), 0)
    state = state.changed(
        hands=tuple(tuple(h) for h in hands),
        decks=tuple(tuple(d) for d in decks) if decks is not None else ((),) * players,
        grid=grid_of(grid),
        scores=scores,
    )
    if players == 4:
        assert start is not None
        state = state.changed(start=start, order=((0, 2), (1, 3)) if start % 2 == 0 else ((1, 3), (0, 2)))
    return state


def play(state: TrickTacFoeState, *moves: tuple[int, TrickTacFoeAction]) -> tuple[TrickTacFoeState, list[Any]]:
    events: list[Any] = []
    for seat, action in moves:
        state, evs = ENGINE.apply(state, seat, action)
        events.extend(evs)
    return state, events


def commit(seat: int, card: str) -> tuple[int, TrickTacFoeAction]:
    return seat, Commit(card=card)


def wild(seat: int, number: int) -> tuple[int, TrickTacFoeAction]:
    return seat, Wild(number=number)


def kinds(events: list[Any]) -> list[str]:
    return [e.kind for e in events]


def random_game(players: int, seed: int, *, one_shot: bool = False) -> tuple[TrickTacFoeState, list[Any]]:
    """Random legal play to the end; returns the final state and [(state_before, seat, action, after, events)]."""
    rng = random.Random(seed)
    state = ENGINE.new_game(ENGINE.parse_options({"players": players, "one_shot": one_shot}), seed)
    steps: list[Any] = []
    while ENGINE.to_act(state):
        seat = rng.choice(sorted(ENGINE.to_act(state)))
        action = rng.choice(ENGINE.legal_actions(state, seat))
        after, events = ENGINE.apply(state, seat, action)
        steps.append((state, seat, action, after, events))
        state = after
    return state, steps


# ---- registry, options, seats -------------------------------------------------------------------------


def test_registered_with_bot() -> None:
    assert get_engine("trick-tac-foe") is ENGINE
    assert get_bot("trick-tac-foe") is BOT
    assert ENGINE.title == "Trick-Tac-Foe"


def test_options_and_seats() -> None:
    two = ENGINE.parse_options({})
    assert two.players == 2 and not two.one_shot
    assert [(s.label, s.team) for s in ENGINE.seats(two)] == [("South", None), ("North", None)]
    four = ENGINE.parse_options({"players": 4})
    assert [(s.label, s.team) for s in ENGINE.seats(four)] == [
        ("North", RED),
        ("East", RED),
        ("South", BLACK),
        ("West", BLACK),
    ]
    for bad in ({"players": 3}, {"players": 1}, {"one_shot": "maybe"}, {"colour": "red"}, {"turn_seconds": 1}):
        with pytest.raises(InvalidOptions):
            ENGINE.parse_options(bad)
    assert ENGINE.new_game(two, 1).rounds == 2
    assert ENGINE.new_game(four, 1).rounds == 3
    assert ENGINE.new_game(ENGINE.parse_options({"players": 4, "one_shot": True}), 1).rounds == 1
    assert ENGINE.new_game(ENGINE.parse_options({"one_shot": True}), 1).rounds == 1


# ---- perspective ----------------------------------------------------------------------------------------

# The grid as each seat numbers it, printed North edge up (docs/games/trick-tac-foe.md, the grid table).
PRINTED = {
    "South": "1 2 3 / 4 5 6 / 7 8 9",
    "North": "9 8 7 / 6 5 4 / 3 2 1",
    "West": "7 4 1 / 8 5 2 / 9 6 3",
    "East": "3 6 9 / 2 5 8 / 1 4 7",
}
PERSPECTIVE_CASES = [
    (seat, k, (r, c))
    for seat, picture in PRINTED.items()
    for r, row in enumerate(picture.split("/"))
    for c, value in enumerate(row.split())
    for k in [int(value)]
]


def test_perspective_table_has_36_cases() -> None:
    assert len(PERSPECTIVE_CASES) == 36
    assert {(seat, k) for seat, k, _ in PERSPECTIVE_CASES} == {(s, k) for s in PRINTED for k in range(1, 10)}


@pytest.mark.parametrize(("seat", "k", "cell"), PERSPECTIVE_CASES, ids=[f"{s}-{k}" for s, k, _ in PERSPECTIVE_CASES])
def test_perspective_table(seat: str, k: int, cell: tuple[int, int]) -> None:
    assert cell_for(seat, k) == cell
    assert number_for(seat, cell) == k
    # The formulas of the ruling, spelled out.
    a, b = divmod(k - 1, 3)
    formula = {"South": (a, b), "North": (2 - a, 2 - b), "West": (b, 2 - a), "East": (2 - b, a)}[seat]
    assert formula == cell
    # Direction letters and any case work too.
    assert cell_for(seat[0], k) == cell_for(seat.lower(), k) == cell


def test_perspective_helpers_reject_bad_input() -> None:
    for k in (0, 10, -1, True):
        with pytest.raises(ValueError):
            cell_for("South", k)
    with pytest.raises(ValueError):
        cell_for("Up", 5)
    with pytest.raises(ValueError):
        number_for("North", (3, 0))


def test_centre_is_five_and_two_player_values_mirror() -> None:
    for seat in PRINTED:
        assert cell_for(seat, 5) == (1, 1)
    for k in range(1, 10):
        assert cell_for("North", k) == cell_for("South", 10 - k)


def test_views_carry_each_seats_numbering() -> None:
    state = ENGINE.new_game(ENGINE.parse_options({"players": 4}), 5)
    state = state.changed(grid=grid_of("R . . / . . . / . . B"))
    for seat, label in enumerate(["North", "East", "South", "West"]):
        view = ENGINE.view(state, seat)
        assert view["perspective"] == label.lower()
        assert [s["direction"] for s in view["seats"]] == ["north", "east", "south", "west"]
        assert all("label" not in s for s in view["seats"])
        assert view["numbers"] == [[int(v) for v in row.split()] for row in PRINTED[label].split("/")]
        assert view["numbers"] == numbering(label)
        assert view["rotation"] == {"South": 0, "East": 90, "North": 180, "West": 270}[label]
        # The board lists the cells in the seat's reading order: number k at the seat's own cell k.
        assert [entry["number"] for entry in view["board"]] == list(range(1, 10))
        for entry in view["board"]:
            r, c = entry["cell"]
            assert (r, c) == cell_for(label, entry["number"])
            assert entry["token"] == view["grid"][r][c]
    spectator = ENGINE.view(state, None)
    assert spectator["perspective"] == "south" and spectator["you"] is None and spectator["hand"] is None
    north, south = ENGINE.view(state, N4)["board"], ENGINE.view(state, S4)["board"]
    assert north[0] == {"number": 1, "cell": [2, 2], "token": "black"}  # North's 1 is South's 9
    assert south[8] == {"number": 9, "cell": [2, 2], "token": "black"}
    assert north[8]["token"] == south[0]["token"] == "red"


# ---- cards ----------------------------------------------------------------------------------------------


def test_card_ordering() -> None:
    assert len(ALL_CARDS) == 40 and len(set(ALL_CARDS)) == 40
    assert ALL_CARDS[0] == "AC" and ALL_CARDS[-1] == "10S"
    assert [card_strength(c) for c in ALL_CARDS] == list(range(40))
    # Rank first (10 high, Ace low), then suit ♠ > ♥ > ♦ > ♣.
    assert card_strength("10C") > card_strength("9S") > card_strength("9H") > card_strength("9D")
    assert card_strength("9D") > card_strength("9C") > card_strength("8S")
    assert card_strength("2C") > card_strength("AS") > card_strength("AH") > card_strength("AD") > card_strength("AC")


@pytest.mark.parametrize(
    ("south", "north", "winner"),
    [("7S", "7H", S2), ("7C", "7D", N2), ("AS", "2C", N2), ("10C", "9S", S2), ("3D", "3H", N2)],
)
def test_trick_winner_by_rank_then_suit(south: str, north: str, winner: int) -> None:
    state = scenario(2, [[south, "AC" if "AC" not in (south, north) else "2D"], [north, "2H"]])
    _, events = play(state, commit(S2, south), commit(N2, north))
    reveal = next(e for e in events if e.kind == "reveal")
    assert reveal.public["winner"] == winner
    assert reveal.public["cards"] == [south, north]


# ---- the seed's examples ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("grid", "effect", "after"),
    [
        (". . . / . . . / . . .", "place", ". . B / . . . / . . ."),
        (". . R / . . . / . . .", "flip", ". . B / . . . / . . ."),
        (". . B / . . . / . . .", "none", ". . B / . . . / . . ."),
    ],
)
def test_numbered_card_3_hearts(grid: str, effect: str, after: str) -> None:
    """South wins with 3♥: South's space 3 is the upper-right one (North-East corner)."""
    state = scenario(2, [["3H", "9S"], ["2S", "9C"]], grid=grid)
    state, events = play(state, commit(S2, "3H"), commit(N2, "2S"))
    resolve = next(e for e in events if e.kind == "resolve")
    assert resolve.public["cell"] == [0, 2] and resolve.public["number"] == 3
    assert resolve.public["effect"] == effect and resolve.public["seat"] == S2
    assert state.grid == grid_of(after)


def test_numbered_card_3_hearts_from_north() -> None:
    """The same card names another space for North: its upper-right is the South-West corner."""
    state = scenario(2, [["2S", "9S"], ["3H", "9C"]])
    state, _ = play(state, commit(S2, "2S"), commit(N2, "3H"))
    assert state.grid == grid_of(". . . / . . . / R . .")


def test_wild_10_clubs() -> None:
    """The 10♣ winner chooses any cell after the reveal, with the board in view."""
    state = scenario(2, [["10C", "2D"], ["9S", "3D"]], grid="R . . / . R . / . . .")
    state, events = play(state, commit(S2, "10C"), commit(N2, "9S"))
    assert kinds(events)[-2:] == ["reveal", "wild_pending"]
    assert ENGINE.to_act(state) == frozenset({S2})
    assert ENGINE.legal_actions(state, S2) == [Wild(number=k) for k in range(1, 10)]
    assert ENGINE.legal_actions(state, N2) == []
    view = ENGINE.view(state, N2)
    assert view["phase"] == "wild" and view["wild_seat"] == S2
    assert [s["card"] for s in view["seats"]] == ["10C", "9S"]  # both revealed
    # Any of the 9 cells is allowed: South flips the centre (its 5) and stops Red's diagonal.
    state, events = play(state, wild(S2, 5))
    resolve = next(e for e in events if e.kind == "resolve")
    assert resolve.public == {
        "seat": S2,
        "team": BLACK,
        "colour": "black",
        "cell": [1, 1],
        "number": 5,
        "effect": "flip",
        "wild": True,
    }
    assert state.grid == grid_of("R . . / . B . / . . .")
    assert state.phase == "commit" and state.discard == ("10C", "9S")


def test_wild_any_cell_by_own_number() -> None:
    """The wild number is read from the chooser's seat: North's 1 is the South-East corner."""
    state = scenario(2, [["9S", "2D"], ["10H", "3D"]])
    state, _ = play(state, commit(S2, "9S"), commit(N2, "10H"), wild(N2, 1))
    assert state.grid == grid_of(". . . / . . . / . . R")


def test_perspective_example() -> None:
    """North takes a space with a 1; the others read that space as another number and resolve by their own."""
    state = scenario(2, [["AC", "9D", "2C"], ["AS", "3C", "4C"]])
    state, _ = play(state, commit(S2, "AC"), commit(N2, "AS"))
    assert state.grid == grid_of(". . . / . . . / . . R")
    assert number_for("South", (2, 2)) == 9
    assert number_for("East", (2, 2)) == 7
    assert number_for("West", (2, 2)) == 3
    # South flips that very space with its own 9, not with North's 1.
    state, events = play(state, commit(S2, "9D"), commit(N2, "3C"))
    resolve = next(e for e in events if e.kind == "resolve")
    assert resolve.public["number"] == 9 and resolve.public["effect"] == "flip"
    assert state.grid == grid_of(". . . / . . . / . . B")


def test_four_player_scoring_example() -> None:
    """North and South resolve first; North completes three Red in a row (East's tokens count as Red),
    Red scores and the grid clears; East and West then resolve their committed cards on the cleared grid."""
    state = scenario(
        4,
        [["AS", "9C"], ["5H", "9D"], ["AC", "9H"], ["7D", "9S"]],
        grid=". . . / B . . / R R .",  # the two Red tokens were placed by East
        start=N4,
    )
    state, events = play(state, commit(E4, "5H"), commit(N4, "AS"), commit(W4, "7D"))
    assert kinds(events) == ["commit", "commit", "commit"]
    assert ENGINE.to_act(state) == frozenset({S4})
    state, events = play(state, commit(S4, "AC"))
    assert kinds(events) == ["commit", "reveal", "resolve", "score", "clear", "reveal", "resolve", "trick_end", "start"]
    assert events[-1].public == {"seat": E4}  # pages look its direction up in the view's seats
    first, second = (e for e in events if e.kind == "reveal")
    assert first.public["seats"] == [N4, S4] and first.public["winner"] == N4
    assert second.public["seats"] == [E4, W4] and second.public["winner"] == W4
    score = next(e for e in events if e.kind == "score")
    assert score.public["team"] == RED and score.public["seat"] == N4
    assert score.public["lines"] == [[[2, 0], [2, 1], [2, 2]]]
    assert state.scores == (1, 0)
    # West's 7 is the North-West corner, on a grid that was just cleared.
    assert state.grid == grid_of("B . . / . . . / . . .")
    assert state.start == E4  # the starting position passed clockwise


def test_second_pair_resolves_on_the_board_the_first_left() -> None:
    """Start at East: East/West go first; then North/South resolve on the changed board."""
    state = scenario(
        4, [["3S", "9C"], ["4S", "9D"], ["2C", "9H"], ["2S", "8S"]], grid=". . . / . . . / . . .", start=E4
    )
    state, events = play(state, commit(N4, "3S"), commit(E4, "4S"), commit(S4, "2C"), commit(W4, "2S"))
    first, second = (e for e in events if e.kind == "reveal")
    assert first.public["seats"] == [E4, W4] and second.public["seats"] == [N4, S4]
    # East's 4 is the South edge; North's 3 is the South-West corner.
    assert state.grid == grid_of(". . . / . . . / R R .")
    assert state.start == S4


def test_four_player_wild_in_first_pair_keeps_second_pair_hidden() -> None:
    state = scenario(4, [["10S", "9C"], ["5H", "9D"], ["AC", "9H"], ["7D", "9S"]], start=N4)
    state, _ = play(state, commit(N4, "10S"), commit(E4, "5H"), commit(S4, "AC"), commit(W4, "7D"))
    assert state.phase == "wild" and ENGINE.to_act(state) == frozenset({N4})
    for viewer in (None, N4, S4, W4):
        view = ENGINE.view(state, viewer)
        assert [s["card"] for s in view["seats"]] == ["10S", None, "AC", None]
        assert [s["committed"] for s in view["seats"]] == [True] * 4
        encoded = orjson.dumps(view)
        assert b"5H" not in encoded and (viewer == W4 or b"7D" not in encoded)
    assert b"5H" not in orjson.dumps(ENGINE.view(state, W4))  # West does not see its opponent's card...
    assert b"7D" not in orjson.dumps(ENGINE.view(state, S4))  # ...nor South its teammate's
    # A committed card cannot change.
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, E4, Commit(card="9D"))
    state, events = play(state, wild(N4, 5))
    assert kinds(events)[:3] == ["resolve", "reveal", "resolve"]
    assert state.grid == grid_of("B . . / . R . / . . .")


# ---- scoring -----------------------------------------------------------------------------------------------


def test_team_tokens_count_as_yours() -> None:
    """East wins on a cell holding North's Red token: it is East's own colour, nothing changes."""
    state = scenario(
        4, [["AC", "9C"], ["3S", "9D"], ["AD", "9H"], ["2S", "8S"]], grid="R . . / . . . / . . .", start=E4
    )
    state, events = play(state, commit(N4, "AC"), commit(E4, "3S"), commit(S4, "AD"), commit(W4, "2S"))
    east = next(e for e in events if e.kind == "resolve" and e.public["seat"] == E4)
    assert east.public["cell"] == [0, 0] and east.public["effect"] == "none"


def test_one_point_at_most_per_action() -> None:
    """South's 3 completes the top row and the right column at once: 1 point, both lines reported."""
    state = scenario(2, [["3S", "9C"], ["2S", "9D"]], grid="B B . / . . B / . R B", scores=(2, 3))
    state, events = play(state, commit(S2, "3S"), commit(N2, "2S"))
    score = next(e for e in events if e.kind == "score")
    assert len(score.public["lines"]) == 2
    assert state.scores == (2, 4)
    assert state.grid == grid_of(". . . / . . . / . . .")
    assert kinds(events).count("score") == 1 and "clear" in kinds(events)


def test_only_the_actors_colour_is_checked() -> None:
    """A (hand-made) Black line on the grid does not score when Red acts."""
    state = scenario(2, [["2S", "9C"], ["3S", "9D"]], grid="B B B / . . . / . . .")
    state, events = play(state, commit(S2, "2S"), commit(N2, "3S"))
    assert "score" not in kinds(events) and state.scores == (0, 0)
    assert state.grid == grid_of("B B B / . . . / R . .")


def test_clear_keeps_hands_decks_discard_and_start() -> None:
    state = scenario(
        2, [["3S", "9C"], ["2S", "9D"]], decks=[["4C", "5C", "6C"], ["4D", "5D", "6D"]], grid="B B . / . . . / . . ."
    )
    state, _ = play(state, commit(S2, "3S"), commit(N2, "2S"))
    assert state.grid == grid_of(". . . / . . . / . . .")
    assert state.hands == (("9C", "4C", "5C", "6C"), ("9D", "4D", "5D", "6D")) and state.decks == ((), ())
    assert state.discard == ("3S", "2S") and state.trick == 2


# ---- hands, rounds, game --------------------------------------------------------------------------------


def _play_with_timeouts(state: TrickTacFoeState) -> tuple[TrickTacFoeState, list[Any]]:
    seat = min(ENGINE.to_act(state))
    return ENGINE.apply(state, seat, ENGINE.timeout_action(state, seat))


@pytest.mark.parametrize(
    ("players", "per_round", "sizes"), [(2, 20, [4] * 17 + [3, 2, 1]), (4, 10, [4] * 7 + [3, 2, 1])]
)
def test_hand_refill_and_shrinking_hands(players: int, per_round: int, sizes: list[int]) -> None:
    state = ENGINE.new_game(ENGINE.parse_options({"players": players}), 11)
    deck = 40 // players - 4
    assert [len(h) for h in state.hands] == [4] * players and [len(d) for d in state.decks] == [deck] * players
    seen: dict[tuple[int, int], list[int]] = {}
    while ENGINE.to_act(state):
        if state.phase == "commit" and not any(state.committed):
            seen[(state.round, state.trick)] = [len(h) for h in state.hands]
        state, _ = _play_with_timeouts(state)
    for rnd in range(1, state.rounds + 1):
        assert [seen[(rnd, t)] for t in range(1, per_round + 1)] == [[n] * players for n in sizes]


def test_round_and_game_end_two_players() -> None:
    state = ENGINE.new_game(ENGINE.parse_options({}), 21)
    tricks = 0
    round_ends: list[Any] = []
    while ENGINE.to_act(state):
        before = state
        state, events = _play_with_timeouts(state)
        tricks += kinds(events).count("trick_end")
        for e in events:
            if e.kind == "round_end":
                round_ends.append(e)
                if e.public["round"] == 1:
                    # Round 2: fresh deal, empty grid and discard, scores carried on.
                    assert state.round == 2 and state.trick == 1
                    assert state.grid == grid_of(". . . / . . . / . . .") and state.discard == ()
                    assert [len(h) for h in state.hands] == [4, 4] and [len(d) for d in state.decks] == [16, 16]
                    assert state.scores == before.scores or sum(state.scores) == sum(before.scores) + 1
                    assert sorted(state.hands[0] + state.hands[1] + state.decks[0] + state.decks[1]) == sorted(
                        ALL_CARDS
                    )
    assert tricks == 40 and [e.public["round"] for e in round_ends] == [1, 2]
    assert state.phase == "over" and ENGINE.to_act(state) == frozenset()
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.scores == [float(state.scores[BLACK]), float(state.scores[RED])]
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, Commit(card="AC"))


def test_round_and_game_end_four_players_and_one_shot() -> None:
    state, steps = random_game(4, 3)
    sets = sum(kinds(events).count("trick_end") for *_x, events in steps)
    resolves = sum(kinds(events).count("resolve") for *_x, events in steps)
    assert sets == 30 and resolves == 60 and state.round == 3
    outcome = ENGINE.outcome(state)
    assert outcome is not None and len(outcome.scores) == 4
    assert outcome.scores[N4] == outcome.scores[E4] == state.scores[RED]
    assert outcome.scores[S4] == outcome.scores[W4] == state.scores[BLACK]
    if state.scores[RED] > state.scores[BLACK]:
        assert outcome.winners == [N4, E4] and outcome.ranks == [0, 0, 1, 1]
    one, steps = random_game(4, 3, one_shot=True)
    assert sum(kinds(events).count("trick_end") for *_x, events in steps) == 10 and one.phase == "over"
    one, steps = random_game(2, 3, one_shot=True)
    assert sum(kinds(events).count("trick_end") for *_x, events in steps) == 20 and one.phase == "over"


def test_leftover_tokens_do_not_score_and_draw_on_equal_scores() -> None:
    state = scenario(2, [["5S"], ["4S"]], grid="B . . / . . . / R R .", scores=(2, 2))
    state, events = play(state, commit(S2, "5S"), commit(N2, "4S"))
    assert kinds(events)[-3:] == ["round_end", "clear", "game_end"]
    assert state.scores == (2, 2) and state.grid == grid_of(". . . / . . . / . . .")
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.is_draw and outcome.winners == [] and outcome.ranks == [0, 0]
    assert outcome.summary == LogEntry("trick-tac-foe.result.draw", {"points": 2})


def test_last_trick_can_decide_the_game() -> None:
    state = scenario(2, [["6S"], ["4S"]], grid=". . . / B B . / . . .", scores=(2, 2))
    state, _ = play(state, commit(S2, "6S"), commit(N2, "4S"))
    outcome = ENGINE.outcome(state)
    assert state.scores == (2, 3)  # (Red, Black)
    assert outcome is not None and outcome.winners == [S2] and outcome.scores == [3.0, 2.0]  # per seat
    assert outcome.ranks == [0, 1]
    assert outcome.summary == LogEntry(
        "trick-tac-foe.result.won", {"seat": S2, "team": 1, "points": 3, "other_points": 2}
    )


def colours(picture: str) -> list[list[str | None]]:
    return [[None if v is None else ("red", "black")[v] for v in row] for row in grid_of(picture)]


@pytest.mark.parametrize(
    ("players", "hands", "grid", "final", "lines", "colour"),
    [
        # The last trick scores: the grid the point cleared, and its line.
        (2, [["6S"], ["4S"]], ". . . / B B . / . . .", ". . . / B B B / . . .", [[[1, 0], [1, 1], [1, 2]]], "black"),
        # No point: the tokens the end of the round cleared.
        (2, [["5S"], ["4S"]], "B . . / . . . / R R .", "B . . / . B . / R R .", None, None),
        # North's point clears the grid, then West places on it: the point's grid is the one shown.
        (
            4,
            [["AS"], ["5H"], ["AC"], ["7D"]],
            ". . . / B . . / R R .",
            ". . . / B . . / R R R",
            [[[2, 0], [2, 1], [2, 2]]],
            "red",
        ),
    ],
)
def test_a_finished_game_shows_the_grid_it_ended_on(
    players: int, hands: list[list[str]], grid: str, final: str, lines: Any, colour: str | None
) -> None:
    """The end clears the grid; every view of the finished game (a page opened later, a reloaded game) still
    carries the position the last action cleared, while the game is running none."""
    state = scenario(players, hands, grid=grid, start=N4 if players == 4 else None)
    assert all(ENGINE.view(state, seat)["final"] is None for seat in (None, 0))
    moves = [commit(seat, hand[0]) for seat, hand in enumerate(hands)]
    state, _ = play(state, *moves)
    assert state.phase == "over" and state.grid == grid_of(". . . / . . . / . . .")
    expected = {"grid": colours(final), "lines": lines, "colour": colour}
    for seat in (None, *range(players)):
        assert ENGINE.view(state, seat)["final"] == expected
        assert ENGINE.view(state, seat)["grid"] == colours(". . . / . . . / . . .")
    assert ENGINE.view(ENGINE.load(orjson.loads(orjson.dumps(ENGINE.dump(state)))), None)["final"] == expected


def test_starting_position_rotates_across_sets_and_rounds() -> None:
    starts = set()
    for seed in range(12):
        state = ENGINE.new_game(ENGINE.parse_options({"players": 4}), seed)
        first = state.start
        assert first is not None
        starts.add(first)
        n = 0
        while ENGINE.to_act(state):
            if state.phase == "commit" and not any(state.committed):
                expected = (first + n) % 4  # N -> E -> S -> W, never reset
                assert state.start == expected
                assert ENGINE.view(state, None)["start_seat"] == expected
                assert expected in ENGINE.view(state, None)["first_pair"]
                n += 1
            before = state
            state, events = _play_with_timeouts(state)
            reveals = [e.public["seats"] for e in events if e.kind == "reveal"]
            if reveals and not before.current:
                assert before.start in reveals[0]  # the starting player's pair reveals first
        assert n == 30
    assert starts == {0, 1, 2, 3}  # seeded random first starting player
    assert ENGINE.new_game(ENGINE.parse_options({}), 1).start is None  # 2 players: no starting player


# ---- actions ----------------------------------------------------------------------------------------------


def refusal(state: TrickTacFoeState, seat: int, raw: Any) -> tuple[str, dict[str, Any]]:
    """How an action's JSON is refused: malformed by ``parse_action``, else illegal now by ``apply``."""
    with pytest.raises(IllegalAction) as refused:
        ENGINE.apply(state, seat, ENGINE.parse_action(raw))
    return refused.value.code, dict(refused.value.params)


def test_illegal_actions_are_refused_with_state_untouched() -> None:
    state = scenario(2, [["10C", "2D"], ["9S", "3D"]])
    before = ENGINE.dump(state)
    bad_card = ("trick-tac-foe.error.bad_card", {})
    bad_moves: list[tuple[int, Any, tuple[str, dict[str, Any]]]] = [
        (S2, {"type": "commit", "card": "9S"}, ("trick-tac-foe.error.not_in_hand", {"card": "9S"})),  # North's card
        (S2, {"type": "commit", "card": "11S"}, bad_card),
        (S2, {"type": "commit", "card": "7s"}, bad_card),
        (S2, {"type": "commit", "card": 7}, bad_card),
        (S2, {"type": "commit"}, bad_card),
        (S2, {"type": "commit", "card": "10C", "extra": 1}, ("action.unexpected_fields", {"fields": ["extra"]})),
        (S2, {"type": "wild", "number": 3}, ("trick-tac-foe.error.no_wild", {})),  # no wild pending
        (S2, {"type": "pass"}, ("action.unknown_type", {"type": "pass", "expected": ["commit", "wild"]})),
        (S2, ["commit"], ("action.not_object", {})),
        (2, {"type": "commit", "card": "10C"}, ("action.no_seat", {})),
        (-1, {"type": "commit", "card": "10C"}, ("action.no_seat", {})),
    ]
    for seat, action, expected in bad_moves:
        assert refusal(state, seat, action) == expected, action
        assert ENGINE.dump(state) == before
    state, _ = play(state, commit(S2, "10C"))
    with pytest.raises(IllegalAction, match="already committed"):
        ENGINE.apply(state, S2, Commit(card="2D"))
    state, _ = play(state, commit(N2, "9S"))
    before = ENGINE.dump(state)
    bad_number = ("trick-tac-foe.error.bad_number", {})
    wild_moves: list[tuple[int, Any, tuple[str, dict[str, Any]]]] = [
        (N2, {"type": "wild", "number": 5}, ("trick-tac-foe.error.wild_of", {"seat": S2})),  # not North's wild
        (S2, {"type": "wild", "number": 0}, bad_number),
        (S2, {"type": "wild", "number": 10}, bad_number),
        (S2, {"type": "wild", "number": True}, bad_number),
        (S2, {"type": "wild", "number": "5"}, bad_number),
        (S2, {"type": "wild", "cell": [1, 1]}, ("action.unexpected_fields", {"fields": ["cell"]})),
        (S2, {"type": "commit", "card": "2D"}, ("trick-tac-foe.error.wild_first", {"seat": S2})),  # wild pending
    ]
    for seat, action, expected in wild_moves:
        assert refusal(state, seat, action) == expected, action
        assert ENGINE.dump(state) == before


def test_apply_does_not_mutate_its_input() -> None:
    state = ENGINE.new_game(ENGINE.parse_options({"players": 4}), 8)
    snapshot = copy.deepcopy(ENGINE.dump(state))
    for seat in range(4):
        ENGINE.apply(state, seat, ENGINE.legal_actions(state, seat)[0])
    assert ENGINE.dump(state) == snapshot


def test_timeout_actions() -> None:
    state = scenario(2, [["9S", "2D", "AH"], ["10H", "3D", "AS"]], grid="R R R / R . R / . . .")
    assert ENGINE.timeout_action(state, S2) == Commit(card="AH")
    assert ENGINE.timeout_action(state, N2) == Commit(card="AS")
    state, _ = play(state, commit(S2, "9S"), commit(N2, "10H"))
    # North reads the grid "9 8 7 / 6 5 4 / 3 2 1": its 1, 2, 3 are empty, so 1 changes the board.
    assert ENGINE.timeout_action(state, N2) == Wild(number=1)
    full = scenario(2, [["9S", "2D"], ["10H", "3D"]], grid="R R B / R R R / R R R")
    full, _ = play(full, commit(S2, "9S"), commit(N2, "10H"))
    # North's 1–6 are Red already; its 7 is the North-West corner, Black: the lowest number that changes.
    assert ENGINE.timeout_action(full, N2) == Wild(number=7)
    allred = scenario(2, [["9S", "2D"], ["10H", "3D"]], grid="R R R / R R R / R R R")
    allred, _ = play(allred, commit(S2, "9S"), commit(N2, "10H"))
    assert ENGINE.timeout_action(allred, N2) == Wild(number=1)


def test_timer_is_an_option_keyed_by_step() -> None:
    state = ENGINE.new_game(ENGINE.parse_options({}), 1)
    assert ENGINE.timer(state) is None
    state = ENGINE.new_game(ENGINE.parse_options({"players": 4, "turn_timer": True, "turn_seconds": 30}), 1)
    timer = ENGINE.timer(state)
    assert timer is not None and timer.seconds == 30
    after, _ = ENGINE.apply(state, 0, ENGINE.legal_actions(state, 0)[0])
    assert ENGINE.timer(after) == timer  # other players' commits do not restart the countdown
    while after.trick == 1:
        after, _ = _play_with_timeouts(after)
    assert ENGINE.timer(after) != timer


def logged(state: TrickTacFoeState, seat: int, action: TrickTacFoeAction) -> list[tuple[str, dict[str, Any]]]:
    """The log entries of an action, as (key, params)."""
    entries = ENGINE.log_entries(state, seat, action, ENGINE.apply(state, seat, action))
    return [(entry.key, dict(entry.params)) for entry in entries]


def test_the_log_is_public() -> None:
    state = scenario(2, [["3H", "9S"], ["2S", "9C"]])
    assert logged(state, S2, Commit(card="3H")) == [("trick-tac-foe.log.committed", {"seat": S2})]
    state, _ = play(state, commit(S2, "3H"))
    trick = {"first_seat": S2, "first_card": "3H", "second_seat": N2, "second_card": "2S", "winner_seat": S2}
    assert logged(state, N2, Commit(card="2S"))[:3] == [
        ("trick-tac-foe.log.committed", {"seat": N2}),
        ("trick-tac-foe.log.trick", trick),
        ("trick-tac-foe.log.placed", {"seat": S2, "number": 3, "cell": [0, 2], "team": 1}),
    ]


# ---- hidden information ------------------------------------------------------------------------------

_CODE = re.compile(r"(?<![A-Za-z0-9])(10|[2-9A])([SHDC])(?![A-Za-z0-9])")
_GLYPH = re.compile(r"(10|[2-9A])([♠♥♦♣])")
_SUIT_OF_GLYPH = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def cards_in(data: Any) -> set[str]:
    """Every card code or card glyph ("7S", "7♠") anywhere in a JSON value or a string."""
    text = data if isinstance(data, str) else orjson.dumps(data).decode()
    found = {rank + suit for rank, suit in _CODE.findall(text)}
    found |= {rank + _SUIT_OF_GLYPH[glyph] for rank, glyph in _GLYPH.findall(text)}
    return found


def hidden_from(state: TrickTacFoeState, viewer: int | None) -> set[str]:
    """The cards ``viewer`` may not know now: every personal deck (its own too), other seats' hands, and
    other seats' committed cards not yet revealed (teammates included)."""
    hidden: set[str] = set()
    for seat in range(state.players):
        hidden.update(state.decks[seat])
        if seat != viewer:
            hidden.update(state.hands[seat])
            card = state.committed[seat]
            if card is not None and not state.revealed[seat]:
                hidden.add(card)
    return hidden


def test_the_card_scanner_can_see_cards() -> None:
    state = ENGINE.new_game(ENGINE.parse_options({"players": 4}), 2)
    assert cards_in(ENGINE.dump(state)) == set(ALL_CARDS)
    assert cards_in(ENGINE.view(state, 1)) == set(state.hands[1])
    assert cards_in("North won with 10♠ over 7S") == {"10S", "7S"}
    assert hidden_from(state, 1) == set(ALL_CARDS) - set(state.hands[1])


@pytest.mark.parametrize("players", [2, 4])
def test_no_view_event_or_log_line_leaks_a_hidden_card(players: int) -> None:
    viewers: list[int | None] = [None, *range(players)]
    games = 12 if players == 2 else 10
    checked_views = 0
    for seed in range(games):
        rng = random.Random(1000 + seed)
        state = ENGINE.new_game(ENGINE.parse_options({"players": players}), seed)
        while True:
            for viewer in viewers:
                view = ENGINE.view(state, viewer)
                leaked = cards_in(view) & hidden_from(state, viewer)
                assert not leaked, f"view of {viewer} leaks {leaked}"
                if viewer is not None:
                    assert set(view["hand"]) == set(state.hands[viewer])
                checked_views += 1
            if not ENGINE.to_act(state):
                break
            seat = rng.choice(sorted(ENGINE.to_act(state)))
            action = rng.choice(ENGINE.legal_actions(state, seat))
            after, events = ENGINE.apply(state, seat, action)
            line = [entry.to_json() for entry in ENGINE.log_entries(state, seat, action, (after, events))]
            boundary = next((i for i, e in enumerate(events) if e.kind == "round_end"), None)
            for viewer in viewers:
                if boundary is None:
                    # A card hidden before and after this action may not appear in its events.
                    forbidden = hidden_from(state, viewer) & hidden_from(after, viewer)
                    checked = events
                else:
                    # The round ended: every card of the old round is revealed by now; what follows
                    # (the new deal) is checked against the new hands.
                    forbidden = hidden_from(after, viewer)
                    checked = events[boundary:]
                for event in checked:
                    leaked = cards_in(event.redact(viewer)) & forbidden
                    assert not leaked, f"{event.kind} event leaks {leaked} to {viewer}"
                if viewer is None and boundary is None:
                    assert not cards_in(line) & forbidden, f"log line leaks: {line}"
            # Each seat sees its own draws and commits.
            for event in events:
                if event.kind in ("draw", "commit"):
                    seat_of = event.public["seat"]
                    assert cards_in(event.redact(seat_of))
                    assert not cards_in(event.redact(None))
            state = after
    assert checked_views > 1000


# ---- serialisation and determinism for 4 players (the contract tests use the default options) ---------------


def test_four_player_replay_and_dump_round_trip() -> None:
    final, steps = random_game(4, 77)
    state = ENGINE.new_game(ENGINE.parse_options({"players": 4}), 77)
    for before, seat, action, after, _events in steps:
        dumped = ENGINE.dump(before)
        assert orjson.loads(orjson.dumps(dumped)) == dumped
        assert ENGINE.dump(ENGINE.load(orjson.loads(orjson.dumps(dumped)))) == dumped
        state, _ = ENGINE.apply(state, seat, action)
        assert ENGINE.dump(state) == ENGINE.dump(after)
    assert ENGINE.dump(state) == ENGINE.dump(final)


def test_a_dump_loads_back_to_an_equal_state_and_a_damaged_one_is_refused() -> None:
    final, steps = random_game(2, 12, one_shot=True)
    for state in [*(before for before, *_rest in steps[::7]), final]:
        assert ENGINE.load(orjson.loads(orjson.dumps(ENGINE.dump(state)))) == state
    assert final.final is not None
    older = {key: value for key, value in ENGINE.dump(final).items() if key != "final"}
    assert ENGINE.load(older) == final.changed(final=None)  # stored before the final position was kept
    dumped = ENGINE.dump(final)
    for key, damaged in [
        ("phase", "dealing"),
        ("grid", [[None, None], [None, None]]),
        ("current", [{"seats": [0, 1], "cards": ["AS"], "winner": 0, "card": "AS", "wild": False}]),
        ("final", {"grid": [[None] * 3] * 2, "lines": None, "team": None}),
        ("scores", [1, 2, 3]),
    ]:
        with pytest.raises(InvalidState):
            ENGINE.load({**dumped, key: damaged})


def test_four_player_timeouts_are_legal() -> None:
    _final, steps = random_game(4, 5)
    for before, *_rest in steps[::3]:
        for seat in ENGINE.to_act(before):
            ENGINE.apply(before, seat, ENGINE.timeout_action(before, seat))


# ---- the bot --------------------------------------------------------------------------------------------


def test_bot_wild_completes_its_line_or_blocks() -> None:
    state = scenario(2, [["10S", "2D"], ["9C", "3D"]], grid="B B . / R R . / . . .")
    state, _ = play(state, commit(S2, "10S"), commit(N2, "9C"))
    assert BOT.choose(state, S2, random.Random(0)) == Wild(number=3)  # completes the top row
    state = scenario(2, [["10S", "2D"], ["9C", "3D"]], grid="B . . / R R . / . . .")
    state, _ = play(state, commit(S2, "10S"), commit(N2, "9C"))
    action = BOT.choose(state, S2, random.Random(0))
    assert isinstance(action, Wild)
    r, _c = cell_for("South", action.number)
    assert r == 1  # on Red's threatened row: flipping a Red token or taking the empty cell stops it
    state, _ = play(state, (S2, action))
    assert not _threat_cells(state.grid, RED)


def test_bot_spends_a_strong_card_to_score_and_dumps_a_weak_one_otherwise() -> None:
    # South's 9 (South-East corner) completes the diagonal; 9♠ beats almost anything.
    state = scenario(
        2,
        [["9S", "AC", "2C", "3C"], ["4C", "5C", "6C", "7C"]],
        decks=[[], ["8C", "9C", "10C"]],
        grid="B . . / . B . / . . .",
    )
    assert BOT.choose(state, S2, random.Random(0)) == Commit(card="9S")
    # Nothing at stake for South's cards on an empty board: keep the 9♠, play the Ace.
    state = scenario(2, [["9S", "AC", "2C", "3C"], ["4C", "5C", "6C", "7C"]], decks=[[], ["8C", "9C", "10C"]])
    assert BOT.choose(state, S2, random.Random(0)) == Commit(card="AC")


def test_bot_beats_random_play() -> None:
    wins = losses = 0
    for seed in range(60):
        bot_seat = seed % 2
        rng = random.Random(seed)
        state = ENGINE.new_game(ENGINE.parse_options({}), seed)
        while ENGINE.to_act(state):
            seat = min(ENGINE.to_act(state))
            legal = ENGINE.legal_actions(state, seat)
            action = BOT.choose(state, seat, rng) if seat == bot_seat else rng.choice(legal)
            state, _ = ENGINE.apply(state, seat, action)
        outcome = ENGINE.outcome(state)
        assert outcome is not None
        wins += bot_seat in outcome.winners
        losses += bool(outcome.winners) and bot_seat not in outcome.winners
    assert wins >= 36 and losses <= 12, (wins, losses)  # measured: 44 wins, 9 losses


def test_bot_plays_four_player_games_to_the_end() -> None:
    rng = random.Random(3)
    state = ENGINE.new_game(ENGINE.parse_options({"players": 4}), 3)
    while ENGINE.to_act(state):
        seat = max(ENGINE.to_act(state))
        state, _ = ENGINE.apply(state, seat, BOT.choose(state, seat, rng))
    assert ENGINE.outcome(state) is not None


@pytest.mark.parametrize("players", [2, 4])
def test_strong_bot_samples_worlds_its_seat_cannot_tell_apart(players: int) -> None:
    """A sampled world looks the same from the seat, holds every card once, and a hidden committed card in it
    is the one the normal rule picks from that seat's sampled hand with the card back in it."""
    from engines.trick_tac_foe.strong import MODEL

    guessed = 0
    for seed in range(8):
        rng = random.Random(seed)
        state = ENGINE.new_game(ENGINE.parse_options({"players": players, "one_shot": True}), seed)
        for _ in range(5 + seed * 3):
            mover = min(ENGINE.to_act(state))
            state, _events = ENGINE.apply(state, mover, BOT.choose(state, mover, rng))
        while state.phase != "commit" or not any(state.committed):  # someone's card is down, face down
            mover = min(ENGINE.to_act(state))
            state, _events = ENGINE.apply(state, mover, BOT.choose(state, mover, rng))
        seat = max(ENGINE.to_act(state))
        for _sample in range(5):
            world = MODEL.determinize(state, seat, rng)
            assert ENGINE.view(world, seat) == ENGINE.view(state, seat)
            cards = [c for s in range(players) for c in (*world.hands[s], *world.decks[s])]
            cards += [c for c in world.committed if c is not None] + list(world.discard)
            assert sorted(cards) == sorted(ALL_CARDS)
            for s, card in enumerate(world.committed):
                if card is None or s == seat:
                    continue
                before = world.changed(
                    hands=tuple((*h, card) if i == s else h for i, h in enumerate(world.hands)),
                    committed=tuple(None if i == s else c for i, c in enumerate(world.committed)),
                )
                assert ENGINE.apply(before, s, Commit(card=card))[0].committed == world.committed
                assert MODEL.policy(before, s, rng) == Commit(card=card)
                guessed += 1
    assert guessed >= 8
