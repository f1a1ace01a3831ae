"""Tricky Tactics: win tricks to Add or Remove cubes on a shared map of suit Areas, then score control.

The 2-player automa follows its published rule text; the base game is a reconstruction (the original base
rules are not available). docs/games/tricky-tactics.md states both as the code follows them.

Players and seats
    ``mode="automa"`` (default): two human seats (0, 1) and the automa, which sits third in clockwise order
    (0 → 1 → automa → 0). ``mode="3p"`` / ``"4p"``: 3 or 4 human seats. Seats are humans only: the automa is
    driven inside the engine (its plays and Actions happen inside ``apply`` and are reported as events; a play
    it makes inside ``new_game`` shows in the view's trick with its one-line reason).

    In views and events a *player id* is a seat number for a human and the string ``"automa"`` for the automa.
    Lists "per player" (cube counts, supplies, points) follow the order of the view's ``players`` list: the
    human seats, then the automa.

Outcome
    ``scores`` has one entry per human seat. The automa is a full player for placing: ``ranks`` are places
    among *all* players, automa included, after the tie-breaks (points, then Locations controlled at the last
    scoring, then cubes on the map, else shared). ``winners`` are the human seats in first place; if the
    automa alone is first, ``winners`` is empty (the summary says the automa won). The automa's score is in
    the view and the summary.

Who sees what
    Everyone: cards played (the trick in progress and this round's finished tricks), the map, supplies,
    scores, hand sizes, the automa's public Reveal Row, the last scoring. A seat also sees its own hand and,
    on its turn, its playable cards. Nobody sees another hand, the automa's unrevealed cards or the 4 cards
    set aside in a 3-human game; those are discarded unseen at round end.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Annotated, Any, Literal

from pydantic import Field

from engines.base import (
    JSON,
    Action,
    ActionModel,
    Actions,
    Bot,
    Engine,
    Event,
    FrozenState,
    GameOptions,
    IllegalAction,
    InvalidState,
    LogEntry,
    Outcome,
    Refusal,
    Seat,
    SeatInfo,
    check_seat,
    one_of,
)

PlayerId = int | str
Phase = Literal["play", "action", "over"]
Cards = tuple[str, ...]
Counts = tuple[int, ...]  # one number per player
Played = tuple[int, str]  # (player, card)
Reason = tuple[LogEntry, ...]

SUITS = ("S", "H", "D", "C")
RANKS = ("A", "10", "9", "8", "7", "6", "5", "4", "3", "2")
RANK_VALUE = {r: 14 if r == "A" else int(r) for r in RANKS}
SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
LOC_RANKS = ("K", "Q", "J")
LOCATIONS = tuple(f"{lr}{s}" for s in SUITS for lr in LOC_RANKS)
DECK = tuple(f"{r}{s}" for s in SUITS for r in RANKS)
AUTOMA = "automa"


# ---- cards ---------------------------------------------------------------------------------------


def card_suit(card: str) -> str:
    return card[-1]


def card_rank(card: str) -> int:
    return RANK_VALUE[card[:-1]]


def sort_hand(cards: Iterable[str]) -> Cards:
    """By suit (♠ ♥ ♦ ♣), high to low within a suit."""
    return tuple(sorted(cards, key=lambda c: (SUITS.index(card_suit(c)), -card_rank(c))))


def without(cards: Cards, card: str) -> Cards:
    """``cards`` less the first copy of ``card``."""
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def _with(values: Counts, i: int, delta: int) -> Counts:
    """``values`` with entry ``i`` changed by ``delta``."""
    return (*values[:i], values[i] + delta, *values[i + 1 :])


# ---- options -------------------------------------------------------------------------------------


_LOCATION = Annotated[
    str, one_of(LOCATIONS, "Location"), Refusal("tricky-tactics.error.bad_location", "not a Location")
]


class PlayCard(ActionModel):
    type: Literal["play"]
    card: Annotated[str, one_of(DECK, "card"), Refusal("tricky-tactics.error.bad_card", "not a card")]


class Add(ActionModel):
    type: Literal["add"]
    location: _LOCATION


class Remove(ActionModel):
    type: Literal["remove"]
    location: _LOCATION
    owner: Annotated[
        int | str, Refusal("tricky-tactics.error.bad_owner", f'"owner" must be a seat number or "{AUTOMA}"')
    ]


TrickyTacticsAction = PlayCard | Add | Remove
ACTIONS = Actions[TrickyTacticsAction](PlayCard, Add, Remove)


class TrickyTacticsOptions(GameOptions):
    mode: Literal["automa", "3p", "4p"] = Field(
        "automa", description="automa: 2 humans + the automa; 3p: 3 humans; 4p: 4 humans"
    )
    rounds: int = Field(3, ge=1, le=10, description="rounds to play")
    cubes: int = Field(10, ge=1, le=40, description="cubes per player")
    value_k: int = Field(3, ge=0, le=20, description="points for controlling a K Location")
    value_q: int = Field(2, ge=0, le=20, description="points for controlling a Q Location")
    value_j: int = Field(1, ge=0, le=20, description="points for controlling a J Location")
    area_bonus: bool = Field(True, description="bonus for controlling all three Locations of a suit")
    area_bonus_points: int = Field(2, ge=0, le=20, description="size of the area bonus")


# ---- state ---------------------------------------------------------------------------------------


def _reason_json(reason: Reason) -> list[JSON]:
    return [entry.to_json() for entry in reason]


def _reason_of(data: Any) -> Reason:
    return tuple(LogEntry(str(entry["key"]), dict(entry["params"])) for entry in data)


@dataclass(frozen=True)
class TakenAction:
    """What a trick's winner did with its Action, as the log and the trick records name it."""

    player: PlayerId
    kind: Literal["add", "remove", "skip"]
    location: str | None = None
    owner: PlayerId | None = None
    reason: Reason | None = None  # the automa's, or a skip's

    def to_json(self) -> dict[str, JSON]:
        entry: dict[str, JSON] = {"player": self.player, "type": self.kind}
        if self.location is not None:
            entry["location"] = self.location
        if self.owner is not None:
            entry["owner"] = self.owner
        if self.reason is not None:
            entry["reason"] = _reason_json(self.reason)
        return entry

    @classmethod
    def from_json(cls, data: Any) -> TakenAction:
        reason = data.get("reason")
        return cls(
            player=data["player"],
            kind=data["type"],
            location=data.get("location"),
            owner=data.get("owner"),
            reason=None if reason is None else _reason_of(reason),
        )


@dataclass(frozen=True)
class Trick:
    """A finished trick: who led, the cards in play order, who won and the Action it brought."""

    leader: int
    cards: tuple[Played, ...]
    winner: int
    action: TakenAction | None

    def to_json(self) -> dict[str, JSON]:
        return {
            "leader": self.leader,
            "cards": [[p, c] for p, c in self.cards],
            "winner": self.winner,
            "action": None if self.action is None else self.action.to_json(),
        }

    @classmethod
    def from_json(cls, data: Any) -> Trick:
        action = data["action"]
        return cls(
            leader=int(data["leader"]),
            cards=_played_of(data["cards"]),
            winner=int(data["winner"]),
            action=None if action is None else TakenAction.from_json(action),
        )


@dataclass(frozen=True)
class Owed:
    """The Action a trick's winner owes: in the Area of the suit led."""

    player: int
    suit: str

    def to_json(self) -> dict[str, JSON]:
        return {"player": self.player, "suit": self.suit}


@dataclass(frozen=True)
class AutomaPlay:
    """The automa's last play: its Reveal Row as it chose, the card and why."""

    row: Cards
    card: str
    reason: Reason

    def to_json(self) -> dict[str, JSON]:
        return {"row": list(self.row), "card": self.card, "reason": _reason_json(self.reason)}


@dataclass(frozen=True)
class LocationScore:
    location: str
    cubes: Counts
    controller: PlayerId | None
    points: int

    def to_json(self) -> dict[str, JSON]:
        return {
            "location": self.location,
            "cubes": list(self.cubes),
            "controller": self.controller,
            "points": self.points,
        }


@dataclass(frozen=True)
class AreaBonus:
    suit: str
    player: PlayerId
    points: int

    def to_json(self) -> dict[str, JSON]:
        return {"suit": self.suit, "player": self.player, "points": self.points}


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
        return {
            "round": self.round,
            "locations": [loc.to_json() for loc in self.locations],
            "area_bonuses": [area.to_json() for area in self.area_bonuses],
            "points": list(self.points),
            "controlled": list(self.controlled),
            "totals": list(self.totals),
        }

    @classmethod
    def from_json(cls, data: Any) -> Scoring:
        return cls(
            round=int(data["round"]),
            locations=tuple(
                LocationScore(str(d["location"]), _counts(d["cubes"]), d["controller"], int(d["points"]))
                for d in data["locations"]
            ),
            area_bonuses=tuple(AreaBonus(str(d["suit"]), d["player"], int(d["points"])) for d in data["area_bonuses"]),
            points=_counts(data["points"]),
            controlled=_counts(data["controlled"]),
            totals=_counts(data["totals"]),
        )


def _counts(data: Any) -> Counts:
    return tuple(int(v) for v in data)


def _cards(data: Any) -> Cards:
    return tuple(str(c) for c in data)


def _played_of(data: Any) -> tuple[Played, ...]:
    return tuple((int(p), str(c)) for p, c in data)


@dataclass(frozen=True)
class State(FrozenState):
    """The full game state (secrets included): an immutable value; each step of the rules derives a new state
    that shares every part it leaves alone. ``dump`` writes the fields under these names. Players are
    numbered ``0 .. n-1``, the automa included (``automa`` is its number, or None). ``map`` is never changed
    in place: a move that changes cubes builds a new one."""

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

    @property
    def owed(self) -> Owed:
        """The Action owed now (``pending``, which is set while ``phase`` is "action")."""
        assert self.pending is not None
        return self.pending

    def with_hand(self, p: int, hand: Cards) -> State:
        return self.changed(hands=(*self.hands[:p], hand, *self.hands[p + 1 :]))

    def with_cubes(self, loc: str, p: int, delta: int) -> State:
        """``delta`` of player ``p``'s cubes moved onto ``loc`` from their supply (off it, if negative)."""
        board = dict(self.map)
        board[loc] = _with(board[loc], p, delta)
        return self.changed(map=board, supply=_with(self.supply, p, -delta))

    def to_json(self) -> dict[str, JSON]:
        last = self.automa_last
        return {
            "options": self.options.model_dump(),
            "n": self.n,
            "automa": self.automa,
            "deal_seeds": list(self.deal_seeds),
            "round": self.round,
            "dealer": self.dealer,
            "leader": self.leader,
            "turn": self.turn,
            "phase": self.phase,
            "hands": [list(hand) for hand in self.hands],
            "automa_deck": list(self.automa_deck),
            "automa_row": list(self.automa_row),
            "automa_last": None if last is None else last.to_json(),
            "set_aside": list(self.set_aside),
            "trick": [[p, c] for p, c in self.trick],
            "tricks": [t.to_json() for t in self.tricks],
            "last_trick": None if self.last_trick is None else self.last_trick.to_json(),
            "pending": None if self.pending is None else self.pending.to_json(),
            "map": {loc: list(counts) for loc, counts in self.map.items()},
            "supply": list(self.supply),
            "scores": list(self.scores),
            "round_points": [list(points) for points in self.round_points],
            "last_scoring": None if self.last_scoring is None else self.last_scoring.to_json(),
            "controlled": list(self.controlled),
            "secret_discards": list(self.secret_discards),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> State:
        missing = _FIELDS - set(data)
        if missing:
            raise InvalidState(f"not a Tricky Tactics state: missing {sorted(missing)}")
        d: Any = data
        last, last_trick, pending, scoring = d["automa_last"], d["last_trick"], d["pending"], d["last_scoring"]
        return cls(
            options=TrickyTacticsOptions.model_validate(d["options"]),
            n=int(d["n"]),
            automa=None if d["automa"] is None else int(d["automa"]),
            deal_seeds=tuple(int(s) for s in d["deal_seeds"]),
            round=int(d["round"]),
            dealer=int(d["dealer"]),
            leader=int(d["leader"]),
            turn=None if d["turn"] is None else int(d["turn"]),
            phase=d["phase"],
            hands=tuple(_cards(hand) for hand in d["hands"]),
            automa_deck=_cards(d["automa_deck"]),
            automa_row=_cards(d["automa_row"]),
            automa_last=None
            if last is None
            else AutomaPlay(_cards(last["row"]), str(last["card"]), _reason_of(last["reason"])),
            set_aside=_cards(d["set_aside"]),
            trick=_played_of(d["trick"]),
            tricks=tuple(Trick.from_json(t) for t in d["tricks"]),
            last_trick=None if last_trick is None else Trick.from_json(last_trick),
            pending=None if pending is None else Owed(int(pending["player"]), str(pending["suit"])),
            map={str(loc): _counts(counts) for loc, counts in d["map"].items()},
            supply=_counts(d["supply"]),
            scores=_counts(d["scores"]),
            round_points=tuple(_counts(points) for points in d["round_points"]),
            last_scoring=None if scoring is None else Scoring.from_json(scoring),
            controlled=_counts(d["controlled"]),
            secret_discards=_cards(d["secret_discards"]),
        )


_FIELDS = frozenset(f.name for f in fields(State))


# ---- the engine ----------------------------------------------------------------------------------


class TrickyTactics(Engine[State, TrickyTacticsOptions, TrickyTacticsAction]):
    name = "tricky-tactics"
    actions = ACTIONS
    state_type = State
    title = "Tricky Tactics"
    options_model = TrickyTacticsOptions

    # ---- options and seats -------------------------------------------------------------------

    def seats(self, options: TrickyTacticsOptions) -> list[SeatInfo]:
        humans = {"automa": 2, "3p": 3, "4p": 4}[options.mode]
        return [SeatInfo(label=f"Player {i + 1}") for i in range(humans)]

    def options_of(self, state: State) -> TrickyTacticsOptions:
        return state.options

    # ---- setup -------------------------------------------------------------------------------

    def new_game(self, options: TrickyTacticsOptions, seed: int) -> State:
        rng = random.Random(seed)
        humans = len(self.seats(options))
        automa = humans if options.mode == "automa" else None
        n = humans + (1 if automa is not None else 0)
        st = State(
            options=options,
            n=n,
            automa=automa,
            deal_seeds=tuple(rng.getrandbits(64) for _ in range(options.rounds)),
            round=0,
            dealer=rng.randrange(n),
            leader=0,
            turn=None,
            phase="play",
            hands=((),) * n,
            automa_deck=(),
            automa_row=(),
            automa_last=None,
            set_aside=(),
            trick=(),
            tricks=(),
            last_trick=None,
            pending=None,
            map={loc: (0,) * n for loc in LOCATIONS},
            supply=(options.cubes,) * n,
            scores=(0,) * n,
            round_points=(),
            last_scoring=None,
            controlled=(0,) * n,
            secret_discards=(),
        )
        events: list[Event] = []
        st = self._start_round(st, events, first=True)
        return self._run(st, events)

    def _start_round(self, st: State, events: list[Event], first: bool = False) -> State:
        n: int = st.n
        dealer = st.dealer if first else (st.dealer + 1) % n
        number = st.round + 1
        deck = list(DECK)
        random.Random(st.deal_seeds[number - 1]).shuffle(deck)
        automa = st.automa
        size = 10 if n == 4 and automa is None else 12
        hands: list[Cards] = [()] * n
        for p in range(n):
            if p != automa:
                hands[p] = sort_hand(deck[:size])
                deck = deck[size:]
        leader = (dealer + 1) % n
        st = st.changed(
            dealer=dealer,
            round=number,
            automa_deck=tuple(deck) if automa is not None else (),  # its 12 plus the 4: 16 face down, top first
            automa_row=(),
            automa_last=None,
            set_aside=tuple(deck) if automa is None and n == 3 else (),
            hands=tuple(hands),
            trick=(),
            tricks=(),
            last_trick=None,  # last round's cards are back in hands: history lives in the events
            pending=None,
            phase="play",
            leader=leader,
            turn=leader,
        )
        events.append(
            Event(
                "deal",
                public={
                    "round": number,
                    "dealer": self._pid(st, dealer),
                    "leader": self._pid(st, leader),
                    "hand_sizes": [self._hand_size(st, p) for p in range(n)],
                },
                private={p: {"hand": list(hands[p])} for p in range(n) if p != automa},
            )
        )
        return st

    # ---- helpers -----------------------------------------------------------------------------

    def _pid(self, st: State, p: int) -> PlayerId:
        return AUTOMA if p == st.automa else p

    def _hand_size(self, st: State, p: int) -> int:
        if p == st.automa:
            return len(st.automa_deck) + len(st.automa_row)
        return len(st.hands[p])

    def _tricks_per_round(self, st: State) -> int:
        return 10 if st.n == 4 else 12

    def _values(self, st: State) -> dict[str, int]:
        o = st.options
        return {"K": o.value_k, "Q": o.value_q, "J": o.value_j}

    def _bonus(self, st: State) -> int:
        o = st.options
        return o.area_bonus_points if o.area_bonus else 0

    def _led_suit(self, st: State) -> str | None:
        return card_suit(st.trick[0][1]) if st.trick else None

    def _playable(self, st: State, p: int) -> list[str]:
        hand = st.hands[p]
        led = self._led_suit(st)
        if led is not None:
            follow = [c for c in hand if card_suit(c) == led]
            if follow:
                return follow
        return list(hand)

    def _adds(self, st: State, p: int, suit: str) -> list[str]:
        if st.supply[p] <= 0:
            return []
        return [f"{lr}{suit}" for lr in LOC_RANKS]

    def _removes(self, st: State, p: int, suit: str) -> list[tuple[str, int]]:
        out: list[tuple[str, int]] = []
        for lr in LOC_RANKS:
            loc = f"{lr}{suit}"
            for q, count in enumerate(st.map[loc]):
                if q != p and count > 0:
                    out.append((loc, q))
        return out

    def _controller(self, counts: Sequence[int]) -> int | None:
        top = max(counts)
        if top == 0 or counts.count(top) > 1:
            return None
        return counts.index(top)

    def _player_from_json(self, st: State, value: Any) -> int | None:
        if value == AUTOMA and st.automa is not None:
            return int(st.automa)
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < st.n:
            if value == st.automa:
                return None
            return value
        return None

    # ---- the automatic flow ------------------------------------------------------------------

    def _run(self, st: State, events: list[Event]) -> State:
        """Resolve all that needs no human decision: automa plays and Actions, tricks, skips, rounds."""
        while True:
            if st.phase == "play":
                if len(st.trick) == st.n:
                    st = self._resolve_trick(st, events)
                    continue
                if st.turn == st.automa:
                    st = self._automa_play(st, events)
                    continue
                return st
            if st.phase == "action":
                w = st.owed.player
                suit = st.owed.suit
                if w == st.automa:
                    st = self._after_action(self._automa_action(st, events), events)
                    continue
                if not self._adds(st, w, suit) and not self._removes(st, w, suit):
                    st = self._record_action(st, events, w, "skip", None, None, _reason("skip", suit=suit))
                    st = self._after_action(st, events)
                    continue
                return st
            return st

    def _resolve_trick(self, st: State, events: list[Event]) -> State:
        trick = st.trick
        led = card_suit(trick[0][1])
        winner, card = max(((p, c) for p, c in trick if card_suit(c) == led), key=lambda pc: card_rank(pc[1]))
        st = st.changed(
            tricks=(*st.tricks, Trick(leader=trick[0][0], cards=trick, winner=winner, action=None)),
            trick=(),
            leader=winner,
            turn=None,
            phase="action",
            pending=Owed(winner, led),
        )
        events.append(
            Event(
                "trick",
                public={
                    "winner": self._pid(st, winner),
                    "card": card,
                    "led": led,
                    "cards": [{"player": self._pid(st, p), "card": c} for p, c in trick],
                    "number": len(st.tricks),
                },
            )
        )
        return st

    def _record_action(
        self,
        st: State,
        events: list[Event],
        p: int,
        kind: Literal["add", "remove", "skip"],
        loc: str | None,
        owner: int | None,
        reason: Reason | None,
    ) -> State:
        taken = TakenAction(
            player=self._pid(st, p),
            kind=kind,
            location=loc,
            owner=None if owner is None else self._pid(st, owner),
            reason=reason,
        )
        events.append(Event("action", public=taken.to_json()))
        return st.changed(tricks=(*st.tricks[:-1], replace(st.tricks[-1], action=taken)))

    def _after_action(self, st: State, events: list[Event]) -> State:
        st = st.changed(pending=None, last_trick=st.tricks[-1])
        if not any(st.hands):  # every human hand is empty (the automa keeps its unplayed cards)
            return self._end_round(st, events)
        return st.changed(phase="play", turn=st.leader)

    # ---- the automa --------------------------------------------------------------------------

    def _automa_play(self, st: State, events: list[Event]) -> State:
        a = st.automa
        assert a is not None
        take = max(0, 2 - len(st.automa_row))
        revealed = st.automa_deck[:take]
        shown = st.automa_row + revealed
        if revealed:
            events.append(Event("reveal", public={"player": AUTOMA, "cards": list(revealed), "row": list(shown)}))
        card, reason = _automa_card(shown, self._led_suit(st))
        st = st.changed(
            automa_deck=st.automa_deck[take:],
            automa_row=without(shown, card),  # the unplayed card slides Left and stays public
            automa_last=AutomaPlay(shown, card, reason),
            trick=(*st.trick, (a, card)),
            turn=(a + 1) % st.n,
        )
        public: dict[str, JSON] = {"player": AUTOMA, "card": card, "reason": _reason_json(reason), "row": list(shown)}
        events.append(Event("play", public=public))
        return st

    def _automa_action(self, st: State, events: list[Event]) -> State:
        a = st.automa
        assert a is not None
        kind, loc, owner, reason = _automa_action(st.map, st.supply[a], a, st.n, st.owed.suit)
        if kind == "add":
            assert loc is not None
            st = st.with_cubes(loc, a, 1)
        elif kind == "remove":
            assert loc is not None and owner is not None
            st = st.with_cubes(loc, owner, -1)
        return self._record_action(st, events, a, kind, loc, owner, reason)

    # ---- scoring -----------------------------------------------------------------------------

    def _end_round(self, st: State, events: list[Event]) -> State:
        n: int = st.n
        values = self._values(st)
        bonus = self._bonus(st)
        points = [0] * n
        controlled = [0] * n
        locs: list[LocationScore] = []
        areas: list[AreaBonus] = []
        for suit in SUITS:
            owners: list[int | None] = []
            for lr in LOC_RANKS:
                loc = f"{lr}{suit}"
                counts = st.map[loc]
                ctl = self._controller(counts)
                owners.append(ctl)
                pts = values[lr] if ctl is not None else 0
                if ctl is not None:
                    points[ctl] += pts
                    controlled[ctl] += 1
                locs.append(LocationScore(loc, counts, None if ctl is None else self._pid(st, ctl), pts))
            first = owners[0]
            if bonus and first is not None and all(o == first for o in owners):
                points[first] += bonus
                areas.append(AreaBonus(suit, self._pid(st, first), bonus))
        scores = tuple(s + pts for s, pts in zip(st.scores, points, strict=True))
        scoring = Scoring(st.round, tuple(locs), tuple(areas), tuple(points), tuple(controlled), scores)
        events.append(Event("round_scored", public=scoring.to_json()))
        # Unrevealed automa cards and the set-aside cards are discarded unseen; the carryover is public.
        hidden = st.set_aside + st.automa_deck
        discard: dict[str, JSON] = {"round": st.round, "discarded_unseen": len(hidden)}
        if st.automa_row:
            discard["carryover_discarded"] = list(st.automa_row)
        events.append(Event("round_end", public=discard))
        st = st.changed(
            scores=scores,
            round_points=(*st.round_points, scoring.points),
            controlled=scoring.controlled,
            last_scoring=scoring,
            secret_discards=hidden,
            set_aside=(),
            automa_deck=(),
            automa_row=(),
            trick=(),
        )
        if st.round >= st.options.rounds:
            st = st.changed(phase="over", turn=None)
            result = self.outcome(st)
            assert result is not None
            events.append(Event("game_over", public={**result.to_json(), "standings": self._standings(st)}))
            return st
        return self._start_round(st, events)

    def _key(self, st: State, p: int) -> tuple[int, int, int]:
        on_map = sum(st.map[loc][p] for loc in LOCATIONS)
        return (st.scores[p], st.controlled[p], on_map)

    def _standings(self, st: State) -> list[dict[str, JSON]]:
        out: list[dict[str, JSON]] = []
        n: int = st.n
        keys = [self._key(st, p) for p in range(n)]
        for p in range(n):
            out.append(
                {
                    "player": self._pid(st, p),
                    "points": keys[p][0],
                    "controlled": keys[p][1],
                    "on_map": keys[p][2],
                    "place": sum(1 for k in keys if k > keys[p]),
                }
            )
        return out

    # ---- the API -----------------------------------------------------------------------------

    def to_act(self, state: State) -> frozenset[Seat]:
        if state.phase == "play" and state.turn is not None and state.turn != state.automa:
            return frozenset({state.turn})
        if state.phase == "action" and state.owed.player != state.automa:
            return frozenset({state.owed.player})
        return frozenset()

    def legal_actions(self, state: State, seat: Seat) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        if state.phase == "play":
            return [{"type": "play", "card": c} for c in self._playable(state, seat)]
        suit = state.owed.suit
        actions: list[Action] = [{"type": "add", "location": loc} for loc in self._adds(state, seat, suit)]
        actions += [
            {"type": "remove", "location": loc, "owner": self._pid(state, q)}
            for loc, q in self._removes(state, seat, suit)
        ]
        return actions

    def apply(self, state: State, seat: Seat, action: Action) -> tuple[State, list[Event]]:
        return self.play(state, seat, ACTIONS.parse(action))

    def play(self, state: State, seat: Seat, action: TrickyTacticsAction) -> tuple[State, list[Event]]:
        """``apply`` of an action already parsed."""
        check_seat(seat, len(self.seats_of(state)))
        if state.phase == "over":
            raise IllegalAction("the game is over", "action.game_over")
        if seat not in self.to_act(state):
            raise IllegalAction("it is not your turn", "action.not_your_turn")
        events: list[Event] = []
        if isinstance(action, PlayCard):
            st = self._apply_play(state, seat, action.card, events)
        else:
            st = self._apply_action(state, seat, action, events)
        return self._run(st, events), events

    def _apply_play(self, st: State, seat: int, card: str, events: list[Event]) -> State:
        if st.phase != "play":
            raise IllegalAction("you won the trick: choose your Action first", "tricky-tactics.error.action_first")
        if card not in st.hands[seat]:
            raise IllegalAction(f"{card} is not in your hand", "tricky-tactics.error.not_in_hand", {"card": card})
        led = self._led_suit(st)
        if card not in self._playable(st, seat):
            assert led is not None
            raise IllegalAction(
                f"you must follow {led}", "tricky-tactics.error.must_follow", {"suit": led, "card": card}
            )
        st = st.with_hand(seat, without(st.hands[seat], card)).changed(
            trick=(*st.trick, (seat, card)), turn=(seat + 1) % st.n
        )
        public: dict[str, JSON] = {"player": seat, "card": card}
        events.append(Event("play", public=public))
        return st

    def _apply_action(self, st: State, seat: int, action: Add | Remove, events: list[Event]) -> State:
        if st.phase != "action":
            raise IllegalAction("an Action comes only right after winning a trick", "tricky-tactics.error.no_action")
        suit = st.owed.suit
        loc = action.location
        if loc[1] != suit:
            raise IllegalAction(
                f"the Action must be in the {suit} Area",
                "tricky-tactics.error.wrong_area",
                {"suit": suit, "location": loc},
            )
        if isinstance(action, Add):
            if st.supply[seat] <= 0:
                raise IllegalAction("no cubes left in the supply", "tricky-tactics.error.no_supply")
            st = self._record_action(st.with_cubes(loc, seat, 1), events, seat, "add", loc, None, None)
        else:
            owner = self._player_from_json(st, action.owner)
            if owner is None:
                raise IllegalAction(f"{action.owner!r} is not a player", "tricky-tactics.error.bad_owner")
            if owner == seat:
                raise IllegalAction("you may only remove an opponent's cube", "tricky-tactics.error.own_cube")
            if st.map[loc][owner] <= 0:
                owner_id = self._pid(st, owner)
                raise IllegalAction(
                    f"{owner_id} has no cube at {loc}",
                    "tricky-tactics.error.no_cube",
                    {"owner_seat": owner_id, "location": loc},
                )
            st = self._record_action(st.with_cubes(loc, owner, -1), events, seat, "remove", loc, owner, None)
        return self._after_action(st, events)

    def view(self, state: State, seat: Seat | None) -> dict[str, JSON]:
        """Public state plus, for a seat, its own hand and playable cards (never another hand, the automa's
        unrevealed cards or the set-aside cards)."""
        st = state
        n: int = st.n
        values = self._values(st)
        human_seats = len(self.seats_of(st))
        me = seat if seat is not None and 0 <= seat < human_seats else None
        players: list[dict[str, JSON]] = []
        for p in range(n):
            players.append(
                {
                    "id": self._pid(st, p),
                    "automa": p == st.automa,
                    "supply": st.supply[p],
                    "on_map": sum(st.map[loc][p] for loc in LOCATIONS),
                    "score": st.scores[p],
                    "hand_size": self._hand_size(st, p),
                    "tricks_won": sum(1 for t in st.tricks if t.winner == p),
                }
            )
        areas: list[dict[str, JSON]] = []
        for suit in SUITS:
            locs: list[dict[str, JSON]] = []
            ctls: list[int | None] = []
            for lr in LOC_RANKS:
                loc = f"{lr}{suit}"
                counts = st.map[loc]
                ctl = self._controller(counts)
                ctls.append(ctl)
                locs.append(
                    {
                        "id": loc,
                        "rank": lr,
                        "value": values[lr],
                        "cubes": list(counts),
                        "total": sum(counts),
                        "controller": None if ctl is None else self._pid(st, ctl),
                    }
                )
            whole = ctls[0] if ctls[0] is not None and all(c == ctls[0] for c in ctls) else None
            areas.append(
                {
                    "suit": suit,
                    "symbol": SUIT_SYMBOL[suit],
                    "locations": locs,
                    "controller": None if whole is None else self._pid(st, whole),
                }
            )
        turn = st.turn
        pending = st.pending
        pending_view: dict[str, JSON] | None = None
        if pending is not None:
            w, suit = pending.player, pending.suit
            pending_view = {
                "player": self._pid(st, w),
                "suit": suit,
                "add": self._adds(st, w, suit),
                "remove": [{"location": loc, "owner": self._pid(st, q)} for loc, q in self._removes(st, w, suit)],
            }
        automa_view: dict[str, JSON] | None = None
        if st.automa is not None:
            last = st.automa_last
            automa_view = {
                "row": list(st.automa_row),
                "unrevealed": len(st.automa_deck),
                "last_row": None if last is None else list(last.row),
                "last_card": None if last is None else last.card,
                "last_reason": None if last is None else _reason_json(last.reason),
            }
        trick_view: list[dict[str, JSON]] = []
        last_automa = st.automa_last
        for p, c in st.trick:
            entry: dict[str, JSON] = {"player": self._pid(st, p), "card": c}
            if p == st.automa and last_automa is not None and last_automa.card == c:
                entry["reason"] = _reason_json(last_automa.reason)
            trick_view.append(entry)
        to_act = sorted(self.to_act(st))
        view: dict[str, JSON] = {
            "mode": st.options.mode,
            "round": st.round,
            "rounds": st.options.rounds,
            "phase": st.phase,
            "you": me,
            "players": players,
            "scores": [st.scores[p] for p in range(human_seats)],  # per human seat, for the room page
            "dealer": self._pid(st, st.dealer),
            "leader": self._pid(st, st.leader),
            "turn": None if turn is None else self._pid(st, turn),
            "to_act": to_act,
            "led_suit": self._led_suit(st),
            "trick": trick_view,
            "tricks": [self._trick_view(st, t) for t in st.tricks],
            "last_trick": None if st.last_trick is None else self._trick_view(st, st.last_trick),
            "tricks_per_round": self._tricks_per_round(st),
            "pending_action": pending_view,
            "map": areas,
            "values": values,
            "area_bonus": self._bonus(st),
            "automa": automa_view,
            "set_aside": len(st.set_aside),
            "last_scoring": None if st.last_scoring is None else st.last_scoring.to_json(),
            "round_points": [list(points) for points in st.round_points],
            "hand": None if me is None else list(st.hands[me]),
            "playable": (self._playable(st, me) if me is not None and st.phase == "play" and turn == me else []),
            "standings": self._standings(st) if st.phase == "over" else None,
        }
        return view

    def _trick_view(self, st: State, t: Trick) -> dict[str, JSON]:
        return {
            "leader": self._pid(st, t.leader),
            "cards": [{"player": self._pid(st, p), "card": c} for p, c in t.cards],
            "winner": self._pid(st, t.winner),
            "action": None if t.action is None else t.action.to_json(),
        }

    def timeout_action(self, state: State, seat: Seat) -> Action:
        """Play: the lowest legal card (lowest rank; ties in suit order ♠ ♥ ♦ ♣). Action: the first legal
        Add (K, then Q, then J), else the first legal Remove."""
        actions = self.legal_actions(state, seat)
        if not actions:
            raise IllegalAction("it is not this seat's turn")
        if state.phase == "play":
            return min(actions, key=lambda a: (card_rank(a["card"]), SUITS.index(card_suit(a["card"]))))
        return actions[0]

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        st = state
        n: int = st.n
        humans = len(self.seats_of(st))
        keys = [self._key(st, p) for p in range(n)]
        best = max(keys)
        top = [p for p in range(n) if keys[p] == best]
        winners = [p for p in top if p < humans and p != st.automa]
        ranks = [sum(1 for k in keys if k > keys[p]) for p in range(n)]
        return Outcome(
            scores=[float(st.scores[p]) for p in range(humans)],
            winners=winners,
            ranks=[ranks[p] for p in range(humans)],
            summary=self._summary(st, keys, top),
        )

    def _summary(self, st: State, keys: list[tuple[int, int, int]], top: list[int]) -> LogEntry:
        """Who won and how the tie-breaks decided it (docs/games/tricky-tactics.md)."""
        n: int = st.n
        automa_won = st.automa in top
        seats = [p for p in top if p != st.automa]
        params: dict[str, JSON] = {"seats": seats, "count": len(seats), "points": keys[top[0]][0]}
        level_top = [p for p in range(n) if keys[p][0] == keys[top[0]][0]]
        if len(top) > 1:
            how = "shared_with_automa" if automa_won else "shared"
        elif len(level_top) == 1:
            how = "won"
        elif len([p for p in level_top if keys[p][1] == keys[top[0]][1]]) == 1:
            how, params["locations"] = "won_on_locations", keys[top[0]][1]
        else:
            how, params["cubes"] = "won_on_cubes", keys[top[0]][2]
        if automa_won and len(top) == 1:
            del params["seats"], params["count"]
            return LogEntry(f"tricky-tactics.result.automa_{how}", params)
        return LogEntry(f"tricky-tactics.result.{how}", params)

    def dump(self, state: State) -> dict[str, JSON]:
        return state.to_json()

    def read_state(self, data: Mapping[str, JSON]) -> State:
        return State.from_json(data)

    def log_entries(
        self, state: State, seat: Seat, action: Action, result: tuple[State, list[Event]]
    ) -> list[LogEntry]:
        """The move and everything that followed it on its own: the automa's plays and Actions with their
        reasons, tricks won, skipped Actions, rounds scored and the result."""
        entries: list[LogEntry] = []
        led = bool(state.trick)
        for event in result[1]:
            data = event.public
            kind = event.kind
            if kind == "play" and data["player"] == AUTOMA:
                params = {"card": data["card"], "reason": data["reason"]}
                entries.append(LogEntry("tricky-tactics.log.automa_played", params))
            elif kind == "play":
                key = "tricky-tactics.log.played" if led else "tricky-tactics.log.led"
                entries.append(LogEntry(key, {"seat": data["player"], "card": data["card"]}))
            elif kind == "reveal":
                entries.append(LogEntry("tricky-tactics.log.automa_revealed", {"cards": data["cards"]}))
            elif kind == "trick":
                led = False  # the winner leads the next trick
                entries.append(LogEntry("tricky-tactics.log.trick_won", {"seat": data["winner"], "card": data["card"]}))
            elif kind == "action":
                entries.append(self._action_entry(data))
            elif kind == "round_scored":
                entries.append(LogEntry("tricky-tactics.log.round_scored", {"round": data["round"]}))
            elif kind == "game_over":
                entries.extend(self.result_entries(result[0]))
        return entries

    @staticmethod
    def _action_entry(data: Mapping[str, JSON]) -> LogEntry:
        if data["player"] == AUTOMA:
            return LogEntry("tricky-tactics.log.automa_action", {"reason": data["reason"]})
        if data["type"] == "skip":
            return LogEntry("tricky-tactics.log.skipped", {"seat": data["player"], "reason": data["reason"]})
        if data["type"] == "add":
            return LogEntry("tricky-tactics.log.added", {"seat": data["player"], "location": data["location"]})
        params = {"seat": data["player"], "location": data["location"], "owner_seat": data["owner"]}
        return LogEntry("tricky-tactics.log.removed", params)


def _reason(key: str, **params: JSON) -> Reason:
    """One of the automa's reasons (or a skipped Action's) as log entries: what it did and why."""
    return (LogEntry(f"tricky-tactics.reason.{key}", params),)


_TIED = LogEntry("tricky-tactics.reason.tied_kqj")
"""Appended to a reason whose Locations tied: K, then Q, then J."""


# ---- automa rules (pure functions, used by the engine and the tests) -------------------------------


def automa_choose(row: Sequence[str], led: str | None) -> tuple[str, list[JSON]]:
    """The card the automa plays from its Reveal Row ``[Left, Right]`` and its reason (log entries).

    Only the revealed cards count: it follows if one of them matches, else plays the higher; equal ranks
    play Left.
    """
    card, reason = _automa_card(row, led)
    return card, _reason_json(reason)


def _automa_card(row: Sequence[str], led: str | None) -> tuple[str, Reason]:
    if len(row) == 1:
        only = row[0]
        return only, _reason("last_card", card=only)
    left, right = row

    def higher(cards: Sequence[str]) -> str:
        return cards[1] if card_rank(cards[1]) > card_rank(cards[0]) else cards[0]

    equal = card_rank(left) == card_rank(right)
    if led is None:
        card = higher(row)
        return card, _reason("led_equal" if equal else "led_higher", card=card)
    matching = [c for c in row if card_suit(c) == led]
    if len(matching) == 2:
        card = higher(matching)
        return card, _reason("followed_higher", suit=led, card=card)
    if len(matching) == 1:
        card = matching[0]
        return card, _reason("followed_only", suit=led, card=card)
    card = higher(row)
    return card, _reason("no_suit_equal" if equal else "no_suit_higher", suit=led, card=card)


ActionKind = Literal["add", "remove", "skip"]


def automa_action_choice(
    board: Mapping[str, Sequence[int]], supply: int, automa: int, n: int, suit: str
) -> tuple[ActionKind, str | None, int | None, list[JSON]]:
    """The automa's Action in ``suit``'s Area: (kind, location, owner index, reason as log entries).

    Add if it has cubes: the first empty Location (K, Q, J), else the one with most cubes (ties K, Q, J).
    Remove if not: among Locations holding an opponent cube, the one with most cubes in total (ties K, Q, J),
    from the opponent with most cubes there (ties: the next player clockwise from the automa).
    """
    kind, loc, owner, reason = _automa_action(board, supply, automa, n, suit)
    return kind, loc, owner, _reason_json(reason)


def _automa_action(
    board: Mapping[str, Sequence[int]], supply: int, automa: int, n: int, suit: str
) -> tuple[ActionKind, str | None, int | None, Reason]:
    locs = [f"{lr}{suit}" for lr in LOC_RANKS]
    if supply > 0:
        for loc in locs:
            if sum(board[loc]) == 0:
                return "add", loc, None, _reason("added_empty", location=loc)
        best = max(locs, key=lambda lc: (sum(board[lc]), -locs.index(lc)))
        tied = [lc for lc in locs if sum(board[lc]) == sum(board[best])]
        reason = _reason("added_most", location=best, cubes=sum(board[best]))
        return "add", best, None, reason + ((_TIED,) if len(tied) > 1 else ())
    eligible = [lc for lc in locs if any(c > 0 for q, c in enumerate(board[lc]) if q != automa)]
    if not eligible:
        return "skip", None, None, _reason("skip", suit=suit)
    best = max(eligible, key=lambda lc: (sum(board[lc]), -locs.index(lc)))
    tied_locs = [lc for lc in eligible if sum(board[lc]) == sum(board[best])]
    counts = board[best]
    clockwise = [(automa + k) % n for k in range(1, n)]
    most = max(counts[q] for q in clockwise)
    owners = [q for q in clockwise if counts[q] == most]
    owner = owners[0]
    reason = _reason("removed_most", owner_seat=owner, location=best, cubes=sum(counts))
    if len(tied_locs) > 1:
        reason += (_TIED,)
    if len(owners) > 1:
        reason += (LogEntry("tricky-tactics.reason.next_clockwise"),)
    return "remove", best, owner, reason


# ---- a bot for human seats -----------------------------------------------------------------------


class TrickyTacticsBot(Bot[State]):
    """A sensible trick-taker working from its seat's view only.

    It values winning a trick in a suit by the best Action it would then have (the change in its map points
    against the strongest opponent, plus a little for safer margins). It tries to win tricks in suits where a
    cube matters (cheapest winning card when last to play, else its highest), and ducks otherwise (its highest
    card that still loses). It discards from its least valuable suit and leads a sure winner in a valuable
    suit when it holds one, else a low card in its least valuable suit.
    """

    THRESHOLD = 0.75

    def choose(self, state: State, seat: Seat, rng: Any) -> Action:
        view = ENGINE.view(state, seat)
        legal = ENGINE.legal_actions(state, seat)
        if not legal:
            raise IllegalAction("the bot's seat may not act now")
        ids: list[PlayerId] = [p["id"] for p in view["players"]]
        me = ids.index(seat)
        board: dict[str, list[int]] = {
            loc["id"]: list(loc["cubes"]) for area in view["map"] for loc in area["locations"]
        }
        values: dict[str, int] = view["values"]
        bonus: int = view["area_bonus"]
        supply = [p["supply"] for p in view["players"]]
        if view["phase"] == "action":
            best = max(
                legal,
                key=lambda a: (
                    _eval(_after(board, me, a, ids), me, values, bonus),
                    a["type"] == "add",
                    -LOCATIONS.index(a["location"]),
                ),
            )
            return best
        worth = {s: _suit_worth(board, me, supply[me], s, values, bonus) for s in SUITS}
        hand: list[str] = view["hand"]
        playable = [a["card"] for a in legal]
        trick = view["trick"]
        if not trick:
            return {"type": "play", "card": _lead(view, hand, playable, worth, self.THRESHOLD)}
        last = len(trick) == len(ids) - 1
        card = answer_card(playable, [t["card"] for t in trick], worth.__getitem__, self.THRESHOLD, last)
        return {"type": "play", "card": card}


def _lead(
    view: Mapping[str, Any], hand: list[str], playable: list[str], worth: dict[str, float], threshold: float
) -> str:
    played = {c["card"] for t in view["tricks"] for c in t["cards"]}
    return lead_card(played, hand, playable, worth.__getitem__, threshold)


def lead_card(
    played: Collection[str],
    hand: Collection[str],
    playable: list[str],
    worth: Callable[[str], float],
    threshold: float,
) -> str:
    """The normal bot's lead: a sure winner (every higher card of its suit played or in hand) in a suit worth
    at least ``threshold``, its most valuable; else a low card of its least valuable suit."""
    masters: list[str] = []
    for c in playable:
        higher = [f"{r}{card_suit(c)}" for r in RANKS if RANK_VALUE[r] > card_rank(c)]
        if all(h in played or h in hand for h in higher):
            masters.append(c)
    good = [c for c in masters if worth(card_suit(c)) >= threshold]
    if good:
        return max(good, key=lambda c: (worth(card_suit(c)), card_rank(c)))
    return min(playable, key=lambda c: (worth(card_suit(c)), card_rank(c)))


def answer_card(
    playable: list[str], trick: list[str], worth: Callable[[str], float], threshold: float, last: bool
) -> str:
    """The normal bot's card in a trick already led (``trick``: the cards played, in order): win it where the
    led suit is worth at least ``threshold`` (cheapest winner when ``last``, else its highest), else duck with
    its highest loser; with no card of the led suit, discard low from its least valuable suit."""
    led = card_suit(trick[0])
    best_rank = max(card_rank(c) for c in trick if card_suit(c) == led)
    following = [c for c in playable if card_suit(c) == led]
    if following:
        winners = sorted((c for c in following if card_rank(c) > best_rank), key=card_rank)
        losers = sorted((c for c in following if card_rank(c) < best_rank), key=card_rank)
        if worth(led) >= threshold and winners:
            return winners[0] if last else winners[-1]
        if worth(led) >= threshold:
            return min(following, key=card_rank)
        if losers:
            return losers[-1]
        return winners[0]
    return min(playable, key=lambda c: (worth(card_suit(c)), card_rank(c)))


def _after(board: Mapping[str, Sequence[int]], me: int, action: Action, ids: list[PlayerId]) -> dict[str, list[int]]:
    out = {loc: list(c) for loc, c in board.items()}
    if action["type"] == "add":
        out[action["location"]][me] += 1
    else:
        out[action["location"]][ids.index(action["owner"])] -= 1
    return out


def _points(board: Mapping[str, Sequence[int]], values: Mapping[str, int], bonus: int) -> list[float]:
    n = len(next(iter(board.values())))
    pts = [0.0] * n
    for s in SUITS:
        owners: list[int | None] = []
        for lr in LOC_RANKS:
            counts = board[f"{lr}{s}"]
            top = max(counts)
            ctl = counts.index(top) if top > 0 and counts.count(top) == 1 else None
            owners.append(ctl)
            if ctl is not None:
                pts[ctl] += values[lr]
        if bonus and owners[0] is not None and all(o == owners[0] for o in owners):
            pts[owners[0]] += bonus
    return pts


def _eval(board: Mapping[str, Sequence[int]], me: int, values: Mapping[str, int], bonus: int) -> float:
    pts = _points(board, values, bonus)
    others = [p for i, p in enumerate(pts) if i != me]
    score = pts[me] - max(others)
    for loc, counts in board.items():
        rival = max(c for i, c in enumerate(counts) if i != me)
        margin = max(-2, min(2, counts[me] - rival))
        score += 0.1 * values[loc[0]] * margin
    return score


def _suit_worth(
    board: Mapping[str, list[int]], me: int, supply: int, suit: str, values: Mapping[str, int], bonus: int
) -> float:
    base = _eval(board, me, values, bonus)
    best = 0.0
    for lr in LOC_RANKS:
        loc = f"{lr}{suit}"
        options: list[dict[str, list[int]]] = []
        if supply > 0:
            b = {k: list(v) for k, v in board.items()}
            b[loc][me] += 1
            options.append(b)
        for q, c in enumerate(board[loc]):
            if q != me and c > 0:
                b = {k: list(v) for k, v in board.items()}
                b[loc][q] -= 1
                options.append(b)
        for b in options:
            best = max(best, _eval(b, me, values, bonus) - base)
    return best


ENGINE = TrickyTactics()
BOT = TrickyTacticsBot()
