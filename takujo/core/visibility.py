"""One visibility model: zones declare who sees them, and views are derived from that.

A game's `State` lists its zones as `ZoneSpec`s and returns their contents from `zone(name)`.
`derive_view` turns a state into what one player (or a spectator, `None`) may know: visible
zones as lists of card ids, hidden ones as a bare count; the event log filtered by audience;
the pending decision without revealing who is being asked to respond.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

from .decision import DecisionKind
from .rng import Rng

if TYPE_CHECKING:
    from .state import State


class Vis(str, Enum):
    PUBLIC = "public"  # everyone sees the cards
    OWNER = "owner"    # the owning player sees the cards; others see how many
    COUNT = "count"    # everyone sees how many, nobody sees which (a face-down pile)


@dataclass(frozen=True, slots=True)
class ZoneSpec:
    """A named zone. ``per_player`` zones hold one list per player (index = owner)."""

    name: str
    vis: Vis
    per_player: bool = False
    tokens: bool = False  # holds tokens made by effects, not cards of the set (not conserved)

    def sees(self, owner: int | None, player: int | None) -> bool:
        if self.vis is Vis.PUBLIC:
            return True
        if self.vis is Vis.OWNER:
            return player is not None and owner == player
        return False


def _show(spec: ZoneSpec, cards: list[int], owner: int | None, player: int | None) -> list[int] | int:
    return list(cards) if spec.sees(owner, player) else len(cards)


def derive_view(state: "State", player: int | None) -> dict[str, Any]:
    """Everything `player` may know about `state`, as plain JSON-able data."""
    zones: dict[str, Any] = {}
    for spec in state.ZONES:
        data = state.zone(spec.name)
        if spec.per_player:
            zones[spec.name] = [_show(spec, cards, owner, player) for owner, cards in enumerate(data)]
        else:
            zones[spec.name] = _show(spec, data, None, player)
    pending = state.pending
    pending_view = None
    if pending is not None:
        players = list(pending.players)
        if pending.kind is DecisionKind.RESPONSE:
            # Who is being polled would reveal who holds a response card: show only "you".
            players = [player] if player in players else []
        pending_view = {"kind": pending.kind.value, "players": players, "prompt": pending.prompt}
    acting = pending is not None and player is not None and player in pending.players
    return {
        "game": str(state.game),
        "player": player,
        "zones": zones,
        "public": state.public_info(),
        "pending": pending_view,
        "legal": [str(a) for a in state.legal_actions(player)] if acting else [],
        "log": [e for e in state.log if e["to"] is None or (player is not None and player in e["to"])],
        "outcome": state.outcome.to_json() if state.outcome else None,
    }


def shuffle_unseen(state: "State", player: int | None, rng: Rng) -> "State":
    """A clone in which the cards `player` cannot see are shuffled among the unseen slots.

    The result differs from `state` only in what `player` cannot see, so its view for
    `player` must be equal: the generic no-leak test relies on this.
    """
    other = state.clone()
    slots: list[tuple[list[int], int]] = []
    for spec in other.ZONES:
        data = other.zone(spec.name)
        lists = list(enumerate(data)) if spec.per_player else [(None, data)]
        for owner, cards in lists:
            if not spec.sees(owner, player):
                slots.extend((cards, i) for i in range(len(cards)))
    pool = [cards[i] for cards, i in slots]
    rng.shuffle(pool)
    for (cards, i), card in zip(slots, pool):
        cards[i] = card
    return other
