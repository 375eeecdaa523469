"""Card effects declared once per verb: what card data may say, and what the rules do with it.

A game keeps one `Verbs` registry. Each entry names the card types that may carry the verb,
the parameters card data may give it (the loader refuses any other, so no parameter is
silently ignored), the ones it needs, and the functions that carry it out::

    VERBS = Verbs()

    @VERBS.verb("draw", types={"hold"}, params={"n"}, targets=lambda s, p, card: [()])
    def _draw(s, use, eff):
        s.draw(use["user"], eff.get("n", 1))
        return True

The game's card model takes ``VERBS.vocabulary()`` as its `Effect.VOCABULARY`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable


@dataclass(frozen=True, slots=True)
class Verb:
    """One effect verb. `resolve(state, use, effect)` carries it out and says whether it did
    anything (False: its target was gone); `targets(state, player, card)` lists the legal
    target choices of a card used by choice (None: the card takes none); `dice(effect)` is
    the dice notation rolled when the card is used (None: no roll); `stays` says the card
    remains in play once resolved instead of being discarded."""

    name: str
    types: frozenset[str]
    params: frozenset[str] = frozenset()
    required: frozenset[str] = frozenset()
    resolve: Callable[..., bool] | None = None
    targets: Callable[..., list[tuple[int, ...]]] | None = None
    dice: Callable[[Any], str | None] | None = None
    stays: bool = False


class Verbs(dict[str, Verb]):
    """A game's effect verbs by name."""

    def verb(self, name: str, types: Iterable[str], params: Iterable[str] = (), required: Iterable[str] = (),
             targets: Callable[..., list[tuple[int, ...]]] | None = None,
             dice: Callable[[Any], str | None] | None = None,
             stays: bool = False) -> Callable[[Callable[..., bool]], Callable[..., bool]]:
        """Register the decorated function as the verb's `resolve`."""
        def register(resolve: Callable[..., bool]) -> Callable[..., bool]:
            self.add(Verb(name, frozenset(types), frozenset(params), frozenset(required), resolve, targets,
                          dice, stays))
            return resolve
        return register

    def add(self, verb: Verb) -> Verb:
        if verb.name in self:
            raise ValueError(f"effect verb {verb.name!r} registered twice")
        if not verb.required <= verb.params:
            raise ValueError(f"effect verb {verb.name!r} requires parameters it does not declare")
        self[verb.name] = verb
        return verb

    def vocabulary(self) -> dict[str, set[str]]:
        """Verb -> the parameters card data may give it (for `takujo.core.cards.Effect`)."""
        return {name: set(v.params) for name, v in self.items()}
