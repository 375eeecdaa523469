#!/usr/bin/env python3
"""Steps per second through the research adapters, beside the engine's own random play.

For every game (default options and player count, as bench/steps.py) each measurement plays
whole games with uniformly random legal actions for --seconds and counts steps per second:

    engine        the engine's own loop (bench/steps.py: first_choice, apply_unchecked)
    seat          the adapters' driver: Seat.legal() and Seat.step(index), no observation
    observed      the same with the acting player's Seat.observe() and Seat.mask() each step
    observed_ref  the same through Seat.observe_reference() (the full view, encoded feature
                  by feature: the path Seat.observe took before its fast path)
    pettingzoo    the PettingZoo AEC environment: env.last() (observation and mask), a
                  random legal index from the mask, env.step(index)
    pz_parallel   the PettingZoo parallel environment: every live agent's observation each
                  step, the acting agents' random legal indices from their masks
    openspiel     the OpenSpiel game (pyspiel.load_game("takujo_<game>")): state.legal_actions(),
                  a random one, state.apply_action(a), no observation
    os_observed   the same with the acting player's information_state_tensor() each step,
                  as an agent reading it would

One step is one applied engine action (for the driver, PettingZoo and OpenSpiel with いばら's
multi-card combat, one card of a selection too; the default configurations have none). The
finished agents' closing env.step(None) calls and OpenSpiel's eight chance nodes of the seed
are not counted.

    python3 bench/adapters.py                        # a table, 3 s a measurement
    python3 bench/adapters.py --seconds 1 --json     # one JSON object per game
    python3 bench/adapters.py --games ibara --only engine,pettingzoo
    python3 bench/adapters.py --observed 7          # old and new observed step, A B A B

--observed R compares the observed step through the two paths on the configurations of
``python3 -m takujo.adapters.report --speed`` (each game's defaults and its options on): R
rounds, each playing the same games once through each path in turn, medians of wall and CPU
time (the machine may be shared: interleaving spreads its load over both).

Other adapters add a measurement to MEASUREMENTS: a function (game, seconds) -> (steps/s,
games played); the OpenSpiel one goes in the marked place below. A measurement whose
library is not installed is left out with a note on stderr.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
try:
    import takujo  # noqa: F401
except ImportError:
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import takujo  # noqa: E402
from steps import MAX_STEPS, throughput  # noqa: E402  (bench/steps.py)
from takujo.adapters import Table  # noqa: E402
from takujo.adapters.driver import play_random  # noqa: E402
from takujo.core import Game, Rng  # noqa: E402
from takujo.core.registry import default_players  # noqa: E402

Measurement = Callable[[Game, float], tuple[float, int]]

_TABLES: dict[str, Table] = {}


def table_of(game: Game) -> Table:
    """One Table per configuration, built outside the timed loops."""
    key = str(game)
    if key not in _TABLES:
        _TABLES[key] = Table(game)
    return _TABLES[key]


def engine(game: Game, seconds: float) -> tuple[float, int]:
    """bench/steps.py's random play."""
    _, sps, games = throughput(game, seconds)
    return sps, games


def seat(game: Game, seconds: float) -> tuple[float, int]:
    table = table_of(game)
    rng = Rng(12345)
    games = steps = seed = 0
    t0 = time.perf_counter()
    while True:
        steps += play_random(table.new(seed), rng, MAX_STEPS)
        seed += 1
        games += 1
        if time.perf_counter() - t0 >= seconds:
            break
    return steps / (time.perf_counter() - t0), games


def _observed(table: Table, seed: int, reference: bool) -> int:
    """One game of random play observing the acting player each step; the steps taken."""
    s = table.new(seed)
    rng = Rng(seed)
    observe = s.observe_reference if reference else s.observe
    steps = 0
    while steps < MAX_STEPS:
        legal = s.legal()
        if not legal:
            break
        observe(s.current_player())  # type: ignore[arg-type]
        s.mask()
        s.step(legal[rng.below(len(legal))])
        steps += 1
    return steps


def _observed_for(reference: bool) -> Measurement:
    def measure(game: Game, seconds: float) -> tuple[float, int]:
        table = table_of(game)
        games = steps = 0
        t0 = time.perf_counter()
        while True:
            steps += _observed(table, games, reference)
            games += 1
            if time.perf_counter() - t0 >= seconds:
                break
        return steps / (time.perf_counter() - t0), games
    return measure


def observed_ab(specs: list[str], rounds: int, games: int) -> list[dict]:
    """Per configuration, the observed step through the reference path and the fast one,
    interleaved (A B A B …): median steps per second of wall and of CPU time."""
    rows = []
    for spec in specs:
        table = Table(spec)
        runs: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
        for _ in range(rounds):
            for reference in (True, False):
                w0, c0, steps = time.perf_counter(), time.process_time(), 0
                for seed in range(games):
                    steps += _observed(table, seed, reference)
                runs[reference].append((steps / (time.perf_counter() - w0), steps / (time.process_time() - c0)))
        row: dict = {"config": table.spec, "rounds": rounds, "games": games}
        for reference, name in ((True, "reference"), (False, "fast")):
            row[f"{name}_wall_steps_per_s"] = round(statistics.median(w for w, _ in runs[reference]), 1)
            row[f"{name}_cpu_steps_per_s"] = round(statistics.median(c for _, c in runs[reference]), 1)
        rows.append(row)
    return rows


def print_observed(rows: list[dict]) -> None:
    print(f"takujo {'compiled (setup.py)' if takujo.compiled() else 'pure Python'}; observed steps/s "
          "(Seat + observe + mask), medians of interleaved rounds")
    print("| configuration | reference wall | reference CPU | fast wall | fast CPU | speed-up (wall, CPU) |")
    print("|---|---:|---:|---:|---:|---:|")
    for r in rows:
        rw, rc, fw, fc = (r[k] for k in ("reference_wall_steps_per_s", "reference_cpu_steps_per_s",
                                         "fast_wall_steps_per_s", "fast_cpu_steps_per_s"))
        print(f"| {r['config']} | {rw:,.0f} | {rc:,.0f} | {fw:,.0f} | {fc:,.0f} | {fw / rw:.2f}×, {fc / rc:.2f}× |")


def pettingzoo(game: Game, seconds: float) -> tuple[float, int]:
    from takujo.adapters.pettingzoo import env as make_env
    env = make_env(table_of(game))
    rng = np.random.default_rng(12345)
    games = steps = seed = 0
    t0 = time.perf_counter()
    while True:
        env.reset(seed=seed)
        seed += 1
        for _agent in env.agent_iter(MAX_STEPS):
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
        games += 1
        if time.perf_counter() - t0 >= seconds:
            break
    return steps / (time.perf_counter() - t0), games


def pz_parallel(game: Game, seconds: float) -> tuple[float, int]:
    from takujo.adapters.pettingzoo import parallel_env
    env = parallel_env(table_of(game))
    rng = np.random.default_rng(12345)
    games = steps = seed = 0
    t0 = time.perf_counter()
    while True:
        obs, _ = env.reset(seed=seed)
        seed += 1
        start = env.seat.state.steps
        while env.agents and env.seat.state.steps - start < MAX_STEPS:
            acting = set(env.acting)
            actions = {}
            for a in env.agents:
                if a in acting:
                    legal = np.flatnonzero(obs[a]["action_mask"])
                    actions[a] = int(legal[rng.integers(len(legal))])
                else:
                    actions[a] = 0
            obs, *_ = env.step(actions)
        steps += env.seat.state.steps - start
        games += 1
        if time.perf_counter() - t0 >= seconds:
            break
    return steps / (time.perf_counter() - t0), games


def _openspiel(game: Game, seconds: float, observe: bool) -> tuple[float, int]:
    from takujo.adapters import openspiel as takujo_openspiel
    os_game = takujo_openspiel.load(str(game))
    rng = np.random.default_rng(12345)
    games = steps = seed = 0
    t0 = time.perf_counter()
    while True:
        state = os_game.state_for_seed(seed)     # past the chance nodes that draw the seed
        seed += 1
        n = 0
        while not state.is_terminal() and n < MAX_STEPS:
            if observe:
                state.information_state_tensor(state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
            n += 1
        steps += n
        games += 1
        if time.perf_counter() - t0 >= seconds:
            break
    return steps / (time.perf_counter() - t0), games


def openspiel(game: Game, seconds: float) -> tuple[float, int]:
    return _openspiel(game, seconds, observe=False)


def os_observed(game: Game, seconds: float) -> tuple[float, int]:
    return _openspiel(game, seconds, observe=True)


#: name -> measurement, in the table's column order
MEASUREMENTS: dict[str, Measurement] = {
    "engine": engine,
    "seat": seat,
    "observed": _observed_for(reference=False),
    "observed_ref": _observed_for(reference=True),
    "pettingzoo": pettingzoo,
    "pz_parallel": pz_parallel,
    "openspiel": openspiel,
    "os_observed": os_observed,
}

#: the library each measurement needs (left out when missing)
NEEDS: dict[str, str] = {"pettingzoo": "pettingzoo", "pz_parallel": "pettingzoo",
                         "openspiel": "pyspiel", "os_observed": "pyspiel"}


def available(names: list[str]) -> list[str]:
    out = []
    for name in names:
        lib = NEEDS.get(name)
        if lib is not None:
            try:
                __import__(lib)
            except ImportError:
                print(f"left out {name}: {lib} is not installed", file=sys.stderr)
                continue
        out.append(name)
    return out


def bench(name: str, seconds: float, measures: list[str]) -> dict:
    cls = takujo.game_class(name)
    game = cls(players=default_players(cls))
    table = table_of(game)
    row: dict = {"game": name, "config": str(game), "players": game.players,
                 "num_actions": table.num_actions, "obs_size": table.obs_size, "seconds": seconds}
    for m in measures:
        sps, games = MEASUREMENTS[m](game, seconds)
        row[f"{m}_steps_per_s"] = round(sps, 1)
        row[f"{m}_games"] = games
    return row


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="seconds of play per measurement (default 3)")
    ap.add_argument("--json", action="store_true", help="one JSON object per game")
    ap.add_argument("--games", default="", help="comma list of game names (default: the four games)")
    ap.add_argument("--only", default="", help=f"comma list of measurements (default all: {','.join(MEASUREMENTS)})")
    ap.add_argument("--observed", type=int, default=0, metavar="R",
                    help="compare the old and new observed step instead: R interleaved rounds")
    ap.add_argument("--observed-games", type=int, default=3, help="games per round of --observed (default 3)")
    args = ap.parse_args(argv)
    if args.observed:
        from takujo.adapters.report import CONFIGS
        specs = [s for name, group in CONFIGS.items() for s in group
                 if not args.games or name in args.games.split(",")]
        rows = observed_ab(specs, args.observed, args.observed_games)
        if args.json:
            for r in rows:
                print(json.dumps(r, ensure_ascii=False))
        else:
            print_observed(rows)
        return 0
    chosen = [g.strip() for g in args.games.split(",") if g.strip()] or [
        g for g in takujo.names() if g in ("fuutei", "sengoku_taisen", "ibara", "draft_daimyo")]
    wanted = [m.strip() for m in args.only.split(",") if m.strip()] or list(MEASUREMENTS)
    unknown = [m for m in wanted if m not in MEASUREMENTS]
    if unknown:
        ap.error(f"unknown measurement(s) {unknown}; known: {list(MEASUREMENTS)}")
    measures = available(wanted)
    rows = []
    for name in chosen:
        try:
            row = bench(name, args.seconds, measures)
        except Exception as exc:  # a game whose declarations are not written yet
            print(f"skipped {name}: {type(exc).__name__}: {exc}", file=sys.stderr)
            continue
        rows.append(row)
        if args.json:
            print(json.dumps(row, ensure_ascii=False), flush=True)
    if not args.json and rows:
        print(f"takujo {'compiled (setup.py)' if takujo.compiled() else 'pure Python'}; "
              f"steps/s over {args.seconds:g} s of random play each (share of the engine's)")
        head = f"{'configuration':<26}" + "".join(f" {m:>18}" for m in measures)
        print(head)
        print("-" * len(head))
        for r in rows:
            base = r.get("engine_steps_per_s")
            cells = []
            for m in measures:
                v = r[f"{m}_steps_per_s"]
                share = f" ({v / base:.0%})" if base and m != "engine" else ""
                cells.append(f" {f'{v:,.0f}{share}':>18}")
            print(f"{r['config']:<26}" + "".join(cells))
    return 0 if rows or not chosen else 1


if __name__ == "__main__":
    sys.exit(main())
