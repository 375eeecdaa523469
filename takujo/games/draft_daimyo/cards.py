"""The cards of ドラフト戦国大名 and its expansion: schema, loading and the effect vocabulary.

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

CARD_FILE = Path(__file__).with_name("cards.toml")

# verb -> allowed parameters. Play effects (warlords on arrival, strategies), events,
# honour conditions, tactics and constant abilities all draw on this vocabulary.
EFFECTS: dict[str, set[str]] = {
    "gold": {"n"},                       # gain n gold
    "vp": {"n"},                         # gain n victory points
    "soldiers": {"n"},                   # place n soldiers in your home province (or a castle)
    "remove_neutral": {"n"},             # remove n neutral soldiers next to your provinces
    "subvert": {"min_defection"},        # 調略: take an enemy warlord with 離反値 >= min (not 忠臣)
    "treason_mark": set(),               # 謀反の兆し: attach to an enemy warlord (忠臣 no longer protects)
    "uprising": {"n"},                   # event 一向一揆: n neutral soldiers rise in the leader's province
    "gekokujo": set(),                   # event 下克上: warlords may defect (離反値 on a die)
    "per_province": {"gold", "vp"},      # each player: per province owned
    "per_warlord": {"gold", "vp"},       # each player: per warlord
    "per_development": {"gold", "vp"},   # each player: per development
    "leader_loses": {"vp"},              # the VP leader loses vp
    "free_soldier": {"n"},               # every player places n soldiers at home
    "famine": set(),                     # every province with 3+ soldiers loses one
    # constant abilities (常時)
    "attack_dice": {"n"}, "defence_dice": {"n"}, "march_bonus": {"n"}, "income": {"gold", "vp"},
    "gekokujo_defection": {"n"},         # 明智光秀: +n 離反値 during 下克上 (DSD-CARD-03)
    "ignore_defence": set(),             # 竹中半兵衛: in your attacks the defender's defence modifiers do not count
    "upkeep_free": set(),                # this card costs no upkeep
    # honour conditions (final scoring)
    "most_provinces": {"vp"}, "most_warlords": {"vp"}, "most_gold": {"vp"},
    "most_developments": {"vp"}, "most_battles_won": {"vp"},
    # tactics cards (one battle only)
    "battle_dice": {"n"},                # +n dice for your side in this battle
    "first_strike": set(),               # your side rolls first
    "negate_castle": set(),              # the defender's castle gives nothing this battle
    "ambush": {"n"},                     # n hits dealt before any roll
    "plunder": {"gold"},                 # attacker: if it wins, take gold from the defender
    "retreat": set(),                    # 金ヶ崎の退き口: your soldiers may leave without loss
    "reroll": set(),                     # reroll your misses once
    "fortify": {"n"},                    # defender: +n dice
}
#: What each parameter's value may be: a whole number from the first to the second [designed
#: bounds, above every card of the list]; the rules read each with int(), and a number of
#: soldiers, dice or gold this large is no card's.
PARAMS: dict[str, tuple[int, int]] = {"n": (1, 10), "gold": (0, 20), "vp": (0, 20), "min_defection": (0, 6)}
assert all(p in PARAMS for params in EFFECTS.values() for p in params), "a parameter without a range"
Kind = Literal["warlord", "development", "strategy", "event", "honour", "tactics"]
#: The tables a card file holds.
TABLES = ("meta", "card")

#: Which verbs each use of an effect may take [designed]: what a rule reads for that use.
#: Effects on playing a card (a warlord's arrival, a development, a strategy).
PLAY_VERBS = frozenset({"gold", "vp", "soldiers", "remove_neutral", "subvert", "treason_mark",
                        "uprising", "gekokujo", "per_province", "per_warlord", "per_development",
                        "leader_loses", "free_soldier", "famine"})
#: An event concerns every player and has no target to choose.
EVENT_VERBS = PLAY_VERBS - {"remove_neutral", "subvert", "treason_mark"}
CONSTANT_VERBS = frozenset({"attack_dice", "defence_dice", "march_bonus", "income",
                            "gekokujo_defection", "ignore_defence", "upkeep_free"})
HONOUR_VERBS = frozenset({"most_provinces", "most_warlords", "most_gold", "most_developments",
                          "most_battles_won"})
TACTICS_VERBS = frozenset({"battle_dice", "first_strike", "negate_castle", "ambush", "plunder",
                           "retreat", "reroll", "fortify"})
#: Tactics effects that only one side of a battle can use (the battle reads them for it).
TACTICS_SIDE = {"negate_castle": "attacker", "plunder": "attacker", "fortify": "defender"}
PLAY_FOR = {"warlord": PLAY_VERBS, "development": PLAY_VERBS, "strategy": PLAY_VERBS,
            "event": EVENT_VERBS, "honour": HONOUR_VERBS, "tactics": TACTICS_VERBS}
DRAFT_KINDS = ("warlord", "development", "strategy")


class Effect(CoreEffect):
    VOCABULARY = EFFECTS

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
        if self.play is not None and self.play.do not in PLAY_FOR[self.type]:
            raise CardDataError("draft_daimyo.cards.play_not_allowed", type=self.type, effect=self.play.do,
                                allowed=sorted(PLAY_FOR[self.type]))
        if self.constant and self.type not in ("warlord", "development"):
            raise CardDataError("draft_daimyo.cards.no_constant", type=self.type)
        for e in self.constant:
            if e.do not in CONSTANT_VERBS:
                raise CardDataError("draft_daimyo.cards.not_constant", effect=e.do, allowed=sorted(CONSTANT_VERBS))
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
            sums[e.do] = sums.get(e.do, 0) + (int(e.get("n", 1)) if "n" in EFFECTS[e.do] else 1)
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
def load(path: str = str(CARD_FILE)) -> tuple[dict, tuple[CardSpec, ...]]:
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
