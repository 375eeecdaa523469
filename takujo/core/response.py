"""Response windows: a stack of decision frames offered to eligible players in order.

A game pushes a `Window` when something can be answered (a counter card, a battle
stratagem). Players are polled in `order`; `advance` skips those with nothing legal, so a
window with no eligible player closes at once. A single-round window (``cycle=False``) asks
each player once; a cycling window (``cycle=True``) goes round and round, as players take
turns to respond, until every player has passed in succession. Frames are plain data.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable


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
        if self.cycle:
            return self.order[self.pos] if self.passes < len(self.order) else None
        return self.order[self.pos] if self.pos < len(self.order) else None

    def advance(self, can_respond: Callable[[int], bool]) -> int | None:
        """Move to the next player who can respond (staying on the current one if it can);
        players who cannot respond pass."""
        while self.responder is not None and not can_respond(self.order[self.pos]):
            self.passed()
        return self.responder

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
        return Window(self.kind, list(self.order), self.pos, dict(self.data), self.cycle, self.passes)

    def to_json(self) -> dict:
        return {"kind": self.kind, "order": list(self.order), "pos": self.pos,
                "data": dict(self.data), "cycle": self.cycle, "passes": self.passes}

    @staticmethod
    def from_json(data: dict) -> "Window":
        return Window(data["kind"], list(data["order"]), data["pos"], dict(data["data"]),
                      data.get("cycle", False), data.get("passes", 0))


def polling_order(first: int, players: int) -> list[int]:
    """Everyone, in turn order, starting from `first`."""
    return [(first + i) % players for i in range(players)]
