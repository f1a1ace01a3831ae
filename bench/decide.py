"""Medians of repeated runs, the interval their median is known to, and whether that decides a target.

A run's figure is one draw from a distribution the machine of the moment shapes; the median of several runs is
quoted, with a distribution-free confidence interval: the k-th smallest and k-th largest of n runs bound the
true median with probability 1 − 2·P(Binomial(n, ½) < k), whatever the distribution (order statistics). With
fewer than six runs no pair reaches 95 %, and the interval is the whole range at the coverage it has (five
runs: 94 %). A target is decided only when that interval lies on one side of it; a ratio is *precise* when
the interval's half-width is at most ``tolerance`` of the median.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

CONFIDENCE = 0.95
TOLERANCE = 0.05


def median_interval(values: Sequence[float], confidence: float = CONFIDENCE) -> tuple[float, float, float]:
    """(low, high, coverage): the narrowest order-statistic interval around the median whose coverage is at
    least ``confidence``, or the whole range (with its lower coverage) when no pair reaches it."""
    ordered = sorted(values)
    n = len(ordered)
    if n == 0:
        raise ValueError("no values")
    k = 1  # 1-based rank of the low end
    while k + 1 <= n - k and _coverage(n, k + 1) >= confidence:
        k += 1
    return ordered[k - 1], ordered[n - k], _coverage(n, k)


def _coverage(n: int, k: int) -> float:
    """P(x_(k) <= median <= x_(n-k+1)) for n independent draws."""
    below: float = sum(math.comb(n, i) for i in range(k)) / 2**n
    return 1 - 2 * below


@dataclass(frozen=True)
class Summary:
    """The median of repeated runs and the interval it is known to."""

    median: float
    low: float
    high: float
    coverage: float
    runs: int

    @property
    def half_width(self) -> float:
        """Half the interval's width, relative to the median."""
        return (self.high - self.low) / 2 / abs(self.median) if self.median else math.inf

    def precise(self, tolerance: float = TOLERANCE) -> bool:
        return self.half_width <= tolerance

    def text(self, digits: int = 2, unit: str = "runs") -> str:
        return f"{self.median:.{digits}f} ({self.low:.{digits}f}–{self.high:.{digits}f}, {self.runs} {unit})"


def summarise(values: Sequence[float], confidence: float = CONFIDENCE) -> Summary:
    low, high, coverage = median_interval(values, confidence)
    return Summary(float(statistics.median(values)), low, high, coverage, len(values))


def decide(summary: Summary, target: float, at_least: bool = True) -> str:
    """ "met", "not met", or "undecided" when the median's interval straddles the target."""
    if summary.low >= target if at_least else summary.high <= target:
        return "met"
    if summary.high < target if at_least else summary.low > target:
        return "not met"
    return "undecided"


def relative_spread(values: Sequence[float]) -> float:
    """The runs' standard deviation relative to their mean (0 for fewer than two runs)."""
    if len(values) < 2:
        return 0.0
    return statistics.stdev(values) / abs(statistics.fmean(values))


def repeats_for(relative_sd: float, tolerance: float = TOLERANCE) -> int:
    """Runs for the median's 95 % interval to be about ±``tolerance``, for runs spread as ``relative_sd``:
    the median of n normal draws has a standard error of √(π/2)·σ/√n."""
    return max(1, math.ceil((1.96 * math.sqrt(math.pi / 2) * relative_sd / tolerance) ** 2))
