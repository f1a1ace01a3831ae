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
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, TypeVar

from engines.base import (
    JSON,
    Engine,
    Event,
    IllegalAction,
    LogEntry,
    Outcome,
    Seat,
    SeatInfo,
    Timer,
    check_seat,
)
from engines.trick_tac_foe import log, views
from engines.trick_tac_foe.actions import ACTIONS, COMMIT, WILD, Commit, TrickTacFoeAction
from engines.trick_tac_foe.board import EMPTY_GRID, Cell, Grid, Line, lines_of, with_cell
from engines.trick_tac_foe.cards import ALL_CARDS, HAND_SIZE, Cards, card_rank, card_strength, sort_cards
from engines.trick_tac_foe.options import TrickTacFoeOptions, rounds_for
from engines.trick_tac_foe.outcome import outcome_of
from engines.trick_tac_foe.seats import (
    COLOURS,
    LABELS_2P,
    LABELS_4P,
    cell_for,
    labels_for,
    number_for,
    order_for,
    team_of,
)
from engines.trick_tac_foe.state import Effect, FinalPosition, RoundPoints, Trick, TrickTacFoeState

T = TypeVar("T")


def _replaced(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``items`` with ``value`` at ``index``."""
    return (*items[:index], value, *items[index + 1 :])


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
            lines, team = tuple(_line(line) for line in event.public["lines"]), event.public["team"]
        elif event.kind == "clear":
            return FinalPosition(grid, lines, team)
    return None


def _line(cells: list[list[int]]) -> Line:
    a, b, c = ((x, y) for x, y in cells)
    return (a, b, c)


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
            order=order_for(n, start),
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

    def legal_actions(self, state: TrickTacFoeState, seat: Seat) -> list[TrickTacFoeAction]:
        if seat not in self.to_act(state):
            return []
        if state.phase == "wild":
            return list(WILD.values())
        return [COMMIT[card] for card in sort_cards(state.hands[seat])]

    def apply(
        self, state: TrickTacFoeState, seat: Seat, action: TrickTacFoeAction
    ) -> tuple[TrickTacFoeState, list[Event]]:
        new, events = self._play(state, seat, action)
        if new.phase == "over":
            new = new.changed(final=final_position(state.grid, events))
        return new, events

    def _play(
        self, state: TrickTacFoeState, seat: Seat, action: TrickTacFoeAction
    ) -> tuple[TrickTacFoeState, list[Event]]:
        """``apply`` but for the final position, which ``apply`` records."""
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
        # a Wild: the only other kind
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
            order=order_for(n, start),
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

    # ---- what each seat sees, timers, results ----------------------------------------------------------

    def view(self, state: TrickTacFoeState, seat: Seat | None) -> dict[str, JSON]:
        return views.view(state, seat)

    def timeout_action(self, state: TrickTacFoeState, seat: Seat) -> TrickTacFoeAction:
        if state.phase == "wild" and seat == state.wild_seat:
            label = self.label(state, seat)
            team = team_of(state.players, seat)
            for k in range(1, 10):
                r, c = cell_for(label, k)
                if state.grid[r][c] != team:
                    return WILD[k]
            return WILD[1]
        hand = state.hands[seat] if 0 <= seat < state.players else []
        if not hand:
            return COMMIT[ALL_CARDS[0]]  # not this seat's turn: apply will refuse it
        return COMMIT[sort_cards(hand)[0]]

    def timer(self, state: TrickTacFoeState) -> Timer | None:
        if not state.options.turn_timer or state.phase == "over":
            return None
        key = f"r{state.round}-t{state.trick}-{state.phase}-{state.step}"
        return Timer(key=key, seconds=float(state.options.turn_seconds))

    def outcome(self, state: TrickTacFoeState) -> Outcome | None:
        return outcome_of(state)

    def log_entries(
        self,
        state: TrickTacFoeState,
        seat: Seat,
        action: TrickTacFoeAction,
        result: tuple[TrickTacFoeState, list[Event]],
    ) -> list[LogEntry]:
        """The action (never an unrevealed card) and what followed, from the public side of its events."""
        return log.log_entries(result[1], result[0])


ENGINE = TrickTacFoeEngine()
