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

A verb used by choice declares the kind of each target it takes (``target=(Target.player(),)``:
`takujo.core.targets`), so the renderer, the bots, the boards and the research adapters read
what a target names instead of guessing it; ``aim`` says whose things it is meant for (``"foe"``:
harms its target's owner; ``"own"``: helps its user), which a heuristic with no branch of its
own for the verb reads to choose it and its target. A verb with no `resolve` is *passive*:
a rule reads it where it applies (a battle bonus, an income), and the registry says which.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable

from .targets import Signature


@dataclass(frozen=True, slots=True)
class Verb:
    """One effect verb. `resolve(state, use, effect)` carries it out and says whether it did
    anything (False: its target was gone); `targets(state, player, card)` lists the legal
    target choices of a card used by choice (None: the card takes none); `dice(effect)` is
    the dice notation rolled when the card is used (None: no roll); `stays` says the card
    remains in play once resolved instead of being discarded; `target` declares the kind of
    each entry of a target choice; `aim` whom it is for (``"foe"``, ``"own"`` or None);
    `worth` a rough value to a heuristic that has no branch of its own for the verb."""

    name: str
    types: frozenset[str]
    params: frozenset[str] = frozenset()
    required: frozenset[str] = frozenset()
    resolve: Callable[..., bool] | None = None
    targets: Callable[..., list[tuple[int, ...]]] | None = None
    dice: Callable[[Any], str | None] | None = None
    stays: bool = False
    target: Signature = ()
    aim: str | None = None
    worth: float = 1.0

    @property
    def passive(self) -> bool:
        """No `resolve`: a rule reads the verb where it applies."""
        return self.resolve is None


AIMS = (None, "foe", "own")


class Verbs(dict[str, Verb]):
    """A game's effect verbs by name."""

    def verb(self, name: str, types: Iterable[str], params: Iterable[str] = (), required: Iterable[str] = (),
             targets: Callable[..., list[tuple[int, ...]]] | None = None,
             dice: Callable[[Any], str | None] | None = None,
             stays: bool = False, target: Signature = (), aim: str | None = None,
             worth: float = 1.0) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Register the decorated function as the verb's `resolve`."""
        def register(resolve: Callable[..., Any]) -> Callable[..., Any]:
            self.add(Verb(name, frozenset(types), frozenset(params), frozenset(required), resolve, targets,
                          dice, stays, tuple(target), aim, worth))
            return resolve
        return register

    def passive(self, name: str, types: Iterable[str], params: Iterable[str] = (),
                required: Iterable[str] = ()) -> Verb:
        """Register a passive verb: card data may name it; a rule reads it where it applies."""
        return self.add(Verb(name, frozenset(types), frozenset(params), frozenset(required)))

    def for_type(self, card_type: str) -> set[str]:
        """The verbs a card of `card_type` may carry."""
        return {name for name, v in self.items() if card_type in v.types}

    def add(self, verb: Verb) -> Verb:
        if verb.name in self:
            raise ValueError(f"effect verb {verb.name!r} registered twice")
        if not verb.required <= verb.params:
            raise ValueError(f"effect verb {verb.name!r} requires parameters it does not declare")
        if verb.aim not in AIMS:
            raise ValueError(f"effect verb {verb.name!r}: aim {verb.aim!r} is not one of {AIMS}")
        if verb.target and verb.targets is None:
            raise ValueError(f"effect verb {verb.name!r} declares target kinds but no targeting rule")
        self[verb.name] = verb
        return verb

    def vocabulary(self) -> dict[str, set[str]]:
        """Verb -> the parameters card data may give it (for `takujo.core.cards.Effect`)."""
        return {name: set(v.params) for name, v in self.items()}

    def target_of(self, name: str) -> Signature:
        """The kinds of the targets verb `name` takes (() for none)."""
        return self[name].target
