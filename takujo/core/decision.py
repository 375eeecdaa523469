"""What the game waits for: who must act, and in what kind of decision."""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, NamedTuple

from .rows import PlayerRows


class DecisionKind(str, Enum):
    TURN = "turn"                  # one player chooses
    SIMULTANEOUS = "simultaneous"  # each listed player commits a hidden choice; revealed together
    RESPONSE = "response"          # a player is offered a response (e.g. a counter card) or passes


class Decision(NamedTuple):
    """Built on every call of ``pending``; a named tuple keeps that cheap."""

    kind: DecisionKind
    players: tuple[int, ...]
    prompt: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "players": list(self.players), "prompt": self.prompt}


class TurnDecisions(PlayerRows[str, "Decision"]):
    """One player's TURN decisions, built once per game: ``turns[prompt][p]`` is
    ``Decision(DecisionKind.TURN, (p,), prompt)`` (``pending`` is asked before every step)."""

    def check(self, prompt: str) -> None:
        if not isinstance(prompt, str):
            raise KeyError(f"a decision prompt is a string, not {prompt!r}")

    def build(self, player: int, prompt: str) -> Decision:
        return Decision(DecisionKind.TURN, (player,), prompt)


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: the winners (several means a shared win), why, and final scores."""

    winners: tuple[int, ...]
    reason: str
    scores: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"winners": list(self.winners), "reason": self.reason, "scores": list(self.scores)}

    @staticmethod
    def from_json(data: dict[str, Any]) -> "Outcome":
        return Outcome(tuple(data["winners"]), data["reason"], tuple(data.get("scores", ())))
