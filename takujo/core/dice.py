"""Dice expressions such as ``2D+3`` (the sum of two six-sided dice plus 3).

Full-width forms used in Japanese card text (``２Ｄ＋３``) are accepted.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from .errors import CardDataError
from .rng import Rng

_EXPR = re.compile(r"^([+-]?\d+)$|^(\d*)D([+-]\d+)?$")
#: The largest fixed number a dice expression may carry (no card needs more than two digits).
MAX_NUMBER = 999


def _bounded(number: int, text: object) -> int:
    if abs(number) > MAX_NUMBER:
        raise CardDataError("dice.out_of_range", text=str(text)[:20], number=number, limit=MAX_NUMBER)
    return number


@dataclass(frozen=True, slots=True)
class Dice:
    """``n`` six-sided dice plus a fixed ``bonus``."""

    n: int = 0
    bonus: int = 0

    @classmethod
    def parse(cls, text: str | int, max_dice: int | None = None) -> "Dice":
        """Parse ``"2D+3"``, ``"D"``, ``"1D-1"``, ``"9"`` or an int.

        >>> Dice.parse("２Ｄ＋３")
        Dice(n=2, bonus=3)
        """
        if isinstance(text, bool):
            raise CardDataError("dice.bad", text=str(text)[:20])
        if isinstance(text, int):
            return cls(0, _bounded(text, text))
        if not isinstance(text, str) or len(text) > 40:
            raise CardDataError("dice.bad", text=str(text)[:20])
        norm = unicodedata.normalize("NFKC", text).replace(" ", "").upper()
        m = _EXPR.match(norm)
        if not norm or not m:
            raise CardDataError("dice.bad", text=text)
        if m.group(1) is not None:
            return cls(0, _bounded(int(m.group(1)), text))
        n = int(m.group(2)) if m.group(2) else 1
        limit = max_dice if max_dice is not None else 99
        if not 1 <= n <= limit:
            raise CardDataError("dice.count", text=text, n=n, limit=limit)
        return cls(n, _bounded(int(m.group(3) or 0), text))

    @property
    def mean(self) -> float:
        """The expected total (3.5 a die)."""
        return 3.5 * self.n + self.bonus

    def plus(self, other: "Dice") -> "Dice":
        return Dice(self.n + other.n, self.bonus + other.bonus)

    def roll(self, rng: Rng) -> tuple[int, tuple[int, ...]]:
        """Return (total, faces)."""
        faces = tuple(rng.die(6) for _ in range(self.n))
        return sum(faces) + self.bonus, faces

    def __str__(self) -> str:
        if not self.n:
            return str(self.bonus)
        sign = f"{self.bonus:+d}" if self.bonus else ""
        return f"{self.n}D{sign}"
