"""The one small API every game engine implements.

Engines are pure: no I/O, no clock, no global randomness. All randomness comes from the seed given to
``new_game`` (use ``random.Random(seed)`` and keep its state inside the game state if more draws happen
later), so ``seed + action log`` replays any game exactly.

Seats are small integers ``0 .. n-1``. ``None`` as a seat means a spectator (public information only).
Views are JSON-compatible ``dict``s: they are the public protocol (docs/protocol.md). Actions are typed
values, each game's ``ActionModel``s: ``apply`` and ``log_entries`` take them, and ``legal_actions``,
``timeout_action`` and bots return them. Their JSON (what a client sends, what the app stores and replays)
exists only at the app's edge: ``Engine.parse_action`` reads it once, ``ActionModel.to_json`` writes it.
States are frozen dataclasses (``FrozenState``) that dump and load through one shared codec.
"""

from __future__ import annotations

import functools
from abc import ABC, abstractmethod
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, fields
from typing import Annotated, Any, ClassVar, Generic, Self, TypeVar, Union, get_args, get_origin

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    Strict,
    TypeAdapter,
    ValidationError,
    model_validator,
)
from pydantic.fields import FieldInfo

JSON = Any
"""A JSON-compatible value: dict / list / str / int / float / bool / None."""

Seat = int


class EngineError(ValueError):
    """Base class of every error an engine raises on bad input."""


class IllegalAction(EngineError):
    """The action is not allowed now. State is untouched.

    ``code`` names the reason (a catalogue key such as ``"tri-tac.cell_taken"``) and ``params`` its facts
    (seats as numbers, cells as ``[row, column]``): the client phrases it in the reader's language.
    ``str(err)`` is an English note for developers and server logs only."""

    def __init__(self, message: str, code: str = "illegal", params: Mapping[str, JSON] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.params: Mapping[str, JSON] = params or {}

    def reason(self) -> dict[str, JSON]:
        """The refusal as the protocol sends it: ``{"key": code, "params": {...}}``."""
        return {"key": self.code, "params": dict(self.params)}


class InvalidState(EngineError):
    """Data that ``Engine.load`` cannot read as a state of that game: a damaged or foreign snapshot."""


class InvalidOptions(EngineError):
    """The game options are out of bounds or inconsistent.

    ``field`` names the first option at fault (None: the options as a whole) and ``problem`` what is wrong
    with it (``not_integer``, ``at_least`` with ``params["min"]``...): the client phrases
    ``reason()`` (``{"key": "options.<problem>", "params": {"game", "field", ...}}``) in the reader's
    language. ``str(err)`` is an English note for developers."""

    def __init__(
        self,
        message: str,
        field: str | None = None,
        problem: str = "invalid",
        params: Mapping[str, JSON] | None = None,
        game: str | None = None,
    ) -> None:
        super().__init__(message)
        self.field = field
        self.problem = problem
        self.params: Mapping[str, JSON] = params or {}
        self.game = game

    def reason(self) -> dict[str, JSON]:
        params: dict[str, JSON] = {"game": self.game, "field": self.field, **self.params}
        return {"key": f"options.{self.problem}", "params": params}


# Pydantic's error types as the problems the pages phrase, with the context values they show.
_PROBLEMS: dict[str, tuple[str, dict[str, str]]] = {
    "int_type": ("not_integer", {}),
    "int_parsing": ("not_integer", {}),
    "int_from_float": ("not_integer", {}),
    "float_type": ("not_number", {}),
    "float_parsing": ("not_number", {}),
    "bool_type": ("not_boolean", {}),
    "bool_parsing": ("not_boolean", {}),
    "string_type": ("not_text", {}),
    "greater_than_equal": ("at_least", {"ge": "min"}),
    "greater_than": ("more_than", {"gt": "min"}),
    "less_than_equal": ("at_most", {"le": "max"}),
    "less_than": ("less_than", {"lt": "max"}),
    "literal_error": ("not_a_choice", {}),
    "enum": ("not_a_choice", {}),
    "extra_forbidden": ("unknown", {}),
    "missing": ("missing", {}),
    "too_long": ("too_many", {"max_length": "max"}),
    "too_short": ("too_few", {"min_length": "min"}),
    "string_too_long": ("text_too_long", {"max_length": "max"}),
    "string_too_short": ("text_too_short", {"min_length": "min"}),
}


def invalid_options(err: ValidationError, game: str | None = None) -> InvalidOptions:
    """The first problem of a validation error as ``InvalidOptions`` (every problem in its message)."""
    errors = err.errors()
    note = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'options'}: {e['msg']}" for e in errors)
    first = errors[0] if errors else None
    if first is None:
        return InvalidOptions(note or "invalid options", game=game)
    loc = first["loc"]
    field = str(loc[0]) if loc else None
    problem, wanted = _PROBLEMS.get(first["type"], ("invalid", {}))
    ctx = first.get("ctx") or {}
    params: dict[str, JSON] = {}
    for name, param in wanted.items():
        value = ctx.get(name)
        if isinstance(value, int | float) and not isinstance(value, bool):
            params[param] = value
    return InvalidOptions(note, field, problem, params, game)


_STRICT = ConfigDict(extra="forbid", frozen=True, strict=True)


class GameOptions(BaseModel):
    """Base of every game's options model: immutable, unknown keys refused, and strict like the messages
    that carry options: no value is coerced (``"5"`` and ``6.0`` are not integers, ``1`` is no boolean)."""

    model_config = _STRICT

    @model_validator(mode="before")
    @classmethod
    def _arrays_fill_tuples(cls, data: Any) -> Any:
        """JSON has no tuples: its arrays fill tuple fields, which strict mode alone would refuse."""
        if not isinstance(data, Mapping):
            return data
        fields = cls.model_fields
        return {
            key: tuple(value) if isinstance(value, list) and key in fields and _is_tuple(fields[key]) else value
            for key, value in data.items()
        }


def _is_tuple(field: FieldInfo) -> bool:
    return get_origin(field.annotation) is tuple


class FrozenState:
    """Base of an engine's immutable state (a frozen dataclass): ``changed`` derives a state with some fields
    new and shares the rest; ``dump`` and ``load`` are the one codec every game's state goes through.

    The codec is pydantic's, driven by the dataclass' own field types: tuples and lists dump as arrays,
    nested dataclasses and options as objects, a ``SortedSet`` as a sorted array. A field that is derived
    from the others is declared ``field(init=False)`` and set in ``__post_init__``: it is left out of the
    dump and computed again on load."""

    def dump(self) -> dict[str, JSON]:
        """Canonical JSON of the whole state (secrets included: for persistence only, never a view)."""
        dumped: dict[str, JSON] = _codec(type(self)).dump_python(self, mode="json")
        return dumped

    @classmethod
    def load(cls, data: Mapping[str, JSON]) -> Self:
        """Inverse of ``dump``; ``InvalidState`` when ``data`` is not a state of this kind."""
        try:
            state: Self = _codec(cls).validate_python(data)
        except ValidationError as err:
            raise InvalidState(f"not a {cls.__name__}: {err}") from None
        return state

    def changed(self, **changes: Any) -> Self:
        """``dataclasses.replace`` without running ``__init__`` again: the strong bots derive states by the
        thousand, and every unchanged field is shared as it is."""
        kind: type = type(self)
        assert changes.keys() <= _field_names(kind), changes.keys() - _field_names(kind)
        new: Self = object.__new__(kind)
        fields = new.__dict__
        fields.update(self.__dict__)
        fields.update(changes)
        return new


_CODECS: dict[type, TypeAdapter[Any]] = {}


def _codec(cls: type) -> TypeAdapter[Any]:
    """The state class' codec, built on first use (pydantic builds a schema from the field types)."""
    codec = _CODECS.get(cls)
    if codec is None:
        codec = _CODECS[cls] = TypeAdapter(cls)
    return codec


T = TypeVar("T")
SortedSet = Annotated[frozenset[T], PlainSerializer(sorted, return_type=list)]
"""A set field that dumps as a sorted array: its dump is the same whatever order the set iterates in."""


@functools.cache
def _field_names(cls: type) -> frozenset[str]:
    return frozenset(f.name for f in fields(cls))


@dataclass(frozen=True)
class SeatInfo:
    """How a seat is presented: its team if the game has teams, and its compass ``direction`` ("north",
    a key the pages phrase) if the game seats by compass; else pages name it by number. ``label`` is the
    engine's own English name ("South", "Player 1"), for its rules and tests: it never reaches a page."""

    label: str
    team: int | None = None
    direction: str | None = None

    def to_json(self, index: int) -> dict[str, JSON]:
        """The seat as pages get it: data they phrase ("Player 2", "Nord"), not the English label."""
        return {"index": index, "team": self.team, "direction": self.direction}


@dataclass(frozen=True)
class Event:
    """Something that happened, for logs and animations.

    ``public`` is what everyone (spectators included) may know. ``private`` maps a seat to extra fields
    only that seat may see (for example the card it drew). ``redact`` merges the two for one viewer.
    """

    kind: str
    public: Mapping[str, JSON] = field(default_factory=dict)
    private: Mapping[Seat, Mapping[str, JSON]] = field(default_factory=dict)

    def redact(self, seat: Seat | None) -> dict[str, JSON]:
        data: dict[str, JSON] = {"kind": self.kind, **self.public}
        if seat is not None and seat in self.private:
            data.update(self.private[seat])
        return data


@dataclass(frozen=True)
class LogEntry:
    """One fact of the game log or a result, as data: a stable catalogue ``key`` (``"tri-tac.placed"``) and
    its ``params``. Never a sentence, never a name: seats are numbers (``{"seat": 1}``) that each reader's
    page turns into names, in its own language (docs/protocol.md, "Log entries")."""

    key: str
    params: Mapping[str, JSON] = field(default_factory=dict)

    def to_json(self) -> dict[str, JSON]:
        return {"key": self.key, "params": dict(self.params)}


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game.

    ``scores`` has one entry per seat. ``winners`` lists the winning seats (every seat of a winning
    team; several seats on a shared win; empty on a draw). ``ranks`` gives each seat's place (0 = first,
    equal places for ties), which is what ratings need for multi-player results.
    """

    scores: list[float]
    winners: list[Seat]
    ranks: list[int]
    summary: LogEntry | None = None
    """The result in a line (final score, how it was won), as a log entry."""

    @property
    def is_draw(self) -> bool:
        return not self.winners

    def to_json(self) -> dict[str, JSON]:
        return {
            "scores": self.scores,
            "winners": self.winners,
            "ranks": self.ranks,
            "summary": _summary_json(self.summary),
        }


def _summary_json(summary: LogEntry | None) -> JSON:
    return None if summary is None else summary.to_json()


GRID_LINES: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),
    (0, 4, 8),
    (2, 4, 6),
)
"""The eight lines of a 3×3 grid, cells numbered 0–8 row by row."""


@dataclass(frozen=True)
class Refusal:
    """How an action with this field malformed (missing, of the wrong kind, out of its fixed range) is
    refused: put it in the field's ``Annotated[...]`` of an ``ActionModel``."""

    code: str
    note: str
    params: Mapping[str, JSON] = field(default_factory=dict)

    def error(self) -> IllegalAction:
        return IllegalAction(self.note, self.code, self.params)


class ActionModel(BaseModel):
    """Base of one kind of a game's actions, strict like the options: ``type`` is a ``Literal`` of its name,
    and every other field is ``Annotated`` with the ``Refusal`` that says what is wrong when it is missing or
    malformed. Checks that depend on the state (the cell is on this board, the card is in this hand) stay
    with the rules. An array is a tuple field marked ``Strict(False)`` with strict items (see ``Pair``): the
    options' way, a validator of the whole model, would cost every action of a bot's search."""

    model_config = _STRICT

    type: str

    def to_json(self) -> dict[str, JSON]:
        """The action as the protocol carries it (tuples as arrays)."""
        return self.model_dump(mode="json")


def one_of(choices: Collection[str], what: str) -> AfterValidator:
    """An ``Annotated`` check that a text field is one of ``choices`` (its ``Refusal`` says what if not)."""

    def check(value: str) -> str:
        if value not in choices:
            raise ValueError(f"{value!r} is not a {what}")
        return value

    return AfterValidator(check)


Pair = Annotated[tuple[Annotated[int, Strict()], Annotated[int, Strict()]], Strict(False)]
"""A JSON array of two integers (a cell's ``[row, column]``) as a tuple; its items are never coerced."""

A = TypeVar("A", bound=ActionModel)
Action = ActionModel
"""Any game's action, where the game is not known (the app's side of the engine's edge)."""


class Actions(Generic[A]):
    """One game's actions: a discriminated union on ``type`` of its ``ActionModel``s, parsed at the engine's
    public entry so that its rules only ever see typed values.

    A malformed action is refused, in this order, as: not a JSON object (``action.not_object``), an unknown
    ``type`` (``action.unknown_type``), fields its kind does not have (``action.unexpected_fields``), with
    ``missing_fields`` fields it lacks (``action.missing_fields``), then the ``Refusal`` of its first malformed
    field in the model's order."""

    def __init__(self, *models: type[A], missing_fields: bool = False) -> None:
        self.kinds: dict[str, type[A]] = {_kind_of(model): model for model in models}
        self.fields: dict[str, frozenset[str]] = {
            kind: frozenset(model.model_fields) - {"type"} for kind, model in self.kinds.items()
        }
        self._refusals: dict[str, dict[str, Refusal]] = {
            kind: {name: _refusal_of(model, name) for name in self.fields[kind]} for kind, model in self.kinds.items()
        }
        self.missing_fields = missing_fields
        union: Any = Union[models] if len(models) > 1 else models[0]  # noqa: UP007 (built at run time)
        self._adapter: TypeAdapter[A] = TypeAdapter(Annotated[union, Field(discriminator="type")])

    def parse(self, raw: object) -> A:
        """``raw`` (the action's JSON) as its typed value, or ``IllegalAction`` saying what is wrong."""
        try:
            return self._adapter.validate_python(raw)
        except ValidationError as err:
            raise self._refusal(raw, err) from None

    def _refusal(self, raw: object, err: ValidationError) -> IllegalAction:
        if not isinstance(raw, Mapping):
            return IllegalAction("an action must be a JSON object", "action.not_object")
        kind = raw.get("type")
        if not isinstance(kind, str) or kind not in self.kinds:
            expected = list(self.kinds)
            return IllegalAction(
                f"unknown action type {kind!r}; expected one of: {', '.join(expected)}",
                "action.unknown_type",
                {"type": kind if isinstance(kind, str) else None, "expected": expected},
            )
        extra = sorted(map(str, set(raw) - {"type"} - self.fields[kind]))
        if extra:
            return IllegalAction(
                f"unexpected field(s) for {kind!r}: {', '.join(extra)}", "action.unexpected_fields", {"fields": extra}
            )
        missing = sorted(self.fields[kind] - set(raw))
        if missing and self.missing_fields:
            return IllegalAction(f"{kind!r} needs {missing}", "action.missing_fields", {"fields": missing})
        refusals = self._refusals[kind]
        for error in err.errors():
            loc = error["loc"]
            if len(loc) > 1 and loc[1] in refusals:
                return refusals[str(loc[1])].error()
        return IllegalAction(f"malformed {kind!r}: {err}")


def _kind_of(model: type[ActionModel]) -> str:
    (kind,) = get_args(model.model_fields["type"].annotation)
    assert isinstance(kind, str), f"{model.__name__}.type must be a Literal of one name"
    return kind


def _refusal_of(model: type[ActionModel], name: str) -> Refusal:
    found = [m for m in model.model_fields[name].metadata if isinstance(m, Refusal)]
    assert found, f"{model.__name__}.{name} needs a Refusal in its Annotated[...]"
    return found[0]


def check_seat(seat: object, count: int) -> int:
    """``seat`` as a seat number of a game with ``count`` seats (booleans are not numbers here)."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < count:
        raise IllegalAction(f"there is no seat {seat!r} in this game", "action.no_seat")
    return seat


def ranks_from_scores(scores: list[float]) -> list[int]:
    """Competition ranking: higher score is better, equal scores share a place."""
    return [sum(1 for other in scores if other > s) for s in scores]


@dataclass(frozen=True)
class Timer:
    """A deadline the rules themselves impose: ``key`` names the step (e.g. ``"turn-17"``)."""

    key: str
    seconds: float


S = TypeVar("S")
OptionsT = TypeVar("OptionsT", bound=GameOptions)


class Engine(ABC, Generic[S, OptionsT, A]):
    """One game's rules. Subclasses are stateless singletons registered in ``engines.registry``.

    ``apply`` never mutates its input state: states are immutable values, and it returns a new one.
    """

    name: ClassVar[str]
    """Registry key, e.g. ``"tri-tac"``."""
    title: ClassVar[str]
    """Display name, e.g. ``"Tri-Tac"``."""
    options_model: ClassVar[type[GameOptions]]
    actions: ClassVar[Actions[Any]]
    """The game's action models: ``parse_action`` reads an action's JSON with it."""
    state_type: ClassVar[type[FrozenState]]
    """The game's state class: ``dump`` and ``load`` go through its codec."""
    host_actions: ClassVar[frozenset[str]] = frozenset()
    """Action types the room's host may trigger for whichever seat must act, even without a seat of their
    own (Tic Tac Top's ``next``: the host paces the reveal from the shared screen)."""

    # ---- options and seats -------------------------------------------------------------------

    def parse_options(self, raw: Mapping[str, JSON] | None) -> OptionsT:
        """Validate raw options (defaults filled in); raise ``InvalidOptions`` with a clear reason."""
        try:
            return self.options_model.model_validate(dict(raw or {}))  # type: ignore[return-value]
        except ValidationError as err:
            raise invalid_options(err, self.name) from None

    @abstractmethod
    def seats(self, options: OptionsT) -> list[SeatInfo]:
        """The seats a game with these options needs (their count is the number of players)."""

    # ---- playing -----------------------------------------------------------------------------

    def parse_action(self, raw: object) -> A:
        """An action's JSON as this game's typed action (``IllegalAction`` when it is malformed): the one
        place where a plain dict becomes an action."""
        action: A = self.actions.parse(raw)
        return action

    @abstractmethod
    def new_game(self, options: OptionsT, seed: int) -> S:
        """A fresh game; everything random is drawn from ``seed``."""

    @abstractmethod
    def to_act(self, state: S) -> frozenset[Seat]:
        """Seats that may act now: several on simultaneous steps, empty when the game is over."""

    @abstractmethod
    def legal_actions(self, state: S, seat: Seat) -> list[A]:
        """Every legal action of ``seat`` now (empty if it may not act).

        Games whose action space is too large to list may return a representative sample and document
        it; ``apply`` is always the authority.
        """

    @abstractmethod
    def apply(self, state: S, seat: Seat, action: A) -> tuple[S, list[Event]]:
        """Apply one action; raise ``IllegalAction`` (leaving ``state`` untouched) if it is not allowed.

        Automatic follow-ups (an automa's play, a deal, a reveal) happen inside the same call and are
        reported as events.
        """

    @abstractmethod
    def view(self, state: S, seat: Seat | None) -> dict[str, JSON]:
        """What ``seat`` may know (``None``: a spectator). Must never contain the seed or hidden cards."""

    def same_view_for_all(self, state: S) -> bool:
        """True when ``view(state, seat)`` is the same for every seat and for spectators (nothing is hidden
        at this step), so the server builds one view instead of one per seat. Must never be True when any
        seat could see something another cannot; False is always safe."""
        return False

    @abstractmethod
    def timeout_action(self, state: S, seat: Seat) -> A:
        """The default action applied for ``seat`` when its time runs out (each game's page in docs/games/)."""

    def timer(self, state: S) -> Timer | None:
        """The clock the game's own rules put on the current step (e.g. Tri-Tac's Time Challenge, Tic Tac
        Top's 5-second countdown), or None.

        The server keeps one deadline per ``Timer.key``: it starts ``seconds`` from when a key first appears
        and is not reset by actions that keep the same key (so a countdown is not restarted by other
        players' moves). When it passes, ``timeout_action`` is applied for every seat in ``to_act``.
        """
        return None

    def timer_paces(self, state: S) -> bool:
        """True when the rules' timer at this step paces a show (Tic Tac Top's reveal) rather than limits a
        player: its expiry is then not logged as "time ran out"."""
        return False

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """The result once the game is over, else None."""

    # ---- serialisation -----------------------------------------------------------------------

    def dump(self, state: S) -> dict[str, JSON]:
        """Canonical JSON of the full state (secrets included: for persistence only, never a view)."""
        assert isinstance(state, FrozenState), type(state)
        return state.dump()

    def load(self, data: Mapping[str, JSON]) -> S:
        """Inverse of ``dump``: ``dump(load(dump(s))) == dump(s)``; ``InvalidState`` if ``data`` is not one."""
        try:
            return self.read_state(data)
        except InvalidState:
            raise
        except (KeyError, IndexError, TypeError, ValueError) as err:
            raise InvalidState(f"not a {self.title} state: {err!r}") from None

    def read_state(self, data: Mapping[str, JSON]) -> S:
        """``load`` without its error handling: any KeyError, IndexError, TypeError or ValueError raised
        here (a key missing, a value of the wrong kind) becomes ``InvalidState``."""
        state: S = self.state_type.load(data)  # type: ignore[assignment]
        return state

    # ---- helpers shared by every game --------------------------------------------------------

    @abstractmethod
    def log_entries(self, state: S, seat: Seat, action: A, result: tuple[S, list[Event]]) -> list[LogEntry]:
        """The public log entries of an action, shown to EVERYONE (spectators too): only public facts (a
        committed card is "South committed a card"). ``state`` is the state before the action, ``result``
        what ``apply`` returned for it: entries are derived from its events, so that a fact is told once.
        Keys and their params are documented in docs/games/<game>.md; never a sentence, never a name."""

    def result_entries(self, state: S) -> list[LogEntry]:
        """The result's summary, for the log's last entry once the game is over (else nothing)."""
        outcome = self.outcome(state)
        return [outcome.summary] if outcome is not None and outcome.summary is not None else []

    def seats_of(self, state: S) -> list[SeatInfo]:
        return self.seats(self.options_of(state))

    @abstractmethod
    def options_of(self, state: S) -> OptionsT:
        """The options the game was created with."""


class Bot(ABC, Generic[S]):
    """A server-driven player: picks an action for ``seat`` from the engine's view of the state.

    Bots see only ``engine.view(state, seat)`` semantics: they must not use hidden information. They get
    the full state for convenience of computing legal actions, and a seeded ``random.Random``.
    """

    @abstractmethod
    def choose(self, state: S, seat: Seat, rng: Any) -> Action:
        """An action for ``seat``; must be legal."""

    def delay(self, state: S, seat: Seat) -> float | None:
        """Seconds a person would pause before this move (None: the server's default human-like pause)."""
        return None

    def moves_left(self, state: S, seat: Seat) -> int | None:
        """How many more moves ``seat`` means to make before its time on this step runs out (None: no
        hurry). When the step has a deadline, the server fits that many pauses into the time left."""
        return None
