"""Errors raised by the engine. Every one names what is wrong, in Japanese and in English.

An error is raised with a message ID and named arguments::

    raise OptionError("option.unknown", game="fuutei", option="colour")

The templates live in TOML catalogues: ``takujo/core/errors.toml`` for the engine, and
``takujo/games/<game>/errors.toml`` for IDs that start with a game's name
(``"ibara.content.no_square"``). ``str(error)`` is the English text; ``error.text("ja")``
the Japanese one. An argument that is itself an error is rendered in the same language; a
list of errors is joined with "; ", any other list with ", ", and an argument named ``lines``
one item a line.

A first argument that is not an ID (``OptionError("free text")``) is kept as it is, for
third-party games that bring no catalogue.
"""
from __future__ import annotations

import re
import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

LANGS = ("ja", "en")
_ID = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$")
_ENGINE_FILE = Path(__file__).with_name("errors.toml")
_PACKAGE_DIR = Path(__file__).resolve().parent.parent
_GAMES_DIR = _PACKAGE_DIR / "games"


def is_message_id(text: str) -> bool:
    return bool(_ID.match(text))


def _flatten(table: Mapping[str, Any], prefix: str, out: dict[str, dict[str, str]]) -> None:
    for key, value in table.items():
        if isinstance(value, dict) and all(lang in value for lang in LANGS):
            out[prefix + key] = {lang: str(value[lang]) for lang in LANGS}
        elif isinstance(value, dict):
            _flatten(value, f"{prefix}{key}.", out)


@lru_cache(maxsize=None)
def _load(path: Path, prefix: str) -> Mapping[str, Mapping[str, str]]:
    if not path.is_file():
        return {}
    with path.open("rb") as fh:
        table = tomllib.load(fh)
    out: dict[str, dict[str, str]] = {}
    _flatten(table, prefix, out)
    return out


def error_file(msg_id: str) -> Path:
    """The catalogue that holds `msg_id`: a game's own for IDs that start with its name, a
    subpackage's own (``takujo/adapters/errors.toml``) for IDs that start with its name."""
    first = msg_id.split(".", 1)[0]
    for own in (_GAMES_DIR / first / "errors.toml", _PACKAGE_DIR / first / "errors.toml"):
        if first != "core" and own.is_file():
            return own
    return _ENGINE_FILE


def error_messages(path: Path) -> Mapping[str, Mapping[str, str]]:
    """Every template of one error catalogue, by ID (a game's or a subpackage's IDs start with
    its name)."""
    own = path.parent.parent in (_GAMES_DIR, _PACKAGE_DIR) and path != _ENGINE_FILE
    return _load(path, f"{path.parent.name}." if own else "")


def error_template(msg_id: str, lang: str) -> str | None:
    entry = error_messages(error_file(msg_id)).get(msg_id)
    return None if entry is None else entry.get(lang)


def _arg_text(value: Any, lang: str, joiner: str | None = None) -> Any:
    if isinstance(value, _Message):
        return value.text(lang)
    if isinstance(value, (list, tuple)):
        if joiner is None:
            joiner = "; " if value and all(isinstance(v, TakujoError) for v in value) else ", "
        return joiner.join(str(_arg_text(v, lang)) for v in value)
    return value


def _render(message: str, args: Mapping[str, Any], lang: str) -> str:
    if not is_message_id(message):
        return message
    template = error_template(message, lang) or error_template(message, "en")
    texts = {k: _arg_text(v, lang, "\n" if k == "lines" else None) for k, v in args.items()}
    if template is None:  # an ID missing from its catalogue: show it, never hide the error
        return f"{message} {texts}" if texts else message
    try:
        return template.format(**texts)
    except (KeyError, IndexError, ValueError):
        return f"{message} {texts}"


class _Message:
    """A message ID (or free text) with its named arguments, rendered in either language."""

    message: str
    message_args: dict[str, Any]

    def text(self, lang: str = "en") -> str:
        """The message in `lang` ("ja" or "en")."""
        return _render(self.message, self.message_args, lang)

    def __str__(self) -> str:
        return self.text("en")


class Phrase(_Message):
    """A translatable phrase given as an argument of an error (``Phrase("data.what.decklist")``)."""

    def __init__(self, message: str, /, **args: Any) -> None:
        self.message = message
        self.message_args = args


class TakujoError(_Message, Exception):
    """Base class of every error the engine raises on purpose."""

    def __init__(self, message: str = "", /, **args: Any) -> None:
        super().__init__(message)
        self.message_id = message if is_message_id(message) else None
        self.message = message
        self.message_args = args

    def __reduce__(self) -> tuple[Any, ...]:  # keep the ID and arguments across processes
        return (_rebuild, (type(self), self.message, self.message_args))


def _rebuild(cls: type[TakujoError], message: str, args: dict[str, Any]) -> TakujoError:
    return cls(message, **args)


class IllegalActionError(TakujoError, ValueError):
    """An action that is not legal in the current state. The state is left unchanged."""


class StaleActionError(IllegalActionError):
    """An action sent for an earlier version of the state (someone acted in between)."""


class OptionError(TakujoError, ValueError):
    """An unknown option, or an option value of the wrong type or range."""


class CardDataError(TakujoError, ValueError):
    """Malformed card or board data; the message names the file, the card and the field."""


class RecordError(TakujoError, ValueError):
    """A game record that does not describe a legal game of this engine."""


class NotSupportedError(TakujoError, NotImplementedError):
    """A feature the game does not have, e.g. the deck commands for a game without decks."""


class NotationError(IllegalActionError):
    """Action text that cannot be parsed."""
