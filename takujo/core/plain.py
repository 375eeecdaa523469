"""Copies of plain data (the JSON-like values that frames, windows and events hold)."""
from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")


def copy_plain(value: T) -> T:
    """An independent deep copy of nested dicts and lists of scalars (tuples are kept as
    they are: they are immutable). Faster than ``copy.deepcopy`` for this shape of data."""
    cls = type(value)
    if cls is dict:
        return {k: (v if type(v) not in _MUTABLE else copy_plain(v))  # type: ignore[return-value]
                for k, v in value.items()}  # type: ignore[attr-defined]
    if cls is list:
        return [v if type(v) not in _MUTABLE else copy_plain(v) for v in value]  # type: ignore[return-value,attr-defined]
    if cls is set:
        return set(value)  # type: ignore[call-overload,no-any-return]
    return value


_MUTABLE = (dict, list, set)
