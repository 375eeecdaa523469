"""Simultaneous hidden choices: every listed player commits, then all are revealed together.

`Commits` is plain data. The committed actions stay hidden (a game shows only *whether* a
player has committed, through an owner-only zone) until `complete` is true and the game
reveals them at once.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .action import Action


@dataclass(slots=True)
class Commits:
    players: list[int]
    choices: dict[int, Action] = field(default_factory=dict)  # player -> committed action

    def waiting(self) -> tuple[int, ...]:
        return tuple(p for p in self.players if p not in self.choices)

    def commit(self, action: Action) -> None:
        self.choices[action.player] = action

    @property
    def complete(self) -> bool:
        return len(self.choices) == len(self.players)

    def reveal(self) -> list[Action]:
        """The committed actions, in `players` order."""
        return [self.choices[p] for p in self.players]

    def clone(self) -> "Commits":
        return Commits(list(self.players), dict(self.choices))

    def to_json(self) -> dict:
        return {"players": list(self.players), "choices": [[p, str(a)] for p, a in self.choices.items()]}

    @staticmethod
    def from_json(data: dict) -> "Commits":
        return Commits(list(data["players"]), {p: Action.parse(a, p) for p, a in data["choices"]})
