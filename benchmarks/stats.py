"""Intervals for the benchmarks' figures: a proportion, and the mean of scores from 0 to 1."""

from __future__ import annotations

import math
from collections.abc import Sequence

from rulesdsl.runner import wilson

Z95 = 1.96  # the normal quantile of a 95% interval


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean of values from 0 to 1 (a win 1, a draw 1/2, a loss 0) and its 95%
    interval (normal, from the sample's spread; Wilson's when every value is 0 or 1)."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 1.0
    mean = sum(values) / n
    if all(v in (0, 1) for v in values):
        return (mean, *wilson(round(mean * n), n))
    var = sum((v - mean) ** 2 for v in values) / max(n - 1, 1)
    half = Z95 * math.sqrt(var / n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def percent(p: float) -> str:
    return f"{100 * p:.1f}%"
