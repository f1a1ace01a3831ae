"""Tricky Tactics: win tricks to Add or Remove cubes on a shared map of suit Areas, then score control.

The 2-player automa follows its published rule text; the base game is a reconstruction (the original base
rules are not available). docs/games/tricky-tactics.md states both as the code follows them.

Players and seats
    ``mode="automa"`` (default): two human seats (0, 1) and the automa, which sits third in clockwise order
    (0 → 1 → automa → 0). ``mode="3p"`` / ``"4p"``: 3 or 4 human seats. Seats are humans only: the automa is
    driven inside the engine (its plays and Actions happen inside ``apply`` and are reported as events; a play
    it makes inside ``new_game`` shows in the view's trick with its one-line reason).

Outcome
    ``scores`` has one entry per human seat. The automa is a full player for placing: ``ranks`` are places
    among *all* players, automa included, after the tie-breaks (points, then Locations controlled at the last
    scoring, then cubes on the map, else shared). ``winners`` are the human seats in first place; if the
    automa alone is first, ``winners`` is empty (the summary says the automa won). The automa's score is in
    the view and the summary.

Who sees what
    Everyone: cards played (the trick in progress and this round's finished tricks), the map, supplies,
    scores, hand sizes, the automa's public Reveal Row, the last scoring. A seat also sees its own hand and,
    on its turn, its playable cards (``views``). Nobody sees another hand, the automa's unrevealed cards or
    the 4 cards set aside in a 3-human game; those are discarded unseen at round end.
"""

from __future__ import annotations

import random
from dataclasses import replace

from engines.base import (
    JSON,
    Engine,
    Event,
    IllegalAction,
    LogEntry,
    Outcome,
    Seat,
    SeatInfo,
    check_seat,
)
from engines.tricky_tactics import log, views
from engines.tricky_tactics.actions import (
    ACTIONS,
    ADDS,
    PLAYS,
    REMOVES,
    Add,
    PlayCard,
    Remove,
    TrickyTacticsAction,
)
from engines.tricky_tactics.automa import automa_action, automa_card, reason
from engines.tricky_tactics.cards import (
    DECK,
    LOC_RANKS,
    LOCATIONS,
    SUITS,
    Cards,
    card_rank,
    card_suit,
    sort_hand,
    without,
)
from engines.tricky_tactics.options import HUMANS, TrickyTacticsOptions
from engines.tricky_tactics.state import (
    AUTOMA,
    ActionKind,
    AreaBonus,
    AutomaPlay,
    LocationScore,
    Owed,
    PlayerId,
    Reason,
    Scoring,
    State,
    TakenAction,
    Trick,
    controller,
    reason_json,
)


class TrickyTactics(Engine[State, TrickyTacticsOptions, TrickyTacticsAction]):
    name = "tricky-tactics"
    actions = ACTIONS
    state_type = State
    title = "Tricky Tactics"
    options_model = TrickyTacticsOptions

    # ---- options and seats -------------------------------------------------------------------

    def seats(self, options: TrickyTacticsOptions) -> list[SeatInfo]:
        return [SeatInfo(label=f"Player {i + 1}") for i in range(HUMANS[options.mode])]

    def options_of(self, state: State) -> TrickyTacticsOptions:
        return state.options

    # ---- setup -------------------------------------------------------------------------------

    def new_game(self, options: TrickyTacticsOptions, seed: int) -> State:
        rng = random.Random(seed)
        humans = HUMANS[options.mode]
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
                    "dealer": st.pid(dealer),
                    "leader": st.pid(leader),
                    "hand_sizes": [st.hand_size(p) for p in range(n)],
                },
                private={p: {"hand": list(hands[p])} for p in range(n) if p != automa},
            )
        )
        return st

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
                if not st.adds(w, suit) and not st.removes(w, suit):
                    st = self._record_action(st, events, w, "skip", None, None, reason("skip", suit=suit))
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
                    "winner": st.pid(winner),
                    "card": card,
                    "led": led,
                    "cards": [{"player": st.pid(p), "card": c} for p, c in trick],
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
        kind: ActionKind,
        loc: str | None,
        owner: int | None,
        why: Reason | None,
    ) -> State:
        taken = TakenAction(
            player=st.pid(p),
            type=kind,
            location=loc,
            owner=None if owner is None else st.pid(owner),
            reason=why,
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
        card, why = automa_card(shown, st.led_suit)
        st = st.changed(
            automa_deck=st.automa_deck[take:],
            automa_row=without(shown, card),  # the unplayed card slides Left and stays public
            automa_last=AutomaPlay(shown, card, why),
            trick=(*st.trick, (a, card)),
            turn=(a + 1) % st.n,
        )
        public: dict[str, JSON] = {"player": AUTOMA, "card": card, "reason": reason_json(why), "row": list(shown)}
        events.append(Event("play", public=public))
        return st

    def _automa_action(self, st: State, events: list[Event]) -> State:
        a = st.automa
        assert a is not None
        kind, loc, owner, why = automa_action(st.map, st.supply[a], a, st.n, st.owed.suit)
        if kind == "add":
            assert loc is not None
            st = st.with_cubes(loc, a, 1)
        elif kind == "remove":
            assert loc is not None and owner is not None
            st = st.with_cubes(loc, owner, -1)
        return self._record_action(st, events, a, kind, loc, owner, why)

    # ---- scoring -----------------------------------------------------------------------------

    def _end_round(self, st: State, events: list[Event]) -> State:
        n: int = st.n
        values = st.values
        bonus = st.bonus
        points = [0] * n
        controlled = [0] * n
        locs: list[LocationScore] = []
        areas: list[AreaBonus] = []
        for suit in SUITS:
            owners: list[int | None] = []
            for lr in LOC_RANKS:
                loc = f"{lr}{suit}"
                counts = st.map[loc]
                ctl = controller(counts)
                owners.append(ctl)
                pts = values[lr] if ctl is not None else 0
                if ctl is not None:
                    points[ctl] += pts
                    controlled[ctl] += 1
                locs.append(LocationScore(loc, counts, None if ctl is None else st.pid(ctl), pts))
            first = owners[0]
            if bonus and first is not None and all(o == first for o in owners):
                points[first] += bonus
                areas.append(AreaBonus(suit, st.pid(first), bonus))
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
            events.append(Event("game_over", public={**result.to_json(), "standings": st.standings()}))
            return st
        return self._start_round(st, events)

    # ---- the API -----------------------------------------------------------------------------

    def to_act(self, state: State) -> frozenset[Seat]:
        if state.phase == "play" and state.turn is not None and state.turn != state.automa:
            return frozenset({state.turn})
        if state.phase == "action" and state.owed.player != state.automa:
            return frozenset({state.owed.player})
        return frozenset()

    def legal_actions(self, state: State, seat: Seat) -> list[TrickyTacticsAction]:
        if seat not in self.to_act(state):
            return []
        if state.phase == "play":
            return [PLAYS[c] for c in state.playable(seat)]
        suit = state.owed.suit
        actions: list[TrickyTacticsAction] = [ADDS[loc] for loc in state.adds(seat, suit)]
        actions += [REMOVES[loc, state.pid(q)] for loc, q in state.removes(seat, suit)]
        return actions

    def apply(self, state: State, seat: Seat, action: TrickyTacticsAction) -> tuple[State, list[Event]]:
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
        led = st.led_suit
        if card not in st.playable(seat):
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
            owner = self._owner_index(st, action.owner)
            if owner is None:
                raise IllegalAction(f"{action.owner!r} is not a player", "tricky-tactics.error.bad_owner")
            if owner == seat:
                raise IllegalAction("you may only remove an opponent's cube", "tricky-tactics.error.own_cube")
            if st.map[loc][owner] <= 0:
                owner_id = st.pid(owner)
                raise IllegalAction(
                    f"{owner_id} has no cube at {loc}",
                    "tricky-tactics.error.no_cube",
                    {"owner_seat": owner_id, "location": loc},
                )
            st = self._record_action(st.with_cubes(loc, owner, -1), events, seat, "remove", loc, owner, None)
        return self._after_action(st, events)

    def _owner_index(self, st: State, owner: PlayerId) -> int | None:
        """The player a Remove's ``owner`` names: ``"automa"`` or another human's seat (None: no such player)."""
        if owner == AUTOMA and st.automa is not None:
            return int(st.automa)
        if isinstance(owner, int) and not isinstance(owner, bool) and 0 <= owner < st.n:
            if owner == st.automa:
                return None
            return owner
        return None

    def view(self, state: State, seat: Seat | None) -> dict[str, JSON]:
        return views.view(state, seat, self.to_act(state))

    def timeout_action(self, state: State, seat: Seat) -> TrickyTacticsAction:
        """Play: the lowest legal card (lowest rank; ties in suit order ♠ ♥ ♦ ♣). Action: the first legal
        Add (K, then Q, then J), else the first legal Remove."""
        actions = self.legal_actions(state, seat)
        if not actions:
            raise IllegalAction("it is not this seat's turn")
        if state.phase == "play":
            cards = state.playable(seat)
            return PLAYS[min(cards, key=lambda c: (card_rank(c), SUITS.index(card_suit(c))))]
        return actions[0]

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        st = state
        n: int = st.n
        humans = HUMANS[st.options.mode]
        keys = [st.ranking(p) for p in range(n)]
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

    def log_entries(
        self, state: State, seat: Seat, action: TrickyTacticsAction, result: tuple[State, list[Event]]
    ) -> list[LogEntry]:
        """The move and everything that followed it on its own (``log``)."""
        return log.log_entries(state, result[1], self.result_entries(result[0]))


ENGINE = TrickyTactics()
