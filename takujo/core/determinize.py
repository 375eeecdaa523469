"""Helpers for determinization: sampling a full state that agrees with one player's view.

A game's `determinize(view, rng)` rebuilds the public part of its state from the view and
fills every hidden slot with cards the viewer has not seen, shuffled on the bot's own RNG,
respecting what the viewer knows of each hidden zone (e.g. hands never hold open cards).
"""
from __future__ import annotations

from typing import Any, Callable, Iterable

from .rng import Rng
from .visibility import ZoneSpec


def seen_cards(view: dict[str, Any], zones: Iterable[ZoneSpec]) -> set[int]:
    """Every card id the view shows in a card zone (hidden zones show only a count)."""
    return {card for _, card in seen_by_pool(view, zones)}


def seen_by_pool(view: dict[str, Any], zones: Iterable[ZoneSpec]) -> set[tuple[str, int]]:
    """(pool, card id) for every card the view shows in a card zone: ids of different pools
    (an item chip and an action card) may be equal."""
    seen: set[tuple[str, int]] = set()
    for spec in zones:
        if spec.tokens:
            continue
        data = view["zones"][spec.name]
        for part in (data if spec.per_player else [data]):
            if isinstance(part, list):
                seen.update((spec.pool, c) for c in part)
    return seen


class Filler:
    """Deals unseen cards into hidden slots, most constrained slots first."""

    def __init__(self, unseen: Iterable[int], rng: Rng) -> None:
        self.pool = list(unseen)
        rng.shuffle(self.pool)

    def take(self, count: int, allowed: Callable[[int], bool] | None = None) -> list[int]:
        out: list[int] = []
        for c in list(self.pool):
            if len(out) == count:
                break
            if allowed is None or allowed(c):
                out.append(c)
                self.pool.remove(c)
        if len(out) < count:
            raise ValueError(f"cannot fill {count} hidden slots consistently ({len(out)} candidates)")
        return out

    def rest(self) -> list[int]:
        out, self.pool = self.pool, []
        return out


def base_json(game: Any, rng: Rng, steps: int = 0) -> dict[str, Any]:
    """The `_base` block of a state's JSON for a sampled world: a fresh RNG, an empty log."""
    return {"game": str(game), "rng": rng.next64(), "log": [], "outcome": None, "steps": steps}
