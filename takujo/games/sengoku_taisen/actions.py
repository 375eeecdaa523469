"""The fixed-shape actions of a game of 戦国大戦 双, built once per game.

Legal-action generation is the hottest code of random play and search, and most of what it
offers has a shape fixed by the two decks: place card c as kokuryoku, deploy c, discard c,
attack the castle with u, end, skip, pass … Each of these is built once here (indexed by
player, then card id) and picked instead of being built again on every step. Summoned
soldiers (token ids from `state.TOKEN_BASE`) are not cards: their actions are built as needed.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...core.action import Action, ActionTable
from .cards import CardDef
from .combat import CASTLE
from .effects import needs_choice

if TYPE_CHECKING:
    from .game import SengokuGame

PLAYERS = (0, 1)

PerCard = tuple[tuple[Action, ...], tuple[Action, ...]]


def _rows(table: ActionTable) -> PerCard:
    """``rows[p][c]`` is ``table.row(p, 0)[c]``: a one-card table's rows, looked up once."""
    return table.row(0, 0), table.row(1, 0)


class FixedActions:
    """The game's fixed-shape actions: ``acts.end[p]``, ``acts.deploy[p][c]``,
    ``acts.attack.row(p, u)[t]`` … for cards `c`, `u`, `t` of the game (ids below `cards`).
    Ability i of warlord u is ``ability_plain.row(p, u)[i]`` (untargeted) and, at unit t,
    ``ability.row(p, u * ability_slots + i)[t]``.

    Actions of one or two cards are the game's core tables (`Game.card_actions`,
    `Game.card_pair_actions`, `Game.bare_actions`); the ones with a word after the card
    (``koku c up``, ``attack u castle``) and the abilities have tables of their own."""

    __slots__ = ("cards", "keep", "mulligan", "skip", "end", "pass_", "nointercept",
                 "koku_up", "koku_down", "deploy", "discard", "intercept", "card_stratagem",
                 "attack_castle", "attack", "stratagem", "ability_slots", "ability_plain", "ability")

    def __init__(self, game: "SengokuGame", ability_slots: int) -> None:
        cards = self.cards = game.card_count
        n = len(PLAYERS)
        bare, one, two = game.bare_actions, game.card_actions, game.card_pair_actions
        self.keep, self.mulligan = bare["keep"], bare["mulligan"]
        self.skip, self.end = bare["skip"], bare["end"]
        self.pass_, self.nointercept = bare["pass"], bare["nointercept"]
        self.koku_up = _rows(ActionTable.unary("koku", n, cards, tail=("up",)))
        self.koku_down = _rows(ActionTable.unary("koku", n, cards, tail=("down",)))
        self.deploy = _rows(one["deploy"])
        self.discard = _rows(one["discard"])
        self.intercept = _rows(one["intercept"])
        self.card_stratagem = _rows(one["stratagem"])           # permanent or untargeted
        self.attack_castle = _rows(ActionTable.unary("attack", n, cards, tail=(CASTLE,)))
        # verb c t: a card and the unit it targets (rows are built on first use)
        self.attack = two["attack"]
        self.stratagem = two["stratagem"]
        self.ability_slots = ability_slots
        heads = [(c, i) for c in range(cards) for i in range(ability_slots)]
        self.ability_plain = ActionTable("ability", n, cards, ability_slots)
        self.ability = ActionTable("ability", n, len(heads), cards, heads)

    def prebuild(self, instances: Sequence[CardDef], owners: Sequence[int]) -> None:
        """Build now the rows that play can use: each player's attacks by its warlords, and its
        stratagems and {メイン} abilities (play then never stops to build one)."""
        for c, (card, p) in enumerate(zip(instances, owners)):
            if card.type == "warlord":
                self.attack.row(p, c)
                if card.main_abilities:
                    self.ability_plain.row(p, c)
                for i, ability, _, _ in card.main_abilities:
                    if needs_choice(ability):
                        self.ability.row(p, c * self.ability_slots + i)
            elif card.type == "stratagem" and card.effect is not None and needs_choice(card.effect):
                self.stratagem.row(p, c)
