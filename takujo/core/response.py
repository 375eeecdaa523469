"""Response windows: a stack of decision frames offered to eligible players in order.

A game pushes a `Window` when something can be answered (a counter card, a battle
stratagem). Players are polled in `order`; `advance` skips those with nothing legal, so a
window with no eligible player closes at once. Frames are plain data for clone and JSON.
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

    @property
    def responder(self) -> int | None:
        return self.order[self.pos] if self.pos < len(self.order) else None

    def advance(self, can_respond: Callable[[int], bool]) -> int | None:
        """Move to the next player who can respond (staying on the current one if it can)."""
        while self.pos < len(self.order) and not can_respond(self.order[self.pos]):
            self.pos += 1
        return self.responder

    def passed(self) -> None:
        self.pos += 1

    def clone(self) -> "Window":
        return Window(self.kind, list(self.order), self.pos, dict(self.data))

    def to_json(self) -> dict:
        return {"kind": self.kind, "order": list(self.order), "pos": self.pos, "data": dict(self.data)}

    @staticmethod
    def from_json(data: dict) -> "Window":
        return Window(data["kind"], list(data["order"]), data["pos"], dict(data["data"]))


def polling_order(first: int, players: int) -> list[int]:
    """Everyone, in turn order, starting from `first`."""
    return [(first + i) % players for i in range(players)]
