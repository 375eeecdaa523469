"""Bots thinking for the server, off its event loop.

`think` runs in a worker process (IS-MCTS) or a worker thread (the cheap bots): it sees only
the seat's view and legal actions, like every bot, and returns the chosen action's notation.
Its random stream is derived from the match's seed, the seat and the version, so that a
restarted server's bots play on exactly as they would have.
"""
from __future__ import annotations

import os
import signal
from functools import lru_cache
from typing import Any

from ..bots import Bot, make_bot
from ..core import sources
from ..core.action import Action
from ..core.game import Game
from ..core.registry import load
from ..core.rng import Rng

#: Bots quick enough to think on a thread; any other (IS-MCTS) thinks in a worker process.
CHEAP_BOTS = frozenset({"random", "heuristic"})
#: Bots that choose in microseconds, on the event loop itself.
INLINE_BOTS = frozenset({"random"})


@lru_cache(maxsize=32)
def _game(spec: str) -> Game:
    return load(spec)


@lru_cache(maxsize=64)
def _bot(spec: str, name: str) -> Bot:
    return make_bot(name, _game(spec))


def worker_started(server: int) -> None:
    """In a bot worker process: leave Ctrl-C to the server (process `server`), and end when
    the server ends, however it ends (Linux: the parent-death signal), so that no worker
    outlives it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        import ctypes
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != server:  # the server died before the signal was asked for
        os._exit(0)


def bot_seed(seed: int, seat: int, version: int) -> int:
    """The seed of a bot's random stream for one decision."""
    return (seed * 1_000_003 + seat * 7919 + version * 104_729) % (1 << 63)


def think(spec: str, name: str, view: dict[str, Any], legal: list[Action], seed: int,
          sets: dict[str, str] | None = None) -> str:
    """The notation of the action bot `name` chooses in game `spec` from `view`; `sets`: the
    texts of the uploaded card sets the game string names (a worker process holds none)."""
    for text in (sets or {}).values():
        if sources.text_of(sources.name_of(text)) is None:
            sources.register(text)
    return str(_bot(spec, name).act(view, legal, Rng(seed).fork()))
