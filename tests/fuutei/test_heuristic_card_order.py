"""風帝伝説FIGHTER: the heuristic's choices do not depend on the order of cards.toml.

The card file reversed gives every card another instance id; shuffled by content
(`same_deal`) a seed deals the same cards, and the heuristic must then choose the same card
content at every decision (docs/bots.md, "Card order").
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from takujo.core.rng import Rng
from takujo.games.fuutei.state import HAND
from tests.lab.test_card_order import lockstep, reversed_options, same_deal, twin_games

from .helpers import card, put, table


@pytest.fixture(scope="module")
def twins(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fuutei-cards")
    return {players: twin_games("fuutei", folder, players=players) for players in (3, 4, 6)}


@pytest.mark.parametrize("players,seed", [(3, 1), (4, 2), (4, 3), (6, 4)])
def test_heuristic_play_is_the_same_with_the_card_file_reversed(twins, players, seed):
    a, b = twins[players]
    with same_deal():
        t = lockstep(a, b, seed)
    assert t.rules == [] and t.bot == [] and t.outcome
    assert t.choices > 50                      # decisions with more than one action compared


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), walk=st.integers(0, 10**6), players=st.sampled_from([3, 4, 6]))
def test_the_heuristic_answers_any_state_alike_under_either_order(twins, seed, walk, players):
    """Random play (to states the heuristic's own play seldom reaches), the heuristic asked at
    every decision of both games."""
    a, b = twins[players]
    with same_deal():
        t = lockstep(a, b, seed, walk=Rng(walk), max_steps=300)
    assert t.rules == [] and t.bot == [] and t.outcome


def test_of_equally_worth_cards_the_hand_phase_discards_the_first_held(tmp_path):
    """FTR-HAND-01 (the hand phase's discard): two battle support cards are worth the same to the
    bot; it discards the one it has held longer, in both files — the one of lower id in one of
    them, of higher id in the other."""
    base, other = reversed_options("fuutei", tmp_path)
    discarded = []
    for options in (base, other):
        s = table(players=3, **options)
        later_in_file, earlier_in_file = card(s, "teppeki"), card(s, "chikara_no_gofu")
        assert (later_in_file > earlier_in_file) == (options is base)
        put(s, later_in_file, hand=0)
        put(s, earlier_in_file, hand=0)
        for hold in ("kyukon", "kaitaku", "shikaku", "buki_hakai"):
            put(s, hold, hand=0)
        s.phase = HAND
        bot = s.game.heuristic_bot()
        choice = bot.act(s.view(0), s.legal_actions(0), Rng(1))
        assert choice.verb == "discard"
        discarded.append(s.cat[choice.args[0]].id)
    assert discarded == ["teppeki", "teppeki"]

