"""ドラフト戦国大名: neither the heuristic nor the rules depend on the order of cards.toml.

The card file reversed gives every card another instance id; shuffled by content
(`same_deal`) a seed deals the same cards, and the heuristic must then choose the same card
content at every decision (docs/bots.md, "Card order"). Before, upkeep dismissed the card of
lower id of two equally cheap ones, so the same game went otherwise with the file reversed.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from takujo.core.rng import Rng
from tests.lab.test_card_order import lockstep, reversed_options, same_deal, twin_games

from .helpers import card, events, to_domain, table
from .test_rules_expansion import finish_round

VARIANTS = {"base": {"players": 4}, "three": {"players": 3},
            "expansion": {"players": 4, "expansion": True, "tactics": True}}


@pytest.fixture(scope="module")
def twins(tmp_path_factory):
    folder = tmp_path_factory.mktemp("draft-cards")
    return {k: twin_games("draft_daimyo", folder, **options) for k, options in VARIANTS.items()}


@pytest.mark.parametrize("variant,seed", [("base", 1), ("base", 3), ("three", 2), ("expansion", 4)])
def test_heuristic_play_is_the_same_with_the_card_file_reversed(twins, variant, seed):
    a, b = twins[variant]
    with same_deal():
        t = lockstep(a, b, seed)
    assert t.rules == [] and t.bot == [] and t.outcome
    assert t.choices > 50


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), walk=st.integers(0, 10**6), variant=st.sampled_from(sorted(VARIANTS)))
def test_the_heuristic_answers_any_state_alike_under_either_order(twins, seed, walk, variant):
    """Random play, the heuristic asked at every decision of both games."""
    a, b = twins[variant]
    with same_deal():
        t = lockstep(a, b, seed, walk=Rng(walk), max_steps=300)
    assert t.rules == [] and t.bot == [] and t.outcome


def test_upkeep_dismisses_the_longest_held_of_equally_cheap_cards_in_either_file(tmp_path):
    """Upkeep [designed penalty]: what cannot be paid is dismissed, cheapest first; of two
    cards of cost 1, the one longest in the domain — in both files, where the other one has
    the lower id in one of them."""
    results = []
    for options in reversed_options("draft_daimyo", tmp_path):
        s = table(**options)
        first, second = card(s, "足利義昭"), card(s, "松永久秀")
        assert s.cards[first].spec.cost == s.cards[second].spec.cost == 1
        to_domain(s, 0, "足利義昭")
        to_domain(s, 0, "松永久秀")
        for name in ("柴田勝家", "前田利家"):
            to_domain(s, 0, name)
        s.gold[0] = 1                                     # due 2, pays 1
        finish_round(s)
        results.append(([s.cards[e["card"]].spec.name_ja for e in events(s, "dismissed")], first < second))
    assert [names for names, _ in results] == [["足利義昭"], ["足利義昭"]]
    assert results[0][1] != results[1][1]                 # (the ids' order differs)
