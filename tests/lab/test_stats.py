"""The balance lab's statistics against known values."""
from __future__ import annotations

import math
import random

import pytest
import scipy.stats

import takujo.lab.stats as stats
from takujo.lab.analysis import analyse
from takujo.lab.stats import Sprt, format_p, holm, paired, t_quantile, t_sf, wilson


@pytest.mark.parametrize("df,expected", [(1, 12.7062), (5, 2.5706), (10, 2.2281), (30, 2.0423), (1000, 1.9623)])
def test_t_quantiles_match_the_tables(df, expected):
    assert t_quantile(0.975, df) == pytest.approx(expected, abs=1e-3)


def test_a_paired_difference_has_the_textbook_interval_and_p_value():
    # Student's sleep data (Cushny & Peebles): the classic paired t-test, t = 4.06, df = 9, p = 0.00283
    a = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0]
    b = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4]
    p = paired(a, b)
    assert p.diff == pytest.approx(1.58)
    assert p.ci95[0] == pytest.approx(0.7001, abs=1e-3) and p.ci95[1] == pytest.approx(2.4599, abs=1e-3)
    assert p.p == pytest.approx(0.002833, abs=2e-5)


def test_no_difference_and_too_few_pairs():
    same = paired([1, 2, 3], [1, 2, 3])
    assert same.diff == 0 and same.p == 1.0
    one = paired([1], [2])
    assert one.p == 1.0 and math.isinf(one.se)
    with pytest.raises(ValueError):
        paired([1, 2], [1])


def test_holm_adjusts_like_the_reference():
    # R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm") -> 0.03 0.06 0.06 0.02
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([]) == []


def test_the_sprt_decides_a_clear_difference_quickly_and_a_null_eventually():
    rng = random.Random(3)
    clear = [0.3 + rng.gauss(0, 0.5) for _ in range(400)]
    sprt = Sprt(delta=0.1)
    first = next(n for n in range(2, 400) if sprt.decide(clear[:n]) is not None)
    assert sprt.decide(clear[:first]) == "H1+" and first < 200
    null = [rng.gauss(0, 0.5) for _ in range(4000)]
    decisions = [sprt.decide(null[:n]) for n in range(10, 4000, 10)]
    assert "H0" in decisions and "H1+" not in decisions[:decisions.index("H0")]
    lower, upper = sprt.bounds   # each one-sided test at alpha/2
    assert lower == pytest.approx(math.log(0.05 / 0.975)) and upper == pytest.approx(math.log(0.95 / 0.025))


def _clear_difference(n: int = 4000, seed: int = 11) -> tuple[list[float], list[float]]:
    rng = random.Random(seed)
    a = [rng.gauss(0, 1) for _ in range(n)]
    return a, [x + 0.18 + rng.gauss(0, 1) for x in a]


def test_tiny_p_values_are_computed_not_rounded_to_zero():
    a, b = _clear_difference()
    ours = paired(a, b)
    reference = scipy.stats.ttest_rel(b, a)
    assert 1e-40 < reference.pvalue < 1e-20          # the data are what the test is about
    assert ours.p == pytest.approx(reference.pvalue, rel=1e-6)
    assert ours.ci95[0] == pytest.approx(ours.diff - scipy.stats.t.ppf(0.975, 3999) * ours.se, rel=1e-9)


@pytest.mark.parametrize("t,df", [(0.5, 3), (2.1, 9), (4.06, 9), (11.0, 3999), (25.0, 500), (40.0, 12),
                                  (-2.0, 7), (0.0, 30)])
def test_the_survival_function_matches_scipy_with_and_without_it(t, df, monkeypatch):
    expected = scipy.stats.t.sf(t, df)
    assert t_sf(t, df) == pytest.approx(expected, rel=1e-9)
    monkeypatch.setattr(stats, "_scipy_student", lambda: None)        # the fallback: no scipy installed
    assert t_sf(t, df) == pytest.approx(expected, rel=1e-7)
    assert t_quantile(0.975, df) == pytest.approx(scipy.stats.t.ppf(0.975, df), abs=1e-6)


def test_the_fallback_p_value_of_a_clear_difference_is_right_too(monkeypatch):
    a, b = _clear_difference()
    monkeypatch.setattr(stats, "_scipy_student", lambda: None)
    assert paired(a, b).p == pytest.approx(scipy.stats.ttest_rel(b, a).pvalue, rel=1e-6)


@pytest.mark.parametrize("p,text", [(0.43, "0.43"), (0.0071234, "0.00712"), (0.001, "0.001"),
                                    (0.00061, "6.1e-04"), (3.3e-26 * 1e10, "3.3e-16"), (3.3e-26, "< 1e-20"),
                                    (0.0, "< 1e-20"), (1.0, "1"), (math.nan, "–")])
def test_p_values_print_readably(p, text):
    assert format_p(p) == text


@pytest.mark.parametrize("k,n", [(0, 10), (1, 150), (7, 20), (149, 150), (150, 150), (37, 400)])
def test_wilson_intervals_match_scipy(k, n):
    ref = scipy.stats.binomtest(k, n).proportion_ci(0.95, method="wilson")
    lo, hi = wilson(k / n, n)
    assert (lo, hi) == (pytest.approx(ref.low, abs=1e-9), pytest.approx(ref.high, abs=1e-9))
    assert 0.0 <= lo <= k / n <= hi <= 1.0


def _rows(variant: str, values: list[dict[str, float]]) -> list[dict]:
    return [{"variant": variant, "seed": i, "rotation": 0, "metrics": m} for i, m in enumerate(values)]


def test_rates_get_wilson_intervals_inside_0_1_and_other_metrics_t_intervals():
    # one game in 150 ends by the step limit: its rate 0.0067, whose t interval was [-0.0065, 0.0198]
    games = [{"turns": 40.0 + i % 7, "seat0_won": 1 / 3 if i % 3 == 0 else 0.0, "mulligan": float(i % 5 == 0),
              **({"ended:step_limit": 1.0} if i == 17 else {"ended:escape": 1.0})} for i in range(150)]
    a = analyse(_rows("base", games), ["base"])
    means = a.variants[0].means
    assert a.intervals == {"turns": "t", "seat0_won": "wilson", "mulligan": "wilson",
                           "ended:step_limit": "wilson", "ended:escape": "wilson"}
    mean, lo, hi = means["ended:step_limit"]
    assert mean == pytest.approx(1 / 150) and (lo, hi) == pytest.approx(wilson(1 / 150, 150)) and lo >= 0
    ref = scipy.stats.binomtest(1, 150).proportion_ci(method="wilson")
    assert (lo, hi) == (pytest.approx(ref.low, abs=1e-9), pytest.approx(ref.high, abs=1e-9))
    # a shared win counts 1/3: Wilson on the mean over the 150 games
    assert means["seat0_won"][1:] == pytest.approx(wilson(50 / 3 / 150, 150))
    turns = [g["turns"] for g in games]
    half = scipy.stats.t.ppf(0.975, 149) * scipy.stats.sem(turns)
    assert means["turns"] == pytest.approx((sum(turns) / 150, sum(turns) / 150 - half, sum(turns) / 150 + half))
    assert a.to_json()["intervals"]["turns"] == "t"
