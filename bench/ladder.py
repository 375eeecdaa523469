#!/usr/bin/env python3
"""A strength ladder: round-robin between bots, seats rotated and seeds paired.

    python3 bench/ladder.py --game sengoku_taisen --games 40 [--bots random,heuristic,ismcts:200]
                            [--jobs 2]

For each pair of bots A and B, every game fills the seats alternately with A and B (rotated
each game, so both sit everywhere); game i of every pairing uses seed SEED+i. Prints each bot's
win rate per seat played with a 95% Wilson interval, a one-sided p-value for "A beats B" (two
proportions), and mean seconds per move. Measured, never asserted.
"""
from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

try:
    import takujo
except ImportError:  # run from a checkout without installing
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import takujo

from rich.console import Console
from rich.progress import Progress

from takujo.bots import make_bot
from takujo.core.errors import TakujoError
from takujo.sim import play_game, wilson


class Timed:
    """Wraps a bot to measure its thinking time per move."""

    def __init__(self, bot) -> None:
        self.bot = bot
        self.name = getattr(bot, "name", "bot")
        self.seconds = 0.0
        self.moves = 0

    def act(self, view, legal, rng):
        t = time.perf_counter()
        action = self.bot.act(view, legal, rng)
        self.seconds += time.perf_counter() - t
        self.moves += 1
        return action


def p_better(wa: float, na: int, wb: float, nb: int) -> float:
    """One-sided p-value that A's rate exceeds B's (pooled two-proportion z-test)."""
    if not na or not nb:
        return 1.0
    pa, pb = wa / na, wb / nb
    pool = (wa + wb) / (na + nb)
    se = math.sqrt(pool * (1 - pool) * (1 / na + 1 / nb)) or 1e-12
    z = (pa - pb) / se
    return 0.5 * math.erfc(z / math.sqrt(2))


def one_game(game_string: str, a: str, b: str, i: int, seed: int) -> dict:
    """Game i of the pairing a–b: seats alternate a, b, … rotated by i; seed SEED+i."""
    game = takujo.load(game_string)
    timed = {name: Timed(make_bot(name, game)) for name in (a, b)}
    seats = [(a, b)[(i + j) % 2] for j in range(game.players)]
    _, result = play_game(game, seats, seed + i, dict(timed))
    return {"seats": seats, "winners": list(result.winners),
            "seconds": {n: t.seconds for n, t in timed.items()},
            "moves": {n: t.moves for n, t in timed.items()}}


def duel(game, a: str, b: str, games: int, seed: int, jobs: int = 1) -> dict:
    wins = {a: 0.0, b: 0.0}
    seats_played = {a: 0, b: 0}
    seconds = {a: 0.0, b: 0.0}
    moves = {a: 0, b: 0}
    args = [(str(game), a, b, i, seed) for i in range(games)]
    results = []
    with Progress(transient=True, console=Console(stderr=True)) as bar:
        task = bar.add_task(f"{a} vs {b}", total=games)
        if jobs > 1:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                for done in as_completed([pool.submit(one_game, *x) for x in args]):
                    results.append(done.result())
                    bar.advance(task)
        else:
            for x in args:
                results.append(one_game(*x))
                bar.advance(task)
    for r in results:
        seats = r["seats"]
        for name in seats:
            seats_played[name] += 1
        for w in r["winners"]:
            wins[seats[w]] += 1 / len(r["winners"])
        for name in (a, b):
            seconds[name] += r["seconds"][name]
            moves[name] += r["moves"][name]
    out = {"game": str(game), "pair": [a, b], "games": games}
    for name in (a, b):
        lo, hi = wilson(wins[name], seats_played[name])
        out[name] = {"wins": wins[name], "seats": seats_played[name],
                     "rate": wins[name] / seats_played[name], "ci95": [lo, hi],
                     "sec_per_move": seconds[name] / max(1, moves[name])}
    out["p_a_beats_b"] = p_better(wins[a], seats_played[a], wins[b], seats_played[b])
    return out


def leader(r: dict) -> tuple[str, str, float]:
    """(stronger, weaker, one-sided p that the stronger really is stronger)."""
    a, b = r["pair"]
    if r[a]["rate"] >= r[b]["rate"]:
        return a, b, r["p_a_beats_b"]
    return b, a, 1 - r["p_a_beats_b"]


def print_text(r: dict) -> None:
    a, b = r["pair"]
    print(f"{r['game']}  {a} vs {b}  ({r['games']} games)")
    for name in (a, b):
        x = r[name]
        print(f"  {name:14} {x['rate']:6.1%}  [{x['ci95'][0]:.1%}, {x['ci95'][1]:.1%}]  "
              f"{x['sec_per_move'] * 1000:8.1f} ms/move")
    lead, other, p = leader(r)
    print(f"  p({lead} beats {other}) = {p:.4f}  (one-sided; < 0.05 is significant)")


def print_markdown_row(r: dict) -> None:
    a, b = r["pair"]
    lead, other, p = leader(r)
    cells = [r["game"], str(r["games"])]
    for name in (a, b):
        x = r[name]
        cells.append(f"{name} {x['rate']:.1%} ({x['ci95'][0]:.1%}–{x['ci95'][1]:.1%})")
    cells.append(f"{lead}, p = {p:.3f}" if p >= 0.001 else f"{lead}, p < 0.001")
    cells += [f"{r[n]['sec_per_move'] * 1000:.0f}" for n in (a, b)]
    print("| " + " | ".join(cells) + " |")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", required=True, help="game name or game string")
    ap.add_argument("--games", type=int, default=40, help="games per pairing")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bots", default="random,heuristic,ismcts:200,ismcts:1000")
    ap.add_argument("--jobs", type=int, default=1, help="games played in parallel processes")
    out = ap.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="one JSON object per pairing")
    out.add_argument("--markdown", action="store_true",
                     help="one table row per pairing: game, games, A, B, stronger and p, ms/move A, B")
    args = ap.parse_args()
    try:
        game = takujo.load(args.game)
        bots = args.bots.split(",")
        for name in bots:
            make_bot(name, game)                        # a bad name fails here, not mid-run
    except TakujoError as exc:
        ap.error(str(exc))
    for a, b in itertools.combinations(bots, 2):
        r = duel(game, a, b, args.games, args.seed, args.jobs)
        if args.json:
            print(json.dumps(r))
        elif args.markdown:
            print_markdown_row(r)
        else:
            print_text(r)
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
