"""The content of いばらの姫と4人の騎士 as data: action deck, knights, whims, events, items.

All of it is a stand-in (the real lists are not public), declared in ``content.toml`` and
validated here; errors name the file, the entry and the field.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from ...core.cards import META_KEYS, QUOTE, expand, read_meta, read_toml, unknown_keys, validate_entries
from ...core.errors import CardDataError
from ...core.validation import field_name, problem
from .effects import EVENTS, SP

CONTENT_FILE = Path(__file__).with_name("content.toml")
SUITS = ("剣", "巻物", "拳")
BEATS = {"剣": "巻物", "巻物": "拳", "拳": "剣"}   # each suit beats the next [designed cycle]
SHIELD = "盾"
SUIT_EN = {"剣": "Sword", "巻物": "Scroll", "拳": "Fist", SHIELD: "Shield"}
#: The built-in vocabularies (verb -> its parameters; the SP verbs), as the card schemas give
#: them: the loader reads the registries themselves (`effects.EVENTS`, `effects.SP`).
EVENT_EFFECTS = EVENTS.vocabulary()
SP_EFFECTS = set(SP)


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


def _removes_copies(entry: Item | Event) -> None:
    """Short mode removes `short_remove` of an entry's `count` copies: no more than it has."""
    if entry.short_remove > entry.count:
        raise CardDataError("ibara.content.short_remove_over_count", remove=entry.short_remove, count=entry.count)


class Item(Entry):
    short_remove: Annotated[int, Field(ge=0)] = 0      # IBR-SHORT-06: chips removed in short mode

    @model_validator(mode="after")
    def _short(self) -> "Item":
        _removes_copies(self)
        return self


class Whim(Entry):
    limit: Annotated[int, Field(ge=1, le=6)]          # the irritation limit (a d6)
    items: list[str] = []                             # items given to satisfy it
    deed: Literal["win_combat", "visit"] | None = None
    square: int | None = None                         # for deed = "visit"
    short_remove: bool = False                        # IBR-SHORT-04

    @model_validator(mode="after")
    def _need(self) -> "Whim":
        if bool(self.items) == bool(self.deed):
            raise CardDataError("ibara.content.whim_items_or_deed")
        if self.deed == "visit" and self.square not in range(1, 13):
            raise CardDataError("ibara.content.visit_needs_square")
        if self.deed != "visit" and self.square is not None:
            raise CardDataError("ibara.content.square_only_visit")
        return self


class Event(Entry):
    effect: dict[str, Any]
    short_remove: Annotated[int, Field(ge=0)] = 0      # IBR-SHORT-05

    @model_validator(mode="after")
    def _effect(self) -> "Event":
        do = self.effect.get("do")
        verb = EVENTS.get(do) if isinstance(do, str) else None
        if verb is None:
            raise CardDataError("ibara.content.unknown_event_effect", effect=do, known=sorted(EVENTS))
        given = set(self.effect) - {"do"}
        extra = given - verb.params
        if extra:
            raise CardDataError("ibara.content.event_extra_params", effect=do, extra=sorted(extra))
        missing = verb.required - given
        if missing:
            raise CardDataError("ibara.content.event_needs_params", effect=do, missing=sorted(missing))
        n = self.effect.get("n", 1)
        if type(n) is not int or not 1 <= n <= 12:
            raise CardDataError("ibara.content.event_bad_n", effect=do, n=n)
        if "item" in given and not isinstance(self.effect["item"], str):
            raise CardDataError("ibara.content.event_bad_item", effect=do, item=self.effect["item"])
        _removes_copies(self)
        return self


class SpCard(Entry):
    effect: str

    @model_validator(mode="after")
    def _effect(self) -> "SpCard":
        if self.effect not in SP:
            raise CardDataError("ibara.content.unknown_sp_effect", effect=self.effect, known=sorted(SP))
        return self


class DeckSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    numbers: Annotated[int, Field(ge=1, le=12)] = 12
    copies: Annotated[int, Field(ge=1, le=8)] = 2
    shields: Annotated[list[Annotated[int, Field(ge=1, le=12)]], Field(max_length=24)]
    move: dict[str, Annotated[int, Field(ge=1, le=12)]]   # "1-4" = 3 ... by number range; "shield" = n

    @model_validator(mode="after")
    def _ranges(self) -> "DeckSpec":
        ranges = []
        for key in self.move:
            if key == "shield":
                continue
            bounds = _range(key)
            if bounds is None:
                raise CardDataError("ibara.content.bad_move_range", key=key if len(key) <= QUOTE else key[:QUOTE] + "…")
            ranges.append(bounds)
        missing = [n for n in range(1, self.numbers + 1) if not any(lo <= n <= hi for lo, hi in ranges)]
        if missing:
            raise CardDataError("ibara.content.move_missing", numbers=missing)
        return self


def _range(key: str) -> tuple[int, int] | None:
    """ "5-8" -> (5, 8), "7" -> (7, 7); None for anything else, a number of more than two
    digits included (numbers are 1..12; int() would refuse thousands of digits)."""
    lo, sep, hi = key.partition("-")
    hi = hi if sep else lo
    if not all(part.isdecimal() and len(part) <= 2 for part in (lo, hi)):
        return None
    return int(lo), int(hi)


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


@dataclass(frozen=True)
class Content:
    path: str
    meta: dict[str, Any]
    cards: tuple[ActionCard, ...]
    knights: tuple[Knight, ...]
    whims: tuple[Whim, ...]          # one per physical card
    events: tuple[Event, ...]        # one per physical card
    items: tuple[Item, ...]          # one per physical chip
    sps: tuple["SpCard", ...] = ()   # one per kind of SP card


def _move_for(number: int, table: dict[str, int]) -> int:
    for key, value in table.items():
        bounds = _range(key) if key != "shield" else None
        if bounds and bounds[0] <= number <= bounds[1]:
            return value
    raise AssertionError(f"no movement value for number {number}")   # DeckSpec checked it


#: The tables a content file may hold.
TABLES = ("meta", "deck", "sp", "knight", "item", "whim", "event")
MIN_KNIGHTS = 3                  # the fewest players (IbaraOptions.players)
MAX_PLAYERS = 4                  # the most players (IbaraOptions.players)


def build_content(path: Path | str = CONTENT_FILE) -> Content:
    """Read and check a content file: every problem is a `CardDataError` naming the file (and
    the table, entry and field) — nothing the game needs is left to fail during play."""
    path = Path(path)
    doc = read_toml(path)
    unknown, unknown_meta = unknown_keys(doc, TABLES)
    if unknown:
        raise CardDataError("ibara.content.unknown_tables", path=path, tables=unknown, known=list(TABLES))
    if not isinstance(doc.get("meta", {}), dict):                # read_meta would take it for none
        raise CardDataError("ibara.content.meta_not_table", path=path)
    if unknown_meta:
        raise CardDataError("ibara.content.unknown_meta", path=path, keys=unknown_meta, known=list(META_KEYS))
    try:
        deck = DeckSpec.model_validate(doc.get("deck", {}))
    except ValidationError as exc:
        raise CardDataError("ibara.content.bad_deck", path=path, problems=[
            CardDataError("ibara.content.field_problem", field=field_name(e, "(table)"), problem=problem(e))
            for e in exc.errors()]) from None
    knights = validate_entries(path, doc.get("knight"), Knight, "knight")
    items = validate_entries(path, doc.get("item"), Item, "item")
    whims = validate_entries(path, doc.get("whim"), Whim, "whim")
    events = validate_entries(path, doc.get("event"), Event, "event")
    sps = validate_entries(path, doc.get("sp"), SpCard, "sp")
    for table, entries in (("knight", knights), ("item", items), ("whim", whims), ("event", events), ("sp", sps)):
        ids = [e.id for e in entries]
        twice = sorted({i for i in ids if ids.count(i) > 1})
        if twice:
            raise CardDataError("ibara.content.duplicate_ids", path=path, table=table, ids=twice)
    if len(knights) < MIN_KNIGHTS:
        raise CardDataError("ibara.content.too_few_knights", path=path, count=len(knights), least=MIN_KNIGHTS)
    chips = {i.id: i.count for i in items}
    for w in whims:
        for it in w.items:
            if it not in chips:
                raise CardDataError("ibara.content.whim_no_item", path=path, whim=w.id, item=it)
            if w.items.count(it) > chips[it]:          # it could never be satisfied
                raise CardDataError("ibara.content.whim_more_than_chips", path=path, whim=w.id, item=it,
                                    wants=w.items.count(it), chips=chips[it])
    for e in events:
        wanted = e.effect.get("item")
        if wanted is not None and wanted not in chips:
            raise CardDataError("ibara.content.event_no_item", path=path, event=e.id, item=wanted)
    cards: list[ActionCard] = []
    for suit in SUITS:
        for number in range(1, deck.numbers + 1):
            for _ in range(deck.copies):
                cards.append(ActionCard(len(cards), suit, number, _move_for(number, deck.move)))
    for number in deck.shields:
        cards.append(ActionCard(len(cards), SHIELD, number, deck.move.get("shield", 2)))
    first_sp = len(cards)
    sp_cards = expand(sps, lambda i, sp: ActionCard(first_sp + i, None, 0, 0, sp.effect, sp.name_ja))
    # The fewest action cards a game can be played with: at the most players each may keep a
    # full hand between turns, and the turn player then draws DRAW more; with fewer, the deck
    # and its discard pile run dry while the cards sit in hands, and no one can act.
    from .state import DRAW, HAND_LIMIT      # (state.py imports this module)
    least = MAX_PLAYERS * HAND_LIMIT + DRAW
    if len(cards) + len(sp_cards) < least:
        raise CardDataError("ibara.content.too_few_action_cards", path=path, count=len(cards) + len(sp_cards),
                            least=least, players=MAX_PLAYERS, hand=HAND_LIMIT, draw=DRAW)
    # whims, events and items: one entry per physical card or chip (its index is its id)
    return Content(str(path), read_meta(doc), (*cards, *sp_cards), tuple(knights),
                   expand(whims, lambda i, w: w), expand(events, lambda i, e: e), expand(items, lambda i, it: it),
                   tuple(sps))


def check_for_game(c: Content, players: int, whims_needed: int, whims_in_play: int) -> None:
    """What a game of `players` needs from the content, checked when the game is loaded:
    a knight per player and enough whim cards to win."""
    if len(c.knights) < players:
        raise CardDataError("ibara.content.knights_for_players", path=c.path, count=len(c.knights),
                            players=players)
    if whims_in_play < whims_needed:
        raise CardDataError("ibara.content.too_few_whims", path=c.path, count=whims_in_play, needed=whims_needed)


@lru_cache(maxsize=4)
def content(path: str = str(CONTENT_FILE)) -> Content:
    return build_content(path)
