"""Errors raised by the engine. Every one names what is wrong."""
from __future__ import annotations


class TakujoError(Exception):
    """Base class of every error the engine raises on purpose."""


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
