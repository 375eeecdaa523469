"""Checks shared by the conformance kit and the games' own tests."""
from __future__ import annotations

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
