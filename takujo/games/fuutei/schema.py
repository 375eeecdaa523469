"""The documented shape of Fuutei's public facts (``state.public_info()``, the ``public`` part
of every view), as pydantic models. Documentation for clients: views are not validated in play
(a conformance test validates random views against it)."""
from __future__ import annotations

from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict, Field

Card = int  # a card instance id, index into the card catalogue (see export_catalogue)


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class WindowCard(_Model):
    """The card a たわけ！ window answers: a hold card just used, or a battle support card about
    to take effect."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    for_: Literal["hold", "support"] = Field(alias="for", description="what kind of card is answered")
    card: Card = Field(description="the card that would be negated")
    user: int = Field(description="the player who used the card (never asked)")
    targets: Optional[list[Card]] = Field(None, description="a hold card's targets")
    side: Optional[Literal[0, 1]] = Field(None, description="a battle support card's side: 0 invader, 1 defender")
    roll: Optional[int] = Field(None, description="the card's roll, made before the window opens (FTR-TAWAKE-02/03)")
    faces: Optional[list[int]] = Field(None, description="the faces of a battle support card's roll")


class TawakeWindow(_Model):
    """A たわけ！ response window (FTR-TAWAKE): whom it polls, in which order, and who is asked now."""

    kind: Literal["tawake"] = Field(description="the window's kind")
    order: list[int] = Field(description="the players polled, in turn order from the turn player")
    pos: int = Field(ge=0, description="index in `order` of the player asked now")
    data: WindowCard = Field(description="the card being answered")
    cycle: bool = Field(description="whether polling starts again after a response (never in Fuutei)")
    passes: int = Field(ge=0, description="passes in a row so far")


class Battle(_Model):
    """The battle in progress (FTR-BATTLE, FTR-COMBAT, FTR-ATTACK). Sides are indexed 0 =
    invader, 1 = defender."""

    players: list[int] = Field(min_length=2, max_length=2, description="invader and defender (-1: a region of the centre)")
    chars: list[Card] = Field(min_length=2, max_length=2, description="invading and defending characters (-1: undefended)")
    regions: list[Card] = Field(description="the regions fought over (every region the defender guards, FTR-COMBAT-02)")
    mods: list[list[int]] = Field(description="per side, battle-long modifiers: physical attack, physical defence, "
                                              "magic attack, magic defence, initiative, rolled attack bonus")
    queue: list[list[int]] = Field(description="revealed battle support cards still to resolve: [side, card]")
    order: list[Literal[0, 1]] = Field(description="the sides in striking order")
    strike: int = Field(ge=0, description="strikes made so far (index into `order`)")
    actor: int = Field(description="the player who decides now in this battle")
    defeated: Literal[-1, 0, 1] = Field(description="the side whose character was defeated; -1 none yet")
    persuade: Card = Field(description="the defeated character that may be persuaded; -1 none")
    gains: list[tuple[int, list[Card]]] = Field(description="[player, cards] gained in this battle, still to reassign defenders for")
    gained: list[Card] = Field(description="the cards whose defenders the actor reassigns now (FTR-COMBAT-12)")
    extra_dice: Optional[list[list[int]]] = Field(None, description="per side, faces of dice a battle support card "
                                                                     "added to its attacks (FTR-ATTACK-03)")


class FuuteiPublicView(_Model):
    """What every player of 風帝伝説FIGHTER sees besides the card zones."""

    turn: int = Field(ge=0, description="turns begun so far, counting every player's")
    turn_player: int = Field(ge=0, description="whose turn it is")
    phase: Literal["main", "battle", "hand", "support", "attack", "persuade", "reassign", "over"] = Field(
        description="the phase (message phase.<name>)")
    points: list[int] = Field(description="each player's region points")
    threshold: int = Field(description="the points that win at once: 40, or 30 with five or more players (FTR-WIN-02/03)")
    guard: dict[str, Card] = Field(description="region (as a string) -> the character defending it")
    host: dict[str, Card] = Field(description="equipment (as a string) -> the character carrying it")
    temporary: list[Card] = Field(description="temporary characters in play (FTR-TEMP-01)")
    sealed: list[Card] = Field(description="characters that cannot invade until their own turn ends (FTR-ERION-01)")
    turns_taken: list[int] = Field(description="turns each player has begun (no invasion in one's first, FTR-BATTLE-02)")
    pile_emptied: bool = Field(description="the draw pile has run out (deck-out reading a, FTR-WIN-04)")
    failed_draw: bool = Field(description="a draw phase found the pile empty (deck-out reading b, FTR-WIN-04)")
    battle: Optional[Battle] = Field(description="the battle in progress, or null")
    windows: list[TawakeWindow] = Field(description="open たわけ！ windows, innermost last")
    committed: list[int] = Field(description="players who have committed their face-down battle support choice")
    guard_changes: int = Field(ge=0, description="guard and unguard actions in this main phase or reassignment "
                                                 "(at most 40, a designed limit)")
