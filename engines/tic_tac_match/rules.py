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
from collections.abc import Mapping

from engines.base import (
    JSON,
    Engine,
    Event,
    IllegalAction,
    InvalidState,
    LogEntry,
    Outcome,
    Seat,
    SeatInfo,
    check_seat,
    ranks_from_scores,
)
from engines.tic_tac_match import log, views
from engines.tic_tac_match.actions import (
    ACTIONS,
    DISCARD,
    DOUBLE,
    FLIP,
    FORFEIT,
    PLAY,
    WIPEOUT,
    Discard,
    Double,
    Flip,
    Forfeit,
    Play,
    TicTacMatchAction,
    Wipeout,
)
from engines.tic_tac_match.cards import (
    COLOURS,
    DECK_SIZE,
    HAND_SIZE,
    SYMBOLS,
    Cards,
    can_stack,
    card_face,
    card_json,
    card_kind,
    card_type,
    rc,
)
from engines.tic_tac_match.options import TicTacMatchOptions
from engines.tic_tac_match.plays import (
    completed_lines,
    has_legal_play,
    has_symbol_or_flip_play,
    in_fallback,
    legal_cells,
    play_result,
)
from engines.tic_tac_match.state import GridCell, MatchResult, SymbolFace, TicTacMatchState

MAX_REDRAWS = 10
CENTRE = 4


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
                    "ids": views.id_symbols(s),
                    "hand_sizes": [len(h) for h in s.hands],
                    "draw_count": len(s.draw),
                },
                private={seat: {"hand": [card_json(c) for c in s.hands[seat]]} for seat in range(n)},
            )
        )
        return self._begin_turn(s, (s.dealer + 1) % n, events)

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
                "discard_top": views.discard_top(s),
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
        result = MatchResult(
            match=s.match,
            dealer=s.dealer,
            side=side,
            seats=tuple(x for x in range(s.players) if x % 2 == side),
            placed_by=seat,
            colour=COLOURS[t // 2],
            symbol=SYMBOLS[symbol],
            line=tuple(_grid_cell(i) for i in lines[0]),
            lines=tuple(tuple(_grid_cell(i) for i in line) for line in lines),
            ids=tuple(SYMBOLS[s.seat_symbol(x)] for x in range(s.players)),
            grid=tuple(None if c is None else _symbol_face(c) for c in tops),
            score=wins,
        )
        s = s.changed(wins=wins, results=(*s.results, result))
        series_over = wins[side] >= s.series
        events.append(Event("match_won", public={**views.result_json(result), "series_over": series_over}))
        if series_over:
            return s.changed(turn=None, plays_left=0)
        return self._start_match(s.changed(match=s.match + 1, dealer=(s.dealer + 1) % s.players), events)

    # ---- playing ---------------------------------------------------------------------------------

    def to_act(self, state: TicTacMatchState) -> frozenset[Seat]:
        return frozenset() if state.turn is None else frozenset({state.turn})

    def legal_actions(self, state: TicTacMatchState, seat: Seat) -> list[TicTacMatchAction]:
        if state.turn is None or seat != state.turn:
            return []
        hand = state.hands[seat]
        actions: list[TicTacMatchAction] = []
        if in_fallback(state):
            for card in hand:
                if card_kind(card) in ("wipeout", "double"):
                    actions.append(DISCARD[card])
            actions.append(FORFEIT)
            return actions
        ordinary = state.plays_left == 0
        double_ok = ordinary and has_symbol_or_flip_play(state, hand)
        for card in hand:
            kind = card_kind(card)
            if kind == "symbol":
                plays = PLAY[card]
                for cell in legal_cells(state, card):
                    actions.append(plays[cell])
            elif kind == "flip":
                actions.append(FLIP[card])
            elif kind == "wipeout" and ordinary:
                wipeouts = WIPEOUT[card]
                for target in range(state.players):
                    if target != seat:
                        actions.append(wipeouts[target])
            elif kind == "double" and double_ok:
                actions.append(DOUBLE[card])
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

    def apply(
        self, state: TicTacMatchState, seat: Seat, action: TicTacMatchAction
    ) -> tuple[TicTacMatchState, list[Event]]:
        self._validate(state, seat, action.type)
        if isinstance(action, Play):
            return self._play(state, seat, action)
        if isinstance(action, Flip):
            card = self._in_hand(state, seat, action.card, ("flip",))
            s = state.discarded(seat, card).changed(id_symbol=1 - state.id_symbol)
            events = [Event("flip", public={"seat": seat, "card": card_json(card), "ids": views.id_symbols(s)})]
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
        else:
            assert isinstance(action, Forfeit), action
            s = state
            events = [Event("forfeit", public={"seat": seat, "automatic": False})]
        return self._end_turn(s, seat, events), events

    def _play(self, state: TicTacMatchState, seat: Seat, action: Play) -> tuple[TicTacMatchState, list[Event]]:
        card = self._in_hand(state, seat, action.card, ("symbol",))
        cell = action.index
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

    # ---- timeouts, outcome, text -----------------------------------------------------------------

    def timeout_action(self, state: TicTacMatchState, seat: Seat) -> TicTacMatchAction:
        """The default move of an absent player (documented in docs/games/tic-tac-match.md).

        A Symbol play that wins for the player's side; else the first Symbol play (hand order, cells in
        reading order) that does not complete a line for the other side; else a Flip; else a Wipe-Out on the
        next player; else the first legal action. In the Double Play fallback: forfeit (keeping the cards).
        """
        actions = self.legal_actions(state, seat)
        if not actions:
            raise IllegalAction(f"{self._label(seat)} is not to act")
        if in_fallback(state):
            return FORFEIT
        mine = state.seat_symbol(seat)
        tops = state.tops()
        safe: list[TicTacMatchAction] = []
        for a in actions:
            if not isinstance(a, Play):
                continue
            winner = play_result(tops, a.card, a.index)
            if winner == mine:
                return a
            if winner is None:
                safe.append(a)
        if safe:
            return safe[0]
        flips = [a for a in actions if isinstance(a, Flip)]
        if flips:
            return flips[0]
        nxt = (seat + 1) % state.players
        for a in actions:
            if isinstance(a, Wipeout) and a.target == nxt:
                return a
        return actions[0]

    def outcome(self, state: TicTacMatchState) -> Outcome | None:
        if not state.over:
            return None
        side = 0 if state.wins[0] > state.wins[1] else 1
        scores = [float(state.wins[seat % 2]) for seat in range(state.players)]
        last = state.results[-1]
        winners = [seat for seat in range(state.players) if seat % 2 == side]
        params: dict[str, JSON] = {"seats": winners, "count": len(winners), "card": views.winning_card(last)}
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
        action: TicTacMatchAction,
        result: tuple[TicTacMatchState, list[Event]],
    ) -> list[LogEntry]:
        return log.log_entries(result[1])

    # ---- views and snapshots ---------------------------------------------------------------------

    def view(self, state: TicTacMatchState, seat: Seat | None) -> dict[str, JSON]:
        return views.view(state, seat)

    def read_state(self, data: Mapping[str, JSON]) -> TicTacMatchState:
        """The shared codec's state, refused unless its cards make up exactly one deck: the codec checks
        each field, not how they fit together."""
        state = super().read_state(data)
        every = [*state.draw, *state.discard, *(c for st in (*state.cells, *state.hands) for c in st)]
        if sorted(every) != list(range(DECK_SIZE)) or len(state.cells) != 9 or len(state.hands) != state.players:
            raise InvalidState("not a Tic Tac Match state: the cards do not make up one deck")
        return state


def _grid_cell(cell: int) -> GridCell:
    return (cell // 3, cell % 3)


def _symbol_face(card: int) -> SymbolFace:
    t = card_type(card)
    return SymbolFace("symbol", COLOURS[t // 2], SYMBOLS[t % 2])


ENGINE = TicTacMatchEngine()
