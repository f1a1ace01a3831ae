"""Tricky Tactics' normal bot: a sensible trick-taker working from its seat's view only."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from engines.base import Bot, IllegalAction, Seat
from engines.tricky_tactics.actions import PLAYS, Add, PlayCard, Remove, TrickyTacticsAction
from engines.tricky_tactics.cards import LOC_RANKS, LOCATIONS, RANK_VALUE, RANKS, SUITS, card_rank, card_suit
from engines.tricky_tactics.rules import ENGINE
from engines.tricky_tactics.state import PlayerId, State


class TrickyTacticsBot(Bot[State]):
    """It values winning a trick in a suit by the best Action it would then have (the change in its map points
    against the strongest opponent, plus a little for safer margins). It tries to win tricks in suits where a
    cube matters (cheapest winning card when last to play, else its highest), and ducks otherwise (its highest
    card that still loses). It discards from its least valuable suit and leads a sure winner in a valuable
    suit when it holds one, else a low card in its least valuable suit.
    """

    THRESHOLD = 0.75

    def choose(self, state: State, seat: Seat, rng: Any) -> TrickyTacticsAction:
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
            actions = [a for a in legal if not isinstance(a, PlayCard)]
            return max(
                actions,
                key=lambda a: (
                    _eval(_after(board, me, a, ids), me, values, bonus),
                    isinstance(a, Add),
                    -LOCATIONS.index(a.location),
                ),
            )
        worth = {s: suit_worth(board, me, supply[me], s, values, bonus) for s in SUITS}
        hand: list[str] = view["hand"]
        playable = [a.card for a in legal if isinstance(a, PlayCard)]
        trick = view["trick"]
        if not trick:
            return PLAYS[_lead(view, hand, playable, worth, self.THRESHOLD)]
        last = len(trick) == len(ids) - 1
        return PLAYS[answer_card(playable, [t["card"] for t in trick], worth.__getitem__, self.THRESHOLD, last)]


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


def _after(
    board: Mapping[str, Sequence[int]], me: int, action: Add | Remove, ids: list[PlayerId]
) -> dict[str, list[int]]:
    out = {loc: list(c) for loc, c in board.items()}
    if isinstance(action, Add):
        out[action.location][me] += 1
    else:
        out[action.location][ids.index(action.owner)] -= 1
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


def suit_worth(
    board: Mapping[str, list[int]], me: int, supply: int, suit: str, values: Mapping[str, int], bonus: int
) -> float:
    """How much the best Action in ``suit``'s Area would raise ``me``'s reading of the map (0: none would)."""
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


BOT = TrickyTacticsBot()
