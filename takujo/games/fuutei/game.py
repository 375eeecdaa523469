"""風帝伝説FIGHTER カードゲーム (15周年版) as a takujo Game: options and factory."""
from __future__ import annotations

from functools import cached_property
from typing import Any, Literal

from pydantic import Field

from ...core.action import ActionTable
from ...core.errors import OptionError
from ...core.game import Game, GameOptions
from .cards import CARD_FILE, Catalogue, catalogue
from .state import FuuteiState


class FuuteiOptions(GameOptions):
    # FTR-PLAYERS-01: two or more; supported 2–6 (five or more lower the goal, FTR-WIN-03).
    players: int = Field(4, ge=2, le=6, description="number of players (2-6)")
    center_regions: Literal["invadable", "effects_only"] = Field(
        "invadable", description="regions in the centre: invadable as undefended regions, "
                                 "or gained only through card effects (FTR-DRAW-03)")
    old_region_rule: bool = Field(
        False, description="pre-15th-anniversary rule: a region drawn after setup goes to the "
                           "drawer's own area (FTR-CHANGE-01)")
    deck_out: Literal["pile_emptied", "failed_draw"] = Field(
        "pile_emptied", description="deck-out victory at the end of the turn in which the pile "
                                    "ran out, or of the turn whose draw found it empty (FTR-WIN-04)")
    cards: str = Field("", description="path of a cards.toml to play with instead of the "
                                       "built-in stand-in set")


class FuuteiGame(Game):
    """A configured game of 風帝伝説FIGHTER."""

    name = "fuutei"
    title = "風帝伝説FIGHTER カードゲーム (15周年版)"
    Options = FuuteiOptions
    State = FuuteiState
    presentation = "takujo.games.fuutei.render"
    heuristic = "takujo.games.fuutei.heuristic:FuuteiHeuristic"
    prior_puct = 0.3             # IS-MCTS keeps to the heuristic unless clearly better (docs/bots.md)
    play_bot = "ismcts:1000"     # ahead of the heuristic at about 0.25 s a move (docs/bots.md)
    options: FuuteiOptions

    def _check_options(self, options: GameOptions) -> None:
        self.catalogue  # load (and validate) the card file now, so errors surface at load
        regions = len(self.catalogue.of_type("region"))
        if options.players > regions:
            raise OptionError(f"fuutei: {options.players} players need {options.players} regions "
                              f"at setup; the card set has {regions}")

    @cached_property
    def catalogue(self) -> Catalogue:
        return catalogue(self.options.cards or str(CARD_FILE))

    @cached_property
    def guard_actions(self) -> ActionTable:
        """``guard_actions.row(p, region)[character]``: built once, reused every main phase."""
        n = len(self.catalogue.types)
        return ActionTable("guard", self.players, n, n)

    @cached_property
    def equip_actions(self) -> ActionTable:
        """``equip_actions.row(p, equipment)[character]``."""
        n = len(self.catalogue.types)
        return ActionTable("equip", self.players, n, n)

    @cached_property
    def invade_actions(self) -> ActionTable:
        """``invade_actions.row(p, character)[region]``."""
        n = len(self.catalogue.types)
        return ActionTable("invade", self.players, n, n)

    @cached_property
    def card_actions(self) -> dict[str, ActionTable]:
        """``card_actions[verb].row(p, 0)[card]`` for the one-card verbs."""
        n = len(self.catalogue.types)
        return {verb: ActionTable.unary(verb, self.players, n)
                for verb in ("play", "discard", "support", "unguard")}

    def new_state(self, seed: int = 0) -> FuuteiState:
        return FuuteiState.new(self, seed)

    def determinize(self, view: dict[str, Any], rng: Any) -> FuuteiState:
        from .determinize import determinize
        return determinize(self, view, rng)

