"""SGT-WIN-04: conceding, an action open to either player at any time (the core flow's
``ALWAYS``). It is offered on request (``legal_actions(p, always=True)``, what a person's
client shows), never in the lists bots, search and the adapters play from, and it goes
through the normal `apply`: checked, logged as an act, counted as a step."""
from __future__ import annotations

import pytest

import takujo
from takujo.core import Action, DecisionKind, IllegalActionError
from takujo.core.rng import Rng
from takujo.games.sengoku_taisen.state import INTERCEPT, MULLIGAN

from .helpers import act, put, table


def fresh(seed: int = 0):
    return takujo.load("sengoku_taisen", deck1="紅", deck2="蒼").new_state(seed)


def in_window():
    """A battle window open, the attacker asked first (SGT-STRAT-05)."""
    s = table()
    u = put(s, "AK-07", 0, "camp")
    put(s, "AO-02", 1, "walls", nth=1)
    act(s, f"attack {u} castle")
    assert s.windows and s.pending.kind is DecisionKind.RESPONSE
    return s


def test_win_04_concede_is_offered_to_both_players_in_every_decision():
    s = fresh()
    assert s.phase == MULLIGAN
    decider = s.pending.players[0]
    waiting = 1 - decider
    for state in (s, table(), in_window()):
        for p in (0, 1):
            assert Action(p, "concede") in state.legal_actions(p, always=True)
            assert Action(p, "concede") in state.legal_actions(always=True)
            assert Action(p, "concede") not in state.legal_actions(p)
        pend, first = state.first_choice()
        assert all(a.verb != "concede" for a in first)
        assert all(a.verb != "concede" for a in state.legal_actions())
    assert s.legal_actions(waiting) == [] and s.legal_actions(waiting, always=True) == [Action(waiting, "concede")]
    assert s.legal_actions(2, always=True) == []


def test_win_04_concede_goes_through_apply():
    s = in_window()
    steps = s.steps
    s.apply("concede", 1)                       # the defender, not asked now
    assert s.outcome.winners == (0,) and s.outcome.reason == "concede"
    assert s.steps == steps + 1 and s.pending is None and s.windows == []
    acts = [e for e in s.log if e["e"] == "act"]
    assert acts[-1]["player"] == 1 and acts[-1]["action"] == "concede"
    assert s.log[-1]["e"] == "game_over" and s.log[-1]["reason"] == "concede"
    assert s.legal_actions(0, always=True) == []
    with pytest.raises(IllegalActionError) as err:
        s.apply(Action(0, "concede"))           # the game is over
    assert err.value.message == "action.game_over"


def test_win_04_concede_in_the_interception_step_by_apply_unchecked():
    s = table()
    u = put(s, "AK-07", 0, "camp")
    put(s, "AO-02", 1, "camp")
    put(s, "AO-02", 1, "walls", nth=1)
    act(s, f"attack {u} castle")
    assert s.phase == INTERCEPT
    s.apply_unchecked(Action(0, "concede"))     # what a client that checked it itself does
    assert s.outcome.winners == (1,) and s.outcome.reason == "concede"


@pytest.mark.parametrize("action, message", [
    (Action(2, "concede"), "action.not_your_decision"),        # no such player
    (Action(-1, "concede"), "action.not_your_decision"),
    (Action(0, "concede", (1,)), "action.not_legal"),          # concede takes no argument
    (Action(1, "concede", ("now",)), "action.not_legal"),
])
def test_win_04_a_bad_concede_is_refused_and_changes_nothing(action, message):
    s = table()
    before = s.clone()
    with pytest.raises(IllegalActionError) as err:
        s.apply(action)
    assert err.value.message == message
    assert s == before
    if message == "action.not_legal":
        assert "legal: " in str(err.value) and "concede" in str(err.value).split("legal: ")[1]


def test_win_04_concede_in_notation_needs_a_player():
    s = table()
    before = s.clone()
    with pytest.raises(IllegalActionError) as err:
        s.apply("concede")
    assert err.value.message == "sengoku_taisen.action.concede_who"
    assert s == before


def test_win_04_random_play_and_search_never_concede():
    """Bots play from `first_choice` and ``legal_actions(p)``: concede is in neither."""
    game = takujo.load("sengoku_taisen", deck1="紅", deck2="蒼")
    rng = Rng(5)
    for seed in range(3):
        s = game.new_state(seed)
        while s.outcome is None and s.steps < 2000:
            pend, legal = s.first_choice()
            assert legal == s.legal_actions(pend.players[0])
            s.apply_unchecked(legal[rng.below(len(legal))], pend)
        assert s.outcome is not None and s.outcome.reason != "concede"
