"""The documented shape of Ibara's public facts (`IbaraState.public_info`), for clients."""
from __future__ import annotations

from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict, Field

from .phases import (ACT, COMBAT_CHOOSE, COMBAT_DECLARE, COMBAT_DROP, COMBAT_PLAY, COMBAT_RING,
                     DISCARD, GABE_DISCARD, OVER, PENALTY)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CombatView(_Strict):
    """The combat in progress; two-entry lists are [attacker, defender]."""

    players: list[int] = Field(description="[attacker, defender]")
    came_from: int = Field(description="the attacker's square before the move (it goes back on a tie)")
    size: list[int] = Field(description="how many cards each side plays: 1 each, or as declared with "
                                        "multi-card combat (IBR-COMBAT-MULTI-03); 0 for a side with no card")
    plays: list[list[int]] = Field(description="each side's revealed play (card ids); [] before the reveal or for no card")
    chosen: list[str] = Field(description="the suit each side chose for a same-number play; '' if none")
    ring: list[bool] = Field(description="whether each side used 悪運の指輪")
    ring_turn: int = Field(description="the side asked about the ring (0, 1; 2 once both were asked)")
    declared: int = Field(description="how many sides have declared their count")
    choosing: int = Field(description="the side choosing a suit, -1 for none")
    drops: int = Field(description="rounds of hidden drops so far (IBR-COMBAT-MULTI-09)")


class IbaraPublicView(_Strict):
    """Facts of いばらの姫と4人の騎士 every player sees. Squares: 0 the keep, 1..12 the ring, 13
    the gate; -1 for none."""

    turn: int = Field(ge=0, description="turns begun so far (the current turn's number)")
    round: int = Field(ge=0, description="the round: every seat takes one turn a round")
    turn_player: int = Field(description="the seat whose turn it is")
    phase: Literal[ACT, DISCARD, PENALTY, GABE_DISCARD, COMBAT_DECLARE, COMBAT_PLAY,  # type: ignore[valid-type]
                   COMBAT_RING, COMBAT_CHOOSE, COMBAT_DROP, OVER] = Field(
        description="the step of the turn: also the prompt ID of the decision awaited (its name is the "
                    "message phase.<phase>)")
    order: list[int] = Field(description="the seats in turn order")
    knights: list[int] = Field(description="each seat's knight (an index into the content's knights)")
    pos: list[int] = Field(description="each knight's square")
    princess: int = Field(description="the princess's square")
    escort: int = Field(description="the seat escorting her, -1 for none")
    event_marker: int = Field(description="the event marker's square")
    irritation: int = Field(description="the irritation counter of the face-up whim")
    whims_needed: int = Field(description="whim cards needed to leave by the gate")
    explored: int = Field(description="explorations made this turn")
    combat: Optional[CombatView] = Field(description="the combat in progress; null for none")
    turn_index: int = Field(description="the turn player's place in `order`")
    gabe_used: bool = Field(description="ゲイブリッツ's ability used this turn (IBR-GABE-01)")
    gabe_target: int = Field(description="the seat discarding for ゲイブリッツ's ability, -1 for none")
    gabe_left: int = Field(description="cards it has still to discard")
    moved: bool = Field(description="the turn player has moved this turn")
    ending: bool = Field(description="the turn is ending (irritation, then the discard to 7)")
    penalty_player: int = Field(description="the seat choosing a whim card to lose (IBR-ANGER-01), -1 for none")
    committed: list[int] = Field(description="seats that have committed face down")
    commit_players: list[int] = Field(description="seats asked to commit face down")
