"""Tic-Tac-Toe's coach, fed the state messages its engine makes: a line for every move, the row of two that
must be blocked, the winning line and the draw, with the right key and params, and rings only on the empty
cells of the seat to move."""

from __future__ import annotations

from typing import Any

from tests.browser.coach_feed import engine_messages, line_keys, run_coach
from tests.browser.conftest import NewPlayer

GAME = "tic-tac-toe"


def games_for(seat: int, seeds: range) -> list[list[dict[str, Any]]]:
    return [engine_messages(GAME, seat, seed=seed) for seed in seeds]


async def test_every_kind_of_event_has_its_line(new_player: NewPlayer) -> None:
    page = await new_player("Ann")
    await page.goto("/")
    said: set[str] = set()
    for messages in games_for(0, range(1, 40)):
        steps = await run_coach(page, GAME, messages, seat=0)
        said |= line_keys(steps)
        for step in steps:
            placed = [e for e in step["events"] if e["kind"] == "placed"]
            for event in placed:
                line = {"key": "tic-tac-toe.coach.placed", "params": {"seat": event["seat"], "cell": event["cell"]}}
                assert line in step["lines"]
                marker = "XO"[event["seat"]]
                cell = event["cell"]
                assert f"({marker}) took row {cell // 3 + 1}, column {cell % 3 + 1}." in step["text"]
        ended = steps[-1]
        assert any(k.startswith("tic-tac-toe.coach.won_") or k == "tic-tac-toe.coach.draw" for k in line_keys([ended]))
    assert {
        "tic-tac-toe.coach.placed",
        "tic-tac-toe.coach.threat",
        "tic-tac-toe.coach.draw",
    } <= said
    assert said & {"tic-tac-toe.coach.won_row", "tic-tac-toe.coach.won_column", "tic-tac-toe.coach.won_diagonal"}


async def test_rings_the_empty_cells_of_the_seat_to_move_only(new_player: NewPlayer) -> None:
    page = await new_player("Ann")
    await page.goto("/")
    messages = engine_messages(GAME, 1, seed=5)
    steps = await run_coach(page, GAME, messages, seat=1)
    for msg, step in zip(messages, steps, strict=True):
        assert step["inside"]
        if msg["outcome"] is None and 1 in msg["to_act"]:
            empty = {str(i) for i, v in enumerate(msg["view"]["board"]) if v is None}
            assert {t["data"]["cell"] for t in step["targets"]} == empty
        else:
            assert step["targets"] == []
    spectator = await run_coach(page, GAME, engine_messages(GAME, None, seed=5), seat=None)
    assert all(step["targets"] == [] for step in spectator)
    assert any(step["lines"] for step in spectator)


async def test_french_lines(new_player: NewPlayer) -> None:
    page = await new_player("Ann")
    await page.goto("/")
    await page.context.add_cookies([{"name": "tf_lang", "value": "fr", "url": page.url}])
    await page.goto("/")
    steps = await run_coach(page, GAME, engine_messages(GAME, 0, seed=2), seat=0)
    assert "a pris ligne" in steps[1]["text"]
