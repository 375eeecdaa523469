"""Rates per client address, with the `limits` library: a sliding window counter in memory
(two counters a key, whatever the rate: a moving window would keep one entry a request).

Each process counts for itself: behind a balancer that spreads one address over N processes,
an address gets up to N times a limit. A refused request gets 429 with ``Retry-After`` and
the JSON error body (`RateLimited` carries what it needs).
"""
from __future__ import annotations

import math
import time
from typing import Any
from dataclasses import fields

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import SlidingWindowCounterRateLimiter

from ..core.errors import OptionError, TakujoError
from .settings import Limits

#: The rate limits a client's requests count against (the fields of `Limits` that are rates).
RATES = ("create", "actions", "ws_messages", "ws_connects", "chat", "uploads", "checks", "requests")


class RateLimited(TakujoError):
    """Too many requests of one kind from one address; `retry_after` seconds to wait."""

    def __init__(self, message_id: str, **args: Any) -> None:
        super().__init__(message_id, **args)
        self.limit, self.retry_after = str(args["limit"]), int(args["retry"])


def parse_rate(name: str, text: str) -> RateLimitItem:
    """A rate such as ``20/minute``; `OptionError` naming the limit if it is not one."""
    try:
        return parse(text)
    except ValueError:
        raise OptionError("web.bad_rate", limit=name, value=text[:40]) from None


class QuietMemoryStorage(MemoryStorage):
    """`limits`' memory storage without its expiry thread (it starts a new thread every
    10 ms while requests arrive, which costs the server more than the counting itself):
    the server calls `expire` from its own periodic sweep instead. Counting does not depend
    on it (a counter past its expiry is dropped when read); expiring only frees memory."""

    def _MemoryStorage__schedule_expiry(self) -> None:  # overrides the private scheduler
        pass

    def expire(self) -> None:
        self._MemoryStorage__expire_events()  # type: ignore[attr-defined]
        for key in [k for k, events in self.events.items() if not events]:
            del self.events[key]


class RateLimiter:
    """Counts requests per (kind, address) against the server's `Limits`."""

    def __init__(self, limits: Limits) -> None:
        self._items = {name: parse_rate(name, getattr(limits, name)) for name in RATES}
        self._texts = {name: str(getattr(limits, name)) for name in RATES}
        self.storage = QuietMemoryStorage()
        self._limiter = SlidingWindowCounterRateLimiter(self.storage)

    def expire(self) -> None:
        """Forget the counts that no window holds any more."""
        self.storage.expire()

    def hit(self, kind: str, address: str) -> None:
        """Count one request; `RateLimited` if it is one too many."""
        item = self._items[kind]
        if not self._limiter.hit(item, kind, address):
            reset = self._limiter.get_window_stats(item, kind, address).reset_time
            raise RateLimited("web.rate_limited", limit=kind, rate=self._texts[kind],
                              retry=max(1, math.ceil(reset - time.time())))

