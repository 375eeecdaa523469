#!/usr/bin/env python3
"""The balance lab's speed: games per second of a paired experiment, with 1 and 2 local
workers and on Ray (`--ray local`), for a bot line-up.

    python3 bench/lab.py                                   # ibara 4p, heuristic, 200 games
    python3 bench/lab.py --bots ismcts:200 --games 8       # a search bot in every seat
    python3 bench/lab.py --game fuutei --players 4 --json
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from takujo.lab.experiment import Experiment  # noqa: E402
from takujo.lab.runner import connect_ray, run  # noqa: E402
from takujo.lab.store import ResultStore  # noqa: E402


def timed(exp: Experiment, workers: int, ray: object = None) -> float:
    with tempfile.TemporaryDirectory() as folder:
        store = ResultStore(folder)
        start = time.perf_counter()
        run(exp, store, workers, with_leads=False, ray=ray)
        elapsed = time.perf_counter() - start
        n = len(store.done())
        store.close()
    return n / elapsed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="ibara")
    ap.add_argument("--players", default="4")
    ap.add_argument("--bots", default="heuristic")
    ap.add_argument("--compare", default="ryan_last=false,true")
    ap.add_argument("--games", type=int, default=200, help="games a variant")
    ap.add_argument("--no-ray", action="store_true")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    exp = Experiment.make(args.game, {"players": args.players}, [args.compare], args.bots.split(","),
                          args.games, 1, 20_000)
    out = {"game": args.game, "players": int(args.players), "bots": args.bots,
           "games": exp.games_per_variant * len(exp.variants)}
    out["workers_1"] = round(timed(exp, 1), 2)
    out["workers_2"] = round(timed(exp, 2), 2)
    if not args.no_ray:
        ray = connect_ray("local")
        timed(exp, 2, ray)  # Ray's workers start on the first run
        out["ray_local_2"] = round(timed(exp, 2, ray), 2)
        ray.shutdown()
    out["speedup_2_workers"] = round(out["workers_2"] / out["workers_1"], 2)
    if args.json:
        print(json.dumps(out))
        return
    print(f"{out['game']} ({out['players']} players), bots {out['bots']}, {out['games']} games")
    print(f"  1 worker        {out['workers_1']:>8} games/s")
    print(f"  2 workers       {out['workers_2']:>8} games/s  (×{out['speedup_2_workers']})")
    if "ray_local_2" in out:
        print(f"  Ray, local, 2   {out['ray_local_2']:>8} games/s")


if __name__ == "__main__":
    main()
