"""Tic Tac Top's normal bot: it writes and ranks by how central a word is to the theme, plus its own taste."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from engines.base import Bot, Seat
from engines.tic_tac_top.actions import DONE, NEXT, ChooseTheme, Draft, PlaceWord, Rank, TicTacTopAction
from engines.tic_tac_top.rules import ENGINE, TicTacTopEngine
from engines.tic_tac_top.scoring import RANK_SIZE
from engines.tic_tac_top.state import TicTacTopState

CELL_ORDER = (4, 0, 8, 2, 6, 3, 5, 1, 7)
"""Where a bot writes its words, best first: the centre (4 lines), then the corners along one diagonal and
the other (so the 3 best words make a line at once), then the edges, two opposite edges last: if the
Leader's 7 words are the bot's best 7, the grid makes the maximum of 5 lines."""


def _unit_hash(*parts: str) -> float:
    digest = hashlib.sha256("\x1f".join(parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def centrality(theme_name: str, words: Sequence[str]) -> list[float]:
    """A fixed, deterministic "how central is this word to the theme" score (higher = more central).

    Words listed earlier on the card weigh more, plus a stable per-theme hash: every bot agrees on it, so
    bot Leaders and bot players line up with each other the way a table of friends tends to.
    """
    last = max(1, len(words) - 1)
    return [0.65 * (1 - i / last) + 0.35 * _unit_hash("centre", theme_name, w.casefold()) for i, w in enumerate(words)]


def preference(theme_name: str, words: Sequence[str], seat: Seat, turn: int) -> list[str]:
    """The words in a seat's order of preference: centrality plus a small personal taste."""
    base = centrality(theme_name, words)
    scored = [
        (base[i] + 0.12 * _unit_hash("taste", str(seat), str(turn), theme_name, w), -i, w) for i, w in enumerate(words)
    ]
    return [w for _s, _i, w in sorted(scored, reverse=True)]


class TicTacTopBot(Bot[TicTacTopState]):
    """Plays from its own view only: the theme's words, its own grid or draft, the phase."""

    LEADER_STEP_SECONDS = 4.0

    def __init__(self, engine: TicTacTopEngine) -> None:
        self.engine = engine

    def delay(self, state: TicTacTopState, seat: Seat) -> float | None:
        """Optional pacing hint for the server's bot driver: seconds to wait before this bot's next move,
        or None for the server's default. A bot Leader steps the reveal and the score screen at the game's
        own pace (the timer would fire at the same moment), and drafts its ranking slowly (6 steps of 4 s,
        about 24 s before it submits) so that people have time to write their grids."""
        if state.phase == "reveal":
            return state.options.reveal_pause
        if state.phase == "score":
            return state.options.score_pause
        if state.phase == "write" and seat == state.leader:
            return self.LEADER_STEP_SECONDS
        return None

    def moves_left(self, state: TicTacTopState, seat: Seat) -> int | None:
        """A writer's words still to write, and its ``done``: each is a move of its own, and once the
        Leader has submitted they must all fit into the countdown."""
        if state.phase != "write" or seat == state.leader or state.finished[seat] is not None:
            return None
        return state.grids[seat].count(None) + 1

    def theme_choice(self, offered: list[dict[str, Any]], rng: Any) -> int:
        """Which offered theme a bot Leader keeps (any of them)."""
        return int(rng.randrange(len(offered)))

    def word_order(self, theme_name: str, words: Sequence[str], seat: Seat, turn: int) -> list[str]:
        """The words in the order the bot ranks and writes them."""
        return preference(theme_name, words, seat, turn)

    def choose(self, state: TicTacTopState, seat: Seat, rng: Any) -> TicTacTopAction:
        v = self.engine.view(state, seat)
        phase = v["phase"]
        if phase == "choose":
            return ChooseTheme(index=self.theme_choice(v["offered"], rng))
        if phase != "write":
            return NEXT
        theme = v["theme"]
        prefs = self.word_order(theme["name"], theme["words"], seat, int(v["turn"]))
        if v["role"] == "leader":
            # Rank one word at a time (a draft per step), so players get a little time to write.
            draft = list(v["draft"] or [])
            for w in prefs:
                if len(draft) >= RANK_SIZE:
                    break
                if w not in draft:
                    draft.append(w)
                    if len(draft) < RANK_SIZE - 1:
                        return Draft(words=tuple(draft))
            return Rank(words=tuple(draft[:RANK_SIZE]))
        grid = list(v["grid"])
        empty = [c for c in CELL_ORDER if grid[c] is None]
        unused = [w for w in prefs if w not in grid]
        if empty and unused:
            return PlaceWord(cell=empty[0], word=unused[0])
        return DONE


BOT = TicTacTopBot(ENGINE)
