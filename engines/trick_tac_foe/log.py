"""The public log of an action: what its events show everyone, as catalogue keys and their facts."""

from __future__ import annotations

from engines.base import Event, LogEntry
from engines.trick_tac_foe.outcome import outcome_of
from engines.trick_tac_foe.state import TrickTacFoeState

_RESOLVED: dict[tuple[bool, str], str] = {
    (False, "place"): "trick-tac-foe.log.placed",
    (False, "flip"): "trick-tac-foe.log.flipped",
    (False, "none"): "trick-tac-foe.log.unchanged",
    (True, "place"): "trick-tac-foe.log.wild_placed",
    (True, "flip"): "trick-tac-foe.log.wild_flipped",
    (True, "none"): "trick-tac-foe.log.wild_unchanged",
}
"""The log key of a trick's cell, by (chosen with a wild 10, effect)."""


def log_entries(events: list[Event], after: TrickTacFoeState) -> list[LogEntry]:
    """The entries of an action's ``events`` (never an unrevealed card), ``after`` being the state they led to."""
    entries: list[LogEntry] = []
    for event in events:
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
            outcome = outcome_of(after)
            if outcome is not None and outcome.summary is not None:
                entries.append(outcome.summary)
    return entries
