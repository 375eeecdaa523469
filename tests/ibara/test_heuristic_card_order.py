"""いばらの姫と4人の騎士: neither the heuristic nor the rules depend on the order of
content.toml.

Reversed, the file gives the SP cards (and knights, whims, events, item chips) other ids; the
numbered cards and shields get theirs from ``[deck]``. Shuffled by content (`same_deal`) a seed
deals the same cards, and the heuristic must choose the same card content at every decision
(docs/bots.md, "Card order"). Before, of two SP cards it took the one of lower id.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from takujo.core.rng import Rng
from takujo.games.ibara.phases import GABE_DISCARD
from tests.lab.test_card_order import lockstep, reversed_options, same_deal, twin_games

from .helpers import act, card, escort, give, legal, place, table

VARIANTS = {"plain": {"players": 4}, "multi": {"players": 4, "multi_card_combat": True},
            "gabe": {"players": 3, "gaiblitz_buff": True, "ryan_last": True}}


@pytest.fixture(scope="module")
def twins(tmp_path_factory):
    folder = tmp_path_factory.mktemp("ibara-content")
    return {k: twin_games("ibara", folder, **options) for k, options in VARIANTS.items()}


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    return reversed_options("ibara", tmp_path_factory.mktemp("ibara-files"))


@pytest.mark.parametrize("variant,seed", [("plain", 1), ("plain", 2), ("multi", 3), ("gabe", 4)])
def test_heuristic_play_is_the_same_with_the_content_file_reversed(twins, variant, seed):
    a, b = twins[variant]
    with same_deal():
        t = lockstep(a, b, seed)
    assert t.rules == [] and t.bot == [] and t.outcome
    assert t.choices > 50


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), walk=st.integers(0, 10**6), variant=st.sampled_from(sorted(VARIANTS)))
def test_the_heuristic_answers_any_state_alike_under_either_order(twins, seed, walk, variant):
    """Random play (hands full of SP cards, combats the heuristic would avoid), the heuristic
    asked at every decision of both games."""
    a, b = twins[variant]
    with same_deal():
        t = lockstep(a, b, seed, walk=Rng(walk), max_steps=300)
    assert t.rules == [] and t.bot == [] and t.outcome


def _sp_ids_flip(s, files, options) -> None:
    """(The SP cards 瞬間移動 and 呼び寄せ are in opposite id order in the two files.)"""
    assert (card(s, None, sp="teleport") < card(s, None, sp="move_event")) == (options is files[0])


def test_of_sp_cards_the_same_one_is_discarded_whatever_their_ids(files):
    """IBR-GABE-01: made to discard, with only SP cards in hand (all worth the same to it),
    the bot gives up the same card under either order of the file."""
    out = []
    for options in files:
        s = table(knights=["gaiblitz", "sion", "mireille", "ryan"], **options)
        _sp_ids_flip(s, files, options)
        give(s, 1, card(s, None, sp="teleport"), card(s, None, sp="move_event"))
        s.phase, s.gabe_target, s.gabe_left = GABE_DISCARD, 1, 1
        choice = s.game.heuristic_bot().act(s.view(1), s.legal_actions(1), Rng(1))
        assert choice.verb == "discard"
        out.append(s.content.cards[choice.args[0]].sp)
    assert out[0] == out[1]


def test_ryan_adds_the_same_sp_card_to_a_play_whatever_its_id(files):
    """IBR-COMBAT-RYAN-01: ライアン escorting may add an SP card to a multi-card play; with 剣7
    and two SP cards, the two plays are worth the same to the bot, which picks the same one
    under either order of the file."""
    out = []
    for options in files:
        s = table(knights=["ryan", "sion", "mireille", "gaiblitz"], multi_card_combat=True, **options)
        _sp_ids_flip(s, files, options)
        place(s, 0, 2)
        place(s, 1, 1)
        escort(s, 0)
        mv, a7 = card(s, "剣", 1), card(s, "剣", 7)
        give(s, 0, mv, a7, card(s, None, sp="teleport"), card(s, None, sp="move_event"))
        give(s, 1, card(s, "拳", 9))
        act(s, f"move {mv} 1")
        act(s, "declare 2", 0)
        act(s, "declare 1", 1)
        assert len(legal(s, 0)) == 2
        choice = s.game.heuristic_bot().act(s.view(0), s.legal_actions(0), Rng(1))
        out.append(sorted(s.content.cards[c].sp or "" for c in choice.args))
    assert out[0] == out[1]


def test_a_side_with_only_sp_cards_lays_the_same_one_face_down_whatever_the_ids(files):
    """[designed] A side with no card that can fight lays one face down (`nofight`): which
    one follows what the cards are, not their ids (it goes back to the hand in another place,
    so an id would change the hand's order between the two files)."""
    laid = []
    for options in files:
        s = table(knights=["sion", "mireille", "ryan", "gaiblitz"], **options)
        _sp_ids_flip(s, files, options)
        place(s, 0, 2)
        place(s, 1, 1)
        mv = card(s, "剣", 1)
        give(s, 0, mv, card(s, "剣", 8))
        give(s, 1, card(s, None, sp="teleport"), card(s, None, sp="move_event"))
        act(s, f"move {mv} 1")
        (only,) = s.legal_actions(1)
        assert only.verb == "nofight"
        laid.append(s.content.cards[only.args[0]].sp)
    assert laid[0] == laid[1]
