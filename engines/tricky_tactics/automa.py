"""The automa's published rules: which card of its Reveal Row it plays, and which Action it takes, each with
its reason as log entries (pure functions, used by the rules and the tests)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engines.base import JSON, LogEntry
from engines.tricky_tactics.cards import LOC_RANKS, card_rank, card_suit
from engines.tricky_tactics.state import ActionKind, Reason, reason_json


def reason(key: str, **params: JSON) -> Reason:
    """One of the automa's reasons (or a skipped Action's) as log entries: what it did and why."""
    return (LogEntry(f"tricky-tactics.reason.{key}", params),)


_TIED = LogEntry("tricky-tactics.reason.tied_kqj")
"""Appended to a reason whose Locations tied: K, then Q, then J."""


def automa_choose(row: Sequence[str], led: str | None) -> tuple[str, list[JSON]]:
    """The card the automa plays from its Reveal Row ``[Left, Right]`` and its reason (log entries).

    Only the revealed cards count: it follows if one of them matches, else plays the higher; equal ranks
    play Left.
    """
    card, why = automa_card(row, led)
    return card, reason_json(why)


def automa_card(row: Sequence[str], led: str | None) -> tuple[str, Reason]:
    """``automa_choose`` with its reason as the state keeps it."""
    if len(row) == 1:
        only = row[0]
        return only, reason("last_card", card=only)
    left, right = row

    def higher(cards: Sequence[str]) -> str:
        return cards[1] if card_rank(cards[1]) > card_rank(cards[0]) else cards[0]

    equal = card_rank(left) == card_rank(right)
    if led is None:
        card = higher(row)
        return card, reason("led_equal" if equal else "led_higher", card=card)
    matching = [c for c in row if card_suit(c) == led]
    if len(matching) == 2:
        card = higher(matching)
        return card, reason("followed_higher", suit=led, card=card)
    if len(matching) == 1:
        card = matching[0]
        return card, reason("followed_only", suit=led, card=card)
    card = higher(row)
    return card, reason("no_suit_equal" if equal else "no_suit_higher", suit=led, card=card)


def automa_action_choice(
    board: Mapping[str, Sequence[int]], supply: int, automa: int, n: int, suit: str
) -> tuple[ActionKind, str | None, int | None, list[JSON]]:
    """The automa's Action in ``suit``'s Area: (kind, location, owner index, reason as log entries).

    Add if it has cubes: the first empty Location (K, Q, J), else the one with most cubes (ties K, Q, J).
    Remove if not: among Locations holding an opponent cube, the one with most cubes in total (ties K, Q, J),
    from the opponent with most cubes there (ties: the next player clockwise from the automa).
    """
    kind, loc, owner, why = automa_action(board, supply, automa, n, suit)
    return kind, loc, owner, reason_json(why)


def automa_action(
    board: Mapping[str, Sequence[int]], supply: int, automa: int, n: int, suit: str
) -> tuple[ActionKind, str | None, int | None, Reason]:
    """``automa_action_choice`` with its reason as the state keeps it."""
    locs = [f"{lr}{suit}" for lr in LOC_RANKS]
    if supply > 0:
        for loc in locs:
            if sum(board[loc]) == 0:
                return "add", loc, None, reason("added_empty", location=loc)
        best = max(locs, key=lambda lc: (sum(board[lc]), -locs.index(lc)))
        tied = [lc for lc in locs if sum(board[lc]) == sum(board[best])]
        why = reason("added_most", location=best, cubes=sum(board[best]))
        return "add", best, None, why + ((_TIED,) if len(tied) > 1 else ())
    eligible = [lc for lc in locs if any(c > 0 for q, c in enumerate(board[lc]) if q != automa)]
    if not eligible:
        return "skip", None, None, reason("skip", suit=suit)
    best = max(eligible, key=lambda lc: (sum(board[lc]), -locs.index(lc)))
    tied_locs = [lc for lc in eligible if sum(board[lc]) == sum(board[best])]
    counts = board[best]
    clockwise = [(automa + k) % n for k in range(1, n)]
    most = max(counts[q] for q in clockwise)
    owners = [q for q in clockwise if counts[q] == most]
    owner = owners[0]
    why = reason("removed_most", owner_seat=owner, location=best, cubes=sum(counts))
    if len(tied_locs) > 1:
        why += (_TIED,)
    if len(owners) > 1:
        why += (LogEntry("tricky-tactics.reason.next_clockwise"),)
    return "remove", best, owner, why
