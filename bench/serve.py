#!/usr/bin/env python3
"""The web server under load: many concurrent matches, each with scripted "human" clients
over WebSockets and random bots in the other seats, against a real `takujo serve` process.

It reports the actions applied per second (people's and bots'), the latency of a person's
action (from sending it over the WebSocket to receiving the state that includes it; bot
thinking is never inside this interval), its p50/p95/p99, and the server's memory per match
(resident set size grown while the matches were created, divided by their number). A match
that ends is replaced by a new one, so the number of live matches stays constant.

    python3 bench/serve.py                         # 200 matches for 30 s
    python3 bench/serve.py --matches 50 --seconds 10 --json
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
import websockets  # noqa: E402

from tests.web.server import LiveServer  # noqa: E402

MIX = [  # (game, seats): one scripted person, random bots elsewhere (two people in Sengoku)
    ("fuutei(players=3)", ["human", "bot:random", "bot:random"]),
    ("sengoku_taisen", ["human", "human"]),
    ("ibara(players=3)", ["human", "bot:random", "bot:random"]),
    ("draft_daimyo", ["human", "bot:random", "bot:random", "bot:random"]),
]


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


class Load:
    def __init__(self, url: str, seed: int, think: float) -> None:
        self.url = url
        self.ws_url = url.replace("http://", "ws://")
        self.rng = random.Random(seed)
        self.think = think
        self.latencies: list[float] = []
        self.person_actions = 0
        self.finished = 0
        self.errors = 0
        self.stop = False

    async def create(self, http: httpx.AsyncClient, k: int) -> dict:
        game, seats = MIX[k % len(MIX)]
        res = await http.post(f"{self.url}/api/matches", json={"game": game, "seats": seats, "seed": self.rng.randrange(10**6)})
        res.raise_for_status()
        return res.json()

    async def person(self, match: dict, token: str) -> None:
        """One scripted person: act (randomly) whenever the seat has a legal action."""
        async with websockets.connect(f"{self.ws_url}/ws/matches/{match['match']}?token={token}&lang=en",
                                      max_size=2**24) as ws:
            sent_at: float | None = None
            sent_version = -1
            async for raw in ws:
                msg = json.loads(raw)
                if msg["type"] == "error":
                    self.errors += msg.get("status") not in (403, 409)
                    sent_at = None
                    continue
                if sent_at is not None and msg["version"] > sent_version:
                    self.latencies.append(time.perf_counter() - sent_at)
                    sent_at = None
                if msg["status"] == "finished" or self.stop:
                    return
                if msg["legal"] and sent_at is None:
                    if self.think:
                        await asyncio.sleep(self.rng.random() * self.think)
                    sent_version = msg["version"]
                    sent_at = time.perf_counter()
                    self.person_actions += 1
                    await ws.send(json.dumps({"type": "act", "version": msg["version"],
                                              "action": self.rng.choice(msg["legal"])}))

    async def table(self, http: httpx.AsyncClient, k: int) -> None:
        """One table: a match, its people; a new match when it ends."""
        while not self.stop:
            match = await self.create(http, k)
            people = [self.person(match, s["token"]) for s in match["seats"] if "token" in s]
            await asyncio.gather(*people)
            self.finished += 1


async def versions(http: httpx.AsyncClient, url: str) -> int:
    res = await http.get(f"{url}/api/matches")
    return sum(m["version"] for m in res.json())


async def run(args: argparse.Namespace) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        server = LiveServer(Path(tmp) / "bench.db").start()
        try:
            assert server.proc is not None
            load = Load(server.url, args.seed, args.think)
            limits = httpx.Limits(max_connections=64)
            async with httpx.AsyncClient(timeout=60, limits=limits) as http:
                rss0 = rss_kib(server.proc.pid)
                tables = [asyncio.create_task(load.table(http, k)) for k in range(args.matches)]
                await asyncio.sleep(min(5.0, args.seconds / 4))  # every table created and under way
                rss1 = rss_kib(server.proc.pid)
                load.latencies.clear()
                start_versions, start = await versions(http, server.url), time.perf_counter()
                person0 = load.person_actions
                await asyncio.sleep(args.seconds)
                elapsed = time.perf_counter() - start
                end_versions = await versions(http, server.url)
                lat = sorted(load.latencies)
                load.stop = True
                for t in tables:
                    t.cancel()
                await asyncio.gather(*tables, return_exceptions=True)
        finally:
            server.stop()

    def pct(p: float) -> float:
        return 1000 * lat[min(len(lat) - 1, int(p * len(lat)))] if lat else float("nan")

    return {
        "matches": args.matches, "seconds": round(elapsed, 1), "cores": os.cpu_count(),
        "actions_per_s": round((end_versions - start_versions) / elapsed, 1),
        "person_actions_per_s": round((load.person_actions - person0) / elapsed, 1),
        "latency_ms": {"p50": round(pct(0.50), 2), "p95": round(pct(0.95), 2), "p99": round(pct(0.99), 2),
                       "mean": round(1000 * statistics.fmean(lat), 2) if lat else None, "n": len(lat)},
        "memory_kib_per_match": round((rss1 - rss0) / args.matches, 1),
        "server_rss_mib": round(rss1 / 1024, 1),
        "games_finished": load.finished, "unexpected_errors": load.errors,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--matches", type=int, default=200, help="concurrent matches (default 200)")
    ap.add_argument("--seconds", type=float, default=30.0, help="measuring time (default 30)")
    ap.add_argument("--think", type=float, default=1.0,
                    help="a person waits up to this many seconds before acting (default 1; 0: at once)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    out = asyncio.run(run(args))
    if args.json:
        print(json.dumps(out))
        return
    lat = out["latency_ms"]
    print(f"{out['matches']} concurrent matches for {out['seconds']} s on {out['cores']} cores")
    print(f"  actions applied      {out['actions_per_s']:>9} /s  (people {out['person_actions_per_s']} /s)")
    print(f"  a person's action    p50 {lat['p50']} ms   p95 {lat['p95']} ms   p99 {lat['p99']} ms   (n={lat['n']})")
    print(f"  memory               {out['memory_kib_per_match']} KiB a match  (server RSS {out['server_rss_mib']} MiB)")
    print(f"  games finished       {out['games_finished']}   unexpected errors {out['unexpected_errors']}")


if __name__ == "__main__":
    main()
