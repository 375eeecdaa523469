"""The card pool of 戦国大戦 双: schema, loading and old-series normalisation.

Cards are keyed by card number. Old-series data (武力, 特技, 鉄砲隊 …) is accepted and read as
the current terms (SGT-LEGACY-02..09).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, field_validator, model_validator

from ...core.cards import META_KEYS, QUOTE, CardText, first_repeat, load_cards, read_meta, unknown_keys
from ...core.cards import Effect as CoreEffect
from ...core.errors import CardDataError
from .effects import VERBS

CARD_FILE = Path(__file__).with_name("cards.toml")

# SGT-COLOR-03: five colours and colourless ("他" maps to colourless).
COLORS = ("蒼", "紅", "翠", "黄", "黒")
COLOR_ALIASES = {"blue": "蒼", "red": "紅", "green": "翠", "yellow": "黄", "black": "黒",
                 "青": "蒼", "赤": "紅", "緑": "翠", "無": "無", "他": "無", "colorless": "無",
                 "colourless": "無", "灰": "無"}
# SGT-LEGACY-05..09: old troop types read as the current ones.
UNITS = {"騎兵": "cavalry", "歩兵": "infantry", "鉄砲兵": "gunner", "槍兵": "spear", "弓兵": "archer",
         "騎馬隊": "cavalry", "足軽": "infantry", "鉄砲隊": "gunner", "槍足軽": "spear", "弓足軽": "archer"}
UNIT_NAMES_JA = {"cavalry": "騎兵", "infantry": "歩兵", "gunner": "鉄砲兵", "spear": "槍兵", "archer": "弓兵"}
KEYWORDS = {"奇襲", "貫通", "長槍"}
# SGT-WARLORD-09 / SGT-WARLORD-11: rules of every warlord, never printed as a keyword.
RULE_KEYWORDS = {"疾風怒濤", "無双連撃"}
# The effect vocabulary: verb -> the parameters card data may give it, from the one registry
# entry of each verb (`effects.VERBS`, read live: a verb registered later is known at once).
# Every parameter is read by the rule that carries the verb out; one no rule reads would be
# silently ignored, so it must not be declared (the loader then refuses it).
EFFECTS = VERBS.vocab
# The largest numbers a card may print [designed bounds, far above any card of the pool]: 兵力
# (and an effect's amount of it), 攻城力, a cost, and a count of cards or units.
MAX_STRENGTH = 99_999
MAX_SIEGE = 99
MAX_COST = 99
MAX_COUNT = 99
# Parameters that are whole numbers, and the smallest and largest each may be.
NUMBERS: dict[str, tuple[int, int]] = {
    "amount": (-MAX_STRENGTH, MAX_STRENGTH), "n": (1, MAX_COUNT), "count": (1, MAX_COUNT),
    "strength": (0, MAX_STRENGTH), "siege": (0, MAX_SIEGE), "max_strength": (0, MAX_STRENGTH),
    "koku": (0, MAX_COUNT), "camp": (0, MAX_COUNT), "hand_at_most": (0, MAX_COUNT),
    "deck_at_most": (0, 10 * MAX_COUNT)}
#: The tables a card file holds.
TABLES = ("meta", "card")
TIMINGS = {"メイン": "main", "戦闘": "battle", "main": "main", "battle": "battle"}
ABILITY_TIMINGS = {"メイン": "main", "戦闘確定時": "battle_confirmed", "撤退時": "retreat",
                   "攻撃宣言時": "attack_declared", "常時": "always",
                   "main": "main", "battle_confirmed": "battle_confirmed", "retreat": "retreat",
                   "attack_declared": "attack_declared", "always": "always"}
_COST = re.compile(r"^((?:[蒼紅翠黄黒])*)(\d*)$")


def _shown(value: Any) -> Any:
    """A value of the card file as a message shows it: a number as it is, anything else as
    text of at most `QUOTE` characters."""
    if isinstance(value, (bool, int, float)) or value is None:
        return value
    text = str(value)
    return text if len(text) <= QUOTE else text[:QUOTE] + "…"


class Effect(CoreEffect):
    VOCABULARY = EFFECTS

    @model_validator(mode="after")
    def _values(self) -> "Effect":
        """Every parameter's value must be one the rules carry out: a known `target` for the
        verb, a troop type for `unit`, whole numbers for counts and amounts."""
        extra = self.model_extra or {}
        scopes = VERBS[self.do].scopes
        if "target" in extra and extra["target"] not in scopes:
            raise CardDataError("sengoku_taisen.cards.bad_target", effect=self.do, target=_shown(extra["target"]),
                                targets=list(scopes) or CardDataError("sengoku_taisen.cards.no_targets"))
        if "unit" in extra and extra["unit"] not in UNIT_NAMES_JA:
            raise CardDataError("sengoku_taisen.cards.bad_unit", effect=self.do, unit=_shown(extra["unit"]),
                                units=list(UNIT_NAMES_JA))
        for key, (low, high) in NUMBERS.items():
            if key in extra:
                v = extra[key]
                if type(v) is not int or not low <= v <= high:
                    raise CardDataError("sengoku_taisen.cards.not_int_between", effect=self.do, param=key,
                                        low=low, high=high, value=_shown(v))
        return self

    @cached_property
    def aim(self) -> str | None:
        """Whom it acts on: "ally" or "enemy" (one unit, chosen), "self", "all_allies",
        "all_enemies" (its ``target`` word, else its verb's first scope), or None (no unit)."""
        scopes = VERBS[self.do].scopes
        aim: str | None = self.get("target", scopes[0] if scopes else None)   # checked by `_values`
        return aim

    @cached_property
    def strength_limit(self) -> int | None:
        """The highest 兵力 a target may have (``max_strength``), if any."""
        limit: int | None = self.get("max_strength")      # a whole number (`_values`)
        return limit


class Ability(Effect):
    """A warlord ability: a timing tag ({メイン}, {戦闘確定時}, {撤退時}, …) and an effect."""

    timing: str
    exhaust: bool = False         # {待機⇒疲弊}: using it exhausts the warlord
    once: bool = False            # {1回制限}: once per turn

    @field_validator("timing")
    @classmethod
    def _timing(cls, v: str) -> str:
        v = v.strip("{}｛｝")
        if v not in ABILITY_TIMINGS:
            raise CardDataError("sengoku_taisen.cards.unknown_ability_timing", timing=_shown(v),
                                known=[k for k in ABILITY_TIMINGS if not k.isascii()])
        return ABILITY_TIMINGS[v]


@dataclass(frozen=True, slots=True)
class Cost:
    """A cost: coloured requirements plus a generic part (SGT-COST-03..06)."""

    colors: tuple[tuple[str, int], ...] = ()
    generic: int = 0

    @property
    def total(self) -> int:
        return self.generic + sum(n for _, n in self.colors)

    @staticmethod
    def parse(text: str | int) -> "Cost":
        """``"紅紅1"``: two 紅 and one of any colour; ``3``: three of any colour. A cost of
        more than `MAX_COST` in all is refused (its digits are counted before they are read,
        so a number of thousands of digits is a clear error too)."""
        if isinstance(text, int):
            if not 0 <= text <= MAX_COST:
                raise CardDataError("sengoku_taisen.cards.cost_range", cost=text, most=MAX_COST)
            return Cost((), text)
        m = _COST.match(str(text).replace(" ", ""))
        if not m:
            raise CardDataError("sengoku_taisen.cards.bad_cost", cost=_shown(text))
        colours, digits = m.group(1), m.group(2).lstrip("0")
        if len(digits) > len(str(MAX_COST)) or len(colours) + int(digits or 0) > MAX_COST:
            raise CardDataError("sengoku_taisen.cards.cost_range", cost=_shown(text), most=MAX_COST)
        counts: dict[str, int] = {}
        for ch in colours:
            counts[ch] = counts.get(ch, 0) + 1
        return Cost(tuple(sorted(counts.items(), key=lambda kv: COLORS.index(kv[0]))), int(digits or 0))

    def __str__(self) -> str:
        return "".join(c * n for c, n in self.colors) + (str(self.generic) if self.generic or not self.colors else "")


class CardSpec(CardText):
    """One ``[[card]]`` table of cards.toml."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    number: Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]{0,15}$")]   # at most 16: deck codes carry it
    name_ja: Annotated[str, Field(min_length=1)]
    name_en: Annotated[str, Field(min_length=1)]
    type: Literal["warlord", "stratagem", "formation", "ougi", "summon"]
    color: str = "無"
    cost: str | int = 0
    unit: str | None = None
    strength: Annotated[int, Field(ge=0, le=MAX_STRENGTH)] | None = None
    siege: Annotated[int, Field(ge=0, le=MAX_SIEGE)] = 0
    keywords: list[str] = []
    abilities: list[Ability] = []
    timing: str | None = None
    permanent: bool = False
    effect: Effect | None = None
    counter: Effect | None = None
    threshold: Annotated[int, Field(ge=0, le=10)] | None = None
    legacy: bool = False

    @model_validator(mode="before")
    @classmethod
    def _legacy_terms(cls, data: Any) -> Any:
        """SGT-LEGACY-02..04: 武力 is read as 兵力 (strength), 特技 as 能力 (abilities)."""
        if not isinstance(data, dict):
            return data
        data = dict(data)
        for old, new in (("武力", "strength"), ("buryoku", "strength"), ("特技", "abilities"),
                         ("tokugi", "abilities"), ("兵種", "unit")):
            if old in data:
                if new in data:
                    raise CardDataError("sengoku_taisen.cards.both_terms", old=old, new=new)
                data[new] = data.pop(old)
                data["legacy"] = True
        return data

    @field_validator("color")
    @classmethod
    def _color(cls, v: str) -> str:
        v = COLOR_ALIASES.get(v, v)
        if v not in COLORS and v != "無":
            raise CardDataError("sengoku_taisen.cards.unknown_colour", colour=_shown(v))
        return v

    @field_validator("cost")
    @classmethod
    def _cost(cls, v: str | int) -> str | int:
        Cost.parse(v)
        return v

    @field_validator("unit")
    @classmethod
    def _unit(cls, v: str | None) -> str | None:
        """SGT-LEGACY-05..09: old troop types become the current ones."""
        if v is None:
            return v
        if v in UNITS:
            return UNITS[v]
        if v in UNITS.values():
            return v
        raise CardDataError("sengoku_taisen.cards.unknown_unit", unit=_shown(v), known=list(UNITS))

    @field_validator("keywords")
    @classmethod
    def _keywords(cls, v: list[str]) -> list[str]:
        out = [k.strip("【】") for k in v]
        rules = [k for k in out if k in RULE_KEYWORDS]
        if rules:
            raise CardDataError("sengoku_taisen.cards.rule_keyword", keywords="/".join(rules))
        bad = [repr(_shown(k)) for k in out if k not in KEYWORDS]
        if bad:
            raise CardDataError("sengoku_taisen.cards.unknown_keywords", keywords=bad, known=sorted(KEYWORDS))
        return out

    @field_validator("timing")
    @classmethod
    def _timing(cls, v: str | None) -> str | None:
        if v is None:
            return v
        v = v.strip("{}｛｝")
        if v not in TIMINGS:
            raise CardDataError("sengoku_taisen.cards.unknown_stratagem_timing", timing=_shown(v))
        return TIMINGS[v]

    @model_validator(mode="after")
    def _by_type(self) -> "CardSpec":
        t = self.type
        if t == "warlord":
            for f in ("unit", "strength"):
                if getattr(self, f) is None:
                    raise CardDataError("sengoku_taisen.cards.warlord_needs", field=f)
        if t == "stratagem":
            if self.timing is None or self.effect is None or self.counter is None:
                raise CardDataError("sengoku_taisen.cards.stratagem_needs")
        if t == "ougi" and (self.threshold is None or self.effect is None):
            raise CardDataError("sengoku_taisen.cards.ougi_needs")
        if t == "formation" and self.effect is None:
            raise CardDataError("sengoku_taisen.cards.formation_needs")
        return self


class CardDef:
    """A card of the pool (one card number), with its parsed cost and the facts the rules
    look up on every step precomputed (plain attributes, not model lookups)."""

    __slots__ = ("spec", "cost", "cost_total", "number", "type", "name", "color", "unit", "strength",
                 "siege", "keywords", "timing", "permanent", "effect", "counter", "threshold",
                 "koku_static", "static", "koku_auras", "auras", "has_condition", "cannot_attack",
                 "main_abilities", "triggers", "main_play", "battle_stratagem")

    def __init__(self, spec: CardSpec, cost: Cost) -> None:
        self.spec, self.cost = spec, cost
        self.cost_total = cost.total       # colours and generic: more than this is never paid
        self.number, self.type, self.name = spec.number, spec.type, spec.name_ja
        self.color, self.unit = spec.color, spec.unit
        self.strength, self.siege = spec.strength or 0, spec.siege
        self.keywords = frozenset(spec.keywords)
        self.timing, self.permanent = spec.timing, spec.permanent
        self.effect, self.counter, self.threshold = spec.effect, spec.counter, spec.threshold or 0
        # Static effects by zone: a formation's while face up in kokuryoku (SGT-FORMATION-03),
        # a permanent stratagem's on the field, a warlord's {常時} abilities in camp.
        effect = (spec.effect,) if spec.effect is not None else ()
        self.koku_static: tuple[Effect, ...] = effect if spec.type == "formation" else ()
        self.static: tuple[Effect, ...] = (
            effect if spec.type == "stratagem" and spec.permanent
            else tuple(a for a in spec.abilities if a.timing == "always") if spec.type == "warlord" else ())
        self.koku_auras = _auras(self.koku_static)
        self.auras = _auras(self.static)
        self.has_condition = any(e.do in ("win_if", "lose_if") for e in self.koku_static + self.static)
        self.cannot_attack = any(a.timing == "always" and a.do == "cannot_attack" for a in spec.abilities)
        # {メイン} abilities as (index, ability, exhausts the warlord, once per turn)
        self.main_abilities = tuple((i, a, a.exhaust, a.once) for i, a in enumerate(spec.abilities)
                                    if a.timing == "main")
        self.main_play = _main_play(spec)
        self.battle_stratagem = spec.type == "stratagem" and spec.timing == "battle"
        # abilities by timing, in printed order: where the triggered ones ({攻撃宣言時},
        # {戦闘確定時}, {撤退時}) are looked up
        self.triggers: dict[str, tuple[Ability, ...]] = {}
        for a in spec.abilities:
            self.triggers[a.timing] = self.triggers.get(a.timing, ()) + (a,)

    def has(self, keyword: str) -> bool:
        return keyword in self.keywords

    def __repr__(self) -> str:
        return f"CardDef({self.number} {self.name})"


def _main_play(spec: CardSpec) -> str | None:
    """How the card is played from hand in the main phase: "deploy" (a warlord, SGT-WARLORD-03),
    "permanent" or "stratagem" (a メイン stratagem, SGT-STRAT-02), or None."""
    if spec.type == "warlord":
        return "deploy"
    if spec.type == "stratagem" and spec.timing == "main":
        return "permanent" if spec.permanent else "stratagem"
    return None


def _auras(effs: tuple[Effect, ...]) -> tuple[tuple[str | None, int], ...]:
    """(troop type or None for all, amount) of each 兵力 aura among static effects."""
    return tuple((e.get("unit"), int(e.get("amount", 0))) for e in effs if e.do == "aura")


@dataclass(frozen=True)
class Pool:
    path: str
    meta: dict[str, Any]
    cards: dict[str, CardDef]

    def __getitem__(self, number: str) -> CardDef:
        return self.cards[number]

    def __contains__(self, number: str) -> bool:
        return number in self.cards


def build_pool(path: Path | str = CARD_FILE) -> Pool:
    """Load and validate a card pool; errors name the file, the card (by its number) and the
    field. A table or ``[meta]`` key the loader does not know is refused too."""
    doc, specs = load_cards(path, CardSpec, key="number")
    tables, meta = unknown_keys(doc, TABLES)
    if tables:
        raise CardDataError("sengoku_taisen.cards.unknown_tables", path=path, tables=tables, known=list(TABLES))
    if meta:
        raise CardDataError("sengoku_taisen.cards.unknown_meta", path=path, keys=meta, known=list(META_KEYS))
    repeated = first_repeat(specs, lambda spec: spec.number)
    if repeated is not None:
        raise CardDataError("sengoku_taisen.cards.duplicate_number", path=path, number=repeated)
    cards = {spec.number: CardDef(spec, Cost.parse(spec.cost)) for spec in specs}
    return Pool(str(path), read_meta(doc), cards)


@lru_cache(maxsize=8)
def pool(path: str = str(CARD_FILE)) -> Pool:
    return build_pool(path)
