"""Tricky Tactics: scenario tests for docs/games/tricky-tactics.md, the automa included."""

from __future__ import annotations

import contextlib
import copy
import random
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import orjson
import pytest

from engines.base import Event, IllegalAction, InvalidOptions, LogEntry
from engines.tricky_tactics import BOT, ENGINE
from engines.tricky_tactics.actions import Add, PlayCard, Remove, TrickyTacticsAction
from engines.tricky_tactics.automa import automa_action_choice, automa_choose
from engines.tricky_tactics.cards import DECK, LOCATIONS
from engines.tricky_tactics.state import State

AUTOMA = 2  # the automa's player index in a 2-human game


# ---- helpers -------------------------------------------------------------------------------------


def empty_board(n: int = 3) -> dict[str, list[int]]:
    return {loc: [0] * n for loc in LOCATIONS}


def scenario(
    *,
    mode: str = "automa",
    hands: list[list[str]],
    leader: int = 0,
    automa_deck: list[str] | None = None,
    automa_row: list[str] | None = None,
    board: dict[str, list[int]] | None = None,
    supply: list[int] | None = None,
    scores: list[int] | None = None,
    options: dict[str, Any] | None = None,
) -> State:
    """An exact position at the start of a trick, ``leader`` to lead (runs the automa if it leads)."""
    st = ENGINE.new_game(ENGINE.parse_options({"mode": mode, **(options or {})}), 0)
    n = st.n
    cubes = st.options.cubes
    board = board if board is not None else empty_board(n)
    st = replace(
        st,
        hands=tuple(tuple(h) for h in hands) + ((),) * (n - len(hands)),
        automa_deck=tuple(automa_deck or ()),
        automa_row=tuple(automa_row or ()),
        automa_last=None,
        set_aside=(),
        map={loc: tuple(counts) for loc, counts in board.items()},
        supply=tuple(supply)
        if supply is not None
        else tuple(cubes - sum(board[loc][p] for loc in LOCATIONS) for p in range(n)),
        scores=tuple(scores) if scores is not None else (0,) * n,
        trick=(),
        tricks=(),
        pending=None,
        phase="play",
        leader=leader,
        turn=leader,
    )
    return ENGINE._run(st, [])


def play(st: State, seat: int, card: str) -> tuple[State, list[Event]]:
    return ENGINE.apply(st, seat, PlayCard(card=card))


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def public(events: list[Event], kind: str) -> list[dict[str, Any]]:
    return [e.redact(None) for e in events if e.kind == kind]


# ---- options, seats, deals -----------------------------------------------------------------------


def test_options_defaults_and_bounds() -> None:
    opts = ENGINE.parse_options({})
    assert (opts.mode, opts.rounds, opts.cubes) == ("automa", 3, 10)
    assert (opts.value_k, opts.value_q, opts.value_j, opts.area_bonus, opts.area_bonus_points) == (3, 2, 1, True, 2)
    assert [s.label for s in ENGINE.seats(opts)] == ["Player 1", "Player 2"]
    assert len(ENGINE.seats(ENGINE.parse_options({"mode": "3p"}))) == 3
    assert len(ENGINE.seats(ENGINE.parse_options({"mode": "4p"}))) == 4
    for bad in ({"mode": "5p"}, {"rounds": 0}, {"cubes": 0}, {"value_k": -1}, {"colour": "red"}):
        with pytest.raises(InvalidOptions):
            ENGINE.parse_options(bad)


@pytest.mark.parametrize("seed", range(6))
def test_deal_with_the_automa_is_12_12_16(seed: int) -> None:
    st = ENGINE.new_game(ENGINE.parse_options({}), seed)
    automa_cards = [*st.automa_deck, *st.automa_row, *(c for p, c in st.trick if p == AUTOMA)]
    assert [len(h) for h in st.hands[:2]] == [12, 12]
    assert st.hands[AUTOMA] == ()
    assert len(automa_cards) == 16
    assert st.set_aside == ()
    assert sorted([*st.hands[0], *st.hands[1], *automa_cards]) == sorted(DECK)
    assert st.leader == (st.dealer + 1) % 3


@pytest.mark.parametrize("seed", range(6))
def test_deal_for_three_humans_sets_four_aside(seed: int) -> None:
    st = ENGINE.new_game(ENGINE.parse_options({"mode": "3p"}), seed)
    assert [len(h) for h in st.hands] == [12, 12, 12]
    assert len(st.set_aside) == 4
    assert sorted([*(c for h in st.hands for c in h), *st.set_aside]) == sorted(DECK)
    assert ENGINE.view(st, None)["set_aside"] == 4


@pytest.mark.parametrize("seed", range(6))
def test_deal_for_four_humans_is_ten_each(seed: int) -> None:
    st = ENGINE.new_game(ENGINE.parse_options({"mode": "4p"}), seed)
    assert [len(h) for h in st.hands] == [10, 10, 10, 10]
    assert st.set_aside == () and st.automa_deck == ()
    assert sorted(c for h in st.hands for c in h) == sorted(DECK)
    assert ENGINE.to_act(st) == frozenset({(st.dealer + 1) % 4})


def test_hands_are_sorted_by_suit_then_rank() -> None:
    st = ENGINE.new_game(ENGINE.parse_options({"mode": "4p"}), 3)
    hand = ENGINE.view(st, 0)["hand"]
    suits = "SHDC"
    order = [(suits.index(c[-1]), -(14 if c[:-1] == "A" else int(c[:-1]))) for c in hand]
    assert order == sorted(order)


def test_dealer_passes_left_and_left_of_dealer_leads_each_round() -> None:
    rng = random.Random(4)
    st = ENGINE.new_game(ENGINE.parse_options({"mode": "4p"}), 21)
    dealers = [st.dealer]
    leaders = [st.leader]
    while ENGINE.to_act(st):
        seat = min(ENGINE.to_act(st))
        st, events = ENGINE.apply(st, seat, rng.choice(ENGINE.legal_actions(st, seat)))
        for e in public(events, "deal"):
            dealers.append(e["dealer"])
            leaders.append(e["leader"])
    assert len(dealers) == 3
    assert dealers[1] == (dealers[0] + 1) % 4 and dealers[2] == (dealers[0] + 2) % 4
    assert leaders == [(d + 1) % 4 for d in dealers]


# ---- tricks --------------------------------------------------------------------------------------


def test_follow_suit_is_enforced_and_offered() -> None:
    st = scenario(
        mode="4p",
        hands=[["9H", "2C"], ["AS", "3H", "4D"], ["5D", "6C"], ["7S", "8S"]],
    )
    st, _ = play(st, 0, "9H")
    assert ENGINE.legal_actions(st, 1) == [PlayCard(card="3H")]
    assert ENGINE.view(st, 1)["playable"] == ["3H"]
    before = ENGINE.dump(st)
    with refused("tricky-tactics.error.must_follow"):
        play(st, 1, "AS")
    with refused("tricky-tactics.error.not_in_hand"):
        play(st, 1, "5D")
    with refused("tricky-tactics.error.bad_card"):
        ENGINE.apply(st, 1, ENGINE.parse_action({"type": "play", "card": "KH"}))
    assert ENGINE.dump(st) == before
    st, _ = play(st, 1, "3H")
    # Void in hearts: anything goes.
    assert set(ENGINE.legal_actions(st, 2)) == {PlayCard(card="5D"), PlayCard(card="6C")}


def test_trick_winner_is_the_highest_card_of_the_led_suit_no_trumps() -> None:
    st = scenario(
        mode="4p",
        hands=[["5H", "2C"], ["AS", "3S"], ["9H", "6C"], ["AD", "8S"]],
    )
    st, _ = play(st, 0, "5H")
    st, _ = play(st, 1, "AS")  # void in hearts: an ace of another suit does not win
    st, _ = play(st, 2, "9H")
    st, events = play(st, 3, "AD")
    trick = public(events, "trick")[0]
    assert trick["winner"] == 2 and trick["card"] == "9H" and trick["led"] == "H"
    assert ENGINE.to_act(st) == frozenset({2})
    assert st.phase == "action"
    # After the Action the winner leads.
    st, _ = ENGINE.apply(st, 2, Add(location="KH"))
    assert ENGINE.to_act(st) == frozenset({2}) and st.phase == "play"
    assert ENGINE.view(st, None)["leader"] == 2


def test_ace_is_high_and_ten_beats_nine() -> None:
    st = scenario(mode="4p", hands=[["10C", "2D"], ["9C", "2S"], ["AC", "2H"], ["2C", "3D"]])
    st, _ = play(st, 0, "10C")
    st, _ = play(st, 1, "9C")
    st, _ = play(st, 2, "AC")
    st, events = play(st, 3, "2C")
    assert public(events, "trick")[0]["winner"] == 2


def test_only_the_player_to_act_may_play() -> None:
    st = scenario(mode="4p", hands=[["10C", "2D"], ["9C", "2S"], ["AC", "2H"], ["2C", "3D"]])
    with pytest.raises(IllegalAction, match="not your turn"):
        play(st, 1, "9C")
    for bad in ({"type": "play"}, {"type": "play", "card": 7}, {"type": "play", "card": "AC", "x": 1}):
        with pytest.raises(IllegalAction):
            ENGINE.apply(st, 0, ENGINE.parse_action(bad))


# ---- Actions -------------------------------------------------------------------------------------


def won_spades_trick(board: dict[str, list[int]] | None = None, supply: list[int] | None = None) -> State:
    """4 humans; seat 0 wins a ♠ trick and must act in the Spades Area."""
    st = scenario(
        mode="4p",
        hands=[["AS", "2H"], ["3S", "3H"], ["4S", "4H"], ["5S", "5H"]],
        board=board,
        supply=supply,
    )
    for seat, card in enumerate(["AS", "3S", "4S", "5S"]):
        st, _ = play(st, seat, card)
    assert st.phase == "action" and ENGINE.to_act(st) == frozenset({0})
    return st


def test_add_and_remove_targets_are_in_the_led_suits_area() -> None:
    board = empty_board(4)
    board["QS"] = [1, 2, 0, 0]
    board["KH"] = [0, 3, 0, 0]
    st = won_spades_trick(board)
    legal = ENGINE.legal_actions(st, 0)
    assert legal == [
        Add(location="KS"),
        Add(location="QS"),
        Add(location="JS"),
        Remove(location="QS", owner=1),
    ]
    pending = ENGINE.view(st, 3)["pending_action"]
    assert pending == {"player": 0, "suit": "S", "add": ["KS", "QS", "JS"], "remove": [{"location": "QS", "owner": 1}]}
    before = ENGINE.dump(st)
    with refused("tricky-tactics.error.wrong_area"):
        ENGINE.apply(st, 0, Add(location="KH"))
    with refused("tricky-tactics.error.wrong_area"):
        ENGINE.apply(st, 0, Remove(location="KH", owner=1))
    with refused("tricky-tactics.error.own_cube"):
        ENGINE.apply(st, 0, Remove(location="QS", owner=0))
    with refused("tricky-tactics.error.no_cube"):
        ENGINE.apply(st, 0, Remove(location="QS", owner=2))
    with refused("tricky-tactics.error.bad_owner"):
        ENGINE.apply(st, 0, Remove(location="QS", owner="automa"))
    with refused("tricky-tactics.error.bad_owner"):
        ENGINE.apply(st, 0, ENGINE.parse_action({"type": "remove", "location": "QS", "owner": True}))
    with refused("tricky-tactics.error.bad_location"):
        ENGINE.apply(st, 0, ENGINE.parse_action({"type": "add", "location": "AS"}))
    with refused("tricky-tactics.error.action_first"):
        play(st, 0, "2H")
    with pytest.raises(IllegalAction, match="not your turn"):
        ENGINE.apply(st, 1, Add(location="KS"))
    assert ENGINE.dump(st) == before


def test_add_moves_a_cube_from_supply_to_the_map() -> None:
    st = won_spades_trick()
    st, events = ENGINE.apply(st, 0, Add(location="JS"))
    assert st.map["JS"] == (1, 0, 0, 0)
    assert st.supply == (9, 10, 10, 10)
    assert public(events, "action") == [{"kind": "action", "player": 0, "type": "add", "location": "JS"}]
    view = ENGINE.view(st, None)
    spades = view["map"][0]
    assert spades["locations"][2] == {
        "id": "JS",
        "rank": "J",
        "value": 1,
        "cubes": [1, 0, 0, 0],
        "total": 1,
        "controller": 0,
    }


def test_remove_returns_the_cube_to_its_owners_supply() -> None:
    board = empty_board(4)
    board["KS"] = [0, 0, 2, 0]
    st = won_spades_trick(board)
    assert st.supply == (10, 10, 8, 10)
    st, _ = ENGINE.apply(st, 0, Remove(location="KS", owner=2))
    assert st.map["KS"] == (0, 0, 1, 0)
    assert st.supply == (10, 10, 9, 10)


def test_with_an_empty_supply_only_remove_is_legal() -> None:
    board = empty_board(4)
    board["KS"] = [10, 1, 0, 0]
    st = won_spades_trick(board)
    assert ENGINE.legal_actions(st, 0) == [Remove(location="KS", owner=1)]
    with refused("tricky-tactics.error.no_supply"):
        ENGINE.apply(st, 0, Add(location="QS"))


def test_action_is_skipped_when_impossible() -> None:
    board = empty_board(4)
    board["KH"] = [10, 0, 0, 0]  # all of seat 0's cubes are out, none of anyone else's in Spades
    board["QS"] = [0, 0, 0, 0]
    st = scenario(
        mode="4p",
        hands=[["AS", "2H"], ["3S", "3H"], ["4S", "4H"], ["5S", "5H"]],
        board=board,
    )
    for seat, card in enumerate(["AS", "3S", "4S"]):
        st, _ = play(st, seat, card)
    st, events = play(st, 3, "5S")
    assert kinds(events) == ["play", "trick", "action"]
    assert public(events, "action")[0]["type"] == "skip"
    assert st.phase == "play" and ENGINE.to_act(st) == frozenset({0})
    assert st.map == {loc: tuple(counts) for loc, counts in board.items()}
    assert st.tricks[-1].action is not None and st.tricks[-1].action.type == "skip"


def test_human_may_remove_the_automas_cube() -> None:
    board = empty_board()
    board["QD"] = [0, 1, 2]
    st = scenario(hands=[["AD", "2C"], ["3D", "3C"]], automa_deck=["4D", "5H", "6H", "7H"], board=board)
    st, _ = play(st, 0, "AD")
    st, events = play(st, 1, "3D")
    assert "reveal" in kinds(events)  # the automa played last
    assert ENGINE.to_act(st) == frozenset({0})
    assert Remove(location="QD", owner="automa") in ENGINE.legal_actions(st, 0)
    assert logged(st, 0, Remove(location="QD", owner="automa"))[0] == (
        "tricky-tactics.log.removed",
        {"seat": 0, "location": "QD", "owner_seat": "automa"},
    )
    st, _ = ENGINE.apply(st, 0, Remove(location="QD", owner="automa"))
    assert st.map["QD"] == (0, 1, 1)
    assert st.supply[AUTOMA] == 9


# ---- round scoring -------------------------------------------------------------------------------


def last_trick_of_round(board: dict[str, list[int]], options: dict[str, Any] | None = None) -> State:
    """4 humans, one card each left, no cube changes (seat 0 wins a ♣ trick and has no legal Action)."""
    board = copy.deepcopy(board)
    st = scenario(
        mode="4p",
        hands=[["AC"], ["2C"], ["3C"], ["4C"]],
        board=board,
        supply=[0, 0, 0, 0],
        options=options,
    )
    return st


def finish(st: State) -> tuple[State, list[Event]]:
    events: list[Event] = []
    for seat, card in enumerate(["AC", "2C", "3C", "4C"]):
        st, ev = play(st, seat, card)
        events += ev
    return st, events


def test_round_scoring_strict_majority_ties_score_nobody_and_area_bonus() -> None:
    board = empty_board(4)
    board["KS"] = [2, 1, 0, 0]  # seat 0: 3
    board["QS"] = [1, 0, 0, 0]  # seat 0: 2
    board["JS"] = [3, 2, 2, 0]  # seat 0: 1, and the whole Spades Area: +2
    board["KH"] = [2, 2, 1, 0]  # tie for most: nobody
    board["QH"] = [0, 0, 0, 1]  # seat 3: 2
    board["JD"] = [0, 1, 0, 0]  # seat 1: 1
    st = last_trick_of_round(board)
    st, events = finish(st)
    scored = public(events, "round_scored")[0]
    assert scored["points"] == [8, 1, 0, 2]
    assert scored["controlled"] == [3, 1, 0, 1]
    assert scored["area_bonuses"] == [{"suit": "S", "player": 0, "points": 2}]
    by_loc = {row["location"]: row for row in scored["locations"]}
    assert by_loc["KH"] == {"location": "KH", "cubes": [2, 2, 1, 0], "controller": None, "points": 0}
    assert by_loc["KS"]["controller"] == 0 and by_loc["KS"]["points"] == 3
    assert by_loc["QH"]["points"] == 2 and by_loc["KC"]["controller"] is None
    assert len(scored["locations"]) == 12
    assert st.scores == (8, 1, 0, 2)
    assert ENGINE.view(st, None)["last_scoring"]["points"] == [8, 1, 0, 2]
    assert ENGINE.view(st, None)["round_points"] == [[8, 1, 0, 2]]


def test_area_bonus_off_and_custom_values() -> None:
    board = empty_board(4)
    board["KS"] = [1, 0, 0, 0]
    board["QS"] = [1, 0, 0, 0]
    board["JS"] = [1, 0, 0, 0]
    board["JD"] = [0, 0, 1, 0]
    st, _ = finish(last_trick_of_round(board, {"area_bonus": False}))
    assert st.scores == (6, 0, 1, 0)
    st, _ = finish(last_trick_of_round(board, {"value_k": 5, "value_q": 4, "value_j": 0, "area_bonus_points": 3}))
    assert st.scores == (12, 0, 0, 0)  # a J worth 0 still counts as controlled for the bonus


def test_cubes_persist_across_rounds_and_a_new_round_is_dealt() -> None:
    board = empty_board(4)
    board["KS"] = [3, 0, 0, 0]
    board["QD"] = [0, 0, 2, 0]
    st = last_trick_of_round(board)
    st = replace(st, supply=(0, 10, 8, 10))  # seat 0 wins the last trick with nothing to do
    dealer = st.dealer
    st, events = finish(st)
    assert kinds(events)[-3:] == ["round_scored", "round_end", "deal"]
    assert st.round == 2
    assert st.map["KS"] == (3, 0, 0, 0) and st.map["QD"] == (0, 0, 2, 0)
    assert st.supply == (0, 10, 8, 10)  # nothing comes back at round end
    assert [len(h) for h in st.hands] == [10, 10, 10, 10]
    assert st.dealer == (dealer + 1) % 4
    assert ENGINE.to_act(st) == frozenset({(dealer + 2) % 4})
    view = ENGINE.view(st, None)
    assert view["map"][0]["locations"][0]["cubes"] == [3, 0, 0, 0]


def final_round(board: dict[str, list[int]], scores: list[int]) -> State:
    st = last_trick_of_round(board, {"rounds": 1})
    return replace(st, scores=tuple(scores))


def test_final_tie_break_on_locations_controlled_at_last_scoring() -> None:
    board = empty_board(4)
    board["KS"] = [1, 0, 0, 0]  # seat 0: 3 points, 1 Location
    board["QH"] = [0, 1, 0, 0]  # seat 1: 2 + 1 = 3 points, 2 Locations
    board["JH"] = [0, 1, 0, 0]
    st, events = finish(final_round(board, [0, 0, 0, 0]))
    out = ENGINE.outcome(st)
    assert out is not None
    assert out.scores == [3.0, 3.0, 0.0, 0.0]
    assert out.winners == [1]
    assert out.ranks == [1, 0, 2, 2]
    assert out.summary == LogEntry(
        "tricky-tactics.result.won_on_locations", {"seats": [1], "count": 1, "points": 3, "locations": 2}
    )
    assert kinds(events)[-1] == "game_over"
    assert ENGINE.to_act(st) == frozenset()
    assert ENGINE.view(st, 0)["standings"][1] == {"player": 1, "points": 3, "controlled": 2, "on_map": 2, "place": 0}


def test_final_tie_break_on_cubes_then_shared() -> None:
    board = empty_board(4)
    board["KS"] = [1, 0, 0, 0]
    board["KH"] = [0, 1, 0, 0]
    board["JD"] = [2, 2, 0, 0]  # tied: scores nobody, but counts as cubes on the map
    board["QD"] = [0, 1, 1, 0]
    st, _ = finish(final_round(board, [0, 0, 0, 0]))
    out = ENGINE.outcome(st)
    assert out is not None and out.scores == [3.0, 3.0, 0.0, 0.0]
    assert out.winners == [1] and out.ranks == [1, 0, 2, 3]  # 4 cubes against 3; seat 2 beats 3 on cubes
    assert out.summary == LogEntry(
        "tricky-tactics.result.won_on_cubes", {"seats": [1], "count": 1, "points": 3, "cubes": 4}
    )
    board["QD"] = [1, 1, 0, 0]
    st, _ = finish(final_round(board, [0, 0, 0, 0]))
    out = ENGINE.outcome(st)
    assert out is not None and out.winners == [0, 1] and out.ranks == [0, 0, 2, 2]
    assert out.summary == LogEntry("tricky-tactics.result.shared", {"seats": [0, 1], "count": 2, "points": 3})


def test_points_from_earlier_rounds_count() -> None:
    board = empty_board(4)
    board["KS"] = [1, 0, 0, 0]
    st, _ = finish(final_round(board, [0, 5, 0, 0]))
    out = ENGINE.outcome(st)
    assert out is not None and out.scores == [3.0, 5.0, 0.0, 0.0] and out.winners == [1]


def test_when_the_automa_wins_no_human_seat_wins() -> None:
    board = empty_board()
    board["KS"] = [0, 0, 1]
    st = scenario(
        hands=[["2C"], ["3C"]],
        automa_deck=["AC", "5H", "6H"],
        board=board,
        supply=[0, 0, 0],
        options={"rounds": 1},
    )
    st, _ = play(st, 0, "2C")
    st, events = play(st, 1, "3C")
    assert public(events, "play")[-1]["card"] == "AC"
    out = ENGINE.outcome(st)
    assert out is not None
    assert out.scores == [0.0, 0.0] and out.winners == [] and out.ranks == [1, 1]
    assert out.summary == LogEntry("tricky-tactics.result.automa_won", {"points": 3})
    assert ENGINE.view(st, None)["players"][2]["score"] == 3


@pytest.mark.parametrize(
    ("keys", "key", "params"),
    [
        ([(3, 1, 4), (1, 0, 1), (3, 2, 2)], "automa_won_on_locations", {"points": 3, "locations": 2}),
        ([(3, 1, 4), (1, 0, 1), (3, 1, 5)], "automa_won_on_cubes", {"points": 3, "cubes": 5}),
        ([(3, 1, 4), (1, 0, 1), (3, 1, 4)], "shared_with_automa", {"seats": [0], "count": 1, "points": 3}),
    ],
)
def test_the_summary_of_a_tie_with_the_automa(
    keys: list[tuple[int, int, int]], key: str, params: dict[str, Any]
) -> None:
    """Places break ties on points by Locations controlled, then cubes on the map; the automa is a player."""
    st: Any = SimpleNamespace(n=3, automa=AUTOMA)
    top = [p for p in range(3) if keys[p] == max(keys)]
    assert ENGINE._summary(st, keys, top) == LogEntry(f"tricky-tactics.result.{key}", params)


# ---- the automa ----------------------------------------------------------------------------------


def test_the_automa_plays_its_last_revealed_card() -> None:
    assert automa_choose(["5H"], "S") == (
        "5H",
        [{"key": "tricky-tactics.reason.last_card", "params": {"card": "5H"}}],
    )


def test_seed_example_follow_with_one_match() -> None:
    assert automa_choose(["9C", "AH"], "H")[0] == "AH"


def test_seed_example_no_match_plays_the_higher() -> None:
    card, reason = automa_choose(["10D", "8H"], "C")
    assert card == "10D"
    assert reason == [{"key": "tricky-tactics.reason.no_suit_higher", "params": {"suit": "C", "card": "10D"}}]


def test_automa_follows_with_the_higher_of_two_matches_and_leads_the_higher() -> None:
    card, reason = automa_choose(["4H", "10H"], "H")
    assert card == "10H" and reason == [
        {"key": "tricky-tactics.reason.followed_higher", "params": {"suit": "H", "card": "10H"}}
    ]
    card, reason = automa_choose(["9C", "AH"], "C")
    assert card == "9C" and reason == [
        {"key": "tricky-tactics.reason.followed_only", "params": {"suit": "C", "card": "9C"}}
    ]
    card, reason = automa_choose(["2S", "AD"], None)
    assert card == "AD" and reason == [{"key": "tricky-tactics.reason.led_higher", "params": {"card": "AD"}}]


def test_equal_ranks_play_left() -> None:
    assert automa_choose(["7S", "7H"], None)[0] == "7S"
    assert automa_choose(["7H", "7S"], None)[0] == "7H"
    card, reason = automa_choose(["7H", "7S"], "D")
    assert card == "7H" and reason == [
        {"key": "tricky-tactics.reason.no_suit_equal", "params": {"suit": "D", "card": "7H"}}
    ]


def test_equal_ranks_play_left_in_a_game() -> None:
    st = scenario(hands=[["2D", "3D"], ["4D", "5D"]], automa_deck=["7H", "7S", "8C", "9C"], leader=AUTOMA)
    assert st.trick == ((AUTOMA, "7H"),)
    assert st.automa_row == ("7S",)
    assert ENGINE.view(st, 0)["trick"][0]["reason"] == [
        {"key": "tricky-tactics.reason.led_equal", "params": {"card": "7H"}}
    ]


def test_seed_example_follow_in_a_game_reveal_row_shown_then_only_carryover() -> None:
    st = scenario(
        hands=[["5H", "2C"], ["3H", "4C"]],
        automa_deck=["9C", "AH", "6D", "8S", "2S"],
    )
    view = ENGINE.view(st, None)
    assert view["automa"] == {"row": [], "unrevealed": 5, "last_row": None, "last_card": None, "last_reason": None}
    st, _ = play(st, 0, "5H")
    st, events = play(st, 1, "3H")
    reveal = public(events, "reveal")[0]
    assert reveal == {"kind": "reveal", "player": "automa", "cards": ["9C", "AH"], "row": ["9C", "AH"]}
    automa_plays = [e for e in public(events, "play") if e["player"] == "automa"]
    automa_play = automa_plays[0]
    assert automa_play["card"] == "AH"
    assert automa_play["reason"] == [
        {"key": "tricky-tactics.reason.followed_only", "params": {"suit": "H", "card": "AH"}}
    ]
    # Between its turns only the carryover is public; the next card stays hidden.
    # The automa won with A♥ and adds to the empty K♥.
    assert public(events, "action")[0] == {
        "kind": "action",
        "player": "automa",
        "type": "add",
        "location": "KH",
        "reason": [{"key": "tricky-tactics.reason.added_empty", "params": {"location": "KH"}}],
    }
    # It leads the next trick: 9C slid Left, the new Right card (6D) is revealed only now, and it leads
    # the higher of [9C, 6D].
    assert [e["row"] for e in public(events, "reveal")] == [["9C", "AH"], ["9C", "6D"]]
    assert public(events, "reveal")[-1]["cards"] == ["6D"]
    assert st.trick == ((AUTOMA, "9C"),)
    view = ENGINE.view(st, 0)
    assert view["automa"]["row"] == ["6D"] and view["automa"]["unrevealed"] == 2
    assert view["automa"]["last_row"] == ["9C", "6D"]
    for viewer in (None, 0, 1):
        assert cards_in(ENGINE.view(st, viewer)).isdisjoint({"8S", "2S"})


def test_reveal_only_on_the_automas_turn() -> None:
    """Between its plays the view shows exactly one revealed automa card, which is the carryover."""
    st = scenario(hands=[["5H", "2C", "3S"], ["3H", "4C", "4S"]], automa_deck=["9C", "2H", "6D", "8S", "2S"])
    st, _ = play(st, 0, "5H")
    st, events = play(st, 1, "3H")
    # 5H wins (the automa followed with 2H, the only heart in [9C, 2H]); 9C is the carryover.
    assert public(events, "play")[-1]["card"] == "2H"
    assert ENGINE.view(st, 1)["automa"]["row"] == ["9C"]
    assert st.automa_deck == ("6D", "8S", "2S")
    st, _ = ENGINE.apply(st, 0, Add(location="KH"))
    st, events = play(st, 0, "2C")
    assert kinds(events) == ["play"]  # the automa plays after Player 2, nothing revealed yet
    assert ENGINE.view(st, 0)["automa"]["row"] == ["9C"]
    st, events = play(st, 1, "4C")
    # Its turn: 6D is revealed to the Right of the carryover and it follows ♣ with 9C, winning the trick;
    # it then leads the next trick, revealing 8S only at that moment.
    assert [e["row"] for e in public(events, "reveal")] == [["9C", "6D"], ["6D", "8S"]]
    assert [e["card"] for e in public(events, "play") if e["player"] == "automa"] == ["9C", "8S"]
    assert ENGINE.view(st, 0)["automa"] | {"last_reason": None} == {
        "row": ["6D"],
        "unrevealed": 1,
        "last_row": ["6D", "8S"],
        "last_card": "8S",
        "last_reason": None,
    }


def test_revealed_only_follow_lets_the_automa_ignore_unrevealed_cards() -> None:
    st = scenario(hands=[["5H", "2C"], ["3H", "4C"]], automa_deck=["9C", "8D", "AH", "2S"])
    st, _ = play(st, 0, "5H")
    st, events = play(st, 1, "3H")
    assert public(events, "play")[-1]["card"] == "9C"
    assert public(events, "trick")[0]["winner"] == 0


def test_seed_example_add_target_empty_king_then_most_cubes_with_ties_k_q_j() -> None:
    board = empty_board()
    kind, loc, _, reason = automa_action_choice(board, 5, AUTOMA, 3, "S")
    assert (kind, loc, reason) == (
        "add",
        "KS",
        [{"key": "tricky-tactics.reason.added_empty", "params": {"location": "KS"}}],
    )
    board["KS"] = [1, 0, 0]
    assert automa_action_choice(board, 5, AUTOMA, 3, "S")[1] == "QS"
    board["QS"] = [0, 1, 0]
    assert automa_action_choice(board, 5, AUTOMA, 3, "S")[1] == "JS"
    board["JS"] = [0, 1, 1]
    kind, loc, _, reason = automa_action_choice(board, 5, AUTOMA, 3, "S")
    assert (kind, loc) == ("add", "JS")
    assert reason == [{"key": "tricky-tactics.reason.added_most", "params": {"location": "JS", "cubes": 2}}]
    board["QS"] = [0, 2, 0]
    kind, loc, _, reason = automa_action_choice(board, 5, AUTOMA, 3, "S")
    assert loc == "QS" and reason[-1]["key"] == "tricky-tactics.reason.tied_kqj"  # Q and J both hold 2: Q first
    board["KS"] = [0, 2, 1]
    assert automa_action_choice(board, 5, AUTOMA, 3, "S")[1] == "KS"


def test_seed_example_add_in_a_game() -> None:
    board = empty_board()
    board["KS"] = [1, 0, 0]
    board["QS"] = [0, 2, 0]
    board["JS"] = [0, 0, 2]
    st = scenario(hands=[["2S", "3D"], ["3S", "4D"]], automa_deck=["AS", "5H", "6H"], board=board)
    st, _ = play(st, 0, "2S")
    st, events = play(st, 1, "3S")
    action = public(events, "action")[0]
    assert action["player"] == "automa" and action["location"] == "QS"
    assert st.map["QS"] == (0, 2, 1) and st.supply[AUTOMA] == 7


def remove_example_board() -> dict[str, list[int]]:
    """The seed's example: Hearts totals K=5, Q=5, J=3; all 10 automa cubes are out."""
    board = empty_board()
    board["KH"] = [0, 0, 5]  # only the automa's own cubes: not a Remove target
    board["QH"] = [2, 2, 1]  # 5 cubes, the players tied at 2
    board["JH"] = [1, 2, 0]
    board["KS"] = [0, 0, 4]
    return board


def test_seed_example_remove_at_q_hearts_per_rulings() -> None:
    board = remove_example_board()
    assert [sum(board[f"{r}H"]) for r in "KQJ"] == [5, 5, 3]
    kind, loc, owner, reason = automa_action_choice(board, 0, AUTOMA, 3, "H")
    assert (kind, loc, owner) == ("remove", "QH", 0)  # tied players: next clockwise from the automa
    assert reason[-1]["key"] == "tricky-tactics.reason.next_clockwise"
    # Without a tie the opponent with most cubes there loses one.
    board["QH"] = [1, 3, 1]
    assert automa_action_choice(board, 0, AUTOMA, 3, "H")[1:3] == ("QH", 1)


def test_seed_example_remove_in_a_game() -> None:
    board = remove_example_board()
    st = scenario(hands=[["2H", "3D"], ["3H", "4D"]], automa_deck=["AH", "5C", "6C"], board=board)
    assert st.supply[AUTOMA] == 0
    st, _ = play(st, 0, "2H")
    st, events = play(st, 1, "3H")
    action = public(events, "action")[0]
    assert action == {
        "kind": "action",
        "player": "automa",
        "type": "remove",
        "location": "QH",
        "owner": 0,
        "reason": [
            *[{"key": "tricky-tactics.reason.removed_most", "params": {"owner_seat": 0, "location": "QH", "cubes": 5}}],
            {"key": "tricky-tactics.reason.next_clockwise", "params": {}},
        ],
    }
    assert st.map["QH"] == (1, 2, 1) and st.map["KH"] == (0, 0, 5)
    assert st.supply == (8, 6, 0)  # the cube went back to Player 1's supply (7 + 1)


def test_automa_remove_ties_between_locations_go_k_q_j() -> None:
    board = empty_board()
    board["QD"] = [1, 1, 1]
    board["JD"] = [0, 3, 0]
    assert automa_action_choice(board, 0, AUTOMA, 3, "D")[1:3] == ("QD", 0)
    board["KD"] = [0, 1, 2]
    assert automa_action_choice(board, 0, AUTOMA, 3, "D")[1:3] == ("KD", 1)


def test_automa_remove_is_skipped_without_an_opponent_cube() -> None:
    board = empty_board()
    board["KC"] = [0, 0, 10]
    assert automa_action_choice(board, 0, AUTOMA, 3, "C")[0] == "skip"
    st = scenario(hands=[["2C", "3D"], ["3C", "4D"]], automa_deck=["AC", "5H", "6H"], board=board)
    st, _ = play(st, 0, "2C")
    st, events = play(st, 1, "3C")
    assert public(events, "action")[0]["type"] == "skip"
    assert st.map == {loc: tuple(counts) for loc, counts in board.items()} and st.supply == (10, 10, 0)


def test_automa_unrevealed_cards_are_discarded_unseen_at_round_end() -> None:
    st = scenario(
        hands=[["5D"], ["6D"]],
        automa_deck=["2S", "3S", "9H", "AS"],
        options={"rounds": 2},
    )
    st, _ = play(st, 0, "5D")
    st, events = play(st, 1, "6D")
    assert public(events, "play")[-1]["card"] == "3S" and ENGINE.to_act(st) == frozenset({1})
    assert ENGINE.view(st, None)["automa"]["row"] == ["2S"]
    st, events = ENGINE.apply(st, 1, Add(location="KD"))
    end = public(events, "round_end")[0]
    assert end == {"kind": "round_end", "round": 1, "discarded_unseen": 2, "carryover_discarded": ["2S"]}
    assert sorted(st.secret_discards) == ["9H", "AS"]
    old_round = events[: kinds(events).index("deal")]
    for viewer in (None, 0, 1):
        for e in old_round:
            assert cards_in(e.redact(viewer)).isdisjoint({"9H", "AS"})
    # A new round: 12 + 12 + 16 again and an empty Reveal Row.
    assert st.round == 2
    automa_cards = [*st.automa_deck, *st.automa_row, *(c for p, c in st.trick if p == AUTOMA)]
    assert len(automa_cards) == 16


def test_automa_leading_at_the_start_shows_its_card_and_reason_in_the_view() -> None:
    for seed in range(30):
        st = ENGINE.new_game(ENGINE.parse_options({}), seed)
        if st.leader == AUTOMA:
            break
    else:
        pytest.fail("no seed with the automa leading")
    view = ENGINE.view(st, 0)
    assert len(view["trick"]) == 1 and view["trick"][0]["player"] == "automa"
    assert view["trick"][0]["reason"][0]["key"] in (
        "tricky-tactics.reason.led_higher",
        "tricky-tactics.reason.led_equal",
    )
    assert len(view["automa"]["row"]) == 1 and view["automa"]["unrevealed"] == 14


# ---- timeouts, descriptions ----------------------------------------------------------------------


def test_timeout_plays_the_lowest_legal_card_and_adds_first() -> None:
    st = scenario(mode="4p", hands=[["AS", "2H", "3C"], ["3S", "9S", "2C"], ["4S", "4H"], ["5S", "5H"]])
    assert ENGINE.timeout_action(st, 0) == PlayCard(card="2H")
    st, _ = play(st, 0, "AS")
    assert ENGINE.timeout_action(st, 1) == PlayCard(card="3S")
    st = won_spades_trick()
    assert ENGINE.timeout_action(st, 0) == Add(location="KS")
    board = empty_board(4)
    board["KH"] = [10, 0, 0, 0]
    board["JS"] = [0, 0, 1, 0]
    st = won_spades_trick(board)
    assert ENGINE.timeout_action(st, 0) == Remove(location="JS", owner=2)
    assert ENGINE.timer(st) is None


def test_log_entries() -> None:
    st = scenario(mode="4p", hands=[["AS", "2H"], ["3S", "3H"], ["4S", "4H"], ["5S", "5H"]])
    assert logged(st, 0, PlayCard(card="AS")) == [("tricky-tactics.log.led", {"seat": 0, "card": "AS"})]
    st, _ = play(st, 0, "AS")
    assert logged(st, 1, PlayCard(card="3S")) == [("tricky-tactics.log.played", {"seat": 1, "card": "3S"})]


def test_the_automa_plays_appear_in_the_log() -> None:
    st = scenario(hands=[["2H", "3D"], ["3H", "4D"]], automa_deck=["AH", "5C", "6C"])
    st, _ = play(st, 0, "2H")
    entries = logged(st, 1, PlayCard(card="3H"))
    assert entries[:4] == [
        ("tricky-tactics.log.played", {"seat": 1, "card": "3H"}),
        ("tricky-tactics.log.automa_revealed", {"cards": ["AH", "5C"]}),
        ("tricky-tactics.log.automa_played", {"card": "AH", "reason": REASON_FOLLOWED}),
        ("tricky-tactics.log.trick_won", {"seat": "automa", "card": "AH"}),
    ]
    assert entries[4][0] == "tricky-tactics.log.automa_action"


REASON_FOLLOWED = [{"key": "tricky-tactics.reason.followed_only", "params": {"suit": "H", "card": "AH"}}]


def logged(st: State, seat: int, action: TrickyTacticsAction) -> list[tuple[str, dict[str, Any]]]:
    """The log entries of an action, as (key, params)."""
    entries = ENGINE.log_entries(st, seat, action, ENGINE.apply(st, seat, action))
    return [(entry.key, dict(entry.params)) for entry in entries]


@contextlib.contextmanager
def refused(code: str) -> Iterator[None]:
    """The action inside is refused with ``code``."""
    with pytest.raises(IllegalAction) as err:
        yield
    assert err.value.code == code, err.value


# ---- whole games, hidden information, the bot ------------------------------------------------------


def hidden_cards(st: State, viewer: int | None) -> set[str]:
    """Cards the viewer may not know now: other hands, the set-aside cards, unrevealed automa cards."""
    out = set(st.set_aside) | set(st.automa_deck)
    for p, hand in enumerate(st.hands):
        if p != viewer:
            out |= set(hand)
    return out


CARD_RE = re.compile(r"(?<![A-Z0-9])(?:A|10|[2-9])[SHDC](?![A-Z0-9])")


def cards_in(data: Any) -> set[str]:
    return set(CARD_RE.findall(orjson.dumps(data).decode()))


@pytest.mark.slow  # many random games
@pytest.mark.parametrize("mode", ["automa", "3p", "4p"])
def test_no_view_or_event_leaks_hidden_cards_over_many_random_games(mode: str) -> None:
    checked = 0
    for seed in range(25):
        rng = random.Random(seed)
        st = ENGINE.new_game(ENGINE.parse_options({"mode": mode, "rounds": 2}), seed)
        viewers: list[int | None] = [None, *range(len(ENGINE.seats_of(st)))]
        while True:
            for viewer in viewers:
                leaked = cards_in(ENGINE.view(st, viewer)) & hidden_cards(st, viewer)
                assert not leaked, f"view for {viewer} leaks {leaked}"
                checked += 1
            if not ENGINE.to_act(st):
                break
            seat = rng.choice(sorted(ENGINE.to_act(st)))
            st, events = ENGINE.apply(st, seat, rng.choice(ENGINE.legal_actions(st, seat)))
            # Events before a new deal belong to the round that just ended: then only the discarded
            # set-aside / unrevealed automa cards are still hidden (every hand is empty).
            split = next((i for i, e in enumerate(events) if e.kind == "deal"), len(events))
            ended = any(e.kind == "round_end" for e in events)
            for viewer in viewers:
                before = set(st.secret_discards) if ended else hidden_cards(st, viewer)
                for e in events[:split]:
                    leaked = cards_in(e.redact(viewer)) & before
                    assert not leaked, f"{e.kind} event for {viewer} leaks {leaked}"
                for e in events[split:]:
                    leaked = cards_in(e.redact(viewer)) & hidden_cards(st, viewer)
                    assert not leaked, f"{e.kind} event for {viewer} leaks {leaked}"
            # And the deal event tells each seat its own hand exactly.
            for e in events[split : split + 1]:
                for viewer in viewers:
                    data = e.redact(viewer)
                    if viewer is None:
                        assert "hand" not in data
                    else:
                        assert data["hand"] == list(st.hands[viewer])
    assert checked > 1000


def test_cube_totals_are_conserved_and_every_game_ends() -> None:
    for mode in ("automa", "3p", "4p"):
        for seed in range(5):
            rng = random.Random(seed)
            st = ENGINE.new_game(ENGINE.parse_options({"mode": mode, "cubes": 4}), seed)
            while ENGINE.to_act(st):
                seat = min(ENGINE.to_act(st))
                st, _ = ENGINE.apply(st, seat, rng.choice(ENGINE.legal_actions(st, seat)))
                for p in range(st.n):
                    assert st.supply[p] + sum(st.map[loc][p] for loc in LOCATIONS) == 4
                    assert st.supply[p] >= 0
            out = ENGINE.outcome(st)
            assert out is not None and len(out.scores) == len(ENGINE.seats_of(st))
            assert st.round == 3 and len(st.round_points) == 3


def test_automa_plays_one_card_per_trick_and_reveals_one_new_card_per_play() -> None:
    rng = random.Random(8)
    st = ENGINE.new_game(ENGINE.parse_options({"rounds": 1}), 8)
    reveals: Counter[int] = Counter()
    plays = 1 if st.trick else 0
    revealed = 2 if st.trick else 0
    while ENGINE.to_act(st):
        seat = min(ENGINE.to_act(st))
        st, events = ENGINE.apply(st, seat, rng.choice(ENGINE.legal_actions(st, seat)))
        for e in events:
            if e.kind == "reveal":
                reveals[len(e.public["cards"])] += 1
                revealed += len(e.public["cards"])
            if e.kind == "play" and e.public["player"] == "automa":
                plays += 1
        if ENGINE.to_act(st):
            assert len(ENGINE.view(st, None)["automa"]["row"]) == (1 if plays else 0)
    assert plays == 12
    assert revealed == 13  # 2 at its first play, then 1 per play: 3 of its 16 are never seen


def test_bot_wins_tricks_that_matter_and_ducks_otherwise() -> None:
    # A cube in ♠ matters (K♠ is open): as last player the bot wins with its cheapest winner.
    st = scenario(mode="4p", hands=[["9S", "2H"], ["10S", "3H"], ["4S", "4H"], ["AS", "5S", "5H"]])
    for seat, card in enumerate(["9S", "10S", "4S"]):
        st, _ = play(st, seat, card)
    assert BOT.choose(st, 3, random.Random(0)) == PlayCard(card="AS")
    # Nothing to do in ♠ (no supply, no opponent cube there): the bot ducks with its highest loser.
    board = empty_board(4)
    board["KH"] = [0, 0, 0, 10]
    st = scenario(
        mode="4p",
        hands=[["9S", "2H"], ["10S", "3H"], ["4S", "4H"], ["AS", "6S", "5H"]],
        board=board,
    )
    for seat, card in enumerate(["9S", "10S", "4S"]):
        st, _ = play(st, seat, card)
    assert BOT.choose(st, 3, random.Random(0)) == PlayCard(card="6S")


def test_bot_takes_control_with_its_action() -> None:
    board = empty_board(4)
    board["KS"] = [1, 1, 0, 0]
    board["QS"] = [0, 2, 0, 0]
    st = won_spades_trick(board)
    assert BOT.choose(st, 0, random.Random(0)) == Add(location="KS")


def test_bot_beats_random_play() -> None:
    bot_total = rand_total = 0.0
    bot_wins = 0
    games = 16
    for seed in range(games):
        rng = random.Random(seed)
        st = ENGINE.new_game(ENGINE.parse_options({}), seed)
        while ENGINE.to_act(st):
            seat = min(ENGINE.to_act(st))
            action = BOT.choose(st, seat, rng) if seat == 0 else rng.choice(ENGINE.legal_actions(st, seat))
            st, _ = ENGINE.apply(st, seat, action)
        out = ENGINE.outcome(st)
        assert out is not None
        bot_total += out.scores[0]
        rand_total += out.scores[1]
        bot_wins += 0 in out.winners
    assert bot_total > 1.5 * rand_total
    assert bot_wins > games // 2


def test_the_dump_keeps_the_shape_stored_games_have() -> None:
    """Stored snapshots were written when the state was a plain dict: the typed state dumps the same keys,
    in the same order, and reads them back to an equal state."""
    st = ENGINE.new_game(ENGINE.parse_options({}), 5)
    data = ENGINE.dump(st)
    assert list(data) == [
        "options", "n", "automa", "deal_seeds", "round", "dealer", "leader", "turn", "phase", "hands",
        "automa_deck", "automa_row", "automa_last", "set_aside", "trick", "tricks", "last_trick", "pending",
        "map", "supply", "scores", "round_points", "last_scoring", "controlled", "secret_discards",
    ]  # fmt: skip
    assert data["options"] == ENGINE.parse_options({}).model_dump()
    assert ENGINE.load(orjson.loads(orjson.dumps(data))) == st
