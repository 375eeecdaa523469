"""Metric names as a report's reader says them, in Japanese or English.

A metric is a column of ``results.db`` (``seat0_won``, ``won:ライアン``, ``ended:deck_out``,
``anger_explosions``); `Labels` gives its label in the report's language and its kind, which
decides the plot panel it goes in. Why a game ended and a game's own figures come from the
game's message catalogue (``word.<reason>``, ``lab.figure.<name>``) where it has them, else from
``labels.toml`` beside this module, else the raw name.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..core.errors import TakujoError
from ..present.catalogue import Catalogue, load_catalogue, messages_path
from ..present.language import default_language, parse_language
from ..present.render import plain_text

LABELS_FILE = Path(__file__).with_name("labels.toml")
#: The kinds of metric, in the order of the tables and the plot panels.
KINDS = ("rate", "count", "figure")
#: Metrics counted per game (the rest of the engine's own are rates).
COUNTS = ("turns", "steps", "lead_changes")
_SEAT = re.compile(r"seat(\d+)_won$")


@lru_cache(maxsize=None)
def _catalogue(path: str) -> Catalogue:
    return load_catalogue(path)


@lru_cache(maxsize=None)
def _game_catalogue(game: str) -> Catalogue:
    """The game's messages, or none if the game is unknown here."""
    from ..core.registry import game_class
    try:
        path = messages_path(game_class(game))
    except (TakujoError, ImportError):
        return Catalogue()
    return _catalogue(str(path)) if path.is_file() else Catalogue()


def report_language(lang: str | None = None) -> str:
    """`lang` if given, else the interface's default (TAKUJO_LANG, the locale), else English."""
    if lang is not None:
        return parse_language(lang)
    try:
        return default_language()
    except TakujoError:
        return "en"


def kind(name: str) -> str:
    """``"rate"`` (a share of games: wins, endings), ``"count"`` (turns, steps, lead changes)
    or ``"figure"`` (the game's own, from `State.stats`)."""
    if _SEAT.match(name) or name.startswith(("won:", "bot_won:", "ended:")) \
            or name in ("first_player_won", "no_winner"):
        return "rate"
    return "count" if name in COUNTS else "figure"


def _rank(name: str) -> tuple[int, int, str]:
    group = ("seat", "won:", "bot_won:", "first_player_won", "ended:", "no_winner", *COUNTS)
    seat = _SEAT.match(name)
    for i, prefix in enumerate(group):
        if name.startswith(prefix):
            return i, int(seat.group(1)) if seat else 0, name
    return len(group), 0, name


def order(names: list[str]) -> list[str]:
    """Seats, sides, bots, the first player, endings; then lengths; then the game's figures."""
    return sorted(names, key=_rank)


class Labels:
    """The words of one game's report in one language."""

    def __init__(self, game: str, lang: str) -> None:
        self.game = game
        self.lang = lang
        self._own = _catalogue(str(LABELS_FILE))
        self._game = _game_catalogue(game)

    def text(self, key: str, **args: Any) -> str:
        """One of the report's own texts (``labels.toml``), as plain text."""
        template = self._own.template(key, self.lang) or key
        return template.format(**args) if args else template

    def _game_word(self, key: str) -> str | None:
        template = self._game.template(key, self.lang)
        return plain_text(template) if template is not None else None

    def title(self) -> str:
        """The game's title in this language, else its name."""
        return self._game_word("game.title") or self.game

    def side(self, label: str) -> str:
        """A side (deck, knight, faction) as the game's catalogue names it, else as stored."""
        return self._game_word(f"word.{label}") or label

    def reason(self, reason: str) -> str:
        """Why a game ended: the game's word for it, else the report's, else the raw reason."""
        return self._game_word(f"word.{reason}") or (self.text(f"reason.{reason}")
                                                      if f"reason.{reason}" in self._own else reason)

    def metric(self, name: str) -> str:
        """A metric's label (``seat0_won`` -> "Seat 0 wins" / "席0の勝ち"); the raw name if
        nothing names it."""
        label = self._metric(name)
        return label[:1].upper() + label[1:] if self.lang == "en" and label != name else label

    def _metric(self, name: str) -> str:
        seat = _SEAT.match(name)
        if seat:
            return self.text("metric.seat_won", seat=seat.group(1))
        prefix, _, rest = name.partition(":")
        if rest and prefix == "won":
            return self.text("metric.side_won", side=self.side(rest))
        if rest and prefix == "bot_won":
            return self.text("metric.bot_won", bot=rest)
        if rest and prefix == "ended":
            return self.text("metric.ended", reason=self.reason(rest))
        if f"metric.{name}" in self._own:
            return self.text(f"metric.{name}")
        found = self._game_word(f"lab.figure.{name}")
        if found is not None:
            return found
        return self.text(f"figure.{name}") if f"figure.{name}" in self._own else name

    def short(self, name: str) -> str:
        """A win metric's short label for a plot's axis ("Seat 0", "ライアン"); else `metric`."""
        seat = _SEAT.match(name)
        if seat:
            return self.text("short.seat", seat=seat.group(1))
        prefix, _, rest = name.partition(":")
        if rest and prefix == "won":
            return self.side(rest)
        if rest and prefix == "bot_won":
            return rest
        return self.metric(name)
