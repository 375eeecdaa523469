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


BOT_NAMES = ("random", "heuristic", "ismcts:N", "ismcts:Ts", "ismcts:N:h")


def _heuristic_or_none(game: Game) -> Bot | None:
    try:
        return game.heuristic_bot()
    except NotImplementedError:
        return None


def make_bot(name: str, game: Game) -> Bot:
    """A bot by name for `game`: ``random``, ``heuristic`` (the game's own), or
    ``ismcts:200`` (200 iterations a move) / ``ismcts:2s`` (two seconds a move), with
    ``:h`` appended for rollouts played by the heuristic. IS-MCTS takes the game's heuristic,
    when it has one, as its prior at the root."""
    if name == "random":
        return RandomBot()
    if name.startswith("ismcts"):
        from .ismcts import ISMCTS
        parts = name.split(":")
        budget = parts[1] if len(parts) > 1 and parts[1] else "200"
        policy = None
        if len(parts) > 2:
            if parts[2] != "h" or len(parts) > 3:
                raise OptionError(f"bad bot {name!r}; use ismcts:N, ismcts:Ts, or add :h for heuristic rollouts")
            policy = make_bot("heuristic", game)
        prior = _heuristic_or_none(game)
        try:
            if budget.endswith("s"):
                return ISMCTS(game, iterations=None, seconds=float(budget[:-1]), rollout_policy=policy, prior=prior)
            return ISMCTS(game, iterations=int(budget), rollout_policy=policy, prior=prior)
        except ValueError:
            raise OptionError(f"bad bot {name!r}; use ismcts:ITERATIONS or ismcts:SECONDSs") from None
    if name == "heuristic":
        try:
            return game.heuristic_bot()
        except NotImplementedError:
            raise OptionError(f"{game.name} has no heuristic bot; use random") from None
    raise OptionError(f"unknown bot {name!r}; choose from {', '.join(BOT_NAMES)}")
