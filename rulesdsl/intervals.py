"""Confidence intervals and the distributions they need, in plain Python.

Stage: foundation (plain arithmetic, shared by the tools). Every figure `rulesdsl simulate`,
`report` and `strength` show carries a 95% interval from here:
- a rate (k games of n): the Wilson score interval, or the exact Clopper-Pearson one;
- a mean (a game's length, a score, a win share with draws counted as fractions): the
  Student t interval on the sample variance;
- the quantiles of the normal and t distributions and the regularized incomplete beta
  function they rest on (no SciPy: the analysis has no dependency but the standard library).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

LEVEL = 0.95


@dataclass(frozen=True)
class Estimate:
    """A figure and its interval: `value` in [`low`, `high`] at `level`, from `n` games."""

    value: float
    low: float
    high: float
    n: int
    level: float = LEVEL

    def to_json(self) -> dict[str, float]:
        return {"value": self.value, "low": self.low, "high": self.high, "n": self.n}

    def text(self, percent: bool = False, digits: int = 1) -> str:
        """`52.3% (49.1 to 55.4)` or `-1.2 (-3.5 to 1.1)`."""
        if percent:
            return (f"{self.value * 100:.{digits}f}% ({self.low * 100:.{digits}f} to "
                    f"{self.high * 100:.{digits}f})")
        return f"{self.value:.{digits}f} ({self.low:.{digits}f} to {self.high:.{digits}f})"


def normal_quantile(p: float) -> float:
    """The p-quantile of the standard normal (Acklam's rational approximation, refined by
    one Newton step on erfc: accurate to about 1e-15)."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"a probability strictly between 0 and 1, not {p}")
    a = (-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
         1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00)
    b = (-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
         6.680131188771972e+01, -1.328068155288572e+01)
    c = (-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
         -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00)
    d = (7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
         3.754408661907416e+00)
    low = 0.02425
    if p < low:
        q = math.sqrt(-2 * math.log(p))
        x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / \
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
    elif p <= 1 - low:
        q = p - 0.5
        r = q * q
        x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q / \
            (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
    else:
        q = math.sqrt(-2 * math.log(1 - p))
        x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / \
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
    e = 0.5 * math.erfc(-x / math.sqrt(2)) - p
    u = e * math.sqrt(2 * math.pi) * math.exp(x * x / 2)
    return x - u / (1 + x * u / 2)


def normal_cdf(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2))


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10_000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c if abs(1 + aa / c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c if abs(1 + aa / c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return h


def beta_cdf(x: float, a: float, b: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1 - front * _beta_fraction(b, a, 1 - x) / b


def _invert(cdf: object, p: float, low: float, high: float) -> float:
    """The x in [low, high] where an increasing cdf reaches p (bisection, 100 steps)."""
    f = cdf  # type: ignore[assignment]
    for _ in range(100):
        mid = (low + high) / 2
        if f(mid) < p:  # type: ignore[operator]
            low = mid
        else:
            high = mid
    return (low + high) / 2


def beta_quantile(p: float, a: float, b: float) -> float:
    return _invert(lambda x: beta_cdf(x, a, b), p, 0.0, 1.0)


def t_cdf(t: float, df: float) -> float:
    x = df / (df + t * t)
    tail = 0.5 * beta_cdf(x, df / 2, 0.5)
    return 1 - tail if t > 0 else tail


@lru_cache(maxsize=1024)
def t_quantile(p: float, df: float) -> float:
    """The p-quantile of Student's t with df degrees of freedom (remembered: a study's
    figures ask for the same one a dozen times, and each is a hundred steps of bisection
    over the incomplete beta function, a tenth of a second)."""
    if df > 1e6:
        return normal_quantile(p)
    z = abs(normal_quantile(p))
    bound = max(10.0, z * 50)
    return _invert(lambda t: t_cdf(t, df), p, -bound, bound)


def t_critical(n: int, level: float = LEVEL) -> float:
    """The two-sided critical value of Student's t for the mean of n values (n >= 2)."""
    return t_quantile(1 - (1 - level) / 2, n - 1)


def wilson(k: float, n: int, level: float = LEVEL) -> Estimate:
    """The Wilson score interval of a rate of k in n: good at any n, never outside [0, 1]."""
    if n <= 0:
        return Estimate(math.nan, 0.0, 1.0, 0, level)
    z = normal_quantile(1 - (1 - level) / 2)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # at k = 0 (k = n) the bound is 0 (1) exactly; rounding would leave a trace of it
    low = 0.0 if k <= 0 else max(0.0, centre - half)
    high = 1.0 if k >= n else min(1.0, centre + half)
    return Estimate(p, low, high, n, level)


def clopper_pearson(k: int, n: int, level: float = LEVEL) -> Estimate:
    """The exact (Clopper-Pearson) interval of a rate of k in n: its coverage is at least
    `level` whatever the true rate (it is conservative)."""
    if n <= 0:
        return Estimate(math.nan, 0.0, 1.0, 0, level)
    alpha = 1 - level
    low = 0.0 if k == 0 else beta_quantile(alpha / 2, k, n - k + 1)
    high = 1.0 if k == n else beta_quantile(1 - alpha / 2, k + 1, n - k)
    return Estimate(k / n, low, high, n, level)


def rate(k: float, n: int, exact: bool = False, level: float = LEVEL) -> Estimate:
    """A rate's interval: Wilson, or with `exact` Clopper-Pearson (k whole)."""
    if exact:
        return clopper_pearson(int(round(k)), n, level)
    return wilson(k, n, level)


def mean_sd(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the sample standard deviation (0 for fewer than two values)."""
    n = len(values)
    if n == 0:
        return math.nan, 0.0
    m = math.fsum(values) / n
    if n < 2:
        return m, 0.0
    return m, math.sqrt(math.fsum([(v - m) ** 2 for v in values]) / (n - 1))


def mean(values: Sequence[float], level: float = LEVEL) -> Estimate:
    """A mean and its Student t interval."""
    return _t_interval(*mean_sd(values), len(values), level)


def _t_interval(m: float, sd: float, n: int, level: float) -> Estimate:
    if n < 2:
        return Estimate(m, m if n else math.nan, m if n else math.nan, n, level)
    half = t_critical(n, level) * sd / math.sqrt(n)
    return Estimate(m, m - half, m + half, n, level)


def share(values: Sequence[float], exact: bool = False, level: float = LEVEL) -> Estimate:
    """A win share per game (1 for a win, 1/k for a first place shared by k, else 0): with
    no shared first place it is a rate of wins (Wilson or exact); with some, the t interval
    of the mean share, whose variance counts each fractional result as it is (the exact
    half-win accounting of chess tests), clipped to [0, 1]."""
    return shares(values, exact, (level,))[0]


def shares(values: Sequence[float], exact: bool, levels: Sequence[float]) -> list[Estimate]:
    """`share` at each of several levels, the values gone over once (a figure and the
    balance made from it)."""
    n = len(values)
    if set(values) <= {0, 1}:
        k = sum(values)
        return [rate(k, n, exact, level) for level in levels]
    m, sd = mean_sd(values)
    return [_clipped(_t_interval(m, sd, n, level)) for level in levels]


def _clipped(est: Estimate) -> Estimate:
    """An estimate of a share, its interval held within [0, 1]."""
    return Estimate(est.value, max(0.0, est.low), min(1.0, est.high), est.n, est.level)


def quantiles(values: Sequence[float], qs: Sequence[float] = (0, .25, .5, .75, 1)
              ) -> list[float]:
    """Quantiles by linear interpolation between order statistics."""
    xs = sorted(values)
    if not xs:
        return [math.nan for _ in qs]
    out = []
    for q in qs:
        pos = q * (len(xs) - 1)
        i = int(math.floor(pos))
        j = min(i + 1, len(xs) - 1)
        out.append(xs[i] + (xs[j] - xs[i]) * (pos - i))
    return out


def two_sided_p(z: float) -> float:
    return 2 * (1 - normal_cdf(abs(z)))


def paired(differences: Sequence[float], level: float = LEVEL) -> tuple[Estimate, float]:
    """The mean of paired differences, its t interval, and the two-sided p-value of the
    paired t test of no difference (1.0 when every difference is zero)."""
    est = mean(differences, level)
    n = len(differences)
    _, sd = mean_sd(differences)
    if n < 2 or sd == 0:
        return est, 1.0 if est.value == 0 or n < 2 else 0.0
    t = est.value / (sd / math.sqrt(n))
    return est, 2 * (1 - t_cdf(abs(t), n - 1))
