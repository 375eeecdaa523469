"""`--until-decided`'s sequential test keeps the error rates docs/balance.md states: a Monte
Carlo of the lab's own test on synthetic paired win/loss outcomes (no games)."""
from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from takujo.lab.runner import Stop, decided
from takujo.lab.stats import VERDICTS, Sprt, sequential_monte_carlo

REPS = 4000
ALPHA = BETA = 0.05
ROOT = Path(__file__).resolve().parents[2]


def _limit(rate: float) -> float:
    """A rate plus three of its Monte Carlo standard errors over REPS replications."""
    return rate + 3 * math.sqrt(rate * (1 - rate) / REPS)


@pytest.mark.parametrize("base_rate,correlation", [(0.25, 0.2), (0.25, 0.8), (0.5, 0.2)])
def test_on_no_difference_it_decides_one_at_most_alpha_of_the_time(base_rate, correlation):
    r = sequential_monte_carlo(Sprt(0.05), 0.0, REPS, 4000, base_rate, correlation, seed=20)
    assert r.h0 > 0.5                                  # it does decide, mostly "no difference"
    assert r.any_difference <= _limit(ALPHA), r        # two one-sided tests each at alpha/2


@pytest.mark.parametrize("base_rate,correlation", [(0.25, 0.2), (0.25, 0.8)])
def test_at_a_difference_of_delta_it_misses_it_at_most_beta_of_the_time(base_rate, correlation):
    r = sequential_monte_carlo(Sprt(0.05), 0.05, REPS, 4000, base_rate, correlation, seed=21)
    assert r.h1_minus <= 3 / REPS
    assert 1 - r.h1_plus <= _limit(BETA), r            # power at delta: at least 1 - beta
    half = sequential_monte_carlo(Sprt(0.05), 0.025, REPS // 4, 4000, base_rate, correlation, seed=22)
    assert 0.2 < half.h1_plus < r.h1_plus               # half the difference: found about half the time


def test_the_runner_and_the_monte_carlo_decide_alike():
    """`decided` (what `takujo sim --until-decided` calls) and the vectorized Monte Carlo give
    the same verdict after the same number of pairs on the same outcomes."""
    rng = np.random.default_rng(5)
    sprt = Sprt(0.1)
    verdicts = set()
    for case in range(30):
        a = (rng.random(3000) < 0.3).astype(float)
        b = np.where(rng.random(3000) < 0.5, a, (rng.random(3000) < 0.3 + 0.1 * (case % 3 - 1)).astype(float))
        d = b - a
        n = np.arange(1, d.size + 1, dtype=float)
        codes = sprt.codes(n, np.cumsum(d), np.cumsum(d * d), np.cumsum(d != 0))
        hits = np.flatnonzero(codes)
        expected = (VERDICTS[int(codes[hits[0]])], int(hits[0]) + 1) if hits.size else (None, d.size)
        exp = SimpleNamespace(seeds=list(range(d.size)), rotations=1)
        rows = [{"seed": i, "rotation": 0, "variant": v, "metrics": {"seat0_won": float(x)}}
                for i in range(d.size) for v, x in (("A", a[i]), ("B", b[i]))]
        assert decided(exp, rows, Stop("seat0_won", sprt, "A", "B")) == expected
        verdicts.add(expected[0])
    assert {"H0", "H1+", "H1-"} <= verdicts


def test_an_ending_the_game_did_not_have_counts_0_and_a_side_not_in_it_is_left_out():
    """``ended:<reason>`` is stored only for the game's own ending: the others count 0 (they
    used to stop the test reading at the first game without it)."""
    sprt = Sprt(0.1)
    rng = np.random.default_rng(9)
    a, b = rng.random(400) < 0.2, rng.random(400) < 0.6
    rows = [{"seed": i, "rotation": 0, "variant": v, "metrics": {"ended:step_limit": 1.0} if x else {"ended:vp": 1.0}}
            for i in range(400) for v, x in (("A", a[i]), ("B", b[i]))]
    exp = SimpleNamespace(seeds=list(range(400)), rotations=1)
    verdict, n = decided(exp, rows, Stop("ended:step_limit", sprt, "A", "B"))
    d = b[:n].astype(float) - a[:n]
    assert verdict == "H1+" and sprt.decide(list(d)) == "H1+" and sprt.decide(list(d[:-1])) is None
    # won:<side> of a side absent from a game: that pair is left out, the reading goes on
    rows = [{"seed": i, "rotation": 0, "variant": v, "metrics": {} if i % 2 else {"won:x": float(x)}}
            for i in range(400) for v, x in (("A", a[i]), ("B", b[i]))]
    applicable = [float(b[i]) - a[i] for i in range(0, 400, 2)]
    k = next(k for k in range(1, 201) if sprt.decide(applicable[:k]) is not None)
    assert decided(exp, rows, Stop("won:x", sprt, "A", "B")) == (sprt.decide(applicable[:k]), 2 * k - 1)


def test_identical_games_decide_nothing():
    """Every pair alike (the variants play the same games): no spread to judge by, so no
    verdict, rather than "no difference" after eight games."""
    exp = SimpleNamespace(seeds=list(range(500)), rotations=1)
    rows = [{"seed": i, "rotation": 0, "variant": v, "metrics": {"seat0_won": float(i % 4 == 0)}}
            for i in range(500) for v in ("A", "B")]
    assert decided(exp, rows, Stop("seat0_won", Sprt(0.05), "A", "B")) == (None, 500)
    assert Sprt(0.05).decide([0.0] * 500) is None and Sprt(0.05).decide([1.0] * 500) is None


def test_the_bench_prints_the_table():
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "sequential.py"), "--reps", "300", "--json"],
                         capture_output=True, text=True, check=True, timeout=120).stdout
    rows = json.loads(out)
    assert [r["true_diff"] for r in rows] == [0.0, 0.025, 0.05] and all(r["reps"] == 300 for r in rows)
    assert rows[0]["h0"] > rows[2]["h0"] and rows[2]["h1_plus"] > rows[0]["h1_plus"]
