"""A game's lesson: short steps, each a position set up with the game's own engine and one move to make.

A lesson is data (``engines/<game>/lesson.json``, format in docs/lessons.md): for each step, how its
position is reached from a new game (moves played through ``apply``, then, where the example needs given
cards, fields of the dumped state replaced), the move the step asks for, the other seats' scripted replies,
and the catalogue keys of its texts. ``LessonRunner`` plays a learner's try on that position: the rules
refuse it (with the same refusal the server sends in a game), it misses the step's point (played out, then
taken back), or it is the move asked for. Nothing here is stored: every try starts again from the step's
position, so a lesson needs no room and writes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engines.base import JSON, ActionModel, Engine, EngineError, Event, IllegalAction, Seat

MAX_STEPS = 8
MIN_STEPS = 3


class InvalidLesson(EngineError):
    """A lesson file that does not describe steps the engine can play."""


class _Data(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Move(_Data):
    """One seat's move, as the protocol carries it."""

    seat: Seat
    action: dict[str, JSON]


class Step(_Data):
    """One step: a position, the move it asks for and the keys of what it says."""

    id: str = Field(pattern=r"^[a-z0-9_]+$")
    """The step's name; its texts are ``<game>.lesson.<id>.prompt``, ``.done`` and ``.miss``."""
    options: dict[str, JSON] | None = None
    """The game's options for this step (default: the lesson's)."""
    seed: int | None = None
    """The deal (default: the lesson's)."""
    moves: tuple[Move, ...] = ()
    """Played from the new game, in order, to reach the position."""
    patch: dict[str, JSON] = Field(default_factory=dict)
    """Fields of the dumped state replaced after ``moves`` (cards in a hand, a cell's mark): the position the
    rules' own example shows. The result is loaded through the game's codec, so it must be a valid state."""
    ask: tuple[dict[str, JSON], ...] = Field(min_length=1)
    """The moves that meet the step's point (the first is the one a hint shows)."""
    replies: tuple[Move, ...] = ()
    """The other seats' moves after the learner's, each played when the game waits on that seat."""
    punish: tuple[Move, ...] | None = None
    """The other seats' moves after a move that missed the point (the reply that shows why it was weak);
    default: ``replies``, those of them still legal."""
    expect: tuple[str, ...] = ()
    """Log keys the asked move (with its replies) must produce: the result the step's text states."""
    seat: Seat | None = None
    """The learner's seat at this step (default: the lesson's), e.g. to read the grid from the other side."""


class Lesson(_Data):
    """A game's lesson as its file holds it."""

    game: str
    seat: Seat = 0
    """The learner's seat."""
    options: dict[str, JSON] = Field(default_factory=dict)
    seed: int = 1
    steps: tuple[Step, ...] = Field(min_length=MIN_STEPS, max_length=MAX_STEPS)
    unjudged: tuple[str, ...] = ()
    """Action types a page sends on its own while the learner works (Tic Tac Top's ranking ``draft`` saves):
    the lesson page keeps them to itself instead of trying them as moves."""

    def text_keys(self) -> list[str]:
        """Every catalogue key the lesson's steps use."""
        return [f"{self.game}.lesson.{step.id}.{part}" for step in self.steps for part in ("prompt", "done", "miss")]


def read_lesson(path: Path) -> Lesson:
    """The lesson at ``path``; ``InvalidLesson`` naming the problem if it is not one."""
    try:
        return Lesson.model_validate_json(path.read_bytes())
    except (OSError, ValidationError) as err:
        raise InvalidLesson(f"{path}: {err}") from None


Verdict = Literal["refused", "missed", "done"]


@dataclass(frozen=True)
class Position:
    """A step's position: the state, and whose move it is."""

    state: Any
    to_act: frozenset[Seat]


@dataclass(frozen=True)
class Attempt:
    """What a try did: refused (``reason`` as a game's refusal), missed or done (the states it went
    through, with the events of each move, the learner's first)."""

    verdict: Verdict
    reason: Mapping[str, JSON] | None = None
    played: tuple[tuple[Seat, ActionModel, Any, list[Event]], ...] = ()
    """Each move played: the seat, its action, the state after it and its events."""
    start: Any = None
    """The step's position the try was played from (what ``played`` follows on)."""


class LessonRunner:
    """Plays a lesson's steps on the game's engine."""

    def __init__(self, engine: Engine[Any, Any, Any], lesson: Lesson) -> None:
        if lesson.game != engine.name:
            raise InvalidLesson(f"the lesson is for {lesson.game!r}, not {engine.name!r}")
        self.engine = engine
        self.lesson = lesson

    def step(self, index: int) -> Step:
        if not 0 <= index < len(self.lesson.steps):
            raise InvalidLesson(f"there is no step {index + 1} in this lesson")
        return self.lesson.steps[index]

    def position(self, index: int) -> Position:
        """The position of step ``index`` (0-based); ``InvalidLesson`` if its set-up breaks the rules."""
        step, engine = self.step(index), self.engine
        try:
            options = engine.parse_options(step.options if step.options is not None else self.lesson.options)
            state = engine.new_game(options, step.seed if step.seed is not None else self.lesson.seed)
            for move in step.moves:
                state, _events = engine.apply(state, move.seat, engine.parse_action(move.action))
            if step.patch:
                state = engine.load({**engine.dump(state), **step.patch})
        except EngineError as err:
            raise InvalidLesson(f"step {step.id!r}: its position cannot be set up: {err}") from None
        return Position(state, engine.to_act(state))

    def asked(self, index: int) -> list[ActionModel]:
        """The moves step ``index`` asks for, as typed actions."""
        return [self.engine.parse_action(action) for action in self.step(index).ask]

    def seat(self, index: int) -> Seat:
        """The learner's seat at step ``index``."""
        seat = self.step(index).seat
        return self.lesson.seat if seat is None else seat

    def attempt(self, index: int, raw: object) -> Attempt:
        """The learner's try ``raw`` (an action's JSON) on step ``index``."""
        engine, seat = self.engine, self.seat(index)
        state = self.position(index).state
        try:
            action = engine.parse_action(raw)
            if seat not in engine.to_act(state):
                raise IllegalAction("it is not the learner's turn", "action.not_your_turn")
            after, events = engine.apply(state, seat, action)
        except IllegalAction as err:
            return Attempt("refused", err.reason(), start=state)
        played = [(seat, action, after, events)]
        verdict: Verdict = "done" if action in self.asked(index) else "missed"
        step = self.step(index)
        script = step.replies if verdict == "done" or step.punish is None else step.punish
        for move in script:
            current = played[-1][2]
            if move.seat not in engine.to_act(current):
                continue
            reply = engine.parse_action(move.action)
            try:
                next_state, reply_events = engine.apply(current, move.seat, reply)
            except IllegalAction:
                if verdict == "done":
                    raise InvalidLesson(f"step {step.id!r}: a scripted reply is refused") from None
                continue  # after a miss the script may no longer fit: the miss shows what it did alone
            played.append((move.seat, reply, next_state, reply_events))
        return Attempt(verdict, None, tuple(played), state)

    def log_keys(self, attempt: Attempt) -> list[str]:
        """The log keys of the moves a try played, in order, each followed by the keys of the entries its
        params carry (an automa's reason is such a list: why it played a card is what a step may state)."""
        engine, keys = self.engine, []
        before = attempt.start
        for seat, action, after, events in attempt.played:
            for entry in engine.log_entries(before, seat, action, (after, events)):
                keys += [entry.key, *_nested_keys(entry.params)]
            before = after
        return keys


def _nested_keys(params: Mapping[str, JSON]) -> list[str]:
    """The keys of the log entries (``{"key", "params"}``) listed in an entry's params."""
    keys: list[str] = []
    for value in params.values():
        if isinstance(value, list):
            keys += [item["key"] for item in value if isinstance(item, dict) and isinstance(item.get("key"), str)]
    return keys
