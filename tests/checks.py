"""Checks shared by the conformance kit and the games' own tests."""
from __future__ import annotations

import dataclasses
from enum import Enum
from typing import Any


def vandalise(obj: Any) -> None:
    """Change every list and dict inside `obj` (a view, a state's JSON): if the game still
    holds any of them, the game changes too, and a test comparing before and after sees it."""
    if isinstance(obj, dict):
        for v in list(obj.values()):
            vandalise(v)
        obj["vandal"] = 1
    elif isinstance(obj, list):
        for v in obj:
            vandalise(v)
        obj.append(-1)


_IMMUTABLE = (str, bytes, int, float, bool, type(None), complex, range, Enum)


def reachable_mutables(root: Any, skip: set[int]) -> dict[int, Any]:
    """id -> object for every mutable object reachable from `root` (not through `skip`)."""
    found: dict[int, Any] = {}
    stack = [root]
    visited: set[int] = set()
    while stack:
        obj = stack.pop()
        oid = id(obj)
        if oid in visited or oid in skip or isinstance(obj, _IMMUTABLE) or isinstance(obj, type):
            continue
        visited.add(oid)
        if isinstance(obj, (list, set, dict, bytearray)):
            found[oid] = obj
            stack.extend(obj.values() if isinstance(obj, dict) else obj)
            if isinstance(obj, dict):
                stack.extend(obj.keys())
        elif isinstance(obj, (tuple, frozenset)):
            stack.extend(obj)
        elif callable(obj) and not hasattr(obj, "__dict__") and not hasattr(obj, "__slots__"):
            continue
        else:
            frozen = dataclasses.is_dataclass(obj) and obj.__dataclass_params__.frozen  # type: ignore[union-attr]
            if not frozen and not isinstance(obj, Enum):
                found[oid] = obj
            attrs = dict(getattr(obj, "__dict__", {}))
            for cls in type(obj).__mro__:
                for slot in getattr(cls, "__slots__", ()):
                    if hasattr(obj, slot):
                        attrs[slot] = getattr(obj, slot)
            stack.extend(attrs.values())
    return found


def game_objects(game: Any) -> set[int]:
    """Ids of everything reachable from the game (shared by design: immutable tables)."""
    ids: set[int] = set()
    stack = [game]
    while stack:
        obj = stack.pop()
        if id(obj) in ids or isinstance(obj, _IMMUTABLE) or isinstance(obj, type):
            continue
        ids.add(id(obj))
        if isinstance(obj, dict):
            stack.extend(obj.values())
            stack.extend(obj.keys())
        elif isinstance(obj, (list, tuple, set, frozenset)):
            stack.extend(obj)
        else:
            stack.extend(getattr(obj, "__dict__", {}).values())
            for cls in type(obj).__mro__:
                for slot in getattr(cls, "__slots__", ()):
                    if hasattr(obj, slot):
                        stack.append(getattr(obj, slot))
    return ids


def shared_by_clones(state: Any) -> set[int]:
    """Ids of what a clone may share with `state`: the logged events (`logged_events`) and the
    log list itself, until either adds an event (`State.append_event` copies a shared list
    first: copy on write)."""
    return logged_events(state) | {id(state.log)}


def logged_events(state: Any) -> set[int]:
    """Ids of the logged events and what they hold: a clone may share those, because an
    event is never changed once logged (`takujo.core.events`); views and JSON may not."""
    ids: set[int] = set()
    for event in state.log:
        ids.add(id(event))
        ids.update(id(v) for v in event.values() if isinstance(v, (list, dict)))
        for v in event.values():
            if isinstance(v, list):
                ids.update(id(x) for x in v if isinstance(x, (list, dict)))
    return ids
