"""Actions are immutable values with a text notation, like moves in chess notation.

``str(action)`` gives the notation (``"invade 17 90"``); ``Action.parse(text, player)``
reads it back. Arguments are ints or short words; the acting player is carried beside.
"""
from __future__ import annotations

from typing import NamedTuple

from .errors import NotationError

Arg = int | str


class Action(NamedTuple):
    """One choice of one player: a verb and its arguments (a named tuple: cheap to build,
    hash and compare, which the search and the random-play loops do millions of times)."""

    player: int
    verb: str
    args: tuple[Arg, ...] = ()

    def __str__(self) -> str:
        return " ".join([self.verb, *map(str, self.args)])

    @staticmethod
    def parse(text: str, player: int) -> "Action":
        """Parse notation such as ``"equip 55 17"``; numbers become ints."""
        parts = str(text).split()
        if not parts:
            raise NotationError("empty action text")
        verb, *rest = parts
        if not verb.isidentifier():
            raise NotationError(f"bad action verb {verb!r} in {text!r}")
        args: list[Arg] = []
        for part in rest:
            try:
                args.append(int(part))
            except ValueError:
                args.append(part)
        return Action(player, verb, tuple(args))
