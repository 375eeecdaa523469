"""The registry of games: names to Game classes, imported lazily, and games made from them."""
from __future__ import annotations

import importlib
from typing import Any

from .errors import OptionError
from .game import Game, parse_game_string

_GAMES: dict[str, str] = {}


def register(name: str, target: str) -> None:
    """Register ``name`` -> ``"module:ClassName"``."""
    _GAMES[name] = target


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


def player_range(cls: type[Game]) -> tuple[int | None, int | None]:
    """The (min, max) player count the game's options allow, where declared."""
    lo = hi = None
    for m in cls.Options.model_fields["players"].metadata:
        if getattr(m, "ge", None) is not None:
            lo = m.ge
        if getattr(m, "gt", None) is not None:
            lo = m.gt + 1
        if getattr(m, "le", None) is not None:
            hi = m.le
        if getattr(m, "lt", None) is not None:
            hi = m.lt - 1
    return lo, hi


def default_players(cls: type[Game]) -> int:
    """The game's default player count; else 4 where allowed; else the minimum."""
    info = cls.Options.model_fields["players"]
    if not info.is_required() and isinstance(info.default, int) and not isinstance(info.default, bool):
        return info.default
    lo, hi = player_range(cls)
    if (lo is None or lo <= 4) and (hi is None or hi >= 4):
        return 4
    return lo if lo is not None else 2


def make_game(spec: str, players: int | None = None, options: dict[str, Any] | None = None) -> Game:
    """A game from a name or game string, extra options (strings are coerced) and players.

    Without `players` (here, in the string or in `options`) the game's default is used
    (`default_players`); `load` takes the options as they are."""
    name, given = parse_game_string(spec)
    cls = game_class(name)
    opts: dict[str, Any] = {**given, **(options or {})}
    if players is not None:
        opts["players"] = players
    elif "players" not in opts:
        opts["players"] = default_players(cls)
    return cls(**opts)
