"""Trick-Tac-Foe: trick-taking on a shared 3×3 grid, 1v1 or 2v2 (rules:
docs/games/trick-tac-foe.md).

Rules as implemented:

- 40 unique cards, A–10 in ♠ ♥ ♦ ♣. Card codes are ``"A"``, ``"2"`` … ``"10"`` followed by ``S H D C``
  (``"AS"``, ``"7H"``, ``"10C"``). Order: rank first (10 high, A = 1 low), then suit ♠ > ♥ > ♦ > ♣, so every
  trick has exactly one winner.
- Seats. 2 players: seat 0 = South (Black), seat 1 = North (Red). 4 players, clockwise: seat 0 = North,
  1 = East, 2 = South, 3 = West; teams Red (team 0) = North + East, Black (team 1) = South + West. The pairs
  that play each other are North–South and East–West. In a 2-player game Red/Black are the two players'
  colours and the "team" of a seat is its colour.
- The grid is stored in one canonical frame: cell ``(r, c)``, row 0 on the North edge, column 0 on the West
  edge. A card value ``k`` names a cell per seat (``cell_for``), ``number_for`` is the inverse.
- Deal: each round the 40 cards are shuffled (from the seed) and dealt one at a time, round the table, face
  down into personal decks (2p: 20 each, 4p: 10 each); everyone draws 4 from the top of their own deck.
- A trick (2p): both commit a card face down, then both are revealed. The winner resolves: A–9 → the cell
  for that value from the winner's seat, 10 → the winner picks any cell (a separate ``wild`` action). Empty →
  place own colour; other colour → flip; own colour → nothing. Then scoring is checked, both cards go to the
  discard pile and both draw up to 4. Nothing depends on a starting player in the 2-player game, so it has
  none.
- A trick set (4p): all four commit. The pair holding the starting player reveals and resolves first
  (including a wild choice), scoring is checked, then the other pair reveals and resolves on the board as it
  now is. Then the four cards are discarded, everyone draws up to 4 and the starting position passes
  clockwise N → E → S → W (the first one is drawn from the seed; it never resets).
- Scoring: after every board action only the actor's colour is checked; any line of three → +1 for the team
  (at most 1 per action) and the whole grid is cleared.
- A round ends when all cards are played (2p: 20 tricks; 4p: 10 trick sets); leftover tokens do not score
  and the grid is cleared. Standard game: 2 rounds (2p) / 3 rounds (4p); one-shot: 1 round. Most points wins;
  equal is a draw.
- Hidden: hands, personal decks (order and content), committed cards until their pair's reveal — hidden from
  everyone else, teammates included. Public: revealed cards, the discard pile, hand and deck sizes, scores,
  who has committed.
- Timeout: commit the lowest card; a wild chooser takes the lowest number (from their view) whose cell would
  change, else 1.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Annotated, Any, Literal, TypeVar

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
    Timer,
    check_seat,
    one_of,
    ranks_from_scores,
)

Cell = tuple[int, int]
Phase = Literal["commit", "wild", "over"]
T = TypeVar("T")

# ---- cards --------------------------------------------------------------------------------------------

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")
SUITS: tuple[str, ...] = ("C", "D", "H", "S")  # low to high: ♣ < ♦ < ♥ < ♠
SUIT_GLYPHS: dict[str, str] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
HAND_SIZE = 4


ALL_CARDS: tuple[str, ...] = tuple(rank + suit for rank in RANKS for suit in SUITS)  # lowest first
CARD_SET = frozenset(ALL_CARDS)
_STRENGTH: dict[str, int] = {card: i for i, card in enumerate(ALL_CARDS)}  # looked up in every trick and playout


def card_rank(code: str) -> int:
    """1 (Ace) … 10."""
    return _STRENGTH[code] // 4 + 1


def card_strength(code: str) -> int:
    """A total order on the 40 cards: rank first, then suit ♠ > ♥ > ♦ > ♣ (A♣ = 0 … 10♠ = 39)."""
    return _STRENGTH[code]


def card_text(code: str) -> str:
    """``"7S"`` → ``"7♠"``."""
    return code[:-1] + SUIT_GLYPHS[code[-1]]


def sort_cards(cards: Iterable[str]) -> list[str]:
    return sorted(cards, key=card_strength)


# ---- seats, teams and perspective --------------------------------------------------------------------

DIRECTIONS: tuple[str, ...] = ("North", "East", "South", "West")
LABELS_2P: tuple[str, ...] = ("South", "North")
LABELS_4P: tuple[str, ...] = ("North", "East", "South", "West")
COLOURS: tuple[str, ...] = ("red", "black")
ROTATION: dict[str, int] = {"South": 0, "East": 90, "North": 180, "West": 270}
"""Clockwise degrees to turn the North-up canonical drawing so that this seat sits at the bottom."""


def _direction(name: str) -> str:
    if name in DIRECTIONS:  # the rules and bots always pass a label: skip the normalising
        return name
    key = name.strip().lower()
    for d in DIRECTIONS:
        if key in (d.lower(), d[0].lower()):
            return d
    raise ValueError(f"unknown seat direction {name!r}; expected North, East, South or West")


def _cell_for(direction: str, k: int) -> Cell:
    a, b = divmod(k - 1, 3)
    if direction == "South":
        return (a, b)
    if direction == "North":
        return (2 - a, 2 - b)
    if direction == "West":
        return (b, 2 - a)
    return (2 - b, a)  # East


_CELL_TABLE: dict[str, dict[int, Cell]] = {d: {k: _cell_for(d, k) for k in range(1, 10)} for d in DIRECTIONS}
_NUMBER_TABLE: dict[str, dict[Cell, int]] = {
    d: {cell: k for k, cell in table.items()} for d, table in _CELL_TABLE.items()
}


def cell_for(direction: str, k: int) -> Cell:
    """The canonical cell ``(r, c)`` that card value ``k`` (1–9) names for a seat.

    ``direction`` is a seat label or direction: ``"South"``, ``"north"``, ``"W"``…
    South reads ``(a, b)``, North ``(2-a, 2-b)``, West ``(b, 2-a)``, East ``(2-b, a)`` with
    ``a, b = divmod(k - 1, 3)`` (docs/games/trick-tac-foe.md).
    """
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= 9:
        raise ValueError(f"a grid number is 1–9, not {k!r}")
    return _CELL_TABLE[_direction(direction)][k]


def number_for(direction: str, cell: tuple[int, int] | list[int]) -> int:
    """The inverse of ``cell_for``: the number (1–9) that a seat reads on canonical ``cell``."""
    r, c = int(cell[0]), int(cell[1])
    if not (0 <= r < 3 and 0 <= c < 3):
        raise ValueError(f"no cell {cell!r} on a 3×3 grid")
    return _NUMBER_TABLE[_direction(direction)][(r, c)]


def numbering(direction: str) -> list[list[int]]:
    """The canonical grid (North edge up) filled with the numbers this seat reads."""
    d = _direction(direction)
    return [[_NUMBER_TABLE[d][(r, c)] for c in range(3)] for r in range(3)]


LINES: tuple[tuple[Cell, Cell, Cell], ...] = (
    ((0, 0), (0, 1), (0, 2)),
    ((1, 0), (1, 1), (1, 2)),
    ((2, 0), (2, 1), (2, 2)),
    ((0, 0), (1, 0), (2, 0)),
    ((0, 1), (1, 1), (2, 1)),
    ((0, 2), (1, 2), (2, 2)),
    ((0, 0), (1, 1), (2, 2)),
    ((0, 2), (1, 1), (2, 0)),
)

Grid = tuple[tuple[int | None, ...], ...]
"""Team index (or None) per canonical cell, row by row."""
Line = tuple[Cell, Cell, Cell]

EMPTY_GRID: Grid = ((None, None, None), (None, None, None), (None, None, None))


def lines_of(grid: Sequence[Sequence[int | None]], team: int) -> list[Line]:
    """Every line of three ``team`` tokens on ``grid``."""
    return [line for line in LINES if all(grid[r][c] == team for r, c in line)]


def with_cell(grid: Grid, cell: Cell, team: int) -> Grid:
    """``grid`` with ``team``'s token on ``cell``."""
    r, c = cell
    row = grid[r]
    return (*grid[:r], (*row[:c], team, *row[c + 1 :]), *grid[r + 1 :])


def _grid_json(grid: Grid) -> list[JSON]:
    return [list(row) for row in grid]


def _read_grid(data: Any) -> Grid:
    grid = tuple(tuple(None if v is None else int(v) for v in row) for row in data)
    if len(grid) != 3 or any(len(row) != 3 for row in grid):
        raise InvalidState("the grid is not 3×3")
    return grid


def _replaced(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``items`` with ``value`` at ``index``."""
    return (*items[:index], value, *items[index + 1 :])


# ---- options and state ---------------------------------------------------------------------------------


class TrickTacFoeOptions(GameOptions):
    """Lobby options; the lobby renders its form from this model's JSON schema."""

    players: Literal[2, 4] = Field(
        2, title="Players", description="2 players head to head, or 4 in two teams (Red: North + East)."
    )
    one_shot: bool = Field(
        False,
        title="One-shot",
        description="Play a single round instead of the standard game (2 rounds for 2 players, 3 for 4).",
    )
    turn_timer: bool = Field(
        False,
        title="Turn timer",
        description="Each step has a time limit: an absent player commits their lowest card.",
    )
    turn_seconds: int = Field(
        45, ge=5, le=600, title="Seconds per step", description="The turn timer (5–600 s), when it is on."
    )


Cards = tuple[str, ...]
Pair = tuple[Seat, Seat]
Effect = Literal["place", "flip", "none"]
EFFECTS: tuple[Effect, ...] = ("place", "flip", "none")


@dataclass(frozen=True)
class Trick:
    """One pair's trick of the current (or previous) set: revealed, then resolved (cell, number, effect)."""

    seats: Pair
    cards: tuple[str, str]
    winner: Seat
    card: str  # the winning card
    wild: bool
    cell: Cell | None = None
    number: int | None = None
    effect: Effect | None = None
    scored: bool = False

    def to_json(self) -> dict[str, JSON]:
        return {
            "seats": list(self.seats),
            "cards": list(self.cards),
            "winner": self.winner,
            "card": self.card,
            "wild": self.wild,
            "cell": None if self.cell is None else list(self.cell),
            "number": self.number,
            "effect": self.effect,
            "scored": self.scored,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Trick:
        a, b = data["seats"]
        card_a, card_b = data["cards"]
        cell, number, effect = data["cell"], data["number"], data["effect"]
        if effect is not None and effect not in EFFECTS:
            raise InvalidState(f"bad trick effect {effect!r}")
        return cls(
            seats=(int(a), int(b)),
            cards=(str(card_a), str(card_b)),
            winner=int(data["winner"]),
            card=str(data["card"]),
            wild=bool(data["wild"]),
            cell=None if cell is None else (int(cell[0]), int(cell[1])),
            number=None if number is None else int(number),
            effect=effect,
            scored=bool(data["scored"]),
        )


@dataclass(frozen=True)
class RoundPoints:
    """A finished round and the points after it."""

    round: int
    scores: tuple[int, int]

    def to_json(self) -> dict[str, JSON]:
        return {"round": self.round, "scores": list(self.scores)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RoundPoints:
        red, black = data["scores"]
        return cls(round=int(data["round"]), scores=(int(red), int(black)))


@dataclass(frozen=True)
class FinalPosition:
    """The grid the game's last action cleared, and the lines that scored on it (``team``'s, or None when the
    end of the round cleared it)."""

    grid: Grid
    lines: tuple[Line, ...] | None
    team: int | None

    def to_json(self) -> dict[str, JSON]:
        lines: JSON = None if self.lines is None else [[list(cell) for cell in line] for line in self.lines]
        return {"grid": _grid_json(self.grid), "lines": lines, "team": self.team}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> FinalPosition:
        lines, team = data["lines"], data["team"]
        return cls(
            grid=_read_grid(data["grid"]),
            lines=None if lines is None else tuple(_read_line(line) for line in lines),
            team=None if team is None else int(team),
        )


def _read_line(data: Any) -> Line:
    a, b, c = ((int(x), int(y)) for x, y in data)
    return (a, b, c)


@dataclass(frozen=True)
class TrickTacFoeState(FrozenState):
    """The full game state (secrets included): an immutable value; the rules return changed copies that
    share every part they leave alone."""

    options: TrickTacFoeOptions
    deals: tuple[tuple[Cards, ...], ...]  # [round][seat] -> personal deck as dealt (index 0 = top)
    round: int  # 1-based
    trick: int  # 1-based number of the trick (2p) or trick set (4p) in the round
    start: Seat | None  # 4p: seat holding the starting position this set; 2p: None
    decks: tuple[Cards, ...]  # index 0 = top
    hands: tuple[Cards, ...]
    committed: tuple[str | None, ...]  # the card each seat has put down this trick (set)
    revealed: tuple[bool, ...]  # whether that card has been revealed
    order: tuple[Pair, ...]  # the pairs, in the order they resolve this trick (set)
    step: int  # index into ``order`` of the pair being resolved / to resolve next
    phase: Phase
    wild_seat: Seat | None
    grid: Grid  # team index per canonical cell
    scores: tuple[int, int]  # per team: (Red, Black)
    discard: Cards
    current: tuple[Trick, ...] = ()  # tricks of this set, resolved or pending
    previous: tuple[Trick, ...] = ()  # tricks of the previous set, this round
    history: tuple[RoundPoints, ...] = ()  # per finished round: its points
    final: FinalPosition | None = None  # once over: the position the last action cleared (see final_position)

    @property
    def players(self) -> int:
        return self.options.players

    @property
    def rounds(self) -> int:
        return rounds_for(self.options)


def final_position(before: Grid, events: list[Event]) -> FinalPosition | None:
    """The grid the game's last action cleared: ``before`` (the grid it started from) with the tokens it
    placed up to its first clear, and the lines that scored there (``team``'s, or None when the end of the
    round cleared it). The game ends on an empty grid, and a page that opens then still shows how it ended."""
    grid = before
    lines: tuple[Line, ...] | None = None
    team: int | None = None
    for event in events:
        if event.kind == "resolve":
            r, c = event.public["cell"]
            grid = with_cell(grid, (r, c), int(event.public["team"]))
        elif event.kind == "score":
            lines, team = tuple(_read_line(line) for line in event.public["lines"]), event.public["team"]
        elif event.kind == "clear":
            return FinalPosition(grid, lines, team)
    return None


def coloured(final: FinalPosition) -> dict[str, JSON]:
    """A final position as views show it: colours for team indexes."""
    return {
        "grid": [[None if v is None else COLOURS[v] for v in row] for row in final.grid],
        "lines": final.to_json()["lines"],
        "colour": None if final.team is None else COLOURS[final.team],
    }


def rounds_for(options: TrickTacFoeOptions) -> int:
    if options.one_shot:
        return 1
    return 2 if options.players == 2 else 3


def labels_for(players: int) -> tuple[str, ...]:
    return LABELS_2P if players == 2 else LABELS_4P


def team_of(players: int, seat: Seat) -> int:
    """0 = Red, 1 = Black. 2p: South is Black, North is Red. 4p: North/East Red, South/West Black."""
    if players == 2:
        return 1 if seat == 0 else 0
    return 0 if seat in (0, 1) else 1


def pairs_for(players: int) -> tuple[Pair, ...]:
    """The opposing pairs: 2p ((South, North),); 4p ((North, South), (East, West))."""
    return ((0, 1),) if players == 2 else ((0, 2), (1, 3))


def opponent_of(players: int, seat: Seat) -> Seat:
    return 1 - seat if players == 2 else (seat + 2) % 4


def _order_for(players: int, start: Seat | None) -> tuple[Pair, ...]:
    pairs = pairs_for(players)
    if players == 2 or start is None:
        return pairs
    first = start % 2
    return (pairs[first], pairs[1 - first])


# ---- action parsing -------------------------------------------------------------------------------------


class Commit(ActionModel):
    type: Literal["commit"]
    card: Annotated[
        str,
        one_of(CARD_SET, "card"),
        Refusal("trick-tac-foe.error.bad_card", '\'card\' must be a card code such as "7S" or "10H"'),
    ]


class Wild(ActionModel):
    type: Literal["wild"]
    number: Annotated[
        int, Field(ge=1, le=9), Refusal("trick-tac-foe.error.bad_number", "'number' must be a whole number 1–9")
    ]


TrickTacFoeAction = Commit | Wild
ACTIONS = Actions[TrickTacFoeAction](Commit, Wild)


_RESOLVED: dict[tuple[bool, str], str] = {
    (False, "place"): "trick-tac-foe.log.placed",
    (False, "flip"): "trick-tac-foe.log.flipped",
    (False, "none"): "trick-tac-foe.log.unchanged",
    (True, "place"): "trick-tac-foe.log.wild_placed",
    (True, "flip"): "trick-tac-foe.log.wild_flipped",
    (True, "none"): "trick-tac-foe.log.wild_unchanged",
}
"""The log key of a trick's cell, by (chosen with a wild 10, effect)."""


# ---- the engine -----------------------------------------------------------------------------------------


class TrickTacFoeEngine(Engine[TrickTacFoeState, TrickTacFoeOptions, TrickTacFoeAction]):
    name = "trick-tac-foe"
    actions = ACTIONS
    state_type = TrickTacFoeState
    title = "Trick-Tac-Foe"
    options_model = TrickTacFoeOptions

    # ---- options and seats ------------------------------------------------------------------------------

    def seats(self, options: TrickTacFoeOptions) -> list[SeatInfo]:
        if options.players == 2:
            return [SeatInfo(label, direction=label.lower()) for label in LABELS_2P]
        return [SeatInfo(label, team_of(4, seat), label.lower()) for seat, label in enumerate(LABELS_4P)]

    def options_of(self, state: TrickTacFoeState) -> TrickTacFoeOptions:
        return state.options

    def label(self, state: TrickTacFoeState, seat: Seat) -> str:
        return labels_for(state.players)[seat]

    # ---- playing ----------------------------------------------------------------------------------------

    def new_game(self, options: TrickTacFoeOptions, seed: int) -> TrickTacFoeState:
        rng = random.Random(seed)
        n = options.players
        deals: list[tuple[Cards, ...]] = []
        for _ in range(rounds_for(options)):
            cards = list(ALL_CARDS)
            rng.shuffle(cards)
            deals.append(tuple(tuple(cards[seat::n]) for seat in range(n)))  # dealt one at a time round the table
        start = rng.randrange(4) if n == 4 else None
        state = TrickTacFoeState(
            options=options,
            deals=tuple(deals),
            round=1,
            trick=1,
            start=start,
            decks=deals[0],
            hands=((),) * n,
            committed=(None,) * n,
            revealed=(False,) * n,
            order=_order_for(n, start),
            step=0,
            phase="commit",
            wild_seat=None,
            grid=EMPTY_GRID,
            scores=(0, 0),
            discard=(),
        )
        decks, hands = self._draw(state.decks, state.hands, [])
        return state.changed(decks=decks, hands=hands)

    def to_act(self, state: TrickTacFoeState) -> frozenset[Seat]:
        if state.phase == "commit":
            return frozenset(s for s in range(state.players) if state.committed[s] is None)
        if state.phase == "wild" and state.wild_seat is not None:
            return frozenset({state.wild_seat})
        return frozenset()

    def legal_actions(self, state: TrickTacFoeState, seat: Seat) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        if state.phase == "wild":
            return [{"type": "wild", "number": k} for k in range(1, 10)]
        return [{"type": "commit", "card": card} for card in sort_cards(state.hands[seat])]

    def apply(self, state: TrickTacFoeState, seat: Seat, action: Action) -> tuple[TrickTacFoeState, list[Event]]:
        new, events = self.play(state, seat, ACTIONS.parse(action))
        if new.phase == "over":
            new = new.changed(final=final_position(state.grid, events))
        return new, events

    def play(
        self, state: TrickTacFoeState, seat: Seat, action: TrickTacFoeAction
    ) -> tuple[TrickTacFoeState, list[Event]]:
        """``apply`` of an action already parsed (the final position aside: ``apply`` records it)."""
        check_seat(seat, state.players)
        if state.phase == "over":
            raise IllegalAction("the game is over", "action.game_over")
        who = self.label(state, seat)
        if isinstance(action, Commit):
            card = action.card
            if state.phase != "commit":
                chooser = state.wild_seat or 0
                raise IllegalAction(
                    f"wait: seat {chooser} is choosing a cell for a wild 10",
                    "trick-tac-foe.error.wild_first",
                    {"seat": chooser},
                )
            if state.committed[seat] is not None:
                raise IllegalAction(
                    f"{who} has already committed a card this trick", "trick-tac-foe.error.committed", {"seat": seat}
                )
            hand = state.hands[seat]
            if card not in hand:
                raise IllegalAction(f"{card} is not in {who}'s hand", "trick-tac-foe.error.not_in_hand", {"card": card})
            i = hand.index(card)
            new = state.changed(
                hands=_replaced(state.hands, seat, hand[:i] + hand[i + 1 :]),
                committed=_replaced(state.committed, seat, card),
            )
            events = [Event("commit", {"seat": seat}, {seat: {"card": card}})]
            if all(c is not None for c in new.committed):
                new = self._run(new, events)
            return new, events
        # wild
        number = action.number
        if state.phase != "wild" or state.wild_seat is None:
            raise IllegalAction("there is no wild 10 to resolve now", "trick-tac-foe.error.no_wild")
        if seat != state.wild_seat:
            raise IllegalAction(
                f"seat {state.wild_seat} chooses the cell for the wild 10",
                "trick-tac-foe.error.wild_of",
                {"seat": state.wild_seat},
            )
        events = []
        *done, pending = state.current
        new = self._resolve(state, done, pending, cell_for(who, number), events, phase="commit", wild_seat=None)
        return self._run(new, events), events

    # ---- the machinery of a trick (set) -------------------------------------------------------------

    def _run(self, st: TrickTacFoeState, events: list[Event]) -> TrickTacFoeState:
        """Reveal and resolve pairs in order until a wild choice is needed or the set is over."""
        while st.step < len(st.order):
            a, b = st.order[st.step]
            card_a, card_b = st.committed[a], st.committed[b]
            assert card_a is not None and card_b is not None
            revealed = list(st.revealed)
            revealed[a] = revealed[b] = True
            winner, card = (a, card_a) if card_strength(card_a) > card_strength(card_b) else (b, card_b)
            wild = card_rank(card) == 10
            trick = Trick(seats=(a, b), cards=(card_a, card_b), winner=winner, card=card, wild=wild)
            events.append(
                Event(
                    "reveal",
                    {
                        "seats": [a, b],
                        "cards": [card_a, card_b],
                        "winner": winner,
                        "card": card,
                        "wild": wild,
                    },
                )
            )
            if wild:
                events.append(Event("wild_pending", {"seat": winner}))
                return st.changed(
                    revealed=tuple(revealed), current=(*st.current, trick), phase="wild", wild_seat=winner
                )
            cell = cell_for(self.label(st, winner), card_rank(card))
            st = self._resolve(st, st.current, trick, cell, events, revealed=tuple(revealed))
        return self._end_set(st, events)

    def _resolve(
        self,
        st: TrickTacFoeState,
        done: Sequence[Trick],
        trick: Trick,
        cell: Cell,
        events: list[Event],
        **changes: Any,
    ) -> TrickTacFoeState:
        """The winner of ``trick`` (revealed after the tricks ``done`` of this set) resolves ``cell``; then the
        next pair is up. ``changes`` go into the same new state."""
        seat = trick.winner
        team = team_of(st.players, seat)
        r, c = cell
        before = st.grid[r][c]
        effect: Effect = "place" if before is None else ("flip" if before != team else "none")
        grid = with_cell(st.grid, cell, team)
        number = number_for(self.label(st, seat), cell)
        events.append(
            Event(
                "resolve",
                {
                    "seat": seat,
                    "team": team,
                    "colour": COLOURS[team],
                    "cell": [r, c],
                    "number": number,
                    "effect": effect,
                    "wild": trick.wild,
                },
            )
        )
        scores = st.scores
        found = lines_of(grid, team)
        if found:
            scores = (scores[0] + 1, scores[1]) if team == 0 else (scores[0], scores[1] + 1)
            events.append(
                Event(
                    "score",
                    {
                        "seat": seat,
                        "team": team,
                        "colour": COLOURS[team],
                        "lines": [[[x, y] for x, y in line] for line in found],
                        "scores": list(scores),
                    },
                )
            )
            grid = EMPTY_GRID
            events.append(Event("clear", {"reason": "score"}))
        trick = replace(trick, cell=cell, number=number, effect=effect, scored=bool(found))
        return st.changed(grid=grid, scores=scores, current=(*done, trick), step=st.step + 1, **changes)

    @staticmethod
    def _draw(
        decks: tuple[Cards, ...], hands: tuple[Cards, ...], events: list[Event]
    ) -> tuple[tuple[Cards, ...], tuple[Cards, ...]]:
        """Every seat, in seat order, draws from the top of its deck up to a full hand: the decks and hands."""
        new_decks, new_hands = list(decks), list(hands)
        for seat, (deck, hand) in enumerate(zip(decks, hands, strict=True)):
            drawn = deck[: max(0, HAND_SIZE - len(hand))]
            if not drawn:
                continue
            new_decks[seat], new_hands[seat] = deck[len(drawn) :], hand + drawn
            events.append(
                Event(
                    "draw",
                    {"seat": seat, "count": len(drawn), "deck_count": len(new_decks[seat])},
                    {seat: {"cards": sort_cards(drawn)}},
                )
            )
        return tuple(new_decks), tuple(new_hands)

    def _end_set(self, st: TrickTacFoeState, events: list[Event]) -> TrickTacFoeState:
        played: list[str] = []
        for pair in st.order:
            for s in pair:
                card = st.committed[s]
                assert card is not None
                played.append(card)
        events.append(Event("trick_end", {"round": st.round, "trick": st.trick, "discarded": played}))
        n = st.players
        decks, hands = self._draw(st.decks, st.hands, events)
        start = st.start
        if start is not None:
            start = (start + 1) % 4
            events.append(Event("start", {"seat": start}))
        st = st.changed(
            discard=(*st.discard, *played),
            committed=(None,) * n,
            revealed=(False,) * n,
            previous=st.current,
            current=(),
            step=0,
            decks=decks,
            hands=hands,
            start=start,
            order=_order_for(n, start),
            trick=st.trick + 1 if any(hands) else st.trick,
        )
        if any(hands):
            return st
        # the round is over: every card has been played
        events.append(Event("round_end", {"round": st.round, "scores": list(st.scores)}))
        grid = st.grid
        if any(cell is not None for row in grid for cell in row):
            grid = EMPTY_GRID
            events.append(Event("clear", {"reason": "round"}))
        st = st.changed(history=(*st.history, RoundPoints(st.round, st.scores)), grid=grid)
        if st.round >= st.rounds:
            st = st.changed(phase="over")
            outcome = self.outcome(st)
            assert outcome is not None
            events.append(Event("game_end", outcome.to_json()))
            return st
        events.append(Event("round_start", {"round": st.round + 1, "start": st.start}))
        decks, hands = self._draw(st.deals[st.round], st.hands, events)
        return st.changed(round=st.round + 1, trick=1, discard=(), previous=(), decks=decks, hands=hands)

    # ---- what each seat sees ------------------------------------------------------------------------

    def view(self, state: TrickTacFoeState, seat: Seat | None) -> dict[str, JSON]:
        """What ``seat`` may know (``None``: a spectator).

        Everyone: the grid, scores, round and trick progress, hand and deck sizes, who has committed, the
        cards revealed so far this round (current and previous trick (set), discard pile), the starting
        seat and which pair reveals first (4p), whose wild choice is pending, and once the game is over the
        grid it ended on (``final``). A seat also sees its own hand and its own committed card. Nobody sees a
        personal deck's cards, another seat's hand, or another seat's committed card before its pair's reveal
        (teammates included).
        """
        n = state.players
        labels = labels_for(n)
        me = seat if seat is not None and 0 <= seat < n else None
        perspective = labels[me] if me is not None else "South"
        seats: list[JSON] = []
        for s in range(n):
            team = team_of(n, s)
            card = state.committed[s]
            seats.append(
                {
                    "seat": s,
                    "direction": labels[s].lower(),
                    "team": team,
                    "colour": COLOURS[team],
                    "hand_count": len(state.hands[s]),
                    "deck_count": len(state.decks[s]),
                    "committed": card is not None,
                    "card": card if card is not None and state.revealed[s] else None,
                    "rotation": ROTATION[labels[s]],
                }
            )
        teams: list[JSON] = [
            {
                "team": t,
                "colour": COLOURS[t],
                "seats": [s for s in range(n) if team_of(n, s) == t],
                "score": state.scores[t],
            }
            for t in (0, 1)
        ]
        grid: list[JSON] = [[None if v is None else COLOURS[v] for v in row] for row in state.grid]
        board: list[JSON] = []
        for k in range(1, 10):
            r, c = cell_for(perspective, k)
            v = state.grid[r][c]
            board.append({"number": k, "cell": [r, c], "token": None if v is None else COLOURS[v]})
        outcome = self.outcome(state)
        return {
            "players": n,
            "one_shot": state.options.one_shot,
            "you": me,
            "your_team": team_of(n, me) if me is not None else None,
            "hand": sort_cards(state.hands[me]) if me is not None else None,
            "your_card": state.committed[me] if me is not None else None,
            "phase": state.phase,
            "wild_seat": state.wild_seat,
            "round": state.round,
            "rounds": state.rounds,
            "trick": state.trick,
            "tricks_in_round": 20 if n == 2 else 10,
            "start_seat": state.start,
            "first_pair": list(state.order[0]),
            "order": [list(pair) for pair in state.order],
            "step": state.step,
            "seats": seats,
            "teams": teams,
            "scores": list(state.scores),
            "grid": grid,
            "perspective": perspective.lower(),  # a direction key, like each seat's: pages phrase it
            "rotation": ROTATION[perspective],
            "numbers": numbering(perspective),
            "board": board,
            "current": [trick.to_json() for trick in state.current],
            "previous": [trick.to_json() for trick in state.previous],
            "discard": list(state.discard),
            "history": [points.to_json() for points in state.history],
            "outcome": outcome.to_json() if outcome is not None else None,
            "final": None if state.final is None else coloured(state.final),
        }

    # ---- timers, results ----------------------------------------------------------------------------

    def timeout_action(self, state: TrickTacFoeState, seat: Seat) -> Action:
        if state.phase == "wild" and seat == state.wild_seat:
            label = self.label(state, seat)
            team = team_of(state.players, seat)
            for k in range(1, 10):
                r, c = cell_for(label, k)
                if state.grid[r][c] != team:
                    return {"type": "wild", "number": k}
            return {"type": "wild", "number": 1}
        hand = state.hands[seat] if 0 <= seat < state.players else []
        if not hand:
            return {"type": "commit", "card": ALL_CARDS[0]}  # not this seat's turn: apply will refuse it
        return {"type": "commit", "card": sort_cards(hand)[0]}

    def timer(self, state: TrickTacFoeState) -> Timer | None:
        if not state.options.turn_timer or state.phase == "over":
            return None
        key = f"r{state.round}-t{state.trick}-{state.phase}-{state.step}"
        return Timer(key=key, seconds=float(state.options.turn_seconds))

    def outcome(self, state: TrickTacFoeState) -> Outcome | None:
        if state.phase != "over":
            return None
        n = state.players
        red, black = state.scores
        per_seat = [float(state.scores[team_of(n, s)]) for s in range(n)]
        if red == black:
            winners: list[Seat] = []
            summary = LogEntry("trick-tac-foe.result.draw", {"points": red})
        else:
            team = 0 if red > black else 1
            winners = [s for s in range(n) if team_of(n, s) == team]
            score = {"points": max(red, black), "other_points": min(red, black)}
            if n == 2:
                summary = LogEntry("trick-tac-foe.result.won", {"seat": winners[0], "team": team, **score})
            else:
                summary = LogEntry("trick-tac-foe.result.team_won", {"team": team, "seats": winners, **score})
        return Outcome(scores=per_seat, winners=winners, ranks=ranks_from_scores(per_seat), summary=summary)

    # ---- the public log -----------------------------------------------------------------------------

    def log_entries(
        self,
        state: TrickTacFoeState,
        seat: Seat,
        action: Action,
        result: tuple[TrickTacFoeState, list[Event]],
    ) -> list[LogEntry]:
        """The action (never an unrevealed card) and what followed, from the public side of its events."""
        entries: list[LogEntry] = []
        for event in result[1]:
            data = event.public
            kind = event.kind
            if kind == "commit":
                entries.append(LogEntry("trick-tac-foe.log.committed", {"seat": data["seat"]}))
            elif kind == "reveal":
                (a, b), (card_a, card_b) = data["seats"], data["cards"]
                params = {"first_seat": a, "first_card": card_a, "second_seat": b, "second_card": card_b}
                params["winner_seat"] = data["winner"]
                if data["wild"]:
                    entries.append(LogEntry("trick-tac-foe.log.trick_wild", {**params, "card": data["card"]}))
                else:
                    entries.append(LogEntry("trick-tac-foe.log.trick", params))
            elif kind == "resolve":
                key = _RESOLVED[(bool(data["wild"]), str(data["effect"]))]
                params = {"seat": data["seat"], "number": data["number"], "cell": data["cell"], "team": data["team"]}
                entries.append(LogEntry(key, params))
            elif kind == "score":
                red, black = data["scores"]
                entries.append(LogEntry("trick-tac-foe.log.scored", {"team": data["team"], "red": red, "black": black}))
            elif kind == "clear" and data["reason"] == "score":
                entries.append(LogEntry("trick-tac-foe.log.cleared"))
            elif kind == "start":
                entries.append(LogEntry("trick-tac-foe.log.starts", {"seat": data["seat"]}))
            elif kind == "round_end":
                red, black = data["scores"]
                entries.append(
                    LogEntry("trick-tac-foe.log.round_over", {"round": data["round"], "red": red, "black": black})
                )
            elif kind == "game_end":
                entries.extend(self.result_entries(result[0]))
        return entries

    # ---- serialisation ------------------------------------------------------------------------------

    def dump(self, state: TrickTacFoeState) -> dict[str, JSON]:
        return {
            "options": state.options.model_dump(),
            "deals": [[list(deck) for deck in rnd] for rnd in state.deals],
            "round": state.round,
            "trick": state.trick,
            "start": state.start,
            "decks": [list(d) for d in state.decks],
            "hands": [list(h) for h in state.hands],
            "committed": list(state.committed),
            "revealed": list(state.revealed),
            "order": [list(p) for p in state.order],
            "step": state.step,
            "phase": state.phase,
            "wild_seat": state.wild_seat,
            "grid": _grid_json(state.grid),
            "scores": list(state.scores),
            "discard": list(state.discard),
            "current": [trick.to_json() for trick in state.current],
            "previous": [trick.to_json() for trick in state.previous],
            "history": [points.to_json() for points in state.history],
            "final": None if state.final is None else state.final.to_json(),
        }

    def read_state(self, data: Mapping[str, JSON]) -> TrickTacFoeState:
        phase = data["phase"]
        if phase not in ("commit", "wild", "over"):
            raise InvalidState(f"bad phase {phase!r}")

        def opt_int(v: Any) -> int | None:
            return None if v is None else int(v)

        def cards(items: Any) -> Cards:
            return tuple(str(c) for c in items)

        def pair(items: Any) -> Pair:
            a, b = items
            return (int(a), int(b))

        red, black = data["scores"]
        final = data.get("final")  # states stored before the final position was kept have none
        return TrickTacFoeState(
            options=TrickTacFoeOptions.model_validate(data["options"]),
            deals=tuple(tuple(cards(deck) for deck in rnd) for rnd in data["deals"]),
            round=int(data["round"]),
            trick=int(data["trick"]),
            start=opt_int(data["start"]),
            decks=tuple(cards(d) for d in data["decks"]),
            hands=tuple(cards(h) for h in data["hands"]),
            committed=tuple(None if c is None else str(c) for c in data["committed"]),
            revealed=tuple(bool(v) for v in data["revealed"]),
            order=tuple(pair(p) for p in data["order"]),
            step=int(data["step"]),
            phase=phase,
            wild_seat=opt_int(data["wild_seat"]),
            grid=_read_grid(data["grid"]),
            scores=(int(red), int(black)),
            discard=cards(data["discard"]),
            current=tuple(Trick.from_json(t) for t in data["current"]),
            previous=tuple(Trick.from_json(t) for t in data["previous"]),
            history=tuple(RoundPoints.from_json(h) for h in data["history"]),
            final=None if final is None else FinalPosition.from_json(final),
        )


# ---- bot ------------------------------------------------------------------------------------------------


def unseen_cards(state: TrickTacFoeState, seat: Seat) -> list[str]:
    """The cards ``seat`` has not seen: not in its hand, not discarded, not a committed card it may see. Only
    public knowledge and the seat's own cards, so a bot that plays on these cannot cheat."""
    seen = set(state.hands[seat]) | set(state.discard)
    for s in range(state.players):
        card = state.committed[s]
        if card is not None and (s == seat or state.revealed[s]):
            seen.add(card)
    return [c for c in ALL_CARDS if c not in seen]


def _threat_cells(grid: Grid, team: int) -> set[Cell]:
    """Cells where a ``team`` token (placed or flipped) would complete a ``team`` line."""
    hot: set[Cell] = set()
    for line in LINES:
        others = [cell for cell in line if grid[cell[0]][cell[1]] != team]
        if len(others) == 1:
            hot.add(others[0])
    return hot


def _evaluate(grid: Grid, team: int) -> float:
    """How good ``grid`` is for ``team`` (no point scored on it): threats and tokens, mine minus theirs."""
    value = 0.0
    for t, sign in ((team, 1.0), (1 - team, -1.0)):
        hot = _threat_cells(grid, t)
        tokens = sum(1 for row in grid for v in row if v == t)
        centre = 1 if grid[1][1] == t else 0
        value += sign * (1.6 * len(hot) + 0.35 * tokens + 0.25 * centre)
    return value


class TrickTacFoeBot(Bot[TrickTacFoeState]):
    """Expected-value play from public knowledge only (its hand, revealed cards, the grid).

    For each card in hand it estimates the chance of winning the trick (the opponent's card is assumed
    equally likely to be any card it has not seen), the board gain when it wins (the cell the card names
    from its seat, or the best cell for a 10; completing its own team's line is worth a point), and the
    loss when the opponent wins with a higher card (the opponent's gain with that card from their seat).
    Winning costs a little (a high card spent now cannot win later), so it dumps low cards when nothing is
    at stake and spends high cards when a line is to be made or stopped. Wild 10: the best cell.
    """

    POINT = 10.0
    SPEND_COST = 4.0

    def __init__(self, engine: TrickTacFoeEngine) -> None:
        self.engine = engine

    def gain(self, grid: Grid, team: int, cell: Cell) -> float:
        """The change in value for ``team`` when it resolves ``cell``."""
        before = _evaluate(grid, team)
        after = with_cell(grid, cell, team)
        if lines_of(after, team):
            return self.POINT - before
        return _evaluate(after, team) - before

    def best_cell(self, grid: Grid, team: int) -> tuple[float, Cell]:
        options = [(self.gain(grid, team, (r, c)), (r, c)) for r in range(3) for c in range(3)]
        return max(options, key=lambda x: (x[0], -x[1][0], -x[1][1]))

    def choose(self, state: TrickTacFoeState, seat: Seat, rng: Any) -> Action:
        engine = self.engine
        n = state.players
        label = engine.label(state, seat)
        team = team_of(n, seat)
        grid = state.grid
        if state.phase == "wild":
            _value, cell = self.best_cell(grid, team)
            return {"type": "wild", "number": number_for(label, cell)}
        hand = sort_cards(state.hands[seat])
        unseen = unseen_cards(state, seat)
        if not unseen:
            return {"type": "commit", "card": hand[0]}
        opp = opponent_of(n, seat)
        opp_label = engine.label(state, opp)
        opp_team = 1 - team
        cells = [(r, c) for r in range(3) for c in range(3)]
        my_gains = {cell: self.gain(grid, team, cell) for cell in cells}
        opp_gains = {cell: self.gain(grid, opp_team, cell) for cell in cells}
        my_best, opp_best = max(my_gains.values()), max(opp_gains.values())
        opp_gain: dict[str, float] = {}
        for u in unseen:
            rank = card_rank(u)
            opp_gain[u] = opp_best if rank == 10 else opp_gains[cell_for(opp_label, rank)]
        best_value = float("-inf")
        best: list[str] = []
        for card in hand:
            rank = card_rank(card)
            mine = my_best if rank == 10 else my_gains[cell_for(label, rank)]
            strength = card_strength(card)
            wins = sum(1 for u in unseen if card_strength(u) < strength)
            p_win = wins / len(unseen)
            loss = sum(opp_gain[u] for u in unseen if card_strength(u) > strength) / len(unseen)
            value = p_win * (mine - self.SPEND_COST * (1 + strength / 40)) - loss
            if value > best_value + 1e-9:
                best_value, best = value, [card]
            elif abs(value - best_value) <= 1e-9:
                best.append(card)
        return {"type": "commit", "card": best[0] if len(best) == 1 else rng.choice(best)}


ENGINE = TrickTacFoeEngine()
BOT = TrickTacFoeBot(ENGINE)
