"""Actions are immutable values with a text notation, like moves in chess notation.

``str(action)`` gives the notation (``"invade 17 90"``); ``Action.parse(text, player)``
reads it back. Arguments are ints or short words; the acting player is carried beside.
"""
from __future__ import annotations

from typing import Any, Callable, NamedTuple, Sequence

from .errors import NotationError
from .rows import PlayerRows

Arg = int | str


class Action(NamedTuple):
    """One choice of one player: a verb and its arguments (a named tuple: cheap to build,
    hash and compare, which the search and the random-play loops do millions of times)."""

    player: int
    verb: str
    #: ints or words (`Arg`); typed Any because each verb fixes which, and its game reads them so
    args: tuple[Any, ...] = ()

    def __str__(self) -> str:
        args = self.args
        n = len(args)                  # the common shapes first: notation is logged every step
        if n == 0:
            return self.verb
        if n == 1:
            return f"{self.verb} {args[0]}"
        if n == 2:
            return f"{self.verb} {args[0]} {args[1]}"
        return " ".join([self.verb, *map(str, args)])

    @staticmethod
    def parse(text: str, player: int) -> "Action":
        """Parse notation such as ``"equip 55 17"``; numbers become ints."""
        parts = str(text).split()
        if not parts:
            raise NotationError("action.empty")
        verb, *rest = parts
        if not verb.isidentifier():
            raise NotationError("action.bad_verb", verb=verb, text=text)
        args: list[Arg] = []
        for part in rest:
            try:
                args.append(int(part))
            except ValueError:
                args.append(part)
        return Action(player, verb, tuple(args))


class ActionTable:
    """Actions of small-int arguments, built once and reused: ``table.row(p, a)[b]`` is
    ``Action(p, verb, (*heads[a], b, *tail))`` for 0 <= a < len(heads), 0 <= b < cols; by
    default ``heads[a]`` is ``(a,)`` and the tail empty, so the action is ``verb a b`` (a tail
    gives ``koku 12 up``). Legal-action generation is the
    hottest code of random play and search, and much of its cost is building the same actions
    again; a game keeps one table per verb (each row is built on first use)."""

    __slots__ = ("verb", "players", "rows", "cols", "heads", "tail", "_rows", "_by_player")

    def __init__(self, verb: str, players: int, rows: int, cols: int,
                 heads: Sequence[tuple[Arg, ...]] | None = None, tail: tuple[Arg, ...] = ()) -> None:
        if heads is not None and len(heads) != rows:
            raise ValueError(f"{verb}: {len(heads)} argument heads for {rows} rows")
        self.verb, self.players, self.rows, self.cols = verb, players, rows, cols
        self.heads = heads
        self.tail = tail
        self._rows: list[tuple[Action, ...] | None] = [None] * (players * rows)
        self._by_player: list[tuple[tuple[Action, ...], ...] | None] = [None] * players

    @classmethod
    def unary(cls, verb: str, players: int, cols: int, tail: tuple[Arg, ...] = ()) -> "ActionTable":
        """Actions ``verb b`` of one small-int argument: ``table.row(p, 0)[b]``."""
        return cls(verb, players, 1, cols, heads=((),), tail=tail)

    def row(self, player: int, a: int) -> tuple[Action, ...]:
        """Every action of row `a` for `player`, indexed by its last argument."""
        if 0 <= a < self.rows and 0 <= player < self.players:
            row = self._rows[player * self.rows + a]
            return row if row is not None else self._build_row(player, a)
        raise IndexError(f"{self.verb}: no actions for player {player} in row {a} "
                         f"(players 0..{self.players - 1}, rows 0..{self.rows - 1})")

    def rows_of(self, player: int) -> tuple[tuple[Action, ...], ...]:
        """Every row of `player`, built at once on first use: ``rows_of(p)[a][b]`` (for loops
        that pick from many rows, where one call per row would cost more than the lookup)."""
        if 0 <= player < self.players:
            rows = self._by_player[player]
            return rows if rows is not None else self._build_rows_of(player)
        raise IndexError(f"{self.verb}: no actions for player {player} (players 0..{self.players - 1})")

    # Building is kept out of the lookups above, which then allocate nothing once built.
    def _build_row(self, player: int, a: int) -> tuple[Action, ...]:
        head = self.heads[a] if self.heads is not None else (a,)
        verb, tail = self.verb, self.tail
        row = self._rows[player * self.rows + a] = tuple([Action(player, verb, (*head, b, *tail))
                                                          for b in range(self.cols)])
        return row

    def _build_rows_of(self, player: int) -> tuple[tuple[Action, ...], ...]:
        rows = self._by_player[player] = tuple([self.row(player, a) for a in range(self.rows)])
        return rows


class BareActions(PlayerRows[str, "Action"]):
    """Actions without arguments, built once per game: ``bare["end"][p]`` is
    ``Action(p, "end")``."""

    def check(self, verb: str) -> None:
        if not isinstance(verb, str) or not verb.isidentifier():
            raise KeyError(f"bad action verb {verb!r}")

    def build(self, player: int, verb: str) -> Action:
        return Action(player, verb)


class ActionTables(dict[str, ActionTable]):
    """``tables[verb]``: one `ActionTable` per verb, made by `make(verb)` on first use (a
    game's per-card actions: ``game.card_actions["discard"].row(p, 0)[card]``)."""

    def __init__(self, make: "Callable[[str], ActionTable]") -> None:
        super().__init__()
        self.make = make

    def __missing__(self, verb: str) -> ActionTable:
        if not isinstance(verb, str) or not verb.isidentifier():
            raise KeyError(f"bad action verb {verb!r}")
        table = self[verb] = self.make(verb)
        return table
