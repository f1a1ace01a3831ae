"""Tic Tac Top's strong bot: it writes and ranks for the table, not for its own taste.

Points come from agreeing with the Leader, so the strong writer predicts the Leader's ranking by how
central each word is to the theme (what a table tends to agree on) without the personal taste the normal
bot adds, and the strong Leader ranks the same way, so that players' lines come early and many: its own
points. As Leader it keeps the offered theme whose best seven words stand out most from the rest.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.base import Seat
from engines.tic_tac_top.bots import TicTacTopBot, centrality
from engines.tic_tac_top.rules import ENGINE
from engines.tic_tac_top.scoring import RANK_SIZE


def consensus(theme_name: str, words: Sequence[str]) -> list[str]:
    """The theme's words, most central first (ties in card order)."""
    base = centrality(theme_name, words)
    return [w for _score, _i, w in sorted(((base[i], -i, w) for i, w in enumerate(words)), reverse=True)]


def clear_cut(theme_name: str, words: Sequence[str]) -> float:
    """How well the best seven words of a theme stand apart from the rest (a Leader's theme of choice)."""
    scores = sorted(centrality(theme_name, words), reverse=True)
    top, rest = scores[:RANK_SIZE], scores[RANK_SIZE:]
    return sum(top) / len(top) - (sum(rest) / len(rest) if rest else 0.0)


class TicTacTopStrongBot(TicTacTopBot):
    """Same pace as the normal bot (one drafted word per step as Leader), sharper choices."""

    def theme_choice(self, offered: list[dict[str, Any]], rng: Any) -> int:
        themes = [(str(t.get("name", "")), list(t.get("words") or [])) for t in offered]
        if not all(words for _name, words in themes):
            return super().theme_choice(offered, rng)
        return max(range(len(themes)), key=lambda i: (clear_cut(*themes[i]), -i))

    def word_order(self, theme_name: str, words: Sequence[str], seat: Seat, turn: int) -> list[str]:
        return consensus(theme_name, words)


STRONG = TicTacTopStrongBot(ENGINE)
