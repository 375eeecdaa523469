"""Hidden choices revealed together: every listed player commits, then all are revealed.

`Commits` is plain data. The committed actions stay hidden (a game shows only *whether* a
player has committed, through an owner-only zone) until `complete` is true and the game
reveals them at once. With ``ordered=True`` the players commit one after another in
`players` order (Fuutei's battle support: the invader first, then the defender, who sees
*that* a card lies face down, never which); otherwise all at once.

Who commits is fixed from public facts when the commits open: a player with no card to
place still commits (a "no card" action), so the decision names the same players whatever
anyone holds (DESIGN contract 7).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .action import Action


@dataclass(slots=True)
class Commits:
    players: list[int]
    choices: dict[int, Action] = field(default_factory=dict)  # player -> committed action
    ordered: bool = False

    def waiting(self) -> tuple[int, ...]:
        """Who is to commit now: everyone not yet committed, or (ordered) the next one."""
        if self.ordered:
            nxt = next((p for p in self.players if p not in self.choices), None)
            return () if nxt is None else (nxt,)
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
        return Commits(list(self.players), dict(self.choices), self.ordered)

    def to_json(self) -> dict:
        data = {"players": list(self.players), "choices": [[p, str(a)] for p, a in self.choices.items()]}
        if self.ordered:
            data["ordered"] = True
        return data

    @staticmethod
    def from_json(data: dict) -> "Commits":
        return Commits(list(data["players"]), {p: Action.parse(a, p) for p, a in data["choices"]},
                       bool(data.get("ordered", False)))
