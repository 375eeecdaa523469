"""ドラフト戦国大名 as a takujo Game: options, the card set and the map in play."""
from __future__ import annotations

from functools import cached_property
from typing import Any

from pydantic import Field

from ...core.action import ActionTable
from ...core.errors import OptionError
from ...core.game import Game, GameOptions
from .board import MAP_FILE, Board, load_board
from .cards import CARD_FILE, CardSet, card_set
from .state import MARCH_MAX, DaimyoState


class DaimyoOptions(GameOptions):
    players: int = Field(4, ge=3, le=4, description="number of players (3-4; 3 drops 今川 and 駿河・遠江・伊豆)")
    expansion: bool = Field(False, description="the expansion card set (DSD-SETUP)")
    tactics: bool = Field(False, description="the optional tactics cards (DSD-TACTICS; needs expansion=true)")
    turn_order_choice: bool = Field(False, description="publisher's variant: from round 2 the "
                                                       "lowest in VP chooses a turn-order position first")
    cards: str = Field("", description="path of a cards.toml instead of the built-in stand-in list")
    board: str = Field("", description="path of a map.toml instead of the built-in stand-in map")


class DaimyoGame(Game):
    name = "draft_daimyo"
    title = "ドラフト戦国大名"
    Options = DaimyoOptions
    State = DaimyoState
    presentation = "takujo.games.draft_daimyo.render"
    play_bot = "ismcts:1000"     # beats the heuristic at under 0.5 s a move (docs/bots.md)
    heuristic = "takujo.games.draft_daimyo.heuristic:DaimyoHeuristic"
    options: DaimyoOptions

    def _check_options(self, options: GameOptions) -> None:
        # DSD-COMP-08: the 8 tactics cards are components of the expansion card set, so the
        # tactics rule (DSD-TACTICS-01) cannot be played without it.
        if options.tactics and not options.expansion:     # type: ignore[attr-defined]
            raise OptionError(f"{self.name}: option 'tactics'=true needs 'expansion'=true: the tactics "
                              f"cards come in the expansion card set")
        self.cards, self.board

    @cached_property
    def cards(self) -> CardSet:
        o = self.options
        return card_set(o.cards or str(CARD_FILE), o.expansion, o.tactics)

    @cached_property
    def board(self) -> Board:
        return load_board(self.options.board or str(MAP_FILE))

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
