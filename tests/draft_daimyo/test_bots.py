"""Draft Daimyo bots: the heuristic beats random; simulations report factions and VP spread."""
from __future__ import annotations

from takujo.sim import run_games


def test_heuristic_beats_three_random_bots():
    summary = run_games("draft_daimyo", 40, 3, ["heuristic", "random", "random", "random"], options={"players": 4})
    assert summary.bots["heuristic"].rate > 0.45          # an even share would be 0.25


def test_simulation_reports_factions_and_spread_with_everything_on():
    summary = run_games("draft_daimyo", 16, 5, ["heuristic"],
                        options={"players": 4, "expansion": True, "tactics": True, "turn_order_choice": True})
    assert set(summary.labels) == {"織田", "武田", "上杉", "今川"}
    assert "vp_spread" in summary.stats and summary.reasons == {"vp": 16}


def test_three_player_games_have_no_imagawa():
    summary = run_games("draft_daimyo", 12, 7, ["heuristic", "random"], options={"players": 3})
    assert set(summary.labels) == {"織田", "武田", "上杉"}
