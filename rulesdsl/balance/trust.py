"""How far a comparison can be trusted: the metric chosen in advance apart from the others,
the others' p-values corrected for testing many (Holm), the smallest difference the study
could detect, the games a chosen difference needs, and how much pairing the games helped.

Stage: analysis (statistics, plain Python as intervals.py).
- Holm's step-down correction: with m p-values in increasing order p(1) <= ... <= p(m), the
  adjusted p(i) is the largest of (m - j + 1) p(j) for j <= i, at most 1. It keeps the chance
  of any false alarm among the m at most alpha, whatever their dependence, and rejects at
  least what Bonferroni's does.
- The smallest detectable difference at 80% power, two-sided at alpha 0.05, of a paired
  mean: (z(1 - alpha/2) + z(power)) * sd(D) / sqrt(n), sd(D) the spread of the paired
  differences (the normal approximation of the paired t test: a few games more are
  needed below 30 pairs); the games needed for a difference delta: that solved for n.
- Pairing's gain: the variance of an unpaired difference (var base + var variant) over the
  variance of the paired one (var D). 3 means unpaired runs would need three times the
  games for the same interval. The games whose ranking is the same in both files are shown
  beside it: where they are many, the common random numbers held.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..intervals import mean_sd, normal_quantile
from .compare import Comparison, pairs
from .games import GameRecord

ALPHA = 0.05
POWER = 0.8


def holm(ps: Sequence[float]) -> list[float]:
    """Holm's adjusted p-values, in the order given."""
    m = len(ps)
    order = sorted(range(m), key=lambda i: ps[i])
    out = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * ps[i]))
        out[i] = running
    return out


def p_text(p: float) -> str:
    """A p-value as people should read it: `p < 0.001` below that, never `p = 0`."""
    if math.isnan(p):
        return "p = -"
    if p < 0.001:
        return "p < 0.001"
    return f"p = {p:.3f}" if p < 0.1 else f"p = {p:.2f}"


def _z() -> float:
    return normal_quantile(1 - ALPHA / 2) + normal_quantile(POWER)


def detectable(sd: float, n: int) -> float:
    """The smallest paired difference n games find at 80% power (alpha 0.05, two-sided)."""
    return _z() * sd / math.sqrt(n) if n > 0 else math.inf


def games_needed(delta: float, sd: float) -> int:
    """The games (pairs) a paired difference of delta needs at 80% power."""
    if delta <= 0:
        raise ValueError("a difference to find is more than 0")
    return max(2, math.ceil((_z() * sd / delta) ** 2))


@dataclass(frozen=True)
class Trust:
    """What one compared metric can be trusted for."""

    metric: str
    chosen: bool                 # the metric named in advance (--metric): not corrected
    p: float                     # the paired test's p-value
    adjusted: float              # Holm-adjusted among the metrics not chosen (p if chosen)
    relative: float | None       # the difference over the base's mean
    detectable: float            # the smallest difference detectable at 80% power
    sd: float                    # spread of the paired differences
    gain: float | None           # var(base) + var(variant) over var(difference)

    def to_json(self) -> dict[str, object]:
        return {"metric": self.metric, "chosen": self.chosen, "p": self.p,
                "holm": self.adjusted, "relative": self.relative,
                "detectable": self.detectable, "sd": self.sd, "pairing_gain": self.gain}


def trusts(comparisons: list[Comparison], chosen: str, base: list[GameRecord],
           variant: list[GameRecord]) -> list[Trust]:
    """Each comparison's trust: the chosen metric alone, the others corrected together."""
    others = [c for c in comparisons if c.metric != chosen]
    adjusted = dict(zip([c.metric for c in others], holm([c.p for c in others])))
    out = []
    for c in comparisons:
        xs, ys = pairs(base, variant, c.metric)
        _, sd = mean_sd([y - x for x, y in zip(xs, ys)])
        _, sx = mean_sd(xs)
        _, sy = mean_sd(ys)
        gain = (sx * sx + sy * sy) / (sd * sd) if sd > 0 else None
        relative = c.difference.value / c.base.value if c.base.value else None
        out.append(Trust(c.metric, c.metric == chosen, c.p, adjusted.get(c.metric, c.p),
                         relative, detectable(sd, len(xs)), sd, gain))
    return out


def same_rankings(base: list[GameRecord], variant: list[GameRecord]) -> tuple[int, int]:
    """(games whose ranking is the same in both files, games compared)."""
    theirs = {g.number: g for g in variant}
    both = [(g, theirs[g.number]) for g in base if g.number in theirs]
    return sum(1 for a, b in both if a.ranking == b.ranking), len(both)
