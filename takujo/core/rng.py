"""A seeded random number generator whose whole state is one integer.

The engine draws every chance outcome (dice, shuffles, random picks) from the state's own
`Rng`, so a state can be cloned, serialised and replayed exactly. The generator is
SplitMix64: tiny, fast in pure Python and statistically sound for game use.
"""
from __future__ import annotations

_MASK = (1 << 64) - 1


def _mix(s: int) -> int:
    """SplitMix64's output function of a 64-bit state. The compiled build does this in C's
    64-bit arithmetic (types in rng.pxd), which is the same arithmetic modulo 2**64."""
    m, a, b = _MASK, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
    z = ((s ^ (s >> 30)) * a) & m
    z = ((z ^ (z >> 27)) * b) & m
    return z ^ (z >> 31)


class Rng:
    """SplitMix64. `Rng(seed)`; `.state` is plain data (an int)."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0, *, raw_state: int | None = None) -> None:
        self.state = (raw_state if raw_state is not None else seed * 0x9E3779B97F4A7C15 + 1) & _MASK

    def clone(self) -> "Rng":
        return Rng(raw_state=self.state)

    def next64(self) -> int:
        self.state = s = (self.state + 0x9E3779B97F4A7C15) & _MASK
        return _mix(s)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError("Rng.below needs n > 0")
        limit = _MASK - (_MASK + 1) % n
        while True:
            x = self.next64()
            if x <= limit:
                return x % n

    def die(self, sides: int = 6) -> int:
        return self.below(sides) + 1

    def shuffle(self, items: list) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items):
        return items[self.below(len(items))]

    def fork(self) -> "Rng":
        """An independent stream derived from this one (for bots and samplers)."""
        return Rng(raw_state=self.next64())
