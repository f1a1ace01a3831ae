"""What each seat sees of a Tricky Tactics game: everything public, plus its own hand and playable cards.

Never another hand, the automa's unrevealed cards or the set-aside cards. Lists "per player" (cube counts,
supplies, points) follow the order of the view's ``players`` list: the human seats, then the automa.
"""

from __future__ import annotations

from engines.base import JSON, Seat
from engines.tricky_tactics.cards import LOC_RANKS, LOCATIONS, SUIT_SYMBOL, SUITS
from engines.tricky_tactics.options import HUMANS
from engines.tricky_tactics.state import State, Trick, controller, reason_json


def view(st: State, seat: Seat | None, to_act: frozenset[Seat]) -> dict[str, JSON]:
    """``seat``'s view (None: a spectator's) of ``st``, where ``to_act`` may act now."""
    n: int = st.n
    values = st.values
    human_seats = HUMANS[st.options.mode]
    me = seat if seat is not None and 0 <= seat < human_seats else None
    players: list[dict[str, JSON]] = []
    for p in range(n):
        players.append(
            {
                "id": st.pid(p),
                "automa": p == st.automa,
                "supply": st.supply[p],
                "on_map": sum(st.map[loc][p] for loc in LOCATIONS),
                "score": st.scores[p],
                "hand_size": st.hand_size(p),
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
            ctl = controller(counts)
            ctls.append(ctl)
            locs.append(
                {
                    "id": loc,
                    "rank": lr,
                    "value": values[lr],
                    "cubes": list(counts),
                    "total": sum(counts),
                    "controller": None if ctl is None else st.pid(ctl),
                }
            )
        whole = ctls[0] if ctls[0] is not None and all(c == ctls[0] for c in ctls) else None
        areas.append(
            {
                "suit": suit,
                "symbol": SUIT_SYMBOL[suit],
                "locations": locs,
                "controller": None if whole is None else st.pid(whole),
            }
        )
    turn = st.turn
    pending = st.pending
    pending_view: dict[str, JSON] | None = None
    if pending is not None:
        w, suit = pending.player, pending.suit
        pending_view = {
            "player": st.pid(w),
            "suit": suit,
            "add": st.adds(w, suit),
            "remove": [{"location": loc, "owner": st.pid(q)} for loc, q in st.removes(w, suit)],
        }
    automa_view: dict[str, JSON] | None = None
    if st.automa is not None:
        last = st.automa_last
        automa_view = {
            "row": list(st.automa_row),
            "unrevealed": len(st.automa_deck),
            "last_row": None if last is None else list(last.row),
            "last_card": None if last is None else last.card,
            "last_reason": None if last is None else reason_json(last.reason),
        }
    trick_view: list[dict[str, JSON]] = []
    last_automa = st.automa_last
    for p, c in st.trick:
        entry: dict[str, JSON] = {"player": st.pid(p), "card": c}
        if p == st.automa and last_automa is not None and last_automa.card == c:
            entry["reason"] = reason_json(last_automa.reason)
        trick_view.append(entry)
    return {
        "mode": st.options.mode,
        "round": st.round,
        "rounds": st.options.rounds,
        "phase": st.phase,
        "you": me,
        "players": players,
        "scores": [st.scores[p] for p in range(human_seats)],  # per human seat, for the room page
        "dealer": st.pid(st.dealer),
        "leader": st.pid(st.leader),
        "turn": None if turn is None else st.pid(turn),
        "to_act": sorted(to_act),
        "led_suit": st.led_suit,
        "trick": trick_view,
        "tricks": [trick_view_of(st, t) for t in st.tricks],
        "last_trick": None if st.last_trick is None else trick_view_of(st, st.last_trick),
        "tricks_per_round": st.tricks_per_round,
        "pending_action": pending_view,
        "map": areas,
        "values": values,
        "area_bonus": st.bonus,
        "automa": automa_view,
        "set_aside": len(st.set_aside),
        "last_scoring": None if st.last_scoring is None else st.last_scoring.to_json(),
        "round_points": [list(points) for points in st.round_points],
        "hand": None if me is None else list(st.hands[me]),
        "playable": (st.playable(me) if me is not None and st.phase == "play" and turn == me else []),
        "standings": st.standings() if st.phase == "over" else None,
    }


def trick_view_of(st: State, t: Trick) -> dict[str, JSON]:
    """A finished trick as views show it: players by id."""
    return {
        "leader": st.pid(t.leader),
        "cards": [{"player": st.pid(p), "card": c} for p, c in t.cards],
        "winner": st.pid(t.winner),
        "action": None if t.action is None else t.action.to_json(),
    }
