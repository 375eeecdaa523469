"""The heuristic bot of 戦国大戦 双 makes no pointless move, and plays the main-phase boosts it
used to keep forever."""
from __future__ import annotations

from takujo.core.rng import Rng
from takujo.games.sengoku_taisen.heuristic import SengokuHeuristic

from .helpers import act, give_koku, legal, pass_battle, put, table


def choice(s, p: int | None = None) -> str:
    p = s.pending.players[0] if p is None else p
    return str(SengokuHeuristic(s.game).act(s.view(p), s.legal_actions(p), Rng(0)))


def test_no_castle_attack_by_a_unit_of_siege_zero_while_walls_stand():
    """SGT-WALL-08 / SGT-WARLORD-07: 攻城力 0 destroys no wall; only with no walls left does
    such an attack do anything (it wins, SGT-WIN-01)."""
    s = table("蒼", "紅")
    zero = put(s, "AO-02", 0, "camp")                  # 攻城力 0
    assert s.siege(zero) == 0
    put(s, "AK-02", 1, "walls")
    assert f"attack {zero} castle" in {str(a) for a in s.legal_actions(0)}
    assert choice(s) == "end"
    s.walls[1].clear()
    assert choice(s) == f"attack {zero} castle"


def test_no_strength_boost_for_an_attacker_nobody_blocks():
    """In the battle window of an unintercepted castle attack no unit fights: a 兵力 boost on
    the attacker changes nothing, so the bot passes; in a fight it would lose it plays it."""
    s = table("蒼", "紅")
    a = put(s, "AO-05", 0, "camp")                     # 1000
    boost = put(s, "AO-14", 0, "hand")                 # {戦闘} ally +1500
    give_koku(s, 0, "蒼", 2)
    put(s, "AK-02", 1, "walls")
    act(s, f"attack {a} castle")
    assert f"stratagem {boost} {a}" in {str(x) for x in s.legal_actions(0)}
    assert choice(s) == "pass"
    t = table("蒼", "紅")
    a = put(t, "AO-05", 0, "camp")                     # 1000 against 1500
    boost = put(t, "AO-14", 0, "hand")
    give_koku(t, 0, "蒼", 2)
    d = put(t, "AK-06", 1, "camp")                     # 1500 【奇襲】: 長槍 deals 2000
    put(t, "AK-02", 1, "walls")
    act(t, f"attack {a} castle")
    act(t, f"intercept {d}")
    assert choice(t) == f"stratagem {boost} {a}"


def test_no_exhaust_in_a_fight_where_it_changes_nothing():
    s = table("蒼", "紅")
    a = put(s, "AO-04", 0, "camp")                     # 4000
    ex = put(s, "AO-13", 0, "hand")                    # 牽制: exhaust a ready enemy
    give_koku(s, 0, "蒼", 2)
    d = put(s, "AK-07", 1, "camp")
    put(s, "AK-02", 1, "walls")
    act(s, f"attack {a} castle")
    act(s, f"intercept {d}")
    assert f"stratagem {ex} {d}" in {str(x) for x in s.legal_actions(0)}
    assert choice(s) == "pass"
    pass_battle(s)


def test_a_main_phase_siege_boost_is_played_before_a_castle_attack():
    """城攻め ({メイン} 攻城力+1) was never played (kept for battles it cannot be played in)."""
    s = table("紅", "蒼")
    u = put(s, "AK-02", 0, "camp")                     # 3000, 攻城力 1
    siege = put(s, "AK-13", 0, "hand")
    give_koku(s, 0, "紅", 1)
    for c in [c for c in s.deck[1] if s.inst[c].type == "warlord"][:3]:
        put(s, c, 1, "walls")
    assert choice(s) == f"stratagem {siege} {u}"
    act(s, f"stratagem {siege} {u}")
    assert choice(s) == f"attack {u} castle"


def test_damage_that_kills_nothing_is_kept():
    s = table("翠", "紅")
    dmg = put(s, "MD-14", 0, "hand")                   # {メイン} 2000 damage
    give_koku(s, 0, "翠", 3)
    big = put(s, "AK-15", 1, "camp")                   # 5500
    assert f"stratagem {dmg} {big}" in {str(x) for x in s.legal_actions(0)}
    assert choice(s) == "end"
    small = put(s, "AK-03", 1, "camp")                 # 1000
    assert choice(s) == f"stratagem {dmg} {small}"


def _okugi_table(**options):
    """紅's okugi (every ally +1000 兵力 this turn, from 5 kokuryoku) ready; our 2000 attacker
    against their ready 2500 guard and two walls."""
    s = table("紅", "蒼", **options)
    a = put(s, "AK-04", 0, "camp")                     # 2000, 攻城力 1
    g = put(s, "AO-09", 1, "camp")                     # 2500
    put(s, "AO-03", 1, "walls")
    put(s, "AO-04", 1, "walls")
    give_koku(s, 0, None, 5, up=False)
    return s, a, g


def test_the_okugi_is_kept_for_the_battle_window_where_it_turns_the_fight():
    """SGT-OUGI-03 (main or battle, the recommended reading): the bot does not spend its 兵力
    okugi in the main phase; it attacks counting on it, and uses it once the guard that
    counted on the 兵力 it saw has intercepted (2000 + 1000 beats 2500)."""
    s, a, g = _okugi_table()
    assert "ougi" in legal(s, 0)
    assert choice(s, 0) == f"attack {a} castle"
    act(s, f"attack {a} castle")
    act(s, f"intercept {g}")
    while s.pending.players != (0,):
        act(s, "pass")
    assert "ougi" in legal(s, 0) and "pass" in legal(s, 0)
    assert choice(s, 0) == "ougi"


def test_with_the_okugi_in_the_main_phase_only_it_is_used_at_once():
    """Option ougi_timing=main (SGT-OUGI-03): no battle window offers it, so it is used first."""
    s, a, g = _okugi_table(ougi_timing="main")
    assert choice(s, 0) == "ougi"
