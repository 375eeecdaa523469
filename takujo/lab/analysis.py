"""From stored games to answers: each variant's figures, and each variant against the first
(the baseline) metric by metric, paired game by game, with Holm's correction over the
metrics compared."""
from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field
from typing import Any, Iterable

from .metrics import is_rate, metric_value
from .stats import Paired, holm, paired, t_quantile, wilson


@dataclass
class VariantFigures:
    label: str
    games: int
    means: dict[str, tuple[float, float, float]]   # metric -> (mean, ci low, ci high), 95%
    balance_seats: float                           # 1 - the largest gap between seats' win rates
    balance_labels: float | None                   # … between the sides' (deck, knight, faction)
    lengths: list[float]                           # turns of every game (for the distribution)


@dataclass
class Comparison:
    baseline: str
    variant: str
    metrics: dict[str, Paired]
    holm: dict[str, float] = field(default_factory=dict)


@dataclass
class Analysis:
    variants: list[VariantFigures]
    comparisons: list[Comparison]
    metric_names: list[str]
    #: metric -> how its per-variant interval is made: "wilson" (a rate) or "t" (any other mean)
    intervals: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "variants": [{"label": v.label, "games": v.games,
                          "means": {k: list(m) for k, m in v.means.items()},
                          "balance_seats": v.balance_seats, "balance_labels": v.balance_labels}
                         for v in self.variants],
            "intervals": dict(self.intervals),
            "comparisons": [{"baseline": c.baseline, "variant": c.variant,
                             "metrics": {k: {**p.to_json(), "p_holm": c.holm.get(k)} for k, p in c.metrics.items()}}
                            for c in self.comparisons],
        }


def _mean_ci(values: list[float], rate: bool = False) -> tuple[float, float, float]:
    """The mean and its 95% interval: Wilson's for a rate (on the mean over the games, so a
    shared win's 1/k counts as it is), Student's t for any other metric."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    m = statistics.fmean(values)
    if rate:
        return (m, *wilson(m, n))
    if n < 2:
        return (m, m, m)
    half = t_quantile(0.975, n - 1) * statistics.stdev(values) / math.sqrt(n)
    return (m, m - half, m + half)


def _balance(means: dict[str, tuple[float, float, float]], prefix: str) -> float | None:
    rates = [m[0] for k, m in means.items() if k.startswith(prefix)]
    return 1 - (max(rates) - min(rates)) if len(rates) > 1 else None


def analyse(rows: Iterable[dict[str, Any]], variants: list[str]) -> Analysis:
    """`variants` in order; the first is the baseline every other is compared with."""
    by_variant: dict[str, dict[tuple[int, int], dict[str, float]]] = {v: {} for v in variants}
    for row in rows:
        if row["variant"] in by_variant:
            by_variant[row["variant"]][(row["seed"], row["rotation"])] = row["metrics"]
    names = sorted({k for games in by_variant.values() for m in games.values() for k in m})
    intervals = {k: "wilson" if is_rate(k, (m[k] for g in by_variant.values() for m in g.values() if k in m))
                 else "t" for k in names}
    figures = []
    for v in variants:
        games = by_variant[v]
        means = {}
        for k in names:
            values = [x for x in (metric_value(k, m) for m in games.values()) if x is not None]
            if values:
                means[k] = _mean_ci(values, intervals[k] == "wilson")
        figures.append(VariantFigures(v, len(games), means, _balance(means, "seat") or 1.0,
                                      _balance(means, "won:"), [m.get("turns", 0.0) for m in games.values()]))
    comparisons = []
    base = by_variant[variants[0]] if variants else {}
    for v in variants[1:]:
        other = by_variant[v]
        keys = sorted(set(base) & set(other))
        results: dict[str, Paired] = {}
        for k in names:
            both = ((metric_value(k, base[g]), metric_value(k, other[g])) for g in keys)
            pairs = [(a, b) for a, b in both if a is not None and b is not None]
            if len(pairs) >= 2:
                results[k] = paired([a for a, _ in pairs], [b for _, b in pairs])
        tested = [k for k, p in results.items() if not math.isnan(p.p)]
        adjusted = dict(zip(tested, holm([results[k].p for k in tested])))
        comparisons.append(Comparison(variants[0], v, results, adjusted))
    return Analysis(figures, comparisons, names, intervals)
