"""Message catalogues: per-game TOML files of message templates in Japanese and English.

A catalogue file holds tables whose leaves are messages, one template a language, with named
placeholders (Python format syntax), and an ``[args]`` table saying how each named argument
is rendered::

    [args]
    player = "player"        # player, players, card, cards, word, text
    card = "card"

    [event.roll]
    ja = "{player} が {dice} を振った: {faces} = {total}"
    en = "{player} rolls {dice}: {faces} = {total}"

The message above has the ID ``event.roll``. Why TOML with a loader rather than gettext:
our messages are keyed by stable IDs (event kinds, action verbs) and take typed arguments
(card ids become card names in the viewer's language), which gettext's source-string keys
and positional ``%`` formats do not model; TOML is already the format of every game's data,
needs no compile step (``.mo``), and the loader checks every message when a game loads.
"""
from __future__ import annotations

import string
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from ..core.cards import read_toml
from ..core.errors import CardDataError

if TYPE_CHECKING:
    from ..core.game import Game

LANGS = ("ja", "en")
UI_FILE = Path(__file__).with_name("ui.toml")
#: How a named argument is turned into text (see `Renderer`).
ARG_KINDS = frozenset({"player", "players", "card", "cards", "word", "text"})


def placeholders(template: str) -> set[str]:
    """The named fields of a format template (``{player}`` -> {"player"})."""
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(template) if name}


@dataclass(frozen=True)
class Catalogue:
    """Message ID -> {language: template}, and argument name -> kind."""

    messages: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    args: Mapping[str, str] = field(default_factory=dict)

    def template(self, msg_id: str, lang: str) -> str | None:
        entry = self.messages.get(msg_id)
        return None if entry is None else entry.get(lang)

    def __contains__(self, msg_id: object) -> bool:
        return msg_id in self.messages

    def ids(self, prefix: str = "") -> list[str]:
        return sorted(k for k in self.messages if k.startswith(prefix))

    def merged(self, other: "Catalogue") -> "Catalogue":
        """This catalogue with `other`'s messages and argument kinds added (other wins)."""
        return Catalogue({**self.messages, **other.messages}, {**self.args, **other.args})


def _flatten(where: str, table: Mapping[str, Any], prefix: str, out: dict[str, dict[str, str]]) -> None:
    for key, value in table.items():
        msg_id = f"{prefix}{key}"
        if not isinstance(value, dict):
            raise CardDataError("messages.not_table", where=where, id=msg_id)
        langs = {k: v for k, v in value.items() if k in LANGS}
        rest = {k: v for k, v in value.items() if k not in LANGS}
        if langs:
            missing = [lang for lang in LANGS if not isinstance(langs.get(lang), str)]
            if missing:
                raise CardDataError("messages.missing_language", where=where, id=msg_id, langs=missing)
            try:
                a, b = (placeholders(langs[lang]) for lang in LANGS)
            except ValueError as exc:
                raise CardDataError("messages.bad_template", where=where, id=msg_id, detail=str(exc)) from None
            if a != b:
                raise CardDataError("messages.different_arguments", where=where, id=msg_id,
                                    ja=sorted(a), en=sorted(b))
            out[msg_id] = {lang: langs[lang] for lang in LANGS}
        if rest:
            _flatten(where, rest, f"{msg_id}.", out)


def load_catalogue(path: Path | str) -> Catalogue:
    """Read and check a catalogue file: every message in both languages with the same
    placeholders, every argument kind known. Problems raise `CardDataError`."""
    doc = read_toml(Path(path))
    args = doc.pop("args", {})
    if not isinstance(args, dict) or any(v not in ARG_KINDS for v in args.values()):
        bad = {k: v for k, v in (args.items() if isinstance(args, dict) else [])} if isinstance(args, dict) else args
        raise CardDataError("messages.bad_args", path=path, kinds=sorted(ARG_KINDS), got=str(bad)[:200])
    messages: dict[str, dict[str, str]] = {}
    _flatten(str(path), doc, "", messages)
    for msg_id, entry in messages.items():
        try:
            for lang in LANGS:
                entry[lang].format_map(_Probe())
        except (ValueError, IndexError) as exc:
            raise CardDataError("messages.bad_template", where=path, id=msg_id, detail=str(exc)) from None
    return Catalogue(messages, dict(args))


class _Probe(dict[str, str]):
    """Format arguments that accept any name, to check a template's syntax."""

    def __missing__(self, key: str) -> str:
        return ""


@lru_cache(maxsize=None)
def _cached(path: str) -> Catalogue:
    return load_catalogue(path)


def messages_path(game_class: type) -> Path:
    """Where a game's catalogue lives: its ``messages_file`` (default ``messages.toml``)
    beside its module."""
    module = sys.modules[game_class.__module__]
    return Path(module.__file__ or ".").with_name(getattr(game_class, "messages_file", "messages.toml"))


def option_help(game_class: type, key: str, lang: str) -> str:
    """The help text of option `key` of a game in `lang` (``option.<key>`` of its
    catalogue), else the option's own description."""
    path = messages_path(game_class)
    template = _cached(str(path)).template(f"option.{key}", lang) if path.is_file() else None
    if template is not None:
        return template
    info = game_class.Options.model_fields.get(key)  # type: ignore[attr-defined]
    return (info.description or "") if info is not None else ""


#: Further message files of a game, by game name, added by an extension (`add_messages`).
_ADDED: dict[str, list[str]] = {}


def add_messages(game_name: str, path: Path | str) -> None:
    """Add a catalogue file's messages to a game's (an extension's new verbs and events);
    the file is checked at once."""
    load_catalogue(path)
    files = _ADDED.setdefault(game_name, [])
    if str(path) not in files:
        files.append(str(path))


def remove_messages(game_name: str, path: Path | str) -> None:
    """Undo `add_messages`."""
    files = _ADDED.get(game_name, [])
    if str(path) in files:
        files.remove(str(path))


def catalogue_for(game: "Game") -> Catalogue:
    """The interface's own messages merged with the game's and any added to it (each file
    loaded once)."""
    ui = _cached(str(UI_FILE))
    path = messages_path(type(game))
    out = ui.merged(_cached(str(path))) if path.is_file() else ui
    for added in _ADDED.get(game.name, ()):
        out = out.merged(_cached(added))
    return out


HELP_FILE = Path(__file__).with_name("help.toml")


def ui_text(key: str, lang: str, **args: Any) -> str:
    """One of the interface's own messages (``ui.toml``) as rich markup, without a game."""
    template = _cached(str(UI_FILE)).template(key, lang) or key
    return template.format(**args) if args else template


def help_text(key: str, lang: str | None = None, **args: Any) -> str:
    """The command line's help text `key` (``help.<key>``) in `lang` (default: the
    interface language, English if TAKUJO_LANG names no language we have)."""
    if lang is None:
        from .language import default_language
        try:
            lang = default_language()
        except CardDataError:
            raise
        except Exception:
            lang = "en"
    template = _cached(str(HELP_FILE)).template(f"help.{key}", lang) or key
    return template.format(**args) if args else template
