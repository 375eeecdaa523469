"""The heuristics' generic part: choosing a card effect and its targets by what the effect's
verb declares (`takujo.core.effects.Verb`: its `aim`, its `worth`, the kinds of its targets),
for the verbs a game's heuristic has no branch of its own for, so that a new verb is played
as soon as it is declared.

A ``"foe"`` verb harms the owner of its target: aimed at the leading opponent it is worth
more, aimed at the user's own things it is not played. An ``"own"`` verb helps its user: it
is played on the user's things only. A verb with no aim is worth its `worth`.
"""
from __future__ import annotations

from typing import Callable, Sequence, TypeVar

from ..core.effects import Verb
from ..core.targets import Kind, Typed

#: extra worth of a "foe" effect aimed at the leading opponent
LEADER_BONUS = 2.0


def aimed_worth(verb: Verb, targets: Sequence[Typed], me: int, owner: Callable[[Typed], int | None],
                leader: int | None) -> float | None:
    """What using `verb` on `targets` is worth to player `me`, or None when the targets go
    against its aim. `owner(target)` says whose a target is (a player target is its own
    owner; None: nobody's, such as a neutral place)."""
    score = verb.worth
    for t in targets:
        if t.target.kind not in (Kind.PLAYER, Kind.CARD, Kind.PLACE):
            continue
        whose = t.value if t.target.kind is Kind.PLAYER else owner(t)
        if verb.aim == "foe":
            if whose == me:
                return None
            if whose is not None and whose == leader:
                score += LEADER_BONUS
        elif verb.aim == "own" and whose is not None and whose != me:
            return None
    return score


C = TypeVar("C")


def best_aimed(options: Sequence[tuple[Verb, Sequence[Typed], C]], me: int,
               owner: Callable[[Typed], int | None], leader: int | None) -> tuple[C, float] | None:
    """The best of `options` (verb, its targets, what to return: usually the action) by
    `aimed_worth`, with its worth; None when none is worth playing (worth <= 0)."""
    best: tuple[C, float] | None = None
    for verb, targets, choice in options:
        worth = aimed_worth(verb, targets, me, owner, leader)
        if worth is not None and worth > 0 and (best is None or worth > best[1]):
            best = (choice, worth)
    return best
