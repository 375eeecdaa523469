"""The Fuutei bots play from views only, and the heuristic beats random play."""
from __future__ import annotations

from takujo.sim import run_games


def test_heuristic_beats_three_random_bots():
    summary = run_games("fuutei", 40, 11, ["heuristic", "random", "random", "random"], options={"players": 4})
    assert summary.bots["heuristic"].rate > 0.5          # an even share would be 0.25
    assert "step_limit" not in summary.reasons


def test_every_bot_game_ends_by_a_victory_condition():
    summary = run_games("fuutei", 30, 5, ["heuristic"], options={"players": 5})
    assert set(summary.reasons) <= {"points", "deck_out", "yamiomaru"}
