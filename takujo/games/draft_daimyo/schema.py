"""The documented shape of ``DaimyoState.public_info()``: the ``public`` part of every view of
ドラフト戦国大名 (see `takujo.core.schema`). Documentation for clients and the conformance
test; views are not validated when they are built."""
from __future__ import annotations

from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict, Field

Phase = Literal["order", "draft", "choose", "card", "basic", "basic_done", "tactic", "over"]


class BattleView(BaseModel):
    """The battle (合戦) in progress: who attacks what from where, and whether each side has
    placed a tactics card (face down: which card is hidden)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    attacker: int = Field(ge=0, description="the attacking player")
    defender: int = Field(ge=-1, description="the defending player; -1 for a neutral force")
    from_: int = Field(alias="from", ge=0, description="province index the attack marched from")
    to: int = Field(ge=0, description="province index under attack")
    k: int = Field(ge=0, description="soldiers the attacker marched in")
    cards: list[Literal[0, 1]] = Field(min_length=2, max_length=2, description="[attacker, defender]: 1 if that "
                                       "side placed a tactics card face down, else 0")


class DaimyoPublic(BaseModel):
    """Facts of a game of ドラフト戦国大名 every player sees. Players are seat numbers; a
    province is its index in the map (``takujo catalogue draft_daimyo``: ``board``)."""

    model_config = ConfigDict(extra="forbid")
    round: int = Field(ge=1, le=4, description="the round, 1..4")
    turn: int = Field(ge=0, description="turns begun over the whole game ((round - 1) * 4 + turn of the round)")
    turn_of_round: int = Field(ge=0, le=4, description="the turn within the round, 1..4 (0 before the first)")
    phase: Phase = Field(description="the phase (message phase.<name>): order = choosing turn-order positions, "
                                     "draft, choose = this turn's card face down, card = play or sell it, "
                                     "basic = hire or march, basic_done, tactic = tactics declarations, over")
    order: list[int] = Field(description="the turn order of this round, seat by seat")
    turn_player: int = Field(ge=0, description="the player whose card and basic action come now (in card and "
                                               "basic phases)")
    owner: list[int] = Field(description="per province: the holding player, -1 a neutral force, -2 nobody")
    soldiers: list[int] = Field(description="per province: soldiers in it")
    gold: list[int] = Field(description="per player: gold (金)")
    vp: list[int] = Field(description="per player: victory points (勝利点)")
    castles: dict[str, int] = Field(description="each 城 in play: its card id (as a string) -> the province it stands in")
    marked: list[int] = Field(description="warlord card ids carrying 謀反の兆し")
    battles_won: list[int] = Field(description="per player: battles won (for 戦国の覇者)")
    battle: Optional[BattleView] = Field(description="the battle in progress, null between battles")
    factions: list[str] = Field(description="per player: the daimyo's Japanese name (織田, 武田, 上杉, 今川); "
                                            "messages name them word.oda, word.takeda, word.uesugi, word.imagawa")
    turn_index: int = Field(ge=0, description="position in the turn order of the player to act this turn")
    pick_no: int = Field(ge=0, le=5, description="draft picks completed this round")
    choosers: list[int] = Field(description="turn-order choice: the players in the order they choose "
                                            "(lowest VP first); [] without that option")
    new_order: list[int] = Field(description="turn-order choice: per position, the player who took it, -1 if free")
    committed: list[int] = Field(description="players who have already committed in the simultaneous decision "
                                             "(draft pick, card choice, tactics declaration)")
    commit_players: list[int] = Field(description="players the simultaneous decision waits for or has heard from")
