"""Checks at the server's edge for values that come from clients.

Every game string a client sends, by any route (a new match, an uploaded record, anything
added later), goes through `client_game` before anything is loaded: options that name files
on the server are refused unless they take one of their named values, so nothing a client
sends can open, or reveal, a file of the server.
"""
from __future__ import annotations

import hashlib
import re
import unicodedata
from typing import Any

from ..core.errors import IllegalActionError, OptionError
from ..core.game import Game, parse_game_string
from ..core.registry import game_class

#: The longest game string accepted.
MAX_GAME_STRING = 400
#: What a match id looks like (ids are made by the server: anything else is simply unknown).
MATCH_ID = re.compile(r"[0-9a-f]{12}")


def _extra(cls: type[Game], name: str) -> dict[str, Any]:
    info = cls.Options.model_fields[name]
    return info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}


def file_options(cls: type[Game]) -> dict[str, list[str]]:
    """The options of a game that name files on the server, each with the values a web
    client may give instead (e.g. a starter deck's name)."""
    out = {}
    for name in cls.Options.model_fields:
        extra = _extra(cls, name)
        choices = extra.get("choices")
        if extra.get("server_file"):
            out[name] = [str(v) for v in choices] if isinstance(choices, list) else []
    return out


def value_prefixes(cls: type[Game], name: str) -> list[str]:
    """Prefixes of the values a web client may give a file option beside its choices (a deck
    code made from an uploaded decklist: ``code:…``)."""
    prefixes = _extra(cls, name).get("prefixes")
    return [str(p) for p in prefixes] if isinstance(prefixes, list) else []


def client_game(spec: object) -> tuple[str, dict[str, str]]:
    """The game name and options of a game string from a client; `OptionError` (naming the
    option) for one that names a server file, before anything is opened."""
    if not isinstance(spec, str) or len(spec) > MAX_GAME_STRING:
        raise OptionError("web.game_string", limit=MAX_GAME_STRING)
    name, opts = parse_game_string(spec)
    cls = game_class(name)
    files = file_options(cls)
    for key, value in opts.items():
        if key in files and value not in ("", *files[key]) \
                and not any(value.startswith(p) for p in value_prefixes(cls, key)):
            if files[key]:
                raise OptionError("web.file_option", option=key, choices=files[key])
            raise OptionError("web.file_only", option=key)
    return name, opts


def client_version(value: object) -> int | None:
    """A version from a client: a JSON integer (not a boolean, not a float) or absent."""
    if value is None or type(value) is int:
        return value
    raise IllegalActionError("web.bad_version", got=type(value).__name__ if not isinstance(value, str)
                             else f"the string {value[:20]!r}")


#: The longest display name (in characters) and chat line.
MAX_NAME = 24
MAX_CHAT = 400
#: A browser's player key: a random secret it made (URL-safe base64 or hex).
PLAYER_KEY = re.compile(r"[A-Za-z0-9_-]{22,128}")


def _printable(text: str) -> str:
    """`text` in NFC with runs of white space as one space, and without control, format,
    private-use or unassigned characters (which could hide or reorder what others read)."""
    text = unicodedata.normalize("NFC", text)
    kept = "".join(" " if ch.isspace() else ch for ch in text
                   if ch.isspace() or unicodedata.category(ch)[0] != "C")
    return " ".join(kept.split())


def _clean_text(value: object, limit: int) -> str | None:
    """A short text from a client, cleaned (`_printable`), if it is 1 to `limit` characters."""
    if not isinstance(value, str) or len(value) > 4 * limit:
        return None
    text = _printable(value)
    return text if text and len(text) <= limit else None


def client_name(value: object) -> str:
    """A display name from a client: any script, 1 to `MAX_NAME` characters once cleaned."""
    name = _clean_text(value, MAX_NAME)
    if name is None:
        raise OptionError("web.bad_name", limit=MAX_NAME)
    return name


def client_chat(value: object) -> str:
    """A chat line from a client: 1 to `MAX_CHAT` characters once cleaned (one line)."""
    text = _clean_text(value, MAX_CHAT)
    if text is None:
        raise OptionError("web.bad_chat", limit=MAX_CHAT)
    return text


def client_player(value: object) -> str | None:
    """The stored form of a browser's player key (a SHA-256 hash; the key itself is never
    kept); None without one."""
    if value is None or value == "":
        return None
    if not isinstance(value, str) or not PLAYER_KEY.fullmatch(value):
        raise OptionError("web.bad_player_key")
    return hashlib.sha256(f"takujo-player:{value}".encode()).hexdigest()
