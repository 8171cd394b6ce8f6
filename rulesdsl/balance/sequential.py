"""The sequential test of `simulate BASE VARIANT --until-significant`: stop playing as soon
as the difference between two rule files is clear, or clearly smaller than what matters.

Stage: analysis. Base and variant are played on the same seeds, so each game number gives
one paired difference D (the variant's figure minus the base's: a win share, a length).
The test is Wald's sequential probability ratio test on the mean of D, two-sided, as two
one-sided tests against the hypothesis of no difference:

    H0: mean D = 0      against   H+: mean D = +delta   and   H-: mean D = -delta

With S the sum of the n differences and s2 their sample variance, the log-likelihood
ratio of H+ (normal differences, the variance estimated, as chess engine tests do it) is
    LLR+ = (delta * S - n * delta**2 / 2) / s2,       and LLR- the same with -delta.
Each one-sided test runs at alpha/2: it accepts its H+ (or H-) when its LLR reaches
log((1 - beta) / (alpha / 2)), and accepts H0 when the LLR falls to log(beta / (1 - alpha / 2)).
The run stops when either accepts a difference, or both accept H0.

Error rates (Wald): the chance of reporting a difference when there is none is at most
about alpha; the chance of missing a difference of delta or more is at most about beta.
The test looks only after whole batches of games (so that where it stops does not depend on
the number of workers), which makes it a little more conservative; the normal
approximation needs a few dozen pairs, so it never decides before `MIN_PAIRS`. A budget
that runs out before a decision says so, with the interval of the difference so far.
tests/test_balance_stats.py measures both error rates on simulated coins.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..intervals import mean_sd

MIN_PAIRS = 30


@dataclass(frozen=True)
class Sprt:
    """A two-sided SPRT: `delta` the smallest difference worth finding, `alpha` the rate of
    false alarms, `beta` the rate of missed differences of `delta`."""

    delta: float
    alpha: float = 0.05
    beta: float = 0.10

    def __post_init__(self) -> None:
        if not self.delta > 0:
            raise ValueError("the difference to detect must be above 0")
        if not (0 < self.alpha < 1 and 0 < self.beta < 1):
            raise ValueError("alpha and beta are probabilities between 0 and 1")

    @property
    def upper(self) -> float:
        return math.log((1 - self.beta) / (self.alpha / 2))

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1 - self.alpha / 2))

    def llrs(self, differences: Sequence[float]) -> tuple[float, float]:
        """The log-likelihood ratios of H+ and H- against H0."""
        n = len(differences)
        m, sd = mean_sd(differences)
        total = m * n
        var = sd * sd
        d = self.delta
        if var == 0:
            # every pair agrees: a constant difference, which decides at once
            if total == 0:
                return -math.inf, -math.inf
            return (math.inf, -math.inf) if total > 0 else (-math.inf, math.inf)
        return (d * total - n * d * d / 2) / var, (-d * total - n * d * d / 2) / var

    def decide(self, differences: Sequence[float]) -> str | None:
        """"higher" (the variant's figure is above the base's), "lower", "same" (no
        difference of delta), or None: play on."""
        if len(differences) < MIN_PAIRS:
            return None
        plus, minus = self.llrs(differences)
        if plus >= self.upper:
            return "higher"
        if minus >= self.upper:
            return "lower"
        if plus <= self.lower and minus <= self.lower:
            return "same"
        return None
