"""Tic-Tac-Match's coach, fed the state messages its engine makes: a line for each kind of event that changes
the grid, the hands or the score (a card played, Flip, Double, Wipe-Out, a discard, a redeal, a reshuffle, a
match won), with the right key and params; the cards it names are only those this seat's events show, and
it rings only the seat to move's playable cards."""

from __future__ import annotations

import json

from tests.browser.coach_feed import engine_messages, line_keys, run_coach
from tests.browser.conftest import NewPlayer

GAME = "tic-tac-match"
OPTIONS = {"players": 2, "series": 2}


def cards_named(line: dict) -> list[dict]:
    params = line["params"]
    return [c for name, c in params.items() if name.endswith("card")] + list(params.get("cards", []))


async def test_every_kind_of_event_has_its_line_and_no_hidden_card(new_player: NewPlayer) -> None:
    page = await new_player("Ann")
    await page.goto("/")
    said: set[str] = set()
    for seed in range(1, 6):
        messages = engine_messages(GAME, 0, seed=seed, options=OPTIONS)
        steps = await run_coach(page, GAME, messages, seat=0)
        said |= line_keys(steps)
        for step in steps:
            shown = json.dumps(step["events"])
            for line in step["lines"]:
                for card in cards_named(line):
                    if card.get("id") is not None:  # a card of the deck: one the seat's events show
                        assert json.dumps(card) in shown, (line, step["events"])
            for event in step["events"]:
                if event["kind"] == "play":
                    params = {"seat": event["seat"], "card": event["card"], "cell": event["cell"]}
                    assert {"key": "tic-tac-match.coach.play", "params": params} in step["lines"]
                if event["kind"] == "draw" and event["seat"] != 0:
                    assert "cards" not in event
                    assert not any(line["key"] == "tic-tac-match.coach.drew" for line in step["lines"])
            assert "{" not in step["text"] and "tic-tac-match." not in step["text"]
    assert {
        "tic-tac-match.coach.play",
        "tic-tac-match.coach.flip",
        "tic-tac-match.coach.double",
        "tic-tac-match.coach.wipeout",
        "tic-tac-match.coach.discard",
        "tic-tac-match.coach.stuck",
        "tic-tac-match.coach.reshuffle",
        "tic-tac-match.coach.drew",
        "tic-tac-match.coach.match_won",
        "tic-tac-match.coach.series_won",
    } <= said


async def test_rings_the_playable_cards_of_the_seat_to_move(new_player: NewPlayer) -> None:
    page = await new_player("Ann")
    await page.goto("/")
    messages = engine_messages(GAME, 0, seed=2, options=OPTIONS)
    steps = await run_coach(page, GAME, messages, seat=0)
    rung = 0
    for msg, step in zip(messages, steps, strict=True):
        assert step["inside"]
        if msg["outcome"] is None and 0 in msg["to_act"]:
            assert all("ttm-hand-card" in t["cls"] and "is-playable" in t["cls"] for t in step["targets"])
            rung += bool(step["targets"])
        else:
            assert step["targets"] == []
    assert rung
