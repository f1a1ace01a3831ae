"""Bot levels: every level finishes every game legally, the strong bot decides from its seat's view only,
and its search stops at its deadline however slow the machine."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from engines.base import Action, Bot, Engine
from engines.levels import LEVELS, Level, level_bot, parse_level
from engines.registry import games, get_engine
from engines.search import Deadline, SearchBot

MODES: list[tuple[str, dict[str, Any]]] = [(game.name, dict(options)) for game in games() for options in game.variants]
SEEDS = {"easy": range(8), "normal": range(8), "strong": range(3)}
MAX_STEPS = 3000


class StepClock:
    """A clock that moves on by ``step`` seconds each time it is read: a machine as slow as we like, with
    no real time involved."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step
        self.reads = 0

    def __call__(self) -> float:
        self.now += self.step
        self.reads += 1
        return self.now


def decide(bot: Bot[Any], state: Any, seat: int, rng: random.Random, reads: int = 6) -> Action:
    """The bot's move; a search gets a deadline ``reads`` clock reads away, so it runs a few iterations."""
    if isinstance(bot, SearchBot):
        clock = StepClock(1.0)
        return bot.choose_until(state, seat, rng, Deadline.after(reads, clock))
    return bot.choose(state, seat, rng)


def play(engine: Engine[Any, Any, Any], options: dict[str, Any], seed: int, levels: list[Level]) -> Any:
    state = engine.new_game(engine.parse_options(options), seed)
    rng = random.Random(seed)
    for _ in range(MAX_STEPS):
        if engine.outcome(state) is not None:
            return state
        seat = min(engine.to_act(state))
        bot = level_bot(engine.name, levels[seat])
        assert bot is not None
        action = decide(bot, state, seat, rng)
        state, _events = engine.apply(state, seat, action)  # raises IllegalAction on an illegal move
    pytest.fail(f"{engine.name} did not finish in {MAX_STEPS} steps")


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(("game", "options"), MODES, ids=[f"{g}-{sorted(o.items())}" for g, o in MODES])
def test_every_level_plays_every_game_to_the_end(game: str, options: dict[str, Any], level: Level) -> None:
    engine = get_engine(game)
    seats = len(engine.seats(engine.parse_options(options)))
    for seed in SEEDS[level]:
        # The level under test holds every other seat; the others are normal bots.
        levels: list[Level] = [level if seat % 2 == seed % 2 else "normal" for seat in range(seats)]
        assert engine.outcome(play(engine, options, seed, levels)) is not None


def test_levels_parse_and_only_known_levels() -> None:
    assert [parse_level(level) for level in LEVELS] == ["easy", "normal", "strong"]
    for bad in ("hard", "", None, 2):
        with pytest.raises(ValueError):
            parse_level(bad)


# ---- never uses what its seat cannot see -------------------------------------------------------------


def _advance(engine: Engine[Any, Any, Any], state: Any, moves: int, seed: int) -> Any:
    """``moves`` moves of normal bots on, or the last position before the game ends."""
    rng = random.Random(seed)
    normal = level_bot(engine.name, "normal")
    assert normal is not None
    for _ in range(moves):
        seat = min(engine.to_act(state))
        after, _events = engine.apply(state, seat, normal.choose(state, seat, rng))
        if engine.outcome(after) is not None:
            break
        state = after
    return state


def _trick_tac_foe_twin(state: Any, seat: int) -> Any:
    """The opponent's hand swapped with cards from the opponent's deck, later rounds dealt otherwise."""
    other = 1 - seat
    hand, deck = state.hands[other], state.decks[other]
    count = min(len(hand), len(deck))
    hands, decks = list(state.hands), list(state.decks)
    hands[other], decks[other] = deck[:count] + hand[count:], hand[:count] + deck[count:]
    deals = tuple(tuple(d[::-1] for d in rnd) for rnd in state.deals)
    return state.changed(hands=tuple(hands), decks=tuple(decks), deals=deals)


def _tic_tac_match_twin(state: Any, seat: int) -> Any:
    other = (seat + 1) % state.players
    hand, draw = state.hands[other], state.draw
    count = min(len(hand), len(draw))
    twin = state.with_hand(other, draw[-count:] + hand[count:])
    return replace(twin, draw=draw[:-count] + hand[:count], salt=state.salt + 1)


def _tricky_tactics_twin(state: Any, seat: int) -> Any:
    from engines.tricky_tactics.cards import sort_hand

    other = next(p for p in range(state.n) if p != seat and p != state.automa)
    hand, deck = state.hands[other], state.automa_deck
    count = min(len(hand), len(deck))
    return replace(
        state.with_hand(other, sort_hand(deck[:count] + hand[count:])),
        automa_deck=hand[:count] + deck[count:],
        deal_seeds=tuple(s + 1 for s in state.deal_seeds),
    )


SAMPLES = 30
NEVER = Deadline(float("inf"))

TWINS = [
    ("trick-tac-foe", {"players": 2}, _trick_tac_foe_twin),
    ("tic-tac-match", {"players": 2}, _tic_tac_match_twin),
    ("tricky-tactics", {"mode": "automa"}, _tricky_tactics_twin),
]


@pytest.mark.parametrize(("game", "options", "twin_of"), TWINS, ids=[t[0] for t in TWINS])
def test_strong_bot_decides_the_same_when_only_hidden_cards_differ(
    game: str, options: dict[str, Any], twin_of: Any
) -> None:
    engine = get_engine(game)
    bot = level_bot(game, "strong")
    assert isinstance(bot, SearchBot)
    # A real search (a fixed number of sampled worlds, no clock), so the decision rests on the samples.
    searcher = SearchBot(bot.model, max_iterations=SAMPLES)
    searcher.MARGIN = 0.0
    searched = 0
    for seed in range(6):
        state = _advance(engine, engine.new_game(engine.parse_options(options), seed), 3 + seed, seed)
        seat = min(engine.to_act(state))
        twin = twin_of(state, seat)
        assert engine.dump(twin) != engine.dump(state), "the twin must differ in its hidden cards"
        assert engine.view(twin, seat) == engine.view(state, seat), "and only there"
        first = searcher.choose_until(state, seat, random.Random(seed), NEVER)
        second = searcher.choose_until(twin, seat, random.Random(seed), NEVER)
        assert first == second
        searched += searcher.last_report.iterations == SAMPLES
    assert searched == 6


# ---- the budget holds on a slow machine --------------------------------------------------------------


SEARCHING = [game.name for game in games() if isinstance(level_bot(game.name, "strong"), SearchBot)]


@pytest.mark.parametrize("game", SEARCHING)
def test_search_stops_at_its_deadline_however_slow_the_clock(game: str) -> None:
    engine = get_engine(game)
    bot = level_bot(game, "strong")
    assert isinstance(bot, SearchBot)
    state = _advance(engine, engine.new_game(engine.parse_options({}), 11), 2, 11)
    seat = min(engine.to_act(state))
    for step in (0.01, 0.05, 0.3, 2.0):  # each clock read costs this long: from a fast machine to a crawl
        clock = StepClock(step)
        deadline = Deadline.after(bot.budget, clock)
        action = bot.choose_until(state, seat, random.Random(3), deadline)
        engine.apply(state, seat, action)  # legal
        # The search reads the clock once more after the deadline has passed, and no more.
        assert clock.now <= deadline.at + step
