#!/usr/bin/env python3
"""Bot moves shared fairly: a victim match's bot move rate alone, and while another match
runs six top-level bots, on one real `takujo serve` process.

The victim is a two-player 風帝伝説FIGHTER of two `ismcts:200` bots; the other match is a
six-player one of `ismcts:1000` bots (the server's top level). Each phase plays for
`--seconds` and reports the victim's moves per second (its version's growth, from the
match's summary); phases alternate alone / beside the other (A B A B) so both meet the
same machine load. The goal is a ratio alone / beside of at most 2.

    python3 bench/fairness.py [--seconds 20] [--rounds 2] [--json]
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.web.server import LiveServer  # noqa: E402

VICTIM = {"game": "fuutei(players=2)", "seats": ["bot:ismcts:200"] * 2}
HEAVY = {"game": "fuutei(players=6)", "seats": ["bot:ismcts:1000"] * 6}


def version(server: LiveServer, match: str) -> tuple[int, str]:
    status, summary = server.call("GET", f"/api/matches/{match}")
    assert status == 200, summary
    return summary["version"], summary["status"]


def victim_rate(server: LiveServer, seconds: float, seed: int) -> float:
    """Moves a second of fresh victim matches over `seconds` (a new one when one ends)."""
    moves, deadline = 0, time.time() + seconds
    while time.time() < deadline:
        status, made = server.call("POST", "/api/matches", {**VICTIM, "seed": seed})
        assert status == 201, made
        seed += 1
        last = 0
        while time.time() < deadline:
            time.sleep(0.25)
            last, state = version(server, made["match"])
            if state == "finished":
                break
        moves += last
    return moves / seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows: list[dict[str, float | str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        server = LiveServer(Path(tmp) / "fair.db").start()
        try:
            victim_rate(server, 5, 10_000)  # warm up: the worker processes start on first use
            for r in range(args.rounds):
                alone = victim_rate(server, args.seconds, 100 * r)
                status, heavy = server.call("POST", "/api/matches", {**HEAVY, "seed": r})
                assert status == 201, heavy
                time.sleep(1.0)  # its first moves are under way
                start, _ = version(server, heavy["match"])
                beside = victim_rate(server, args.seconds, 100 * r + 50)
                end, _ = version(server, heavy["match"])
                rows.append({"round": r + 1, "alone": round(alone, 2), "beside": round(beside, 2),
                             "heavy": round((end - start) / args.seconds, 2),
                             "ratio": round(alone / beside, 2) if beside else float("inf")})
                # the heavy match plays on; a fresh server for the next round keeps rounds equal
                server.stop()
                server = LiveServer(Path(tmp) / f"fair{r}.db").start()
                victim_rate(server, 5, 20_000 + r)
        finally:
            server.stop()
    ratio = statistics.median(float(r["ratio"]) for r in rows)
    if args.json:
        print(json.dumps({"rounds": rows, "median_ratio": ratio}))
        return
    for row in rows:
        print(f"round {row['round']}: victim {row['alone']} moves/s alone, {row['beside']} beside six "
              f"ismcts:1000 bots (which made {row['heavy']} moves/s): alone / beside = {row['ratio']}")
    print(f"median ratio {ratio} (goal: at most 2)")


if __name__ == "__main__":
    main()
