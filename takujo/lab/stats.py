"""Statistics of paired experiments: mean differences with intervals and p-values, Holm's
correction for many comparisons, and a sequential probability ratio test.

Every variant plays the same games (seed and seat rotation), so a metric's difference between
two variants is taken game by game: its mean, the standard error of that mean, a 95%
interval from Student's t, and the two-sided p-value of "no difference". Pairing removes
what the seed decides alike in both variants (the deal, the dice), which is why a paired
test needs far fewer games than two independent samples.
"""
from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import Sequence


def _t_cdf(t: float, df: int) -> float:
    """Student's t distribution function (by the regularized incomplete beta function)."""
    if df <= 0:
        return 0.5
    x = df / (df + t * t)
    tail = 0.5 * _betainc(df / 2, 0.5, x)
    return 1 - tail if t > 0 else tail


def _betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b) (Numerical Recipes' continued fraction)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    lbeta = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
    front = math.exp(lbeta + a * math.log(x) + b * math.log1p(-x))
    if x > (a + 1) / (a + b + 2):
        return 1 - _betainc(b, a, 1 - x)
    f, c, d = 1.0, 1.0, 0.0
    for i in range(400):
        m = i // 2
        if i == 0:
            num = 1.0
        elif i % 2 == 0:
            num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
        else:
            num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
        d = 1 + num * d
        d = 1 / (d if abs(d) > 1e-300 else 1e-300)
        c = 1 + num / (c if abs(c) > 1e-300 else 1e-300)
        f *= c * d
        if abs(1 - c * d) < 1e-12:
            break
    return front * (f - 1) / a


def t_quantile(p: float, df: int) -> float:
    """The p-quantile of Student's t with `df` degrees of freedom (by bisection)."""
    lo, hi = -50.0, 50.0
    for _ in range(100):
        mid = (lo + hi) / 2
        if _t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


@dataclass(frozen=True)
class Paired:
    """The paired difference B − A of one metric over n games."""

    n: int
    mean_a: float
    mean_b: float
    diff: float
    se: float
    ci95: tuple[float, float]
    p: float

    def to_json(self) -> dict[str, float | int | list[float]]:
        return {"n": self.n, "mean_a": self.mean_a, "mean_b": self.mean_b, "diff": self.diff,
                "se": self.se, "ci95": list(self.ci95), "p": self.p}


def paired(a: Sequence[float], b: Sequence[float]) -> Paired:
    """The paired comparison of two equally long samples (game i of `a` with game i of `b`)."""
    if len(a) != len(b):
        raise ValueError("paired samples must have the same length")
    n = len(a)
    d = [y - x for x, y in zip(a, b)]
    mean_a = statistics.fmean(a) if n else 0.0
    mean_b = statistics.fmean(b) if n else 0.0
    diff = statistics.fmean(d) if n else 0.0
    if n < 2:
        return Paired(n, mean_a, mean_b, diff, math.inf, (-math.inf, math.inf), 1.0)
    sd = statistics.stdev(d)
    se = sd / math.sqrt(n)
    if se == 0:
        return Paired(n, mean_a, mean_b, diff, 0.0, (diff, diff), 1.0 if diff == 0 else 0.0)
    t = diff / se
    p = 2 * (1 - _t_cdf(abs(t), n - 1))
    half = t_quantile(0.975, n - 1) * se
    return Paired(n, mean_a, mean_b, diff, se, (diff - half, diff + half), min(1.0, max(0.0, p)))


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm–Bonferroni adjusted p-values (controls the family-wise error rate)."""
    order = sorted(range(len(pvalues)), key=lambda i: pvalues[i])
    adjusted = [0.0] * len(pvalues)
    running = 0.0
    m = len(pvalues)
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


@dataclass(frozen=True)
class Sprt:
    """A two-sided sequential probability ratio test on a paired mean difference: H0 "no
    difference" against H1 "a difference of ±delta", with error rates alpha and beta. The log
    likelihood ratio uses the normal approximation with the variance estimated so far (the
    generalized SPRT of chess-engine testing)."""

    delta: float
    alpha: float = 0.05
    beta: float = 0.05

    @property
    def bounds(self) -> tuple[float, float]:
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def llr(self, d: Sequence[float], sign: int) -> float:
        n = len(d)
        if n < 2:
            return 0.0
        var = statistics.variance(d) or 1e-12
        mu1 = sign * self.delta
        return (mu1 * sum(d) - n * mu1 * mu1 / 2) / var

    def decide(self, d: Sequence[float]) -> str | None:
        """"H1+" (B exceeds A by about delta), "H1-" (falls short), "H0" (no difference of
        that size), or None: not decided yet."""
        lower, upper = self.bounds
        up, down = self.llr(d, +1), self.llr(d, -1)
        if up >= upper:
            return "H1+"
        if down >= upper:
            return "H1-"
        if up <= lower and down <= lower:
            return "H0"
        return None
