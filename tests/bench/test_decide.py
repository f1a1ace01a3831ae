"""The statistics `make bench` decides with (bench/decide.py)."""

from __future__ import annotations

import pytest

from bench.decide import decide, median_interval, repeats_for, summarise


def test_five_runs_give_the_whole_range_at_its_coverage() -> None:
    low, high, coverage = median_interval([0.58, 0.61, 0.60, 0.63, 0.59])
    assert (low, high) == (0.58, 0.63)
    assert coverage == pytest.approx(1 - 2 / 32)


def test_nine_runs_drop_the_extremes_and_keep_95_percent() -> None:
    low, high, coverage = median_interval([9, 1, 8, 2, 7, 3, 6, 4, 5])
    assert (low, high) == (2, 8)
    assert coverage >= 0.95
    assert coverage == pytest.approx(1 - 2 * (1 + 9) / 512)


def test_a_target_inside_the_interval_is_undecided() -> None:
    summary = summarise([0.55, 0.58, 0.61, 0.62, 0.66])
    assert summary.median == 0.61
    assert decide(summary, 0.6) == "undecided"
    assert decide(summary, 0.5) == "met"
    assert decide(summary, 0.7) == "not met"


def test_an_upper_bound_is_met_below_it() -> None:
    summary = summarise([1.31, 1.35, 1.4, 1.38, 1.33])
    assert decide(summary, 1.5, at_least=False) == "met"
    assert decide(summary, 1.3, at_least=False) == "not met"


def test_precision_is_the_half_width_against_the_median() -> None:
    summary = summarise([0.58, 0.60, 0.62])
    assert summary.half_width == pytest.approx(0.02 / 0.6)
    assert summary.precise(0.05)
    assert not summary.precise(0.03)


def test_repeats_grow_with_the_square_of_the_spread() -> None:
    assert repeats_for(0.02) == 1
    assert repeats_for(0.05) == 7
    assert repeats_for(0.10) == 25
