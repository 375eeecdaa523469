"""戦国大戦 双 TCG as a takujo Game: options (the two decks) and the card instances."""
from __future__ import annotations

from functools import cached_property
from typing import Any, Callable, Literal, Mapping, cast

from pydantic import Field

from ...core.action import Action
from ...core.cards import card_file_option
from ...core.game import Game, GameOptions
from ...core.rng import Rng
from ...core.targets import ArgKinds, CardTail, Signature, Target
from . import decks
from .actions import FixedActions
from .cards import CARD_FILE, CardDef, Effect, Pool, pool
from .effects import UNIT, effect_target
from .schema import SengokuPublicView
from .state import TOKEN_BASE, PrintedFacts, SengokuState, printed_facts


#: The decks' declared default: a starter drawn at random for each game (`choose_options`).
RANDOM = "random"
#: What `random` deals in a game loaded without the draw (a game string naming no deck, as
#: in records written before the default said "random").
UNDRAWN = ("蒼", "紅")


class SengokuOptions(GameOptions):
    players: int = Field(2, ge=2, le=2, description="always 2 (SGT-META-02)")
    deck1: str = Field(RANDOM, description="player 0's deck: a starter (蒼 紅 翠 黒), a decklist file, or "
                                          "random: a starter drawn for each game of takujo play and sim "
                                          "(a game loaded without that draw deals 蒼)",
                       json_schema_extra={"server_file": True, "choices": [RANDOM, *decks.STARTERS],
                                          "prefixes": [decks.CODE_PREFIX]})
    deck2: str = Field(RANDOM, description="player 1's deck: as deck1 (random: loaded without the draw, 紅)",
                       json_schema_extra={"server_file": True, "choices": [RANDOM, *decks.STARTERS],
                                          "prefixes": [decks.CODE_PREFIX]})
    cards: str = card_file_option("path of a cards.toml pool instead of the built-in stand-in pool")
    ougi_timing: Literal["main_or_battle", "main"] = Field(
        "main_or_battle", description="when an okugi may be used in your turn: main phase or your "
                                      "battle windows too (SGT-OUGI-03)")
    shippu_then_muso: bool = Field(
        True, description="a warlord that attacked by 疾風怒濤 on its placement turn may attack once "
                          "more by 無双連撃 (two discards, two attacks; SGT-WARLORD-11 reading 2)")


#: A card in hand (played, placed as kokuryoku, discarded, or paying for an attack).
HAND = Target.card("hand")
#: What an attack is aimed at when no unit: the castle.
CASTLE = Target.word("castle")
#: How a warlord attacks beyond the plain way, and the card that pays for it.
ATTACK_MODE = (Target.word("shippu", "muso"), HAND)
ActionKinds = Callable[[Game, Action], Signature]


def _cards(game: Game) -> tuple[CardDef, ...]:
    return cast("SengokuGame", game).instances


def _effect_tail(pick: Callable[[CardDef], Effect | None]) -> CardTail:
    """The kinds after a card of what its effect (`pick`: the effect or the counter) aims at."""
    def tail(game: Game, c: int) -> Signature:
        eff = pick(_cards(game)[c])
        return effect_target(eff) if eff is not None else ()
    return tail


def _ability_kinds(game: Game, a: Action) -> Signature:
    """``ability u i [t]``: the warlord, its ability's index, what that ability aims at."""
    ab = _cards(game)[int(a.args[0])].spec.abilities[int(a.args[1])]
    return (Target.card("camp"), Target.number("ability"), *effect_target(ab))


def _ougi_kinds(game: Game, a: Action) -> Signature:
    """``ougi [t]``: what the player's okugi aims at."""
    eff = _cards(game)[cast("SengokuGame", game).ougi_ids[a.player or 0]].effect
    return effect_target(eff) if eff is not None else ()


def _attack_kinds(game: Game, a: Action) -> Signature:
    """``attack u castle|t [mode card]``: the attacker, the castle or the attacked unit, and
    for a 疾風怒濤 or 無双連撃 attack the mode and the card it discards (SGT-WARLORD-09/11)."""
    aimed = CASTLE if a.args[1] == "castle" else UNIT
    return (UNIT, aimed, *ATTACK_MODE) if len(a.args) > 2 else (UNIT, aimed)


class SengokuArgKinds(ArgKinds):
    """The game's table of argument kinds, and the verbs whose kinds follow their values
    (`by_action`: the ability an ``ability`` uses, the player's okugi, an attack's target)."""

    __slots__ = ("by_action",)

    def __init__(self, fixed: Mapping[str, Signature], by_card: Mapping[str, tuple[Target, CardTail]],
                 by_action: Mapping[str, ActionKinds]) -> None:
        super().__init__(fixed, by_card)
        self.by_action = dict(by_action)

    def verbs(self) -> set[str]:
        return super().verbs() | set(self.by_action)

    def of(self, game: Game, action: Action) -> Signature:
        kinds = self.by_action.get(action.verb)
        return kinds(game, action) if kinds is not None else super().of(game, action)


class SengokuGame(Game):
    """A configured game of 戦国大戦 双 between two decks."""

    name = "sengoku_taisen"
    title = "戦国大戦 双 TCG"
    Options = SengokuOptions
    State = SengokuState
    presentation = "takujo.games.sengoku_taisen.render"
    play_bot = "ismcts:1000"     # beats the heuristic at under 0.5 s a move (docs/bots.md)
    heuristic = "takujo.games.sengoku_taisen.heuristic:SengokuHeuristic"
    estimator = "takujo.games.sengoku_taisen.heuristic:estimate"
    options: SengokuOptions
    PublicView = SengokuPublicView

    def _check_options(self, options: GameOptions) -> None:
        self._built  # resolve both decks now: a bad deck is an option error at load
        # The shared tables every state of this game reads, built now: they belong to the
        # game from its loading on, never to one state.
        self.fixed_actions
        self.turn_decisions

    @cached_property
    def pool(self) -> Pool:
        return pool(self.options.cards or str(CARD_FILE))

    @cached_property
    def _built(self) -> tuple[tuple[CardDef, ...], tuple[int, ...], tuple[tuple[int, ...], ...], tuple[int, ...],
                              tuple[str, ...]]:
        """(instances, their owners, each deck's instance ids, each okugi's id, the deck names)."""
        specs = [self.options.deck1, self.options.deck2]
        lists = [decks.resolve(UNDRAWN[p] if spec == RANDOM else spec, self.pool) for p, spec in enumerate(specs)]
        instances: list[CardDef] = []
        owners: list[int] = []
        deck_ids: list[tuple[int, ...]] = []
        ougi_ids: list[int] = []
        for p, deck in enumerate(lists):
            ids: list[int] = []
            for number in deck.cards():
                ids.append(len(instances))
                instances.append(self.pool[number])
                owners.append(p)
            deck_ids.append(tuple(ids))
            ougi_ids.append(len(instances))
            instances.append(self.pool[deck.okugi[0]])
            owners.append(p)
        return tuple(instances), tuple(owners), tuple(deck_ids), tuple(ougi_ids), tuple(d.name for d in lists)

    @property
    def instances(self) -> tuple[CardDef, ...]:
        return self._built[0]

    @property
    def card_count(self) -> int:
        """Card instances (both decks and okugi): what the per-card actions range over."""
        return len(self._built[0])

    @cached_property
    def fixed_actions(self) -> FixedActions:
        """The game's fixed-shape actions (deploy c, koku c up, end …), built once."""
        slots = max(len(card.spec.abilities) for card in self.instances)
        acts = FixedActions(self, max(slots, 1))
        acts.prebuild(self.instances, self.owners)
        return acts

    @cached_property
    def ougi_in_battle(self) -> bool:
        """Whether the okugi may be used in your battle windows too (SGT-OUGI-03)."""
        return self.options.ougi_timing == "main_or_battle"

    @cached_property
    def shippu_then_muso(self) -> bool:
        """Whether 疾風怒濤 and 無双連撃 combine on the placement turn (SGT-WARLORD-11 (2))."""
        return self.options.shippu_then_muso

    @cached_property
    def has_conditions(self) -> bool:
        """Whether any card in play can carry a printed victory or defeat condition (SGT-WIN-03)."""
        return any(card.has_condition for card in self.instances)

    @cached_property
    def auras_only_add(self) -> bool:
        """Whether no card of the game has an aura lowering 兵力 (see `SengokuState.auras`)."""
        return all(n >= 0 for card in self.instances for _, n in card.koku_auras + card.auras)

    @cached_property
    def printed_facts(self) -> PrintedFacts:
        """What the printed data of the game's cards says, read the full way once (the cards
        never change): `SengokuState.check_invariants` holds the flags above and each card's
        precomputed facts against it."""
        return printed_facts(self.instances)

    @property
    def owners(self) -> tuple[int, ...]:
        return self._built[1]

    @property
    def deck_ids(self) -> tuple[tuple[int, ...], ...]:
        return self._built[2]

    @property
    def ougi_ids(self) -> tuple[int, ...]:
        return self._built[3]

    @property
    def deck_names(self) -> tuple[str, ...]:
        return self._built[4]

    @classmethod
    def choose_options(cls, options: dict[str, Any], rng: Rng) -> dict[str, Any]:
        """A deck the user did not name is a starter drawn at random, so a simulation plays
        random pairings of the starter decks."""
        out = dict(options)
        starters = list(decks.STARTERS)
        for key in ("deck1", "deck2"):
            if not out.get(key) or out[key] == RANDOM:
                out[key] = rng.choice(starters)
        return out

    def seat_labels(self) -> list[str]:
        """What sits at each seat, for per-deck statistics."""
        return list(self.deck_names)

    # ----- decks (the `takujo deck` commands) ---------------------------------------------
    @classmethod
    def starter_deck_names(cls) -> list[str]:
        """The starter decks (蒼 紅 翠 黒)."""
        return list(decks.STARTERS)

    @classmethod
    def deck_text(cls, name: str) -> str:
        """A starter's decklist in the plain format, a `# card name` comment after each number."""
        from ...core.errors import OptionError
        if name not in decks.STARTERS:
            raise OptionError("sengoku_taisen.decks.no_starter", game=cls.name, name=name,
                              starters=list(decks.STARTERS))
        deck, cards = decks.load(name), pool()
        merged: dict[str, int] = {}
        for count, number, _ in deck.entries:
            merged[number] = merged.get(number, 0) + count
        rows = [(f"okugi: {o}", o) for o in deck.okugi] + [(f"{n} {number}", number) for number, n in merged.items()]
        width = max(len(left) for left, _ in rows) + 2
        lines = [f"# {deck.name}: starter deck of {cls.name}, {sum(merged.values())} cards plus the okugi",
                 f"name: {deck.name}"]
        for left, number in rows:
            lines.append(f"{left:<{width}}# {cards[number].name if number in cards else '?'}")
        return "\n".join(lines) + "\n"

    @classmethod
    def deck_from_text(cls, text: str, cards: str | None = None) -> str:
        """The deck code (a value for deck1/deck2) of a decklist's text, checked (SGT-DECK-01..04)
        against the pool `cards` (a file or an uploaded set; default the package's)."""
        return decks.from_text(text, pool(cards) if cards else pool())

    @classmethod
    def check_deck(cls, path: Any) -> list[str]:
        """Every construction problem of a decklist file (SGT-DECK-01..04); empty when legal.
        A file that cannot be read as text raises `CardDataError` naming it."""
        return decks.file_problems(path, pool())

    def export_catalogue(self) -> dict[str, Any]:
        """Every card of the game's pool with its names, stats and texts in both languages;
        a stand-in pool (cards.toml ``[meta] stand_in``) says so, with its note. ``instances``
        gives the card number of each instance id of this game (the ids views and events use)."""
        meta = self.pool.meta
        stand_in = bool(meta.get("stand_in", False))
        cards = []
        for number, card in self.pool.cards.items():
            spec = card.spec
            cards.append({
                "id": number, "name_ja": spec.name_ja, "name_en": spec.name_en, "type": spec.type,
                "color": spec.color, "cost": str(card.cost), "unit": spec.unit,
                "strength": spec.strength, "siege": spec.siege if spec.type == "warlord" else None,
                "keywords": list(spec.keywords), "timing": spec.timing, "permanent": spec.permanent,
                "threshold": spec.threshold, "text_ja": spec.text_ja, "text_en": spec.text_en,
                "stand_in": stand_in,
            })
        return {"game": self.name, "stand_in": stand_in, "note_ja": meta.get("note_ja", ""),
                "note_en": meta.get("note_en", ""), "cards": cards,
                "instances": [card.number for card in self.instances]}

    def card_names(self, card: Any) -> tuple[str, str]:
        """(Japanese, English) names of a card: an instance id of this game or a card number."""
        if isinstance(card, int) and 0 <= card < len(self.instances):
            spec = self.instances[card].spec
        elif isinstance(card, str) and card in self.pool:
            spec = self.pool[card].spec
        else:
            raise KeyError(card)
        return spec.name_ja, spec.name_en

    def _arg_kinds(self) -> ArgKinds:
        """Every action verb's argument kinds: a unit is a warlord in play or a summoned
        soldier (`is_card`); a stratagem, its counter, an ability and the okugi take the target
        kind their effect's verb declares (`effects.effect_target`)."""
        bare: dict[str, Signature] = {v: () for v in ("keep", "mulligan", "skip", "end", "pass", "nointercept",
                                                      "concede")}
        return SengokuArgKinds(
            fixed={**bare, "koku": (HAND, Target.word("up", "down")), "deploy": (HAND,), "discard": (HAND,),
                   "intercept": (UNIT,)},
            by_card={"stratagem": (HAND, _effect_tail(lambda card: card.effect)),
                     "counter": (Target.card("discard"), _effect_tail(lambda card: card.counter))},
            by_action={"ability": _ability_kinds, "ougi": _ougi_kinds, "attack": _attack_kinds})

    def is_card(self, of: str, value: Any) -> bool:
        """A unit may be a summoned soldier too: a token id (SGT-SUMMON-01)."""
        return super().is_card(of, value) or (of == "unit" and type(value) is int and value >= TOKEN_BASE)

    def new_state(self, seed: int = 0) -> SengokuState:
        return SengokuState.new(self, seed)

    def determinize(self, view: dict[str, Any], rng: Rng) -> SengokuState:
        from .determinize import determinize
        return determinize(self, view, rng)

