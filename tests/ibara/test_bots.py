"""The Ibara bots play from views only; the heuristic beats random; games always end."""
from __future__ import annotations

from takujo.sim import run_games

ALL_ON = {"players": 4, "mode": "short", "multi_card_combat": True, "anger_penalty": "hybrid_event_one",
          "sp_cards_to_hand": True, "gaiblitz_buff": True, "ryan_last": True}


def test_heuristic_beats_three_random_bots():
    summary = run_games("ibara", 24, 3, ["heuristic", "random", "random", "random"], options={"players": 4})
    assert summary.bots["heuristic"].rate > 0.6          # an even share would be 0.25


def test_simulation_reports_knights_and_anger_with_every_option_on():
    summary = run_games("ibara", 24, 5, ["heuristic"], options=ALL_ON)
    assert set(summary.labels) == {"ゲイブリッツ", "シオン", "ミレイユ", "ライアン"}
    assert "anger_explosions" in summary.stats
    assert set(summary.reasons) <= {"escape", "time"}


def test_three_player_games_end():
    summary = run_games("ibara", 12, 7, ["heuristic", "random"], options={"players": 3})
    assert summary.games == 12 and "step_limit" not in summary.reasons
