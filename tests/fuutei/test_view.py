"""What each Fuutei player may see: own hand, never others' hands, the pile or hidden commits."""
from __future__ import annotations

import json

import takujo
from takujo.core import Rng

from .helpers import act, of_type, put, table, weak


def _play(state, steps, seed=1):
    rng = Rng(seed)
    for _ in range(steps):
        if state.outcome is not None:
            break
        p = state.pending.players[0]
        legal = state.legal_actions(p)
        state.apply(legal[rng.below(len(legal))])


def test_hands_and_pile_are_hidden_from_others():
    state = takujo.load("fuutei", players=3).new_state(11)
    _play(state, 40)
    for p in range(3):
        view = state.view(p)
        hands = view["zones"]["hand"]
        assert hands[p] == state.hands[p]
        for q in range(3):
            if q != p:
                assert hands[q] == len(state.hands[q])
        assert view["zones"]["deck"] == len(state.deck)
        text = json.dumps(view)
        assert "rng" not in text and str(state.rng.state) not in text
        for e in view["log"]:
            if e["e"] == "draw":
                assert e["player"] == p, "another player's draw is visible"
    spectator = takujo.load("fuutei", players=3).new_state(11).view(None)
    assert all(isinstance(h, int) for h in spectator["zones"]["hand"])


def test_committed_battle_support_is_hidden_until_both_commit():
    s = table(3)
    a = put(s, weak(s, 0), party=0)
    r = put(s, of_type(s, "region")[0], region=1)
    put(s, weak(s, 1), party=1, guards=[r])
    bs = put(s, of_type(s, "battle_support")[0], hand=0)
    act(s, "end")
    act(s, f"invade {a} {r}")
    act(s, f"support {bs}", 0)
    other = s.view(1)
    assert other["zones"]["support"][0] == 1          # one face-down card, identity unknown
    assert str(bs) not in json.dumps(other["zones"]["support"])
    assert all(e.get("action") != f"support {bs}" for e in other["log"])
    assert s.view(0)["zones"]["support"][0] == [bs]
    assert s.view(2)["pending"]["players"] == [1]
