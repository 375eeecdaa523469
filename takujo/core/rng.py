"""A seeded random number generator whose whole state is one integer.

The engine draws every chance outcome (dice, shuffles, random picks) from the state's own
`Rng`, so a state can be cloned, serialised and replayed exactly. The generator is
SplitMix64: tiny, fast in pure Python and statistically sound for game use.
"""
from __future__ import annotations

from typing import Any, Sequence, TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1


def _mix(s: int) -> int:
    """SplitMix64's output function of a 64-bit state. The compiled build runs this module in
    C's 64-bit unsigned arithmetic (types in rng.pxd), the same arithmetic modulo 2**64: every
    sum and product here is masked to 64 bits, and no intermediate value needs more."""
    m, a, b = _MASK, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
    z = ((s ^ (s >> 30)) * a) & m
    z = ((z ^ (z >> 27)) * b) & m
    return z ^ (z >> 31)


def _seed(seed: object) -> int:
    """A seed given as another integer type (numpy's, a bool is refused), or OptionError."""
    from .errors import OptionError
    if isinstance(seed, bool) or not hasattr(seed, "__index__"):
        raise OptionError("seed.not_int", type=type(seed).__name__, value=str(seed)[:40])
    return int(seed.__index__())


class Rng:
    """SplitMix64. `Rng(seed)`; `.state` is plain data (an int)."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0, *, raw_state: int | None = None) -> None:
        if raw_state is None and type(seed) is not int:
            seed = _seed(seed)
        self.state = (raw_state if raw_state is not None else seed * 0x9E3779B97F4A7C15 + 1) & _MASK

    def clone(self) -> "Rng":
        return Rng(raw_state=self.state)

    def next64(self) -> int:
        g, m = 0x9E3779B97F4A7C15, _MASK
        self.state = s = (self.state + g) & m
        return _mix(s)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias; 0 < n < 2**64."""
        if n <= 0 or n > _MASK:
            raise ValueError(f"Rng.below needs 0 < n < 2**64, got {n}")
        k, m = n, _MASK
        limit = m - (m % k + 1) % k         # below it, whole blocks of k values (2**64 % k == (m % k + 1) % k)
        while True:
            x = self.next64()
            if x <= limit:
                return x % k

    def die(self, sides: int = 6) -> int:
        return self.below(sides) + 1

    def shuffle(self, items: list[Any]) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def fork(self) -> "Rng":
        """An independent stream derived from this one (for bots and samplers)."""
        return Rng(raw_state=self.next64())
