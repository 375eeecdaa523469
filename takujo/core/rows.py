"""Per-player rows of values built once per game and reused on every step."""
from __future__ import annotations

from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


class PlayerRows(dict[K, tuple[V, ...]]):
    """``rows[key][p]`` is ``self.build(p, key)`` for each player p; each key's row is built on
    first use. Subclasses define `build` and may refuse a key in `check` (raise KeyError)."""

    def __init__(self, players: int) -> None:
        super().__init__()
        self.players = players

    def check(self, key: K) -> None:
        """Raise KeyError for a key that has no row."""

    def build(self, player: int, key: K) -> V:
        raise NotImplementedError

    def __missing__(self, key: K) -> tuple[V, ...]:
        self.check(key)
        row = self[key] = tuple([self.build(p, key) for p in range(self.players)])
        return row
