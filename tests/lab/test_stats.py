"""The balance lab's statistics against known values."""
from __future__ import annotations

import math
import random

import pytest

from takujo.lab.stats import Sprt, holm, paired, t_quantile


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
    lower, upper = sprt.bounds
    assert lower == pytest.approx(math.log(0.05 / 0.95)) and upper == pytest.approx(math.log(0.95 / 0.05))
