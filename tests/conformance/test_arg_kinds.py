"""Every argument of every legal action has a declared kind (`takujo.core.targets`): the game's
argument table covers each verb it offers, with one kind per argument, and each value is of
its kind (a player is a seat, a card one of the set's cards, a place one of the board's) — so
the renderer, the bots, the boards and the research adapters read what an argument names
instead of guessing it. Parametrized over the registered games and their configurations of
tests/adapters/configs.py, from seeded random play."""
from __future__ import annotations

import pytest

import takujo
from takujo.core import Rng
from takujo.core.targets import Kind
from tests.adapters.configs import SPECS


def _specs() -> list[str]:
    return sorted({*takujo.names(), *SPECS})


@pytest.mark.parametrize("spec", _specs())
def test_every_legal_action_has_its_arguments_declared(spec) -> None:
    game = takujo.load(spec)
    if not game.arg_table.verbs():
        pytest.skip(f"{spec} declares no argument table")
    problems: set[str] = set()
    verbs: set[str] = set()
    for seed in range(3):
        s = game.new_state(seed)
        rng = Rng(seed ^ 0xA5)
        while s.outcome is None and s.steps < 3000:
            legal = s.legal_actions()
            for a in legal:
                verbs.add(a.verb)
                problems.update(game.arg_problems(a))
                assert all(k.kind is not Kind.ANY for k in game.arg_kinds(a)), a
            s.apply(legal[rng.below(len(legal))])
    assert not problems, sorted(problems)[:20]
    assert verbs <= game.arg_table.verbs()
