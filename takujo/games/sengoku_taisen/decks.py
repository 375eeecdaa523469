"""Decklists for 戦国大戦 双: a plain format users can write, and the construction rules.

    # comment
    name: 紅
    okugi: AK-OG
    4 AK-01   # 織田信長

`check` lists every problem at once (SGT-DECK-01..04); `resolve` turns a starter name or a
file path into a legal `Decklist`, or raises `OptionError` naming each problem.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ...core.errors import OptionError
from .cards import Pool

DECK_DIR = Path(__file__).with_name("decks")
STARTERS = {"蒼": "ao.txt", "紅": "aka.txt", "翠": "midori.txt", "黒": "kuro.txt"}
MIN_DECK = 50      # SGT-DECK-01
MAX_COPIES = 4     # SGT-DECK-03

_LINE = re.compile(r"^(\d+)\s*[xX×]?\s+(\S+)$")


@dataclass
class Decklist:
    name: str
    source: str
    okugi: list[str] = field(default_factory=list)
    entries: list[tuple[int, str, int]] = field(default_factory=list)  # (count, number, line)
    syntax: list[str] = field(default_factory=list)

    def cards(self) -> list[str]:
        """The deck as card numbers, one per copy, in list order."""
        return [number for count, number, _ in self.entries for _ in range(count)]

    def text(self) -> str:
        lines = [f"name: {self.name}"]
        lines += [f"okugi: {o}" for o in self.okugi]
        merged: dict[str, int] = {}
        for count, number, _ in self.entries:
            merged[number] = merged.get(number, 0) + count
        lines += [f"{count} {number}" for number, count in merged.items()]
        return "\n".join(lines) + "\n"


def parse(text: str, source: str = "<decklist>") -> Decklist:
    deck = Decklist(name=Path(source).stem, source=source)
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, sep, value = line.partition(":")
        if sep and key.strip().lower() in ("name", "okugi", "奥義"):
            if key.strip().lower() == "name":
                deck.name = value.strip()
            else:
                deck.okugi.append(value.strip())
            continue
        m = _LINE.match(line)
        if not m:
            deck.syntax.append(f"line {no}: expected 'COUNT CARD-NUMBER', got {raw.strip()!r}")
            continue
        deck.entries.append((int(m.group(1)), m.group(2), no))
    return deck


def check(deck: Decklist, pool: Pool) -> list[str]:
    """Every construction problem of a decklist (empty when legal)."""
    problems = list(deck.syntax)
    per_number: dict[str, int] = {}
    for count, number, no in deck.entries:
        if number not in pool:
            problems.append(f"line {no}: unknown card number {number!r}")
            continue
        kind = pool[number].type
        if kind in ("ougi", "summon"):            # SGT-DECK-02
            what = "an okugi (奥義)" if kind == "ougi" else "a summoned-soldier (召喚兵) card"
            problems.append(f"line {no}: {number} is {what} and may not be in the deck"
                            + (" (list it on an 'okugi:' line)" if kind == "ougi" else ""))
            continue
        per_number[number] = per_number.get(number, 0) + count
    for number, count in per_number.items():      # SGT-DECK-03: by card number
        if count > MAX_COPIES:
            problems.append(f"{count} copies of {number} ({pool[number].name}); at most {MAX_COPIES} per card number")
    total = sum(per_number.values())
    if total < MIN_DECK:                          # SGT-DECK-01
        problems.append(f"the deck has {total} cards; at least {MIN_DECK} are needed")
    if len(deck.okugi) != 1:                      # SGT-DECK-04
        problems.append(f"a deck needs exactly one okugi (奥義) line; found {len(deck.okugi)}")
    for o in deck.okugi:
        if o not in pool:
            problems.append(f"okugi: unknown card number {o!r}")
        elif pool[o].type != "ougi":
            problems.append(f"okugi: {o} ({pool[o].name}) is a {pool[o].type}, not an okugi")
    return problems


def load(spec: str) -> Decklist:
    """A starter by name (蒼 紅 翠 黒) or a decklist file."""
    if spec in STARTERS:
        path = DECK_DIR / STARTERS[spec]
        return parse(path.read_text(encoding="utf-8"), spec)
    path = Path(spec)
    if not path.is_file():
        raise OptionError(f"deck {spec!r} is neither a starter ({', '.join(STARTERS)}) nor a decklist file")
    try:
        return parse(path.read_text(encoding="utf-8"), str(path))
    except (OSError, UnicodeDecodeError) as exc:
        raise OptionError(f"deck {spec!r}: cannot read: {exc}") from None


def resolve(spec: str, pool: Pool) -> Decklist:
    deck = load(spec)
    problems = check(deck, pool)
    if problems:
        raise OptionError(f"deck {spec!r} is not legal:\n  " + "\n  ".join(problems))
    return deck
