"""Determinized Monte Carlo search shared by every game's strong bot.

Each iteration samples one complete world consistent with what the seat has seen (``GameModel.determinize``:
hidden cards dealt again at random, future shuffles reseeded), tries one of the seat's candidate moves in
it, plays on with a fast policy for every seat, and scores the end (or a cut-off) for the seat's side.
Candidate moves are chosen by UCB1, so the budget goes to the moves that look best. The search never reads
the real state's hidden parts: everything it simulates comes from a determinization, and every draw comes
from the seeded ``rng``, so the same view and seed give the same move.
"""

from __future__ import annotations

import math
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from random import Random
from typing import Any, Generic, TypeVar

from engines.base import Action, Bot, Engine, Outcome, Seat

S = TypeVar("S")

Clock = Callable[[], float]


@dataclass(frozen=True)
class Deadline:
    """The moment a search must stop, on ``clock`` (tests pass a clock of their own to play a slow machine)."""

    at: float
    clock: Clock = time.monotonic

    @classmethod
    def after(cls, seconds: float, clock: Clock = time.monotonic) -> Deadline:
        return cls(clock() + seconds, clock)

    def passed(self) -> bool:
        return self.clock() >= self.at


class GameModel(ABC, Generic[S]):
    """What the search needs to know about one game."""

    engine: Engine[S, Any, Any]
    rollout_depth: int = 400
    """Actions a playout may take before it is cut off and scored by ``evaluate``."""
    margin: float | None = None
    """Standard errors by which a move must beat the baseline to be played, for a game that sets its own
    (None: the search's ``MARGIN``)."""
    playout_noise: float | None = None
    """How often a playout move is any legal move instead of the policy's, for a game that sets its own
    (None: the search's ``RANDOM_PLAYOUT_MOVE``)."""

    @abstractmethod
    def determinize(self, state: S, seat: Seat, rng: Random) -> S:
        """A full state that ``seat`` cannot tell from ``state``: every part it cannot see drawn anew from
        ``rng``. Must read only what ``engine.view(state, seat)`` shows, in a canonical order, so that two
        states that differ only in hidden cards give the same sample for the same ``rng``."""

    @abstractmethod
    def policy(self, state: S, seat: Seat, rng: Random) -> Action:
        """A fast, reasonable move for any seat in a (determinized) state: the playout policy."""

    def baseline(self, state: S, seat: Seat, rng: Random) -> Action:
        """The move the search keeps unless it finds a clearly better one (by default the policy's)."""
        return self.policy(state, seat, rng)

    def candidates(self, state: S, seat: Seat, rng: Random) -> list[Action]:
        """The moves the search compares (by default every legal move)."""
        return self.engine.legal_actions(state, seat)

    def evaluate(self, state: S, seat: Seat) -> float:
        """How good a cut-off (not finished) state is for ``seat``, in [0, 1]."""
        return 0.5

    def reward(self, outcome: Outcome, seat: Seat) -> float:
        """A finished game's worth for ``seat`` in [0, 1]: a win 1, a draw 0.5, a loss 0; with more than two
        sides, by place."""
        places = len(outcome.ranks)
        if seat in outcome.winners:
            return 1.0
        if outcome.is_draw:
            return 0.5
        worst = max(outcome.ranks)
        if worst == 0 or places <= 2:
            return 0.0
        return 1.0 - outcome.ranks[seat] / worst


@dataclass
class _Arm:
    action: Action
    visits: int = 0
    total: float = 0.0
    diffs: float = 0.0  # sum of (this arm's value - the baseline's) over the shared worlds
    diffs_squared: float = 0.0

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


@dataclass
class SearchReport:
    """What one decision cost, for the benchmark and the tests."""

    iterations: int = 0
    candidates: int = 0
    visits: list[int] = field(default_factory=list)


class SearchBot(Bot[S]):
    """The strong level: determinized Monte Carlo search under a time budget (``budget`` seconds per move).

    Each iteration samples one world and plays every candidate out in it with the same playout seed, so
    candidates are compared on equal luck (a paired comparison: far less noise than separate samples). It
    keeps the normal bot's move unless another beats it by more than ``MARGIN`` standard errors of the
    paired difference: a short search then falls back to normal play instead of to noise.
    """

    RANDOM_PLAYOUT_MOVE = 0.1  # playouts stray from the policy now and then, so one line is not all it sees
    MARGIN = 1.0

    def __init__(self, model: GameModel[S], budget: float = 0.8, max_iterations: int = 100_000) -> None:
        self.model = model
        self.budget = budget
        self.max_iterations = max_iterations
        self.last_report = SearchReport()

    def choose(self, state: S, seat: Seat, rng: Any) -> Action:
        return self.choose_until(state, seat, rng, Deadline.after(self.budget))

    def choose_until(self, state: S, seat: Seat, rng: Random, deadline: Deadline) -> Action:
        model = self.model
        first = model.determinize(state, seat, rng)
        baseline = model.baseline(first, seat, rng)
        actions = model.candidates(first, seat, rng)
        if baseline in actions:
            actions.remove(baseline)
        arms = [_Arm(baseline)] + [_Arm(action) for action in actions]
        report = SearchReport(candidates=len(arms))
        self.last_report = report
        if len(arms) == 1:
            return baseline
        world = first
        while report.iterations < self.max_iterations and not deadline.passed():
            if report.iterations:
                world = model.determinize(state, seat, rng)
            playout_seed = rng.getrandbits(32)
            values: list[float] = []
            for arm in arms:
                value = self._playout(world, seat, arm.action, Random(playout_seed), deadline)
                if value is None:  # the deadline passed mid-playout: this world is not counted
                    break
                values.append(value)
            if len(values) < len(arms):
                break
            for arm, value in zip(arms, values, strict=True):
                arm.visits += 1
                arm.total += value
                arm.diffs += value - values[0]
                arm.diffs_squared += (value - values[0]) ** 2
            report.iterations += 1
        report.visits = [arm.visits for arm in arms]
        return self._pick(arms, report.iterations)

    def _pick(self, arms: list[_Arm], samples: int) -> Action:
        if samples < 2:
            return arms[0].action
        best = max(arms[1:], key=lambda a: a.diffs)
        mean = best.diffs / samples
        variance = max(0.0, best.diffs_squared / samples - mean * mean)
        error = math.sqrt(variance / (samples - 1))
        margin = self.MARGIN if self.model.margin is None else self.model.margin
        return best.action if mean > margin * error and mean > 0 else arms[0].action

    def _playout(self, world: S, seat: Seat, action: Action, rng: Random, deadline: Deadline) -> float | None:
        model = self.model
        engine = model.engine
        noise = self.RANDOM_PLAYOUT_MOVE if model.playout_noise is None else model.playout_noise
        state, _events = engine.apply(world, seat, action)
        for _depth in range(model.rollout_depth):
            outcome = engine.outcome(state)
            if outcome is not None:
                return model.reward(outcome, seat)
            if deadline.passed():
                return None
            movers = engine.to_act(state)
            if not movers:
                break
            mover = min(movers)
            if rng.random() < noise:
                legal = engine.legal_actions(state, mover)
                move = rng.choice(legal) if legal else model.policy(state, mover, rng)
            else:
                move = model.policy(state, mover, rng)
            state, _events = engine.apply(state, mover, move)
        outcome = engine.outcome(state)
        return model.reward(outcome, seat) if outcome is not None else model.evaluate(state, seat)


def top_moves(legal: list[Action], promise: Callable[[Action], float], count: int) -> list[Action]:
    """The ``count`` legal moves that ``promise`` ranks highest, best first (all of them when there are no
    more): the candidates of a game with too many moves to compare every one."""
    if len(legal) <= count:
        return legal
    return sorted(legal, key=promise, reverse=True)[:count]


def squash(margin: float, scale: float) -> float:
    """A score margin as a value in (0, 1): 0.5 when level, towards 1 when well ahead."""
    return 0.5 + 0.5 * math.tanh(margin / scale)
