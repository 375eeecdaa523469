"""Bots choose among legal actions from a player's view only.

Every bot has ``act(view, legal, rng) -> Action``: `view` is ``state.view(player)``, `legal`
the player's legal actions, `rng` the bot's own random stream (never the game's).
"""
from __future__ import annotations

from typing import Any, Protocol

from ..core.action import Action
from ..core.errors import OptionError
from ..core.game import Game
from ..core.rng import Rng


class Bot(Protocol):
    name: str

    def act(self, view: dict[str, Any], legal: list[Action], rng: Rng) -> Action: ...


class RandomBot:
    """Uniformly random among the legal actions."""

    name = "random"

    def act(self, view: dict[str, Any], legal: list[Action], rng: Rng) -> Action:
        return legal[rng.below(len(legal))]


BOT_NAMES = ("random", "heuristic", "ismcts:N", "ismcts:Ts", "ismcts:N:h", "learned", "learned:FILE.npz")


def _heuristic_or_none(game: Game) -> Bot | None:
    try:
        return game.heuristic_bot()
    except NotImplementedError:
        return None


def make_bot(name: str, game: Game) -> Bot:
    """A bot by name for `game`: ``random``, ``heuristic`` (the game's own), or
    ``ismcts:200`` (200 iterations a move) / ``ismcts:2s`` (two seconds a move), with
    ``:h`` appended for rollouts played by the heuristic. IS-MCTS takes the game's heuristic,
    when it has one, as its prior at the root. ``learned`` plays the network trained by
    self-play that ships for the game's configuration (``learned:FILE.npz`` another one)."""
    if not isinstance(name, str):
        raise OptionError("bot.not_str", value=repr(name)[:40])
    if name == "random":
        return RandomBot()
    if name.startswith("ismcts"):
        from .ismcts import ISMCTS
        parts = name.split(":")
        budget = parts[1] if len(parts) > 1 and parts[1] else "200"
        policy = None
        if len(parts) > 2:
            if parts[2] != "h" or len(parts) > 3:
                raise OptionError("bot.bad_ismcts", name=name)
            policy = make_bot("heuristic", game)
        prior = _heuristic_or_none(game)
        try:
            amount = float(budget[:-1]) if budget.endswith("s") else int(budget)
        except ValueError:
            raise OptionError("bot.bad_budget", name=name) from None
        if budget.endswith("s"):
            if not 0 < amount <= 3600:          # also refuses nan
                raise OptionError("bot.bad_seconds", name=name, limit=3600)
            return ISMCTS(game, iterations=None, seconds=amount, rollout_policy=policy, prior=prior)
        iterations = int(amount)
        if not 1 <= iterations <= 10_000_000:
            raise OptionError("bot.bad_iterations", name=name, limit=10_000_000)
        return ISMCTS(game, iterations=iterations, rollout_policy=policy, prior=prior)
    if name == "learned" or name.startswith("learned:"):
        from .learned import make_learned
        return make_learned(name, game)
    if name == "heuristic":
        try:
            return game.heuristic_bot()
        except NotImplementedError:
            raise OptionError("bot.no_heuristic", game=game.name) from None
    raise OptionError("bot.unknown", name=name, known=list(BOT_NAMES))
