"""The fixed-shape actions of a game of 戦国大戦 双, built once per game.

Legal-action generation is the hottest code of random play and search, and most of what it
offers has a shape fixed by the two decks: place card c as kokuryoku, deploy c, discard c,
attack the castle with u, end, skip, pass … Each of these is built once here (indexed by
player, then card id) and picked instead of being built again on every step. Summoned
soldiers (token ids from `state.TOKEN_BASE`) are not cards: their actions are built as needed.
"""
from __future__ import annotations

from collections.abc import Sequence

from ...core.action import Action, ActionTable, BareActions
from .cards import CardDef
from .combat import CASTLE
from .effects import needs_choice

PLAYERS = (0, 1)

PerCard = tuple[tuple[Action, ...], tuple[Action, ...]]


def _per_card(cards: int, verb: str, *tail: str) -> PerCard:
    """``table[p][c]`` is ``Action(p, verb, (c, *tail))``."""
    return (tuple(Action(0, verb, (c, *tail)) for c in range(cards)),
            tuple(Action(1, verb, (c, *tail)) for c in range(cards)))


class FixedActions:
    """The game's fixed-shape actions: ``acts.end[p]``, ``acts.deploy[p][c]``,
    ``acts.attack.row(p, u)[t]`` … for cards `c`, `u`, `t` of the game (ids below `cards`).
    Ability i of warlord u has the slot ``u * ability_slots + i`` in ``ability_plain[p]``
    (untargeted) and ``ability`` (``row(p, slot)[t]``: at unit t)."""

    __slots__ = ("cards", "keep", "mulligan", "skip", "end", "pass_", "nointercept",
                 "koku_up", "koku_down", "deploy", "discard", "intercept", "card_stratagem",
                 "attack_castle", "attack", "stratagem", "ability_slots", "ability_plain", "ability")

    def __init__(self, cards: int, ability_slots: int) -> None:
        self.cards = cards
        bare = BareActions(len(PLAYERS))
        self.keep, self.mulligan = bare["keep"], bare["mulligan"]
        self.skip, self.end = bare["skip"], bare["end"]
        self.pass_, self.nointercept = bare["pass"], bare["nointercept"]
        self.koku_up = _per_card(cards, "koku", "up")
        self.koku_down = _per_card(cards, "koku", "down")
        self.deploy = _per_card(cards, "deploy")
        self.discard = _per_card(cards, "discard")
        self.intercept = _per_card(cards, "intercept")
        self.card_stratagem = _per_card(cards, "stratagem")     # permanent or untargeted
        self.attack_castle = _per_card(cards, "attack", CASTLE)
        # verb c t: a card and the unit it targets (rows are built on first use)
        self.attack = ActionTable("attack", len(PLAYERS), cards, cards)
        self.stratagem = ActionTable("stratagem", len(PLAYERS), cards, cards)
        self.ability_slots = ability_slots
        heads = [(c, i) for c in range(cards) for i in range(ability_slots)]
        self.ability_plain = tuple(tuple(Action(p, "ability", head) for head in heads) for p in PLAYERS)
        self.ability = ActionTable("ability", len(PLAYERS), len(heads), cards, heads)

    def prebuild(self, instances: Sequence[CardDef], owners: Sequence[int]) -> None:
        """Build now the rows that play can use: each player's attacks by its warlords, and its
        stratagems and {メイン} abilities aimed at a unit (play then never stops to build one)."""
        for c, (card, p) in enumerate(zip(instances, owners)):
            if card.type == "warlord":
                self.attack.row(p, c)
                for i, ability, _, _ in card.main_abilities:
                    if needs_choice(ability):
                        self.ability.row(p, c * self.ability_slots + i)
            elif card.type == "stratagem" and card.effect is not None and needs_choice(card.effect):
                self.stratagem.row(p, c)
