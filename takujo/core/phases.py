"""Phases declared once: who decides, what they may do and what it does, side by side.

A state whose turn runs through named phases lists them in one table instead of three
parallel if-chains (in `pending`, `_legal` and `_apply`), as boardgame.io declares phases::

    class MyState(PhasedState):
        def _main_decision(self) -> Decision: ...
        def _main_actions(self, player: int) -> list[Action]: ...
        def _main_apply(self, action: Action) -> None: ...

        PHASES = {
            MAIN: Phase(_main_decision, _main_actions, _main_apply),
            ...
        }

The driver looks the phase up directly (``PHASES[self.phase]``, the hot path of every step);
a game with something that interrupts every phase (a response window) overrides
`current_phase` and the three methods below to look there first (風帝伝説FIGHTER).
"""
from __future__ import annotations

from typing import Any, Callable, ClassVar, Mapping, NamedTuple

from .action import Action
from .decision import Decision
from .state import State


class Phase(NamedTuple):
    """One phase: `decision(state)` is the pending decision, `legal(state, player)` that
    player's legal actions, `apply(state, action)` applies a legal one."""

    decision: Callable[[Any], Decision]
    legal: Callable[[Any, int], list[Action]]
    apply: Callable[[Any, Action], None]


class PhasedState(State):
    """A state driven by its `PHASES` table (see the module's docstring)."""

    PHASES: ClassVar[Mapping[str, Phase]] = {}
    phase: str

    def current_phase(self) -> Phase:
        """The entry of the phase in progress."""
        return self.PHASES[self.phase]

    @property
    def pending(self) -> Decision | None:
        if self.outcome is not None:
            return None
        return self.PHASES[self.phase].decision(self)

    def _legal(self, player: int) -> list[Action]:
        return self.PHASES[self.phase].legal(self, player)

    def _apply(self, action: Action) -> None:
        self.PHASES[self.phase].apply(self, action)
