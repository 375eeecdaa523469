"""ドラフト戦国大名 as a takujo Game: options, the card set and the map in play."""
from __future__ import annotations

from functools import cached_property
from typing import Any

from pydantic import Field

from ...core.action import ActionTable
from ...core.cards import card_file_option
from ...core.errors import OptionError
from ...core.game import Game, GameOptions
from ...core.targets import ArgKinds, Signature, Target
from .board import FACTION_KEYS, FACTIONS, MAP_FILE, Board, Province, load_board, province_names
from .cards import CARD_FILE, CardSet, card_set
from .effects import play_signature
from .schema import DaimyoPublic
from .state import MARCH_MAX, DaimyoState


class DaimyoOptions(GameOptions):
    players: int = Field(4, ge=3, le=4, description="number of players (3-4; 3 drops 今川 and 駿河・遠江・伊豆)")
    expansion: bool = Field(False, description="the expansion card set (DSD-SETUP)")
    tactics: bool = Field(False, description="the optional tactics cards (DSD-TACTICS; needs expansion=true)")
    turn_order_choice: bool = Field(False, description="publisher's variant: from round 2 the "
                                                       "lowest in VP chooses a turn-order position first")
    cards: str = card_file_option("path of a cards.toml instead of the built-in stand-in list")
    board: str = card_file_option("path of a map.toml instead of the built-in stand-in map")


class DaimyoGame(Game):
    name = "draft_daimyo"
    title = "ドラフト戦国大名"
    Options = DaimyoOptions
    State = DaimyoState
    presentation = "takujo.games.draft_daimyo.render"
    play_bot = "ismcts:1000"     # beats the heuristic at under 0.5 s a move (docs/bots.md)
    heuristic = "takujo.games.draft_daimyo.heuristic:DaimyoHeuristic"
    estimator = "takujo.games.draft_daimyo.heuristic:estimate"
    PublicView = DaimyoPublic
    options: DaimyoOptions

    def _check_options(self, options: GameOptions) -> None:
        # DSD-COMP-08: the 8 tactics cards are components of the expansion card set, so the
        # tactics rule (DSD-TACTICS-01) cannot be played without it.
        if options.tactics and not options.expansion:     # type: ignore[attr-defined]
            raise OptionError("draft_daimyo.options.tactics_needs_expansion", game=self.name)
        self.cards, self.board

    @cached_property
    def cards(self) -> CardSet:
        o = self.options
        return card_set(o.cards or str(CARD_FILE), o.expansion, o.tactics)

    @cached_property
    def board(self) -> Board:
        return load_board(self.options.board or str(MAP_FILE))

    @property
    def card_count(self) -> int:
        return len(self.cards.cards)

    @cached_property
    def march_actions(self) -> ActionTable:
        """``march_actions.row(p, a * provinces + b)[k]``: march k soldiers from a to b, built
        once (march generation is the hottest part of a basic action)."""
        n = len(self.board)
        most = MARCH_MAX + sum(card.constants.get("march_bonus", 0) for card in self.cards.cards)
        return ActionTable("march", self.players, n * n, most + 1,
                           heads=[(a, b) for a in range(n) for b in range(n)])

    def new_state(self, seed: int = 0) -> DaimyoState:
        return DaimyoState.new(self, seed)

    def determinize(self, view: dict[str, Any], rng: Any) -> DaimyoState:
        from .determinize import determinize
        return determinize(self, view, rng)

    # ----- what actions name ------------------------------------------------------------------
    def _arg_kinds(self) -> ArgKinds:
        """What each action's arguments name: provinces are places; a played card is followed
        by what playing it names (a 城 a province, an effect what its verb declares)."""
        province, soldiers = Target.place("province"), Target.number("soldiers")
        return ArgKinds(fixed={
            "rest": (), "notactic": (), "order": (Target.number("position"),),
            "pick": (Target.card("packets"),), "choose": (Target.card("hand"),),
            "sell": (Target.card("chosen"),), "tactic": (Target.card("tactics_hand"),),
            "hire": (soldiers,), "march": (province, province, soldiers),
        }, by_card={"play": (Target.card("chosen"), _play_tail)})

    def places(self, of: str) -> list[int]:
        """The provinces of the map (every one, in or out of play)."""
        return list(range(len(self.board))) if of == "province" else []

    def place_names(self, of: str, place: Any) -> tuple[str, str]:
        """(Japanese, English) names of a province by its index."""
        if of != "province" or type(place) is not int or not 0 <= place < len(self.board):
            raise KeyError(place)
        return province_names(self.board.provinces[place])

    # ----- names and the catalogue ----------------------------------------------------------
    def card_names(self, card: Any) -> tuple[str, str]:
        """(Japanese, English) names of a card id, or of a province (`Province`)."""
        if isinstance(card, Province):
            return province_names(self.board.provinces[card])
        if type(card) is not int or not 0 <= card < len(self.cards.cards):
            raise KeyError(card)
        spec = self.cards.cards[card].spec
        return spec.name_ja, spec.name_en or spec.name_ja

    def export_catalogue(self) -> dict[str, Any]:
        """Every card of this configuration by the id views and events use (one entry a
        copy), the provinces by index, and the factions by seat."""
        from ...present.catalogue import catalogue_for
        words = catalogue_for(self)
        cards = []
        for card in self.cards.cards:
            s = card.spec
            entry: dict[str, Any] = {
                "id": card.iid, "key": s.id, "set": s.set, "name_ja": s.name_ja, "name_en": s.name_en,
                "type": s.type, "cost": s.cost, "text_ja": s.text_ja, "text_en": s.text_en or s.text_ja}
            if s.type == "warlord":
                entry.update(attack=s.attack, defence=s.defence, defection=s.defection,
                             first_strike=s.first_strike, loyal=s.loyal)
            if s.type == "tactics":
                entry["side"] = s.side
            if s.castle:
                entry["castle"] = True
            entry["constant"] = [dict(e.model_dump(exclude_none=True)) for e in s.constant]
            entry["play"] = s.play.model_dump(exclude_none=True) if s.play is not None else None
            cards.append(entry)
        board = []
        for i, p in enumerate(self.board.provinces):
            ja, en = province_names(p)
            board.append({"id": i, "key": p.id, "name_ja": ja, "name_en": en, "kokuryoku": p.kokuryoku,
                          "adjacent": list(self.board.adjacent[i]),
                          "home": FACTION_KEYS[FACTIONS.index(p.home)] if p.home else None,
                          "neutral": p.neutral.model_dump() if p.neutral else None,
                          "three_player_out": p.three_player_out})
        factions = [{"seat": q, "key": FACTION_KEYS[q], "name_ja": FACTIONS[q],
                     "name_en": words.template(f"word.{FACTION_KEYS[q]}", "en") or FACTION_KEYS[q],
                     "home": self.board.home(FACTIONS[q])} for q in range(self.players)]
        meta = self.cards.meta
        return {"game": self.name, "set": meta.get("set", ""), "stand_in": bool(meta.get("stand_in")),
                "note_ja": meta.get("note_ja", ""), "note_en": meta.get("note_en", ""),
                "cards": cards, "board": board, "factions": factions}


def _play_tail(game: Game, card: int) -> Signature:
    """What playing `card` names after it (`effects.play_signature`)."""
    cards = game.cards.cards  # type: ignore[attr-defined]
    return play_signature(cards[card].spec) if 0 <= card < len(cards) else ()
