"""Bot strength and think time: level against level in every game and seat count.

    .venv/bin/python -m bench.bots                              # every mode, 200 games per pairing
    .venv/bin/python -m bench.bots --games 40 --budget 0.03 --only tri-tac
    .venv/bin/python -m bench.bots --json /tmp/bots.json     # rows for bench/results/bots-strength.json

A pairing (say strong vs normal) plays ``--games`` games in one process, every decision on the caller's
thread. In a two-sided mode the two levels hold the two sides (teams in 4-player games) and swap sides every
other game, on fresh seeds. In a mode with more sides (Tricky Tactics with 3 or 4 players, Tic Tac Top) one
seat plays the first level and every other seat the second, the lone seat moving round the table; its fair
share of wins is then 1/n. A game is decided when one level's best place is ahead of the other's; the win
rate is over decided games, with a 95 % Wilson interval. The strong bot searches for ``--budget`` seconds
per move (the server gives it 0.8 s); think time is the wall time of each decision of the first level, and
its CPU time (the process's, so a loaded machine slows it less) goes in the JSON.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from dataclasses import asdict, dataclass, field
from typing import Any

from engines.base import Bot
from engines.levels import Level, level_bot, parse_level
from engines.registry import get_engine
from engines.search import Deadline, SearchBot

NEVER = Deadline(float("inf"))


@dataclass(frozen=True)
class Mode:
    game: str
    label: str
    options: dict[str, Any]
    two_sided: bool
    max_moves: int = 5000


MODES: tuple[Mode, ...] = (
    # Games are shortened where the rules allow it (one round), so that 200 games per pairing fit a short run.
    Mode("tri-tac", "5x5", {"size": 5}, True),
    Mode("trick-tac-foe", "2p one-shot", {"players": 2, "one_shot": True}, True),
    Mode("trick-tac-foe", "4p one-shot", {"players": 4, "one_shot": True}, True),
    Mode("tic-tac-match", "2p", {"players": 2}, True),
    Mode("tic-tac-match", "4p", {"players": 4}, True),
    Mode("tricky-tactics", "automa 1 round", {"mode": "automa", "rounds": 1}, True),
    Mode("tricky-tactics", "3p 1 round", {"mode": "3p", "rounds": 1}, False),
    Mode("tricky-tactics", "4p 1 round", {"mode": "4p", "rounds": 1}, False),
    Mode("tic-tac-top", "4p", {"players": 4}, False),
    Mode("tic-tac-top", "6p", {"players": 6}, False),
)


@dataclass
class Result:
    game: str
    mode: str
    first: str
    second: str
    games: int
    decided: int = 0
    first_wins: int = 0
    fair_share: float = 0.5
    win_rate: float | None = None
    ci95: tuple[float, float] | None = None
    think_ms_p50: float | None = None
    think_ms_p99: float | None = None
    cpu_ms_p50: float | None = None
    cpu_ms_p99: float | None = None
    iterations_p50: float | None = None
    seconds: float = 0.0
    think: list[float] = field(default_factory=list, repr=False)
    cpu: list[float] = field(default_factory=list, repr=False)


def wilson(wins: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion."""
    if total == 0:
        return (0.0, 1.0)
    p = wins / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return (max(0.0, centre - half), min(1.0, centre + half))


def _sides(mode: Mode, teams: list[int | None], game_index: int) -> list[int]:
    """For each seat, 0 if the first level plays it, else 1."""
    seats = len(teams)
    if mode.two_sided and all(team is not None for team in teams):  # teams swap sides every other game
        return [0 if team == game_index % 2 else 1 for team in teams]
    if mode.two_sided:  # two people (with Tricky Tactics' automa aside): they swap seats every other game
        return [0 if seat == game_index % 2 else 1 for seat in range(seats)]
    lone = game_index % seats
    return [0 if seat == lone else 1 for seat in range(seats)]


def play_pairing(
    mode: Mode, first: Level, second: Level, games: int, budget: float, seed: int, worlds: int = 0, start: int = 0
) -> Result:
    engine = get_engine(mode.game)
    options = engine.parse_options(mode.options)
    teams = [info.team for info in engine.seats(options)]
    seats = len(teams)
    bots: dict[Level, Bot[Any]] = {}
    for level in (first, second):
        bot = level_bot(mode.game, level)
        assert bot is not None
        bots[level] = bot
    result = Result(mode.game, mode.label, first, second, games, fair_share=0.5 if mode.two_sided else 1 / seats)
    iterations: list[int] = []
    searchers: dict[Level, SearchBot[Any]] = {}
    started = time.perf_counter()
    for index in range(start, start + games):
        sides = _sides(mode, teams, index)
        levels = [first if side == 0 else second for side in sides]
        rng = random.Random(seed * 1_000_003 + index)
        state = engine.new_game(options, seed * 7919 + index)
        for _move in range(mode.max_moves):
            if engine.outcome(state) is not None:
                break
            seat = min(engine.to_act(state))
            bot = bots[levels[seat]]
            began = time.perf_counter()
            began_cpu = time.process_time()
            if isinstance(bot, SearchBot):
                searcher = searchers.setdefault(levels[seat], SearchBot(bot.model, max_iterations=worlds or 10**9))
                deadline = NEVER if worlds else Deadline.after(budget)
                action = searcher.choose_until(state, seat, rng, deadline)
                if sides[seat] == 0:
                    iterations.append(searcher.last_report.iterations)
            else:
                action = bot.choose(state, seat, rng)
            if sides[seat] == 0:
                result.think.append(time.perf_counter() - began)
                result.cpu.append(time.process_time() - began_cpu)
            state, _events = engine.apply(state, seat, action)
        outcome = engine.outcome(state)
        if outcome is None:
            continue
        best = [min(outcome.ranks[s] for s in range(seats) if sides[s] == side) for side in (0, 1)]
        if best[0] != best[1]:
            result.decided += 1
            result.first_wins += best[0] < best[1]
    result.seconds = time.perf_counter() - started
    if result.decided:
        result.win_rate = result.first_wins / result.decided
        result.ci95 = wilson(result.first_wins, result.decided)
    if result.think:
        ordered = sorted(result.think)
        result.think_ms_p50 = 1000 * statistics.median(ordered)
        result.think_ms_p99 = 1000 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    if result.cpu:
        ordered = sorted(result.cpu)
        result.cpu_ms_p50 = 1000 * statistics.median(ordered)
        result.cpu_ms_p99 = 1000 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    if iterations:
        result.iterations_p50 = statistics.median(iterations)
    return result


def _row(r: Result) -> str:
    rate = "—" if r.win_rate is None else f"{100 * r.win_rate:.0f} %"
    ci = "—" if r.ci95 is None else f"{100 * r.ci95[0]:.0f}–{100 * r.ci95[1]:.0f} %"
    p50 = "—" if r.think_ms_p50 is None else f"{r.think_ms_p50:.1f}"
    p99 = "—" if r.think_ms_p99 is None else f"{r.think_ms_p99:.1f}"
    fair = f"{100 * r.fair_share:.0f} %"
    return (
        f"| {r.game} {r.mode} | {r.first} vs {r.second} | {r.games} | {r.decided} | {rate} | {ci} | {fair} "
        f"| {p50} | {p99} |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--budget", type=float, default=0.03, help="strong bot's seconds per move")
    parser.add_argument("--only", default="", help="comma-separated games (e.g. tri-tac,trick-tac-foe)")
    parser.add_argument("--modes", default="", help="comma-separated mode labels within --only")
    parser.add_argument("--pairings", default="strong-normal,normal-easy")
    parser.add_argument(
        "--worlds",
        type=int,
        default=0,
        help="instead of a time budget, sample exactly this many worlds per strong move (load-independent)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--start", type=int, default=0, help="first game index (a run split in parts plays the same games)"
    )
    parser.add_argument("--json", default="")
    args = parser.parse_args(argv)
    only = {g for g in args.only.split(",") if g}
    labels = {m for m in args.modes.split(",") if m}
    pairings: list[tuple[Level, Level]] = []
    for pairing in args.pairings.split(","):
        first, second = pairing.split("-")
        pairings.append((parse_level(first), parse_level(second)))
    print("| mode | pairing | games | decided | first wins | 95 % CI | fair share | think p50 ms | think p99 ms |")
    print("|---|---|---|---|---|---|---|---|---|")
    results: list[Result] = []
    for mode in MODES:
        if (only and mode.game not in only) or (labels and mode.label not in labels):
            continue
        for first, second in pairings:
            result = play_pairing(mode, first, second, args.games, args.budget, args.seed, args.worlds, args.start)
            results.append(result)
            print(_row(result), flush=True)
    if args.json:
        with open(args.json, "w") as out:
            payload = {"budget": args.budget, "worlds": args.worlds, "games": args.games, "results": []}
            for r in results:
                row = asdict(r)
                row.pop("think")
                row.pop("cpu")
                payload["results"].append(row)
            json.dump(payload, out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
