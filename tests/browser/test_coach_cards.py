"""The coach of the card and word games (Trick-Tac-Foe, Tricky Tactics, Tic Tac Top) on real state messages.

Each game is played in-process from a seed by its own bots (``engines.registry``); after every move each seat
gets the ``state`` message the server would send it (its view, ``to_act``, the events redacted for it). For
each kind of event that changes the board or the score, the first message holding it goes through the game's
``coachLines`` in a page of the test server (the renderer mounted as the room page mounts it, its log hooks
phrasing the line): the line has the key and params the event calls for, and neither its params nor its
sentence name a card the seat may not see. ``coachTargets`` marks something when the seat is to act and
nothing when it is not."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from playwright.async_api import Page, expect

from engines.registry import get_bot, get_engine
from engines.trick_tac_foe.seats import number_for
from tests.browser.conftest import NewPlayer
from tests.browser.tables import open_table
from tests.support.server import ServerProcess

SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
CARD = re.compile(r"^(?:A|10|[2-9])[SHDC]$")
ALL_CARDS = [f"{rank}{suit}" for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10") for suit in "SHDC"]


@dataclass
class Case:
    """One seat's message after a move, with the one before it, and what the coach should say about it."""

    seat: int | None
    prev: dict[str, Any] | None
    msg: dict[str, Any]
    expected: list[dict[str, Any]]  # {key, params}: params the line must hold (a subset of its params)
    label: str


def state_message(engine: Any, state: Any, seat: int | None, events: list[Any], version: int) -> dict[str, Any]:
    """The ``state`` message ``seat`` would get (app/live/game.py), without the log, which the coach does not read."""
    outcome = engine.outcome(state)
    return {
        "type": "state",
        "version": version,
        "game": engine.name,
        "view": engine.view(state, seat),
        "to_act": sorted(engine.to_act(state)),
        "deadline": None,
        "outcome": None if outcome is None else outcome.to_json(),
        "events": [e.redact(seat) for e in events],
        "log": [],
    }


def play(
    game: str, options: dict[str, Any], seed: int, seats: Sequence[int | None]
) -> Iterator[tuple[int | None, dict[str, Any] | None, dict[str, Any], Any]]:
    """Every (seat, previous message, message, state) of a bot game, for each of ``seats``."""
    engine = get_engine(game)
    bot = get_bot(game)
    assert bot is not None
    rng = random.Random(seed)
    state = engine.new_game(engine.parse_options(options), seed)
    prev: dict[int | None, dict[str, Any] | None] = dict.fromkeys(seats)
    version = 0
    while engine.outcome(state) is None and version < 5000:
        seat = min(engine.to_act(state))
        action = bot.choose(state, seat, rng)
        if isinstance(action, dict):
            action = engine.parse_action(action)
        state, events = engine.apply(state, seat, action)
        version += 1
        for s in seats:
            msg = state_message(engine, state, s, events, version)
            yield s, prev[s], msg, state
            prev[s] = msg


def first_cases(
    game: str,
    options: dict[str, Any],
    seeds: range,
    seats: Sequence[int | None],
    expect: Callable[[int | None, dict[str, Any]], list[tuple[str, dict[str, Any]]]],
) -> dict[str, Case]:
    """The first message (over the seeds) for each label ``expect`` gives a message's events: ``expect`` says,
    for each event it covers, (label, expected line)."""
    cases: dict[str, Case] = {}
    for seed in seeds:
        for seat, prev, msg, _state in play(game, options, seed, seats):
            found = expect(seat, msg)
            new = [label for label, _ in found if label not in cases]
            if new:
                case = Case(seat, prev, msg, [line for _, line in found], new[0])
                for label in new:
                    cases[label] = case
    return cases


def visible_cards(msg: dict[str, Any]) -> set[str]:
    """The cards the seat may see: those its view and its redacted events hold."""
    text = json.dumps([msg["view"], msg["events"]])
    return {card for card in ALL_CARDS if f'"{card}"' in text}


def cards_in(value: Any) -> Iterator[str]:
    if isinstance(value, str) and CARD.match(value):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from cards_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from cards_in(v)


def card_text(card: str) -> str:
    return f"{card[:-1]}{SUIT_SYMBOL[card[-1]]}"


COACH = """
async ({ game, room, cases }) => {
  const coach = await import(`/static/games/${game}/coach.js`);
  const renderer = await import(`/static/games/${game}/index.js`);
  const { phrase, t } = await import("/static/js/i18n.js");
  const { logContext } = await import("/static/js/log.js");
  const out = [];
  for (const c of cases) {
    const el = document.createElement("div");
    document.body.append(el);
    const ctx = { seat: c.seat, get room() { return room; }, act: () => new Promise(() => {}), t };
    const drawn = renderer.mount(el, ctx);
    if (c.prev) drawn.update(c.prev);
    drawn.update(c.msg);
    const lines = coach.coachLines(c.prev, c.msg, ctx);
    const words = logContext(room, drawn);
    const texts = lines.map((line) => phrase(line, words));
    const targets = coach.coachTargets(c.msg, ctx, el).length;
    drawn.destroy();
    el.remove();
    out.push({ lines, texts, targets });
  }
  return out;
}
"""


async def coach_on(page: Page, game: str, room: dict[str, Any], cases: list[Case]) -> list[dict[str, Any]]:
    payload = [{"seat": c.seat, "prev": c.prev, "msg": c.msg} for c in cases]
    result: list[dict[str, Any]] = await page.evaluate(COACH, {"game": game, "room": room, "cases": payload})
    return result


def room_of(game: str, seats: list[dict[str, Any]]) -> dict[str, Any]:
    return {"game": game, "game_number": 1, "seats": seats, "spectators": [], "code": "ACDEF"}


def check_lines(cases: list[Case], results: list[dict[str, Any]]) -> None:
    """Each expected line is said with its params; nothing phrased is left unfilled; no hidden card."""
    for case, result in zip(cases, results, strict=True):
        lines = result["lines"]
        for want in case.expected:
            matching = [
                line
                for line in lines
                if line["key"] == want["key"] and all(line["params"].get(k) == v for k, v in want["params"].items())
            ]
            assert matching, f"{case.label}: no line {want} in {lines}"
        for text in result["texts"]:
            assert text and ".coach." not in text and "{" not in text, f"{case.label}: {text!r}"
        seen = visible_cards(case.msg)
        for line in lines:
            hidden = set(cards_in(line["params"])) - seen
            assert not hidden, f"{case.label}: {line} names {hidden}, which seat {case.seat} may not see"
        for card in set(ALL_CARDS) - seen:
            for text in result["texts"]:
                assert not re.search(rf"(?<![0-9]){re.escape(card_text(card))}", text), (
                    f"{case.label}: {text!r} names {card}"
                )


# ---- Trick-Tac-Foe ---------------------------------------------------------------------------------------

TTF_EFFECT = {"place": "placed", "flip": "flipped", "none": "unchanged"}


def ttf_expect(seat: int | None, msg: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    view = msg["view"]
    found: list[tuple[str, dict[str, Any]]] = []
    reveal: dict[str, Any] | None = None
    for ev in msg["events"]:
        mine = "you" if ev.get("seat", ev.get("winner")) == seat else "other"
        if ev["kind"] == "reveal":
            reveal = ev
            if ev["wild"]:
                key = "you_wild" if mine == "you" else "wild_pending"
                found.append(
                    (
                        f"reveal wild {mine}",
                        {"key": f"trick-tac-foe.coach.{key}", "params": {"seat": ev["winner"], "card": ev["card"]}},
                    )
                )
        elif ev["kind"] == "resolve":
            effect = TTF_EFFECT[ev["effect"]]
            params = {
                "seat": ev["seat"],
                "number": ev["number"],
                "cell": ev["cell"],
                "team": ev["team"],
                "mine": number_for(view["perspective"], ev["cell"]),
            }
            prefix = "you_" if mine == "you" else ""
            if ev["wild"]:
                found.append(
                    (f"wild {effect} {mine}", {"key": f"trick-tac-foe.coach.{prefix}wild_{effect}", "params": params})
                )
            else:
                assert reveal is not None and reveal["winner"] == ev["seat"]
                params["card"] = reveal["card"]
                found.append(
                    (f"resolve {effect} {mine}", {"key": f"trick-tac-foe.coach.{prefix}{effect}", "params": params})
                )
        elif ev["kind"] == "score":
            red, black = ev["scores"]
            found.append(
                (
                    "score",
                    {"key": "trick-tac-foe.coach.scored", "params": {"team": ev["team"], "red": red, "black": black}},
                )
            )
        elif ev["kind"] == "round_end":
            found.append(("round_end", {"key": "trick-tac-foe.coach.round_over", "params": {"round": ev["round"]}}))
    return found


TTF_SEATS_2 = [
    {
        "index": 0,
        "team": None,
        "direction": "south",
        "player": {"id": 1, "name": "Ada", "connected": True, "bot": False},
    },
    {
        "index": 1,
        "team": None,
        "direction": "north",
        "player": {"id": 2, "name": "Bo", "connected": True, "bot": False},
    },
]
TTF_SEATS_4 = [
    {"index": i, "team": team, "direction": d, "player": {"id": i + 1, "name": name, "connected": True, "bot": False}}
    for i, (d, team, name) in enumerate([("north", 0, "Ada"), ("east", 0, "Bo"), ("south", 1, "Cy"), ("west", 1, "Di")])
]


async def test_trick_tac_foe_coach_says_who_won_which_cell_and_which_line(new_player: NewPlayer) -> None:
    page = await new_player("Coach")
    await page.goto("/rules/trick-tac-foe")
    # Head to head as South (seat 0), and as West in a 4-player game, where West's numbers are turned.
    for options, seats, seat, room_seats, wanted in (
        (
            {},
            [0],
            0,
            TTF_SEATS_2,
            {
                "resolve placed you",
                "resolve flipped other",
                "reveal wild other",
                "reveal wild you",
                "score",
                "round_end",
            },
        ),
        (
            {"players": 4},
            [3],
            3,
            TTF_SEATS_4,
            {"resolve placed other", "resolve flipped other", "resolve unchanged other", "wild placed other", "score"},
        ),
    ):
        cases = first_cases("trick-tac-foe", options, range(8), seats, ttf_expect)
        assert wanted <= cases.keys(), f"the seeds never made {wanted - cases.keys()}"
        unique = list({id(c): c for c in cases.values()}.values())
        results = await coach_on(page, "trick-tac-foe", room_of("trick-tac-foe", room_seats), unique)
        check_lines(unique, results)
        # West's own number for the cell, not the winner's: the coach reads the grid from your side.
        if seat == 3:
            turned = [
                line
                for r in results
                for line in r["lines"]
                if "mine" in line["params"] and line["params"]["mine"] != line["params"]["number"]
            ]
            assert turned, "no line where West's number differs from the winner's"


async def test_trick_tac_foe_coach_targets_the_hand_and_the_wild_cells(new_player: NewPlayer) -> None:
    page = await new_player("Coach")
    await page.goto("/rules/trick-tac-foe")
    cases: list[Case] = []
    for seat, prev, msg, _state in play("trick-tac-foe", {}, 1, [0, None]):
        view = msg["view"]
        to_act = seat in msg["to_act"] and msg["outcome"] is None
        kind = "spectator" if seat is None else f"{view['phase']} {'to act' if to_act else 'waiting'}"
        if kind not in {c.label for c in cases}:
            cases.append(Case(seat, prev, msg, [], kind))
    labels = {c.label for c in cases}
    assert {"commit to act", "commit waiting", "wild to act", "spectator"} <= labels, labels
    results = await coach_on(page, "trick-tac-foe", room_of("trick-tac-foe", TTF_SEATS_2), cases)
    for case, result in zip(cases, results, strict=True):
        if case.label.endswith("to act"):
            assert result["targets"] > 0, case.label
        else:
            assert result["targets"] == 0, case.label


async def targets_by_label(page: Page, game: str, room: dict[str, Any], cases: list[Case]) -> None:
    """``coachTargets`` rings something in each case labelled "... to act", and nothing in the others."""
    results = await coach_on(page, game, room, cases)
    for case, result in zip(cases, results, strict=True):
        if case.label.endswith("to act"):
            assert result["targets"] > 0, case.label
        else:
            assert result["targets"] == 0, case.label


# ---- Tricky Tactics --------------------------------------------------------------------------------------


def tk_expect(seat: int | None, msg: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    view = msg["view"]
    ids = [p["id"] for p in view["players"]]
    found: list[tuple[str, dict[str, Any]]] = []
    for ev in msg["events"]:
        if ev["kind"] == "play" and ev["player"] == "automa":
            found.append(
                (
                    "automa play",
                    {
                        "key": "tricky-tactics.coach.automa_played",
                        "params": {"card": ev["card"], "reason": ev["reason"]},
                    },
                )
            )
        elif ev["kind"] == "trick":
            key = "you_won_trick" if ev["winner"] == seat else "trick_won"
            found.append(
                (
                    f"trick {key}",
                    {
                        "key": f"tricky-tactics.coach.{key}",
                        "params": {"seat": ev["winner"], "card": ev["card"], "suit": ev["led"]},
                    },
                )
            )
        elif ev["kind"] == "action":
            if ev["type"] == "skip":
                found.append(("skip", {"key": "tricky-tactics.coach.skipped", "params": {"seat": ev["player"]}}))
            elif ev["player"] == "automa":
                found.append(
                    (
                        f"automa {ev['type']}",
                        {"key": "tricky-tactics.coach.automa_action", "params": {"reason": ev["reason"]}},
                    )
                )
            elif ev["type"] == "add":
                value = view["values"][ev["location"][0]]
                found.append(
                    (
                        "add",
                        {
                            "key": "tricky-tactics.coach.added",
                            "params": {"seat": ev["player"], "location": ev["location"], "value": value},
                        },
                    )
                )
            else:
                found.append(
                    (
                        "remove",
                        {
                            "key": "tricky-tactics.coach.removed",
                            "params": {"seat": ev["player"], "owner_seat": ev["owner"], "location": ev["location"]},
                        },
                    )
                )
        elif ev["kind"] == "round_scored":
            points = ev["points"]
            top = max(points)
            if top == 0:
                found.append(
                    (
                        "round nobody",
                        {"key": "tricky-tactics.coach.round_scored_nobody", "params": {"round": ev["round"]}},
                    )
                )
                continue
            best = [pid for pid, p in zip(ids, points, strict=True) if p == top]
            params: dict[str, Any] = {"round": ev["round"], "seats": best, "points": top}
            if seat in best:
                found.append(
                    (
                        "round you top",
                        {
                            "key": "tricky-tactics.coach.round_scored_you_top",
                            "params": {"round": ev["round"], "mine": top},
                        },
                    )
                )
            elif seat in ids:
                params["mine"] = points[ids.index(seat)]
                found.append(("round you", {"key": "tricky-tactics.coach.round_scored_you", "params": params}))
            else:
                found.append(("round", {"key": "tricky-tactics.coach.round_scored", "params": params}))
    return found


TK_SEATS = [
    {
        "index": i,
        "team": None,
        "direction": None,
        "player": {"id": i + 1, "name": name, "connected": True, "bot": False},
    }
    for i, name in enumerate(["Ada", "Bo"])
]


async def test_tricky_tactics_coach_says_tricks_actions_and_the_automas_rule(new_player: NewPlayer) -> None:
    page = await new_player("Coach")
    await page.goto("/rules/tricky-tactics")
    wanted = {"automa play", "trick you_won_trick", "trick trick_won", "add", "automa add", "round"}
    options = {"rounds": 2, "cubes": 3}  # few cubes: supplies run out, so Removes and skips come too
    cases = first_cases("tricky-tactics", options, range(4), [0, None], tk_expect)
    assert wanted <= cases.keys(), f"the seeds never made {wanted - cases.keys()}"
    assert {"remove", "automa remove"} & cases.keys(), cases.keys()
    assert {"round you", "round you top"} & cases.keys(), cases.keys()
    unique = list({id(c): c for c in cases.values()}.values())
    results = await coach_on(page, "tricky-tactics", room_of("tricky-tactics", TK_SEATS), unique)
    check_lines(unique, results)
    # The automa's rule is phrased from its reason, which names only the cards it turned up.
    automa = [t for r in results for t in r["texts"] if t.startswith("Automa played")]
    assert automa and all("Its rule: it " in t for t in automa), automa


async def test_tricky_tactics_coach_targets_playable_cards_and_actions(new_player: NewPlayer) -> None:
    page = await new_player("Coach")
    await page.goto("/rules/tricky-tactics")
    cases: list[Case] = []
    for seat, prev, msg, _state in play("tricky-tactics", {"rounds": 1}, 2, [0, None]):
        view = msg["view"]
        to_act = seat in msg["to_act"] and msg["outcome"] is None
        kind = "spectator" if seat is None else f"{view['phase']} {'to act' if to_act else 'waiting'}"
        if kind not in {c.label for c in cases}:
            cases.append(Case(seat, prev, msg, [], kind))
    labels = {c.label for c in cases}
    assert {"play to act", "play waiting", "action to act", "spectator"} <= labels, labels
    await targets_by_label(page, "tricky-tactics", room_of("tricky-tactics", TK_SEATS), cases)


# ---- Tic Tac Top -----------------------------------------------------------------------------------------

LEADER_BONUS = {3: 3, 4: 2, 5: 1}


def ttt_expect(seat: int | None, msg: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    view = msg["view"]
    found: list[tuple[str, dict[str, Any]]] = []
    for ev in msg["events"]:
        if ev["kind"] == "announce":
            base = {"word_number": ev["index"], "word": ev["word"]}
            line_seats = sorted({line["seat"] for line in ev["lines"]})
            if ev["first_line"]:
                bonus = LEADER_BONUS.get(ev["first_line"]["index"], 0)
                key = "first_line" if bonus else "first_line_late"
                params = {**base, "seats": ev["first_line"]["seats"], "bonus": bonus, "leader_seat": view["leader"]}
                found.append((key, {"key": f"tic-tac-top.coach.{key}", "params": params}))
            elif line_seats:
                found.append(("line", {"key": "tic-tac-top.coach.line", "params": {**base}}))
            elif any(c["seat"] == seat for c in ev["circled"]):
                found.append(("circled you", {"key": "tic-tac-top.coach.circled_you", "params": base}))
            else:
                found.append(
                    (
                        "announced",
                        {"key": "tic-tac-top.coach.announced", "params": {**base, "count": len(ev["circled"])}},
                    )
                )
        elif ev["kind"] == "turn_scored":
            scoring = ev["scoring"]
            leader = scoring["leader"]

            def part(name: str, who: int, rows: list[dict[str, Any]] = scoring["rows"]) -> int:
                return sum(r["points"] for r in rows if r["part"] == name and r["seat"] == who)

            lead = {
                "seat": leader,
                "points": part("A", leader) + part("B", leader),
                "first": part("A", leader),
                "best": part("B", leader),
            }
            key = "you_led_scored" if leader == seat else "leader_scored"
            found.append((key, {"key": f"tic-tac-top.coach.{key}", "params": lead}))
            if seat is not None and seat != leader:
                mine = {"points": part("C", seat) + part("D", seat), "first": part("C", seat), "lines": part("D", seat)}
                found.append(("you_scored", {"key": "tic-tac-top.coach.you_scored", "params": mine}))
    return found


def ttt_seats(count: int) -> list[dict[str, Any]]:
    names = ["Ada", "Bo", "Cy", "Di"]
    return [
        {
            "index": i,
            "team": None,
            "direction": None,
            "player": {"id": i + 1, "name": names[i], "connected": True, "bot": False},
        }
        for i in range(count)
    ]


def secret_words(engine: Any, state: Any, seat: int | None, msg: dict[str, Any]) -> set[str]:
    """The Leader's ranked words not yet announced, unless the seat is the Leader: what its coach must not say."""
    full = engine.view(state, msg["view"]["leader"])
    ranking = full.get("ranking") or []
    if seat == msg["view"]["leader"]:
        return set()
    return set(ranking) - set(msg["view"].get("announced") or [])


async def test_tic_tac_top_coach_says_words_lines_and_bonuses(new_player: NewPlayer) -> None:
    page = await new_player("Coach")
    await page.goto("/rules/tic-tac-top")
    engine = get_engine("tic-tac-top")
    cases: dict[str, Case] = {}
    secrets: dict[int, set[str]] = {}
    for seed in range(3):
        for seat, prev, msg, state in play("tic-tac-top", {"players": 3}, seed, [1]):
            found = ttt_expect(seat, msg)
            new = [label for label, _ in found if label not in cases]
            if new:
                case = Case(seat, prev, msg, [line for _, line in found], new[0])
                secrets[id(case)] = secret_words(engine, state, seat, msg)
                for label in new:
                    cases[label] = case
    wanted = {"announced", "circled you", "first_line", "line", "leader_scored", "you_scored"}
    assert wanted <= cases.keys(), f"the seeds never made {wanted - cases.keys()}"
    unique = list({id(c): c for c in cases.values()}.values())
    results = await coach_on(page, "tic-tac-top", room_of("tic-tac-top", ttt_seats(3)), unique)
    check_lines(unique, results)
    for case, result in zip(unique, results, strict=True):
        for word in secrets[id(case)]:
            assert all(word not in text for text in result["texts"]), f"{case.label}: names the unannounced {word!r}"


async def test_tic_tac_top_coach_targets_each_step(new_player: NewPlayer) -> None:
    page = await new_player("Coach")
    await page.goto("/rules/tic-tac-top")
    cases: list[Case] = []
    for seat, prev, msg, _state in play("tic-tac-top", {"players": 3}, 1, [0, 1, None]):
        view = msg["view"]
        to_act = seat in msg["to_act"] and msg["outcome"] is None
        role = "spectator" if seat is None else "leader" if view["leader"] == seat else "player"
        kind = f"{view['phase']} {role} {'to act' if to_act else 'waiting'}"
        if kind not in {c.label for c in cases}:
            cases.append(Case(seat, prev, msg, [], kind))
    labels = {c.label for c in cases}
    wanted = {
        "choose leader to act",
        "write leader to act",
        "write player to act",
        "reveal leader to act",
        "reveal player waiting",
        "write spectator waiting",
    }
    assert wanted <= labels, labels
    await targets_by_label(page, "tic-tac-top", room_of("tic-tac-top", ttt_seats(3)), cases)


# ---- on the room page ------------------------------------------------------------------------------------


async def test_trick_tac_foe_room_coach_rings_the_hand_says_the_trick_and_switches_off(
    new_player: NewPlayer, sqlite_server: ServerProcess
) -> None:
    page = await new_player("Ann")
    await open_table(page, sqlite_server.url, "trick-tac-foe")
    switch = page.get_by_role("switch", name=re.compile("Coach"))
    if await switch.get_attribute("aria-checked") != "true":
        await switch.click()
    await expect(switch).to_have_attribute("aria-checked", "true")
    line = page.locator("#coach-line")
    # My hand is ringed; once the trick is played (the bot commits too) the line says who won and where.
    rings = page.locator("#board .tf-hand-card.coach-target")
    await expect(rings.first).to_be_attached()
    assert await rings.count() == await page.locator("#board .tf-hand-card").count()
    await rings.first.click()
    await page.locator("#board .tf-play-btn").click()
    await expect(line).to_contain_text(re.compile(r"won(, | with )"))

    await switch.click()
    await expect(switch).to_have_attribute("aria-checked", "false")
    await expect(line).to_be_hidden()
    await expect(page.locator(".coach-target")).to_have_count(0)
