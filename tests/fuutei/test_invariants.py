"""State.check_invariants: the victory check that only runs after a flagged change.

FTR-WIN-01: a player whose regions reach the goal wins at once. The engine checks it only
after `victory_may_change` flags a change of regions, centre or equipment; the invariant check
recomputes it the full way, so a rule that moves regions without the flag is caught."""
from __future__ import annotations

import takujo
from takujo.core import Rng
from takujo.games.fuutei.state import FuuteiState

from tests.conformance.test_conformance import random_step


def _first_problem(game, seeds=range(12)) -> str | None:
    for seed in seeds:
        state = game.new_state(seed)
        rng = Rng(seed)
        while state.outcome is None and state.steps < 3000:
            random_step(state, rng)
            problems = state.check_invariants()
            if problems:
                return problems[0]
    return None


def test_random_games_keep_the_victory_invariant():
    assert _first_problem(takujo.load("fuutei(players=3)")) is None


def test_forgetting_victory_may_change_is_caught(monkeypatch):
    """FTR-WIN-01: with the flag never raised (as if a rule moving regions forgot to call it),
    the game runs past the goal and check_invariants says so."""
    monkeypatch.setattr(FuuteiState, "victory_may_change", lambda self: None)
    problem = _first_problem(takujo.load("fuutei(players=3)"))
    assert problem is not None and "victory_may_change" in problem and "points" in problem
