"""One visibility model: zones declare who sees them, and views are derived from that.

A game's `State` lists its zones as `ZoneSpec`s and returns their contents from `zone(name)`.
`derive_view` turns a state into what one player (or a spectator, `None`) may know: visible
zones as lists of card ids, hidden ones as a bare count; the most recent events that player
may see, with the log's cursor (`events_for` gives the rest); the pending decision. Who is
asked in a response window is shown openly: windows poll an order fixed from public facts
(`core.response`), so naming the responder reveals nothing.

Everything a view holds is a fresh copy: a client that edits its view cannot change the game.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, Collection

from .plain import copy_plain
from .rng import Rng

if TYPE_CHECKING:
    from .state import State
    from .action import Action


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
    #: Which kind of card the zone holds ("cards", "event", "item" ...): a hidden card can
    #: only be one of the unseen cards of the same pool (an event deck holds events).
    pool: str = "cards"
    #: For per-player zones: the cards belong to the owner (own decks of a TCG), so a hidden
    #: card can only be one of the owner's unseen cards.
    owned: bool = False

    def sees(self, owner: int | None, player: int | None) -> bool:
        if self.vis is Vis.PUBLIC:
            return True
        if self.vis is Vis.OWNER:
            return player is not None and owner == player
        return False


def _plan(state: "State", player: int | None) -> list[tuple[ZoneSpec, int, tuple[bool, ...]]]:
    """Per zone of `state`: the spec, whether `player` sees all its lists (SEEN_ALL), none
    (SEEN_NONE) or some, and which (one entry per owner; one for a shared zone), from
    `ZoneSpec.sees`, asked once per state class, viewer and player count."""
    n = state.game.players
    key = (type(state), player, n)
    plan = _PLANS.get(key)
    if plan is None:
        plan = _PLANS[key] = []
        for spec in state.ZONES:
            seen = tuple(spec.sees(owner, player) for owner in range(n)) if spec.per_player else (
                spec.sees(None, player),)
            plan.append((spec, SEEN_ALL if all(seen) else SEEN_NONE if not any(seen) else SEEN_SOME, seen))
    return plan


SEEN_NONE, SEEN_ALL, SEEN_SOME = 0, 1, 2
_PLANS: dict[tuple[type, int | None, int], list[tuple[ZoneSpec, int, tuple[bool, ...]]]] = {}


def _show_lists(data: list[list[int]], seen: tuple[bool, ...], copy: bool) -> list[Any]:
    """A per-player zone's lists as `seen` shows them: each list (a copy), or its length."""
    return [(list(cards) if copy else cards) if v else len(cards) for cards, v in zip(data, seen)]


def derive_view(state: "State", player: int | None, legal: list[Action] | None = None,
                lean: bool = False) -> dict[str, Any]:
    """Everything `player` may know about `state`, as plain JSON-able data; `legal`, when
    given, is ``state.legal_actions(player)`` already computed.

    A `lean` view is the same view for encoders that read only its facts: ``player``,
    ``version``, ``zones``, ``public`` and ``pending``, without the legal actions' labels, the
    log, the cursor or the outcome; its visible zones are the state's own lists (read them at
    once, never change them)."""
    copy = not lean
    zones: dict[str, Any] = {}
    for spec, seen_all, seen in _plan(state, player):
        name = spec.name
        data = state.zone(name)
        if not spec.per_player:
            zones[name] = (list(data) if copy else data) if seen_all else len(data)
        elif len(data) != len(seen):
            zones[name] = _show_lists(data, tuple(spec.sees(owner, player) for owner in range(len(data))), copy)
        elif seen_all == SEEN_ALL:
            zones[name] = list(map(list, data)) if copy else list(data)
        elif seen_all == SEEN_NONE:
            zones[name] = list(map(len, data))
        else:
            zones[name] = _show_lists(data, seen, copy)
    pending = state.pending
    pending_view = None
    if pending is not None:
        pending_view = {"kind": pending.kind._value_, "players": list(pending.players), "prompt": pending.prompt}
    if lean:
        return {"player": player, "version": state.steps, "zones": zones, "public": state.public_info(),
                "pending": pending_view}
    acting = pending is not None and player is not None and player in pending.players
    cursor = len(state.log)
    return {
        "game": str(state.game),
        "player": player,
        "version": state.steps,
        "zones": zones,
        "public": state.public_info(),        # fresh data by contract (conformance kit)
        "pending": pending_view,
        "legal": [str(a) for a in (state.legal_actions(player) if legal is None else legal)] if acting else [],
        "log": events_between(state.log, player, max(0, cursor - RECENT_EVENTS), cursor),
        "cursor": cursor,
        "outcome": state.outcome.to_json() if state.outcome else None,
    }


#: How many of the latest log entries a view looks through for the viewer's recent events
#: (a view's cost must not grow with the game's length; `State.events_for` gives the rest).
RECENT_EVENTS = 16


def events_between(log: list[dict[str, Any]], player: int | None, start: int, stop: int) -> list[dict[str, Any]]:
    """Copies of the events of ``log[start:stop]`` that `player` may see, each with its
    sequence number ``seq`` (its index in the log)."""
    out = []
    for seq in range(start, stop):
        e = log[seq]
        to = e["to"]
        if to is None or (player is not None and player in to):
            event = dict(e)                      # most fields are scalars: copy the rest
            for key, value in event.items():
                kind = type(value)
                if kind is list or kind is dict:
                    event[key] = copy_plain(value)
            event["seq"] = seq
            out.append(event)
    return out


def shuffle_unseen(state: "State", player: "int | None | Collection[int | None]", rng: Rng) -> "State":
    """A clone in which the cards `player` cannot see are shuffled among the unseen slots.

    `player` may be one viewer or a collection of viewers: then only the cards none of them
    sees are shuffled (for the non-interference test: hidden from the observer *and* from the
    player about to act). The result differs from `state` only in what they cannot see, so
    its view for each of them must be equal: the generic no-leak tests rely on this.
    """
    viewers: list[int | None] = (list(player) if isinstance(player, (set, frozenset, list, tuple))
                                 else [player])  # type: ignore[list-item]
    other = state.clone()
    groups: dict[tuple[str, int | None], list[tuple[list[int], int]]] = {}
    for spec in other.ZONES:
        data = other.zone(spec.name)
        lists = list(enumerate(data)) if spec.per_player else [(None, data)]
        for owner, cards in lists:
            if not any(spec.sees(owner, v) for v in viewers):
                key = (spec.pool, owner if spec.owned else None)
                groups.setdefault(key, []).extend((cards, i) for i in range(len(cards)))
    for _, slots in sorted(groups.items(), key=lambda kv: (kv[0][0], -1 if kv[0][1] is None else kv[0][1])):
        pool = [cards[i] for cards, i in slots]
        rng.shuffle(pool)
        for (cards, i), card in zip(slots, pool):
            cards[i] = card
    return other
