"""How `make bench` pairs runs into ratios and says what they decide (bench/rounds.py)."""

from __future__ import annotations

from typing import Any

from bench.rounds import Ratio, disturbed, paired, report


def run(round_: int, shape: str, moves: float, cpu: float = 300.0, waited: float = 0.0) -> dict[str, Any]:
    result = {
        "round": round_,
        "shape": shape,
        "achieved_moves_per_s": moves,
        "server_cpu_us_per_move": cpu,
        "duration_s": 15.0,
        "processes": 1,
        "window_counters": {"runqueue_wait_s": waited, "thread_cpu_others": 0.1, "generator_runqueue_wait_s": 0.0},
    }
    result["disturbed"] = disturbed(result, 0.02)
    return result


def test_ratios_are_taken_within_a_round() -> None:
    runs = [run(0, "project", 1800), run(0, "bare", 3000), run(1, "bare", 2000), run(1, "project", 1300)]
    ratio = Ratio("project ÷ bare", "project", "bare", "achieved_moves_per_s", 0.6)
    assert paired(runs, ratio) == [0.6, 0.65]


def test_a_run_that_waited_for_its_core_is_disturbed_and_left_out() -> None:
    waited = run(2, "project", 900, waited=1.0)
    assert waited["disturbed"]
    runs = [run(0, "project", 1800), run(0, "bare", 3000), waited, run(2, "bare", 3000)]
    assert paired([r for r in runs if not r["disturbed"]], Ratio("r", "project", "bare", "achieved_moves_per_s")) == [
        0.6
    ]
    assert "| project | 1800 (1800–1800, 1 runs) | 300 (300–300, 1 runs) | – | 1 of 2 |" in report(
        runs, ["project", "bare"]
    )


def test_a_server_waiting_for_its_own_threads_is_not_disturbed() -> None:
    busy_threads = run(0, "project", 1800, waited=2.0)
    busy_threads["window_counters"]["thread_cpu_others"] = 1.9
    assert not disturbed(busy_threads, 0.02)
    uncounted = run(0, "boardgameio-memory", 2500) | {"window_counters": {"runqueue_wait_s": 2.0}}
    assert not disturbed(uncounted | {"server_cpu_utilisation": 0.99}, 0.02)
    assert disturbed(uncounted | {"server_cpu_utilisation": 0.9}, 0.02)


def test_several_processes_share_their_core_by_design() -> None:
    routed = run(0, "routed", 1500, waited=5.0) | {"processes": 2}
    assert not disturbed(routed, 0.02)


def test_the_report_says_when_the_spread_is_too_wide_to_decide() -> None:
    ratios = [0.55, 0.58, 0.61, 0.63, 0.66]
    runs = [r for i, x in enumerate(ratios) for r in (run(i, "project", 3000 * x), run(i, "bare", 3000))]
    assert "| ≥ 0.6 | undecided: spread too wide |" in report(runs, ["project", "bare"])
    steady = [r for i in range(5) for r in (run(i, "project", 1950 + i), run(i, "bare", 3000))]
    assert "| ≥ 0.6 | met |" in report(steady, ["project", "bare"])


def test_too_few_rounds_decide_nothing() -> None:
    runs = [r for i in range(3) for r in (run(i, "project", 2400), run(i, "bare", 3000))]
    assert "| ≥ 0.6 | undecided: too few rounds (met in those) |" in report(runs, ["project", "bare"])
