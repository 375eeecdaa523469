"""What an operator sets for `takujo serve`: the bots offered, the workers, the limits.

Every limit has a default fit for a public server on a small machine; `takujo serve --help`
and docs/deploy.md name the options that change them.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..core.errors import OptionError

#: The bot levels a server offers unless told otherwise (each game offers those it has).
DEFAULT_BOT_LEVELS = ("random", "heuristic", "ismcts:200", "ismcts:1000")
#: The most a bot level may spend on one move, whatever the operator configures.
MAX_ITERATIONS = 20_000
MAX_SECONDS = 10.0


def check_bot_level(level: str) -> str:
    """`level` if it names a bot within the hard budget cap; `OptionError` otherwise."""
    if level in ("random", "heuristic"):
        return level
    parts = level.split(":")
    if parts[0] != "ismcts" or len(parts) < 2 or len(parts) > 3 or (len(parts) == 3 and parts[2] != "h"):
        raise OptionError("bot.unknown", name=level[:40], known=["random", "heuristic", "ismcts:N", "ismcts:Ns"])
    budget = parts[1]
    try:
        amount = float(budget[:-1]) if budget.endswith("s") else int(budget)
    except ValueError:
        raise OptionError("bot.bad_budget", name=level[:40]) from None
    limit = MAX_SECONDS if budget.endswith("s") else MAX_ITERATIONS
    if not 0 < amount <= limit:
        raise OptionError("web.bot_budget", level=level[:40], iterations=MAX_ITERATIONS, seconds=MAX_SECONDS)
    return level


@dataclass(frozen=True)
class Limits:
    """Rates per client address (``N/second|minute|hour``, as the `limits` library reads
    them) and bounds on what one server process holds."""

    create: str = "20/minute"          # new matches and rematches
    actions: str = "240/minute"        # actions and undos, over HTTP and the WebSocket
    ws_messages: str = "600/minute"    # every WebSocket message
    ws_connects: str = "60/minute"     # WebSocket connections opened
    chat: str = "20/minute"            # chat lines
    uploads: str = "20/minute"         # records, decklists and card sets uploaded
    checks: str = "120/minute"         # card files checked as they are edited (nothing kept)
    requests: str = "1200/minute"      # every other HTTP request
    sockets_per_seat: int = 4          # open WebSockets with one seat's token
    sockets_per_address: int = 64      # open WebSockets from one address
    sockets: int = 4096                # open WebSockets in all
    live_matches: int = 2000           # matches held in memory (the least recently used leave first)
    idle_seconds: float = 300.0        # a match nobody watches leaves memory after this long
    finished_seconds: float = 30.0     # ... a finished one after this long
    page: int = 100                    # the most matches one page of GET /api/matches holds
    card_sets: int = 2000              # card sets the server keeps in all (each at most 512 KB)


@dataclass(frozen=True)
class Settings:
    """Everything `create_app` takes besides the store."""

    bot_levels: tuple[str, ...] = DEFAULT_BOT_LEVELS
    bot_workers: int | None = None     # worker processes for IS-MCTS (default: cores - 1, at least 2)
    bot_delay: float = 0.0             # seconds a bot waits before it moves (for people to follow)
    takeover_seconds: float = 2.0      # how often a process looks for matches whose bots stalled
    lab_dir: str | None = None         # where the Lab page's experiments are kept (default: beside the database, else the user's data folder)
    operator_token: str | None = None  # lets a remote operator start experiments (else: from this machine only)
    lab_slots: int = 1                 # experiments running at once
    limits: Limits = Limits()

    def __post_init__(self) -> None:
        for level in self.bot_levels:
            check_bot_level(level)
