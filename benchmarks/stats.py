"""Intervals for the benchmarks' figures: a proportion, and the mean of scores from 0 to 1."""

from __future__ import annotations

from rulesdsl.agents.play import wilson
from rulesdsl.agents.strength import mean_interval

__all__ = ["Z95", "mean_interval", "percent", "wilson"]

Z95 = 1.96  # the normal quantile of a 95% interval


def percent(p: float) -> str:
    return f"{100 * p:.1f}%"
