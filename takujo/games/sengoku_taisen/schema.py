"""The public facts of a view of 戦国大戦 双 (`SengokuState.public_info`), as pydantic models.

A client may rely on every key below; `tests/conformance/test_messages.py` validates real
views against `SengokuPublicView`. Units are card instance ids (summoned soldiers: token ids
from 10000, SGT-SUMMON-01); in the dictionaries below they are keys written as strings.
"""
from __future__ import annotations

from typing import Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TokenView(_Strict):
    """A summoned soldier in play (SGT-SUMMON-01): its owner and the stats its card gave it."""

    owner: int = Field(description="the seat whose summons zone holds it")
    strength: int = Field(description="its printed 兵力")
    siege: int = Field(description="its printed 攻城力")
    unit: str = Field(description="troop type: cavalry, infantry, gunner, spear or archer")


class BattleView(_Strict):
    """The attack in progress, from its declaration to its result."""

    attacker: int = Field(description="the attacking unit")
    player: int = Field(description="the attacking player")
    target: Union[Literal["castle"], int] = Field(description="'castle', or the attacked unit")
    interceptor: int = Field(description="the intercepting unit, -1 for none")


class WindowView(_Strict):
    """An open battle window: both players are polled in `order`, `pos` is asked now, and it
    closes once `passes` reaches the number of players (all passed in succession)."""

    kind: Literal["battle"] = Field(description="the window's kind: the battle window of an attack")
    order: list[int] = Field(description="the seats in the order they are asked")
    pos: int = Field(description="index in `order` of the player asked now")
    data: dict[str, Any] = Field(description="the window's own data (empty in this game)")
    cycle: bool = Field(description="whether polling goes round again after an action (always true)")
    passes: int = Field(description="passes in a row so far")


class SengokuPublicView(_Strict):
    """Facts of 戦国大戦 双 every player sees."""

    turn: int = Field(description="the turn number, from 1")
    turn_player: int = Field(description="whose turn it is")
    first_player: int = Field(description="the first player, drawn by lot")
    phase: Literal["mulligan", "koku", "main", "intercept", "counter", "discard", "over"] = Field(
        description="the phase: message phase.<name> names it")
    exhausted: list[int] = Field(description="exhausted units and face-up kokuryoku, sorted")
    koku_down_exhausted: list[int] = Field(description="how many face-down kokuryoku each player has exhausted")
    strength: dict[str, int] = Field(description="current 兵力 of every unit in play")
    siege: dict[str, int] = Field(description="current 攻城力 of every unit in play")
    damage: dict[str, int] = Field(description="damage marked on units this turn")
    tokens: dict[str, TokenView] = Field(description="summoned soldiers in play, by token id")
    placed: dict[str, int] = Field(description="the turn each unit was placed")
    attacks: dict[str, int] = Field(description="attacks made this turn, by unit")
    ougi_used: list[bool] = Field(description="whether each player has used the okugi")
    battle: Optional[BattleView] = Field(description="the attack in progress; null outside one")
    counters: list[list[int]] = Field(description="counter-stratagems waiting for a target: [owner, card]")
    buff: dict[str, int] = Field(description="this turn's 兵力 changes, by unit")
    siege_buff: dict[str, int] = Field(description="this turn's 攻城力 changes, by unit")
    extra_used: list[int] = Field(description="units that attacked once more (無双連撃) this turn")
    once_used: list[str] = Field(description="{1回制限} abilities used this turn, as 'unit:index'")
    next_token: int = Field(description="the id the next summoned soldier will get")
    windows: list[WindowView] = Field(description="open battle windows, innermost last")
