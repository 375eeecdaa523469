"""State.check_invariants for いばらの姫と4人の騎士: the moves listed from the game's cache of
reachable squares (IBR-MOVE: a card moves a knight up to its number of squares, not through
other knights) must be the moves computed the full way."""
from __future__ import annotations

import takujo
from takujo.core import Rng

from tests.conformance.test_conformance import random_step


def _states(game, seeds=range(4)):
    for seed in seeds:
        state = game.new_state(seed)
        rng = Rng(seed)
        while state.outcome is None and state.steps < 400:
            random_step(state, rng)
            yield state


def test_the_caches_agree_with_the_full_computation():
    game = takujo.load("ibara(players=4,multi_card_combat=true)")
    assert all(not s.check_invariants() for s in _states(game))
    assert game.reach_cache  # the cache was used


def test_a_stale_cache_entry_is_caught():
    """A cache keyed on too little (here: every entry answered with the keep's square only)
    lists wrong moves; check_invariants says so."""
    game = takujo.load("ibara(players=4)")
    problems = []
    for state in _states(game, range(2)):
        for key in list(game.reach_cache):
            game.reach_cache[key] = (0,)
        problems = state.check_invariants()
        if problems:
            break
    assert problems and "legal actions differ" in problems[0]
