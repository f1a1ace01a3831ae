"""Alternated repeats of the saturation shapes, and what their medians decide (``make bench``; bench/README.md).

    .venv/bin/python -m bench.rounds                                   # project and bare, 7 rounds of 15 s
    .venv/bin/python -m bench.rounds --shapes project,routed,routed3 --rounds 5
    .venv/bin/python -m bench.rounds --shapes project,bare,project@/work/wt/old    # another commit's server
    .venv/bin/python -m bench.rounds --shapes project,bare,boardgameio-memory,boardgameio-flatfile
    .venv/bin/python -m bench.rounds --report bench/results/rounds-project-bare.json

A round runs every shape once, each in a fresh process of its own (``bench.fanout --servers KIND`` or
``bench.boardgameio``), one after the other; each round starts one shape later than the one before, so that no
shape always runs first or right after the same one. ``KIND@PATH`` runs the app servers of KIND from the
checkout at PATH under this harness. Ratios are taken within a round (the two runs minutes apart, not the whole
session), then summarised over the rounds: the median, and the interval the median is known to
(bench/decide.py). A target is *met* or *not met* only when that interval is on one side of it; otherwise the
spread is too wide to decide, and more rounds (or a quieter machine) are needed.

Before each run: ``sync`` (so that the last run's files are not flushed during this one) and, with
``--wait-quiet``, a wait for the 1-minute load average to drop. A run during which the server waited for its
core (another process on it: ``runqueue_wait_s`` in the run's ``window_counters``) more than
``--disturbed`` of the window is marked disturbed: it is run again (``--retries``), and left out of the ratios
if it stays disturbed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.decide import decide, relative_spread, repeats_for, summarise

ROOT = Path(__file__).resolve().parents[1]
Run = dict[str, Any]
DECIDING_COVERAGE = 0.9
"""A verdict needs an interval this sure to hold the median: five rounds (94 %); four are only 88 %."""


@dataclass(frozen=True)
class Ratio:
    """A figure of one shape over a figure of another, taken within each round; a target if there is one."""

    label: str
    top: str
    bottom: str
    figure: str
    target: float | None = None
    at_least: bool = True


def ratios_for(shapes: list[str]) -> list[Ratio]:
    """The comparisons the chosen shapes allow: the issue's targets, and every other tree against this one."""
    moves, cpu = "achieved_moves_per_s", "server_cpu_us_per_move"
    candidates = [
        Ratio("project ÷ bare, moves/s", "project", "bare", moves, 0.6),
        Ratio("project ÷ bare, CPU a move", "project", "bare", cpu),
        Ratio("routed ÷ project, moves/s", "routed", "project", moves, 0.7),
        Ratio("routed ÷ project, app CPU a move", "routed", "project", cpu, 1.5, at_least=False),
        Ratio("routed3 ÷ project, moves/s", "routed3", "project", moves),
        Ratio("routed3 ÷ project, app CPU a move", "routed3", "project", cpu),
        Ratio("project ÷ boardgame.io in memory, moves/s", "project", "boardgameio-memory", moves),
        Ratio("project ÷ boardgame.io on files, moves/s", "project", "boardgameio-flatfile", moves),
        Ratio("project ÷ boardgame.io in memory, CPU a move", "project", "boardgameio-memory", cpu),
    ]
    chosen = [ratio for ratio in candidates if ratio.top in shapes and ratio.bottom in shapes]
    for shape in shapes:
        kind, _, tree = shape.partition("@")
        if tree and kind in shapes:
            chosen.append(Ratio(f"{shape} ÷ {kind}, moves/s", shape, kind, moves))
            chosen.append(Ratio(f"{shape} ÷ {kind}, CPU a move", shape, kind, cpu))
        if tree and "bare" in shapes:
            chosen.append(Ratio(f"{shape} ÷ bare, moves/s", shape, "bare", moves))
    return chosen


def run_shape(shape: str, args: argparse.Namespace, payload_bytes: int, seed: int) -> Run:
    """One run of ``shape`` in a process of its own; its figures."""
    kind, _, tree = shape.partition("@")
    with tempfile.TemporaryDirectory(prefix="threefold-rounds-") as directory:
        out = Path(directory) / "run.json"
        if kind.startswith("boardgameio-"):
            command = [sys.executable, "-m", "bench.boardgameio", "--storage", kind.removeprefix("boardgameio-")]
            command += ["--rooms", str(args.sat_rooms)]
        else:
            command = [sys.executable, "-m", "bench.fanout", "--servers", kind, "--scenarios", "saturation"]
            command += ["--sat-rooms", str(args.sat_rooms)]
            if payload_bytes:
                command += ["--payload-bytes", str(payload_bytes)]
            if tree:
                command += ["--tree", tree]
        command += ["--duration", str(args.duration), "--seed", str(seed), "--json", str(out)]
        subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        run: Run = json.loads(out.read_text())["runs"][0]
    run["shape"] = shape
    return run


def disturbed(run: Run, share: float) -> bool:
    """The server (or the load generator) waited for its core more than ``share`` of the window: another
    process ran on it. Not judged for several app processes: they share one core by design, and PostgreSQL
    and Redis, unpinned, run on either."""
    if run.get("processes", 1) > 1:
        return False
    counters = run.get("window_counters", {})
    # The server's own other threads (the SQLite checkpointer, the stall watchdog, V8's and libuv's) share its
    # core: the main thread waiting for them is the server's own work, not a disturbance. Where they were not
    # counted, the share of the core the whole server did not use stands for it.
    own = counters.get("thread_cpu_others")
    if own is None:
        server = (1 - run.get("server_cpu_utilisation", 1.0)) * run["duration_s"]
    else:
        server = counters.get("runqueue_wait_s", 0.0) - own
    waits = [server, counters.get("generator_runqueue_wait_s", 0.0)]
    return any(waited > share * run["duration_s"] for waited in waits)


def rounds(args: argparse.Namespace) -> list[Run]:
    shapes: list[str] = args.shapes
    runs: list[Run] = []
    payload = 0
    for index in range(args.rounds):
        start = index % len(shapes)
        order = shapes[start:] + shapes[:start]
        if not payload:  # the bare endpoint sends states of the app's size: an app shape goes first
            order.sort(key=lambda shape: shape == "bare")
        for shape in order:
            os.sync()
            if args.wait_quiet:
                deadline = time.monotonic() + 1800
                while os.getloadavg()[0] > args.wait_quiet and time.monotonic() < deadline:
                    time.sleep(10)
            for attempt in range(args.retries + 1):
                load = os.getloadavg()[0]
                run = run_shape(shape, args, payload, args.seed + index)
                run |= {"round": index, "load_before": round(load, 2), "disturbed": disturbed(run, args.disturbed)}
                run["attempt"] = attempt
                if not run["disturbed"] or attempt == args.retries:
                    break
                print(line(run) + ": run again", flush=True)
            if not payload and run.get("state_bytes_mean") and not shape.startswith(("bare", "boardgameio")):
                payload = int(run["state_bytes_mean"])
            runs.append(run)
            print(line(run), flush=True)
    return runs


def line(run: Run) -> str:
    waited = run.get("window_counters", {}).get("runqueue_wait_s")
    services = run.get("service_cpu_us_per_move") or {}
    extra = "".join(f", {name} {value} µs" for name, value in services.items() if value is not None)
    return (
        f"round {run['round']} {run['shape']}: {run['achieved_moves_per_s']:.0f} moves/s, "
        f"{run['server_cpu_us_per_move']} µs CPU a move{extra}, load {run['load_before']}"
        + (f", waited for its core {waited:.2f} s" if waited is not None else "")
        + (" (disturbed)" if run["disturbed"] else "")
    )


def report(runs: list[Run], shapes: list[str]) -> str:
    """Per shape: medians of moves/s and CPU a move; per ratio: median, interval, and what it decides."""
    kept = [run for run in runs if not run["disturbed"]]
    out = ["| shape | moves/s | CPU µs a move | beside it, µs a move | runs kept of |", "|---|---|---|---|---|"]
    for shape in shapes:
        mine = [run for run in kept if run["shape"] == shape]
        total = sum(1 for run in runs if run["shape"] == shape)
        if not mine:
            out.append(f"| {shape} | – | – | – | 0 of {total} |")
            continue
        moves = summarise([run["achieved_moves_per_s"] for run in mine])
        cpu = summarise([run["server_cpu_us_per_move"] for run in mine])
        services = []
        for name in ("postgres", "redis"):
            used = [float(value) for run in mine if (value := (run.get("service_cpu_us_per_move") or {}).get(name))]
            if len(used) == len(mine):
                services.append(f"{name} {summarise(used).median:.0f}")
        out.append(
            f"| {shape} | {moves.text(0)} | {cpu.text(0)} | {', '.join(services) or '–'} | {len(mine)} of {total} |"
        )
    out += ["", "| ratio | median (interval, rounds) | ±, of the median | spread of a round | target | verdict |"]
    out.append("|---|---|---|---|---|---|")
    for ratio in ratios_for(shapes):
        values = paired(kept, ratio)
        if not values:
            continue
        summary = summarise(values)
        sd = relative_spread(values)
        precision = f"±{summary.half_width * 100:.1f} % ({summary.coverage * 100:.0f} %)"
        if ratio.target is None:
            target, verdict = "–", "–"
        else:
            target = f"{'≥' if ratio.at_least else '≤'} {ratio.target}"
            verdict = decide(summary, ratio.target, ratio.at_least)
            if summary.coverage < DECIDING_COVERAGE:
                verdict = f"undecided: too few rounds ({verdict} in those)"
            elif verdict == "undecided":
                verdict = "undecided: spread too wide"
        out.append(
            f"| {ratio.label} | {summary.text(2, 'rounds')} | {precision} "
            f"| {sd * 100:.1f} % (±5 %: {repeats_for(sd)} rounds) | {target} | {verdict} |"
        )
    return "\n".join(out)


def paired(runs: list[Run], ratio: Ratio) -> list[float]:
    """The ratio in each round where both shapes have an undisturbed run."""
    values = []
    for index in sorted({run["round"] for run in runs}):
        top = figure(runs, index, ratio.top, ratio.figure)
        bottom = figure(runs, index, ratio.bottom, ratio.figure)
        if top is not None and bottom:
            values.append(top / bottom)
    return values


def figure(runs: list[Run], index: int, shape: str, name: str) -> float | None:
    found = [run[name] for run in runs if run["round"] == index and run["shape"] == shape and run.get(name)]
    return float(found[0]) if found else None


KINDS = ("project", "bare", "cluster", "routed", "routed3", "boardgameio-memory", "boardgameio-flatfile")


def shape_list(text: str) -> list[str]:
    shapes = [shape for shape in text.split(",") if shape]
    if unknown := [shape for shape in shapes if shape.partition("@")[0] not in KINDS]:
        raise argparse.ArgumentTypeError(f"unknown shape(s) {', '.join(unknown)}")
    return shapes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shapes", type=shape_list, default=["project", "bare"], help="comma-separated shapes")
    parser.add_argument("--rounds", type=int, default=7, help="rounds (default 7: see bench/README.md)")
    parser.add_argument("--duration", type=float, default=15, help="measured window of each run, s (default 15)")
    parser.add_argument("--sat-rooms", type=int, default=200, help="rooms of 7 sockets (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="round i plays seed + i in every shape")
    parser.add_argument("--wait-quiet", type=float, default=0, help="before each run, wait for load below this")
    parser.add_argument(
        "--disturbed",
        type=float,
        default=0.02,
        help="leave out a run whose server waited for its core more than this share of the window (0.02)",
    )
    parser.add_argument(
        "--retries", type=int, default=2, help="run a disturbed run again, up to this many times (default 2)"
    )
    parser.add_argument("--json", type=Path, help="write every run's figures here")
    parser.add_argument("--report", type=Path, help="only print the summary of an earlier --json file")
    args = parser.parse_args()
    if args.report:
        data = json.loads(args.report.read_text())
        for run in data["runs"]:
            run["disturbed"] = disturbed(run, data["args"]["disturbed"])
        print(report(data["runs"], data["shapes"]))
        return
    runs = rounds(args)
    print()
    print(report(runs, args.shapes))
    if args.json:
        args.json.write_text(json.dumps({"args": vars(args), "shapes": args.shapes, "runs": runs}, default=str))


if __name__ == "__main__":
    main()
