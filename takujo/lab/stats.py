"""Statistics of paired experiments: mean differences with intervals and p-values, Holm's
correction for many comparisons, Wilson intervals for rates, and a sequential test.

Every variant plays the same games (seed and seat rotation), so a metric's difference between
two variants is taken game by game: its mean, the standard error of that mean, a 95%
interval from Student's t, and the two-sided p-value of "no difference". Pairing removes
what the seed decides alike in both variants (the deal, the dice), which is why a paired
test needs far fewer games than two independent samples.
"""
from __future__ import annotations

import functools
import math
import statistics
from dataclasses import dataclass
from typing import Any, Sequence


@functools.cache
def _scipy_student() -> Any:
    """scipy's Student's t, or None without scipy (the lab extra brings it; without it the
    same tail comes from the continued fraction below). Imported when first needed: scipy
    takes most of a second to import."""
    try:
        from scipy.stats import t  # type: ignore[import-untyped]
    except ImportError:  # pragma: no cover - exercised by forcing the fallback in the tests
        return None
    return t


def _t_tail(t: float, df: int) -> float:
    """P(T > t) for t >= 0 without the fallback: half the regularized incomplete beta
    function, computed directly (never as 1 - cdf, which underflows to 0 for tiny tails)."""
    return 0.5 * _betainc(df / 2, 0.5, df / (df + t * t))


def t_sf(t: float, df: int) -> float:
    """Student's t survival function P(T > t): scipy's when installed, else `_t_tail`."""
    if df <= 0:
        return 0.5
    student = _scipy_student()
    if student is not None:
        return float(student.sf(t, df))
    return _t_tail(t, df) if t >= 0 else 1 - _t_tail(-t, df)


def _t_cdf(t: float, df: int) -> float:
    """Student's t distribution function."""
    return 1 - t_sf(t, df) if t > 0 else t_sf(-t, df)


def _betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b) (Numerical Recipes' continued
    fraction; its prefactor in log space, so a tiny value stays a tiny value, not 0)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    if x > (a + 1) / (a + b + 2):
        return 1 - _betainc(b, a, 1 - x)
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    f, c, d = 1.0, 1.0, 0.0
    for i in range(10_000):
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
        if abs(1 - c * d) < 1e-15:
            break
    return math.exp(log_front + math.log(f - 1) - math.log(a)) if f > 1 else 0.0


def t_quantile(p: float, df: int) -> float:
    """The p-quantile of Student's t with `df` degrees of freedom."""
    student = _scipy_student()
    if student is not None:
        return float(student.ppf(p, df))
    lo, hi = -50.0, 50.0
    for _ in range(100):
        mid = (lo + hi) / 2
        if _t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def format_p(p: float | None) -> str:
    """A p-value for people: 3 significant digits down to 0.001, below that 2 in scientific
    form (``3.3e-26``), and ``< 1e-20`` below 1e-20 (the last digits of such a tail say
    nothing about a game)."""
    if p is None or math.isnan(p):
        return "–"
    if p < 1e-20:
        return "< 1e-20"
    if p < 1e-3:
        return f"{p:.1e}"
    return f"{p:.3g}"


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
    p = 2 * t_sf(abs(t), n - 1)
    half = t_quantile(0.975, n - 1) * se
    return Paired(n, mean_a, mean_b, diff, se, (diff - half, diff + half), min(1.0, max(0.0, p)))


def wilson(mean: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate observed as `mean` over `n` games. A game may
    count a fraction (a win shared by k counts 1/k); its variance is then below a 0/1 game's,
    so the interval is, if anything, a little wide."""
    if n <= 0:
        return 0.0, 1.0
    p = min(1.0, max(0.0, mean))
    denom = 1 + z * z / n
    center = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return min(p, max(0.0, center - half)), max(p, min(1.0, center + half))   # it holds p, rounding aside


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


#: What `Sprt.codes` returns, in words.
VERDICTS = {1: "H1+", -1: "H1-", 2: "H0"}


@dataclass(frozen=True)
class Sprt:
    """A two-sided sequential test on a paired mean difference: H0 "no difference" against H1
    "a difference of +delta" and against H1 "a difference of −delta", with error rates alpha
    (deciding H1± when there is no difference) and beta (deciding H0 when the difference is
    ±delta).

    It is two one-sided sequential probability ratio tests, each run at alpha/2 — the two-sided
    split of a fixed-size test — so that together they decide a difference where there is none
    at most alpha of the time, not 2·alpha. Each log likelihood ratio uses the normal
    approximation with the variance estimated so far (the generalized SPRT of chess-engine
    testing). Nothing is decided before `min_differing` pairs have differed (a variance from
    a handful of differing pairs is too often far too small, and decides too soon), nor while
    every pair differs by the same amount."""

    delta: float
    alpha: float = 0.05
    beta: float = 0.05
    min_differing: int = 10

    @property
    def bounds(self) -> tuple[float, float]:
        """Wald's bounds of each one-sided test (at alpha/2): accept its H0 at or below the
        first, its H1 at or above the second."""
        a = self.alpha / 2
        return math.log(self.beta / (1 - a)), math.log((1 - self.beta) / a)

    def codes(self, n: Any, total: Any, sumsq: Any, differing: Any) -> Any:
        """The verdict after `n` pairs whose differences add up to `total`, their squares to
        `sumsq`, `differing` of them not 0: 1 (H1+), -1 (H1−), 2 (H0) or 0 (not yet). Plain
        arithmetic, so the same code decides one experiment (numbers) and a Monte Carlo of
        many at once (numpy arrays)."""
        lower, upper = self.bounds
        var = (sumsq - total * total / n) / (n - 1 + (n < 2))
        flat = var <= 1e-12 * (1 + sumsq / n)          # every difference alike so far
        informative = (differing >= self.min_differing) * (1 - flat)   # 1 or 0
        var = var + flat                                # any positive value where not informative
        mu = self.delta
        up = (mu * total - n * mu * mu / 2) / var
        down = (-mu * total - n * mu * mu / 2) / var
        code = (up >= upper) * 1 - (down >= upper) * 1 + ((up <= lower) & (down <= lower)) * 2
        return code * informative

    def decide(self, d: Sequence[float]) -> str | None:
        """"H1+" (B exceeds A by about delta), "H1-" (falls short), "H0" (no difference of
        that size), or None: not decided yet."""
        if not d:
            return None
        code = self.codes(len(d), math.fsum(d), math.fsum(x * x for x in d), sum(1 for x in d if x != 0))
        return VERDICTS.get(int(code))


@dataclass(frozen=True)
class SequentialRates:
    """How often the sequential test decided each way over `reps` simulated experiments whose
    true difference is `true_diff`, and how many pairs it played on average."""

    true_diff: float
    reps: int
    max_pairs: int
    h1_plus: float
    h1_minus: float
    h0: float
    undecided: float
    mean_pairs: float

    def se(self, rate: float) -> float:
        """The Monte Carlo standard error of a rate over `reps` replications."""
        return math.sqrt(max(rate * (1 - rate), 0.0) / self.reps)

    @property
    def any_difference(self) -> float:
        """The share of experiments that decided some difference (H1+ or H1−)."""
        return self.h1_plus + self.h1_minus

    def to_json(self) -> dict[str, float | int]:
        return {"true_diff": self.true_diff, "reps": self.reps, "max_pairs": self.max_pairs,
                "h1_plus": self.h1_plus, "h1_minus": self.h1_minus, "h0": self.h0,
                "undecided": self.undecided, "mean_pairs": self.mean_pairs}


def sequential_monte_carlo(sprt: Sprt, true_diff: float, reps: int, max_pairs: int, base_rate: float = 0.25,
                           correlation: float = 0.2, seed: int = 0, chunk: int = 1000,
                           block: int = 256) -> SequentialRates:
    """Run `sprt` on `reps` synthetic paired experiments of win/loss outcomes, like the lab's
    ``seat0_won``: the baseline wins with probability `base_rate`, the variant with
    `base_rate + true_diff`, the two outcomes of a pair correlated by `correlation` (pairing:
    the same seed; 0.2 is about what いばらの姫と4人の騎士's ``ryan_last`` shows), and at most
    `max_pairs` pairs each (``--games``). The decisions are `Sprt.codes`, the lab's own.
    Needs numpy."""
    import numpy as np

    pa, pb = base_rate, base_rate + true_diff
    both = pa * pb + correlation * math.sqrt(pa * (1 - pa) * pb * (1 - pb))
    only_b, only_a = pb - both, pa - both               # d = +1, d = −1
    if min(both, only_a, only_b, 1 - both - only_a - only_b) < 0:
        raise ValueError("no pair of win/loss outcomes has these rates and this correlation")
    rng = np.random.default_rng(seed)
    counts = {1: 0, -1: 0, 2: 0, 0: 0}
    pairs = 0
    for start in range(0, reps, chunk):
        rows = min(chunk, reps - start)
        carry = np.zeros((rows, 3))                     # running n-less sums: total, sumsq, differing
        alive = np.arange(rows)                         # the experiments still undecided
        for first_pair in range(0, max_pairs, block):
            width = min(block, max_pairs - first_pair)
            u = rng.random((alive.size, width))
            d = (u < only_b).astype(np.float64) - ((u >= only_b) & (u < only_b + only_a))
            total = carry[alive, 0:1] + np.cumsum(d, axis=1)
            sumsq = carry[alive, 1:2] + np.cumsum(d * d, axis=1)
            differing = carry[alive, 2:3] + np.cumsum(d != 0, axis=1)
            n = np.arange(first_pair + 1, first_pair + width + 1, dtype=np.float64)[None, :]
            codes = sprt.codes(n, total, sumsq, differing)
            stopped = codes != 0
            at = np.argmax(stopped, axis=1)
            hit = stopped[np.arange(alive.size), at]
            for code in (1, -1, 2):
                counts[code] += int((codes[np.arange(alive.size), at][hit] == code).sum())
            pairs += int((first_pair + at[hit] + 1).sum())
            carry[alive, 0], carry[alive, 1], carry[alive, 2] = total[:, -1], sumsq[:, -1], differing[:, -1]
            alive = alive[~hit]
            if alive.size == 0:
                break
        counts[0] += int(alive.size)
        pairs += int(alive.size) * max_pairs
    return SequentialRates(true_diff, reps, max_pairs, counts[1] / reps, counts[-1] / reps, counts[2] / reps,
                           counts[0] / reps, pairs / reps)
