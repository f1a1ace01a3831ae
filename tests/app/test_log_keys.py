"""Every log entry, result and refusal an engine produces has its words in both catalogues, and every word
the catalogues hold for them is produced.

Random play of every engine, with every option set and every seat count, collects the keys of the log
entries (``log_entries``), the outcome summaries and the refusals (``IllegalAction.code``) it meets; wrong
moves are tried at every step (another seat's move, a stale one, a field changed, a bad shape) to meet the
refusals. A key without an English or a French entry fails, and so does a catalogue entry in a game's
``<game>.log.*``, ``<game>.result.*`` or ``<game>.error.*`` namespace (or the shared ``action.*`` one) that
no play produced.
"""

from __future__ import annotations

import copy
import itertools
import random
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from engines.base import Engine, EngineError, IllegalAction, InvalidOptions
from engines.registry import GAMES, all_engines, get_bot
from tests.app.test_i18n_catalogues import catalogues

DOCS = Path(__file__).resolve().parents[2] / "docs"
NAMESPACES = ("log", "result", "error", "reason")
SEEDS = 3
MOVES_AT_LEAST = 400
"""Each option set plays SEEDS games, and more while it has made fewer than MOVES_AT_LEAST moves: a short game
(the example's nine cells) meets its rarer keys, such as a draw, in the games that adds."""
# TODO(lead): RARE is per-game engine data; each game's package should list its own rare keys (key -> the
# engine test that produces it), e.g. ``RARE_LOG_KEYS: dict[str, str]`` in engines/<pkg>/__init__.py, and the
# test below should find that test beside the package. Same for docs/games/<game>.md (test_the_game_docs_…).
RARE = {
    "tic-tac-match.log.redrew": "test_stuck_hand_is_redrawn_at_the_start_of_the_turn",
    "tic-tac-match.log.passed": "test_after_ten_redraws_the_turn_passes",
    "tic-tac-match.log.no_second_play": "test_double_play_second_play_forfeited_automatically",
    "tic-tac-match.error.double_needs_play": "test_double_play_needs_a_symbol_or_flip_play_to_follow",
    "tri-tac.error.power_off": "test_power_play_threshold_and_option",
    "tic-tac-top.error.cell_empty": "test_illegal_actions_are_refused_with_a_reason",
    "tic-tac-top.error.ranking_too_long": "test_illegal_actions_are_refused_with_a_reason",
    "tic-tac-top.error.word_twice": "test_illegal_actions_are_refused_with_a_reason",
    "tic-tac-top.error.leader_chooses": "test_leader_rotates_clockwise_and_everyone_leads_once",
    "tic-tac-top.log.erased": "test_place_overwrites_and_clear_erases",
    "tic-tac-top.reason.first_line_late": "test_a_first_line_after_the_fifth_word_gives_the_leader_no_bonus",
    "tricky-tactics.reason.last_card": "test_the_automa_plays_its_last_revealed_card",
    "tricky-tactics.result.won_on_locations": "test_final_tie_break_on_locations_controlled_at_last_scoring",
    "tricky-tactics.result.won_on_cubes": "test_final_tie_break_on_cubes_then_shared",
    "tricky-tactics.result.shared": "test_final_tie_break_on_cubes_then_shared",
    "tricky-tactics.result.automa_won": "test_when_the_automa_wins_no_human_seat_wins",
    "tricky-tactics.result.automa_won_on_locations": "test_the_summary_of_a_tie_with_the_automa",
    "tricky-tactics.result.automa_won_on_cubes": "test_the_summary_of_a_tie_with_the_automa",
    "tricky-tactics.result.shared_with_automa": "test_the_summary_of_a_tie_with_the_automa",
}
"""Keys random play meets too seldom to count on, each with the engine test (tests/engines/test_<game>.py)
that produces it and checks its entry."""


def games() -> list[str]:
    """Every game of the registry (asked when needed: a test may register one)."""
    return [engine.name for engine in all_engines()]


def option_sets(engine: Engine[Any, Any, Any]) -> Iterator[dict[str, Any]]:
    """Every combination of the options' booleans and choices (seat counts included), the smallest boards."""
    choices: dict[str, list[Any]] = {}
    for name, field in engine.options_model.model_json_schema()["properties"].items():
        if field.get("type") == "boolean":
            choices[name] = [False, True]
        elif "enum" in field:
            choices[name] = list(field["enum"])
        elif name in ("players", "size") or (
            field.get("type") == "integer" and field.get("maximum", 99) - field.get("minimum", 0) <= 4
        ):
            choices[name] = list(range(field["minimum"], min(field["maximum"], field["minimum"] + 4) + 1))
    counts = {n: choices.pop(n) for n in ("players", "size") if n in choices}
    names = list(choices)
    for values in itertools.product(*(choices[n] for n in names)):
        yield dict(zip(names, values, strict=True))
    for name, values in counts.items():  # every seat count (board size) once with the other options on
        for value in values:
            yield {**{n: choices[n][-1] for n in names}, name: value}


def wrong_moves(
    engine: Engine[Any, Any, Any], state: Any, rng: random.Random, stale: list[Any], kinds: set[str]
) -> Iterator[tuple[int, Any]]:
    """Moves the rules should refuse now, as JSON (some may be legal after all: the caller just tries them).
    ``kinds`` are the action types met so far in this game's plays: each move is tried as each of them."""
    count = len(engine.seats_of(state))
    to_act = engine.to_act(state)
    seats = list(range(count)) if count <= 4 else rng.sample(range(count), 4)  # big tables: a few a step
    every = [a.to_json() for seat in seats for a in engine.legal_actions(state, seat)[:20]] + stale[-3:]
    values: dict[str, list[Any]] = {}  # each field's values in those moves: tried in each other move
    for move in every:
        for key, value in move.items():
            values.setdefault(key, []).append(value)
    for seat in seats:
        legal = [a.to_json() for a in engine.legal_actions(state, seat)] or [{"type": "pass"}]
        kinds.update(str(a.get("type")) for a in legal)
        action = rng.choice(legal)
        yield seat, action
        for old in [action, *stale[-3:]]:
            yield seat, old
            for kind in sorted(kinds):
                yield seat, {**old, "type": kind}
            for key in old:
                for value in rng.sample(values.get(key, []), min(4, len(values.get(key, [])))):
                    yield seat, {**old, key: value}
        for key in list(action):
            changed = copy.deepcopy(action)
            changed[key] = rng.choice([None, -1, 99, "x", [0], [99, 99], True, {"a": 1}])
            yield seat, changed
            dropped = {k: v for k, v in action.items() if k != key}
            yield seat, dropped
        yield seat, {**action, "extra": 1}
    yield count, {"type": "pass"}
    yield next(iter(to_act), 0), ["not", "an", "object"]
    yield next(iter(to_act), 0), {"type": "no-such-move"}


def play(engine: Engine[Any, Any, Any], options: dict[str, Any], seed: int, kinds: set[str]) -> tuple[set[str], int]:
    """The keys one random game produces, and its number of moves."""
    keys: set[str] = set()
    state = engine.new_game(engine.parse_options(options), seed)
    rng = random.Random(seed)
    bot = get_bot(engine.name)
    stale: list[Any] = []
    moves = 0
    for _step in range(3000):
        tries = wrong_moves(engine, state, rng, stale, kinds) if rng.random() < 0.5 or not engine.to_act(state) else ()
        for seat, action in tries:  # on half the steps, and on the final state
            try:
                engine.apply(state, seat, engine.parse_action(action))
            except IllegalAction as err:
                keys.add(err.code)
            except EngineError:
                pass
        to_act = sorted(engine.to_act(state))
        if not to_act:
            break
        seat = rng.choice(to_act)
        if rng.random() < 0.1:
            action = engine.timeout_action(state, seat)
        elif bot is not None and rng.random() < 0.5:
            action = bot.choose(state, seat, rng)
        else:
            action = rng.choice(engine.legal_actions(state, seat))
        stale.append(action.to_json())
        result = engine.apply(state, seat, action)
        moves += 1
        for entry in engine.log_entries(state, seat, action, result):
            keys |= keys_in(entry.to_json())
        for event in result[1]:  # entries in events and views too (Tic Tac Top's scoring reasons)
            keys |= keys_in(event.redact(None))
        state = result[0]
    outcome = engine.outcome(state)
    assert outcome is not None, f"{engine.name} {options} seed {seed}: no result after 3000 moves"
    assert outcome.summary is not None
    keys.add(outcome.summary.key)
    return keys, moves


def keys_in(value: Any) -> set[str]:
    """The keys of an entry and of the entries in its params (the automa's reasons)."""
    if isinstance(value, dict):
        found = {value["key"]} if isinstance(value.get("key"), str) and "params" in value else set()
        return found.union(*(keys_in(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(keys_in(v) for v in value))
    return set()


@cache
def produced(game: str) -> frozenset[str]:
    engine = next(e for e in all_engines() if e.name == game)
    keys: set[str] = set()
    kinds: set[str] = set()
    for options in option_sets(engine):
        try:
            engine.parse_options(options)
        except InvalidOptions:
            continue
        moves = 0
        for seed in itertools.count():
            if seed >= SEEDS and moves >= MOVES_AT_LEAST:
                break
            met, played = play(engine, options, seed, kinds)
            keys |= met
            moves += played
    return frozenset(keys)


def _ours(key: str, game: str) -> bool:
    return any(key.startswith(f"{game}.{space}.") for space in NAMESPACES)


@pytest.mark.slow  # random play of every option set: seconds a game
@pytest.mark.parametrize("game", games())
def test_every_key_a_game_produces_has_english_and_french(game: str) -> None:
    en, fr = catalogues()
    keys = produced(game)
    assert all(_ours(k, game) or k.startswith("action.") for k in keys), sorted(keys)
    assert not sorted(k for k in keys if k not in en), "keys without English"
    assert not sorted(k for k in keys if k not in fr), "keys without French"


@pytest.mark.slow  # random play of every option set: seconds a game
@pytest.mark.parametrize("game", games())
def test_every_catalogue_entry_of_a_game_is_produced(game: str) -> None:
    en, fr = catalogues()
    written = {k for k in {*en, *fr} if _ours(k, game)}
    assert written, f"{game} has no log words in the catalogues"
    assert not sorted(written - produced(game) - set(RARE)), "catalogue entries no play produced"


@pytest.mark.parametrize("key", sorted(RARE))
def test_a_rare_key_has_its_engine_test(key: str) -> None:
    game = key.split(".")[0]
    tests = (Path(__file__).resolve().parents[1] / "engines" / f"test_{game.replace('-', '_')}.py").read_text()
    named = tests.index(f"def {RARE[key]}(")
    body = tests[tests.rfind("\n\n\n", 0, named) : tests.find("\ndef ", named + 1)]  # its decorators too
    assert f'"{key}"' in body or f'"{key.rsplit(".", 1)[1]}"' in body, f"{RARE[key]} does not check {key}"


@pytest.mark.slow  # every game's random play
def test_every_shared_refusal_is_produced() -> None:
    en, fr = catalogues()
    shared = {k for k in {*en, *fr} if k.startswith("action.")}
    met = set().union(*(produced(game) for game in games()))
    assert not sorted(shared - met), "shared refusals no play produced"


@pytest.mark.slow  # random play of every option set
@pytest.mark.parametrize("game", [game.name for game in GAMES])
def test_the_game_docs_list_every_key(game: str) -> None:
    """The keys are public protocol: docs/games/<game>.md lists each (docs/protocol.md the shared ones)."""
    listed = set(
        re.findall(r"`([a-z-]+\.(?:log|result|error|reason)\.[a-z_]+)`", (DOCS / "games" / f"{game}.md").read_text())
    )
    shared = set(re.findall(r"`(action\.[a-z_]+)`", (DOCS / "protocol.md").read_text()))
    keys = produced(game) | {k for k in RARE if k.startswith(f"{game}.")}
    assert not sorted(k for k in keys if k not in listed | shared), "keys the docs do not list"
    assert not sorted(k for k in listed if k not in keys), "keys the docs list that no play produced"
