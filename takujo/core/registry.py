"""The registry of games: names to Game classes, imported lazily."""
from __future__ import annotations

import importlib
from typing import Any

from .errors import OptionError
from .game import Game, parse_game_string

_GAMES: dict[str, str] = {}


def register(name: str, target: str) -> None:
    """Register ``name`` -> ``"module:ClassName"``."""
    _GAMES[name] = target


def unregister(name: str) -> None:
    _GAMES.pop(name, None)


def names() -> list[str]:
    return sorted(_GAMES)


def game_class(name: str) -> type[Game]:
    try:
        target = _GAMES[name]
    except KeyError:
        raise OptionError("game.unknown", name=name, known=names()) from None
    module, _, cls = target.partition(":")
    game: type[Game] = getattr(importlib.import_module(module), cls)
    return game


def load(spec: str, **options: Any) -> Game:
    """A game by name or game string, e.g. ``load("fuutei", players=3)`` or
    ``load("fuutei(players=3,center_regions=effects_only)")``."""
    name, parsed = parse_game_string(spec)
    parsed.update(options)
    return game_class(name)(**parsed)
