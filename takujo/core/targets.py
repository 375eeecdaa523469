"""Typed action arguments: what each argument of an action names.

An action's arguments are small ints and words (``hold 41 2``). Whether ``2`` is a card, a
player or a place is declared once, by the game, instead of being guessed by every reader
(the renderer, the bots, the boards and the research adapters)::

    ARGS = ArgKinds(
        fixed={"guard": (Target.card("region"), Target.card("party"))},
        by_card={"hold": (Target.card("hold"), lambda game, card: VERBS.target_of(...))},
    )

A fixed verb has the same kinds whatever its arguments; a card-led verb (``hold c ...``)
starts with a card, and the kinds of what follows depend on that card (the target its
effect verb declares, `takujo.core.effects.Verb.target`); a repeated verb takes any number
of arguments of one kind (``fight 3 17 40``: a set of cards). ``game.arg_kinds(action)`` gives
the kinds of one action; ``game.typed_args(action)`` pairs them with the values.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, Callable, Mapping, NamedTuple

if TYPE_CHECKING:
    from .action import Action
    from .game import Game


class Kind(str, Enum):
    """What an argument names."""

    CARD = "card"          # a card instance id (in the zone or group `Target.of` names)
    PLAYER = "player"      # a seat index
    PLACE = "place"        # a place of the board: a region, province or square (`Target.of`)
    NUMBER = "number"      # a count or an amount
    WORD = "word"          # one of a few words (`Target.words`)
    ANY = "any"            # undeclared: a game without an argument table (readers guess)


@dataclass(frozen=True, slots=True)
class Target:
    """The declared kind of one argument. `of` narrows it: for a card, the zone or card group
    it comes from (``"party"``, ``"hand"``); for a place, which places (``"province"``)."""

    kind: Kind
    of: str = ""
    words: tuple[str, ...] = ()

    @staticmethod
    def card(of: str = "") -> "Target":
        return Target(Kind.CARD, of)

    @staticmethod
    def player() -> "Target":
        return Target(Kind.PLAYER)

    @staticmethod
    def place(of: str) -> "Target":
        return Target(Kind.PLACE, of)

    @staticmethod
    def number(of: str = "") -> "Target":
        return Target(Kind.NUMBER, of)

    @staticmethod
    def word(*words: str) -> "Target":
        return Target(Kind.WORD, "", tuple(words))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind.value}
        if self.of:
            out["of"] = self.of
        if self.words:
            out["words"] = list(self.words)
        return out

    def __str__(self) -> str:
        return f"{self.kind.value}:{self.of}" if self.of else self.kind.value


Signature = tuple[Target, ...]
#: (the game, the leading card) -> the kinds of the arguments after the card
CardTail = Callable[["Game", int], Signature]


class Typed(NamedTuple):
    """One argument value with its declared kind (what the renderer shows by kind)."""

    target: Target
    value: Any


class ArgKindError(KeyError):
    """An action whose verb the game's argument table does not declare."""


class ArgKinds:
    """A game's table of argument kinds, by action verb (see the module's docstring)."""

    __slots__ = ("fixed", "by_card", "repeated")

    def __init__(self, fixed: Mapping[str, Signature] | None = None,
                 by_card: Mapping[str, tuple[Target, CardTail]] | None = None,
                 repeated: Mapping[str, Target] | None = None) -> None:
        self.fixed = dict(fixed or {})
        self.by_card = dict(by_card or {})
        self.repeated = dict(repeated or {})
        both = set(self.fixed) & set(self.by_card)
        if both:
            raise ValueError(f"verbs declared both fixed and card-led: {sorted(both)}")
        twice = set(self.repeated) & (set(self.fixed) | set(self.by_card))
        if twice:
            raise ValueError(f"verbs declared repeated and fixed or card-led: {sorted(twice)}")

    def verbs(self) -> set[str]:
        return set(self.fixed) | set(self.by_card) | set(self.repeated)

    def of(self, game: "Game", action: "Action") -> Signature:
        """The kinds of `action`'s arguments, one per argument."""
        verb = action.verb
        sig = self.fixed.get(verb)
        if sig is not None:
            return sig
        led = self.by_card.get(verb)
        if led is None:
            each = self.repeated.get(verb)
            if each is not None:
                return (each,) * len(action.args)
            raise ArgKindError(f"{game.name}: the arguments of {verb!r} are not declared")
        head, tail = led
        if not action.args:
            return ()
        return (head, *tail(game, int(action.args[0])))

    def tail_of(self, game: "Game", verb: str, card: int) -> Signature:
        """For a card-led verb: the kinds of the arguments after `card`."""
        return self.by_card[verb][1](game, card)
