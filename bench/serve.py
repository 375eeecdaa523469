#!/usr/bin/env python3
"""The web server under load: many concurrent matches, each with scripted people over
WebSockets and random bots in the other seats, against real `takujo serve` processes. The
matches take turns among the four games: 戦国大戦 双 with two people, the others with one
person at seat 1 and random bots around them.

Backends:

- ``--backend sqlite`` (the default): one server process on a SQLite file.
- ``--backend postgres --processes N``: N server processes on one throw-away PostgreSQL
  (``tests/web/postgres.py``; needs Debian's postgresql). Match k is created on process
  k % N (its game chosen by k // N, so that every process has every game) and the person at
  seat s of it connects to process (k + s) % N, so an action applied by one process reaches
  sockets held by another (and the bots, run by the creating process, answer people
  connected elsewhere).

``--matches`` takes a list (``--matches 200,400,800``): each count runs in turn on fresh
servers and a fresh database, and the runs are printed as one table (``--json``: one object
a line). The rate limits are lifted (``tests/web/limits.py``; also the sockets per address,
since every client is on 127.0.0.1).

The measuring window opens only once every match exists and every person's socket has had
its first state (a creation that fails, or a timeout while waiting, fails the run loudly and
makes the exit status non-zero). A match that ends is replaced by a new one, so the number of
live matches stays constant. What a run reports:

- actions applied per second, counted from the clients' own observations: every person's
  socket sees every version of its match, so per match the highest version seen at the
  window's end minus the highest at its start (bots' actions included); the servers' own
  count (``takujo_actions_total`` at /metrics) beside it as a check; people's actions per
  second (those a state confirmed);
- the latency of a person's action: from sending it over the WebSocket to the first state
  that includes it (bot thinking is never inside this interval), as p50/p95/p99 and the
  number of samples; a percentile is printed only from enough samples (p99 from 100). The
  first state with a higher version is taken as the one that includes it, unless a refusal
  (409/403) follows before the next state or action: then someone else's action made that
  state, and the sample is dropped;
- each server process's RSS and the CPU seconds it used during the window (utime + stime
  from /proc, worker processes included), the CPU seconds per 1,000 actions, and the
  PostgreSQL server's CPU seconds;
- memory per match: each process's RSS growth while the matches were created, divided by
  the matches it then held (each process first creates and reads one match of each game,
  so that loading the games' code and data is not counted);
- unexpected errors: WebSocket error statuses other than 403/409 (409: someone acted first;
  403: no longer this seat's turn), failed connections and closed sockets; a 429 means a rate
  limit was not lifted. Any of them makes the exit status non-zero.

The clients run in this process (asyncio, httpx and websockets); a person waits up to
``--think`` seconds (at random) before acting, on the newest state it has. On a 2-core
machine the clients and the servers share the CPU, so the bench's own CPU seconds are
printed too (when they approach the window's length, the client is the bottleneck and the
figures say more about it than about the server), and so are those the rest of the machine
used meanwhile (other programs compete for the same cores).

    python3 bench/serve.py                                 # 100 matches for 20 s on SQLite
    python3 bench/serve.py --matches 50 --seconds 10 --json
    python3 bench/serve.py --backend postgres --processes 2 --matches 200,400
"""
from __future__ import annotations

import argparse
import asyncio
import collections
import json
import math
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
import websockets  # noqa: E402

from tests.web.limits import cli_args  # noqa: E402
from tests.web.server import LiveServer  # noqa: E402

MIX = [  # (game, seats): people and random bots; in the bot games the person sits at seat 1
    ("fuutei(players=3)", ["bot:random", "human", "bot:random"]),
    ("sengoku_taisen", ["human", "human"]),
    ("ibara(players=3)", ["bot:random", "human", "bot:random"]),
    ("draft_daimyo", ["bot:random", "human", "bot:random", "bot:random"]),
]


def table_game(k: int, processes: int) -> tuple[str, list[str]]:
    """The game of table k, which is created on process k % processes: the games take turns
    by k // processes, so that every process creates (and runs the bots of) every game."""
    return MIX[(k // processes) % len(MIX)]


def people_of(count: int, processes: int) -> int:
    return sum(table_game(k, processes)[1].count("human") for k in range(count))


#: Statuses a person expects now and then: someone acted first (409), not its turn any more (403).
EXPECTED = (403, 409)
CLK = os.sysconf("SC_CLK_TCK")


class RunFailed(Exception):
    """A run that cannot be measured (a creation failed, the servers never got ready)."""


# ----- processes, from /proc ----------------------------------------------------------------
def rss_kib(pid: int) -> int:
    """The resident set size of a process in KiB (0 if it is gone)."""
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process (all its threads), in seconds (0 if it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            rest = fh.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(rest[11]) + int(rest[12])) / CLK   # fields 14 and 15 of proc(5)


def descendants(pid: int) -> list[int]:
    """The process and every process below it (bot workers, PostgreSQL's backends)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as fh:
                    todo.extend(int(c) for c in fh.read().split())
        except OSError:
            continue
    return out


def tree_cpu(pid: int) -> float:
    return sum(cpu_seconds(p) for p in descendants(pid))


def machine_cpu() -> tuple[float, float]:
    """CPU seconds this machine has spent busy (every core, every process) since it started,
    and those its host took from it (steal: a virtual machine's cores not running)."""
    with open("/proc/stat") as fh:
        fields = [int(x) for x in fh.readline().split()[1:]]
    user, nice, system, idle, iowait, irq, softirq, steal = (fields + [0] * 8)[:8]
    return (user + nice + system + irq + softirq) / CLK, steal / CLK


class ServerLog(threading.Thread):
    """Reads a server's output (so that its pipe never fills and blocks it) and keeps the
    last lines and those that report a problem."""

    WORDS = ("Traceback", "Error", "ERROR", "Exception", "WARNING", "exception")

    def __init__(self, server: LiveServer) -> None:
        super().__init__(daemon=True)
        self.server = server
        self.tail: collections.deque[str] = collections.deque(maxlen=60)
        self.problems: list[str] = []
        self.start()

    def run(self) -> None:
        stream = self.server.proc.stdout if self.server.proc is not None else None
        if stream is None:
            return
        try:
            for line in stream:
                line = line.rstrip("\n")
                self.tail.append(line)
                if any(w in line for w in self.WORDS) and len(self.problems) < 200:
                    self.problems.append(line)
        except (OSError, ValueError):
            pass


def server_args(people: int) -> list[str]:
    """Every rate lifted, and the sockets: every client of the bench is on one address."""
    sockets = max(4096, 2 * people + 256)
    return [*cli_args(), "--limit", f"sockets_per_address={sockets}", "--limit", f"sockets={sockets}"]


def start_servers(db: str | Path, n: int, extra: list[str]) -> list[LiveServer]:
    """`n` servers on `db`, started one after another from this thread (each child is sent
    SIGTERM when the thread that started it ends, so never from a worker thread)."""
    servers: list[LiveServer] = []
    try:
        for _ in range(n):
            servers.append(LiveServer(db, extra=extra).start())
    except RuntimeError as exc:
        for s in servers:
            s.stop()
        raise RunFailed(f"a server did not start: {exc}") from None
    return servers


async def metric(http: httpx.AsyncClient, url: str, prefix: str) -> float | None:
    """The sum of a server's samples at /metrics whose line starts with `prefix` (None if
    /metrics cannot be read or has none)."""
    try:
        res = await http.get(f"{url}/metrics")
    except httpx.HTTPError:
        return None
    values = [float(line.rsplit(" ", 1)[1]) for line in res.text.splitlines() if line.startswith(prefix)]
    return sum(values) if values else None


async def live_matches(http: httpx.AsyncClient, url: str) -> int | None:
    """The server's ``takujo_live_matches`` gauge (None if /metrics cannot be read)."""
    value = await metric(http, url, "takujo_live_matches ")
    return None if value is None else int(value)


async def actions_counted(http: httpx.AsyncClient, urls: list[str]) -> int | None:
    """The actions the servers say they applied (``takujo_actions_total``, every process)."""
    values = [await metric(http, u, "takujo_actions_total{") for u in urls]
    return None if None in values else int(sum(v or 0 for v in values))


def postmaster_pid(pg: Any) -> int | None:
    try:
        return int((pg.data / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


# ----- the clients --------------------------------------------------------------------------
@dataclass(eq=False)
class Live:
    """One match as its people see it."""

    id: str
    game: str
    people: int
    seen: int = -1            # the highest version any of its people has seen
    ready: int = 0            # its people whose socket has had a state
    finished: bool = False


@dataclass(eq=False)
class Table:
    """A table: match after match, created on one process."""

    k: int
    ready: bool = False
    matches: list[Live] = field(default_factory=list)


class Load:
    def __init__(self, urls: list[str], args: argparse.Namespace, seed: int) -> None:
        self.urls = urls
        self.ws_urls = [u.replace("http://", "ws://") for u in urls]
        self.rng = random.Random(seed)
        self.think = args.think
        self.stop = False
        self.tables: list[Table] = []
        self.samples: list[tuple[float, float, str]] = []     # (sent at, latency, game) of confirmed actions
        self.sent: list[float] = []                      # when each person's action was sent
        self.expected: collections.Counter[str] = collections.Counter()
        self.unexpected: collections.Counter[str] = collections.Counter()
        self.unexpected_examples: list[str] = []
        self.created = 0
        self.failures: list[str] = []
        self.finished_at: list[float] = []
        self.creating = asyncio.Semaphore(16)
        self.connecting = asyncio.Semaphore(32)

    def problem(self, key: str, detail: str) -> None:
        self.unexpected[key] += 1
        if len(self.unexpected_examples) < 20:
            self.unexpected_examples.append(f"{key}: {detail}"[:400])

    async def create(self, http: httpx.AsyncClient, k: int) -> dict[str, Any] | None:
        game, seats = table_game(k, len(self.urls))
        url = self.urls[k % len(self.urls)]
        body = {"game": game, "seats": seats, "seed": self.rng.randrange(10**6)}
        async with self.creating:
            try:
                res = await http.post(f"{url}/api/matches", json=body)
            except httpx.HTTPError as exc:
                self.failures.append(f"POST {url}/api/matches {json.dumps(body)} -> {type(exc).__name__}: {exc}")
                return None
        if res.status_code != 201:
            self.failures.append(f"POST {url}/api/matches {json.dumps(body)} -> {res.status_code} {res.text[:300]}")
            return None
        self.created += 1
        return res.json()

    async def table(self, http: httpx.AsyncClient, table: Table) -> None:
        """One table: a match and its people; a new match when it ends."""
        while not self.stop:
            created = await self.create(http, table.k)
            if created is None:
                return
            seats = [s for s in created["seats"] if "token" in s]
            live = Live(created["match"], created["game"].split("(")[0], len(seats))
            table.matches.append(live)
            people = [Person(self, table, live, s["seat"], s["token"]) for s in seats]
            await asyncio.gather(*(p.run() for p in people))
            if live.finished:
                self.finished_at.append(time.perf_counter())
            else:
                return   # a socket closed without the match ending: reported, not replaced

    def ready(self) -> tuple[int, int, int]:
        """(tables ready, sockets that had their first state, sockets of the current matches)."""
        sockets = sum(t.matches[-1].ready for t in self.tables if t.matches)
        people = sum(t.matches[-1].people for t in self.tables if t.matches)
        return sum(t.ready for t in self.tables), sockets, people

    def versions(self) -> dict[int, int]:
        return {id(m): max(0, m.seen) for t in self.tables for m in t.matches}


class Person:
    """One scripted person on a WebSocket: acts (at random) whenever the seat has a legal
    action, after thinking up to `think` seconds, on the newest state it has."""

    def __init__(self, load: Load, table: Table, live: Live, seat: int, token: str) -> None:
        self.load, self.table, self.live, self.seat = load, table, live, seat
        k = table.k
        base = load.ws_urls[(k + seat) % len(load.ws_urls)]
        self.url = f"{base}/ws/matches/{live.id}?token={token}&lang=en"
        self.latest: dict[str, Any] | None = None
        self.changed = asyncio.Event()
        self.pending: tuple[int, float] | None = None     # (version acted on, sent at)
        self.provisional: tuple[float, float, str] | None = None
        self.refused_at = -1                              # the version of the last refused action
        self.first = True

    def _confirm(self) -> None:
        if self.provisional is not None:
            self.load.samples.append(self.provisional)
            self.provisional = None

    async def run(self) -> None:
        load = self.load
        try:
            async with load.connecting:
                ws = await websockets.connect(self.url, max_size=2**24, open_timeout=120, ping_interval=None,
                                              close_timeout=2)
        except Exception as exc:
            load.problem("connect", f"{self.url.split('?')[0]}: {type(exc).__name__}: {exc}")
            return
        actor = asyncio.get_running_loop().create_task(self._act(ws))
        try:
            async for raw in ws:
                msg = json.loads(raw)
                now = time.perf_counter()
                if msg.get("type") == "error":
                    status, code = msg.get("status"), msg.get("code")
                    if status in EXPECTED:
                        load.expected[str(status)] += 1
                    else:
                        load.problem(f"{status} {code}", json.dumps(msg)[:300])
                    self.provisional = None      # the state taken for this action was someone else's
                    if self.pending is not None:
                        self.refused_at = self.pending[0]
                        self.pending = None
                    self.changed.set()
                    continue
                if msg.get("type") != "state":
                    continue
                self._confirm()
                version = msg["version"]
                self.live.seen = max(self.live.seen, version)
                if self.first:
                    self.first = False
                    self.live.ready += 1
                    if self.live.ready == self.live.people:
                        self.table.ready = True
                if self.pending is not None and version > self.pending[0]:
                    self.provisional = (self.pending[1], now - self.pending[1], self.live.game)
                    self.pending = None
                self.latest = msg
                self.changed.set()
                if msg["status"] == "finished":
                    self.live.finished = True
                    return
                if load.stop:
                    return
        except websockets.ConnectionClosed as exc:
            if not load.stop:
                load.problem(f"closed {exc.code}", f"match {self.live.id} seat {self.seat}: {exc}")
        finally:
            actor.cancel()
            try:
                await ws.close()
            except Exception:
                pass
        if not self.live.finished and not load.stop:
            load.problem("closed", f"match {self.live.id} seat {self.seat}: the socket ended before the match")

    async def _act(self, ws: Any) -> None:
        load = self.load
        while not load.stop:
            await self.changed.wait()
            self.changed.clear()
            if not self._may_act():
                continue
            if load.think:
                await asyncio.sleep(load.rng.random() * load.think)
                if not self._may_act():
                    continue
            state = self.latest
            assert state is not None
            self._confirm()
            self.pending = (state["version"], time.perf_counter())
            load.sent.append(self.pending[1])
            await ws.send(json.dumps({"type": "act", "version": state["version"],
                                      "action": load.rng.choice(state["legal"])}))

    def _may_act(self) -> bool:
        s = self.latest
        return (self.pending is None and s is not None and bool(s["legal"]) and s["status"] != "finished"
                and s["version"] > self.refused_at)


# ----- one run ------------------------------------------------------------------------------
async def warm_up(http: httpx.AsyncClient, urls: list[str]) -> None:
    """One match of each game on each process, its state fetched once: the games' code, data
    and texts are loaded before the memory per match is measured (these matches stay held,
    and are not counted as the bench's)."""
    for url in urls:
        for game, seats in MIX:
            res = await http.post(f"{url}/api/matches", json={"game": game, "seats": seats, "seed": 1})
            if res.status_code != 201:
                raise RunFailed(f"warming up: POST {url}/api/matches {game} -> {res.status_code} {res.text[:300]}")
            created = res.json()
            for other in urls:
                for s in created["seats"]:
                    if "token" in s:
                        await http.get(f"{other}/api/matches/{created['match']}/state",
                                       headers={"Authorization": f"Bearer {s['token']}"})


def percentile(values: list[float], p: float) -> float | None:
    """The nearest-rank percentile `p` of sorted `values`, or None from too few of them to
    tell it (fewer than 1 / (1 - p): 100 for p99)."""
    if not values or len(values) < round(1 / (1 - p)):
        return None
    return values[max(0, math.ceil(p * len(values)) - 1)]


async def measure(urls: list[str], pids: list[int], pg_pid: int | None, args: argparse.Namespace,
                  count: int, seed: int) -> dict[str, Any]:
    load = Load(urls, args, seed)
    n = len(urls)
    limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        await warm_up(http, urls)
        held0 = [await live_matches(http, u) or 0 for u in urls]
        rss0 = [rss_kib(p) for p in pids]
        load.tables = [Table(k) for k in range(count)]
        tasks = [asyncio.create_task(load.table(http, t)) for t in load.tables]
        started = time.perf_counter()
        timeout = args.ready_timeout if args.ready_timeout is not None else 60 + 0.25 * count
        try:
            while True:
                ready, sockets, people = load.ready()
                if load.failures and (load.created + len(load.failures) >= count
                                      or time.perf_counter() - started > timeout):
                    raise RunFailed(f"{len(load.failures)} of {count} creations failed "
                                    f"({load.created} succeeded); first: {load.failures[0]}")
                if ready == count:
                    break
                dead = [p for p in pids if not os.path.exists(f"/proc/{p}")]
                if dead:
                    raise RunFailed(f"server process {dead} exited while the matches were created")
                if time.perf_counter() - started > timeout:
                    raise RunFailed(f"not ready after {timeout:g} s: {ready} of {count} matches ready, "
                                    f"{sockets} of {people} sockets have their first state, "
                                    f"{load.created} created; unexpected: {dict(load.unexpected)} "
                                    f"{load.unexpected_examples[:3]}")
                await asyncio.sleep(0.05)
            setup = time.perf_counter() - started
            held = [await live_matches(http, u) for u in urls]
            rss1 = [rss_kib(p) for p in pids]
            # the window
            cpu0 = [tree_cpu(p) for p in pids]
            pg0 = tree_cpu(pg_pid) if pg_pid else 0.0
            me0 = time.process_time()
            all0 = machine_cpu()
            counted0 = await actions_counted(http, urls)
            v0 = load.versions()
            start = time.perf_counter()
            await asyncio.sleep(args.seconds)
            v1 = load.versions()
            end = time.perf_counter()
            counted1 = await actions_counted(http, urls)
            me1 = time.process_time()
            all1 = machine_cpu()
            load_avg = os.getloadavg()[0]
            cpu1 = [tree_cpu(p) for p in pids]
            pg1 = tree_cpu(pg_pid) if pg_pid else 0.0
            rss2 = [rss_kib(p) for p in pids]
            alive = [os.path.exists(f"/proc/{p}") for p in pids]
        finally:
            load.stop = True
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
    elapsed = end - start
    actions = sum(v - v0.get(key, 0) for key, v in v1.items())
    window = [(1000 * d, game) for (at, d, game) in load.samples if at >= start and at + d <= end]
    lat = sorted(d for d, _ in window)
    by_game: dict[str, list[float]] = collections.defaultdict(list)
    for d, game in window:
        by_game[game].append(d)
    person_sent = sum(1 for at in load.sent if start <= at < end)
    server_cpu = sum(b - a for a, b in zip(cpu0, cpu1))
    servers = []
    for i, pid in enumerate(pids):
        grown, now_held = rss1[i] - rss0[i], held[i]
        added = now_held - held0[i] if now_held is not None else 0      # the bench's matches it holds
        servers.append({"pid": pid, "url": urls[i], "alive": alive[i],
                        "rss_start_mib": round(rss0[i] / 1024, 1), "rss_ready_mib": round(rss1[i] / 1024, 1),
                        "rss_end_mib": round(rss2[i] / 1024, 1), "live_matches": now_held,
                        "kib_per_match": round(grown / added, 1) if added > 0 else None,
                        "cpu_s": round(cpu1[i] - cpu0[i], 2)})

    def ms(p: float, values: list[float] | None = None) -> float | None:
        v = percentile(lat if values is None else values, p)
        return None if v is None else round(v, 2)

    return {
        "backend": args.backend, "processes": n, "matches": count,
        "people": people_of(count, n),
        "seconds": round(elapsed, 1), "setup_seconds": round(setup, 1), "cores": os.cpu_count(),
        "think": args.think,
        "created": load.created, "creation_failures": load.failures,
        "actions": actions, "actions_per_s": round(actions / elapsed, 1),
        # the same as the servers count it (takujo_actions_total): a check of the clients' count
        "server_counted_actions": counted1 - counted0 if counted0 is not None and counted1 is not None else None,
        "person_actions_per_s": round(len(lat) / elapsed, 1), "person_actions_sent": person_sent,
        "latency_ms": {"n": len(lat), "p50": ms(0.50), "p95": ms(0.95), "p99": ms(0.99),
                       "mean": round(statistics.fmean(lat), 2) if lat else None},
        "latency_ms_by_game": {g: {"n": len(v), "p50": ms(0.50, sorted(v)), "p95": ms(0.95, sorted(v)),
                                   "p99": ms(0.99, sorted(v))} for g, v in sorted(by_game.items())},
        "games_finished": sum(1 for at in load.finished_at if start <= at < end),
        "server_cpu_s": round(server_cpu, 2),
        "cpu_s_per_1000_actions": round(1000 * server_cpu / actions, 3) if actions else None,
        "postgres_cpu_s": round(pg1 - pg0, 2) if pg_pid else None,
        "bench_cpu_s": round(me1 - me0, 2),
        # what the rest of the machine used meanwhile (other programs compete for the cores)
        "other_cpu_s": round((all1[0] - all0[0]) - server_cpu - (pg1 - pg0) - (me1 - me0), 2),
        "steal_cpu_s": round(all1[1] - all0[1], 2),
        "load_average": round(load_avg, 2),
        "servers": servers,
        "server_rss_mib": round(sum(rss2) / 1024, 1),
        "kib_per_match": round(sum(r1 - r0 for r0, r1 in zip(rss0, rss1)) / count, 1),
        "expected_errors": dict(load.expected),
        "unexpected_errors": dict(load.unexpected), "unexpected_examples": load.unexpected_examples,
    }


def run(args: argparse.Namespace, count: int, pg: Any, index: int) -> dict[str, Any]:
    people = people_of(count, args.processes)
    extra = server_args(people)
    with tempfile.TemporaryDirectory() as tmp:
        db: str | Path = Path(tmp) / "bench.db" if pg is None else pg.fresh_database()
        servers = start_servers(db, args.processes, extra)
        logs = [ServerLog(s) for s in servers]
        out: dict[str, Any] | None = None
        failure: str | None = None
        try:
            pids = [s.proc.pid for s in servers if s.proc is not None]
            out = asyncio.run(measure([s.url for s in servers], pids, postmaster_pid(pg) if pg else None,
                                      args, count, args.seed + index))
        except RunFailed as exc:
            failure = str(exc)
        finally:
            for s in servers:
                s.stop()
            for log in logs:
                log.join(5)
            if pg is not None:
                pg.drop_database(str(db))
        problems = [f"[{i}] {line}" for i, log in enumerate(logs) for line in log.problems]
        if failure is not None:
            tails = [f"[{i}] {line}" for i, log in enumerate(logs) for line in list(log.tail)[-15:]]
            raise RunFailed(f"{failure}\n" + ("server log, problems:\n" + "\n".join(problems[:40]) if problems
                                              else "server log, last lines:\n" + "\n".join(tails)))
        assert out is not None
        out["server_log_problems"] = problems
        return out


# ----- printing -----------------------------------------------------------------------------
def fmt(v: Any, width: int, too_few: str = "too few") -> str:
    if v is None:
        return f"{too_few:>{width}}"
    return f"{v:>{width}}"


def print_table(rows: list[dict[str, Any]]) -> None:
    print(f"{'backend':<11}{'matches':>7}{'people':>7}{'s':>6}{'actions/s':>10}{'people/s':>9}{'samples':>8}"
          f"{'p50 ms':>8}{'p95 ms':>8}{'p99 ms':>10}{'srv CPU s':>10}{'/1k act':>8}{'pg CPU':>7}"
          f"{'bench CPU':>10}{'other CPU':>10}{'RSS MiB':>8}{'KiB/match':>10}{'errors':>7}")
    for r in rows:
        lat = r["latency_ms"]
        backend = r["backend"] if r["processes"] == 1 else f"{r['backend']}×{r['processes']}"
        errors = sum(r["unexpected_errors"].values()) + len(r["creation_failures"])
        print(f"{backend:<11}{r['matches']:>7}{r['people']:>7}{r['seconds']:>6}{r['actions_per_s']:>10}"
              f"{r['person_actions_per_s']:>9}{lat['n']:>8}{fmt(lat['p50'], 8)}{fmt(lat['p95'], 8)}"
              f"{fmt(lat['p99'], 10, 'too few')}{r['server_cpu_s']:>10}{fmt(r['cpu_s_per_1000_actions'], 8, '-')}"
              f"{fmt(r['postgres_cpu_s'], 7, '-')}{r['bench_cpu_s']:>10}{r['other_cpu_s']:>10}"
              f"{r['server_rss_mib']:>8}{r['kib_per_match']:>10}{errors:>7}")
    for r in rows:
        lat = r["latency_ms"]
        print(f"\n{r['matches']} matches ({r['people']} people, {r['backend']}, {r['processes']} process"
              f"{'es' if r['processes'] > 1 else ''}) for {r['seconds']} s on {r['cores']} cores, "
              f"ready after {r['setup_seconds']} s; {r['created']} matches created, "
              f"{r['games_finished']} finished in the window")
        if lat["p99"] is None:
            print(f"  p99: too few samples ({lat['n']}; it needs 100)")
        print(f"  {r['actions']} actions in the window (the servers counted {r['server_counted_actions']}); "
              f"people sent {r['person_actions_sent']}, {lat['n']} confirmed by a state; "
              f"refused as expected: {r['expected_errors'] or 'none'}")
        print(f"  CPU seconds in the window: servers {r['server_cpu_s']}, PostgreSQL {r['postgres_cpu_s'] or '-'}, "
              f"the bench's clients {r['bench_cpu_s']}, other programs {r['other_cpu_s']}, taken by the "
              f"host (steal) {r['steal_cpu_s']}, of {round(r['cores'] * r['seconds'], 1)} "
              f"(load average {r['load_average']})")
        for i, s in enumerate(r["servers"]):
            print(f"  process {i} (pid {s['pid']}{'' if s['alive'] else ', DIED'}): CPU {s['cpu_s']} s, "
                  f"RSS {s['rss_start_mib']} → {s['rss_ready_mib']} (ready) → {s['rss_end_mib']} MiB (end), "
                  f"{s['live_matches']} matches held, {fmt(s['kib_per_match'], 0, '-')} KiB a match")
        for failure in r["creation_failures"][:5]:
            print(f"  CREATION FAILED: {failure}")
        if r["unexpected_errors"]:
            note = ("  (429: a rate limit was not lifted)"
                    if any(k.startswith("429") for k in r["unexpected_errors"]) else "")
            print(f"  UNEXPECTED ERRORS {r['unexpected_errors']}{note}")
            for e in r["unexpected_examples"][:8]:
                print(f"    {e}")
        for line in r["server_log_problems"][:12]:
            print(f"  server log: {line}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    ap.add_argument("--processes", type=int, default=None,
                    help="server processes (postgres only; default 2 there, 1 for sqlite)")
    ap.add_argument("--matches", default="100",
                    help="concurrent matches, or a comma list run in turn (default 100)")
    ap.add_argument("--seconds", type=float, default=20.0, help="measuring window (default 20)")
    ap.add_argument("--think", type=float, default=1.0,
                    help="a person waits up to this many seconds before acting (default 1; 0: at once)")
    ap.add_argument("--ready-timeout", type=float, default=None,
                    help="seconds to wait for every match and socket (default 60 + 0.25 a match)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="one JSON object a run")
    args = ap.parse_args()
    try:
        counts = [int(x) for x in args.matches.split(",") if x.strip()]
    except ValueError:
        ap.error("--matches takes a number or a comma list of numbers")
    if not counts or min(counts) < 1:
        ap.error("--matches takes positive numbers")
    if args.processes is None:
        args.processes = 2 if args.backend == "postgres" else 1
    if args.backend == "sqlite" and args.processes != 1:
        ap.error("SQLite is one process's database: --processes needs --backend postgres")
    if args.processes < 1:
        ap.error("--processes must be at least 1")

    pg = None
    if args.backend == "postgres":
        from tests.web.postgres import PostgresServer, find_bin
        bin_dir = find_bin()
        if bin_dir is None:
            sys.exit("PostgreSQL's initdb and pg_ctl were not found (apt-get install -y postgresql)")
        pg = PostgresServer(bin_dir).start()
    rows: list[dict[str, Any]] = []
    status = 0
    try:
        for i, count in enumerate(counts):
            try:
                row = run(args, count, pg, i)
            except RunFailed as exc:
                print(f"RUN FAILED ({count} matches, {args.backend}): {exc}", file=sys.stderr)
                status = 1
                break
            rows.append(row)
            if row["unexpected_errors"] or row["creation_failures"] or not all(s["alive"] for s in row["servers"]):
                status = 1
            if args.json:
                print(json.dumps(row), flush=True)
    finally:
        if pg is not None:
            pg.stop()
    if rows and not args.json:
        print_table(rows)
    sys.exit(status)


if __name__ == "__main__":
    main()
