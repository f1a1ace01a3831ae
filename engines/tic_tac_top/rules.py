"""Tic Tac Top: a party word game for 3–7 players on a shared screen (rules: docs/games/tic-tac-top.md).

Rules as implemented:

- There are as many turns as players; the Leader of turn ``t`` (1-based) is seat ``t - 1``: seat 0 leads
  first and the role passes clockwise (seat + 1). In a quick game (6–7 players only) the game also ends after
  any turn that leaves someone with at least 25 points.
- **Choose.** The Leader is offered 2 themes (drawn from the seed when the game starts) and keeps one; both
  leave the pool. Custom themes typed in by the host are offered first (in a seeded order), then the
  language deck (``engines/tic_tac_top/decks/<language>.json``) fills the remaining offers. With
  ``custom_only`` the deck is not used: there must be at least one custom theme per turn and, when there are
  fewer than two per turn, the first turns get pairs and the last turns a single theme.
- **Write** (simultaneous). The Leader secretly ranks 7 distinct words of the 12 (``draft`` saves a partial
  ranking, ``rank`` submits it for good). Every other player fills a 3×3 grid with distinct words, one cell at
  a time (``place`` / ``clear``), and may declare ``done`` (final). When the Leader has submitted, a 5-second
  countdown (timer key ``close-<turn>``) closes the writing; at its end every unfinished grid locks as it is
  (``lock``, the timeout action; blank cells never match). With ``hard_timer`` a 90-second timer (key
  ``write-<turn>``) runs from the moment the theme is chosen; when it expires the players' grids lock and the
  Leader's ranking is auto-completed: the saved draft, then the theme's other words in card order, up to 7.
  (The 5-second countdown always runs in full, so the hard timer can overrun by at most 5 seconds.) If every
  grid is finished before the Leader submits, the reveal starts as soon as the Leader submits.
- **Reveal.** Grids become public. The Leader announces the ranked words one at a time (``next``, timer key
  ``reveal-<turn>-<i>`` of ``reveal_pause`` seconds, whose timeout is ``next``, so the show runs by itself
  unless paced). A cell is circled when its word is announced; a line (3 rows, 3 columns, 2 diagonals)
  completes on the word that circles its last cell.
- **Scoring** after the 7th word (``i*`` = the word on which the turn's first line appeared, if any):
  each player +1 per line (at most 5; D), +2 for every player whose first line came on word ``i*`` (C);
  the Leader +3 / +2 / +1 if ``i*`` is the 3rd / 4th / 5th word (A, once), plus ``max(0, M - 1)`` where ``M``
  is the most lines any single player made (B). Then a score screen (``next``, timer key ``score-<turn>`` of
  ``score_pause`` seconds) before the next turn. After the last turn the game is over: the highest total
  wins, ties share the win.

Who sees what (views and events):

- Public: the phase, the turn, the Leader, the names of the offered themes, the chosen theme and its 12
  words, how many cells each player has filled and who has finished, whether the Leader has submitted (the
  countdown), the announced words, scores and past turns.
- The Leader alone sees the words of both offered themes and their own draft/ranking; the other seats and
  spectators see only the words announced so far (the full ranking once all 7 are out).
- A player alone sees their own grid while writing; from the start of the reveal every grid is public,
  with its circles, completed lines (with the word number of completion) and first line.
- ``log_entries`` are public and never name a secret word.

``legal_actions`` is a *sample* (the grids are too many to list): for a player, placing one of the first
three unused words into the first empty cell, and ``done``; for the Leader, three complete rankings.
``apply`` validates every action on its own.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, Strict, model_validator

from engines.base import (
    GRID_LINES as LINES,
)
from engines.base import (
    JSON,
    Action,
    ActionModel,
    Actions,
    Bot,
    Engine,
    Event,
    GameOptions,
    IllegalAction,
    InvalidOptions,
    LogEntry,
    Outcome,
    Refusal,
    Seat,
    SeatInfo,
    Timer,
    ranks_from_scores,
)

Phase = Literal["choose", "write", "reveal", "score", "over"]

WORDS_PER_THEME = 12
RANK_SIZE = 7
CELLS = 9
MAX_LINES = 5
QUICK_TARGET = 25
COUNTDOWN_SECONDS = 5.0
HARD_TIMER_SECONDS = 90.0
MAX_THEME_NAME = 60
MAX_WORD = 40
MAX_CUSTOM_THEMES = 60
LEADER_BONUS = {3: 3, 4: 2, 5: 1}
FIRST_LINE_BONUS = 2


DECK_DIR = Path(__file__).parent / "decks"
"""Where the theme decks live (``en.json``, ``fr.json``); tests may point it elsewhere."""

# ---- themes and options -------------------------------------------------------------------------


@dataclass(frozen=True)
class Theme:
    name: str
    words: tuple[str, ...]

    def to_json(self) -> dict[str, JSON]:
        return {"name": self.name, "words": list(self.words)}


def clean_theme(name: Any, words: Any) -> Theme:
    """Validate one theme (deck or custom): a name and 12 distinct non-empty words, trimmed.

    Raises ``ValueError`` with a human-readable reason.
    """
    if not isinstance(name, str):
        raise ValueError("a theme name must be a string")
    name = " ".join(name.split())
    if not 1 <= len(name) <= MAX_THEME_NAME:
        raise ValueError(f"a theme name must be 1–{MAX_THEME_NAME} characters")
    if not isinstance(words, list | tuple) or not all(isinstance(w, str) for w in words):
        raise ValueError(f"theme {name!r}: words must be a list of strings")
    cleaned = [" ".join(w.split()) for w in words]
    if len(cleaned) != WORDS_PER_THEME:
        raise ValueError(f"theme {name!r}: needs exactly {WORDS_PER_THEME} words, got {len(cleaned)}")
    for w in cleaned:
        if not 1 <= len(w) <= MAX_WORD:
            raise ValueError(f"theme {name!r}: every word must be 1–{MAX_WORD} characters (got {w!r})")
    seen: set[str] = set()
    for w in cleaned:
        if w.casefold() in seen:
            raise ValueError(f"theme {name!r}: the word {w!r} appears twice")
        seen.add(w.casefold())
    return Theme(name, tuple(cleaned))


class CustomTheme(BaseModel):
    """A theme typed in by the host: a name and 12 distinct words (trimmed; case-insensitive distinct)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(title="Theme", description=f"1–{MAX_THEME_NAME} characters.")
    words: tuple[str, ...] = Field(
        title="Words", description=f"Exactly {WORDS_PER_THEME} distinct words, 1–{MAX_WORD} characters each."
    )

    @model_validator(mode="before")
    @classmethod
    def _clean(cls, data: Any) -> Any:
        if isinstance(data, Mapping) and "name" in data and "words" in data:
            theme = clean_theme(data["name"], data["words"])
            return {**data, "name": theme.name, "words": list(theme.words)}
        return data


class TicTacTopOptions(GameOptions):
    """Lobby options; the lobby renders its form from this model's JSON schema."""

    players: int = Field(4, ge=3, le=7, title="Players", description="3 to 7 players.")
    language: Literal["en", "fr"] = Field("en", title="Language", description="Theme deck: English or French.")
    hard_timer: bool = Field(
        False,
        title="90-second timer",
        description="Competitive: the writing closes 90 seconds after the theme is chosen, whatever happens.",
    )
    quick_game: bool = Field(
        False,
        title="Quick game",
        description="6–7 players only: the game ends after any turn where someone has 25 points or more.",
    )
    custom_themes: tuple[CustomTheme, ...] = Field(
        (),
        max_length=MAX_CUSTOM_THEMES,
        title="Custom themes",
        description="Themes of your own (12 words each); they are offered before the deck's themes.",
    )
    custom_only: bool = Field(
        False,
        title="Custom themes only",
        description="Play only the custom themes (at least one per player).",
    )
    reveal_pause: float = Field(
        3.0, ge=1, le=10, title="Reveal pause", description="Seconds between two announced words (1–10)."
    )
    score_pause: float = Field(
        8.0, ge=2, le=60, title="Score screen", description="Seconds the turn's scoring stays up (2–60)."
    )

    @model_validator(mode="after")
    def _consistent(self) -> TicTacTopOptions:
        if self.quick_game and self.players < 6:
            raise ValueError(f"the quick game (25 points) is only for 6 or 7 players, not {self.players}")
        if self.custom_only and len(self.custom_themes) < self.players:
            raise ValueError(
                f"custom themes only needs at least one theme per turn: {self.players} themes for "
                f"{self.players} players, got {len(self.custom_themes)}"
            )
        return self


_DECKS: dict[str, tuple[Theme, ...]] = {}


def load_deck(language: str) -> tuple[Theme, ...]:
    """The theme deck of a language, read once from ``DECK_DIR/<language>.json`` and validated."""
    path = DECK_DIR / f"{language}.json"
    key = str(path)
    if key not in _DECKS:
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise InvalidOptions(f"no {language!r} theme deck is installed ({path})") from None
        if not isinstance(raw, list):
            raise InvalidOptions(f"{path}: a theme deck must be a JSON list")
        themes: list[Theme] = []
        for i, item in enumerate(raw):
            if not isinstance(item, dict):
                raise InvalidOptions(f"{path}: theme #{i} must be an object")
            try:
                themes.append(clean_theme(item.get("name"), item.get("words")))
            except ValueError as err:
                raise InvalidOptions(f"{path}: theme #{i}: {err}") from None
        _DECKS[key] = tuple(themes)
    return _DECKS[key]


# ---- state --------------------------------------------------------------------------------------


Grid = tuple[str | None, ...]
_EMPTY_GRID: Grid = (None,) * CELLS


@dataclass(frozen=True)
class TicTacTopState:
    """The full game state, immutable: ``apply`` returns a new one (``dataclasses.replace``) that shares
    what did not change. The defaults are those of a game before its first turn: ``at_turn(1)`` starts it."""

    options: TicTacTopOptions
    offers: tuple[tuple[Theme, ...], ...]  # per turn, dealt when the game starts (future offers are secret)
    turn: int = 0  # 1-based
    phase: Phase = "choose"
    theme: Theme | None = None  # the chosen theme of the current turn
    draft: tuple[str, ...] = ()  # the Leader's saved partial ranking
    ranking: tuple[str, ...] = ()  # the Leader's submitted ranking (7 words) or ()
    grids: tuple[Grid, ...] = ()  # per seat, 9 cells; the Leader's stays blank
    finished: tuple[str | None, ...] = ()  # per seat: None (writing), "done" or "locked"
    announced: int = 0  # how many ranked words have been announced
    scores: tuple[int, ...] = ()
    history: tuple[Mapping[str, JSON], ...] = ()  # one public record per finished turn, never changed once made

    def at_turn(self, turn: int) -> TicTacTopState:
        """This game at the start of ``turn``: its Leader chooses a theme, every grid is blank."""
        n = self.players
        return replace(
            self,
            turn=turn,
            phase="choose",
            theme=None,
            draft=(),
            ranking=(),
            grids=(_EMPTY_GRID,) * n,
            finished=(None,) * n,
            announced=0,
        )

    def with_grid(self, seat: Seat, grid: Grid) -> TicTacTopState:
        return replace(self, grids=_with(self.grids, seat, grid))

    @property
    def players(self) -> int:
        return self.options.players

    @property
    def leader(self) -> Seat:
        return (self.turn - 1) % self.options.players


T = TypeVar("T")


def _with(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``items`` with one item replaced."""
    return (*items[:index], value, *items[index + 1 :])


def deal_offers(pool: Sequence[Theme], turns: int) -> tuple[tuple[Theme, ...], ...]:
    """Pairs while there are enough themes for every later turn to get one, then single themes."""
    pairs = max(0, min(turns, len(pool) - turns))
    offers: list[tuple[Theme, ...]] = []
    i = 0
    for t in range(turns):
        k = 2 if t < pairs else 1
        offers.append(tuple(pool[i : i + k]))
        i += k
    return tuple(offers)


# ---- scoring (pure) -----------------------------------------------------------------------------


def grid_marks(grid: Sequence[str | None], announced: Sequence[str]) -> list[int | None]:
    """For each cell, the 1-based number of the announced word that circles it, or None."""
    position = {w: i + 1 for i, w in enumerate(announced)}
    return [position.get(w) if w is not None else None for w in grid]


def grid_lines(marks: Sequence[int | None]) -> list[tuple[int, tuple[int, int, int]]]:
    """Completed lines as (word number of completion, cells), in completion order."""
    done: list[tuple[int, tuple[int, int, int]]] = []
    for line in LINES:
        ks = [marks[c] for c in line]
        if all(k is not None for k in ks):
            done.append((max(k for k in ks if k is not None), line))
    done.sort(key=lambda item: (item[0], LINES.index(item[1])))
    return done


def grid_progress(grid: Sequence[str | None], announced: Sequence[str]) -> dict[str, JSON]:
    """A grid as everyone sees it during the reveal."""
    marks = grid_marks(grid, announced)
    lines = grid_lines(marks)
    return {
        "words": list(grid),
        "marks": marks,
        "lines": [{"cells": list(cells), "word": k} for k, cells in lines],
        "line_count": len(lines),
        "first_line": lines[0][0] if lines else None,
    }


def _reason(key: str, **params: JSON) -> dict[str, JSON]:
    """A scoring row's reason, as a log entry (``tic-tac-top.reason.*``)."""
    return LogEntry(f"tic-tac-top.reason.{key}", params).to_json()


_SIMPLE = {"wrote": "tic-tac-top.log.wrote", "erased": "tic-tac-top.log.erased"}
"""Events that log only who did them."""


def score_turn(ranking: Sequence[str], grids: Sequence[Sequence[str | None] | None], leader: Seat) -> dict[str, JSON]:
    """The turn's scoring (docs/games/tic-tac-top.md) with a line-by-line breakdown.

    ``grids`` has one entry per seat (the Leader's is ignored). Parts: A = the Leader's first-line bonus,
    B = the Leader's ``max(0, M - 1)``, C = +2 for each player whose first line came on word i*, D = +1 per
    line (at most 5).
    """
    n = len(grids)
    lines_by_seat: list[int | None] = [None] * n
    first_by_seat: list[int | None] = [None] * n
    for seat, grid in enumerate(grids):
        if seat == leader:
            continue
        found = grid_lines(grid_marks(grid or [None] * CELLS, ranking))
        lines_by_seat[seat] = min(MAX_LINES, len(found))
        first_by_seat[seat] = found[0][0] if found else None
    firsts = [k for k in first_by_seat if k is not None]
    i_star = min(firsts) if firsts else None
    first_seats = [s for s in range(n) if i_star is not None and first_by_seat[s] == i_star]
    m = max((c for c in lines_by_seat if c is not None), default=0)
    points = [0] * n
    rows: list[dict[str, JSON]] = []

    a = LEADER_BONUS.get(i_star, 0) if i_star is not None else 0
    if i_star is None:
        a_reason = _reason("no_line")
    elif a:
        a_reason = _reason("first_line_on", word_number=i_star)
    else:
        a_reason = _reason("first_line_late", word_number=i_star)
    rows.append({"part": "A", "seat": leader, "points": a, "reason": a_reason})
    for s in first_seats:
        reason = _reason("own_first_line", word_number=i_star or 0)
        rows.append({"part": "C", "seat": s, "points": FIRST_LINE_BONUS, "reason": reason})
    b = max(0, m - 1)
    rows.append({"part": "B", "seat": leader, "points": b, "reason": _reason("best_grid", lines=m)})
    for s in range(n):
        count = lines_by_seat[s]
        if count is not None:
            rows.append({"part": "D", "seat": s, "points": count, "reason": _reason("lines", lines=count)})
    for row in rows:
        points[int(row["seat"])] += int(row["points"])
    return {
        "leader": leader,
        "ranking": list(ranking),
        "first_line": (
            {"index": i_star, "word": ranking[i_star - 1], "seats": first_seats} if i_star is not None else None
        ),
        "max_lines": m,
        "lines_by_seat": lines_by_seat,
        "first_line_by_seat": first_by_seat,
        "rows": rows,
        "points": points,
    }


# ---- action parsing -----------------------------------------------------------------------------


def _integer(name: str) -> Refusal:
    return Refusal("tic-tac-top.error.not_integer", f"{name!r} must be an integer", {"field": name})


_WORDS = Refusal("tic-tac-top.error.bad_words", "'words' must be a list of words")
Words = Annotated[tuple[Annotated[str, Strict()], ...], Strict(False)]
"""A JSON array of words, as a tuple (see ``engines.base.Pair``)."""


class ChooseTheme(ActionModel):
    type: Literal["choose_theme"]
    index: Annotated[int, _integer("index")]


class Draft(ActionModel):
    type: Literal["draft"]
    words: Annotated[Words, _WORDS]


class Rank(ActionModel):
    type: Literal["rank"]
    words: Annotated[Words, _WORDS]


class PlaceWord(ActionModel):
    type: Literal["place"]
    cell: Annotated[int, _integer("cell")]
    word: Annotated[str, Refusal("tic-tac-top.error.bad_word", "'word' must be a string")]


class Clear(ActionModel):
    type: Literal["clear"]
    cell: Annotated[int, _integer("cell")]


class Done(ActionModel):
    type: Literal["done"]


class Lock(ActionModel):
    type: Literal["lock"]


class Next(ActionModel):
    type: Literal["next"]


TicTacTopAction = ChooseTheme | Draft | Rank | PlaceWord | Clear | Done | Lock | Next
ACTIONS = Actions[TicTacTopAction](ChooseTheme, Draft, Rank, PlaceWord, Clear, Done, Lock, Next, missing_fields=True)
LEADER_WRITE = (Draft, Rank)
PLAYER_WRITE = (PlaceWord, Clear, Done, Lock)


# ---- the engine ---------------------------------------------------------------------------------


class TicTacTopEngine(Engine[TicTacTopState, TicTacTopOptions, TicTacTopAction]):
    name = "tic-tac-top"
    actions = ACTIONS
    title = "Tic Tac Top"
    options_model = TicTacTopOptions
    host_actions = frozenset({"next"})

    def seats(self, options: TicTacTopOptions) -> list[SeatInfo]:
        return [SeatInfo(f"Player {i + 1}") for i in range(options.players)]

    def options_of(self, state: TicTacTopState) -> TicTacTopOptions:
        return state.options

    # ---- setup ----------------------------------------------------------------------------------

    def new_game(self, options: TicTacTopOptions, seed: int) -> TicTacTopState:
        rng = random.Random(seed)
        n = options.players
        custom = [Theme(t.name, t.words) for t in options.custom_themes]
        rng.shuffle(custom)
        pool = custom[: 2 * n]
        if not options.custom_only:
            need = 2 * n - len(pool)
            if need:
                deck = load_deck(options.language)
                if len(deck) < need:
                    raise InvalidOptions(f"the {options.language!r} deck has only {len(deck)} themes")
                pool += rng.sample(deck, need)
        return TicTacTopState(options=options, offers=deal_offers(pool, n), scores=(0,) * n).at_turn(1)

    # ---- whose turn -----------------------------------------------------------------------------

    def to_act(self, state: TicTacTopState) -> frozenset[Seat]:
        if state.phase == "over":
            return frozenset()
        if state.phase != "write":
            return frozenset({state.leader})
        seats = {s for s in range(state.players) if s != state.leader and state.finished[s] is None}
        if not state.ranking:
            seats.add(state.leader)
        return frozenset(seats)

    def legal_actions(self, state: TicTacTopState, seat: Seat) -> list[Action]:
        """A sample of legal actions (see the module docstring); ``apply`` is the authority."""
        if seat not in self.to_act(state):
            return []
        if state.phase == "choose":
            return [{"type": "choose_theme", "index": i} for i in range(len(state.offers[state.turn - 1]))]
        if state.phase in ("reveal", "score"):
            return [{"type": "next"}]
        assert state.theme is not None
        words = list(state.theme.words)
        if seat == state.leader:
            return [
                {"type": "rank", "words": words[:RANK_SIZE]},
                {"type": "rank", "words": words[::-1][:RANK_SIZE]},
                {"type": "rank", "words": words[3 : 3 + RANK_SIZE]},
            ]
        grid = state.grids[seat]
        actions: list[Action] = []
        if None in grid:
            cell = grid.index(None)
            unused = [w for w in words if w not in grid]
            actions += [{"type": "place", "cell": cell, "word": w} for w in unused[:3]]
        actions.append({"type": "done"})
        return actions

    # ---- applying -------------------------------------------------------------------------------

    def apply(self, state: TicTacTopState, seat: Seat, action: Action) -> tuple[TicTacTopState, list[Event]]:
        return self.play(state, seat, ACTIONS.parse(action))

    def play(self, state: TicTacTopState, seat: Seat, action: TicTacTopAction) -> tuple[TicTacTopState, list[Event]]:
        """``apply`` of an action already parsed."""
        kind = action.type
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
            raise IllegalAction(f"no seat {seat!r} in this game", "action.no_seat")
        if state.phase == "over":
            raise IllegalAction("the game is over", "action.game_over")
        leader = state.leader
        if state.phase == "choose":
            if kind != "choose_theme":
                raise IllegalAction(
                    "only 'choose_theme' is possible now", "tic-tac-top.error.choosing_theme", {"seat": leader}
                )
            if seat != leader:
                raise IllegalAction(
                    "only the Leader chooses the theme", "tic-tac-top.error.leader_chooses", {"seat": leader}
                )
        elif state.phase == "write":
            if isinstance(action, LEADER_WRITE):
                if seat != leader:
                    raise IllegalAction("only the Leader ranks words", "tic-tac-top.error.leader_ranks")
                if state.ranking:
                    raise IllegalAction("your ranking is already submitted", "tic-tac-top.error.ranked_already")
            elif isinstance(action, PLAYER_WRITE):
                if seat == leader:
                    raise IllegalAction("the Leader has no grid", "tic-tac-top.error.leader_no_grid")
                if state.finished[seat] is not None:
                    raise IllegalAction("your grid is already locked", "tic-tac-top.error.grid_locked")
            else:
                raise IllegalAction(f"{kind!r} is not possible while writing", "tic-tac-top.error.not_while_writing")
        elif kind != "next":
            raise IllegalAction(f"only 'next' is possible during the {state.phase}", "tic-tac-top.error.only_next")
        elif seat != leader:
            raise IllegalAction(
                "only the Leader or the host moves the show on", "tic-tac-top.error.leader_paces", {"seat": leader}
            )

        events: list[Event] = []
        if isinstance(action, ChooseTheme):
            new = self._choose(state, action.index, events)
        elif isinstance(action, LEADER_WRITE):
            new = self._rank(state, action.words, isinstance(action, Rank), events)
        elif isinstance(action, PlaceWord):
            new = self._place(state, seat, action.cell, action.word, events)
        elif isinstance(action, Clear):
            new = self._clear(state, seat, action.cell, events)
        elif isinstance(action, Done | Lock):
            how = "done" if kind == "done" else "locked"
            new = replace(state, finished=_with(state.finished, seat, how))
            events.append(Event("finished", {"seat": seat, "how": how, "filled": CELLS - new.grids[seat].count(None)}))
            new = self._maybe_close(new, events)
        elif state.phase == "reveal":
            new = self._announce(state, events)
        else:
            new = self._start_turn(state, state.turn + 1, events)
        return new, events

    def _choose(self, state: TicTacTopState, index: int, events: list[Event]) -> TicTacTopState:
        offered = state.offers[state.turn - 1]
        if not 0 <= index < len(offered):
            raise IllegalAction(
                "'index' is not an offered theme", "tic-tac-top.error.bad_theme", {"themes": len(offered)}
            )
        theme = offered[index]
        events.append(
            Event(
                "theme_chosen",
                {
                    "turn": state.turn,
                    "leader": state.leader,
                    "theme": theme.to_json(),
                    "discarded": [t.name for i, t in enumerate(offered) if i != index],
                },
            )
        )
        return replace(state, theme=theme, phase="write")

    def _check_words(self, state: TicTacTopState, words: tuple[str, ...], exact: bool) -> None:
        assert state.theme is not None
        if exact and len(words) != RANK_SIZE:
            raise IllegalAction(
                f"a ranking has exactly {RANK_SIZE} words", "tic-tac-top.error.ranking_size", {"size": RANK_SIZE}
            )
        if len(words) > RANK_SIZE:
            raise IllegalAction(
                f"a ranking has at most {RANK_SIZE} words", "tic-tac-top.error.ranking_too_long", {"size": RANK_SIZE}
            )
        for w in words:
            if w not in state.theme.words:
                raise IllegalAction(
                    f"{w!r} is not one of the theme's words", "tic-tac-top.error.not_theme_word", {"word": w}
                )
        if len(set(words)) != len(words):
            raise IllegalAction("a ranking cannot hold the same word twice", "tic-tac-top.error.word_twice")

    def _rank(self, state: TicTacTopState, words: tuple[str, ...], submit: bool, events: list[Event]) -> TicTacTopState:
        self._check_words(state, words, exact=submit)
        seat = state.leader
        if not submit:
            events.append(Event("leader_drafting", {"seat": seat}, {seat: {"draft": list(words)}}))
            return replace(state, draft=words)
        writing = any(state.finished[s] is None for s in range(state.players) if s != seat)
        events.append(
            Event(
                "ranked",
                {"seat": seat, "countdown": COUNTDOWN_SECONDS if writing else None},
                {seat: {"ranking": list(words)}},
            )
        )
        return self._maybe_close(replace(state, draft=words, ranking=words), events)

    def _place(self, state: TicTacTopState, seat: Seat, cell: int, word: str, events: list[Event]) -> TicTacTopState:
        assert state.theme is not None
        if not 0 <= cell < CELLS:
            raise IllegalAction(f"cell {cell} is off the grid", "tic-tac-top.error.bad_cell")
        if word not in state.theme.words:
            raise IllegalAction(
                f"{word!r} is not one of the theme's words", "tic-tac-top.error.not_theme_word", {"word": word}
            )
        grid = state.grids[seat]
        if word in grid:
            raise IllegalAction(f"{word!r} is already in your grid", "tic-tac-top.error.word_in_grid", {"word": word})
        grid = _with(grid, cell, word)
        events.append(
            Event(
                "wrote",
                {"seat": seat, "filled": CELLS - grid.count(None)},
                {seat: {"cell": cell, "word": word}},
            )
        )
        return state.with_grid(seat, grid)

    def _clear(self, state: TicTacTopState, seat: Seat, cell: int, events: list[Event]) -> TicTacTopState:
        if not 0 <= cell < CELLS:
            raise IllegalAction(f"cell {cell} is off the grid", "tic-tac-top.error.bad_cell")
        grid = state.grids[seat]
        if grid[cell] is None:
            raise IllegalAction(f"cell {cell} is already empty", "tic-tac-top.error.cell_empty")
        grid = _with(grid, cell, None)
        events.append(Event("erased", {"seat": seat, "filled": CELLS - grid.count(None)}, {seat: {"cell": cell}}))
        return state.with_grid(seat, grid)

    def _maybe_close(self, state: TicTacTopState, events: list[Event]) -> TicTacTopState:
        writers = [s for s in range(state.players) if s != state.leader]
        if not state.ranking or any(state.finished[s] is None for s in writers):
            return state
        new = replace(state, phase="reveal", announced=0)
        events.append(
            Event(
                "writing_closed",
                {
                    "turn": new.turn,
                    "grids": [None if s == new.leader else list(new.grids[s]) for s in range(new.players)],
                },
            )
        )
        return new

    def _announce(self, state: TicTacTopState, events: list[Event]) -> TicTacTopState:
        k = state.announced + 1
        new = replace(state, announced=k)
        word = new.ranking[k - 1]
        before = new.ranking[: k - 1]
        after = new.ranking[:k]
        had_first = any(grid_lines(grid_marks(new.grids[s], before)) for s in range(new.players) if s != new.leader)
        circled: list[dict[str, JSON]] = []
        lines: list[dict[str, JSON]] = []
        for s in range(new.players):
            if s == new.leader:
                continue
            if word in new.grids[s]:
                circled.append({"seat": s, "cell": new.grids[s].index(word)})
            for done_at, cells in grid_lines(grid_marks(new.grids[s], after)):
                if done_at == k:
                    lines.append({"seat": s, "cells": list(cells)})
        first: JSON = None
        if lines and not had_first:
            first = {"index": k, "word": word, "seats": sorted({int(x["seat"]) for x in lines})}
        events.append(
            Event(
                "announce",
                {
                    "turn": new.turn,
                    "index": k,
                    "word": word,
                    "circled": circled,
                    "lines": lines,
                    "first_line": first,
                },
            )
        )
        return self._score(new, events) if k == RANK_SIZE else new

    def _score(self, state: TicTacTopState, events: list[Event]) -> TicTacTopState:
        assert state.theme is not None
        scoring = score_turn(state.ranking, state.grids, state.leader)
        points = scoring["points"]
        assert isinstance(points, list)
        scores = tuple(total + int(gained) for total, gained in zip(state.scores, points, strict=True))
        scoring["totals"] = list(scores)
        record = {
            "turn": state.turn,
            "leader": state.leader,
            "theme": state.theme.name,
            "ranking": list(state.ranking),
            "scoring": scoring,
        }
        new = replace(state, scores=scores, history=(*state.history, record))
        events.append(Event("turn_scored", {"turn": new.turn, "scoring": scoring}))
        last = new.turn >= new.players
        quick = new.options.quick_game and max(new.scores) >= QUICK_TARGET
        if last or quick:
            new = replace(new, phase="over")
            outcome = self.outcome(new)
            assert outcome is not None
            events.append(
                Event(
                    "game_over",
                    {
                        "scores": list(new.scores),
                        "winners": outcome.winners,
                        "quick_game_ended": quick and not last,
                    },
                )
            )
            return new
        return replace(new, phase="score")

    def _start_turn(self, state: TicTacTopState, turn: int, events: list[Event]) -> TicTacTopState:
        new = state.at_turn(turn)
        offered = new.offers[turn - 1]
        events.append(
            Event(
                "turn_start",
                {"turn": turn, "leader": new.leader, "offered": [t.name for t in offered]},
                {new.leader: {"offered_themes": [t.to_json() for t in offered]}},
            )
        )
        return new

    # ---- what each seat sees --------------------------------------------------------------------

    def view(self, state: TicTacTopState, seat: Seat | None) -> dict[str, JSON]:
        """What ``seat`` may know (module docstring: "Who sees what"); ``None`` is the shared screen."""
        n = state.players
        leader = state.leader
        is_leader = seat == leader
        role = "spectator" if seat is None else "leader" if is_leader else "player"
        revealed = state.phase in ("reveal", "score", "over")
        announced = list(state.ranking[: state.announced]) if revealed else []
        offered: JSON = None
        if state.phase == "choose":
            offered = [t.to_json() if is_leader else {"name": t.name} for t in state.offers[state.turn - 1]]
        if is_leader and state.phase != "choose":
            ranking: JSON = list(state.ranking) or None
        elif revealed and state.announced == RANK_SIZE:
            ranking = list(state.ranking)
        else:
            ranking = None
        grids: JSON = None
        first_line: JSON = None
        if revealed:
            grids = [None if s == leader else grid_progress(state.grids[s], announced) for s in range(n)]
            firsts: dict[Seat, int] = {}
            for s in range(n):
                found = grid_lines(grid_marks(state.grids[s], announced)) if s != leader else []
                if found:
                    firsts[s] = found[0][0]
            if firsts:
                k = min(firsts.values())
                first_line = {
                    "index": k,
                    "word": announced[k - 1],
                    "seats": [s for s, f in firsts.items() if f == k],
                }
        own_grid: JSON = None
        if seat is not None and not is_leader and state.phase != "choose":
            own_grid = list(state.grids[seat])
        timer = self.timer(state)
        outcome = self.outcome(state)
        ranks = ranks_from_scores([float(x) for x in state.scores])
        return {
            "game": self.name,
            "phase": state.phase,
            "turn": state.turn,
            "turns": n,
            "players": n,
            "leader": leader,
            "you": seat,
            "role": role,
            "language": state.options.language,
            "hard_timer": state.options.hard_timer,
            "quick_game": state.options.quick_game,
            "target": QUICK_TARGET if state.options.quick_game else None,
            "offered": offered,
            "theme": state.theme.to_json() if state.theme is not None and state.phase != "choose" else None,
            "draft": list(state.draft) if is_leader and state.phase == "write" else None,
            "ranking": ranking,
            "ranked": bool(state.ranking) if state.phase != "choose" else False,
            "countdown": state.phase == "write" and bool(state.ranking),
            "grid": own_grid,
            "writers": [
                {
                    "seat": s,
                    "filled": CELLS - state.grids[s].count(None),
                    "finished": state.finished[s] is not None or revealed,
                    "how": state.finished[s],
                }
                for s in range(n)
                if s != leader
            ]
            if state.phase != "choose"
            else [],
            "announced": announced,
            "grids": grids,
            "first_line": first_line,
            "scoring": state.history[-1]["scoring"] if state.phase in ("score", "over") and state.history else None,
            "scores": list(state.scores),
            "standings": sorted(
                ({"seat": s, "score": state.scores[s], "rank": ranks[s]} for s in range(n)),
                key=lambda row: (int(row["rank"]), int(row["seat"])),
            ),
            "history": [
                {key: h[key] for key in ("turn", "leader", "theme", "ranking")} | {"points": h["scoring"]["points"]}
                for h in state.history
            ],
            "timer": {"key": timer.key, "seconds": timer.seconds} if timer is not None else None,
            "winners": outcome.winners if outcome is not None else None,
        }

    # ---- timers ---------------------------------------------------------------------------------

    def timer(self, state: TicTacTopState) -> Timer | None:
        if state.phase == "write":
            if state.ranking:
                return Timer(f"close-{state.turn}", COUNTDOWN_SECONDS)
            if state.options.hard_timer:
                return Timer(f"write-{state.turn}", HARD_TIMER_SECONDS)
            return None
        if state.phase == "reveal":
            return Timer(f"reveal-{state.turn}-{state.announced}", state.options.reveal_pause)
        if state.phase == "score":
            return Timer(f"score-{state.turn}", state.options.score_pause)
        return None

    def timeout_action(self, state: TicTacTopState, seat: Seat) -> Action:
        if state.phase == "choose":
            return {"type": "choose_theme", "index": 0}
        if state.phase == "write":
            if seat == state.leader:
                return {"type": "rank", "words": self.completed_ranking(state)}
            return {"type": "lock"}
        return {"type": "next"}

    def completed_ranking(self, state: TicTacTopState) -> list[str]:
        """The Leader's draft, completed with the theme's other words in card order (hard-timer expiry)."""
        assert state.theme is not None
        words = list(state.draft)
        for w in state.theme.words:
            if len(words) >= RANK_SIZE:
                break
            if w not in words:
                words.append(w)
        return words[:RANK_SIZE]

    # ---- the end --------------------------------------------------------------------------------

    def outcome(self, state: TicTacTopState) -> Outcome | None:
        if state.phase != "over":
            return None
        scores = [float(x) for x in state.scores]
        best = max(scores)
        winners = [s for s in range(state.players) if scores[s] == best]
        params: dict[str, JSON] = {"seats": winners, "points": int(best)}
        if len(winners) > 1:
            summary = LogEntry("tic-tac-top.result.shared", params)
        else:
            summary = LogEntry("tic-tac-top.result.won", params)
        return Outcome(scores=scores, winners=winners, ranks=ranks_from_scores(scores), summary=summary)

    def log_entries(
        self,
        state: TicTacTopState,
        seat: Seat,
        action: Action,
        result: tuple[TicTacTopState, list[Event]],
    ) -> list[LogEntry]:
        """Public entries, from the public side of the events (never a secret word, never a grid)."""
        entries: list[LogEntry] = []
        for event in result[1]:
            data = event.public
            kind = event.kind
            if kind == "theme_chosen":
                theme = data["theme"]
                name = theme.get("name") if isinstance(theme, dict) else None
                entries.append(LogEntry("tic-tac-top.log.theme_chosen", {"seat": data["leader"], "theme": name}))
            elif kind == "leader_drafting":
                entries.append(LogEntry("tic-tac-top.log.ranking", {"seat": data["seat"]}))
            elif kind == "ranked":
                key = "tic-tac-top.log.ranked_countdown" if data["countdown"] else "tic-tac-top.log.ranked"
                entries.append(LogEntry(key, {"seat": data["seat"]}))
            elif kind in _SIMPLE:
                entries.append(LogEntry(_SIMPLE[kind], {"seat": data["seat"]}))
            elif kind == "finished":
                key = "tic-tac-top.log.finished" if data["how"] == "done" else "tic-tac-top.log.locked"
                entries.append(LogEntry(key, {"seat": data["seat"]}))
            elif kind == "announce":
                params: dict[str, JSON] = {"word_number": data["index"], "word": data["word"]}
                entries.append(LogEntry("tic-tac-top.log.announced", params))
                first = data.get("first_line")
                if isinstance(first, dict):
                    seats = first["seats"]
                    entries.append(LogEntry("tic-tac-top.log.first_line", {"seats": seats, "count": len(seats)}))
            elif kind == "turn_scored":
                entries.append(LogEntry("tic-tac-top.log.turn_scored", {"turn": data["turn"]}))
            elif kind == "turn_start":
                entries.append(LogEntry("tic-tac-top.log.turn_starts", {"turn": data["turn"], "seat": data["leader"]}))
            elif kind == "game_over":
                entries.extend(self.result_entries(result[0]))
        return entries

    def timer_paces(self, state: TicTacTopState) -> bool:
        """The reveal's and the score screen's timers pace the show: nobody's time ran out."""
        return state.phase in ("reveal", "score")

    # ---- serialisation --------------------------------------------------------------------------

    def dump(self, state: TicTacTopState) -> dict[str, JSON]:
        return {
            "options": state.options.model_dump(mode="json"),
            "offers": [[t.to_json() for t in pair] for pair in state.offers],
            "turn": state.turn,
            "phase": state.phase,
            "theme": state.theme.to_json() if state.theme is not None else None,
            "draft": list(state.draft),
            "ranking": list(state.ranking),
            "grids": [list(g) for g in state.grids],
            "finished": list(state.finished),
            "announced": state.announced,
            "scores": list(state.scores),
            "history": [copy.deepcopy(dict(record)) for record in state.history],
        }

    def read_state(self, data: Mapping[str, JSON]) -> TicTacTopState:
        def theme(raw: Any) -> Theme:
            return Theme(str(raw["name"]), tuple(str(w) for w in raw["words"]))

        return TicTacTopState(
            options=TicTacTopOptions.model_validate(data["options"]),
            offers=tuple(tuple(theme(t) for t in pair) for pair in data["offers"]),
            turn=int(data["turn"]),
            phase=data["phase"],
            theme=theme(data["theme"]) if data["theme"] is not None else None,
            draft=tuple(str(w) for w in data["draft"]),
            ranking=tuple(str(w) for w in data["ranking"]),
            grids=tuple(tuple(None if w is None else str(w) for w in g) for g in data["grids"]),
            finished=tuple(None if f is None else str(f) for f in data["finished"]),
            announced=int(data["announced"]),
            scores=tuple(int(x) for x in data["scores"]),
            history=tuple(copy.deepcopy(dict(record)) for record in data["history"]),
        )


# ---- the bot ------------------------------------------------------------------------------------

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

    def theme_choice(self, offered: list[dict[str, Any]], rng: Any) -> int:
        """Which offered theme a bot Leader keeps (any of them)."""
        return int(rng.randrange(len(offered)))

    def word_order(self, theme_name: str, words: Sequence[str], seat: Seat, turn: int) -> list[str]:
        """The words in the order the bot ranks and writes them."""
        return preference(theme_name, words, seat, turn)

    def choose(self, state: TicTacTopState, seat: Seat, rng: Any) -> Action:
        v = self.engine.view(state, seat)
        phase = v["phase"]
        if phase == "choose":
            return {"type": "choose_theme", "index": self.theme_choice(v["offered"], rng)}
        if phase != "write":
            return {"type": "next"}
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
                        return {"type": "draft", "words": draft}
            return {"type": "rank", "words": draft[:RANK_SIZE]}
        grid = list(v["grid"])
        empty = [c for c in CELL_ORDER if grid[c] is None]
        unused = [w for w in prefs if w not in grid]
        if empty and unused:
            return {"type": "place", "cell": empty[0], "word": unused[0]}
        return {"type": "done"}


ENGINE = TicTacTopEngine()
BOT = TicTacTopBot(ENGINE)
