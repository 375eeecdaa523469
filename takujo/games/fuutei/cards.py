"""The card data of 風帝伝説FIGHTER: schema, loading and composition checks.

Cards are declared in ``cards.toml`` (``[[card]]`` tables, each with a ``count``) and expanded
into a frozen catalogue of card instances; states refer to cards by instance id (0..98).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Callable, Literal

from pydantic import ConfigDict, Field, ValidationInfo, field_validator, model_validator

from ...core.cards import META_KEYS, QUOTE, CardText, expand, first_repeat, load_cards, read_meta, unknown_keys
from ...core.cards import Effect as CoreEffect
from ...core.dice import Dice
from ...core.errors import CardDataError
from .constants import STATS
from .effects import VERBS

CARD_FILE = Path(__file__).with_name("cards.toml")
MAX_DICE = 4  # FTR-PLAYERS-03: four dice are all the game supplies

CardType = Literal["character", "equipment", "hold", "battle_support", "tawake", "event", "region"]

# FTR-COMP-01, FTR-COMP-02: the composition of the 99-card set.
COMPOSITION: dict[str, int] = {
    "character": 49, "equipment": 12, "hold": 11, "battle_support": 11,
    "tawake": 2, "event": 2, "region": 12,
}
# Fields a card type must have (checked per field, so an error names the missing field).
REQUIRED_BY_TYPE: dict[str, tuple[str, ...]] = {
    "sex": ("character",), "stats": ("character",), "bonus": ("equipment",),
    "points": ("region",), "effect": ("hold", "battle_support", "tawake", "event"),
}

# The effect vocabulary: each verb, the card types that may use it, and its parameters, from
# the one registry entry of each verb (effects.VERBS). Every parameter is read by the rule that
# carries the verb out; one no rule reads would be silently ignored, so it must not be declared
# (the loader then refuses it).
HOOKS = {"yamiomaru_victory"}
# The defences 刺客 (``assassinate``) may roll against, with their index in stats.
DEFENCES = {"phys_def": 1, "mag_def": 3}
MODIFIABLE = (*STATS, "initiative")
#: The tables a card file holds.
TABLES = ("meta", "card")
#: The largest modifier a card adds to a stat (equipment bonus, a hold's modifier).
MAX_MODIFIER = 20


def _int(lo: int, hi: int) -> Callable[[Any], None]:
    def check(v: Any) -> None:
        if type(v) is not int or not lo <= v <= hi:
            raise CardDataError("fuutei.cards.not_int_in_range", lo=lo, hi=hi, value=v)
    return check


def _one_of(*choices: str) -> Callable[[Any], None]:
    def check(v: Any) -> None:
        if v not in choices:
            raise CardDataError("fuutei.cards.not_one_of", choices=choices, value=v)
    return check


# What each parameter's value may be (the same name means the same thing in every verb): each
# check raises CardDataError for a value it refuses.
PARAM_CHECKS: dict[str, Callable[[Any], object]] = {
    "n": _int(1, 10), "need": _int(1, 12), "opposite_sex_bonus": _int(0, 6),
    "dice": lambda v: _dice(v), "roll": lambda v: _dice(v),
    "against": _one_of(*DEFENCES), "target": _one_of("self", "opponent"),
    "roll_to": _one_of("attack", *MODIFIABLE),
    **{stat: _int(-MAX_MODIFIER, MAX_MODIFIER) for stat in MODIFIABLE},
}


def _dice(value: Any) -> Dice:
    return Dice.parse(value, max_dice=MAX_DICE)


assert all(p in PARAM_CHECKS for v in VERBS.values() for p in v.params), "a parameter without a check"


class Effect(CoreEffect):
    VOCABULARY = VERBS        # read live: a verb registered later is known at once

    @model_validator(mode="after")
    def _values(self) -> "Effect":
        params = self.model_extra or {}
        missing = sorted(VERBS[self.do].required - set(params))
        if missing:
            raise CardDataError("fuutei.cards.effect_needs_params", effect=self.do, missing=missing)
        for key, value in params.items():
            check = PARAM_CHECKS.get(key)       # an undeclared one is refused by the vocabulary
            try:
                if check is not None:
                    check(value)
            except ValueError as exc:
                raise CardDataError("fuutei.cards.bad_param", effect=self.do, param=key, problem=exc) from None
        return self


class CardSpec(CardText):
    """One ``[[card]]`` table of cards.toml."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$")]
    name_ja: Annotated[str, Field(min_length=1)]
    name_en: Annotated[str, Field(min_length=1)]
    type: CardType
    count: Annotated[int, Field(ge=1, le=12)] = 1
    sex: Literal["male", "female"] | None = Field(None, validate_default=True)
    stats: list[str | int] | None = Field(None, validate_default=True)
    bonus: list[Annotated[int, Field(ge=-MAX_MODIFIER, le=MAX_MODIFIER)]] | None = Field(None, validate_default=True)
    points: Annotated[int, Field(ge=0, le=40)] | None = Field(None, validate_default=True)
    effect: Effect | None = Field(None, validate_default=True)
    hook: str | None = None
    excluded_by: str | None = None

    @field_validator(*REQUIRED_BY_TYPE)
    @classmethod
    def _required_by_type(cls, v: Any, info: ValidationInfo) -> Any:
        t = info.data.get("type")
        if v is None and t is not None and t in REQUIRED_BY_TYPE[str(info.field_name)]:
            if t[0] in "aeiou":
                raise CardDataError("fuutei.cards.an_type_needs_field", type=t, field=info.field_name)
            raise CardDataError("fuutei.cards.a_type_needs_field", type=t, field=info.field_name)
        return v

    @field_validator("stats")
    @classmethod
    def _stats(cls, v: list[str | int] | None) -> list[str | int] | None:
        if v is None:
            return v
        if len(v) != 4:
            raise CardDataError("fuutei.cards.stats_needs_four")
        for item in v:
            _dice(item)
        return v

    @field_validator("bonus")
    @classmethod
    def _bonus(cls, v: list[int] | None) -> list[int] | None:
        if v is not None and len(v) != 4:
            raise CardDataError("fuutei.cards.bonus_needs_four")
        return v

    @field_validator("hook")
    @classmethod
    def _hook(cls, v: str | None) -> str | None:
        if v is not None and v not in HOOKS:
            raise CardDataError("fuutei.cards.unknown_hook", hook=v[:QUOTE], known=sorted(HOOKS))
        return v

    @model_validator(mode="after")
    def _by_type(self) -> "CardSpec":
        t = self.type
        if self.effect is not None:
            if t not in VERBS[self.effect.do].types:
                raise CardDataError("fuutei.cards.effect_not_for_type", effect=self.effect.do, type=t)
            if self.effect.do == "temporary_character" and (self.stats is None or self.sex is None):
                raise CardDataError("fuutei.cards.temporary_needs_stats_and_sex")
        return self


@dataclass(frozen=True, slots=True)
class Card:
    """One physical card (instance) of the catalogue."""

    iid: int
    spec: CardSpec
    stats: tuple[Dice, Dice, Dice, Dice] | None
    bonus: tuple[int, int, int, int]

    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def type(self) -> str:
        return self.spec.type

    @property
    def name(self) -> str:
        return self.spec.name_ja

    @property
    def label(self) -> str:
        return f"{self.spec.name_ja} ({self.spec.name_en})"

    @property
    def effect(self) -> Effect | None:
        return self.spec.effect


@dataclass(frozen=True)
class Catalogue:
    """The expanded, frozen card set."""

    path: str
    meta: dict[str, Any]
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        # flat per-instance arrays for the hot paths (legal actions, victory checks)
        object.__setattr__(self, "types", tuple(c.type for c in self.cards))
        object.__setattr__(self, "points", tuple(c.spec.points or 0 for c in self.cards))
        object.__setattr__(self, "ids", tuple(c.id for c in self.cards))

    types: tuple[str, ...] = ()
    points: tuple[int, ...] = ()
    ids: tuple[str, ...] = ()

    def __len__(self) -> int:
        return len(self.cards)

    def __getitem__(self, iid: int) -> Card:
        return self.cards[iid]

    def effect(self, iid: int) -> Effect:
        """The effect of a card that has one (hold, battle support, たわけ！, event)."""
        eff = self.cards[iid].effect
        assert eff is not None, f"card {iid} has no effect"
        return eff

    def dice(self, iid: int) -> tuple[Dice, ...]:
        """A character's four stat dice (physical attack, physical defence, magic attack,
        magic defence)."""
        stats = self.cards[iid].stats
        assert stats is not None, f"card {iid} is not a character"
        return stats

    def of_type(self, card_type: str) -> list[int]:
        return [c.iid for c in self.cards if c.type == card_type]

    def by_id(self, card_id: str) -> list[int]:
        return [c.iid for c in self.cards if c.id == card_id]


def build_catalogue(path: Path | str = CARD_FILE, check_composition: bool = True) -> Catalogue:
    """Load, validate and expand a card file. Raises CardDataError naming file, card and field."""
    doc, specs = load_cards(path, CardSpec)
    tables, meta = unknown_keys(doc, TABLES)
    if tables:
        raise CardDataError("fuutei.cards.unknown_tables", path=path, tables=tables, known=list(TABLES))
    if meta:
        raise CardDataError("fuutei.cards.unknown_meta", path=path, keys=meta, known=list(META_KEYS))
    repeated = first_repeat(specs, lambda s: s.id)
    if repeated is not None:
        raise CardDataError("fuutei.cards.duplicate_id", path=path, card=str(repeated)[:QUOTE])
    ids = {s.id for s in specs}
    for spec in specs:
        if spec.excluded_by is not None and spec.excluded_by not in ids:
            raise CardDataError("fuutei.cards.no_excluding_card", path=path, card=spec.id[:QUOTE],
                                excluded_by=spec.excluded_by[:QUOTE])
    if check_composition:
        counts = {t: 0 for t in COMPOSITION}
        for spec in specs:
            counts[spec.type] += spec.count
        wrong = [CardDataError("fuutei.cards.type_count", type=t, count=counts[t], needs=n)
                 for t, n in COMPOSITION.items() if counts[t] != n]
        if wrong:
            raise CardDataError("fuutei.cards.wrong_composition", path=path, counts=wrong)
    def make(iid: int, spec: CardSpec) -> Card:
        stats = tuple(_dice(v) for v in spec.stats) if spec.stats else None
        bonus = tuple(spec.bonus) if spec.bonus else (0, 0, 0, 0)
        return Card(iid, spec, stats, bonus)  # type: ignore[arg-type]

    return Catalogue(str(path), read_meta(doc), expand(specs, make))


@lru_cache(maxsize=8)
def catalogue(path: str = str(CARD_FILE)) -> Catalogue:
    return build_catalogue(path)
