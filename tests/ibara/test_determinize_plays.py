"""Sampled worlds let the players they wait for act (IS-MCTS and the research adapters sample
them): with multi-card combat a player declares how many cards it will play
(IBR-COMBAT-MULTI-03) and must then hold a legal play of that size, one suit or one number
(IBR-COMBAT-MULTI-05). A hidden hand dealt at random may hold none; such a world is drawn
again, as the real one always has a legal play."""
from __future__ import annotations

import takujo
import takujo.games.ibara.determinize as determinize
from takujo.core import Rng

SPEC = "ibara(players=3,multi_card_combat=true)"


def _worlds_without_a_legal_action(seeds=(1, 3, 4)) -> tuple[int, int]:
    game = takujo.load(SPEC)
    bad = total = 0
    for seed in seeds:
        state, pick = game.new_state(seed), Rng(seed)
        while state.outcome is None and state.steps < 3000:
            pend, actions = state.first_choice()
            for p in range(game.players):
                world = game.determinize(state.view(p), Rng(state.steps * 7 + p))
                total += 1
                waiting = world.pending
                if waiting is not None and not all(world.legal_actions(q) for q in waiting.players):
                    bad += 1
            state.apply_unchecked(actions[pick.below(len(actions))], pend)
    return bad, total


def test_every_sampled_world_lets_the_players_it_waits_for_act():
    bad, total = _worlds_without_a_legal_action()
    assert total > 1000 and bad == 0


def test_without_drawing_again_some_worlds_would_leave_a_player_without_a_play(monkeypatch):
    monkeypatch.setattr(determinize, "RESAMPLES", 0)
    bad, _ = _worlds_without_a_legal_action()
    assert bad > 0
