"""Tricky Tactics' state: the frozen game value (secrets included) and what can be read straight off it.

Players are numbered ``0 .. n-1``, the automa included (``State.automa`` is its number, or None); in views,
events and the dump's records a *player id* is a seat number for a human and ``"automa"`` for the automa.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import SerializerFunctionWrapHandler, TypeAdapter, WrapSerializer

from engines.base import JSON, FrozenState, LogEntry
from engines.tricky_tactics.cards import LOC_RANKS, LOCATIONS, Cards, card_suit
from engines.tricky_tactics.options import TrickyTacticsOptions

PlayerId = int | str
Phase = Literal["play", "action", "over"]
ActionKind = Literal["add", "remove", "skip"]
Counts = tuple[int, ...]  # one number per player
Played = tuple[int, str]  # (player, card)
Reason = tuple[LogEntry, ...]

AUTOMA = "automa"
"""The automa's player id."""


def with_delta(values: Counts, i: int, delta: int) -> Counts:
    """``values`` with entry ``i`` changed by ``delta``."""
    return (*values[:i], values[i] + delta, *values[i + 1 :])


def controller(counts: Sequence[int]) -> int | None:
    """Who controls a Location holding ``counts`` cubes per player: the one with most, if no one ties."""
    top = max(counts)
    if top == 0 or counts.count(top) > 1:
        return None
    return counts.index(top)


def reason_json(reason: Reason) -> list[JSON]:
    """An automa's reason (or a skipped Action's) as views and events carry it."""
    return [entry.to_json() for entry in reason]


@dataclass(frozen=True)
class TakenAction:
    """What a trick's winner did with its Action, as the log and the trick records name it."""

    player: PlayerId
    type: ActionKind
    location: str | None = None
    owner: PlayerId | None = None
    reason: Reason | None = None  # the automa's, or a skip's

    def to_json(self) -> dict[str, JSON]:
        """As the state dumps it, for the events and views that show it."""
        dumped: dict[str, JSON] = _TAKEN.dump_python(self, mode="json")
        return dumped


def _without_nones(value: TakenAction, handler: SerializerFunctionWrapHandler) -> dict[str, JSON]:
    return {key: item for key, item in handler(value).items() if item is not None}


Taken = Annotated[TakenAction, WrapSerializer(_without_nones)]
"""A ``TakenAction`` in JSON: the parts an Action does not have (a skip's Location) are left out."""
_TAKEN: TypeAdapter[TakenAction] = TypeAdapter(Taken)


@dataclass(frozen=True)
class Trick:
    """A finished trick: who led, the cards in play order, who won and the Action it brought."""

    leader: int
    cards: tuple[Played, ...]
    winner: int
    action: Taken | None


@dataclass(frozen=True)
class Owed:
    """The Action a trick's winner owes: in the Area of the suit led."""

    player: int
    suit: str


@dataclass(frozen=True)
class AutomaPlay:
    """The automa's last play: its Reveal Row as it chose, the card and why."""

    row: Cards
    card: str
    reason: Reason


@dataclass(frozen=True)
class LocationScore:
    location: str
    cubes: Counts
    controller: PlayerId | None
    points: int


@dataclass(frozen=True)
class AreaBonus:
    suit: str
    player: PlayerId
    points: int


@dataclass(frozen=True)
class Scoring:
    """A round's scoring, Location by Location."""

    round: int
    locations: tuple[LocationScore, ...]
    area_bonuses: tuple[AreaBonus, ...]
    points: Counts
    controlled: Counts
    totals: Counts

    def to_json(self) -> dict[str, JSON]:
        """As the state dumps it, for the round's event and the views."""
        dumped: dict[str, JSON] = _SCORING.dump_python(self, mode="json")
        return dumped


_SCORING: TypeAdapter[Scoring] = TypeAdapter(Scoring)


@dataclass(frozen=True)
class State(FrozenState):
    """The full game state (secrets included): an immutable value; each step of the rules derives a new state
    that shares every part it leaves alone. ``map`` is never changed in place: a move that changes cubes
    builds a new one."""

    options: TrickyTacticsOptions
    n: int
    automa: int | None
    deal_seeds: tuple[int, ...]
    round: int
    dealer: int
    leader: int
    turn: int | None
    phase: Phase
    hands: tuple[Cards, ...]
    automa_deck: Cards  # face down, top first
    automa_row: Cards
    automa_last: AutomaPlay | None
    set_aside: Cards
    trick: tuple[Played, ...]  # in play order
    tricks: tuple[Trick, ...]  # this round's finished tricks
    last_trick: Trick | None
    pending: Owed | None  # set while ``phase`` is "action"
    map: Mapping[str, Counts]  # cubes per Location, per player
    supply: Counts
    scores: Counts
    round_points: tuple[Counts, ...]
    last_scoring: Scoring | None
    controlled: Counts
    secret_discards: Cards

    # ---- deriving ------------------------------------------------------------------------------

    def with_hand(self, p: int, hand: Cards) -> State:
        return self.changed(hands=(*self.hands[:p], hand, *self.hands[p + 1 :]))

    def with_cubes(self, loc: str, p: int, delta: int) -> State:
        """``delta`` of player ``p``'s cubes moved onto ``loc`` from their supply (off it, if negative)."""
        board = dict(self.map)
        board[loc] = with_delta(board[loc], p, delta)
        return self.changed(map=board, supply=with_delta(self.supply, p, -delta))

    # ---- reading -------------------------------------------------------------------------------

    @property
    def owed(self) -> Owed:
        """The Action owed now (``pending``, which is set while ``phase`` is "action")."""
        assert self.pending is not None
        return self.pending

    def pid(self, p: int) -> PlayerId:
        """Player ``p``'s id: its seat, or ``"automa"``."""
        return AUTOMA if p == self.automa else p

    def hand_size(self, p: int) -> int:
        if p == self.automa:
            return len(self.automa_deck) + len(self.automa_row)
        return len(self.hands[p])

    @property
    def tricks_per_round(self) -> int:
        return 10 if self.n == 4 else 12

    @property
    def values(self) -> dict[str, int]:
        """Points for controlling a Location, by its rank."""
        o = self.options
        return {"K": o.value_k, "Q": o.value_q, "J": o.value_j}

    @property
    def bonus(self) -> int:
        """Points for controlling a whole Area (0: no bonus)."""
        o = self.options
        return o.area_bonus_points if o.area_bonus else 0

    @property
    def led_suit(self) -> str | None:
        return card_suit(self.trick[0][1]) if self.trick else None

    def playable(self, p: int) -> list[str]:
        """The cards of ``p``'s hand it may play to the trick: of the suit led if it holds any."""
        hand = self.hands[p]
        led = self.led_suit
        if led is not None:
            follow = [c for c in hand if card_suit(c) == led]
            if follow:
                return follow
        return list(hand)

    def adds(self, p: int, suit: str) -> list[str]:
        """The Locations where ``p`` may Add a cube in ``suit``'s Area."""
        if self.supply[p] <= 0:
            return []
        return [f"{lr}{suit}" for lr in LOC_RANKS]

    def removes(self, p: int, suit: str) -> list[tuple[str, int]]:
        """The (Location, owner) cubes ``p`` may Remove in ``suit``'s Area: any other player's."""
        out: list[tuple[str, int]] = []
        for lr in LOC_RANKS:
            loc = f"{lr}{suit}"
            for q, count in enumerate(self.map[loc]):
                if q != p and count > 0:
                    out.append((loc, q))
        return out

    def ranking(self, p: int) -> tuple[int, int, int]:
        """What places ``p``: points, then Locations controlled at the last scoring, then cubes on the map."""
        on_map = sum(self.map[loc][p] for loc in LOCATIONS)
        return (self.scores[p], self.controlled[p], on_map)

    def standings(self) -> list[dict[str, JSON]]:
        keys = [self.ranking(p) for p in range(self.n)]
        return [
            {
                "player": self.pid(p),
                "points": key[0],
                "controlled": key[1],
                "on_map": key[2],
                "place": sum(1 for k in keys if k > key),
            }
            for p, key in enumerate(keys)
        ]
