"""Decklists for 戦国大戦 双: a plain format users can write, and the construction rules.

    # comment
    name: 紅
    okugi: AK-OG
    4 AK-01   # 織田信長

`check` lists every problem at once (SGT-DECK-01..04), each a `Problem`: its English text,
which renders in Japanese too; `resolve` turns a starter name or a file path into a legal
`Decklist`, or raises `OptionError` naming each problem.

A file that is not a decklist at all (most of its lines are none of the above, e.g. a deck
option naming ``/etc/passwd``) gets one problem naming the first such line by number: the
text of a file that is not a decklist is never shown.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...core.cards import read_data_text
from ...core.errors import CardDataError, OptionError, Phrase
from .cards import Pool

DECK_DIR = Path(__file__).with_name("decks")
STARTERS = {"蒼": "ao.txt", "紅": "aka.txt", "翠": "midori.txt", "黒": "kuro.txt"}
MIN_DECK = 50      # SGT-DECK-01
MAX_COPIES = 4     # SGT-DECK-03

MAX_COUNT_DIGITS = 3   # a count line lists 1..999 copies (construction caps them at 4)
QUOTE = 40             # at most this many characters of a decklist's own text in a problem
MAX_LISTED = 20        # at most this many problems in one error (`takujo deck check` lists all)

_LINE = re.compile(r"^(\d+)\s*[xX×]?\s+(\S+)$")


def _cut(text: str) -> str:
    """A decklist's own text as a problem quotes it (the template adds the quotes)."""
    text = text.strip()
    return text if len(text) <= QUOTE else text[:QUOTE] + "…"


class Problem(str, Phrase):
    """One problem of a decklist: a str holding its English text (what `takujo deck check`
    prints and `check` compares), with its message ID, so that an error listing it renders
    it in Japanese too."""

    def __new__(cls, message: str, /, **args: Any) -> "Problem":
        # The str is the English text, rendered from a phrase of the same ID and arguments
        # (made without a call naming the ID, which each Problem(...) call names itself).
        english = Phrase.__new__(Phrase)
        Phrase.__init__(english, message, **args)
        return super().__new__(cls, english.text("en"))

    def __init__(self, message: str, /, **args: Any) -> None:
        Phrase.__init__(self, message, **args)


def _listed(problems: list[str]) -> list[Phrase]:
    """The problems as the lines of an error: at most `MAX_LISTED`, then how many more."""
    lines = [Phrase("sengoku_taisen.decks.problem_line", problem=p) for p in problems[:MAX_LISTED]]
    if len(problems) > MAX_LISTED:
        lines.append(Phrase("sengoku_taisen.decks.more_problems", n=len(problems) - MAX_LISTED))
    return lines


@dataclass
class Decklist:
    name: str
    source: str
    okugi: list[str] = field(default_factory=list)
    entries: list[tuple[int, str, int]] = field(default_factory=list)  # (count, number, line)
    syntax: list[str] = field(default_factory=list)            # `Problem`s
    bad_lines: list[int] = field(default_factory=list)     # lines that are no decklist line
    headers: int = 0                                        # name: and okugi: lines

    def is_decklist(self) -> bool:
        """Whether the text reads as a decklist: no more lines that are none of the
        decklist's lines than lines that are, and some count lines unless every line is a
        decklist's (an empty decklist is one, of 0 cards: `check` says what it lacks)."""
        return (bool(self.entries) or not self.bad_lines) and \
            len(self.bad_lines) <= len(self.entries) + self.headers

    def not_a_decklist(self) -> Problem:
        """The one problem of a file that is not a decklist (`is_decklist` is false: it has a
        bad line): its first bad line, by number."""
        return Problem("sengoku_taisen.decks.problem.not_a_decklist", source=self.source,
                       no=self.bad_lines[0], n=len(self.bad_lines))

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
            deck.headers += 1
            if key.strip().lower() == "name":
                deck.name = value.strip()[:QUOTE]
            else:
                deck.okugi.append(value.strip())
            continue
        m = _LINE.match(line)
        if not m:
            deck.bad_lines.append(no)
            deck.syntax.append(Problem("sengoku_taisen.decks.problem.not_a_line", no=no, text=_cut(raw)))
            continue
        # The digits are counted before they are read: int() refuses thousands of them.
        digits = m.group(1).lstrip("0")
        if len(digits) > MAX_COUNT_DIGITS:
            deck.syntax.append(Problem("sengoku_taisen.decks.problem.count_too_large", no=no,
                                       number=_cut(m.group(2)), digits=len(digits),
                                       most=10 ** MAX_COUNT_DIGITS - 1, copies=MAX_COPIES))
        elif not digits:
            deck.syntax.append(Problem("sengoku_taisen.decks.problem.count_zero", no=no, number=_cut(m.group(2))))
        else:
            deck.entries.append((int(digits), m.group(2), no))
            continue
        deck.headers += 1       # a count line, if a wrong one: the file reads as a decklist
    return deck


def check(deck: Decklist, pool: Pool) -> list[str]:
    """Every construction problem of a decklist (empty when legal), each a `Problem`."""
    problems = list(deck.syntax)
    per_number: dict[str, int] = {}
    for count, number, no in deck.entries:
        if number not in pool:
            problems.append(Problem("sengoku_taisen.decks.problem.unknown_number", no=no, number=_cut(number)))
            continue
        kind = pool[number].type
        if kind == "ougi":                        # SGT-DECK-02
            problems.append(Problem("sengoku_taisen.decks.problem.okugi_in_deck", no=no, number=number))
            continue
        if kind == "summon":                      # SGT-DECK-02
            problems.append(Problem("sengoku_taisen.decks.problem.summon_in_deck", no=no, number=number))
            continue
        per_number[number] = per_number.get(number, 0) + count
    for number, count in per_number.items():      # SGT-DECK-03: by card number
        if count > MAX_COPIES:
            problems.append(Problem("sengoku_taisen.decks.problem.too_many_copies", count=count, number=number,
                                    name=pool[number].name, most=MAX_COPIES))
    total = sum(per_number.values())
    if total < MIN_DECK:                          # SGT-DECK-01
        problems.append(Problem("sengoku_taisen.decks.problem.too_few_cards", total=total, least=MIN_DECK))
    if len(deck.okugi) != 1:                      # SGT-DECK-04
        problems.append(Problem("sengoku_taisen.decks.problem.okugi_lines", found=len(deck.okugi)))
    for o in deck.okugi:
        if o not in pool:
            problems.append(Problem("sengoku_taisen.decks.problem.unknown_okugi", number=_cut(o)))
        elif pool[o].type != "ougi":
            problems.append(Problem("sengoku_taisen.decks.problem.not_okugi", number=o, name=pool[o].name,
                                    type=pool[o].type))
    return problems


def read(path: Path | str) -> Decklist:
    """A decklist file, parsed; `CardDataError` naming the file if it cannot be read as text
    (missing, a folder, not UTF-8, too large). Never quotes a file that is not a decklist."""
    return parse(read_data_text(path, "decklist"), str(path))


def file_problems(path: Path | str, pool: Pool) -> list[str]:
    """Every construction problem of a decklist file; one problem, naming no line's text, for
    a file that is not a decklist (`takujo deck check`)."""
    deck = read(path)
    return check(deck, pool) if deck.is_decklist() else [deck.not_a_decklist()]


#: A deck given by its code rather than a file: ``code:AO-OG.2xAO-01.3xAO-02…`` (the okugi,
#: then COUNTxNUMBER for each card), so that a game string carries an uploaded deck whole.
CODE_PREFIX = "code:"
_CODE_ENTRY = re.compile(r"^([1-9]\d{0,2})x([A-Za-z0-9_-]{1,16})$")    # a card number (cards.CardSpec)
_CODE_OKUGI = re.compile(r"^[A-Za-z0-9_-]{1,16}$")
MAX_CODE = 2000


def encode(deck: Decklist) -> str:
    """The deck code of a decklist (see `CODE_PREFIX`)."""
    merged: dict[str, int] = {}
    for count, number, _ in deck.entries:
        merged[number] = merged.get(number, 0) + count
    return CODE_PREFIX + ".".join([*deck.okugi[:1], *(f"{n}x{number}" for number, n in merged.items())])


def decode(code: str) -> Decklist:
    """The decklist of a deck code; `OptionError` if it is not one."""
    body = code[len(CODE_PREFIX):]
    parts = body.split(".") if body else []
    if len(code) > MAX_CODE or len(parts) < 2 or not _CODE_OKUGI.match(parts[0]) \
            or not all(_CODE_ENTRY.match(p) for p in parts[1:]):
        raise OptionError("sengoku_taisen.decks.bad_code", length=len(code))
    deck = Decklist(name="code", source="deck code", okugi=[parts[0]], headers=2)
    for i, part in enumerate(parts[1:], 2):
        count, number = part.split("x", 1)
        deck.entries.append((int(count), number, i))
    return deck


def from_text(text: str, pool: Pool) -> str:
    """The deck code of an uploaded decklist's text; `OptionError` naming every problem."""
    deck = parse(text, "decklist")
    if not deck.is_decklist():
        raise OptionError("sengoku_taisen.decks.bad_upload", problem=deck.not_a_decklist())
    problems = check(deck, pool)
    if problems:
        raise OptionError("sengoku_taisen.decks.not_legal", deck=deck.name, lines=_listed(problems))
    return encode(deck)


def load(spec: str) -> Decklist:
    """A starter by name (蒼 紅 翠 黒), a deck code, or a decklist file."""
    if spec in STARTERS:
        return parse(read_data_text(DECK_DIR / STARTERS[spec], "decklist"), spec)
    if spec.startswith(CODE_PREFIX):
        return decode(spec)
    path = Path(spec)
    if not path.exists():
        raise OptionError("sengoku_taisen.decks.not_found", deck=spec, starters=list(STARTERS))
    try:
        deck = read(path)
    except CardDataError as exc:
        raise OptionError("sengoku_taisen.decks.bad_file", deck=spec, problem=exc) from None
    if not deck.is_decklist():
        raise OptionError("sengoku_taisen.decks.bad_file", deck=spec, problem=deck.not_a_decklist())
    return deck


def resolve(spec: str, pool: Pool) -> Decklist:
    deck = load(spec)
    problems = check(deck, pool)
    if problems:
        raise OptionError("sengoku_taisen.decks.not_legal", deck=spec, lines=_listed(problems))
    return deck
