"""戦国大戦 双: neither the heuristic nor the rules depend on the order of the card pool or of
the decklists.

The pool file names cards by number; the instance ids come from the decklists, so the twins
here reverse both. Shuffled by content (`same_deal`) a seed deals the same cards, and the
heuristic must then choose the same card content at every decision (docs/bots.md, "Card
order"). Before, a triggered ability chose the lower id of two equally strong targets.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from takujo.core.rng import Rng
from tests.lab.test_card_order import lockstep, reversed_options, same_deal, twin_games

from .helpers import events, ids, put, table

PAIRS = [("kuro", "midori"), ("ao", "aka"), ("midori", "kuro"), ("aka", "ao")]


@pytest.fixture(scope="module")
def twins(tmp_path_factory):
    return {pair: twin_games("sengoku_taisen", tmp_path_factory.mktemp("sengoku-" + "-".join(pair)), decks=pair)
            for pair in PAIRS}


@pytest.mark.parametrize("pair,seed", [(PAIRS[0], 1), (PAIRS[0], 12), (PAIRS[1], 2), (PAIRS[2], 3), (PAIRS[3], 4)])
def test_heuristic_play_is_the_same_with_pool_and_decklists_reversed(twins, pair, seed):
    a, b = twins[pair]
    with same_deal():
        t = lockstep(a, b, seed)
    assert t.rules == [] and t.bot == [] and t.outcome
    assert t.choices > 30


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), walk=st.integers(0, 10**6), pair=st.sampled_from(PAIRS))
def test_the_heuristic_answers_any_state_alike_under_either_order(twins, seed, walk, pair):
    """Random play, the heuristic asked at every decision of both games."""
    a, b = twins[pair]
    with same_deal():
        t = lockstep(a, b, seed, walk=Rng(walk), max_steps=300)
    assert t.rules == [] and t.bot == [] and t.outcome


def test_a_retreat_ability_hits_the_first_in_play_of_equally_strong_targets(tmp_path):
    """Triggered abilities choose the strongest eligible unit [designed]; of two enemies of
    3500 兵力 the one in play longer — in both orders of the decklist, where the other one has
    the lower id in one of them."""
    hit = []
    for options in reversed_options("sengoku_taisen", tmp_path):
        s = table(deck1=options["deck1"], deck2=options["deck2"], cards=options["cards"])
        dying = put(s, "KR-09", 0, "camp")               # {撤退時}: 1000 damage to an enemy
        earlier = put(s, "MD-03", 1, "camp")             # 北条氏康 3500
        later = put(s, "MD-01", 1, "camp")               # 武田信玄 3500
        assert s.strength(earlier) == s.strength(later)
        s.destroy(dying)
        (damage,) = [e for e in events(s, "effect") if e["do"] == "damage"]
        hit.append((s.inst[damage["target"]].number, ids(s, "MD-03", 1)[0] < ids(s, "MD-01", 1)[0]))
    assert [number for number, _ in hit] == ["MD-03", "MD-03"]
    assert hit[0][1] != hit[1][1]                         # (the ids' order differs)
