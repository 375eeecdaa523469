"""The documented shape of a view, as pydantic models (and the JSON Schema exported from them).

Every view has the same envelope (`view_model`): the game string, the viewer, the version,
the card zones (derived from the state's `ZoneSpec`s: a list of card ids where the viewer
sees them, a count where not), the game's public facts (each game's ``PublicView`` model),
the pending decision, the viewer's legal actions, the latest events with the cursor, and the
outcome. A client may rely on it; a conformance test validates real views against it.
"""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, create_model

if TYPE_CHECKING:
    from .game import Game


class EventView(BaseModel):
    """One event the viewer may see: its kind, audience and sequence number, and the fields
    of that kind (see the game's messages for what each kind carries)."""

    model_config = ConfigDict(extra="allow")
    e: str = Field(description="the event kind, e.g. 'roll'")
    to: Optional[list[int]] = Field(description="who sees it: null for everyone, else those players")
    seq: int = Field(ge=0, description="the event's sequence number in the game's log")


class PendingView(BaseModel):
    """The decision the game waits for."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["turn", "simultaneous", "response"]
    players: list[int] = Field(description="who must act now")
    prompt: str = Field(description="the decision's prompt ID")


class OutcomeView(BaseModel):
    model_config = ConfigDict(extra="forbid")
    winners: list[int]
    reason: str
    scores: list[int]


Cards = Union[list[int], int]
CARDS_DOC = "card ids where the viewer sees them, else how many cards the zone holds"


@lru_cache(maxsize=None)
def view_model(game_class: type["Game"]) -> type[BaseModel]:
    """The pydantic model of `game_class`'s views."""
    zone_fields: dict[str, Any] = {}
    for spec in game_class.State.ZONES:
        typ = list[Cards] if spec.per_player else Cards
        doc = (f"{spec.vis.value} zone{', one entry a player' if spec.per_player else ''}: {CARDS_DOC}")
        zone_fields[spec.name] = (typ, Field(description=doc))
    name = game_class.__name__.removesuffix("Game")
    zones = create_model(f"{name}Zones", __config__=ConfigDict(extra="forbid"), **zone_fields)
    public: Any = getattr(game_class, "PublicView", None) or dict[str, Any]
    return create_model(
        f"{name}View", __config__=ConfigDict(extra="forbid"),
        __doc__=f"What one player (or a spectator) of {game_class.name} may know.",
        game=(str, Field(description="the game string, e.g. fuutei(players=4)")),
        player=(Optional[int], Field(description="the viewer's seat; null for a spectator")),
        version=(int, Field(ge=0, description="actions applied so far; grows by one with each")),
        zones=(zones, Field(description="card zones")),
        public=(public, Field(description="facts every player sees")),
        pending=(Optional[PendingView], Field(description="the decision awaited; null once over")),
        legal=(list[str], Field(description="the viewer's legal actions in notation ([] if not to act)")),
        log=(list[EventView], Field(description="the latest events the viewer may see")),
        cursor=(int, Field(ge=0, description="the next event's sequence number (for events_for)")),
        outcome=(Optional[OutcomeView], Field(description="how the game ended; null while it goes on")),
    )


def view_schema(game_class: type["Game"]) -> dict[str, Any]:
    """The JSON Schema of `game_class`'s views."""
    return view_model(game_class).model_json_schema()
