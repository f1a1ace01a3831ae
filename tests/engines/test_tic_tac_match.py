"""Tic Tac Match: scenario tests for every rule of docs/games/tic-tac-match.md, hidden information, the bot."""

from __future__ import annotations

import contextlib
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import orjson
import pytest

import engines.tic_tac_match.rules as ttm
from engines.base import Event, IllegalAction, InvalidOptions, InvalidState, LogEntry
from engines.tic_tac_match.actions import Discard, Double, Flip, Forfeit, Play, TicTacMatchAction, Wipeout
from engines.tic_tac_match.bots import BOT, threats
from engines.tic_tac_match.cards import COLOURS, SYMBOLS, can_stack, card_json, card_kind, card_type
from engines.tic_tac_match.options import TicTacMatchOptions
from engines.tic_tac_match.plays import has_legal_play
from engines.tic_tac_match.rules import ENGINE
from engines.tic_tac_match.state import TicTacMatchState

E = ENGINE


# ---- building exact positions ----------------------------------------------------------------------


class Cards:
    """Hands out distinct card ids by name, so a position never uses one card twice."""

    def __init__(self) -> None:
        self.used: set[int] = set()

    def _take(self, first: int, count: int, what: str) -> int:
        for card in range(first, first + count):
            if card not in self.used:
                self.used.add(card)
                return card
        raise AssertionError(f"no copy of {what} left")

    def sym(self, name: str) -> int:
        """``"rX"`` = a red X, ``"gO"`` = a green O (b, g, r, y)."""
        colour = "bgry".index(name[0])
        symbol = SYMBOLS.index(name[1])
        return self._take((colour * 2 + symbol) * 6, 6, name)

    def flip(self) -> int:
        return self._take(48, 4, "Flip")

    def wipeout(self) -> int:
        return self._take(52, 4, "Wipe-Out")

    def double(self) -> int:
        return self._take(56, 4, "Double Play")

    def card(self, name: str) -> int:
        return {"F": self.flip, "W": self.wipeout, "D": self.double}.get(name, lambda: self.sym(name))()


def position(
    cards: Cards,
    *,
    hands: list[list[int]],
    cells: dict[int, list[int]] | None = None,
    discard: list[int] | None = None,
    draw_top: list[int] | None = None,
    draw_all: list[int] | None = None,
    id_symbol: int = 0,
    turn: int = 0,
    plays_left: int = 0,
    series: int = 1,
    dealer: int | None = None,
    wins: tuple[int, int] = (0, 0),
) -> TicTacMatchState:
    """A state with exactly these cards; every other card goes to the draw pile, below ``draw_top``
    (whose first card is drawn first). With ``draw_all`` the draw pile is exactly that (drawn first first)
    and every other card goes to the discard pile, below ``discard``."""
    players = len(hands)
    stacks = [list((cells or {}).get(i, [])) for i in range(9)]
    placed = [c for h in hands for c in h] + [c for st in stacks for c in st] + list(discard or [])
    placed += list(draw_top or []) + list(draw_all or [])
    assert len(placed) == len(set(placed)), "a card is used twice"
    rest = sorted(set(range(60)) - set(placed))
    if draw_all is not None:
        draw = list(reversed(draw_all))
        discard_pile = rest + list(discard or [])
    else:
        draw = rest + list(reversed(draw_top or []))
        discard_pile = list(discard or [])
    data = {
        "players": players,
        "series": series,
        "salt": 12345,
        "match": 1,
        "dealer": (turn - 1) % players if dealer is None else dealer,
        "wins": list(wins),
        "id_symbol": id_symbol,
        "draw": draw,
        "discard": discard_pile,
        "cells": stacks,
        "hands": hands,
        "turn": turn,
        "plays_left": plays_left,
        "shuffles": 1,
        "results": [],
    }
    return E.load(orjson.loads(orjson.dumps(data)))


def play(card: int, r: int, c: int) -> Play:
    return Play(card=card, cell=(r, c))


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def hand_of(cards: Cards, *names: str) -> list[int]:
    return [cards.card(n) for n in names]


# A full grid on which blue X and green O cards can go nowhere (the tic-tac-toe draw X O X / X O O / O X X
# drawn in blue X and green O: a card fits a top only by matching colour or symbol, not both).
DRAWN_GRID = ("bX", "gO", "bX", "bX", "gO", "gO", "gO", "bX", "bX")


def grid_of(cards: Cards, names: tuple[str | None, ...]) -> dict[int, list[int]]:
    return {i: [cards.sym(n)] for i, n in enumerate(names) if n is not None}


# ---- options and seats ------------------------------------------------------------------------------


def test_options_and_seats() -> None:
    assert E.parse_options({}) == TicTacMatchOptions(players=2, series=1)
    for bad in ({"players": 3}, {"series": 0}, {"series": 6}, {"colour": "red"}):
        with pytest.raises(InvalidOptions):
            E.parse_options(bad)
    two = E.seats(E.parse_options({"players": 2}))
    assert [s.label for s in two] == ["Player 1", "Player 2"] and all(s.team is None for s in two)
    four = E.seats(E.parse_options({"players": 4}))
    assert [s.team for s in four] == [0, 1, 0, 1]  # partners opposite
    state = E.new_game(E.parse_options({"players": 4, "series": 3}), 1)
    assert E.options_of(state) == TicTacMatchOptions(players=4, series=3)


# ---- deck and setup ---------------------------------------------------------------------------------


def all_cards(state: TicTacMatchState) -> list[int]:
    return [*state.draw, *state.discard, *(c for st in state.cells for c in st), *(c for h in state.hands for c in h)]


def test_deck_composition() -> None:
    state = E.new_game(E.parse_options({}), 7)
    cards = all_cards(state)
    assert sorted(cards) == list(range(60))
    faces = Counter((f["kind"], f.get("colour"), f.get("symbol")) for f in (card_json(c) for c in cards))
    assert len(faces) == 4 * 2 + 3
    for colour in ("blue", "green", "red", "yellow"):
        for symbol in ("X", "O"):
            assert faces["symbol", colour, symbol] == 6
    assert sum(n for (kind, _, _), n in faces.items() if kind == "symbol") == 48
    for kind in ("flip", "wipeout", "double"):
        assert faces[kind, None, None] == 4
    assert sum(faces.values()) == 60


@pytest.mark.parametrize("players", [2, 4])
def test_setup(players: int) -> None:
    dealers = set()
    for seed in range(40):
        state = E.new_game(E.parse_options({"players": players}), seed)
        dealers.add(state.dealer)
        assert sorted(all_cards(state)) == list(range(60))
        assert all(len(h) == 4 for h in state.hands)
        assert [len(st) for st in state.cells] == [0, 0, 0, 0, 1, 0, 0, 0, 0]
        centre = state.cells[4][0]
        assert card_kind(centre) == "symbol"
        assert all(card_kind(c) != "symbol" for c in state.discard)  # turned-up non-symbols
        assert len(state.draw) == 60 - 4 * players - 1 - len(state.discard)
        # The dealer's side shows the centre card's symbol; the other side the other one.
        symbol = card_type(centre) % 2
        assert state.seat_symbol(state.dealer) == symbol
        assert state.seat_symbol((state.dealer + 1) % players) == 1 - symbol
        assert state.turn == (state.dealer + 1) % players  # left of the dealer starts
    assert dealers == set(range(players))  # the first dealer is random


def test_turned_up_cards_are_discarded_and_announced() -> None:
    # Find a seed whose deal turns up at least one action card before the first Symbol card.
    for seed in range(200):
        state = E.new_game(E.parse_options({}), seed)
        if state.discard:
            break
    else:
        pytest.fail("no seed turns up an action card")
    # Replaying the same match start through the internal path reports the turned-up cards.
    events: list[Event] = []
    E._start_match(state, events)
    start = events[0].redact(None)
    assert start["kind"] == "match_start"
    assert [c["id"] for c in start["turned_up"]] == [*state.discard, state.cells[4][0]]
    assert "hand" not in start


# ---- the stacking rule ------------------------------------------------------------------------------


def test_stacking_rule_over_every_pair_of_symbol_cards() -> None:
    """For every ordered pair of distinct Symbol cards, the engine allows the play exactly when the card
    matches the top card's colour or its symbol but not both, and refuses it otherwise with the reason."""
    checked = 0
    for top in range(48):
        for card in range(48):
            if card == top:
                continue
            t_col, t_sym = COLOURS[top // 12], SYMBOLS[top // 6 % 2]
            c_col, c_sym = COLOURS[card // 12], SYMBOLS[card // 6 % 2]
            expected = (c_col == t_col and c_sym != t_sym) or (c_sym == t_sym and c_col != t_col)
            assert can_stack(card, top) is expected
            others = [c for c in range(48, 60) if c not in (card, top)]
            state = position(Cards(), hands=[[card, *others[:3]], others[3:7]], cells={0: [top]})
            offered = Play(card=card, cell=(0, 0)) in E.legal_actions(state, 0)
            assert offered is expected
            if expected:
                after, _ = E.apply(state, 0, play(card, 0, 0))
                assert after.cells[0] == (top, card)
            else:
                with refused("tic-tac-match.error.matches_both", "tic-tac-match.error.matches_neither"):
                    E.apply(state, 0, play(card, 0, 0))
            checked += 1
    assert checked == 48 * 47


def test_any_symbol_card_goes_on_an_empty_cell_and_action_cards_never_on_the_grid() -> None:
    c = Cards()
    state = position(c, hands=[hand_of(c, "rX", "F", "W", "D"), hand_of(c, "bO", "gO", "yO", "yX")])
    cells = {a.cell for a in E.legal_actions(state, 0) if isinstance(a, Play)}
    assert cells == {(r, col) for r in range(3) for col in range(3)}  # an empty grid: every cell
    for action_card in state.hands[0][1:]:
        with refused("tic-tac-match.error.wrong_card"):
            E.apply(state, 0, play(action_card, 0, 0))


def test_stacking_reasons() -> None:
    c = Cards()
    top = c.sym("rX")
    same, neither = c.sym("rX"), c.sym("bO")
    state = position(
        c, hands=[[same, neither, c.flip(), c.flip()], hand_of(c, "bX", "bX", "bX", "bX")], cells={0: [top]}
    )
    with refused("tic-tac-match.error.matches_both"):
        E.apply(state, 0, play(same, 0, 0))
    with refused("tic-tac-match.error.matches_neither"):
        E.apply(state, 0, play(neither, 0, 0))


# ---- Flip -------------------------------------------------------------------------------------------


def test_flip_flips_every_id_card_and_ends_the_turn() -> None:
    c = Cards()
    flip = c.flip()
    nxt = c.sym("yO")
    state = position(
        c,
        hands=[[flip, *hand_of(c, "rX", "rX", "rX")], *[hand_of(c, "bO", "gO", "yO", "bX") for _ in range(3)]],
        draw_top=[nxt],
    )
    assert E.view(state, None)["ids"] == ["X", "O", "X", "O"]
    after, events = E.apply(state, 0, Flip(card=flip))
    assert E.view(after, None)["ids"] == ["O", "X", "O", "X"]
    assert E.view(after, 1)["sides"][0]["symbol"] == "O"
    assert after.discard[-1] == flip and after.turn == 1
    assert sorted(after.hands[0]) == sorted([*state.hands[0][1:], nxt])
    assert kinds(events) == ["flip", "draw"]
    assert events[0].public["ids"] == ["O", "X", "O", "X"]
    # A second Flip turns them back.
    flip2 = c.flip()
    again = position(
        c,
        hands=[hand_of(c, "gX", "gX", "gX", "yX"), [flip2, *hand_of(c, "bO", "yX", "yX")]],
        draw_top=[c.sym("gO"), c.sym("gO")],
        turn=1,
    )
    again = replace(again, id_symbol=after.id_symbol)
    back, _ = E.apply(again, 1, Flip(card=flip2))
    assert E.view(back, None)["ids"] == ["X", "O"] and back.turn == 0


# ---- Wipe-Out ---------------------------------------------------------------------------------------


def test_wipeout_two_players() -> None:
    c = Cards()
    wo = c.wipeout()
    old_hand = hand_of(c, "bO", "gO", "yO", "yX")
    replacement = c.sym("rO")
    new_hand = hand_of(c, "gX", "gX", "bX", "F")
    state = position(c, hands=[[wo, *hand_of(c, "rX", "rX", "rX")], old_hand], draw_top=[replacement, *new_hand])
    assert [a for a in E.legal_actions(state, 0) if isinstance(a, Wipeout)] == [Wipeout(card=wo, target=1)]
    with refused("tic-tac-match.error.wipe_self"):
        E.apply(state, 0, Wipeout(card=wo, target=0))
    with refused("tic-tac-match.error.bad_target"):
        E.apply(state, 0, Wipeout(card=wo, target=2))
    discard_before = len(state.discard)
    after, events = E.apply(state, 0, Wipeout(card=wo, target=1))
    assert replacement in after.hands[0] and len(after.hands[0]) == 4  # the replacement, at once
    assert sorted(after.hands[1]) == sorted(new_hand)
    assert list(after.discard[-len(old_hand) :]) == old_hand and after.discard[discard_before] == wo
    assert after.turn == 1
    assert kinds(events) == ["wipeout", "draw", "wiped_out"]
    wiped = events[2]
    assert wiped.public["seat"] == 1 and wiped.public["discarded"] == 4
    assert "hand" not in wiped.redact(0) and "hand" not in wiped.redact(None)
    assert [x["id"] for x in wiped.redact(1)["hand"]] == list(after.hands[1])


@pytest.mark.parametrize(("target", "then"), [(1, 2), (2, 3), (3, 0)])
def test_wipeout_turn_order_with_four_players(target: int, then: int) -> None:
    """The target (teammate allowed) takes the next turn; play continues clockwise from them."""
    c = Cards()
    wo = c.wipeout()
    hands = [[wo, *hand_of(c, "rX", "rX", "rX")]] + [hand_of(c, "bO", "gO", "yO", "rO") for _ in range(3)]
    replacement = c.sym("yX")
    new_hand = hand_of(c, "gX", "gX", "bX", "bX")
    state = position(c, hands=hands, draw_top=[replacement, *new_hand])
    targets = sorted(a.target for a in E.legal_actions(state, 0) if isinstance(a, Wipeout))
    assert targets == [1, 2, 3]
    assert E.view(state, 0)["hand"][0]["targets"] == [1, 2, 3]
    after, _ = E.apply(state, 0, Wipeout(card=wo, target=target))
    assert after.turn == target
    assert list(after.hands[target]) == new_hand and replacement in after.hands[0]
    untouched = [s for s in (1, 2, 3) if s != target]
    assert all(list(after.hands[s]) == hands[s] for s in untouched)
    after2, _ = E.apply(after, target, play(new_hand[0], 0, 0))
    assert after2.turn == then


def test_wipeout_is_not_a_play_after_double_play() -> None:
    c = Cards()
    dp, wo = c.double(), c.wipeout()
    state = position(c, hands=[[dp, wo, *hand_of(c, "rX", "rX")], hand_of(c, "bO", "bO", "bO", "bO")])
    state, _ = E.apply(state, 0, Double(card=dp))
    assert all(isinstance(a, Play | Flip) for a in E.legal_actions(state, 0))
    with refused("tic-tac-match.error.after_double"):
        E.apply(state, 0, Wipeout(card=wo, target=1))


# ---- Double Play ------------------------------------------------------------------------------------


def test_double_play_needs_a_symbol_or_flip_play_to_follow() -> None:
    c = Cards()
    grid = grid_of(c, DRAWN_GRID)
    dp, wo = c.double(), c.wipeout()
    state = position(c, hands=[[dp, wo, c.sym("bX"), c.sym("gO")], hand_of(c, "rX", "rX", "rX", "rX")], cells=grid)
    assert Double(card=dp) not in E.legal_actions(state, 0)
    assert E.view(state, 0)["hand"][0]["playable"] is False
    with refused("tic-tac-match.error.double_needs_play"):
        E.apply(state, 0, Double(card=dp))
    # With a Flip in hand it is playable.
    c2 = Cards()
    grid2 = grid_of(c2, DRAWN_GRID)
    dp2 = c2.double()
    state2 = position(
        c2, hands=[[dp2, c2.flip(), c2.sym("bX"), c2.sym("gO")], hand_of(c2, "rX", "rX", "rX", "rX")], cells=grid2
    )
    assert Double(card=dp2) in E.legal_actions(state2, 0)


def test_double_play_is_two_plays_then_draw_up_to_four() -> None:
    c = Cards()
    dp = c.double()
    first, second, keep = c.sym("rX"), c.sym("bO"), c.sym("gX")
    refill = hand_of(c, "yX", "yO", "F")
    state = position(c, hands=[[dp, first, second, keep], hand_of(c, "gO", "gO", "gO", "gO")], draw_top=refill)
    state, events = E.apply(state, 0, Double(card=dp))
    assert kinds(events) == ["double"]
    assert state.turn == 0 and state.plays_left == 2 and state.discard[-1] == dp
    assert E.view(state, 1)["double"] == {"seat": 0, "plays_left": 2}
    assert E.view(state, 0)["double"] == {"seat": 0, "plays_left": 2, "fallback": False}
    with refused("tic-tac-match.error.first_of_double"):
        E.apply(state, 0, Forfeit())
    state, events = E.apply(state, 0, play(first, 0, 0))
    assert kinds(events) == ["play"]
    assert state.turn == 0 and state.plays_left == 1 and len(state.hands[0]) == 2
    state, events = E.apply(state, 0, play(second, 2, 2))
    assert kinds(events) == ["play", "draw"]
    assert state.turn == 1 and state.plays_left == 0
    assert sorted(state.hands[0]) == sorted([keep, *refill])


def test_a_win_on_the_first_play_of_a_double_play_ends_the_game() -> None:
    c = Cards()
    dp = c.double()
    winner = c.sym("rX")
    state = position(
        c,
        hands=[[dp, winner, *hand_of(c, "bO", "gX")], hand_of(c, "yO", "yO", "yO", "yO")],
        cells={0: [c.sym("rX")], 1: [c.sym("rX")]},
        id_symbol=0,
    )
    state, _ = E.apply(state, 0, Double(card=dp))
    state, events = E.apply(state, 0, play(winner, 0, 2))
    assert kinds(events) == ["play", "match_won"]
    assert E.to_act(state) == frozenset() and state.plays_left == 0
    outcome = E.outcome(state)
    assert outcome is not None and outcome.winners == [0] and outcome.scores == [1.0, 0.0]
    assert E.view(state, None)["winning_line"] == [[0, 0], [0, 1], [0, 2]]


def test_double_play_flip_then_complete_a_line_wins_with_the_flipped_id() -> None:
    c = Cards()
    dp, flip, ro = c.double(), c.flip(), c.sym("rO")
    state = position(
        c,
        hands=[[dp, flip, ro, c.sym("bX")], hand_of(c, "yX", "yX", "yX", "yX")],
        cells={0: [c.sym("rO")], 1: [c.sym("rO")]},
        id_symbol=0,  # seat 0 shows X
    )
    state, _ = E.apply(state, 0, Double(card=dp))
    state, _ = E.apply(state, 0, Flip(card=flip))
    assert state.seat_symbol(0) == 1 and state.turn == 0
    state, _ = E.apply(state, 0, play(ro, 0, 2))
    outcome = E.outcome(state)
    assert outcome is not None and outcome.winners == [0]


def test_double_play_fallback_discard_as_the_second_play() -> None:
    c = Cards()
    names = (*DRAWN_GRID[:8], None)  # the drawn grid with the bottom-right cell still empty
    grid = grid_of(c, names)
    dp, wo, bx, go = c.double(), c.wipeout(), c.sym("bX"), c.sym("gO")
    refill = hand_of(c, "rX", "rO", "yX")
    state = position(c, hands=[[dp, bx, go, wo], hand_of(c, "yO", "yO", "yO", "yO")], cells=grid, draw_top=refill)
    state, _ = E.apply(state, 0, Double(card=dp))
    state, events = E.apply(state, 0, play(bx, 2, 2))  # fills the grid: the green O fits nowhere now
    assert kinds(events) == ["play"] and state.turn == 0 and state.plays_left == 1
    assert E.legal_actions(state, 0) == [Discard(card=wo), Forfeit()]
    view = E.view(state, 0)
    assert view["can_forfeit"] is True and view["double"]["fallback"] is True
    assert [x.get("discardable") for x in view["hand"]] == [None, True]
    assert E.view(state, 1)["can_forfeit"] is False and "fallback" not in E.view(state, 1)["double"]
    with pytest.raises(IllegalAction):
        E.apply(state, 0, play(go, 0, 0))
    after, events = E.apply(state, 0, Discard(card=wo))
    assert kinds(events) == ["discard", "draw"]
    assert after.discard[-1] == wo and after.turn == 1
    assert sorted(after.hands[0]) == sorted([go, *refill])
    # Or the player may keep the Wipe-Out and forfeit the second play.
    kept, events = E.apply(state, 0, Forfeit())
    assert kinds(events) == ["forfeit", "draw"] and events[0].public["automatic"] is False
    assert wo in kept.hands[0] and kept.turn == 1


def test_double_play_second_play_forfeited_automatically() -> None:
    c = Cards()
    grid = grid_of(c, (*DRAWN_GRID[:8], None))
    dp, bx = c.double(), c.sym("bX")
    rest = [c.sym("gO"), c.sym("gO")]
    state = position(c, hands=[[dp, bx, *rest], hand_of(c, "yO", "yO", "yO", "yO")], cells=grid)
    state, _ = E.apply(state, 0, Double(card=dp))
    assert logged(state, 0, play(bx, 2, 2))[1] == ("tic-tac-match.log.no_second_play", {"seat": 0})
    state, events = E.apply(state, 0, play(bx, 2, 2))
    assert kinds(events) == ["play", "forfeit", "draw"]
    assert events[1].public == {"seat": 0, "automatic": True}
    assert state.turn == 1 and state.plays_left == 0 and len(state.hands[0]) == 4


def test_double_play_first_play_must_be_symbol_or_flip() -> None:
    c = Cards()
    dp, dp2 = c.double(), c.double()
    state = position(c, hands=[[dp, dp2, *hand_of(c, "rX", "rX")], hand_of(c, "yO", "yO", "yO", "yO")])
    state, _ = E.apply(state, 0, Double(card=dp))
    for bad in (Double(card=dp2), Discard(card=dp2), Forfeit()):
        with pytest.raises(IllegalAction):
            E.apply(state, 0, bad)


# ---- stuck hands ------------------------------------------------------------------------------------


def test_stuck_hand_is_redrawn_at_the_start_of_the_turn() -> None:
    c = Cards()
    grid = grid_of(c, DRAWN_GRID)
    flip = c.flip()
    stuck = [c.sym("bX"), c.sym("gO"), c.sym("gO"), c.double()]  # nothing fits; Double Play has no follow-up
    seat0_draw = c.sym("rX")
    fresh = [c.wipeout(), c.sym("yX"), c.sym("yO"), c.sym("rO")]
    state = position(
        c,
        hands=[[flip, c.wipeout(), c.wipeout(), c.flip()], stuck],
        cells=grid,
        draw_top=[seat0_draw, *fresh],
    )
    assert not has_legal_play(state, 1)
    discard_before = len(state.discard)
    assert logged(state, 0, Flip(card=flip))[1] == ("tic-tac-match.log.redrew", {"seat": 1, "redraw": 1})
    after, events = E.apply(state, 0, Flip(card=flip))
    assert kinds(events) == ["flip", "draw", "stuck"]
    assert after.turn == 1 and list(after.hands[1]) == fresh
    assert list(after.discard[-4:]) == stuck and len(after.discard) == discard_before + 1 + 4
    event = events[2]
    assert event.public["seat"] == 1 and event.public["redraw"] == 1 and event.public["discarded"] == 4
    assert event.public["discard_top"] == card_json(stuck[-1])
    assert "hand" not in event.redact(None) and "hand" not in event.redact(0)
    assert [x["id"] for x in event.redact(1)["hand"]] == fresh


def test_after_ten_redraws_the_turn_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    """No real deck can stay stuck ten times in a row, so seat 1 is made permanently stuck."""
    real = has_legal_play
    monkeypatch.setattr(
        ttm, "has_legal_play", lambda state, seat: seat != 1 and real(state, seat)
    )  # as the rules see it
    c = Cards()
    flip = c.flip()
    state = position(c, hands=[[flip, c.wipeout(), c.wipeout(), c.wipeout()], hand_of(c, "rX", "rX", "rX", "rX")])
    after, events = E.apply(state, 0, Flip(card=flip))
    stuck = [e for e in events if e.kind == "stuck"]
    assert [e.public["redraw"] for e in stuck] == list(range(1, 11))
    assert events[-1].kind == "pass" and events[-1].public == {"seat": 1, "redraws": 10}
    assert logged(state, 0, Flip(card=flip))[-1] == ("tic-tac-match.log.passed", {"seat": 1})
    assert after.turn == 0 and len(after.hands[1]) == 4
    assert sorted(all_cards(after)) == list(range(60))


# ---- the draw pile ----------------------------------------------------------------------------------


def test_reshuffle_takes_the_discard_pile_and_covered_cards_and_keeps_the_tops() -> None:
    c = Cards()
    cells = {
        0: [c.sym("rX"), c.sym("rO"), c.sym("bO")],  # two covered cards under a blue O
        4: [c.sym("gX"), c.sym("gO")],
        8: [c.sym("yX")],
    }
    played = c.sym("yO")
    hands = [[played, *hand_of(c, "W", "W", "F")], hand_of(c, "bX", "bX", "bX", "bX")]
    state = position(c, hands=hands, cells=cells, draw_all=[])
    assert state.draw == () and len(state.discard) == 60 - 8 - 6
    tops_before = state.tops()
    covered = {c for st in state.cells for c in st[:-1]}
    pool = set(state.discard) | covered
    after, events = E.apply(state, 0, play(played, 0, 1))
    assert kinds(events) == ["play", "reshuffle", "draw"]
    reshuffle = events[1].public
    assert reshuffle == {"from_discard": len(state.discard), "from_grid": 3, "draw_count": len(pool)}
    expected_tops = list(tops_before)
    expected_tops[1] = played
    assert after.tops() == expected_tops  # top cards stay in place
    assert [len(st) for st in after.cells] == [1 if t is not None else 0 for t in expected_tops]
    assert after.discard == ()
    drawn = next(x for x in after.hands[0] if x not in hands[0])
    assert drawn in pool and set(after.draw) | {drawn} == pool and len(after.draw) == len(pool) - 1
    view = E.view(after, None)
    assert view["draw_count"] == len(pool) - 1 and view["discard_top"] is None
    assert sorted(all_cards(after)) == list(range(60))


def test_reshuffle_mid_draw_draws_one_card_at_a_time() -> None:
    c = Cards()
    last = c.sym("rO")
    played = c.sym("yO")
    hands = [[played, *hand_of(c, "W", "W", "F")], hand_of(c, "bX", "bX", "bX", "bX")]
    state = position(c, hands=hands, draw_all=[last])
    flip = hands[0][3]
    after, events = E.apply(state, 0, Flip(card=flip))  # 1 to draw: the last card
    assert kinds(events) == ["flip", "draw"] and after.draw == () and last in after.hands[0]
    # The next refill reshuffles mid-way.
    after2, events2 = E.apply(after, 1, play(after.hands[1][0], 0, 0))
    assert kinds(events2) == ["play", "reshuffle", "draw"]
    assert len(after2.hands[1]) == 4


# ---- the end of a match ------------------------------------------------------------------------------


def test_the_winner_is_whoever_s_id_shows_the_symbol() -> None:
    """Player 1 shows X but completes a line of red O: Player 2 (showing O) wins."""
    c = Cards()
    ro = c.sym("rO")
    state = position(
        c,
        hands=[[ro, *hand_of(c, "bX", "gX", "yX")], hand_of(c, "F", "F", "W", "W")],
        cells={3: [c.sym("rO")], 6: [c.sym("rX"), c.sym("rO")]},
        id_symbol=0,
    )
    red_o = {"kind": "symbol", "colour": "red", "symbol": "O"}
    assert logged(state, 0, play(ro, 0, 0)) == [
        ("tic-tac-match.log.played", {"seat": 0, "card": red_o, "cell": [0, 0]}),
        ("tic-tac-match.log.match_won", {"seats": [1], "count": 1, "card": red_o, "match": 1}),
    ]
    after, events = E.apply(state, 0, play(ro, 0, 0))
    outcome = E.outcome(after)
    assert outcome is not None and outcome.winners == [1] and outcome.ranks == [1, 0]
    assert outcome.summary == LogEntry("tic-tac-match.result.won", {"seats": [1], "count": 1, "card": red_o})
    won = events[-1].public
    assert won["side"] == 1 and won["placed_by"] == 0 and won["line"] == [[0, 0], [1, 0], [2, 0]]
    view = E.view(after, None)
    assert view["over"] and view["winners"] == [1] and view["winning_line"] == [[0, 0], [1, 0], [2, 0]]


def test_four_players_team_win_and_several_lines_at_once() -> None:
    c = Cards()
    gx = c.sym("gX")
    hands = [hand_of(c, "F", "F", "W", "W"), [gx, *hand_of(c, "bO", "bO", "bO")]]
    hands += [hand_of(c, "yO", "yO", "yO", "yO"), hand_of(c, "rO", "rO", "rO", "rO")]
    cells = {i: [c.sym("gX")] for i in (0, 1, 4, 8)}
    state = position(c, hands=hands, cells=cells, id_symbol=0, turn=1)  # team A (0 & 2) shows X
    after, events = E.apply(state, 1, play(gx, 0, 2))  # Player 2 (team B) completes the top row of X
    assert events[-1].public["lines"] == [[[0, 0], [0, 1], [0, 2]]]
    outcome = E.outcome(after)
    assert outcome is not None and outcome.winners == [0, 2] and outcome.scores == [1.0, 0.0, 1.0, 0.0]
    green_x = {"kind": "symbol", "colour": "green", "symbol": "X"}
    assert outcome.summary == LogEntry("tic-tac-match.result.won", {"seats": [0, 2], "count": 2, "card": green_x})
    # Two lines at once: the bottom-right cell completes a diagonal and a column.
    c2 = Cards()
    gx2 = c2.sym("gX")
    hands2 = [hand_of(c2, "F", "F", "W", "W"), [gx2, *hand_of(c2, "bO", "bO", "bO")]]
    hands2 += [hand_of(c2, "yO", "yO", "yO", "yO"), hand_of(c2, "rO", "rO", "rO", "rO")]
    cells2 = {i: [c2.sym("gX")] for i in (0, 4, 2, 5)}
    state2 = position(c2, hands=hands2, cells=cells2, id_symbol=1, turn=1)  # team B shows X now
    after2, events2 = E.apply(state2, 1, play(gx2, 2, 2))
    assert events2[-1].public["lines"] == [[[0, 2], [1, 2], [2, 2]], [[0, 0], [1, 1], [2, 2]]]
    outcome2 = E.outcome(after2)
    assert outcome2 is not None and outcome2.winners == [1, 3]


# ---- series -----------------------------------------------------------------------------------------


def rigged(state: TicTacMatchState, symbol: int) -> tuple[TicTacMatchState, Play]:
    """The same 2-player state (match, dealer, score, IDs, turn), with the grid and hands replaced so that
    the player to move can complete a line of red ``symbol`` in the bottom row."""
    c = Cards()
    name = "r" + SYMBOLS[symbol]
    card = c.sym(name)
    data = E.dump(state)
    data["cells"] = [[], [], [], [], [], [], [c.sym(name)], [c.sym(name)], []]
    data["hands"] = [
        [card, *hand_of(c, "D", "D", "D")] if seat == state.turn else hand_of(c, "F", "F", "W", "W")
        for seat in range(2)
    ]
    data["draw"] = sorted(set(range(60)) - c.used)
    data["discard"] = []
    return E.load(data), play(card, 2, 2)


def test_series_scoring_and_the_deal_passing_left() -> None:
    state = E.new_game(E.parse_options({"series": 2}), 8)
    first_dealer = state.dealer
    # Match 1: side 0 wins (whoever places the card).
    state, action = rigged(state, state.side_symbol(0))
    state, events = E.apply(state, state.turn or 0, action)
    assert kinds(events)[:3] == ["play", "match_won", "match_start"]
    assert events[1].public["series_over"] is False and events[1].public["score"] == [1, 0]
    start = events[2]
    assert "hand" not in start.redact(None)
    assert [x["id"] for x in start.redact(1)["hand"]] == list(state.hands[1])
    assert E.outcome(state) is None and state.wins == (1, 0) and state.match == 2
    assert state.dealer == (first_dealer + 1) % 2  # the deal passes left
    assert state.turn == (state.dealer + 1) % 2
    assert [len(h) for h in state.hands] == [4, 4]
    assert [len(st) for st in state.cells] == [0, 0, 0, 0, 1, 0, 0, 0, 0]
    assert sorted(all_cards(state)) == list(range(60))
    assert state.seat_symbol(state.dealer) == card_type(state.cells[4][0]) % 2
    view = E.view(state, 0)
    assert view["sides"][0]["wins"] == 1 and view["matches"][0]["line"] == [[2, 0], [2, 1], [2, 2]]
    assert view["over"] is False and view["winning_line"] is None
    assert all("id" not in cell for cell in view["matches"][0]["grid"] if cell is not None)
    # Match 2: side 1 wins: 1–1, a third match is dealt.
    state, action = rigged(state, state.side_symbol(1))
    state, _ = E.apply(state, state.turn or 0, action)
    assert state.wins == (1, 1) and state.match == 3 and state.dealer == first_dealer
    assert E.outcome(state) is None
    # Match 3: side 0 wins the series 2–1.
    state, action = rigged(state, state.side_symbol(0))
    state, events = E.apply(state, state.turn or 0, action)
    assert events[-1].kind == "match_won" and events[-1].public["series_over"] is True
    assert E.to_act(state) == frozenset()
    outcome = E.outcome(state)
    assert outcome is not None
    assert outcome.scores == [2.0, 1.0] and outcome.winners == [0] and outcome.ranks == [0, 1]
    last = {"kind": "symbol", "colour": "red", "symbol": SYMBOLS[state.side_symbol(0)]}
    assert outcome.summary == LogEntry(
        "tic-tac-match.result.series", {"seats": [0], "count": 1, "card": last, "wins": 2, "other_wins": 1}
    )
    assert [r.side for r in state.results] == [0, 1, 0]
    assert [r.dealer for r in state.results] == [first_dealer, 1 - first_dealer, first_dealer]


def test_series_to_three_by_random_play() -> None:
    for players in (2, 4):
        for seed in range(4):
            state = E.new_game(E.parse_options({"players": players, "series": 3}), seed)
            first_dealer = state.dealer
            rng = random.Random(seed)
            while E.to_act(state):
                seat = next(iter(E.to_act(state)))
                state, _ = E.apply(state, seat, rng.choice(E.legal_actions(state, seat)))
            outcome = E.outcome(state)
            assert outcome is not None
            assert max(state.wins) == 3 and min(state.wins) < 3
            assert len(state.results) == sum(state.wins) == state.match
            assert [r.dealer for r in state.results] == [(first_dealer + i) % players for i in range(state.match)]
            side = state.results[-1].side
            assert state.wins[side] == 3
            assert outcome.winners == [s for s in range(players) if s % 2 == side]
            assert outcome.scores == [float(state.wins[s % 2]) for s in range(players)]


# ---- hidden information ------------------------------------------------------------------------------


def visible(state: TicTacMatchState, viewer: int | None) -> set[int]:
    seen = {c for c in state.tops() if c is not None}
    if state.discard:
        seen.add(state.discard[-1])
    if viewer is not None:
        seen |= set(state.hands[viewer])
    return seen


def card_ids(data: Any) -> set[int]:
    """Every card id in a JSON value (cards are objects with "id" and "kind")."""
    found: set[int] = set()
    if isinstance(data, dict):
        if "id" in data and "kind" in data:
            found.add(data["id"])
        for value in data.values():
            found |= card_ids(value)
    elif isinstance(data, list):
        for value in data:
            found |= card_ids(value)
    return found


def shuffled_secrets(state: TicTacMatchState, viewer: int | None, rng: random.Random) -> TicTacMatchState:
    """The same state with every card ``viewer`` cannot see moved around among the hidden places."""
    draw, discard = list(state.draw), list(state.discard)
    cells = [list(st) for st in state.cells]
    hands = [list(h) for h in state.hands]
    slots: list[tuple[list[int], int]] = [(draw, i) for i in range(len(draw))]
    slots += [(discard, i) for i in range(len(discard) - 1)]
    slots += [(st, i) for st in cells for i in range(len(st) - 1)]
    slots += [(h, i) for seat, h in enumerate(hands) if seat != viewer for i in range(len(h))]
    cards = [pile[i] for pile, i in slots]
    rng.shuffle(cards)
    for (pile, i), card in zip(slots, cards, strict=True):
        pile[i] = card
    return replace(
        state,
        draw=tuple(draw),
        discard=tuple(discard),
        cells=tuple(tuple(st) for st in cells),
        hands=tuple(tuple(h) for h in hands),
    )


@pytest.mark.parametrize(("players", "series"), [(2, 1), (2, 2), (4, 1), (4, 2)])
def test_hidden_information_never_leaks(players: int, series: int) -> None:
    viewers: list[int | None] = [None, *range(players)]
    for seed in range(5 if players == 2 else 3):
        rng = random.Random(1000 + seed)
        state = E.new_game(E.parse_options({"players": players, "series": series}), seed)
        while True:
            for viewer in viewers:
                view = E.view(state, viewer)
                assert card_ids(view) <= visible(state, viewer), "a hidden card is in a view"
                # The view does not depend on anything the viewer cannot see.
                assert E.view(shuffled_secrets(state, viewer, rng), viewer) == view
                if viewer is None:
                    assert view["hand"] is None
            if not E.to_act(state):
                break
            seat = next(iter(E.to_act(state)))
            action = rng.choice(E.legal_actions(state, seat))
            after, events = E.apply(state, seat, action)
            check_events(state, after, action, events, viewers)
            state = after


def check_events(
    before: TicTacMatchState,
    after: TicTacMatchState,
    action: TicTacMatchAction,
    events: list[Event],
    viewers: list[int | None],
) -> None:
    """A card that stays hidden from a viewer through an action never appears in that viewer's events,
    except the card just played (public as it is played), cards turned up at a match start (public), and
    cards the viewer itself drew or held along the way (private to it, never another player's)."""
    public_reveals = set() if isinstance(action, Forfeit) else {action.card}
    new_deal = any(e.kind == "match_start" for e in events)
    for event in events:
        if event.kind == "match_start":
            public_reveals |= {c["id"] for c in event.public["turned_up"]}
        for seat in event.private:
            others = {c for s, h in enumerate(after.hands) if s != seat for c in h}
            if not new_deal:  # a new deal may give a seat a card another seat held last match
                others |= {c for s, h in enumerate(before.hands) if s != seat for c in h}
            own = card_ids(dict(event.private[seat]))
            assert not own & others, f"{event.kind} shows seat {seat} another player's card"
            assert not own & {c for st in after.cells for c in st[:-1]}, "a covered card in a private event"
    for viewer in viewers:
        stayed_hidden = set(range(60)) - visible(before, viewer) - visible(after, viewer) - public_reveals
        for event in events:
            shown = card_ids(event.redact(viewer))
            if viewer is not None and viewer in event.private:
                shown -= card_ids(dict(event.private[viewer]))
            assert not shown & stayed_hidden, f"{event.kind} leaks a hidden card to {viewer}"
            orjson.dumps(event.redact(viewer))


def test_views_and_dumps_hold_no_secrets_by_key() -> None:
    state = E.new_game(E.parse_options({"players": 4}), 5)
    for viewer in (None, 0, 1, 2, 3):
        view = E.view(state, viewer)
        for key in ("draw", "hands", "cells", "salt", "seed", "rng"):
            assert key not in view
        if viewer is not None:
            assert [x["id"] for x in view["hand"]] == list(state.hands[viewer])
    assert E.view(state, 0)["hand_sizes"] == [4, 4, 4, 4]


# ---- views, actions, text, timeouts ------------------------------------------------------------------


def test_hand_annotations_offer_only_legal_targets() -> None:
    c = Cards()
    rx, flip, wo, dp = c.sym("rX"), c.flip(), c.wipeout(), c.double()
    state = position(
        c,
        hands=[[rx, flip, wo, dp], hand_of(c, "bO", "bO", "bO", "bO")],
        cells={0: [c.sym("rX")], 1: [c.sym("bO")], 2: [c.sym("gX")]},
    )
    hand = E.view(state, 0)["hand"]
    # Red X: not on the red X (both match), on the blue O (neither)... only on the green X and empty cells.
    expected_cells = [[0, 2]] + [[r, col] for r in (1, 2) for col in range(3)]
    assert hand[0]["cells"] == expected_cells and hand[0]["playable"] is True
    assert hand[1] == {"id": flip, "kind": "flip", "playable": True}
    assert hand[2] == {"id": wo, "kind": "wipeout", "targets": [1], "playable": True, "discardable": False}
    assert hand[3] == {"id": dp, "kind": "double", "playable": True, "discardable": False}
    # Not your turn: nothing is offered.
    idle = E.view(state, 1)["hand"]
    assert all(not x["playable"] for x in idle) and all(x["cells"] == [] for x in idle)
    # Every offered use is a legal action and vice versa.
    offered = []
    for x in hand:
        if x["kind"] == "symbol":
            offered += [play(x["id"], *cell).to_json() for cell in x["cells"]]
        elif x["kind"] == "wipeout":
            offered += [{"type": "wipeout", "card": x["id"], "target": t} for t in x["targets"]]
        elif x["playable"]:
            offered.append({"type": x["kind"], "card": x["id"]})
    assert sorted(map(str, offered)) == sorted(str(a.to_json()) for a in E.legal_actions(state, 0))


@pytest.mark.parametrize(
    "bad",
    [
        "play",
        {"type": "play"},
        {"type": "play", "card": "3", "cell": [0, 0]},
        {"type": "play", "card": True, "cell": [0, 0]},
        {"type": "play", "card": 0, "cell": [0, 3]},
        {"type": "play", "card": 0, "cell": [0]},
        {"type": "play", "card": 0, "cell": "a1"},
        {"type": "play", "card": 0, "cell": [0, 0], "extra": 1},
        {"type": "flip"},
        {"type": "wipeout", "card": 0, "target": 1},
        {"type": "double", "card": 0},
        {"type": "discard", "card": 0},
        {"type": "forfeit"},
        {"type": "pass"},
    ],
)
def test_malformed_or_illegal_actions_are_refused(bad: Any) -> None:
    c = Cards()
    state = position(c, hands=[[c.sym("bX"), *hand_of(c, "bO", "gX", "gO")], hand_of(c, "F", "W", "D", "yO")])
    assert state.hands[0][0] == 0  # card 0 is a blue X in Player 1's hand
    before = E.dump(state)
    with pytest.raises(IllegalAction):
        E.apply(state, 0, E.parse_action(bad))
    assert E.dump(state) == before


def test_refusal_reasons() -> None:
    c = Cards()
    state = position(c, hands=[hand_of(c, "bX", "bO", "gX", "gO"), hand_of(c, "F", "W", "D", "yO")])
    mine = state.hands[0][0]
    with refused("action.turn_of"):
        E.apply(state, 1, Flip(card=state.hands[1][0]))
    with refused("tic-tac-match.error.not_in_hand"):
        E.apply(state, 0, Double(card=59))
    with refused("tic-tac-match.error.wrong_card"):
        E.apply(state, 0, Flip(card=mine))
    with refused("tic-tac-match.error.bad_cell"):
        E.apply(state, 0, E.parse_action({"type": "play", "card": mine, "cell": [5, 5]}))
    with pytest.raises(IllegalAction, match="unknown action type"):
        E.apply(state, 0, E.parse_action({"type": "shout"}))


def test_log_entries() -> None:
    c = Cards()
    rx, flip, wo, dp = c.sym("rX"), c.flip(), c.wipeout(), c.double()
    state = position(c, hands=[[rx, flip, wo, dp], hand_of(c, "bO", "bO", "bO", "bO")], cells={0: [c.sym("rO")]})
    red_x = {"kind": "symbol", "colour": "red", "symbol": "X"}
    assert logged(state, 0, play(rx, 0, 0))[0] == (
        "tic-tac-match.log.stacked",
        {"seat": 0, "card": red_x, "cell": [0, 0], "height": 2},
    )
    assert logged(state, 0, play(rx, 2, 1))[0] == (
        "tic-tac-match.log.played",
        {"seat": 0, "card": red_x, "cell": [2, 1]},
    )
    assert logged(state, 0, Flip(card=flip))[0] == ("tic-tac-match.log.flipped", {"seat": 0})
    assert logged(state, 0, Wipeout(card=wo, target=1))[0] == (
        "tic-tac-match.log.wiped_out",
        {"seat": 0, "target_seat": 1},
    )
    assert logged(state, 0, Double(card=dp)) == [("tic-tac-match.log.double", {"seat": 0})]


def logged(state: Any, seat: int, action: TicTacMatchAction) -> list[tuple[str, dict[str, Any]]]:
    """The log entries of an action, as (key, params)."""
    entries = E.log_entries(state, seat, action, E.apply(state, seat, action))
    return [(entry.key, dict(entry.params)) for entry in entries]


@contextlib.contextmanager
def refused(*codes: str) -> Iterator[None]:
    """The action inside is refused with one of ``codes``."""
    with pytest.raises(IllegalAction) as err:
        yield
    assert err.value.code in codes, err.value


def test_timeout_action() -> None:
    c = Cards()
    win, lose = c.sym("rX"), c.sym("bO")
    state = position(
        c,
        hands=[[c.flip(), lose, win, c.wipeout()], hand_of(c, "yO", "yO", "yO", "yO")],
        cells={0: [c.sym("rX")], 1: [c.sym("rX")], 3: [c.sym("bO")], 6: [c.sym("bO")]},
        id_symbol=0,
    )
    assert E.timeout_action(state, 0) == play(win, 0, 2)  # a win comes first
    c2 = Cards()
    lose2, safe = c2.sym("bO"), c2.sym("gX")
    state2 = position(
        c2,
        hands=[[lose2, safe, c2.flip(), c2.wipeout()], hand_of(c2, "yO", "yO", "yO", "yO")],
        cells={3: [c2.sym("bO")], 6: [c2.sym("bO")]},
        id_symbol=0,
    )
    # The blue O in the top-left would complete a line of O for Player 2: the next cell is taken instead.
    assert E.timeout_action(state2, 0) == play(lose2, 0, 1)  # the first safe play in hand order, cells in reading order
    # With only Flip and Wipe-Out playable, the Flip.
    c3 = Cards()
    grid = grid_of(c3, DRAWN_GRID)
    flip3 = c3.flip()
    state3 = position(
        c3, hands=[[c3.sym("bX"), c3.wipeout(), flip3, c3.sym("gO")], hand_of(c3, "rO", "rO", "rO", "rO")], cells=grid
    )
    assert E.timeout_action(state3, 0) == Flip(card=flip3)


def test_dump_load_round_trip_for_four_players_and_series() -> None:
    for options in ({"players": 4, "series": 2}, {"players": 2, "series": 3}):
        rng = random.Random(3)
        state = E.new_game(E.parse_options(options), 21)
        log = []
        while E.to_act(state):
            dumped = E.dump(state)
            assert E.dump(E.load(orjson.loads(orjson.dumps(dumped)))) == dumped
            seat = next(iter(E.to_act(state)))
            action = rng.choice(E.legal_actions(state, seat))
            log.append((seat, action))
            before = E.dump(state)
            state, _ = E.apply(state, seat, action)
            assert E.dump(E.load(before)) == before  # apply did not touch its input
        replay = E.new_game(E.parse_options(options), 21)
        for seat, action in log:
            replay, _ = E.apply(replay, seat, action)
        assert E.dump(replay) == E.dump(state)


def test_load_refuses_a_broken_state() -> None:
    data = E.dump(E.new_game(E.parse_options({}), 1))
    data["draw"] = data["draw"][1:]
    with pytest.raises(InvalidState, match="one deck"):
        E.load(data)


# ---- the bot ----------------------------------------------------------------------------------------


def test_bot_completes_its_winning_line() -> None:
    c = Cards()
    win = c.sym("rX")
    state = position(
        c,
        hands=[[c.sym("bO"), win, c.flip(), c.sym("gX")], hand_of(c, "yO", "yO", "yO", "yO")],
        cells={0: [c.sym("rX")], 1: [c.sym("rX")]},
        id_symbol=0,
    )
    for seed in range(10):
        assert BOT.choose(state, 0, random.Random(seed)) == play(win, 0, 2)


def test_bot_wins_through_a_double_play_flip() -> None:
    c = Cards()
    dp = c.double()
    state = position(
        c,
        hands=[[dp, c.flip(), c.sym("rO"), c.sym("bX")], hand_of(c, "yX", "yX", "yX", "yX")],
        cells={0: [c.sym("rO")], 1: [c.sym("rO")]},
        id_symbol=0,  # the bot shows X: only Flip then red O wins
    )
    rng = random.Random(0)
    for _ in range(3):
        state, _ = E.apply(state, 0, BOT.choose(state, 0, rng))
    outcome = E.outcome(state)
    assert outcome is not None and outcome.winners == [0]


def test_bot_never_hands_the_opponent_a_line_and_blocks_threats() -> None:
    c = Cards()
    gift = c.sym("rO")
    state = position(
        c,
        hands=[[gift, c.sym("bX"), c.sym("yX"), c.sym("gX")], hand_of(c, "yO", "yO", "yO", "yO")],
        cells={0: [c.sym("rO")], 1: [c.sym("rO")]},
        id_symbol=0,  # the bot shows X; red O in the top-right would win for the opponent
    )
    for seed in range(20):
        action = BOT.choose(state, 0, random.Random(seed))
        assert action != play(gift, 0, 2)
        after, _ = E.apply(state, 0, action)
        opponent_threats = [t for t, _cell in threats(after.tops()) if t % 2 != after.seat_symbol(0)]
        assert not opponent_threats, f"the bot left a threat after {action}"


def test_bot_flips_when_the_lines_favour_the_other_side() -> None:
    """The grid is full of open red/green O pairs; the bot shows X and cannot block them all: it flips."""
    c = Cards()
    names = ("rO", "rO", "gO", "gO", "gO", "rO", "rO", "gO", "rO")
    grid = grid_of(c, names)
    flip = c.flip()
    state = position(
        c,
        hands=[[c.sym("rX"), flip, c.sym("bX"), c.wipeout()], hand_of(c, "yX", "yX", "yX", "yX")],
        cells=grid,
        id_symbol=0,
    )
    legal = E.legal_actions(state, 0)
    assert any(isinstance(a, Play) for a in legal) and any(isinstance(a, Wipeout) for a in legal)
    for seed in range(10):
        assert BOT.choose(state, 0, random.Random(seed)) == Flip(card=flip)
    # With no threat anywhere, it keeps its Flip and plays a Symbol card.
    c2 = Cards()
    quiet = position(
        c2, hands=[[c2.sym("rX"), c2.flip(), c2.sym("bO"), c2.wipeout()], hand_of(c2, "yX", "yX", "yX", "yX")]
    )
    assert isinstance(BOT.choose(quiet, 0, random.Random(1)), Play)


@pytest.mark.parametrize("players", [2, 4])
def test_bot_beats_random_play(players: int) -> None:
    games, wins = 40, 0
    for seed in range(games):
        bot_side = seed % 2
        state = E.new_game(E.parse_options({"players": players}), seed)
        rng = random.Random(seed)
        while E.to_act(state):
            seat = next(iter(E.to_act(state)))
            bot_turn = seat % 2 == bot_side
            action = BOT.choose(state, seat, rng) if bot_turn else rng.choice(E.legal_actions(state, seat))
            state, _ = E.apply(state, seat, action)
        outcome = E.outcome(state)
        assert outcome is not None
        wins += outcome.winners[0] % 2 == bot_side
    assert wins >= 0.85 * games, f"the bot won only {wins} of {games}"
