"""Response windows: a stack of decision frames offered to eligible players in order.

A game pushes a `Window` when something can be answered (a counter card, a battle
stratagem). **Who is polled is fixed when the window opens, from facts every player sees**
(e.g. "every other player with a card in hand"), never from the cards they hold: a window
that opened only when someone held a response would tell everyone that someone does
(docs/architecture.md, contract 8). A polled player with nothing to play is still asked,
and may only pass.

A single-round window (``cycle=False``) asks each player of `order` once; a cycling window
(``cycle=True``) goes round and round, as players take turns to respond, until every player
has passed in succession. Frames are plain data.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .plain import copy_plain


@dataclass(slots=True)
class Window:
    kind: str
    order: list[int]
    pos: int = 0
    data: dict[str, Any] = field(default_factory=dict)
    cycle: bool = False
    passes: int = 0

    @property
    def responder(self) -> int | None:
        """The player being asked now, or None once the window is closed."""
        if not self.order:
            return None
        if self.cycle:
            return self.order[self.pos] if self.passes < len(self.order) else None
        return self.order[self.pos] if self.pos < len(self.order) else None

    def passed(self) -> None:
        if self.cycle:
            self.passes += 1
            self.pos = (self.pos + 1) % len(self.order)
        else:
            self.pos += 1

    def acted(self) -> None:
        """The current player responded: in a cycling window everyone may answer again."""
        if self.cycle:
            self.passes = 0
            self.pos = (self.pos + 1) % len(self.order)
        else:
            self.pos += 1

    def clone(self) -> "Window":
        return Window(self.kind, list(self.order), self.pos, copy_plain(self.data), self.cycle, self.passes)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "order": list(self.order), "pos": self.pos,
                "data": copy_plain(self.data), "cycle": self.cycle, "passes": self.passes}

    @staticmethod
    def from_json(data: dict[str, Any]) -> "Window":
        return Window(data["kind"], list(data["order"]), data["pos"], copy_plain(data["data"]),
                      data.get("cycle", False), data.get("passes", 0))


def polling_order(first: int, players: int) -> list[int]:
    """Everyone, in turn order, starting from `first`."""
    return [(first + i) % players for i in range(players)]
