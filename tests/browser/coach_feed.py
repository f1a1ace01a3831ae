"""Feeding engine-made ``state`` messages into a game's coach module (static/games/<game>/coach.js).

``engine_messages`` plays a seeded game in-process with the registry's engine, through ``LiveGame`` (the
server's own message builder), and keeps the ``state`` message one seat would have received after every
action: its view, its redacted events, ``to_act``, the outcome. ``run_coach`` then mounts the game's real
renderer on a page of the running test server, updates it with each message in turn, and asks the game's
coach for its lines (``coachLines``, phrased as the room page phrases them) and its targets
(``coachTargets``), so a test can check the key and params of every kind of event, and the words shown.

    messages = engine_messages("tri-tac", seat=0, seed=3)
    steps = await run_coach(page, "tri-tac", messages, seat=0)
    placed = [s for s in steps if any(line["key"] == "tri-tac.coach.placed" for line in s["lines"])]
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from typing import Any

from playwright.async_api import Page

from app.live.game import LiveGame
from engines.base import Action, Seat
from engines.registry import get_engine

Chooser = Callable[[Any, Seat, list[Action], random.Random], Action]
"""Picks the action a seat plays from the legal ones (the game's state, the seat, the actions, a seeded rng)."""

NAMES = ("Ada", "Ben", "Cleo", "Dan", "Eve", "Finn")


def random_choice(_state: Any, _seat: Seat, legal: list[Action], rng: random.Random) -> Action:
    return rng.choice(legal)


def engine_messages(
    game: str,
    seat: Seat | None,
    *,
    seed: int = 1,
    options: Mapping[str, Any] | None = None,
    choose: Chooser = random_choice,
    max_actions: int = 2000,
    stop: Callable[[list[dict[str, Any]]], bool] | None = None,
) -> list[dict[str, Any]]:
    """The ``state`` messages ``seat`` (None: a spectator) gets in a seeded game, from the first (no events)
    to the end (or until ``stop(messages)`` says so): one per action, each seat to act acting in turn."""
    engine = get_engine(game)
    parsed = engine.parse_options(dict(options or {}))
    count = len(engine.seats(parsed))
    live = LiveGame.new(engine, parsed, seed, 1, 1, [{"player_id": i + 1} for i in range(count)])
    rng = random.Random(seed)
    messages = [json.loads(live.state_message(seat, []))]
    for _ in range(max_actions):
        if live.outcome_json() is not None or not live.to_act:
            break
        if stop is not None and stop(messages):
            break
        actor = sorted(live.to_act)[0]
        legal = engine.legal_actions(live.state, actor)
        played = live.play(actor, choose(live.state, actor, legal, rng), "player")
        live.log.extend(played.entries)
        messages.append(json.loads(live.state_message(seat, played.events)))
    return messages


def room_summary(game: str, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A room summary as the renderer's ctx.room reads it: the game's seats, each with a named player."""
    engine = get_engine(game)
    infos = engine.seats(engine.parse_options(dict(options or {})))
    seats = [
        {**info.to_json(i), "player": {"id": i + 1, "name": NAMES[i % len(NAMES)], "connected": True, "bot": False}}
        for i, info in enumerate(infos)
    ]
    return {"game": game, "status": "playing", "game_number": 1, "seats": seats, "host": 1}


RUN_COACH = """async ({ game, messages, seat, room }) => {
  const { linesText } = await import("/static/js/coach.js");
  const { t } = await import("/static/js/i18n.js");
  const renderer_mod = await import(`/static/games/${game}/index.js`);
  const coach = await import(`/static/games/${game}/coach.js`);
  const root = document.createElement("div");
  root.className = "board-mount coach-feed";
  document.body.append(root);
  const ctx = { seat, get room() { return room; }, act: () => new Promise(() => {}), t };
  const renderer = renderer_mod.mount(root, ctx);
  const describe = (el) => ({
    tag: el.tagName.toLowerCase(),
    cls: el.getAttribute("class") || "",
    data: { ...el.dataset },
    label: el.getAttribute("aria-label") || "",
  });
  const steps = [];
  let prev = null;
  for (const msg of messages) {
    renderer.update(msg);
    const lines = coach.coachLines(prev, msg, ctx) || [];
    const targets = Array.from(coach.coachTargets(msg, ctx, root) || []);
    steps.push({
      version: msg.version,
      events: msg.events,
      lines,
      text: linesText(lines, room, renderer),
      targets: targets.map(describe),
      inside: targets.every((el) => root.contains(el)),
    });
    prev = msg;
  }
  renderer.destroy();
  root.remove();
  return steps;
}"""


async def run_coach(
    page: Page,
    game: str,
    messages: list[dict[str, Any]],
    seat: Seat | None,
    room: dict[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """Each message through the game's renderer and coach on ``page`` (any page of the test server, in the
    language to phrase in): per message its ``version``, ``events``, ``lines`` ([{key, params}]), ``text``
    (the lines as the room page shows them), ``targets`` ([{tag, cls, data, label}]) and ``inside`` (every
    target is an element of the renderer)."""
    summary = room if room is not None else room_summary(game)
    return list(await page.evaluate(RUN_COACH, {"game": game, "messages": messages, "seat": seat, "room": summary}))


def line_keys(steps: list[dict[str, Any]]) -> set[str]:
    """Every line key the coach said over a game."""
    return {line["key"] for step in steps for line in step["lines"]}
