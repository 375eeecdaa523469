"""The cards of ドラフト戦国大名 and its expansion: schema and loading (the effect vocabulary is
`effects.VERBS`).

Cards are declared in ``cards.toml``, each with its `set` (base or expansion). The expansion
replaces base cards of the same name (DSD-SETUP-03); `deck_for` builds the card lists of one
configuration.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal, cast

from pydantic import ConfigDict, Field, model_validator

from ...core.cards import META_KEYS, QUOTE, CardText, expand, first_repeat, load_cards, read_meta, unknown_keys
from ...core.cards import Effect as CoreEffect
from ...core.errors import CardDataError
from .effects import DRAFTED, VERBS

CARD_FILE = Path(__file__).with_name("cards.toml")

#: What each parameter's value may be: a whole number from the first to the second [designed
#: bounds, above every card of the list]; the rules read each with int(), and a number of
#: soldiers, dice or gold this large is no card's.
PARAMS: dict[str, tuple[int, int]] = {"n": (1, 10), "gold": (0, 20), "vp": (0, 20), "min_defection": (0, 6)}
assert all(p in PARAMS for v in VERBS.values() for p in v.params), "a parameter without a range"
Kind = Literal["warlord", "development", "strategy", "event", "honour", "tactics"]
#: The tables a card file holds.
TABLES = ("meta", "card")

# Which verbs each use of an effect may take [designed]: what a rule reads for that use, the
# `types` of each verb's entry in `effects.VERBS` (a card type for its ``play`` effect, or
# ``constant`` for its 常時 abilities). An event concerns every player and has no target.
#: Tactics effects that only one side of a battle can use (the battle reads them for it).
TACTICS_SIDE = {"negate_castle": "attacker", "plunder": "attacker", "fortify": "defender"}
DRAFT_KINDS = DRAFTED


class Effect(CoreEffect):
    VOCABULARY = VERBS        # read live: a verb registered later is known at once

    @model_validator(mode="after")
    def _values(self) -> "Effect":
        """Every parameter is a whole number in its range (`PARAMS`): a rule reads it as one."""
        for key, value in (self.model_extra or {}).items():
            low, high = PARAMS[key]          # an undeclared one is refused by the vocabulary
            if type(value) is not int or not low <= value <= high:
                shown = value if isinstance(value, (int, float)) else str(value)[:QUOTE]
                raise CardDataError("draft_daimyo.cards.bad_param", effect=self.do, param=key, low=low,
                                    high=high, value=shown)
        return self


class CardSpec(CardText):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$")]
    name_ja: Annotated[str, Field(min_length=1)]
    name_en: Annotated[str, Field(min_length=1)]
    type: Kind
    set: Literal["base", "expansion"] = "base"
    count: Annotated[int, Field(ge=1, le=8)] = 1
    cost: Annotated[int, Field(ge=0, le=9)] = 0
    attack: Annotated[int, Field(ge=0, le=4)] = 0        # extra battle dice attacking (戦闘修正)
    defence: Annotated[int, Field(ge=0, le=4)] = 0       # extra battle dice defending
    first_strike: bool = False                            # 【先制】
    defection: Annotated[int, Field(ge=0, le=6)] = 0      # 離反値
    loyal: bool = False                                   # 【忠臣】
    constant: list[Effect] = []                           # 常時 abilities (warlords, developments)
    play: Effect | None = None                            # effect when played / resolved
    side: Literal["attacker", "defender", "either"] | None = None   # tactics (DSD-TACTICS-USE-05)
    castle: bool = False                                  # a 城: defender's die bonus, no retreat
    @model_validator(mode="after")
    def _by_type(self) -> "CardSpec":
        """What each type needs to take part in play: a refused card names what is wrong."""
        if self.type in ("event", "honour", "tactics", "strategy") and self.play is None:
            raise CardDataError("draft_daimyo.cards.needs_play", type=self.type)
        if self.play is not None and self.type not in VERBS[self.play.do].types:
            raise CardDataError("draft_daimyo.cards.play_not_allowed", type=self.type, effect=self.play.do,
                                allowed=sorted(VERBS.for_type(self.type)))
        if self.constant and self.type not in ("warlord", "development"):
            raise CardDataError("draft_daimyo.cards.no_constant", type=self.type)
        for e in self.constant:
            if "constant" not in VERBS[e.do].types:
                raise CardDataError("draft_daimyo.cards.not_constant", effect=e.do,
                                    allowed=sorted(VERBS.for_type("constant")))
        if self.type == "tactics" and self.side is None:
            raise CardDataError("draft_daimyo.cards.tactics_needs_side")
        if self.type == "tactics" and self.play is not None and \
                self.side != TACTICS_SIDE.get(self.play.do, self.side):
            raise CardDataError("draft_daimyo.cards.tactics_wrong_side", effect=self.play.do,
                                works_for=TACTICS_SIDE[self.play.do], side=self.side)
        if self.type != "tactics" and self.side is not None:
            raise CardDataError("draft_daimyo.cards.side_only_tactics", type=self.type)
        if self.castle and self.type != "development":
            raise CardDataError("draft_daimyo.cards.castle_not_development", type=self.type)
        if self.castle and self.play is not None:
            raise CardDataError("draft_daimyo.cards.castle_no_play")
        return self


@dataclass(frozen=True, slots=True)
class Card:
    iid: int
    spec: CardSpec
    #: the card's constant effects summed by verb (looked up on every step)
    constants: dict[str, int] = field(init=False, compare=False, hash=False, repr=False)

    def __post_init__(self) -> None:
        sums: dict[str, int] = {}
        for e in self.spec.constant:              # a verb without an amount counts once
            sums[e.do] = sums.get(e.do, 0) + (int(e.get("n", 1)) if "n" in VERBS[e.do].params else 1)
        object.__setattr__(self, "constants", sums)

    @property
    def type(self) -> str:
        return self.spec.type

    @property
    def effect(self) -> Effect:
        """The effect of a card that must have one: every event, honour, tactics card and
        strategy (`CardSpec` checks)."""
        play = self.spec.play
        assert play is not None, f"{self.spec.id} has no effect"
        return play

    @property
    def name(self) -> str:
        return self.spec.name_ja


@dataclass(frozen=True)
class CardSet:
    """The cards of one configuration, expanded to instances (ids index `cards`)."""

    path: str
    meta: dict[str, Any]
    cards: tuple[Card, ...]

    def ids(self, kind: str) -> list[int]:
        return [c.iid for c in self.cards if c.type == kind]

    def __getitem__(self, iid: int) -> Card:
        return self.cards[iid]


@lru_cache(maxsize=8)
def load(path: str = str(CARD_FILE)) -> tuple[dict[str, Any], tuple[CardSpec, ...]]:
    doc, specs = load_cards(path, CardSpec)
    tables, meta = unknown_keys(doc, TABLES)
    if tables:
        raise CardDataError("draft_daimyo.cards.unknown_tables", path=path, tables=tables, known=list(TABLES))
    if meta:
        raise CardDataError("draft_daimyo.cards.unknown_meta", path=path, keys=meta, known=list(META_KEYS))
    repeated = first_repeat(specs, lambda s: (s.id, s.set))
    if repeated is not None:
        card_id, in_set = cast("tuple[str, str]", repeated)
        raise CardDataError("draft_daimyo.cards.duplicate_id", path=path, card=card_id, set=in_set)
    return doc, tuple(specs)


def card_set(path: str, expansion: bool, tactics: bool) -> CardSet:
    """DSD-SETUP-03..11: with the expansion, same-name cards are replaced, new cards join."""
    doc, specs = load(path)
    chosen: list[CardSpec] = []
    exp_names = {s.name_ja for s in specs if s.set == "expansion"}
    removed_events = {"城下町の発展", "将軍の策謀"}                 # DSD-SETUP-07..09
    for s in specs:
        if s.type == "tactics":
            if tactics:                                # the tactics deck is its own module
                chosen.append(s)
        elif s.set == "expansion":
            if expansion:
                chosen.append(s)
        elif not expansion or (s.name_ja not in exp_names and s.name_ja not in removed_events):
            chosen.append(s)
    _check_playable(path, chosen, expansion, tactics)
    return CardSet(path, read_meta(doc), expand(chosen, Card))


def _check_playable(path: str, chosen: list[CardSpec], expansion: bool, tactics: bool) -> None:
    """A configuration needs cards to draft (every round deals packets), events (rounds 2
    to 4 each turn up two) and, with the tactics rule, tactics cards to draw (DSD-TACTICS-GAIN-01)
    [designed]; `CardDataError` names the file and what is missing."""
    which = (CardDataError("draft_daimyo.cards.base_with_expansion") if expansion
             else CardDataError("draft_daimyo.cards.base_game"))
    if not any(s.type in DRAFT_KINDS for s in chosen):
        raise CardDataError("draft_daimyo.cards.nothing_to_draft", path=path, which=which)
    if not any(s.type == "event" for s in chosen):
        raise CardDataError("draft_daimyo.cards.no_events", path=path, which=which)
    if tactics and not any(s.type == "tactics" for s in chosen):
        raise CardDataError("draft_daimyo.cards.no_tactics", path=path)
