"""Playing an experiment's missing games: in this process, in a local process pool, and
(`--until-decided`) stopping once a sequential test decides.

Every game depends on its job alone (variant, seed, rotation), so the results are the same
whatever the number of workers, and the order they finish in."""
from __future__ import annotations

import os
import signal
import sys
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Protocol

from ..bots import Bot
from ..sim import play_game
from .experiment import Experiment, Job
from .metrics import game_metrics, metric_value, row_to_json
from .stats import VERDICTS, Sprt
from .store import ResultStore

Progress = Callable[[int, int], None]


def play_job(exp: Experiment, job: Job, bots: dict[str, dict[str, Bot]] | None = None,
             with_leads: bool = True) -> dict[str, Any]:
    """One game of the experiment, as a result row."""
    game = exp.variant_game(job.variant, job.seed)
    seats = exp.seats(job.rotation, game.players)
    cache = (bots if bots is not None else {}).setdefault(str(game), {})
    state, result = play_game(game, seats, job.seed, cache, exp.max_steps)
    return row_to_json(job.variant, job.seed, job.rotation, result,
                       game_metrics(game, job.seed, state, result, with_leads))


def _play_many(exp: Experiment, jobs: list[Job], with_leads: bool) -> list[dict[str, Any]]:
    cache: dict[str, dict[str, Bot]] = {}
    return [play_job(exp, job, cache, with_leads) for job in jobs]


@dataclass
class Stop:
    """`--until-decided`: the metric to test, the difference that matters, and the variants."""

    metric: str
    sprt: Sprt
    baseline: str
    other: str


def decided(exp: Experiment, rows: Iterable[dict[str, Any]], stop: Stop) -> tuple[str | None, int]:
    """The sequential test's verdict at the first complete seed (in seed order) at which it
    decides, and how many games per variant it took (or all of them so far)."""
    by_key: dict[tuple[int, int], dict[str, float | None]] = {}
    for row in rows:   # None: the metric does not apply to this game (a side not in it)
        by_key.setdefault((row["seed"], row["rotation"]), {})[row["variant"]] = \
            metric_value(stop.metric, row["metrics"])
    games, n, total, sumsq, differing = 0, 0, 0.0, 0.0, 0
    for seed in exp.seeds:
        pairs = [by_key.get((seed, r), {}) for r in range(exp.rotations)]
        if not all(stop.baseline in p and stop.other in p for p in pairs):
            break
        games += len(pairs)
        for p in pairs:
            a, b = p[stop.baseline], p[stop.other]
            if a is None or b is None:
                continue
            d = b - a
            n, total, sumsq, differing = n + 1, total + d, sumsq + d * d, differing + (d != 0)
        code = int(stop.sprt.codes(n, total, sumsq, differing)) if n else 0
        if code:
            return VERDICTS[code], games
    return None, games


def run(exp: Experiment, store: ResultStore, workers: int = 1, progress: Progress | None = None,
        stop: Stop | None = None, with_leads: bool = True, chunk: int | None = None,
        ray: Any = None) -> tuple[str | None, int]:
    """Play every missing game (seed by seed), storing each as it finishes: in this process
    (`workers` 1), a local process pool, or on Ray (`ray`: the module, from `connect_ray`;
    `workers` then bounds the batches in flight). Returns the SPRT's verdict and the games it
    took when `stop` is given."""
    done = store.done()
    todo = [j for j in exp.jobs() if (j.variant, j.seed, j.rotation) not in done]
    total = sum(1 for _ in exp.jobs())
    finished = total - len(todo)
    seen = list(store.rows()) if stop is not None else []   # what the sequential test reads

    def take(rows: list[dict[str, Any]]) -> tuple[str | None, int] | None:
        """Store a finished batch; the SPRT's verdict once it decides."""
        nonlocal finished
        if rows:
            store.add(rows)
            finished += len(rows)
            seen.extend(rows)
        if progress:
            progress(finished, total)
        if stop is not None:
            verdict = decided(exp, seen, stop)
            if verdict[0] is not None:
                return verdict
        return None

    def result() -> tuple[str | None, int]:
        return decided(exp, seen, stop) if stop is not None else (None, exp.games_per_variant)

    early = take([])
    if early is not None:
        return early
    size = chunk or max(1, min(16, len(todo) // (4 * max(1, workers)) or 1))
    batches = [todo[i:i + size] for i in range(0, len(todo), size)]
    if workers <= 1 and ray is None:
        for batch in batches:
            early = take(_play_many(exp, batch, with_leads))
            if early is not None:
                return early
        return result()
    pool: _Pool = _RayPool(ray, workers) if ray is not None else _LocalPool(workers)
    try:
        pending: set[Any] = set()
        queue = iter(batches)

        def fill() -> None:
            for batch in queue:
                pending.add(pool.submit(exp, batch, with_leads))
                if len(pending) >= 2 * workers:
                    return

        fill()
        while pending:
            ready, rest = pool.wait(pending)
            pending.clear()
            pending.update(rest)
            for handle in ready:
                early = take(pool.result(handle))
                if early is not None:
                    pool.cancel(pending)
                    return early
            fill()
    finally:
        pool.close()
    return result()


class _Pool(Protocol):
    """Where batches of games are played: this machine's processes, or a Ray cluster."""

    def submit(self, exp: Experiment, batch: list[Job], with_leads: bool) -> Any: ...
    def wait(self, pending: set[Any]) -> tuple[set[Any], set[Any]]: ...
    def result(self, handle: Any) -> list[dict[str, Any]]: ...
    def cancel(self, pending: set[Any]) -> None: ...
    def close(self) -> None: ...


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def die_with_parent(lab: int) -> None:
    """In a worker, first thing: die when the lab's process (`lab`) does, however it dies
    (SIGTERM, SIGKILL). On Linux the kernel sends SIGKILL when the parent exits
    (PR_SET_PDEATHSIG); everywhere a watchdog thread checks once a second that the parent is
    still the same. (The parent is the lab, or the forkserver that the lab started.)"""
    if sys.platform.startswith("linux"):
        try:
            import ctypes
            ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL))   # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    parent = os.getppid()
    if parent != lab and not _alive(lab):   # the lab died before the line above took effect
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, name="takujo-lab-watchdog", daemon=True).start()


#: a batch played in a worker process: its games' result rows, when done
_Batch = Future[list[dict[str, Any]]]


class _LocalPool:
    def __init__(self, workers: int) -> None:
        self.pool = ProcessPoolExecutor(max_workers=workers, initializer=die_with_parent,
                                        initargs=(os.getpid(),))

    def submit(self, exp: Experiment, batch: list[Job], with_leads: bool) -> _Batch:
        return self.pool.submit(_play_many, exp, batch, with_leads)

    def wait(self, pending: set[_Batch]) -> tuple[set[_Batch], set[_Batch]]:
        ready, rest = wait(pending, return_when=FIRST_COMPLETED)
        return set(ready), set(rest)

    def result(self, handle: _Batch) -> list[dict[str, Any]]:
        return handle.result()

    def cancel(self, pending: set[_Batch]) -> None:
        for fut in pending:
            fut.cancel()

    def close(self) -> None:
        self.pool.shutdown(cancel_futures=True)


class _RayPool:
    """Batches as Ray tasks (one CPU each) on the cluster `ray.init` joined."""

    def __init__(self, ray: Any, workers: int) -> None:
        self.ray = ray
        self.remote = ray.remote(num_cpus=1)(_play_many)

    def submit(self, exp: Experiment, batch: list[Job], with_leads: bool) -> Any:
        return self.remote.remote(exp, batch, with_leads)

    def wait(self, pending: set[Any]) -> tuple[set[Any], set[Any]]:
        ready, rest = self.ray.wait(list(pending), num_returns=1)
        return set(ready), set(rest)

    def result(self, handle: Any) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = self.ray.get(handle)     # what `_play_many` returned
        return rows

    def cancel(self, pending: set[Any]) -> None:
        for ref in pending:
            self.ray.cancel(ref)

    def close(self) -> None:
        pass


def connect_ray(address: str) -> Any:
    """Ray, started on this machine (`local`) or joined to the cluster at `address`."""
    try:
        import ray
    except ImportError:
        from ..core.errors import OptionError
        raise OptionError("lab.no_ray") from None
    if not ray.is_initialized():
        import logging
        ray.init(address=None if address == "local" else address, include_dashboard=False,
                 logging_level=logging.WARNING, log_to_driver=False, configure_logging=False)
    return ray


def default_workers() -> int:
    return max(1, os.cpu_count() or 1)
