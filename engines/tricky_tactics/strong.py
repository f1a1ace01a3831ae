"""Tricky Tactics' strong bot: a determinized search over its cards and Actions.

A seat sees its hand, the cards played this round, the automa's face-up row and every cube. Each sample
deals the unseen cards at random into the other hands, the automa's face-down cards and the set-aside
cards, keeping every suit a player has shown void of out of their hand, and deals later rounds afresh.
Of a few such deals it keeps one that every other player's cards this round fit, as the normal bot would
have played them from that hand with the map as it then stood (all public): the players it meets are
read as playing so, and a deal nothing fits falls back to the one that fits most. In the playouts every
seat plays as the normal bot does (``normal_move``: its rules read off the state, not a view, with what
it reads off the map memoised), for 80 moves: past the end of the round, so a one-round game is played
out whole and a longer one is scored as its map stands. A playout is worth its place
among all players, the automa's included, and its score margin over the best other player, which tells
apart the many playouts that end in the same place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any

from engines.base import Outcome, Seat
from engines.search import GameModel, squash
from engines.tricky_tactics.actions import PLAYS, Add, PlayCard, TrickyTacticsAction
from engines.tricky_tactics.bots import BOT, TrickyTacticsBot, answer_card, lead_card, suit_worth
from engines.tricky_tactics.cards import DECK, LOC_RANKS, LOCATIONS, SUITS, card_suit, sort_hand
from engines.tricky_tactics.rules import ENGINE
from engines.tricky_tactics.state import AUTOMA, Counts, State, with_delta

SAMPLE_TRIES = 20
"""Shuffles tried for a deal that respects every void before the voids of one player are let go."""


def _voids(state: State) -> dict[int, set[str]]:
    """The suits each player has shown they hold none of (they did not follow the led suit). Not the
    automa: it follows from its Reveal Row alone, so its face-down cards may still hold the suit."""
    voids: dict[int, set[str]] = {}
    tricks = [t.cards for t in state.tricks]
    if state.trick:
        tricks.append(state.trick)
    for cards in tricks:
        led = card_suit(cards[0][1])
        for player, card in cards[1:]:
            if card_suit(card) != led and player != state.automa:
                voids.setdefault(player, set()).add(led)
    return voids


class _Board:
    """The normal bot's reading of the map (``_eval``) in whole tenths, by Area, so that one changed
    Location is re-read alone: ``score(seat)`` is ten times ``_eval``."""

    def __init__(self, board: Mapping[str, Counts], seat: int, values: Mapping[str, int], bonus: int) -> None:
        self.board = board
        self.seat = seat
        self.values = values
        self.bonus = bonus
        self.areas = [self.area(s, [board[f"{lr}{s}"] for lr in LOC_RANKS]) for s in SUITS]
        self.totals = [sum(column) for column in zip(*self.areas, strict=True)]
        self.edges = {loc: self.edge(loc, board[loc]) for loc in LOCATIONS}
        self.edge_sum = sum(self.edges.values())

    def area(self, suit: str, counts: Sequence[Sequence[int]]) -> list[int]:
        """Tenths of a point per player from one Area's three Locations (K, Q, J) and its bonus."""
        pts = [0] * len(counts[0])
        owners: list[int | None] = []
        for lr, c in zip(LOC_RANKS, counts, strict=True):
            top = max(c)
            ctl = c.index(top) if top > 0 and c.count(top) == 1 else None
            owners.append(ctl)
            if ctl is not None:
                pts[ctl] += 10 * self.values[lr]
        first = owners[0]
        if self.bonus and first is not None and owners[1] == first and owners[2] == first:
            pts[first] += 10 * self.bonus
        return pts

    def edge(self, loc: str, c: Sequence[int]) -> int:
        me = self.seat
        rival = max(x for i, x in enumerate(c) if i != me)
        return self.values[loc[0]] * max(-2, min(2, c[me] - rival))

    def score(self, totals: Sequence[int], edges: int) -> int:
        me = self.seat
        return totals[me] - max(t for i, t in enumerate(totals) if i != me) + edges

    def base(self) -> int:
        return self.score(self.totals, self.edge_sum)

    def after(self, loc: str, player: int, delta: int) -> int:
        """The score once ``player`` has ``delta`` more cubes on ``loc``."""
        suit = loc[1]
        s = SUITS.index(suit)
        counts = []
        changed: Sequence[int] = ()
        for lr in LOC_RANKS:
            c = self.board[f"{lr}{suit}"]
            if f"{lr}{suit}" == loc:
                c = changed = with_delta(c, player, delta)
            counts.append(c)
        area = self.area(suit, counts)
        totals = [t - old + new for t, old, new in zip(self.totals, self.areas[s], area, strict=True)]
        edges = self.edge_sum - self.edges[loc] + self.edge(loc, changed)
        return self.score(totals, edges)

    def options(self, suit: str, supply: int) -> list[tuple[str, int, int]]:
        """The Actions in ``suit``'s Area as (Location, player, change)."""
        out: list[tuple[str, int, int]] = []
        for lr in LOC_RANKS:
            loc = f"{lr}{suit}"
            if supply > 0:
                out.append((loc, self.seat, 1))
            out.extend((loc, q, -1) for q, c in enumerate(self.board[loc]) if q != self.seat and c > 0)
        return out

    def worth(self, suit: str, supply: int) -> int:
        """``suit_worth`` in tenths."""
        base = self.base()
        return max([0, *(self.after(*option) - base for option in self.options(suit, supply))])


Memo = dict[tuple[Any, ...], Any]


class _Reading:
    """What the normal bot reads off the map for one seat, each part worked out when first asked for and
    memoised by the map (a playout meets the same maps again and again)."""

    def __init__(self, state: State, seat: int, memo: Memo) -> None:
        o = state.options
        self.state = state
        self.seat = seat
        self.memo = memo
        self.values = {"K": o.value_k, "Q": o.value_q, "J": o.value_j}
        self.bonus = o.area_bonus_points if o.area_bonus else 0
        self.supply = state.supply[seat]
        self.key = (tuple(state.map.values()), seat, self.supply > 0)
        self._board: _Board | None = None
        if len(memo) > MEMO_SIZE:
            memo.clear()

    @property
    def board(self) -> _Board:
        if self._board is None:
            self._board = _Board(self.state.map, self.seat, self.values, self.bonus)
        return self._board

    def worth(self, suit: str) -> int:
        """``suit_worth`` in tenths."""
        key = (*self.key, suit)
        value = self.memo.get(key)
        if value is None:
            value = self.memo[key] = self.board.worth(suit, self.supply)
        return int(value)

    def action(self, legal: list[TrickyTacticsAction]) -> TrickyTacticsAction:
        """The Action that leaves the map best (ties: an Add, then K, Q, J and the Areas in order)."""
        key = (*self.key, "action", self.state.owed.suit)
        chosen: TrickyTacticsAction | None = self.memo.get(key)
        if chosen is None:
            board, seat, automa = self.board, self.seat, self.state.automa

            def promise(a: TrickyTacticsAction) -> tuple[int, bool, int]:
                assert not isinstance(a, PlayCard)
                loc = a.location
                if isinstance(a, Add):
                    after = board.after(loc, seat, 1)
                else:
                    owner = automa if a.owner == AUTOMA else a.owner
                    assert isinstance(owner, int)
                    after = board.after(loc, owner, -1)
                return after, isinstance(a, Add), -LOCATIONS.index(loc)

            chosen = self.memo[key] = max(legal, key=promise)
        return chosen


def normal_move(state: State, seat: Seat, memo: Memo) -> TrickyTacticsAction:
    """The normal bot's move (``TrickyTacticsBot.choose``) read off the state instead of a view: the same
    rules at a fraction of the cost, for the playouts. ``seat`` must be to act."""
    legal = ENGINE.legal_actions(state, seat)
    if len(legal) == 1:
        return legal[0]
    reading = _Reading(state, seat, memo)
    if state.phase == "action":
        return reading.action(legal)
    worth = reading.worth
    threshold = 10 * TrickyTacticsBot.THRESHOLD
    playable = [a.card for a in legal if isinstance(a, PlayCard)]
    trick = state.trick
    if not trick:
        played = {c for t in state.tricks for _p, c in t.cards}
        return PLAYS[lead_card(played, state.hands[seat], playable, worth, threshold)]
    last = len(trick) == state.n - 1
    return PLAYS[answer_card(playable, [c for _p, c in trick], worth, threshold, last)]


MEMO_SIZE = 50_000
"""Suit worths kept per map before the memo starts afresh (a few MB)."""


@dataclass(frozen=True)
class _Choice:
    """One card another player chose this round, with what they saw then: enough to tell whether the normal
    bot would have played it from a given hand."""

    player: int
    card: str
    trick: tuple[str, ...]  # the cards already in the trick, in order (empty: a lead)
    played: frozenset[str]  # the cards of the round's earlier tricks
    later: frozenset[str]  # the player's cards played from then on (this one included): in hand then
    worth: tuple[float, ...]  # ``suit_worth`` of each suit as the map stood (as the bot reckons, in floats)
    last: bool

    def fits(self, hand: Sequence[str]) -> bool:
        """Whether the normal bot, holding ``hand`` now, would have played ``card`` then."""
        held = sort_hand([*hand, *self.later])  # in hand order: the bot's ties go to the first card
        led = card_suit(self.trick[0]) if self.trick else None
        playable = [c for c in held if card_suit(c) == led] or list(held)
        if len(playable) == 1:
            return True
        worth = self.worth

        def suit_worth(suit: str) -> float:
            return worth[SUITS.index(suit)]

        threshold = TrickyTacticsBot.THRESHOLD
        if not self.trick:
            return lead_card(self.played, held, playable, suit_worth, threshold) == self.card
        return answer_card(playable, list(self.trick), suit_worth, threshold, self.last) == self.card


def _choices(state: State, seat: Seat) -> list[_Choice]:
    """Every card the other players (not the automa) chose this round, with the map as it stood: the map is
    rebuilt by undoing the finished tricks' Actions, newest first. All of it is public."""
    o = state.options
    values = {"K": o.value_k, "Q": o.value_q, "J": o.value_j}
    bonus = o.area_bonus_points if o.area_bonus else 0
    board: dict[str, Counts] = dict(state.map)
    supply = state.supply
    tricks = [t.cards for t in state.tricks] + ([state.trick] if state.trick else [])
    before: list[tuple[dict[str, Counts], Counts]] = [(board, supply)] * len(tricks)
    for index in range(len(state.tricks) - 1, -1, -1):
        taken = state.tricks[index].action
        if taken is not None and taken.location is not None and taken.type != "skip":
            owner_id = taken.player if taken.type == "add" else taken.owner
            owner = state.automa if owner_id == AUTOMA else owner_id
            assert isinstance(owner, int)
            delta = -1 if taken.type == "add" else 1
            board = dict(board)
            board[taken.location] = with_delta(board[taken.location], owner, delta)
            supply = with_delta(supply, owner, -delta)
        before[index] = (board, supply)
    out: list[_Choice] = []
    played: set[str] = set()
    for index, cards in enumerate(tricks):
        for position, (player, card) in enumerate(cards):
            if player == seat or player == state.automa:
                continue
            later = {c for t in tricks[index:] for p, c in t if p == player}
            board, supply = before[index]
            lists = {loc: list(c) for loc, c in board.items()}
            worth = tuple(suit_worth(lists, player, supply[player], suit, values, bonus) for suit in SUITS)
            trick = tuple(c for _p, c in cards[:position])
            last = position == state.n - 1
            out.append(_Choice(player, card, trick, frozenset(played), frozenset(later), worth, last))
        played.update(c for _p, c in cards)
    return out


FIT_TRIES = 30
"""Deals tried for one that every other player's cards this round fit (as the normal bot would have played
them) before the deal that fits most is kept."""


class TrickyTacticsModel(GameModel[State]):
    engine = ENGINE
    rollout_depth = 80  # past the end of a round: one round is played out whole
    margin = 0.5  # the playouts play as the normal bot does, so a smaller lead over its move is trusted
    playout_noise = 0.0  # and so do the players it meets: a stray move in a playout only blurs them

    def __init__(self) -> None:
        self.memo: Memo = {}
        self._read: tuple[State, Seat, list[_Choice]] | None = None  # the last state's choices: one search's

    def _choices(self, state: State, seat: Seat) -> list[_Choice]:
        if self._read is None or self._read[0] is not state or self._read[1] != seat:
            self._read = (state, seat, _choices(state, seat))
        return self._read[2]

    def determinize(self, state: State, seat: Seat, rng: Random) -> State:
        n: int = state.n
        automa = state.automa
        seen = set(state.hands[seat]) | set(state.automa_row)
        seen.update(card for _player, card in state.trick)
        seen.update(card for t in state.tricks for _player, card in t.cards)
        pool = sorted(card for card in DECK if card not in seen)
        slots: list[tuple[int | None, int]] = [(p, len(state.hands[p])) for p in range(n) if p != seat and p != automa]
        if automa is not None:
            slots.append((automa, len(state.automa_deck)))
        slots.append((None, len(state.set_aside)))
        voids = _voids(state)
        choices = self._choices(state, seat)
        best: list[list[str]] = []
        best_fit = -1
        for _try in range(FIT_TRIES):
            dealt = self._deal(pool, slots, voids, rng)
            hands_of = {owner: cards for (owner, _size), cards in zip(slots, dealt, strict=True)}
            fit = sum(1 for choice in choices if choice.fits(hands_of[choice.player]))
            if fit > best_fit:
                best, best_fit = dealt, fit
            if fit == len(choices):
                break
        hands = list(state.hands)
        automa_deck, set_aside = state.automa_deck, state.set_aside
        for (owner, _size), cards in zip(slots, best, strict=True):
            if owner is None:
                set_aside = tuple(cards)
            elif owner == automa:
                automa_deck = tuple(cards)
            else:
                hands[owner] = sort_hand(cards)
        rounds = len(state.deal_seeds)
        seeds = state.deal_seeds[: state.round] + tuple(rng.getrandbits(64) for _ in range(rounds - state.round))
        return state.changed(hands=tuple(hands), automa_deck=automa_deck, set_aside=set_aside, deal_seeds=seeds)

    @staticmethod
    def _deal(
        pool: list[str], slots: list[tuple[int | None, int]], voids: dict[int, set[str]], rng: Random
    ) -> list[list[str]]:
        """Cards for each slot in turn; a player's known voids are kept when a few shuffles can keep them."""
        for attempt in range(SAMPLE_TRIES + 1):
            cards = pool[:]
            rng.shuffle(cards)
            strict = attempt < SAMPLE_TRIES
            hands: list[list[str]] = []
            for owner, size in slots:
                banned = voids.get(owner, set()) if strict and owner is not None else set()
                take = [c for c in cards if card_suit(c) not in banned][:size]
                if len(take) < size:
                    break
                taken = set(take)
                cards = [c for c in cards if c not in taken]
                hands.append(take)
            else:
                return hands
        raise AssertionError("an unconstrained deal always fits")  # pragma: no cover

    def baseline(self, state: State, seat: Seat, rng: Random) -> TrickyTacticsAction:
        return BOT.choose(state, seat, rng)

    def policy(self, state: State, seat: Seat, rng: Random) -> TrickyTacticsAction:
        """The normal bot's move, read off the state (the players it meets play so)."""
        return normal_move(state, seat, self.memo)

    def evaluate(self, state: State, seat: Seat) -> float:
        """The round scored as the map stands: place among all players (the tie-breaks as at the end) and
        the margin over the best other player."""
        o = state.options
        values = {"K": o.value_k, "Q": o.value_q, "J": o.value_j}
        bonus = o.area_bonus_points if o.area_bonus else 0
        n: int = state.n
        totals = list(state.scores)
        controlled = [0] * n
        for suit in SUITS:
            owners: list[int | None] = []
            for rank in LOC_RANKS:
                counts = state.map[f"{rank}{suit}"]
                top = max(counts)
                owner = counts.index(top) if top > 0 and counts.count(top) == 1 else None
                owners.append(owner)
                if owner is not None:
                    totals[owner] += values[rank]
                    controlled[owner] += 1
            first = owners[0]
            if bonus and first is not None and owners[1] == first and owners[2] == first:
                totals[first] += bonus
        on_map = [sum(state.map[loc][p] for loc in LOCATIONS) for p in range(n)]
        keys = [(totals[p], controlled[p], on_map[p]) for p in range(n)]
        place = sum(1 for k in keys if k > keys[seat])
        rival = max(total for p, total in enumerate(totals) if p != seat)
        return _value(place, n, totals[seat] - rival)

    def reward(self, outcome: Outcome, seat: Seat) -> float:
        """As ``evaluate``: place among all players (the automa's too) and the margin over the best other
        seat."""
        players = len(outcome.ranks) + (1 if len(outcome.ranks) == 2 else 0)  # two seats: the automa plays
        rival = max(score for p, score in enumerate(outcome.scores) if p != seat)
        return _value(outcome.ranks[seat], players, outcome.scores[seat] - rival)


PLACE_WEIGHT = 0.25
"""How much of a playout's value is the place; the rest is the score margin, which tells apart playouts
that end in the same place."""


def _value(place: int, players: int, margin: float) -> float:
    return PLACE_WEIGHT * (1 - place / (players - 1)) + (1 - PLACE_WEIGHT) * squash(margin, 4.0)


MODEL = TrickyTacticsModel()
