#!/usr/bin/env python3
"""Random-play throughput of takujo's games, measured like the peer engines in docs/performance.md.

For every registered game (or those named by --games) this plays whole games with uniformly
random legal actions (`apply_unchecked`) for --seconds and reports games/s and steps/s (one
step = one applied action), then the median cost of `state.clone()` and `state.view(player)`
in microseconds over about 2000 mid-game states collected from further random games, and the
view's cost for the quarter of those states with the shortest and with the longest logs (a
view's cost must not grow with the game's length).

    python3 bench/steps.py                     # a table
    python3 bench/steps.py --seconds 1 --json  # one JSON object per game
    python3 bench/steps.py --parts             # µs per step: pending, legal, draw, log, apply
    python3 bench/steps.py --register toy=tests.toy:ToyGame --games toy

A game that cannot be imported or played is skipped with a note on stderr.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
try:
    import takujo  # noqa: F401
except ImportError:
    sys.path.insert(0, str(ROOT))
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))  # for --register targets such as tests.toy

import takujo  # noqa: E402
from takujo.core import Game, Rng, State  # noqa: E402
from takujo.core.registry import default_players  # noqa: E402

MAX_STEPS = 20_000
SAMPLES = 2000


def random_step(state: State, rng: Rng) -> None:
    """Apply one uniformly random legal action of the first player to act."""
    pending, legal = state.first_choice()
    state.apply_unchecked(legal[rng.below(len(legal))], pending)


def throughput(game: Game, seconds: float) -> tuple[float, float, int]:
    rng = Rng(12345)
    games = steps = 0
    seed = 0
    t0 = time.perf_counter()
    while True:
        state = game.new_state(seed)
        seed += 1
        while state.outcome is None and state.steps < MAX_STEPS:
            random_step(state, rng)
        steps += state.steps
        games += 1
        if time.perf_counter() - t0 >= seconds:
            break
    dt = time.perf_counter() - t0
    return games / dt, steps / dt, games


PARTS = ("pending", "legal", "draw", "log", "apply")


def step_parts(game: Game, games: int = 30) -> dict[str, float]:
    """Mean µs per step of each part of a random step: the pending decision, the legal
    actions, the random draw, logging the action and applying it (timer cost included)."""
    rng, clock = Rng(12345), time.perf_counter_ns
    total = dict.fromkeys(PARTS, 0)
    steps = 0
    for seed in range(games):
        state = game.new_state(seed)
        while state.outcome is None and state.steps < MAX_STEPS:
            t0 = clock()
            pend = state.pending
            t1 = clock()
            legal = state._legal(pend.players[0])
            t2 = clock()
            action = legal[rng.below(len(legal))]
            t3 = clock()
            state._log_act(action, pend)
            t4 = clock()
            state._apply(action)
            state.steps += 1
            t5 = clock()
            for part, dt in zip(PARTS, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4)):
                total[part] += dt
            steps += 1
    return {part: round(total[part] / steps / 1000, 2) for part in PARTS}


def sample_states(game: Game, want: int, seconds: float) -> list[State]:
    """Mid-game states (not over) from random games: about one in eight steps is kept."""
    rng = Rng(777)
    pool: list[State] = []
    seed = 10_000
    t0 = time.perf_counter()
    while len(pool) < want and time.perf_counter() - t0 < seconds:
        state = game.new_state(seed)
        seed += 1
        while state.outcome is None and state.steps < MAX_STEPS and len(pool) < want:
            if rng.below(8) == 0:
                pool.append(state.clone())
            random_step(state, rng)
    return pool


def median_us(fn, items) -> float:
    times = []
    clock = time.perf_counter_ns
    for item in items:
        t = clock()
        fn(item)
        times.append(clock() - t)
    return statistics.median(times) / 1000 if times else float("nan")


def bench(name: str, seconds: float, parts: bool = False) -> dict:
    cls = takujo.game_class(name)
    game = cls(players=default_players(cls))
    if parts:
        return {"engine": "takujo", "game": name, "players": game.players, "step_us": step_parts(game)}
    gps, sps, _ = throughput(game, seconds)
    pool = sample_states(game, SAMPLES, max(seconds, 1.0))
    clone_us = median_us(lambda s: s.clone(), pool)
    view_us = median_us(lambda s: s.view(s.pending.players[0]), pool)
    # a view's cost must not grow with the game's length: compare short and long logs
    by_log = sorted(pool, key=lambda s: len(s.log))
    quarter = max(1, len(by_log) // 4)
    early, late = by_log[:quarter], by_log[-quarter:]
    return {"engine": "takujo", "game": name, "games_per_s": round(gps, 1), "steps_per_s": round(sps, 1),
            "clone_us": round(clone_us, 2), "view_us": round(view_us, 2),
            "view_us_early": round(median_us(lambda s: s.view(s.pending.players[0]), early), 2),
            "view_us_late": round(median_us(lambda s: s.view(s.pending.players[0]), late), 2),
            "log_early": int(statistics.median(len(s.log) for s in early)) if early else 0,
            "log_late": int(statistics.median(len(s.log) for s in late)) if late else 0,
            "players": game.players, "config": str(game), "samples": len(pool), "compiled": takujo.compiled()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="seconds of random play per game (default 3)")
    ap.add_argument("--json", action="store_true", help="one JSON object per game")
    ap.add_argument("--games", default="", help="comma list of game names (default: every registered game)")
    ap.add_argument("--register", action="append", default=[], metavar="NAME=MODULE:CLASS",
                    help="register an extra game first (repeatable)")
    ap.add_argument("--parts", action="store_true",
                    help="instead: mean µs per step spent on the pending decision, legal actions, "
                         "the random draw, logging and apply")
    args = ap.parse_args(argv)
    for item in args.register:
        name, sep, target = item.partition("=")
        if not sep or ":" not in target:
            ap.error(f"bad --register {item!r}; expected NAME=MODULE:CLASS")
        takujo.register(name.strip(), target.strip())
    chosen = [g.strip() for g in args.games.split(",") if g.strip()] or takujo.names()
    rows = []
    for name in chosen:
        try:
            row = bench(name, args.seconds, args.parts)
        except Exception as exc:  # a game being written may not import or play yet
            print(f"skipped {name}: {type(exc).__name__}: {exc}", file=sys.stderr)
            continue
        rows.append(row)
        if args.json:
            print(json.dumps(row, ensure_ascii=False), flush=True)
    if not args.json:
        print(f"takujo {'compiled (setup.py)' if takujo.compiled() else 'pure Python'} from {Path(takujo.__file__).parent}")
    if args.parts and not args.json:
        print(f"{'game':<15} " + " ".join(f"{p:>8}" for p in PARTS) + f" {'total µs':>9}")
        for r in rows:
            us = r["step_us"]
            print(f"{r['game']:<15} " + " ".join(f"{us[p]:>8.2f}" for p in PARTS) + f" {sum(us.values()):>9.2f}")
    elif not args.json and rows:
        head = (f"{'game':<14} {'players':>7} {'games/s':>10} {'steps/s':>11} {'clone µs':>10} {'view µs':>10}"
                f" {'view µs, short/long log (events)':>34}")
        print(head)
        print("-" * len(head))
        for r in rows:
            growth = (f"{r['view_us_early']:.1f} ({r['log_early']}) / {r['view_us_late']:.1f} ({r['log_late']})")
            print(f"{r['game']:<14} {r['players']:>7} {r['games_per_s']:>10.1f} {r['steps_per_s']:>11.1f} "
                  f"{r['clone_us']:>10.2f} {r['view_us']:>10.2f} {growth:>34}")
    return 0 if rows or not chosen else 1


if __name__ == "__main__":
    sys.exit(main())
