#!/usr/bin/env python3
"""The server's memory with many stored matches and few live ones.

Starts a real `takujo serve` (SQLite, or ``--backend postgres`` on a throw-away PostgreSQL),
with the rate limits lifted and idle matches let go quickly (``--limit idle_seconds=1
--limit finished_seconds=1``; the server looks for idle matches every 5 s), then:

1. creates ``--matches`` matches (default 10,000) of ``--game`` (default 戦国大戦 双) with two
   human seats, so that no bot ever runs;
2. plays ``--actions`` actions (default 3) in each of ``--played`` of them (default a tenth)
   over HTTP;
3. waits until the idle matches have left memory: ``takujo_live_matches`` (the gauge at
   ``/metrics``) at most a few, since nothing is watched;
4. opens a WebSocket on ``--live`` of them (default 200), which loads them again, and keeps
   them live for ``--seconds`` (default 20): each socket's person acts now and then (waiting
   up to ``--think`` seconds), and the other seat is played over HTTP when the socket's state
   says it is to act; the gauge must then stay at the live ones (and a few more).

It prints the server's resident set size (RSS, from /proc) and the gauge at each stage:
after start, after the first match (the game's code and data loaded), after creating, after
playing, once the idle matches left memory, with the live ones watched, and after they
played (with the highest reading meanwhile), and what that comes to per match. While the
matches are created the idle ones already leave (after a second), so the gauge stays low;
the server also holds at most ``live_matches`` (2,000 by default; the least recently used
idle ones leave first). ``--limit NAME=VALUE`` passes other limits to the server.

RSS is what the allocator holds, not what the matches use: memory that matches which left
gave back is reused by the next ones (so the growth per match loaded after the idle ones
left is a lower bound), and what stays above the RSS after start is mostly caches (each
configured game, e.g. 戦国大戦 双 with its pair of decks, with its prebuilt action table).
Creating a 戦国大戦 双 match costs the server far more than the other games (its game is
built twice, each time its action table), so 10,000 of them take many minutes on 2 cores;
``--game "fuutei(players=2)"`` creates some 15 times faster.

    python3 bench/memory.py                              # 10,000 stored, 200 live
    python3 bench/memory.py --matches 500 --live 20 --seconds 5 --json
"""
from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
import websockets  # noqa: E402

from bench.serve import EXPECTED, RunFailed, ServerLog, live_matches, rss_kib, server_args, start_servers  # noqa: E402

#: How many matches beyond the live ones may still be held when the idle ones have left.
SLACK = 5


class Bench:
    def __init__(self, url: str, pid: int, args: argparse.Namespace) -> None:
        self.url, self.pid, self.args = url, pid, args
        self.ws_url = url.replace("http://", "ws://")
        self.rng = random.Random(args.seed)
        self.matches: list[tuple[str, list[str]]] = []    # (id, tokens by seat)
        self.failures: list[str] = []
        self.unexpected: collections.Counter[str] = collections.Counter()
        self.examples: list[str] = []
        self.expected: collections.Counter[str] = collections.Counter()
        self.stages: list[dict[str, Any]] = []
        self.stop = False
        self.live_actions = 0
        self.seen: dict[str, int] = {}                   # the latest version each live socket saw
        self.go = asyncio.Event()                        # the live matches start playing

    def problem(self, key: str, detail: str) -> None:
        self.unexpected[key] += 1
        if len(self.examples) < 20:
            self.examples.append(f"{key}: {detail}"[:400])

    async def stage(self, http: httpx.AsyncClient, name: str, **extra: Any) -> dict[str, Any]:
        row = {"stage": name, "rss_mib": round(rss_kib(self.pid) / 1024, 1),
               "live_matches": await live_matches(http, self.url), **extra}
        self.stages.append(row)
        if not self.args.json:
            more = "".join(f", {k} {v}" for k, v in extra.items())
            print(f"  {name:<28} RSS {row['rss_mib']:>7} MiB   {row['live_matches']} matches in memory{more}",
                  flush=True)
        return row

    # ----- creating and playing -----------------------------------------------------------
    async def create(self, http: httpx.AsyncClient, i: int, gate: asyncio.Semaphore) -> None:
        body = {"game": self.args.game, "seats": ["human", "human"], "seed": i}
        async with gate:
            try:
                res = await http.post(f"{self.url}/api/matches", json=body)
            except httpx.HTTPError as exc:
                self.failures.append(f"POST /api/matches {json.dumps(body)} -> {type(exc).__name__}: {exc}")
                return
        if res.status_code != 201:
            self.failures.append(f"POST /api/matches {json.dumps(body)} -> {res.status_code} {res.text[:300]}")
            return
        created = res.json()
        tokens = [s["token"] for s in sorted(created["seats"], key=lambda s: s["seat"])]
        self.matches.append((created["match"], tokens))

    async def act_http(self, http: httpx.AsyncClient, match: str, token: str) -> bool:
        """One action of the token's seat over HTTP if it has one (True if applied)."""
        auth = {"Authorization": f"Bearer {token}"}
        res = await http.get(f"{self.url}/api/matches/{match}/state", headers=auth)
        if res.status_code != 200:
            self.problem(f"GET state {res.status_code}", res.text[:300])
            return False
        state = res.json()
        if not state["legal"] or state["status"] == "finished":
            return False
        res = await http.post(f"{self.url}/api/matches/{match}/actions", headers=auth,
                              json={"version": state["version"], "action": self.rng.choice(state["legal"])})
        if res.status_code == 200:
            return True
        if res.status_code in EXPECTED:
            self.expected[str(res.status_code)] += 1
        else:
            self.problem(f"POST action {res.status_code}", res.text[:300])
        return False

    async def play(self, http: httpx.AsyncClient, match: str, tokens: list[str], gate: asyncio.Semaphore) -> None:
        async with gate:
            done = 0
            for _ in range(4 * self.args.actions):      # a few tries more than actions
                if done >= self.args.actions:
                    break
                for token in tokens:
                    if done < self.args.actions and await self.act_http(http, match, token):
                        done += 1

    # ----- live matches ------------------------------------------------------------------
    async def live(self, http: httpx.AsyncClient, match: str, tokens: list[str], ready: list[str]) -> None:
        """A WebSocket on seat 0; seat 1 played over HTTP when it is to act."""
        url = f"{self.ws_url}/ws/matches/{match}?token={tokens[0]}&lang=en"
        try:
            ws = await websockets.connect(url, max_size=2**24, open_timeout=60, ping_interval=None, close_timeout=2)
        except Exception as exc:
            self.problem("connect", f"{type(exc).__name__}: {exc}")
            return
        latest: dict[str, Any] | None = None
        changed = asyncio.Event()
        pending = -1         # the version this person last acted at
        other = -1           # ... and the other seat

        async def actor() -> None:
            nonlocal pending, other
            await self.go.wait()
            while True:
                await asyncio.sleep(self.rng.random() * self.args.think)
                s = latest
                if s is None or s["status"] == "finished" or self.stop:
                    continue
                if s["legal"] and s["version"] > pending:
                    pending = s["version"]
                    await ws.send(json.dumps({"type": "act", "version": s["version"],
                                              "action": self.rng.choice(s["legal"])}))
                    await changed.wait()
                elif any(seat["to_act"] for seat in s["seats"][1:]) and s["version"] > other:
                    other = s["version"]
                    await self.act_http(http, match, tokens[1])
                    await changed.wait()
                else:
                    await changed.wait()
                changed.clear()

        task = asyncio.get_running_loop().create_task(actor())
        try:
            async for raw in ws:
                msg = json.loads(raw)
                if msg.get("type") == "error":
                    status = msg.get("status")
                    if status in EXPECTED:
                        self.expected[str(status)] += 1
                    else:
                        self.problem(f"ws {status} {msg.get('code')}", json.dumps(msg)[:300])
                    changed.set()
                    continue
                if msg.get("type") != "state":
                    continue
                if latest is None:
                    ready.append(match)
                self.seen[match] = max(self.seen.get(match, 0), msg["version"])
                latest = msg
                changed.set()
        except websockets.ConnectionClosed as exc:
            if not self.stop:
                self.problem(f"closed {exc.code}", f"match {match}: {exc}")
        finally:
            task.cancel()
            await ws.close()


async def wait_held(http: httpx.AsyncClient, url: str, most: int, timeout: float) -> tuple[int, float]:
    """Poll ``takujo_live_matches`` until it is at most `most`; (the last reading, seconds)."""
    t = time.perf_counter()
    held = await live_matches(http, url)
    while held is None or held > most:
        if time.perf_counter() - t > timeout:
            raise RunFailed(f"after {timeout:.0f} s the server still holds {held} matches in memory "
                            f"(waiting for at most {most}; idle_seconds=1, finished_seconds=1)")
        await asyncio.sleep(0.5)
        held = await live_matches(http, url)
    return held, time.perf_counter() - t


async def measure(url: str, pid: int, args: argparse.Namespace) -> dict[str, Any]:
    bench = Bench(url, pid, args)
    limits = httpx.Limits(max_connections=32, max_keepalive_connections=32)
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        await asyncio.sleep(1.0)
        start = await bench.stage(http, "after start")
        gate = asyncio.Semaphore(16)
        await bench.create(http, 0, gate)     # the game's code and data are loaded with the first
        first = await bench.stage(http, "after the first match")
        t = time.perf_counter()
        step = max(1000, args.matches // 10)
        for lo in range(1, args.matches, step):
            await asyncio.gather(*(bench.create(http, i, gate) for i in range(lo, min(args.matches, lo + step))))
            if bench.failures:
                raise RunFailed(f"{len(bench.failures)} creations failed ({len(bench.matches)} succeeded); "
                                f"first: {bench.failures[0]}")
            if args.matches > step and not args.json:
                print(f"    {len(bench.matches)} created, {len(bench.matches) / (time.perf_counter() - t):.1f}/s",
                      file=sys.stderr, flush=True)
        created_s = time.perf_counter() - t
        created = await bench.stage(http, f"after creating {len(bench.matches)}",
                                    per_s=round((len(bench.matches) - 1) / created_s, 1))
        played = min(args.played if args.played is not None else len(bench.matches) // 10, len(bench.matches))
        t = time.perf_counter()
        await asyncio.gather(*(bench.play(http, m, tokens, gate) for m, tokens in bench.matches[:played]))
        await bench.stage(http, f"after playing in {played}", seconds=round(time.perf_counter() - t, 1))
        # nothing is watched: every match is idle and leaves memory
        _, waited = await wait_held(http, url, SLACK, args.drop_timeout)
        idle = await bench.stage(http, "the idle ones left", seconds=round(waited, 1))

        live = bench.matches[:args.live]
        ready: list[str] = []
        tasks = [asyncio.create_task(bench.live(http, m, tokens, ready)) for m, tokens in live]
        try:
            t = time.perf_counter()
            while len(ready) < len(live):
                if time.perf_counter() - t > 60 + 0.1 * len(live):
                    raise RunFailed(f"only {len(ready)} of {len(live)} sockets had their first state "
                                    f"after {time.perf_counter() - t:.0f} s; unexpected: {dict(bench.unexpected)}")
                await asyncio.sleep(0.05)
            watched = await bench.stage(http, f"{len(live)} watched")
            bench.go.set()
            readings = []
            t = time.perf_counter()
            start_versions = dict(bench.seen)
            while time.perf_counter() - t < args.seconds:
                await asyncio.sleep(1.0)
                readings.append(rss_kib(pid))
            elapsed = time.perf_counter() - t
            actions = sum(v - start_versions.get(m, 0) for m, v in bench.seen.items())
            lived = await bench.stage(http, f"{len(live)} live for {elapsed:.0f} s",
                                      max_rss_mib=round(max(readings or [0]) / 1024, 1), actions=actions)
            # the live ones stay while watched, the others stay out
            if lived["live_matches"] is not None and not len(live) <= lived["live_matches"] <= len(live) + SLACK:
                bench.problem("held", f"{lived['live_matches']} matches in memory with {len(live)} watched")
        finally:
            bench.stop = True
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    def per(a: dict[str, Any], b: dict[str, Any], n: int) -> float | None:
        return round(1024 * (b["rss_mib"] - a["rss_mib"]) / n, 1) if n > 0 else None

    return {
        "backend": args.backend, "game": args.game, "stored": len(bench.matches), "played": played,
        "live": len(live), "stages": bench.stages,
        "kib_per_created_match": per(first, created, len(bench.matches) - 1),
        "kib_kept_after_idle_left": round(1024 * (idle["rss_mib"] - start["rss_mib"]), 1),
        "kib_per_watched_match": per(idle, watched, len(live)),
        "kib_per_live_match": per(idle, lived, len(live)),
        "expected_errors": dict(bench.expected), "unexpected_errors": dict(bench.unexpected),
        "unexpected_examples": bench.examples,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    ap.add_argument("--game", default="sengoku_taisen",
                    help="a two-player game string, both seats people (default sengoku_taisen)")
    ap.add_argument("--matches", type=int, default=10_000, help="matches stored (default 10,000)")
    ap.add_argument("--played", type=int, default=None, help="matches with a few actions (default a tenth)")
    ap.add_argument("--actions", type=int, default=3, help="actions played in each of those (default 3)")
    ap.add_argument("--live", type=int, default=200, help="matches kept live (default 200)")
    ap.add_argument("--seconds", type=float, default=20.0, help="how long the live ones play (default 20)")
    ap.add_argument("--think", type=float, default=2.0, help="a live person waits up to this long (default 2)")
    ap.add_argument("--drop-timeout", type=float, default=60.0,
                    help="seconds to wait for the idle matches to leave memory (default 60)")
    ap.add_argument("--limit", action="append", default=[], metavar="NAME=VALUE",
                    help="another limit for the server (e.g. live_matches=20000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.matches < 1 or args.live < 0 or args.live > args.matches:
        ap.error("--live must be between 0 and --matches")

    extra = [*server_args(2 * args.live), "--limit", "idle_seconds=1", "--limit", "finished_seconds=1"]
    for item in args.limit:
        extra += ["--limit", item]
    pg = None
    status = 0
    with tempfile.TemporaryDirectory() as tmp:
        try:
            if args.backend == "postgres":
                from tests.web.postgres import PostgresServer, find_bin
                bin_dir = find_bin()
                if bin_dir is None:
                    sys.exit("PostgreSQL's initdb and pg_ctl were not found (apt-get install -y postgresql)")
                pg = PostgresServer(bin_dir).start()
                db: str | Path = pg.url
            else:
                db = Path(tmp) / "memory.db"
            if not args.json:
                print(f"{args.matches} stored matches, {args.live} live ({args.backend}, {os.cpu_count()} cores)")
            server = start_servers(db, 1, extra)[0]
            log = ServerLog(server)
            try:
                assert server.proc is not None
                out = asyncio.run(measure(server.url, server.proc.pid, args))
            except RunFailed as exc:
                print(f"RUN FAILED: {exc}", file=sys.stderr)
                out, status = None, 1
            finally:
                server.stop()
                log.join(5)
            if out is not None:
                out["server_log_problems"] = log.problems
                if isinstance(db, Path):
                    out["database_mib"] = round(sum(p.stat().st_size for p in Path(tmp).glob("memory.db*"))
                                                / 2**20, 1)
                if out["unexpected_errors"]:
                    status = 1
            elif log.problems or log.tail:
                print("server log:\n" + "\n".join(log.problems[:40] or list(log.tail)[-15:]), file=sys.stderr)
        finally:
            if pg is not None:
                pg.stop()
    if out is None:
        sys.exit(status)
    if args.json:
        print(json.dumps(out))
    else:
        print(f"  a match created             {out['kib_per_created_match']} KiB "
              f"(RSS grown from the first match to the last / matches; most of them left memory meanwhile)")
        print(f"  kept once the idle left     {out['kib_kept_after_idle_left']} KiB above the RSS after start")
        print(f"  a watched match             {out['kib_per_watched_match']} KiB "
              f"(RSS grown loading them with a socket each / their number)")
        print(f"  a live match                {out['kib_per_live_match']} KiB "
              f"(RSS grown once they played, from the idle stage / their number)")
        if "database_mib" in out:
            print(f"  database                    {out['database_mib']} MiB")
        print(f"  refused as expected {out['expected_errors'] or 'none'}; "
              f"unexpected errors {out['unexpected_errors'] or 'none'}")
        for e in out["unexpected_examples"][:8]:
            print(f"    {e}")
        for line in out["server_log_problems"][:12]:
            print(f"  server log: {line}")
    sys.exit(status)


if __name__ == "__main__":
    main()
