"""The engine core: games, states, decisions, actions, chance, visibility and card data.

Nothing in `takujo.core` knows any particular game.
"""
from .action import Action, ActionTable, BareActions
from .cards import load_cards
from .decision import Decision, DecisionKind, Outcome, TurnDecisions
from .dice import Dice
from .errors import (CardDataError, IllegalActionError, NotationError, OptionError,
                     RecordError, StaleActionError, TakujoError)
from .game import Game, GameOptions, parse_game_string
from .response import Window, polling_order
from .rng import Rng
from .simultaneous import Commits
from .state import State
from .visibility import Vis, ZoneSpec, derive_view, shuffle_unseen

__all__ = [
    "Action", "ActionTable", "BareActions", "CardDataError", "Commits", "Decision", "DecisionKind",
    "Dice", "Game", "GameOptions", "IllegalActionError", "NotationError", "OptionError", "Outcome",
    "RecordError", "Rng", "StaleActionError", "State", "TakujoError", "TurnDecisions", "Vis", "Window", "ZoneSpec",
    "derive_view", "load_cards", "parse_game_string", "polling_order", "shuffle_unseen",
]
