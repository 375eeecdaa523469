"""Bot moves shared fairly among matches.

Each match's bots move one at a time (a match waits for its bot's move before asking for the
next), and the matches waiting for a worker are served least-used first: the match that used
the least worker time lately (decaying with a half-life) goes next. So a match whose bots
think long cannot starve one whose bots think briefly: the cheap match's moves go first
whenever both wait, and at worst it waits for one move of the other.
"""
from __future__ import annotations

import asyncio
import functools
import math
import time
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any, Callable

#: Worker time used counts half after this many seconds.
HALF_LIFE = 30.0


@dataclass
class _Job:
    key: str
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    done: asyncio.Future[Any]


@dataclass
class _Usage:
    seconds: float = 0.0
    at: float = field(default_factory=time.monotonic)

    def now(self, now: float) -> float:
        """The decayed worker time at `now`."""
        return self.seconds * math.exp(-(now - self.at) * math.log(2) / HALF_LIFE)


class FairScheduler:
    """Runs jobs on `executor` with at most `slots` at once, least-used key first."""

    def __init__(self, executor: Executor, slots: int) -> None:
        self.executor = executor
        self.slots = slots
        self.running = 0
        self._waiting: list[_Job] = []
        self._usage: dict[str, _Usage] = {}

    @property
    def queued(self) -> int:
        """Jobs waiting for a worker."""
        return len(self._waiting)

    async def run(self, key: str, fn: Callable[..., Any], *args: Any) -> Any:
        """`fn(*args)` on a worker, when it is `key`'s turn; its result."""
        job = _Job(key, fn, args, asyncio.get_running_loop().create_future())
        self._waiting.append(job)
        self._dispatch()
        try:
            return await job.done
        except asyncio.CancelledError:
            if job in self._waiting:
                self._waiting.remove(job)
            raise

    def forget(self, key: str) -> None:
        """Drop what `key` used (its match left memory)."""
        self._usage.pop(key, None)

    def _used(self, key: str, now: float) -> float:
        usage = self._usage.get(key)
        return usage.now(now) if usage else 0.0

    def _dispatch(self) -> None:
        loop = asyncio.get_running_loop()
        while self.running < self.slots and self._waiting:
            now = time.monotonic()
            job = min(self._waiting, key=lambda j: self._used(j.key, now))
            self._waiting.remove(job)
            if job.done.cancelled():
                continue
            self.running += 1
            started = time.monotonic()
            future = loop.run_in_executor(self.executor, job.fn, *job.args)
            future.add_done_callback(functools.partial(self._finished, job, started=started))

    def _finished(self, job: _Job, future: asyncio.Future[Any], *, started: float) -> None:
        self.running -= 1
        now = time.monotonic()
        usage = self._usage.setdefault(job.key, _Usage(at=now))
        usage.seconds, usage.at = usage.now(now) + (now - started), now
        if not job.done.done():
            if future.cancelled():
                job.done.cancel()
            elif future.exception() is not None:
                job.done.set_exception(future.exception())  # type: ignore[arg-type]
            else:
                job.done.set_result(future.result())
        self._dispatch()
