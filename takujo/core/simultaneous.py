"""Hidden choices revealed together: every listed player commits, then all are revealed.

`Commits` is plain data. The committed actions stay hidden (a game shows only *whether* a
player has committed, through an owner-only zone) until `complete` is true and the game
reveals them at once. With ``ordered=True`` the players commit one after another in
`players` order (Fuutei's battle support: the invader first, then the defender, who sees
*that* a card lies face down, never which); otherwise all at once.

Who commits is fixed from public facts when the commits open: a player with no card to
place still commits (a "no card" action), so the decision names the same players whatever
anyone holds (docs/architecture.md, contract 7).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Sequence

from .action import Action

if TYPE_CHECKING:
    from .state import State


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

    def to_json(self) -> dict[str, Any]:
        data = {"players": list(self.players), "choices": [[p, str(a)] for p, a in self.choices.items()]}
        if self.ordered:
            data["ordered"] = True
        return data

    @staticmethod
    def from_json(data: dict[str, Any]) -> "Commits":
        return Commits(list(data["players"]), {p: Action.parse(a, p) for p, a in data["choices"]},
                       bool(data.get("ordered", False)))


def commit_face_down(state: "State", commits: Commits, action: Action, cards: Sequence[int] = (),
                     src: list[int] | None = None, dst: list[int] | None = None,
                     event: str | None = None, **fields: Any) -> bool:
    """`action` becomes its player's hidden choice; each of `cards` moves from `src` to `dst`
    (a zone only its owner sees). With `event`, everyone is told ``{player, **fields}``: that
    (or how many) the player committed, never what (the action itself is logged to its maker
    alone, the decision being a hidden one). Whether everyone has now committed."""
    commits.commit(action)
    if cards:
        assert src is not None and dst is not None
        for card in cards:
            src.remove(card)
            dst.append(card)
    if event is not None:
        state.say(event, player=action.player, **fields)
    return commits.complete


def rebuild_commits(players: Sequence[int], committed: Sequence[int], choice: Callable[[int], Action],
                    ordered: bool = False) -> Commits:
    """The commits of a sampled world (a determinization): who has committed is public;
    `choice(p)` reads each one's choice back from the sampled hidden zone."""
    return Commits(list(players), {p: choice(p) for p in committed}, ordered)
