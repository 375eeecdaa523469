"""The event log: what happened, each entry tagged with who may see it.

An event is a plain dict: ``{"e": kind, "to": audience, ...fields}``. ``to`` is ``None`` for
everyone, a list of player indices for those players only, or ``[]`` for nobody (the engine and
the full record). Chance outcomes carry ``"chance": True``; records store them and replay
checks them. `State.say` (and the chance helpers beside it) build and log every event.
"""
from __future__ import annotations

from typing import Any

Event = dict[str, Any]
PUBLIC = None
NOBODY: list[int] = []


def visible_to(event: Event, player: int | None) -> bool:
    to = event.get("to")
    if to is None:
        return True
    return player is not None and player in to
