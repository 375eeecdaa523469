#!/usr/bin/env python3
"""The error rates of `takujo sim --until-decided`: its sequential test run on synthetic
paired win/loss outcomes (no games), at a true difference of 0, delta/2 and delta.

Each replication is one experiment: the baseline wins with probability --base-rate, the
variant with that plus the true difference, the two outcomes of a pair (one seed) correlated
by --correlation, at most --max-games pairs. The test is the lab's own (`takujo.lab.stats.Sprt`).
Prints, per true difference, how often it decided each way (± the Monte Carlo standard error)
and the mean games a variant it took.

    python3 bench/sequential.py [--reps 20000] [--delta 0.05] [--correlation 0.2] [--json]
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from takujo.lab.stats import SequentialRates, Sprt, sequential_monte_carlo  # noqa: E402


def table(sprt: Sprt, reps: int, max_games: int, base_rate: float, correlation: float,
          seed: int) -> list[SequentialRates]:
    """The rates at a true difference of 0, delta/2 and delta."""
    return [sequential_monte_carlo(sprt, diff, reps, max_games, base_rate, correlation, seed=seed + i)
            for i, diff in enumerate((0.0, sprt.delta / 2, sprt.delta))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reps", type=int, default=20000, help="replications per true difference")
    ap.add_argument("--delta", type=float, default=0.05, help="the test's --delta")
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    ap.add_argument("--base-rate", type=float, default=0.25, help="the baseline's win rate (a seat of 4: 0.25)")
    ap.add_argument("--correlation", type=float, default=0.2, help="of a pair's two outcomes")
    ap.add_argument("--max-games", type=int, default=5000, help="--games: pairs at most")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    sprt = Sprt(args.delta, args.alpha, args.beta)
    rows = table(sprt, args.reps, args.max_games, args.base_rate, args.correlation, args.seed)
    if args.json:
        print(json.dumps([r.to_json() for r in rows]))
        return
    print(f"delta {args.delta}, alpha {args.alpha}, beta {args.beta}; win rate {args.base_rate}, "
          f"correlation {args.correlation}, at most {args.max_games} games; {args.reps} replications each")
    print(f"{'true difference':>16} {'decides +':>16} {'decides −':>16} {'decides none':>16} {'undecided':>10} "
          f"{'mean games':>11}")
    for r in rows:
        def cell(rate: float) -> str:
            return f"{rate:.4f} ± {r.se(rate):.4f}"
        print(f"{r.true_diff:>16.4g} {cell(r.h1_plus):>16} {cell(r.h1_minus):>16} {cell(r.h0):>16} "
              f"{r.undecided:>10.4f} {r.mean_pairs:>11.0f}")


if __name__ == "__main__":
    main()
