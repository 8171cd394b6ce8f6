"""The benchmarks' figures carry their intervals: the interval of a score, all wins and
losses (Wilson's) or with draws (from the spread)."""

from __future__ import annotations

import pytest

from benchmarks.stats import mean_interval


def test_a_score_of_wins_and_losses_has_wilsons_interval():
    mean, low, high = mean_interval([1, 1, 1, 0, 1, 1])
    assert mean == pytest.approx(5 / 6)
    assert (round(low, 3), round(high, 3)) == (0.436, 0.970)  # Wilson, 5 of 6


def test_a_score_with_draws_has_an_interval_around_its_mean():
    mean, low, high = mean_interval([1, 0.5, 0, 1, 0.5, 1])
    assert low < mean < high and mean == pytest.approx(4 / 6)
    assert mean_interval([]) == (0.0, 0.0, 1.0)
