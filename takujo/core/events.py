"""The event log: what happened, each entry tagged with who may see it.

An event is a plain dict: ``{"e": kind, "to": audience, ...fields}``. ``to`` is ``None`` for
everyone, a list of player indices for those players only, or ``[]`` for nobody (the engine and
the full record). Chance outcomes carry ``"chance": True``; records store them and replay
checks them.
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


def make(kind: str, to: list[int] | None = PUBLIC, /, **fields: Any) -> Event:
    if "e" in fields or "to" in fields or not (to is None or type(to) is list):
        raise TypeError(f"event {kind!r}: 'to' is the audience (None or a list of players), "
                        f"got {to!r}; 'e' and 'to' are reserved field names")
    return {"e": kind, "to": to, **fields}
