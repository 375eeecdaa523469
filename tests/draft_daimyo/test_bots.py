"""Draft Daimyo bots: the heuristic beats random; simulations report factions and VP spread."""
from __future__ import annotations

from takujo.core.rng import Rng
from takujo.sim import run_games

from .helpers import act, card, hold, province, table, take


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


# ----- pointless moves the heuristic leaves out ------------------------------------------------
def _bot_choice(s, p: int) -> str:
    bot = s.game.heuristic_bot()
    return str(bot.act(s.view(p), s.legal_actions(p), Rng(0)))


def test_heuristic_never_empties_its_home_province():
    """武田 with 2 soldiers in 甲斐 and empty land around marches at most one of them out."""
    s = table()
    kai = hold(s, 1, "甲斐", 2)
    for name in ("武蔵", "相模", "信濃南"):
        hold(s, -2, name, 0)
    s.gold[1] = 0
    s.turn_index = s.order.index(1)
    choice = _bot_choice(s, 1)
    verb, *args = choice.split()
    assert verb != "march" or int(args[0]) != kai or int(args[2]) < 2, choice


def test_heuristic_does_not_walk_a_lone_soldier_to_an_equal_empty_province():
    """A lone soldier in 飛騨 (国力 1) next to empty 信濃北 (国力 1): moving would give up 飛騨 for
    信濃北, a step that gains nothing."""
    s = table()
    hida = hold(s, 0, "飛騨", 1)
    hold(s, -2, "信濃北", 0)
    owari = province(s, "尾張")
    s.soldiers[owari] = 1
    for name in ("美濃", "三河", "越中", "信濃南"):
        hold(s, -1, name, 3)
    s.gold[0] = 0
    choice = _bot_choice(s, 0)
    assert not choice.startswith(f"march {hida} "), choice


def test_heuristic_keeps_tactics_cards_that_would_do_nothing():
    """城方の内応 (no castle here) and 略奪 (the defender has no gold) are kept for a battle where
    they work; 毘沙門天の化身 is used."""
    s = table(expansion=True, tactics=True)
    naio, ryaku = (take(s, card(s, n)) for n in ("城方の内応", "略奪"))
    s.tactics_hand[0] = [naio, ryaku]
    mino, sm = hold(s, 0, "美濃", 4), hold(s, 1, "信濃南", 2)
    s.gold[1] = 0
    act(s, f"march {mino} {sm} 2")
    assert _bot_choice(s, 0) == "notactic"
    bish = take(s, card(s, "毘沙門天の化身"))
    s.tactics_hand[0].append(bish)
    assert _bot_choice(s, 0) == f"tactic {bish}"
