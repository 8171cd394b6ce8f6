"""The statistics of the balance figures checked against known cases: published values of
the intervals and quantiles, the coverage of the intervals on a fair coin and a biased
one, and the error rates of the sequential test on simulated paired games."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rulesdsl import intervals as I
from rulesdsl.balance.sequential import Sprt


@pytest.mark.parametrize("p,want", [(0.975, 1.959963984540054), (0.5, 0.0),
                                    (0.001, -3.090232306167813), (0.9999, 3.719016485455709)])
def test_normal_quantile(p, want):
    assert I.normal_quantile(p) == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize("df,want", [(1, 12.7062047361747), (10, 2.228138851986274),
                                     (30, 2.042272456301238), (1000, 1.962339)])
def test_t_quantile(df, want):
    assert I.t_quantile(0.975, df) == pytest.approx(want, rel=1e-6)


def test_wilson_known_values():
    e = I.wilson(50, 100)
    assert (e.low, e.high) == (pytest.approx(0.403831, abs=1e-6), pytest.approx(0.596169,
                                                                                abs=1e-6))
    e = I.wilson(0, 10)
    assert e.low == 0 and e.high == pytest.approx(0.277533, abs=1e-6)


def test_clopper_pearson_known_values():
    e = I.clopper_pearson(50, 100)
    assert e.low == pytest.approx(0.398321, abs=1e-6)
    assert e.high == pytest.approx(0.601679, abs=1e-6)
    e = I.clopper_pearson(0, 10)
    assert e.low == 0 and e.high == pytest.approx(0.308497, abs=1e-6)  # 1 - 0.025**(1/10)
    e = I.clopper_pearson(10, 10)
    assert e.high == 1 and e.low == pytest.approx(0.691503, abs=1e-6)


def test_mean_interval_known_values():
    e = I.mean([1, 2, 3, 4, 5])
    half = 2.776445105197793 * (2.5 ** 0.5) / 5 ** 0.5
    assert (e.value, e.low, e.high) == (3, pytest.approx(3 - half), pytest.approx(3 + half))


@pytest.mark.parametrize("truth", [0.5, 0.65])
def test_coverage_on_a_fair_and_a_biased_coin(truth):
    """Of 400 runs of 200 tosses, the 95% intervals hold the true rate about 95% of the
    time (Wilson), at least 95% (Clopper-Pearson): within what 400 runs can tell."""
    rng = random.Random(17)
    hits = {"wilson": 0, "exact": 0}
    counts = Counter(sum(rng.random() < truth for _ in range(200)) for _ in range(400))
    for k, times in counts.items():  # each interval worked out once per count of heads
        hits["wilson"] += times * (I.wilson(k, 200).low <= truth <= I.wilson(k, 200).high)
        exact = I.clopper_pearson(k, 200)
        hits["exact"] += times * (exact.low <= truth <= exact.high)
    assert 0.91 <= hits["wilson"] / 400 <= 0.985
    assert hits["exact"] / 400 >= 0.93
    assert hits["exact"] >= hits["wilson"]


def test_half_wins():
    """A share with draws: the mean of 1, 0 and 1/2 with a t interval in [0, 1]."""
    e = I.share([1, 0.5, 0.5, 0, 1, 0] * 10)
    assert e.value == pytest.approx(0.5)
    assert 0 <= e.low < 0.5 < e.high <= 1
    assert I.share([1, 0, 1, 1]).value == 0.75  # no draws: a plain rate (Wilson)


def test_paired_test():
    diff, p = I.paired([0.0] * 50)
    assert p == 1.0
    rng = random.Random(3)
    noise = [rng.gauss(0, 1) for _ in range(200)]
    assert I.paired(noise)[1] > 0.01
    assert I.paired([x + 0.5 for x in noise])[1] < 1e-4


def pairs(rng: random.Random, base: float, variant: float) -> list[float]:
    """One pair of games: the variant's result less the base's, each a coin."""
    return [float(rng.random() < variant) - float(rng.random() < base) for _ in range(2000)]


def run_sprt(test: Sprt, diffs: list[float], look: int = 100) -> str | None:
    for n in range(look, len(diffs) + 1, look):
        decision = test.decide(diffs[:n])
        if decision is not None:
            return decision
    return None


def test_sprt_error_rates():
    """200 simulated studies each way: with no difference the test reports one in about
    alpha of them or fewer; with a difference of delta it misses it in about beta or
    fewer (the looks every 100 games make it a little more conservative)."""
    test = Sprt(delta=0.1, alpha=0.05, beta=0.10)
    rng = random.Random(11)
    false = sum(run_sprt(test, pairs(rng, 0.5, 0.5)) in ("higher", "lower")
                for _ in range(200))
    missed = sum(run_sprt(test, pairs(rng, 0.45, 0.55)) != "higher" for _ in range(200))
    assert false / 200 <= 0.08
    assert missed / 200 <= 0.14


def test_sprt_decides_same_and_rejects_bad_parameters():
    test = Sprt(delta=0.2)
    rng = random.Random(5)
    assert run_sprt(test, pairs(rng, 0.5, 0.5)) == "same"
    assert test.decide([1.0] * 10) is None  # too few pairs to decide
    with pytest.raises(ValueError):
        Sprt(delta=0)
