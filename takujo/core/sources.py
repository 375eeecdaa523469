"""Card data given as text rather than as a file: a card set uploaded to a server is kept by
the SHA-256 of its text and named in a game string as ``set:<hex>`` (``fuutei(cards=set:…)``),
a value that names no file. Reading a data file (`takujo.core.cards.read_data_text`) looks
such a name up here; whoever holds the text (the server, from its database) registers it
before the game is loaded. Texts are content-addressed, so a name always means the same
cards, and loaders may cache by it."""
from __future__ import annotations

import hashlib
import re
from collections import OrderedDict

PREFIX = "set:"
#: A set's name: the prefix and 64 hex digits.
NAME = re.compile(r"set:[0-9a-f]{64}")
#: Texts kept in one process (the least recently used leave first).
KEPT = 64

_TEXTS: OrderedDict[str, str] = OrderedDict()


def name_of(text: str) -> str:
    """The name of a card set's text (``set:`` and its SHA-256)."""
    return PREFIX + hashlib.sha256(text.encode("utf-8")).hexdigest()


def register(text: str) -> str:
    """Keep `text` in this process; its name."""
    name = name_of(text)
    _TEXTS[name] = text
    _TEXTS.move_to_end(name)
    while len(_TEXTS) > KEPT:
        _TEXTS.popitem(last=False)
    return name


def forget(name: str) -> None:
    """Stop holding a text (one held only to be checked)."""
    _TEXTS.pop(name, None)


def text_of(name: str) -> str | None:
    """The text a name stands for, if this process holds it."""
    text = _TEXTS.get(name)
    if text is not None:
        _TEXTS.move_to_end(name)
    return text


def is_set(value: object) -> bool:
    return isinstance(value, str) and value.startswith(PREFIX)


def names_in(options: dict[str, object]) -> list[str]:
    """The card set names among a game's option values."""
    return [str(v) for v in options.values() if is_set(v)]
