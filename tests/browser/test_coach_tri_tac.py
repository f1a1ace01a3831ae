"""Tri-Tac's coach, fed the state messages its engine makes with every option on: a line for each kind of
event that changes the board or the score (a cell taken, Power Play, lines scored and their bonuses, a lost
turn, the vote opening, the board growing or the game ending), with the right key and params, and rings
only on what the board offers the seat to move."""

from __future__ import annotations

import random
from typing import Any

from engines.base import Action, Seat
from engines.registry import get_engine
from tests.browser.coach_feed import engine_messages, line_keys, run_coach
from tests.browser.conftest import NewPlayer

GAME = "tri-tac"
OPTIONS = {
    "size": 4,
    "power_play": True,
    "combo_strike": True,
    "time_challenge": True,
    "dynamic_board": True,
    "special_squares": True,
}


def sometimes_too_slow(state: Any, seat: Seat, legal: list[Action], rng: random.Random) -> Action:
    """A random legal move, and now and then the timer's (a lost turn)."""
    if rng.random() < 0.05:
        return get_engine(GAME).timeout_action(state, seat)
    return rng.choice(legal)


async def test_every_kind_of_event_has_its_line(new_player: NewPlayer) -> None:
    page = await new_player("Ann")
    await page.goto("/")
    said: set[str] = set()
    for seed in range(1, 9):
        messages = engine_messages(GAME, 0, seed=seed, options=OPTIONS, choose=sometimes_too_slow)
        steps = await run_coach(page, GAME, messages, seat=0, room=None)
        said |= line_keys(steps)
        for step in steps:
            for event in step["events"]:
                if event["kind"] == "placed":
                    line = {"key": "tri-tac.coach.placed", "params": {"seat": event["seat"], "cell": event["cell"]}}
                    assert line in step["lines"]
                    r, c = event["cell"]
                    assert f"took row {r + 1}, column {c + 1}." in step["text"]
                if event["kind"] == "lines":
                    params = {"seat": event["seat"], "lines": len(event["lines"]), "points": event["points"]}
                    assert {"key": "tri-tac.coach.scored", "params": params} in step["lines"]
                if event["kind"] == "power":
                    params = {"seat": event["seat"], "cell": event["cell"], "other_seat": event["replaced"]}
                    assert {"key": "tri-tac.coach.power", "params": params} in step["lines"]
            assert "{" not in step["text"] and "tri-tac." not in step["text"]
    assert {
        "tri-tac.coach.placed",
        "tri-tac.coach.power",
        "tri-tac.coach.scored",
        "tri-tac.coach.special",
        "tri-tac.coach.bonus",
        "tri-tac.coach.combo",
        "tri-tac.coach.passed",
        "tri-tac.coach.vote_open",
        "tri-tac.coach.expanded",
        "tri-tac.coach.vote_end",
        "tri-tac.coach.over",
    } <= said


async def test_rings_what_the_board_offers_the_seat_to_move(new_player: NewPlayer) -> None:
    page = await new_player("Ann")
    await page.goto("/")
    messages = engine_messages(GAME, 1, seed=3, options=OPTIONS)
    steps = await run_coach(page, GAME, messages, seat=1)
    rung_a_vote = False
    for msg, step in zip(messages, steps, strict=True):
        assert step["inside"]
        if msg["outcome"] is None and 1 in msg["to_act"]:
            if msg["view"]["phase"] == "vote":
                rung_a_vote = True
                assert [t["tag"] for t in step["targets"]] == ["button", "button"]
            else:
                board = msg["view"]["board"]
                empty = {(r, c) for r, row in enumerate(board) for c, v in enumerate(row) if v is None}
                assert {(int(t["data"]["r"]), int(t["data"]["c"])) for t in step["targets"]} == empty
        else:
            assert step["targets"] == []
    assert rung_a_vote
