#!/usr/bin/env python3
"""The server's CPU time per action: a real `takujo serve` process, matches of two people
(and two spectators) playing random legal actions over the WebSocket as fast as the server
answers, and the server process's CPU seconds (user + system, from /proc) divided by the
actions applied. Every watcher receives its state after every action, so the figure holds
checking, applying, committing and one payload per watcher.

    python3 bench/action_cost.py                       # this tree, 3 rounds of 600 actions
    python3 bench/action_cost.py --tree OTHER --rounds 4   # A B A B against another checkout

With ``--tree``, rounds alternate between this tree and the other (each its own server
process, started fresh), so both meet the same machine load.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
import websockets  # noqa: E402

from tests.web.limits import cli_args  # noqa: E402
from tests.web.server import free_port  # noqa: E402

GAMES = ["sengoku_taisen", "fuutei(players=2)", "draft_daimyo(players=3)", "ibara(players=3)"]


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_server(tree: Path, db: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = {**os.environ, "TAKUJO_LANG": "en"}
    env["PYTHONPATH"] = env.get("PYTHONPATH") if tree == ROOT and env.get("PYTHONPATH") else str(tree)
    help_text = subprocess.run([sys.executable, "-m", "takujo", "serve", "--help"], env=env, cwd=tree,
                               capture_output=True, text=True).stdout
    # older servers have no limits; this one's are lifted (every client is on 127.0.0.1)
    extra = [*cli_args(), "--limit", "sockets_per_address=100000"] if "--limit" in help_text else []
    proc = subprocess.Popen([sys.executable, "-m", "takujo", "serve", "--no-browser", "--port", str(port),
                             "--db", str(db), *extra], env=env, cwd=tree,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            httpx.get(f"{url}/api/ui", timeout=1)
            return proc, url
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError(f"the server from {tree} did not start")


async def play(url: str, game: str, seed: int, budget: list[int]) -> int:
    """One match of two people and two spectators, until it ends or the budget is spent."""
    async with httpx.AsyncClient(timeout=30) as http:
        res = await http.post(f"{url}/api/matches", json={"game": game, "seats": ["human"] * (
            2 if "players=" not in game else int(game.split("players=")[1][0])), "seed": seed})
        res.raise_for_status()
        body = res.json()
    ws_url = url.replace("http://", "ws://") + f"/ws/matches/{body['match']}"
    rng = random.Random(seed)
    applied = 0
    spectators = [await websockets.connect(ws_url + "?lang=en", max_size=2**24) for _ in range(2)]
    people = [await websockets.connect(f"{ws_url}?token={s['token']}&lang=en", max_size=2**24)
              for s in body["seats"]]
    latest: dict[int, dict] = {}

    async def drain(ws, seat: int | None) -> None:
        async for raw in ws:
            msg = json.loads(raw)
            if msg["type"] == "state" and seat is not None:
                latest[seat] = msg
    tasks = [asyncio.create_task(drain(ws, None)) for ws in spectators]
    tasks += [asyncio.create_task(drain(ws, i)) for i, ws in enumerate(people)]
    try:
        version = -1
        stalled = time.monotonic() + 30
        while budget[0] > 0:
            await asyncio.sleep(0.001)
            if time.monotonic() > stalled:
                raise RuntimeError(f"match {body['match']} made no progress for 30 s")
            states = [m for m in latest.values() if m["version"] > version]
            if not states:
                continue
            top = max(m["version"] for m in latest.values())
            acting = [s for s, m in latest.items() if m["version"] == top and m["legal"]]
            if any(m["status"] == "finished" for m in latest.values()):
                break
            if not acting or top == version:
                continue
            seat = acting[0]
            version = top
            stalled = time.monotonic() + 30
            await people[seat].send(json.dumps({"type": "act", "version": top,
                                                "action": rng.choice(latest[seat]["legal"])}))
            applied += 1
            budget[0] -= 1
        await asyncio.sleep(0.2)
    finally:
        for t in tasks:
            t.cancel()
        for ws in spectators + people:
            await ws.close()
    return applied


async def round_of(url: str, actions: int, seed: int, concurrent: int = 1) -> int:
    """`actions` actions over `concurrent` matches at a time (a new match when one ends)."""
    budget = [actions]

    async def table(t: int) -> int:
        done, k = 0, 0
        while budget[0] > 0:
            done += await play(url, GAMES[(t + k) % len(GAMES)], seed + 1000 * t + k, budget)
            k += 1
        return done
    return sum(await asyncio.gather(*(table(t) for t in range(concurrent))))


def measure(tree: Path, actions: int, seed: int, concurrent: int = 1) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = start_server(tree, Path(tmp) / "bench.db")
        try:
            asyncio.run(round_of(url, 40, seed + 999))  # warm up: imports, caches
            cpu0, wall0 = cpu_seconds(proc.pid), time.perf_counter()
            done = asyncio.run(round_of(url, actions, seed, concurrent))
            cpu, wall = cpu_seconds(proc.pid) - cpu0, time.perf_counter() - wall0
        finally:
            proc.terminate()
            proc.wait(10)
    return {"tree": str(tree), "actions": done, "cpu_ms_per_action": round(1000 * cpu / done, 3),
            "wall_ms_per_action": round(1000 * wall / done, 3)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tree", type=Path, help="another source tree to compare with (A B A B)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--actions", type=int, default=600, help="actions a round (default 600)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--concurrent", type=int, default=1, help="matches played at once (default 1)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    trees = [ROOT] + ([args.tree.resolve()] if args.tree else [])
    rows = []
    for r in range(args.rounds):
        for tree in trees:
            rows.append(measure(tree, args.actions, args.seed, args.concurrent))
            if not args.json:
                print(f"round {r + 1}  {rows[-1]['tree']}: {rows[-1]['cpu_ms_per_action']} ms CPU, "
                      f"{rows[-1]['wall_ms_per_action']} ms wall an action ({rows[-1]['actions']} actions)")
    summary = {str(t): statistics.median(x["cpu_ms_per_action"] for x in rows if x["tree"] == str(t)) for t in trees}
    if args.json:
        print(json.dumps({"rounds": rows, "median_cpu_ms_per_action": summary}))
    else:
        for tree, ms in summary.items():
            print(f"median {tree}: {ms} ms CPU an action")


if __name__ == "__main__":
    main()
