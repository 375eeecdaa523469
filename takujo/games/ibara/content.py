"""The content of いばらの姫と4人の騎士 as data: action deck, knights, whims, events, items.

All of it is a stand-in (the real lists are not public), declared in ``content.toml`` and
validated here; errors name the file, the entry and the field.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ...core.cards import read_toml, validate_entries
from ...core.errors import CardDataError

CONTENT_FILE = Path(__file__).with_name("content.toml")
SUITS = ("剣", "巻物", "拳")
BEATS = {"剣": "巻物", "巻物": "拳", "拳": "剣"}   # each suit beats the next [designed cycle]
SHIELD = "盾"
EVENT_EFFECTS = {"gain_item": {"item"}, "random_item": set(), "irritation": {"n"}, "draw": {"n"},
                 "discard_random": {"n"}, "random_placement": set()}
SP_EFFECTS = {"teleport", "draw", "move_event"}


class Entry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$")]
    name_ja: Annotated[str, Field(min_length=1)]
    name_en: Annotated[str, Field(min_length=1)]
    count: Annotated[int, Field(ge=1, le=24)] = 1
    text_ja: str = ""
    text_en: str = ""


class Knight(Entry):
    kind: Literal["combat", "movement", "exploration", "weak"]


class Item(Entry):
    short_remove: Annotated[int, Field(ge=0)] = 0      # IBR-SHORT-06: chips removed in short mode


class Whim(Entry):
    limit: Annotated[int, Field(ge=1, le=6)]          # the irritation limit (a d6)
    items: list[str] = []                             # items given to satisfy it
    deed: Literal["win_combat", "visit"] | None = None
    square: int | None = None                         # for deed = "visit"
    short_remove: bool = False                        # IBR-SHORT-04

    @model_validator(mode="after")
    def _need(self) -> "Whim":
        if bool(self.items) == bool(self.deed):
            raise ValueError("a whim needs either items or a deed")
        if self.deed == "visit" and self.square not in range(1, 13):
            raise ValueError("a visit whim needs a square 1..12")
        return self


class Event(Entry):
    effect: dict[str, Any]
    short_remove: Annotated[int, Field(ge=0)] = 0      # IBR-SHORT-05

    @model_validator(mode="after")
    def _effect(self) -> "Event":
        do = self.effect.get("do")
        if do not in EVENT_EFFECTS:
            raise ValueError(f"unknown event effect {do!r}; known: {', '.join(sorted(EVENT_EFFECTS))}")
        extra = set(self.effect) - {"do"} - EVENT_EFFECTS[do]
        if extra:
            raise ValueError(f"event effect {do!r} takes no parameter(s) {sorted(extra)}")
        return self


class SpCard(Entry):
    effect: str

    @model_validator(mode="after")
    def _effect(self) -> "SpCard":
        if self.effect not in SP_EFFECTS:
            raise ValueError(f"unknown SP effect {self.effect!r}; known: {', '.join(sorted(SP_EFFECTS))}")
        return self


class DeckSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    numbers: Annotated[int, Field(ge=1, le=12)] = 12
    copies: Annotated[int, Field(ge=1)] = 2
    shields: list[Annotated[int, Field(ge=1, le=12)]]
    move: dict[str, int]             # "1-4" = 3 ... movement by number range; "shield" = n


@dataclass(frozen=True, slots=True)
class ActionCard:
    """One action card: a suited card, a shield or an SP card."""

    iid: int
    suit: str | None          # 剣 巻物 拳, 盾 for shields, None for SP
    number: int               # 0 for SP cards
    move: int
    sp: str | None = None     # SP effect
    name: str = ""

    @property
    def is_sp(self) -> bool:
        return self.sp is not None

    @property
    def label(self) -> str:
        if self.sp:
            return f"SP「{self.name}」"
        return f"{self.suit}{self.number}"


@dataclass(frozen=True)
class Content:
    path: str
    meta: dict[str, Any]
    cards: tuple[ActionCard, ...]
    knights: tuple[Knight, ...]
    whims: tuple[Whim, ...]          # one per physical card
    events: tuple[Event, ...]        # one per physical card
    items: tuple[Item, ...]          # one per physical chip
    # combat plays by (hand, size, defender, ryan_sp): a pure function of the cards
    plays: dict[tuple, tuple[tuple[int, ...], ...]] = field(default_factory=dict, compare=False, hash=False, repr=False)


def _move_for(number: int, table: dict[str, int]) -> int:
    for key, value in table.items():
        lo, _, hi = key.partition("-")
        if lo.isdigit() and int(lo) <= number <= int(hi or lo):
            return value
    raise CardDataError(f"no movement value for number {number}")


def _expand(entries: list[Any]) -> tuple[Any, ...]:
    return tuple(e for e in entries for _ in range(e.count))


def build_content(path: Path | str = CONTENT_FILE) -> Content:
    path = Path(path)
    doc = read_toml(path)
    try:
        deck = DeckSpec.model_validate(doc.get("deck", {}))
    except Exception as exc:
        raise CardDataError(f"{path}: [deck]: {exc}") from None
    knights = validate_entries(path, doc.get("knight"), Knight, "knight")
    items = validate_entries(path, doc.get("item"), Item, "item")
    whims = validate_entries(path, doc.get("whim"), Whim, "whim")
    events = validate_entries(path, doc.get("event"), Event, "event")
    sps = validate_entries(path, doc.get("sp"), SpCard, "sp")
    item_ids = {i.id for i in items}
    for w in whims:
        for it in w.items:
            if it not in item_ids:
                raise CardDataError(f"{path}: whim ({w.id}): field 'items': no item {it!r}")
    for e in events:
        it = e.effect.get("item")
        if it is not None and it not in item_ids:
            raise CardDataError(f"{path}: event ({e.id}): field 'effect.item': no item {it!r}")
    cards: list[ActionCard] = []
    for suit in SUITS:
        for number in range(1, deck.numbers + 1):
            for _ in range(deck.copies):
                cards.append(ActionCard(len(cards), suit, number, _move_for(number, deck.move)))
    for number in deck.shields:
        cards.append(ActionCard(len(cards), SHIELD, number, deck.move.get("shield", 2)))
    for sp in _expand(sps):
        cards.append(ActionCard(len(cards), None, 0, 0, sp.effect, sp.name_ja))
    return Content(str(path), dict(doc.get("meta", {})), tuple(cards), tuple(knights),
                   _expand(whims), _expand(events), _expand(items))


@lru_cache(maxsize=4)
def content(path: str = str(CONTENT_FILE)) -> Content:
    return build_content(path)
