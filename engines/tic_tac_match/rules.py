"""Tic Tac Match: a 60-card race to line up three identical Symbol cards (rules: docs/games/tic-tac-match.md).

Rules as implemented:

- 2 players, or 4 in two teams: seats 0 & 2 (team/side 0) against seats 1 & 3 (team/side 1), partners
  opposite. With 2 players each seat is its own side (side = seat % 2 in both cases). Play is clockwise,
  i.e. seat s is followed by seat s + 1; "left of the dealer" is the next seat.
- Deck: 48 Symbol cards (blue, green, red, yellow × X, O × 6 copies) + 4 Flip + 4 Wipe-Out + 4 Double Play.
  Card ids are fixed and name the card's identity: ``0..47`` Symbol cards (``id // 12`` is the colour in
  the order above, ``id // 6 % 2`` the symbol, X then O), ``48..51`` Flip, ``52..55`` Wipe-Out, ``56..59``
  Double Play. An id is only ever sent for a card the viewer may see, so it reveals nothing.
- Setup of each match: deal 4 each; turn up cards until a Symbol card appears: it is the centre cell and the
  turned-up non-symbols go to the discard pile. The dealer's side shows that symbol on its ID cards, the other
  side the other one. The player left of the dealer starts. The first dealer is drawn from the seed and the
  deal passes left each match of a series.
- A Symbol card goes on an empty cell, or on a top card matching its colour or its symbol but not both.
- Flip: every ID card flips. Wipe-Out: the player draws a replacement at once; the chosen other player
  (teammates allowed, never yourself) discards their hand, draws 4 and takes the next turn; play continues
  clockwise from them. Double Play: exactly two Symbol/Flip plays follow (a line is checked after each), then
  the player draws up to 4; it is playable only if a Symbol/Flip play is available after it. If the second
  play has no legal Symbol/Flip, the player may discard a Wipe-Out or Double Play as that play (no effect) or
  forfeit it; with neither in hand, the second play is forfeited automatically.
- Stuck (no legal play at the start of a turn): the hand is discarded and 4 are drawn, repeatedly and
  automatically; after 10 redraws the turn passes to the next player.
- When a card must be drawn from an empty pile, the discard pile and every covered card on the grid are
  shuffled into a new pile (top cards stay). If nothing is left to draw, play goes on with fewer cards.
- A match ends the moment three top cards of the same colour and symbol are in a line: the side whose ID
  cards show that symbol at that moment wins it, whoever placed the card. The game is a series: the first
  side to win ``series`` matches (1–5, default 1) wins; the next match is set up automatically.

Who sees what: everyone sees the grid's top cards and stack heights, the discard top and count, the draw
count, hand sizes, ID symbols, whose turn it is, a pending Double Play, the score and finished matches.
Hands are private to their owner; the draw-pile order, covered cards and the discard pile below its top card
are seen by nobody.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field

from engines.base import (
    GRID_LINES as LINES,
)
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
    Pair,
    Refusal,
    Seat,
    SeatInfo,
    check_seat,
    ranks_from_scores,
)

COLOURS = ("blue", "green", "red", "yellow")
SYMBOLS = ("X", "O")
COPIES = 6
SYMBOL_CARDS = len(COLOURS) * len(SYMBOLS) * COPIES  # 48
FLIP_FIRST, WIPEOUT_FIRST, DOUBLE_FIRST = 48, 52, 56
DECK_SIZE = 60
HAND_SIZE = 4
MAX_REDRAWS = 10
CENTRE = 4

LINES_THROUGH: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple(line for line in LINES if cell in line) for cell in range(9)
)
CardKind = Literal["symbol", "flip", "wipeout", "double"]
Cards = tuple[int, ...]


# ---- cards -----------------------------------------------------------------------------------------


def card_kind(card: int) -> CardKind:
    if card < SYMBOL_CARDS:
        return "symbol"
    if card < WIPEOUT_FIRST:
        return "flip"
    if card < DOUBLE_FIRST:
        return "wipeout"
    return "double"


def card_type(card: int) -> int:
    """A Symbol card's type 0..7: ``type // 2`` is the colour, ``type % 2`` the symbol (0 = X, 1 = O)."""
    return card // COPIES


def types_stack(card_t: int, top_t: int) -> bool:
    """May a Symbol card of type ``card_t`` cover one of type ``top_t``? Colour or symbol, never both."""
    return (card_t // 2 == top_t // 2) != (card_t % 2 == top_t % 2)


def can_stack(card: int, top: int) -> bool:
    """May Symbol card ``card`` go on top of Symbol card ``top``?"""
    return types_stack(card_type(card), card_type(top))


def card_face(card: int) -> dict[str, JSON]:
    """What a card shows, without its id (for records of finished matches)."""
    kind = card_kind(card)
    if kind == "symbol":
        t = card_type(card)
        return {"kind": kind, "colour": COLOURS[t // 2], "symbol": SYMBOLS[t % 2]}
    return {"kind": kind}


def card_json(card: int) -> dict[str, JSON]:
    """A visible card: its id (to address it in actions) and its face."""
    return {"id": card, **card_face(card)}


def rc(cell: int) -> list[int]:
    return [cell // 3, cell % 3]


# ---- options and state -----------------------------------------------------------------------------


class TicTacMatchOptions(GameOptions):
    """Lobby options; the lobby renders its form from this model's JSON schema."""

    players: Literal[2, 4] = Field(
        2, title="Players", description="2 players, or 4 in two teams (partners sit opposite)."
    )
    series: int = Field(
        1,
        ge=1,
        le=5,
        title="Matches to win",
        description="The first side to win this many matches wins (1–5).",
    )


@dataclass(frozen=True)
class TicTacMatchState(FrozenState):
    """The full game state (secrets included): an immutable value; the rules return changed copies that
    share every part they leave alone."""

    players: int
    series: int
    salt: int  # derived from the seed: every shuffle is seeded from (salt, match, shuffle number)
    match: int  # 1-based number of the current (or last) match
    dealer: Seat
    wins: tuple[int, int]  # matches won, per side
    id_symbol: int  # the symbol (0 = X, 1 = O) side 0's ID cards show; side 1 shows the other
    draw: Cards  # the draw pile, top card last
    discard: Cards  # the discard pile, top card last
    cells: tuple[Cards, ...]  # 9 stacks in reading order, bottom card first
    hands: tuple[Cards, ...]
    turn: Seat | None  # None once the series is over
    plays_left: int  # 0: an ordinary turn; 2 or 1: plays still owed after a Double Play
    shuffles: int  # shuffles done in this match (the deal's is the first)
    results: tuple[Mapping[str, JSON], ...]  # one per finished match

    def with_hand(self, seat: Seat, hand: Cards) -> TicTacMatchState:
        return self.changed(hands=(*self.hands[:seat], hand, *self.hands[seat + 1 :]))

    def hands_without(self, seat: Seat, card: int) -> tuple[Cards, ...]:
        """The hands, ``seat``'s without ``card``."""
        hand = self.hands[seat]
        i = hand.index(card)
        return (*self.hands[:seat], hand[:i] + hand[i + 1 :], *self.hands[seat + 1 :])

    def discarded(self, seat: Seat, card: int) -> TicTacMatchState:
        """``card`` moved from ``seat``'s hand to the discard pile."""
        return self.changed(hands=self.hands_without(seat, card), discard=(*self.discard, card))

    @property
    def over(self) -> bool:
        return self.turn is None

    def side_symbol(self, side: int) -> int:
        return self.id_symbol if side == 0 else 1 - self.id_symbol

    def seat_symbol(self, seat: Seat) -> int:
        return self.side_symbol(seat % 2)

    def tops(self) -> list[int | None]:
        return [stack[-1] if stack else None for stack in self.cells]


# ---- rule helpers (pure functions of the state) -----------------------------------------------------


def legal_cells(state: TicTacMatchState, card: int) -> list[int]:
    """The cells (0..8, reading order) where Symbol card ``card`` may be played."""
    return [i for i, stack in enumerate(state.cells) if not stack or can_stack(card, stack[-1])]


def completed_lines(tops: Sequence[int | None], cell: int) -> list[tuple[int, int, int]]:
    """Lines through ``cell`` whose three top cards are of one type (colour and symbol)."""
    top = tops[cell]
    if top is None:
        return []
    t = card_type(top)
    found = []
    for line in LINES_THROUGH[cell]:
        if all((other := tops[i]) is not None and card_type(other) == t for i in line):
            found.append(line)
    return found


def play_result(tops: Sequence[int | None], card: int, cell: int) -> int | None:
    """The symbol (0 = X, 1 = O) of the line completed by playing ``card`` on ``cell``, or None."""
    after = list(tops)
    after[cell] = card
    return card_type(card) % 2 if completed_lines(after, cell) else None


def has_symbol_or_flip_play(state: TicTacMatchState, hand: Sequence[int]) -> bool:
    for card in hand:
        kind = card_kind(card)
        if kind == "flip" or (kind == "symbol" and legal_cells(state, card)):
            return True
    return False


def has_legal_play(state: TicTacMatchState, seat: Seat) -> bool:
    """Can ``seat`` start a turn? (A Double Play is playable only when a Symbol/Flip play is.)"""
    hand = state.hands[seat]
    return any(card_kind(c) == "wipeout" for c in hand) or has_symbol_or_flip_play(state, hand)


def in_fallback(state: TicTacMatchState) -> bool:
    """The second play of a Double Play, with no Symbol/Flip play available."""
    return (
        state.turn is not None and state.plays_left == 1 and not has_symbol_or_flip_play(state, state.hands[state.turn])
    )


def _plain(value: Any) -> Any:
    """A deep copy of plain JSON data (lists for tuples)."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _face(card: JSON) -> JSON:
    """A visible card of an event as the log names it: its face, without its id."""
    return {key: value for key, value in card.items() if key != "id"} if isinstance(card, dict) else None


def _last_card(result: Mapping[str, JSON]) -> dict[str, JSON]:
    """The symbol card that made a match's line (its colour and symbol)."""
    return {"kind": "symbol", "colour": result["colour"], "symbol": result["symbol"]}


# ---- the engine ------------------------------------------------------------------------------------


_CARD = Refusal("tic-tac-match.error.bad_card", '"card" must be the integer id of a card in your hand')


def _on_grid(cell: tuple[int, int]) -> tuple[int, int]:
    if not all(0 <= v <= 2 for v in cell):
        raise ValueError(f"{list(cell)} is off the grid")
    return cell


class Play(ActionModel):
    type: Literal["play"]
    card: Annotated[int, _CARD]
    cell: Annotated[
        Pair,
        AfterValidator(_on_grid),
        Refusal("tic-tac-match.error.bad_cell", '"cell" must be [row, column] with both from 0 to 2'),
    ]


class Flip(ActionModel):
    type: Literal["flip"]
    card: Annotated[int, _CARD]


class Wipeout(ActionModel):
    type: Literal["wipeout"]
    card: Annotated[int, _CARD]
    target: Annotated[int, Refusal("tic-tac-match.error.bad_target", '"target" must be a seat number')]


class Double(ActionModel):
    type: Literal["double"]
    card: Annotated[int, _CARD]


class Discard(ActionModel):
    type: Literal["discard"]
    card: Annotated[int, _CARD]


class Forfeit(ActionModel):
    type: Literal["forfeit"]


TicTacMatchAction = Play | Flip | Wipeout | Double | Discard | Forfeit
ACTIONS = Actions[TicTacMatchAction](Play, Flip, Wipeout, Double, Discard, Forfeit)


class TicTacMatchEngine(Engine[TicTacMatchState, TicTacMatchOptions, TicTacMatchAction]):
    name = "tic-tac-match"
    actions = ACTIONS
    state_type = TicTacMatchState
    title = "Tic Tac Match"
    options_model = TicTacMatchOptions

    # ---- options and seats -----------------------------------------------------------------------

    def seats(self, options: TicTacMatchOptions) -> list[SeatInfo]:
        if options.players == 4:
            return [SeatInfo(f"Player {i + 1}", team=i % 2) for i in range(4)]
        return [SeatInfo(f"Player {i + 1}") for i in range(2)]

    def options_of(self, state: TicTacMatchState) -> TicTacMatchOptions:
        return TicTacMatchOptions(players=4 if state.players == 4 else 2, series=state.series)

    @staticmethod
    def _label(seat: Seat) -> str:
        return f"Player {seat + 1}"

    # ---- setting up ------------------------------------------------------------------------------

    def new_game(self, options: TicTacMatchOptions, seed: int) -> TicTacMatchState:
        rng = random.Random(seed)
        n = options.players
        state = TicTacMatchState(
            players=n,
            series=options.series,
            salt=rng.getrandbits(62),
            match=1,
            dealer=rng.randrange(n),
            wins=(0, 0),
            id_symbol=0,
            draw=(),
            discard=(),
            cells=((),) * 9,
            hands=((),) * n,
            turn=0,
            plays_left=0,
            shuffles=0,
            results=(),
        )
        return self._start_match(state, [])

    @staticmethod
    def _rng(state: TicTacMatchState, shuffles: int) -> random.Random:
        # String seeds are hashed with SHA-512: stable across runs and platforms.
        return random.Random(f"tic-tac-match:{state.salt}:{state.match}:{shuffles}")

    def _start_match(self, s: TicTacMatchState, events: list[Event]) -> TicTacMatchState:
        n = s.players
        deck = list(range(DECK_SIZE))
        self._rng(s, 0).shuffle(deck)
        hands: list[list[int]] = [[] for _ in range(n)]
        for _ in range(HAND_SIZE):
            for k in range(1, n + 1):
                hands[(s.dealer + k) % n].append(deck.pop())
        turned: list[int] = []
        while True:  # 44 cards remain and at most 12 of them are not Symbol cards
            card = deck.pop()
            turned.append(card)
            if card_kind(card) == "symbol":
                break
        symbol = card_type(turned[-1]) % 2
        s = s.changed(
            shuffles=1,
            draw=tuple(deck),
            discard=tuple(turned[:-1]),
            cells=tuple((turned[-1],) if i == CENTRE else () for i in range(9)),
            hands=tuple(tuple(hand) for hand in hands),
            plays_left=0,
            id_symbol=symbol if s.dealer % 2 == 0 else 1 - symbol,
        )
        events.append(
            Event(
                "match_start",
                public={
                    "match": s.match,
                    "dealer": s.dealer,
                    "turned_up": [card_json(c) for c in turned],
                    "centre": card_json(turned[-1]),
                    "ids": self._ids(s),
                    "hand_sizes": [len(h) for h in s.hands],
                    "draw_count": len(s.draw),
                },
                private={seat: {"hand": [card_json(c) for c in s.hands[seat]]} for seat in range(n)},
            )
        )
        return self._begin_turn(s, (s.dealer + 1) % n, events)

    @staticmethod
    def _ids(s: TicTacMatchState) -> list[JSON]:
        return [SYMBOLS[s.seat_symbol(seat)] for seat in range(s.players)]

    # ---- drawing ---------------------------------------------------------------------------------

    def _reshuffle(self, s: TicTacMatchState, events: list[Event]) -> TicTacMatchState:
        covered = [card for stack in s.cells for card in stack[:-1]]
        pool = sorted([*s.discard, *covered])
        if not pool:
            return s
        self._rng(s, s.shuffles).shuffle(pool)
        events.append(
            Event(
                "reshuffle",
                public={"from_discard": len(s.discard), "from_grid": len(covered), "draw_count": len(pool)},
            )
        )
        cells = tuple(stack[-1:] for stack in s.cells)
        return s.changed(discard=(), cells=cells, shuffles=s.shuffles + 1, draw=tuple(pool))

    def _refill(self, s: TicTacMatchState, seat: Seat, events: list[Event]) -> tuple[TicTacMatchState, Cards]:
        """Draw from the top up to a hand of 4 (reshuffling when the pile runs out); the cards drawn."""
        drawn: Cards = ()
        need = HAND_SIZE - len(s.hands[seat])
        while len(drawn) < need:
            if not s.draw:
                s = self._reshuffle(s, events)
                if not s.draw:
                    break
            rest = max(len(s.draw) - (need - len(drawn)), 0)
            drawn += s.draw[rest:][::-1]  # the top card is the last
            s = s.changed(draw=s.draw[:rest])
        if drawn:
            s = s.with_hand(seat, s.hands[seat] + drawn)
        return s, drawn

    def _draw_event(self, s: TicTacMatchState, seat: Seat, drawn: Cards, events: list[Event]) -> None:
        if drawn:
            events.append(
                Event(
                    "draw",
                    public={"seat": seat, "count": len(drawn), "draw_count": len(s.draw)},
                    private={seat: {"cards": [card_json(c) for c in drawn]}},
                )
            )

    @staticmethod
    def _discard_hand(s: TicTacMatchState, seat: Seat) -> TicTacMatchState:
        return s.changed(discard=s.discard + s.hands[seat]).with_hand(seat, ())

    @staticmethod
    def _discard_top(s: TicTacMatchState) -> JSON:
        return card_json(s.discard[-1]) if s.discard else None

    def _hand_replaced(
        self, kind: str, s: TicTacMatchState, seat: Seat, discarded: int, extra: dict[str, JSON]
    ) -> Event:
        return Event(
            kind,
            public={
                "seat": seat,
                **extra,
                "discarded": discarded,
                "hand_size": len(s.hands[seat]),
                "discard_top": self._discard_top(s),
                "discard_count": len(s.discard),
                "draw_count": len(s.draw),
            },
            private={seat: {"hand": [card_json(c) for c in s.hands[seat]]}},
        )

    # ---- turns -----------------------------------------------------------------------------------

    def _begin_turn(self, s: TicTacMatchState, seat: Seat, events: list[Event]) -> TicTacMatchState:
        """Give ``seat`` the turn, redrawing stuck hands (up to 10 times, then the turn passes on)."""
        while True:
            redraws = 0
            while not has_legal_play(s, seat) and redraws < MAX_REDRAWS:
                discarded = len(s.hands[seat])
                s, _ = self._refill(self._discard_hand(s, seat), seat, events)
                redraws += 1
                events.append(self._hand_replaced("stuck", s, seat, discarded, {"redraw": redraws}))
            if has_legal_play(s, seat):
                return s.changed(turn=seat)
            events.append(Event("pass", public={"seat": seat, "redraws": redraws}))
            seat = (seat + 1) % s.players

    def _end_turn(self, s: TicTacMatchState, seat: Seat, events: list[Event]) -> TicTacMatchState:
        s, drawn = self._refill(s.changed(plays_left=0), seat, events)
        self._draw_event(s, seat, drawn, events)
        return self._begin_turn(s, (seat + 1) % s.players, events)

    def _after_play(self, s: TicTacMatchState, seat: Seat, events: list[Event]) -> TicTacMatchState:
        """Continue after a Symbol or Flip play that did not end the match."""
        if s.plays_left == 2:
            s = s.changed(plays_left=1)
            hand = s.hands[seat]
            if has_symbol_or_flip_play(s, hand) or any(card_kind(c) in ("wipeout", "double") for c in hand):
                return s  # the second play is the player's to choose
            events.append(Event("forfeit", public={"seat": seat, "automatic": True}))
        return self._end_turn(s, seat, events)

    def _end_match(self, s: TicTacMatchState, seat: Seat, cell: int, events: list[Event]) -> TicTacMatchState:
        tops = s.tops()
        lines = completed_lines(tops, cell)
        t = card_type(s.cells[cell][-1])
        symbol = t % 2
        side = 0 if s.id_symbol == symbol else 1
        wins = (s.wins[0] + 1, s.wins[1]) if side == 0 else (s.wins[0], s.wins[1] + 1)
        result: dict[str, JSON] = {
            "match": s.match,
            "dealer": s.dealer,
            "side": side,
            "seats": [x for x in range(s.players) if x % 2 == side],
            "placed_by": seat,
            "colour": COLOURS[t // 2],
            "symbol": SYMBOLS[symbol],
            "line": [rc(i) for i in lines[0]],
            "lines": [[rc(i) for i in line] for line in lines],
            "ids": self._ids(s),
            "grid": [card_face(c) if c is not None else None for c in tops],
            "score": list(wins),
        }
        s = s.changed(wins=wins, results=(*s.results, result))
        series_over = wins[side] >= s.series
        events.append(Event("match_won", public={**_plain(result), "series_over": series_over}))
        if series_over:
            return s.changed(turn=None, plays_left=0)
        return self._start_match(s.changed(match=s.match + 1, dealer=(s.dealer + 1) % s.players), events)

    # ---- playing ---------------------------------------------------------------------------------

    def to_act(self, state: TicTacMatchState) -> frozenset[Seat]:
        return frozenset() if state.turn is None else frozenset({state.turn})

    def legal_actions(self, state: TicTacMatchState, seat: Seat) -> list[Action]:
        if state.turn is None or seat != state.turn:
            return []
        hand = state.hands[seat]
        actions: list[Action] = []
        if in_fallback(state):
            for card in hand:
                if card_kind(card) in ("wipeout", "double"):
                    actions.append({"type": "discard", "card": card})
            actions.append({"type": "forfeit"})
            return actions
        ordinary = state.plays_left == 0
        double_ok = ordinary and has_symbol_or_flip_play(state, hand)
        for card in hand:
            kind = card_kind(card)
            if kind == "symbol":
                for cell in legal_cells(state, card):
                    actions.append({"type": "play", "card": card, "cell": rc(cell)})
            elif kind == "flip":
                actions.append({"type": "flip", "card": card})
            elif kind == "wipeout" and ordinary:
                for target in range(state.players):
                    if target != seat:
                        actions.append({"type": "wipeout", "card": card, "target": target})
            elif kind == "double" and double_ok:
                actions.append({"type": "double", "card": card})
        return actions

    def _validate(self, state: TicTacMatchState, seat: Seat, kind: str) -> None:
        """Check the turn and the phase for an action of type ``kind``."""
        if state.turn is None:
            raise IllegalAction("the game is over", "action.game_over")
        check_seat(seat, state.players)
        if seat != state.turn:
            raise IllegalAction(f"it is seat {state.turn}'s turn, not yours", "action.turn_of", {"seat": state.turn})
        if kind in ("discard", "forfeit"):
            if state.plays_left == 0:
                raise IllegalAction(
                    f"you can only {kind} as the second play of a Double Play", "tic-tac-match.error.no_second_play"
                )
            if state.plays_left == 2:
                raise IllegalAction(
                    "the first play after a Double Play must be a Symbol or Flip card",
                    "tic-tac-match.error.first_of_double",
                )
            if not in_fallback(state):
                raise IllegalAction(
                    "you have a legal Symbol or Flip play: the second play must be one of them",
                    "tic-tac-match.error.second_must_play",
                )
        elif kind in ("wipeout", "double") and state.plays_left > 0:
            raise IllegalAction(
                f"after a Double Play you must play Symbol or Flip cards, not a {kind}",
                "tic-tac-match.error.after_double",
            )
        elif kind in ("play", "flip") and in_fallback(state):
            raise IllegalAction("you have no legal Symbol or Flip play", "tic-tac-match.error.no_symbol_play")

    @staticmethod
    def _in_hand(state: TicTacMatchState, seat: Seat, card: int, kinds: tuple[str, ...]) -> int:
        if card not in state.hands[seat]:
            raise IllegalAction(f"card {card} is not in your hand", "tic-tac-match.error.not_in_hand")
        if card_kind(card) not in kinds:
            raise IllegalAction(
                f"card {card} is not one of {kinds}", "tic-tac-match.error.wrong_card", {"card": card_face(card)}
            )
        return card

    def apply(self, state: TicTacMatchState, seat: Seat, action: Action) -> tuple[TicTacMatchState, list[Event]]:
        return self.play(state, seat, ACTIONS.parse(action))

    def play(
        self, state: TicTacMatchState, seat: Seat, action: TicTacMatchAction
    ) -> tuple[TicTacMatchState, list[Event]]:
        """``apply`` of an action already parsed."""
        self._validate(state, seat, action.type)
        if isinstance(action, Play):
            return self._play(state, seat, action)
        if isinstance(action, Flip):
            card = self._in_hand(state, seat, action.card, ("flip",))
            s = state.discarded(seat, card).changed(id_symbol=1 - state.id_symbol)
            events = [Event("flip", public={"seat": seat, "card": card_json(card), "ids": self._ids(s)})]
            return self._after_play(s, seat, events), events
        if isinstance(action, Wipeout):
            return self._wipeout(state, seat, action)
        if isinstance(action, Double):
            card = self._in_hand(state, seat, action.card, ("double",))
            rest = list(state.hands[seat])
            rest.remove(card)
            if not has_symbol_or_flip_play(state, rest):
                raise IllegalAction(
                    "Double Play needs a legal Symbol or Flip play to follow it",
                    "tic-tac-match.error.double_needs_play",
                )
            s = state.discarded(seat, card).changed(plays_left=2)
            return s, [Event("double", public={"seat": seat, "card": card_json(card)})]
        if isinstance(action, Discard):
            card = self._in_hand(state, seat, action.card, ("wipeout", "double"))
            s = state.discarded(seat, card)
            events = [Event("discard", public={"seat": seat, "card": card_json(card)})]
        else:  # forfeit
            s = state
            events = [Event("forfeit", public={"seat": seat, "automatic": False})]
        return self._end_turn(s, seat, events), events

    def _play(self, state: TicTacMatchState, seat: Seat, action: Play) -> tuple[TicTacMatchState, list[Event]]:
        card = self._in_hand(state, seat, action.card, ("symbol",))
        cell = action.cell[0] * 3 + action.cell[1]
        stack = state.cells[cell]
        if stack and not can_stack(card, stack[-1]):
            top = stack[-1]
            code = (
                "tic-tac-match.error.matches_both"
                if card_type(card) == card_type(top)
                else "tic-tac-match.error.matches_neither"
            )
            raise IllegalAction(
                f"card {card} cannot go on card {top}: it must match the colour or the symbol, not both",
                code,
                {"card": card_face(card), "top_card": card_face(top), "cell": rc(cell)},
            )
        cells = (*state.cells[:cell], (*stack, card), *state.cells[cell + 1 :])
        s = state.changed(hands=state.hands_without(seat, card), cells=cells)
        events = [
            Event(
                "play",
                public={
                    "seat": seat,
                    "card": card_json(card),
                    "cell": rc(cell),
                    "height": len(s.cells[cell]),
                },
            )
        ]
        if completed_lines(s.tops(), cell):
            return self._end_match(s, seat, cell, events), events
        return self._after_play(s, seat, events), events

    def _wipeout(self, state: TicTacMatchState, seat: Seat, action: Wipeout) -> tuple[TicTacMatchState, list[Event]]:
        card = self._in_hand(state, seat, action.card, ("wipeout",))
        target = action.target
        if not 0 <= target < state.players:
            raise IllegalAction(
                f'"target" must be a seat number from 0 to {state.players - 1}', "tic-tac-match.error.bad_target"
            )
        if target == seat:
            raise IllegalAction("you may never play Wipe-Out on yourself", "tic-tac-match.error.wipe_self")
        events = [Event("wipeout", public={"seat": seat, "card": card_json(card), "target": target})]
        s, drawn = self._refill(state.discarded(seat, card), seat, events)
        self._draw_event(s, seat, drawn, events)  # the replacement, at once
        discarded = len(s.hands[target])
        s, _ = self._refill(self._discard_hand(s, target), target, events)
        events.append(self._hand_replaced("wiped_out", s, target, discarded, {"by": seat}))
        return self._begin_turn(s, target, events), events

    # ---- views -----------------------------------------------------------------------------------

    def view(self, state: TicTacMatchState, seat: Seat | None) -> dict[str, JSON]:
        """What ``seat`` may know (``None``: a spectator).

        Everyone: the grid (top card and height of each cell), discard top and count, draw count, hand sizes,
        ID symbols, sides and score, whose turn it is, a pending Double Play, finished matches. The seat
        alone: its own hand, each card annotated with its legal uses when it is that seat's turn. Never: other
        hands, the draw-pile order, covered cards, the discard pile below its top.
        """
        s = state
        tops = s.tops()
        grid: list[JSON] = [
            [
                {
                    "top": card_json(top) if (top := tops[r * 3 + c]) is not None else None,
                    "height": len(s.cells[r * 3 + c]),
                }
                for c in range(3)
            ]
            for r in range(3)
        ]
        result = s.results[-1] if s.over and s.results else None
        mine = seat if seat is not None and 0 <= seat < s.players else None
        return {
            "players": s.players,
            "series": s.series,
            "match": s.match,
            "dealer": s.dealer,
            "turn": s.turn,
            "you": mine,
            "your_side": mine % 2 if mine is not None else None,
            "ids": self._ids(s),
            "sides": [
                {
                    "side": side,
                    "seats": [x for x in range(s.players) if x % 2 == side],
                    "symbol": SYMBOLS[s.side_symbol(side)],
                    "wins": s.wins[side],
                }
                for side in (0, 1)
            ],
            "grid": grid,
            "draw_count": len(s.draw),
            "discard_count": len(s.discard),
            "discard_top": self._discard_top(s),
            "hand_sizes": [len(h) for h in s.hands],
            "hand": self._hand_view(s, mine) if mine is not None else None,
            "double": self._double_view(s, mine),
            "can_forfeit": mine is not None and mine == s.turn and in_fallback(s),
            "matches": _plain(s.results),
            "over": s.over,
            "winner_side": result["side"] if result is not None else None,
            "winners": _plain(result["seats"]) if result is not None else [],
            "winning_line": _plain(result["line"]) if result is not None else None,
            "winning_lines": _plain(result["lines"]) if result is not None else [],
        }

    @staticmethod
    def _double_view(s: TicTacMatchState, seat: Seat | None) -> JSON:
        if not s.plays_left or s.turn is None:
            return None
        double: dict[str, JSON] = {"seat": s.turn, "plays_left": s.plays_left}
        if seat == s.turn:  # whether a Symbol/Flip play is left depends on the hand: the player's secret
            double["fallback"] = in_fallback(s)
        return double

    def _hand_view(self, s: TicTacMatchState, seat: Seat) -> list[JSON]:
        my_turn = seat == s.turn
        fallback = my_turn and in_fallback(s)
        ordinary = my_turn and s.plays_left == 0
        double_ok = ordinary and has_symbol_or_flip_play(s, s.hands[seat])
        cards: list[JSON] = []
        for card in s.hands[seat]:
            entry = card_json(card)
            kind = card_kind(card)
            if kind == "symbol":
                cells = [rc(i) for i in legal_cells(s, card)] if my_turn and not fallback else []
                entry["cells"] = cells
                entry["playable"] = bool(cells)
            elif kind == "flip":
                entry["playable"] = my_turn and not fallback
            elif kind == "wipeout":
                entry["targets"] = [t for t in range(s.players) if t != seat] if ordinary else []
                entry["playable"] = ordinary
            else:
                entry["playable"] = double_ok
            if kind in ("wipeout", "double"):
                entry["discardable"] = fallback
            cards.append(entry)
        return cards

    # ---- timeouts, outcome, text -----------------------------------------------------------------

    def timeout_action(self, state: TicTacMatchState, seat: Seat) -> Action:
        """The default move of an absent player (documented in docs/games/tic-tac-match.md).

        A Symbol play that wins for the player's side; else the first Symbol play (hand order, cells in
        reading order) that does not complete a line for the other side; else a Flip; else a Wipe-Out on the
        next player; else the first legal action. In the Double Play fallback: forfeit (keeping the cards).
        """
        actions = self.legal_actions(state, seat)
        if not actions:
            raise IllegalAction(f"{self._label(seat)} is not to act")
        if in_fallback(state):
            return {"type": "forfeit"}
        mine = state.seat_symbol(seat)
        tops = state.tops()
        safe: list[Action] = []
        for a in actions:
            if a["type"] != "play":
                continue
            winner = play_result(tops, a["card"], a["cell"][0] * 3 + a["cell"][1])
            if winner == mine:
                return a
            if winner is None:
                safe.append(a)
        if safe:
            return safe[0]
        flips = [a for a in actions if a["type"] == "flip"]
        if flips:
            return flips[0]
        nxt = (seat + 1) % state.players
        for a in actions:
            if a["type"] == "wipeout" and a["target"] == nxt:
                return a
        return actions[0]

    def outcome(self, state: TicTacMatchState) -> Outcome | None:
        if not state.over:
            return None
        side = 0 if state.wins[0] > state.wins[1] else 1
        scores = [float(state.wins[seat % 2]) for seat in range(state.players)]
        last = state.results[-1]
        winners = [seat for seat in range(state.players) if seat % 2 == side]
        params: dict[str, JSON] = {"seats": winners, "count": len(winners), "card": _last_card(last)}
        if state.series == 1:
            summary = LogEntry("tic-tac-match.result.won", params)
        else:
            wins = {"wins": state.wins[side], "other_wins": state.wins[1 - side]}
            summary = LogEntry("tic-tac-match.result.series", {**params, **wins})
        return Outcome(
            scores=scores,
            winners=winners,
            ranks=ranks_from_scores(scores),
            summary=summary,
        )

    def log_entries(
        self,
        state: TicTacMatchState,
        seat: Seat,
        action: Action,
        result: tuple[TicTacMatchState, list[Event]],
    ) -> list[LogEntry]:
        """The play and what followed it (a redraw, a reshuffle, a match won, the next deal), from the public
        side of its events; draws are not news."""
        entries: list[LogEntry] = []
        for event in result[1]:
            data = event.public
            kind = event.kind
            card = _face(data.get("card"))
            if kind == "play":
                params: dict[str, JSON] = {"seat": data["seat"], "card": card, "cell": data["cell"]}
                if int(data["height"]) > 1:
                    entries.append(LogEntry("tic-tac-match.log.stacked", {**params, "height": data["height"]}))
                else:
                    entries.append(LogEntry("tic-tac-match.log.played", params))
            elif kind == "flip":
                entries.append(LogEntry("tic-tac-match.log.flipped", {"seat": data["seat"]}))
            elif kind == "wipeout":
                entries.append(
                    LogEntry("tic-tac-match.log.wiped_out", {"seat": data["seat"], "target_seat": data["target"]})
                )
            elif kind == "double":
                entries.append(LogEntry("tic-tac-match.log.double", {"seat": data["seat"]}))
            elif kind == "discard":
                entries.append(LogEntry("tic-tac-match.log.discarded", {"seat": data["seat"], "card": card}))
            elif kind == "forfeit":
                key = "tic-tac-match.log.no_second_play" if data["automatic"] else "tic-tac-match.log.forfeited"
                entries.append(LogEntry(key, {"seat": data["seat"]}))
            elif kind == "reshuffle":
                params = {"discards": data["from_discard"], "grid_cards": data["from_grid"]}
                entries.append(LogEntry("tic-tac-match.log.reshuffled", params))
            elif kind == "stuck":
                entries.append(LogEntry("tic-tac-match.log.redrew", {"seat": data["seat"], "redraw": data["redraw"]}))
            elif kind == "pass":
                entries.append(LogEntry("tic-tac-match.log.passed", {"seat": data["seat"]}))
            elif kind == "match_won":
                seats = list(data["seats"])
                params = {"seats": seats, "count": len(seats), "card": _last_card(data), "match": data["match"]}
                entries.append(LogEntry("tic-tac-match.log.match_won", params))
            elif kind == "match_start" and int(data["match"]) > 1:
                params = {"match": data["match"], "seat": data["dealer"], "card": _face(data["centre"])}
                entries.append(LogEntry("tic-tac-match.log.dealt", params))
        return entries

    # ---- serialisation ---------------------------------------------------------------------------

    def dump(self, state: TicTacMatchState) -> dict[str, JSON]:
        s = state
        return {
            "players": s.players,
            "series": s.series,
            "salt": s.salt,
            "match": s.match,
            "dealer": s.dealer,
            "wins": list(s.wins),
            "id_symbol": s.id_symbol,
            "draw": list(s.draw),
            "discard": list(s.discard),
            "cells": [list(stack) for stack in s.cells],
            "hands": [list(hand) for hand in s.hands],
            "turn": s.turn,
            "plays_left": s.plays_left,
            "shuffles": s.shuffles,
            "results": _plain(s.results),
        }

    def read_state(self, data: Mapping[str, JSON]) -> TicTacMatchState:
        wins = [int(w) for w in data["wins"]]
        state = TicTacMatchState(
            players=int(data["players"]),
            series=int(data["series"]),
            salt=int(data["salt"]),
            match=int(data["match"]),
            dealer=int(data["dealer"]),
            wins=(wins[0], wins[1]),
            id_symbol=int(data["id_symbol"]),
            draw=tuple(int(c) for c in data["draw"]),
            discard=tuple(int(c) for c in data["discard"]),
            cells=tuple(tuple(int(c) for c in stack) for stack in data["cells"]),
            hands=tuple(tuple(int(c) for c in hand) for hand in data["hands"]),
            turn=None if data["turn"] is None else int(data["turn"]),
            plays_left=int(data["plays_left"]),
            shuffles=int(data["shuffles"]),
            results=tuple(_plain(data["results"])),
        )
        every = [*state.draw, *state.discard, *(c for st in (*state.cells, *state.hands) for c in st)]
        if sorted(every) != list(range(DECK_SIZE)) or len(state.cells) != 9 or len(state.hands) != state.players:
            raise InvalidState("not a Tic Tac Match state: the cards do not make up one deck")
        return state


# ---- the bot ---------------------------------------------------------------------------------------


def threats(tops: Sequence[int | None]) -> set[tuple[int, int]]:
    """(type, open cell): two tops of one type in a line whose third cell a card of that type could take."""
    types = [card_type(t) if t is not None else None for t in tops]
    found: set[tuple[int, int]] = set()
    for line in LINES:
        for k, open_cell in enumerate(line):
            x, y = (types[i] for j, i in enumerate(line) if j != k)
            if x is None or x != y:
                continue
            other = types[open_cell]
            if other is None or types_stack(x, other):
                found.add((x, open_cell))
    return found


class TicTacMatchBot(Bot[TicTacMatchState]):
    """A one-turn lookahead on public information and its own hand only.

    It completes a winning line when it can (a Double Play is searched over both of its plays), never
    completes one for the other side, and values the position it leaves by the open "two in a line" threats
    each side could finish: an open threat of the other side's symbol with an opponent to move is very bad, so
    it blocks it (covers one of its cards or its open cell) or plays Flip to turn it round. Action cards have
    a small cost, so it keeps them unless they gain something.
    """

    WIN = 1000.0
    COST: Mapping[str, float] = {"flip": 1.0, "wipeout": 1.5, "double": 1.0, "discard": 0.5, "forfeit": 0.0}

    def __init__(self, engine: TicTacMatchEngine) -> None:
        self.engine = engine

    def choose(self, state: TicTacMatchState, seat: Seat, rng: Any) -> Action:
        actions = self.engine.legal_actions(state, seat)
        if not actions:
            raise IllegalAction("the bot's seat is not to act")
        if len(actions) == 1:
            return actions[0]
        best: list[Action] = []
        best_score = -float("inf")
        for action in actions:
            score = self.score(state, seat, action)
            if score > best_score + 1e-9:
                best, best_score = [action], score
            elif score > best_score - 1e-9:
                best.append(action)
        return best[0] if len(best) == 1 else best[rng.randrange(len(best))]

    def score(self, state: TicTacMatchState, seat: Seat, action: Action) -> float:
        """The value of ``action`` for ``seat`` (public information and the seat's own hand only)."""
        side = seat % 2
        symbol = state.seat_symbol(seat)
        tops = state.tops()
        hand = state.hands[seat]
        next_side = (seat + 1) % state.players % 2
        kind = action["type"]
        if kind == "wipeout":
            return self._position(tops, symbol, side, action["target"] % 2) - self.COST[kind]
        if kind in ("discard", "forfeit"):
            return self._position(tops, symbol, side, next_side) - self.COST[kind]
        if kind == "double":
            rest = list(hand)
            rest.remove(action["card"])
            return self._best(tops, symbol, side, next_side, rest, 2) - self.COST[kind]
        plays_after = 1 if state.plays_left == 2 else 0
        return self._value(tops, symbol, side, next_side, hand, action, plays_after)

    def _value(
        self,
        tops: list[int | None],
        symbol: int,
        side: int,
        next_side: int,
        hand: Sequence[int],
        action: Action,
        plays_after: int,
    ) -> float:
        card = action["card"]
        if action["type"] == "play":
            cell = action["cell"][0] * 3 + action["cell"][1]
            winner = play_result(tops, card, cell)
            if winner is not None:
                return self.WIN if winner == symbol else -self.WIN
            after = list(tops)
            after[cell] = card
            cost = 0.0
        else:  # flip
            after, symbol, cost = tops, 1 - symbol, self.COST["flip"]
        if plays_after:
            rest = list(hand)
            rest.remove(card)
            return self._best(after, symbol, side, next_side, rest, plays_after) - cost
        return self._position(after, symbol, side, next_side) - cost

    def _best(
        self, tops: list[int | None], symbol: int, side: int, next_side: int, hand: list[int], plays: int
    ) -> float:
        """The best value over the next ``plays`` Symbol/Flip plays from ``hand``."""
        best = -float("inf")
        for card in hand:
            kind = card_kind(card)
            if kind == "symbol":
                options: list[Action] = [
                    {"type": "play", "card": card, "cell": rc(i)}
                    for i, top in enumerate(tops)
                    if top is None or can_stack(card, top)
                ]
            elif kind == "flip":
                options = [{"type": "flip", "card": card}]
            else:
                continue
            for option in options:
                best = max(best, self._value(tops, symbol, side, next_side, hand, option, plays - 1))
        if best == -float("inf"):  # nothing more can be played: the turn ends here
            return self._position(tops, symbol, side, next_side)
        return best

    @staticmethod
    def _position(tops: Sequence[int | None], symbol: int, side: int, mover_side: int) -> float:
        """How good the grid is for ``side`` (showing ``symbol``) when ``mover_side`` plays next: each open
        threat of our symbol counts 8 (2 when the other side moves next), each of theirs -2 (-10), plus a
        little shape: 0.1 for each of our symbol's tops in each line that still has an empty cell."""
        types = tuple(None if top is None else top // COPIES for top in tops)
        terms = _GRID_TERMS.get(types)
        if terms is None:
            if len(_GRID_TERMS) >= _GRID_TERMS_MAX:
                _GRID_TERMS.clear()
            terms = _GRID_TERMS[types] = _grid_terms(types)
        ours, theirs = terms[symbol], terms[1 - symbol]
        if mover_side == side:
            return 8.0 * ours[0] - 2.0 * theirs[0] + 0.1 * ours[1]
        return 2.0 * ours[0] - 10.0 * theirs[0] + 0.1 * ours[1]


_Terms = tuple[tuple[int, int], tuple[int, int]]
_GRID_TERMS: dict[tuple[int | None, ...], _Terms] = {}
_GRID_TERMS_MAX = 1 << 18
"""The bot values the same grids over and over (the strong bot's playouts above all): their terms are kept."""


def _grid_terms(types: tuple[int | None, ...]) -> _Terms:
    """Per symbol: the number of its open threats (as ``threats`` counts them) and its shape count."""
    found: set[tuple[int, int]] = set()
    shape = [0, 0]
    for line in LINES:
        a, b, c = (types[i] for i in line)
        for x, y, other, open_cell in ((a, b, c, line[2]), (a, c, b, line[1]), (b, c, a, line[0])):
            if x is not None and x == y and (other is None or types_stack(x, other)):
                found.add((x, open_cell))
        if a is None or b is None or c is None:
            for t in (a, b, c):
                if t is not None:
                    shape[t % 2] += 1
    count = [0, 0]
    for t, _cell in found:
        count[t % 2] += 1
    return ((count[0], shape[0]), (count[1], shape[1]))


ENGINE = TicTacMatchEngine()
BOT = TicTacMatchBot(ENGINE)
