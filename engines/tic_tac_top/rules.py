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

import random
from dataclasses import replace

from engines.base import (
    JSON,
    Engine,
    Event,
    IllegalAction,
    InvalidOptions,
    LogEntry,
    Outcome,
    Seat,
    SeatInfo,
    Timer,
    ranks_from_scores,
)
from engines.tic_tac_top.actions import (
    ACTIONS,
    DONE,
    LEADER_WRITE,
    LOCK,
    NEXT,
    PLAYER_WRITE,
    ChooseTheme,
    Clear,
    Done,
    Lock,
    PlaceWord,
    Rank,
    TicTacTopAction,
)
from engines.tic_tac_top.grid import CELLS, grid_lines, grid_marks
from engines.tic_tac_top.log import log_entries
from engines.tic_tac_top.options import QUICK_TARGET, TicTacTopOptions
from engines.tic_tac_top.scoring import RANK_SIZE, TurnRecord, score_turn
from engines.tic_tac_top.state import TicTacTopState, replaced
from engines.tic_tac_top.themes import Theme, deal_offers, load_deck
from engines.tic_tac_top.views import seat_view

COUNTDOWN_SECONDS = 5.0
HARD_TIMER_SECONDS = 90.0

_CHOOSE = (ChooseTheme(index=0), ChooseTheme(index=1))
"""A Leader's choices: at most two themes are offered."""


class TicTacTopEngine(Engine[TicTacTopState, TicTacTopOptions, TicTacTopAction]):
    name = "tic-tac-top"
    actions = ACTIONS
    state_type = TicTacTopState
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

    def legal_actions(self, state: TicTacTopState, seat: Seat) -> list[TicTacTopAction]:
        """A sample of legal actions (see the module docstring); ``apply`` is the authority."""
        if seat not in self.to_act(state):
            return []
        if state.phase == "choose":
            return list(_CHOOSE[: len(state.offers[state.turn - 1])])
        if state.phase in ("reveal", "score"):
            return [NEXT]
        assert state.theme is not None
        words = state.theme.words
        if seat == state.leader:
            return [
                Rank(words=words[:RANK_SIZE]),
                Rank(words=words[::-1][:RANK_SIZE]),
                Rank(words=words[3 : 3 + RANK_SIZE]),
            ]
        grid = state.grids[seat]
        actions: list[TicTacTopAction] = []
        if None in grid:
            cell = grid.index(None)
            unused = [w for w in words if w not in grid]
            actions += [PlaceWord(cell=cell, word=w) for w in unused[:3]]
        actions.append(DONE)
        return actions

    # ---- applying -------------------------------------------------------------------------------

    def apply(self, state: TicTacTopState, seat: Seat, action: TicTacTopAction) -> tuple[TicTacTopState, list[Event]]:
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
            how = "done" if isinstance(action, Done) else "locked"
            new = state.changed(finished=replaced(state.finished, seat, how))
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
        return state.changed(theme=theme, phase="write")

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
            return state.changed(draft=words)
        writing = any(state.finished[s] is None for s in range(state.players) if s != seat)
        events.append(
            Event(
                "ranked",
                {"seat": seat, "countdown": COUNTDOWN_SECONDS if writing else None},
                {seat: {"ranking": list(words)}},
            )
        )
        return self._maybe_close(state.changed(draft=words, ranking=words), events)

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
        grid = replaced(grid, cell, word)
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
        grid = replaced(grid, cell, None)
        events.append(Event("erased", {"seat": seat, "filled": CELLS - grid.count(None)}, {seat: {"cell": cell}}))
        return state.with_grid(seat, grid)

    def _maybe_close(self, state: TicTacTopState, events: list[Event]) -> TicTacTopState:
        writers = [s for s in range(state.players) if s != state.leader]
        if not state.ranking or any(state.finished[s] is None for s in writers):
            return state
        new = state.changed(phase="reveal", announced=0)
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
        new = state.changed(announced=k)
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
        scores = tuple(total + gained for total, gained in zip(state.scores, scoring.points, strict=True))
        scoring = replace(scoring, totals=scores)
        record = TurnRecord(state.turn, state.leader, state.theme.name, state.ranking, scoring)
        new = state.changed(scores=scores, history=(*state.history, record))
        events.append(Event("turn_scored", {"turn": new.turn, "scoring": scoring.to_json()}))
        last = new.turn >= new.players
        quick = new.options.quick_game and max(new.scores) >= QUICK_TARGET
        if last or quick:
            new = new.changed(phase="over")
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
        return new.changed(phase="score")

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
        return seat_view(self.name, state, seat, self.timer(state), self.outcome(state))

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

    def timeout_action(self, state: TicTacTopState, seat: Seat) -> TicTacTopAction:
        if state.phase == "choose":
            return _CHOOSE[0]
        if state.phase == "write":
            if seat == state.leader:
                return Rank(words=self.completed_ranking(state))
            return LOCK
        return NEXT

    def completed_ranking(self, state: TicTacTopState) -> tuple[str, ...]:
        """The Leader's draft, completed with the theme's other words in card order (hard-timer expiry)."""
        assert state.theme is not None
        words = list(state.draft)
        for w in state.theme.words:
            if len(words) >= RANK_SIZE:
                break
            if w not in words:
                words.append(w)
        return tuple(words[:RANK_SIZE])

    def timer_paces(self, state: TicTacTopState) -> bool:
        """The reveal's and the score screen's timers pace the show: nobody's time ran out."""
        return state.phase in ("reveal", "score")

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
        action: TicTacTopAction,
        result: tuple[TicTacTopState, list[Event]],
    ) -> list[LogEntry]:
        """Public entries, from the public side of the events (never a secret word, never a grid)."""
        return log_entries(result[1], self.result_entries(result[0]))


ENGINE = TicTacTopEngine()
