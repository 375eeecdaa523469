"""Every pairing of the four starter decks plays to the end, with random and heuristic bots."""
from __future__ import annotations

import itertools

import pytest

import takujo
from takujo.games.sengoku_taisen import decks
from takujo.games.sengoku_taisen.cards import pool
from takujo.sim import run_games
from tests.conformance.test_conformance import playout

PAIRS = list(itertools.product(decks.STARTERS, repeat=2))


def test_starters_are_legal_52_card_decks_with_one_okugi():
    for name in decks.STARTERS:
        deck = decks.load(name)
        assert decks.check(deck, pool()) == []
        assert len(deck.cards()) == 52 and len(deck.okugi) == 1


@pytest.mark.parametrize("deck1,deck2", PAIRS)
def test_random_games_of_every_pairing_end(deck1, deck2):
    game = takujo.load("sengoku_taisen", deck1=deck1, deck2=deck2)
    for seed in range(6):
        state = playout(game, seed)
        assert state.outcome.reason in {"castle", "library_out", "card_condition", "draw", "concede"}


def test_heuristic_games_of_every_pairing_end_by_a_victory_condition():
    summary = run_games("sengoku_taisen", 48, 7, ["heuristic"])
    assert summary.games == 48 and "step_limit" not in summary.reasons
    assert set(summary.labels) == set(decks.STARTERS)
    assert summary.first is not None and summary.first.games == 48


def test_heuristic_beats_random():
    summary = run_games("sengoku_taisen", 60, 3, ["heuristic", "random"])
    assert summary.bots["heuristic"].rate > 0.75
