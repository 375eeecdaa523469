"""Rule tests for 風帝伝説FIGHTER battles, attacks, persuasion, たわけ！ and the card rulings.

Each test builds a precise table with the helpers, scripts the dice, acts through the public
driver surface (`apply` / `legal_actions` / `pending` / `view`) and checks the real effect.
Clause IDs refer to docs/rules/fuutei.md.

Characters used for decisive dice (fixed defences, so only attack dice are rolled):
  帝国兵 teikoku_hei   phys 2D,  phys def 8, mag 1D,   mag def 7 (male, 3 copies)
  魔導士ピピン pippin   phys 1D,  phys def 7, mag 2D,   mag def 8 (male)
  ゼクト zekt           phys 2D,  phys def 10, mag 2D+1, mag def 10 (male)
  神殿の巫女 miko       phys 1D,  phys def 7, mag 2D,   mag def 9 (female, 2 copies)
"""
from __future__ import annotations

import pytest

from takujo.core.decision import DecisionKind
from takujo.core.errors import IllegalActionError
from takujo.games.fuutei.state import ATTACK, BATTLE, HAND, MAIN, PERSUADE, REASSIGN, SUPPORT

from .helpers import Scripted, act, events, legal, put, table, to_battle

HEI = "teikoku_hei"


def duel(players: int = 2):
    """Player 0's free 帝国兵 A against player 1's 帝国兵 D guarding 帝都 R1."""
    s = table(players)
    r1 = put(s, "teito", region=1)
    a = put(s, HEI, party=0)
    d = put(s, HEI, nth=1, party=1, guards=[r1])
    return s, a, d, r1


def refused(s, text: str, player: int | None = None) -> None:
    """The action is illegal and the state is left exactly as it was."""
    before = s.clone()
    with pytest.raises(IllegalActionError):
        act(s, text, player)
    assert s == before


def attacks(s):
    return events(s, "attack")


# ----- FTR-BATTLE ------------------------------------------------------------------------------------
def test_battle_01_guarding_character_cannot_invade_only_a_free_one():
    """FTR-BATTLE-01 / FTR-GOAL-03: only a character that defends no region may invade."""
    s, a, d, r1 = duel()
    r0 = put(s, "kiri_no_mori", region=0)
    g = put(s, HEI, nth=2, party=0, guards=[r0])
    act(s, "end")
    assert s.phase == BATTLE and s.pending.players == (0,)
    moves = legal(s, 0)
    assert f"invade {a} {r1}" in moves
    assert not any(m.startswith(f"invade {g} ") for m in moves)
    refused(s, f"invade {g} {r1}", 0)


def test_battle_01_only_once_per_turn():
    """FTR-BATTLE-01: one invasion per turn; after it the battle phase is over."""
    s = table(2)
    r1 = put(s, "teito", region=1)
    r2 = put(s, "kiri_no_mori", region=1)
    a = put(s, HEI, party=0)
    b = put(s, HEI, nth=1, party=0)
    for x in ("hokyu", "buki_hakai", "kaitaku", "shikaku", "kyukon", "shodo_sakusen"):
        put(s, x, hand=0)          # six cards: the turn stops in the hand adjustment phase
    to_battle(s, a, r1)
    assert s.phase == REASSIGN
    act(s, "done")
    assert s.phase == HAND and s.turn_player == 0
    assert not any(m.startswith("invade") for m in legal(s, 0))
    refused(s, f"invade {b} {r2}", 0)
    assert r2 in s.regions[1] and len(events(s, "invade")) == 1


def test_battle_02_no_invasion_in_own_first_turn():
    """FTR-BATTLE-02: a player cannot invade during their own first turn (turns_taken == 1)."""
    s = table(2)
    r1 = put(s, "teito", region=1)
    a = put(s, HEI, party=0)
    s.turns_taken = [1, 5]
    other = s.clone()
    act(s, "end")
    assert s.turn_player == 1 and s.phase == MAIN          # battle phase skipped entirely
    assert events(s, "invade") == [] and r1 in s.regions[1]
    # control: from the second turn on, the same table offers the invasion
    other.turns_taken = [2, 5]
    act(other, "end")
    assert other.phase == BATTLE and f"invade {a} {r1}" in legal(other, 0)


# ----- FTR-COMBAT ------------------------------------------------------------------------------------
def test_combat_01_02_attack_05_invading_one_region_targets_all_of_its_defender():
    """FTR-COMBAT-01, FTR-COMBAT-02, FTR-ATTACK-05, FTR-MAIN-07: the declared region's defender guards two
    regions; both are targeted and both are gained, a region guarded by another is not."""
    s, a, d, r1 = duel()
    r2 = put(s, "kiri_no_mori", region=1)
    r3 = put(s, "sajin_no_kouya", region=1)
    s.guard[r2] = d
    put(s, "minarai_madoushi_pippin", party=1, guards=[r3])
    to_battle(s, a, r1, dice=[4, 2, 5, 4])        # invader first; 2D = 9 >= 8, not exact
    inv = events(s, "invade")[-1]
    assert inv["region"] == r1 and inv["owner"] == 1
    assert sorted(s.battle.regions) == sorted([r1, r2])
    act(s, "attack phys")
    assert attacks(s)[-1]["defeated"] and s.phase == REASSIGN
    assert r1 in s.regions[0] and r2 in s.regions[0]
    assert r3 in s.regions[1] and s.points(0) == 9 + 5


def test_combat_03_undefended_region_taken_without_dice():
    """FTR-COMBAT-03 / FTR-MAIN-09: an undefended region is taken at once; no support, no dice."""
    s = table(2)
    r1 = put(s, "teito", region=1)
    a = put(s, HEI, party=0)
    put(s, "chikara_no_gofu", hand=0)
    act(s, "end")
    n = len(s.log)
    s.rng = Scripted([])                        # any die roll would fail the test
    act(s, f"invade {a} {r1}")
    assert r1 in s.regions[0] and r1 not in s.regions[1]
    new = s.log[n:]
    assert not any(e["e"] in ("roll", "support_committed", "initiative", "attack") for e in new)
    assert s.phase == REASSIGN and legal(s, 0) == {f"guard {r1} {a}", "done"}


def test_combat_04_05_06_support_committed_face_down_then_revealed_together():
    """FTR-COMBAT-04, FTR-COMBAT-05, FTR-COMBAT-06: "[3] 侵攻側は戦闘補助カード１枚を裏向きにして
    出せる" then "[4] 防衛側は…出せる" then "[5] 表向きにして、同時に効果を発揮する": the invader
    commits first, face down; then the defender, who sees that a card lies there but not which;
    then both are turned up together."""
    s, a, d, r1 = duel(3)
    x = put(s, "chikara_no_gofu", hand=0)
    z = put(s, "teppeki", hand=0)
    y = put(s, "teppeki", nth=1, hand=1)
    act(s, "end")
    act(s, f"invade {a} {r1}")
    pend = s.pending
    # [3] the invader alone is asked first
    assert s.phase == SUPPORT and pend.kind is DecisionKind.SIMULTANEOUS and pend.players == (0,)
    assert legal(s, 0) == {f"support {x}", f"support {z}", "nosupport"}
    assert s.legal_actions(1) == [] and s.legal_actions(2) == []
    refused(s, f"support {y}", 1)               # the defender cannot go first
    assert all(s.view(q)["pending"]["players"] == [0] for q in (0, 1, 2, None))

    other, none = s.clone(), s.clone()
    act(s, f"support {x}", 0)
    act(other, f"support {z}", 0)
    act(none, "nosupport", 0)
    # [4] now the defender
    assert s.pending.kind is DecisionKind.SIMULTANEOUS and s.pending.players == (1,)
    assert legal(s, 1) == {f"support {y}", "nosupport"} and s.legal_actions(0) == []
    for q in (1, 2):
        # which card player 0 committed is invisible: the two views are identical ...
        assert s.view(q) == other.view(q)
        v = s.view(q)
        assert v["zones"]["support"][0] == 1 and v["zones"]["stack"] == []
        assert not any(e.get("card") == x or e.get("action") == f"support {x}" for e in v["log"])
        # ... but whether a card lies face down on the table is not hidden
        assert none.view(q)["zones"]["support"][0] == 0
        assert events(s, "support_committed")[-1]["placed"] is True
        assert events(none, "support_committed")[-1]["placed"] is False
    assert s.view(0)["zones"]["support"][0] == [x]
    assert events(s, "support_revealed") == []

    s.rng = Scripted([5, 1, 3, 3, 1, 1])
    act(s, f"support {y}", 1)
    # [5] both turned up before either takes effect
    revealed = [i for i, e in enumerate(s.log) if e["e"] == "support_revealed"]
    assert sorted(s.log[i]["card"] for i in revealed) == sorted([x, y])
    assert not any(e["e"] == "support_effect" for e in s.log[:max(revealed)])
    assert sorted(s.view(1)["zones"]["stack"]) == sorted([x, y])
    # FTR-TAWAKE-01: y's effect is open to たわけ！; player 0 has a card in hand, so is asked
    assert s.pending.kind is DecisionKind.RESPONSE and s.pending.players == (0,)
    act(s, "allow", 0)
    effects_at = [i for i, e in enumerate(s.log) if e["e"] == "support_effect"]
    assert max(revealed) < min(effects_at) and len(effects_at) == 2
    # both effects apply: +3 physical attack for A, +3 defence for D
    act(s, "attack phys")
    hit = attacks(s)[-1]
    assert (hit["total"], hit["defence"], hit["defeated"]) == (3 + 3 + 3, 8 + 3, False)


def test_combat_04_05_who_commits_does_not_depend_on_the_cards_held():
    """FTR-COMBAT-04, FTR-COMBAT-05: both sides are asked in order even with no battle support
    card at all (they can only commit "nosupport"), so the decision never tells who holds one."""
    s, a, d, r1 = duel(3)
    act(s, "end")
    act(s, f"invade {a} {r1}")
    assert s.pending.players == (0,) and legal(s, 0) == {"nosupport"}
    act(s, "nosupport", 0)
    assert s.pending.players == (1,) and legal(s, 1) == {"nosupport"}
    s.rng = Scripted([5, 1, 1, 1])
    act(s, "nosupport", 1)
    assert s.phase == ATTACK and s.commits is None


def test_combat_07_support_effects_last_only_for_the_battle():
    """FTR-COMBAT-07 / FTR-PERSIST-01: support modifiers end with the battle, cards discarded."""
    s, a, d, r1 = duel()
    x = put(s, "chikara_no_gofu", hand=0)
    y = put(s, "teppeki", hand=1)
    to_battle(s, a, r1, dice=[5, 1, 3, 3, 1, 1], support=(x, y))
    act(s, "attack phys")                       # 6+3 = 9 vs 8+3 = 11: miss
    assert attacks(s)[-1]["defence"] == 11
    act(s, "attack phys", 1)                    # 2 vs 8: miss; nobody defeated
    assert s.battle is None and s.stack == []
    assert x in s.discard and y in s.discard
    assert s.turn_player == 1 and r1 in s.regions[1]
    act(s, "end")                               # player 1 cannot invade (D guards R1)
    assert s.turn_player == 0
    # the next battle between the same characters: no leftover modifiers
    to_battle(s, a, r1, dice=[5, 1, 3, 3])
    act(s, "attack phys")
    hit = attacks(s)[-1]
    assert (hit["total"], hit["defence"]) == (6, 8)


@pytest.mark.parametrize("rolls, first", [([2, 5], 1), ([5, 2], 0), ([3, 3], 0)])
def test_combat_08_09_initiative_higher_die_first_invader_on_tie(rolls, first):
    """FTR-COMBAT-08, FTR-COMBAT-09: one die each; the higher strikes first; on a tie the invader."""
    s, a, d, r1 = duel()
    to_battle(s, a, r1, dice=rolls)
    dice = [e for e in s.log if e["e"] == "roll" and e["why"] == "initiative"]
    assert [(e["player"], e["faces"]) for e in dice] == [(0, [rolls[0]]), (1, [rolls[1]])]
    assert events(s, "initiative")[-1]["first"] == first
    assert s.phase == ATTACK and s.pending.players == (first,)
    assert legal(s, first) == {"attack phys", "attack mag"}
    assert s.legal_actions(1 - first) == []


def test_combat_10_11_second_striker_attacks_after_a_miss():
    """FTR-COMBAT-10, FTR-COMBAT-11: the first striker attacks, then the second; the defender's win
    leaves the regions where they are (FTR-ATTACK-05 only for the invader)."""
    s, a, d, r1 = duel()
    to_battle(s, a, r1, dice=[5, 1, 1, 1, 5, 5])
    act(s, "attack phys")                       # A: 2 vs 8, miss
    assert s.phase == ATTACK and s.pending.players == (1,)
    act(s, "attack phys", 1)                    # D: 10 vs 8, defeats A (not exact)
    assert [(e["player"], e["defeated"]) for e in attacks(s)] == [(0, False), (1, True)]
    assert a in s.discard and a not in s.party[0]
    assert r1 in s.regions[1] and s.guard[r1] == d


def test_combat_11_no_second_attack_when_first_defeats():
    """FTR-COMBAT-11 (recommended reading): a defeated second striker does not attack."""
    s, a, d, r1 = duel()
    to_battle(s, a, r1, dice=[1, 5, 6, 5])      # defender first: 11 >= 8 defeats A
    act(s, "attack phys", 1)
    assert len(attacks(s)) == 1 and attacks(s)[0]["player"] == 1
    assert s.phase != ATTACK and s.battle is None
    assert a in s.discard
    assert not any(e["e"] == "roll" for e in s.log if e.get("player") == 0 and "attack" in e.get("why", ""))


def test_combat_12_reassignment_only_for_gained_cards():
    """FTR-COMBAT-12: after winning, the invader may assign defenders only to what was gained
    (the invader itself may guard it, FTR-GOAL-03); its other regions stay as they were."""
    s, a, d, r1 = duel()
    r0 = put(s, "kiri_no_mori", region=0)       # player 0's own undefended region
    b = put(s, "minarai_madoushi_pippin", party=0)
    to_battle(s, a, r1, dice=[5, 1, 5, 4])
    act(s, "attack phys")
    assert s.phase == REASSIGN and s.pending.players == (0,)
    assert legal(s, 0) == {f"guard {r1} {a}", f"guard {r1} {b}", "done"}
    refused(s, f"guard {r0} {b}", 0)
    act(s, f"guard {r1} {a}")
    act(s, "done")
    assert s.guard.get(r1) == a and r0 not in s.guard
    assert s.battle is None and s.turn_player == 1


# ----- FTR-ATTACK ------------------------------------------------------------------------------------
def test_attack_01_physical_or_magic_uses_the_matching_defence():
    """FTR-ATTACK-01, FTR-ATTACK-02: the attacker chooses; physical meets phys. defence, magic meets mag."""
    s = table(2)
    r1 = put(s, "teito", region=1)
    z = put(s, "jashitei_fukukan_zekt", party=0)          # phys 2D, mag 2D+1
    d = put(s, HEI, party=1, guards=[r1])                  # phys def 8, mag def 7
    to_battle(s, z, r1, dice=[5, 1, 4, 3, 1, 1])
    assert legal(s, 0) == {"attack phys", "attack mag"}
    phys, mag = s.clone(), s
    act(phys, "attack phys")                               # 7 vs 8: miss
    act(mag, "attack mag")                                 # 8 vs 7: defeated, not exact
    p, m = attacks(phys)[-1], attacks(mag)[-1]
    assert (p["attack"], p["total"], p["defence"], p["defeated"]) == ("phys", 7, 8, False)
    assert (m["attack"], m["total"], m["defence"], m["defeated"]) == ("mag", 8, 7, True)
    assert d in mag.discard and d in phys.party[1]


def test_attack_02_one_below_defence_fails():
    """FTR-ATTACK-02: a result one short of the defence does not defeat."""
    s, a, d, r1 = duel()
    to_battle(s, a, r1, dice=[5, 1, 4, 3, 1, 1])
    act(s, "attack phys")
    assert attacks(s)[-1]["defeated"] is False and d in s.party[1]


def test_attack_03_critical_defeats_below_defence():
    """FTR-ATTACK-03: every attack die showing 6 defeats the target even below its defence;
    a critical also allows persuasion (FTR-ATTACK-06)."""
    s = table(2)
    r1 = put(s, "teito", region=1)
    p = put(s, "minarai_madoushi_pippin", party=0)          # phys 1D
    d = put(s, HEI, party=1, guards=[r1])                   # phys def 8
    to_battle(s, p, r1, dice=[5, 1])
    miss = s.clone()
    s.rng, miss.rng = Scripted([6]), Scripted([5, 1])
    act(s, "attack phys")
    hit = attacks(s)[-1]
    assert (hit["total"], hit["defence"], hit["critical"], hit["defeated"]) == (6, 8, True, True)
    assert s.phase == PERSUADE and legal(s, 0) == {"persuade", "decline"}
    act(s, "decline")
    assert d in s.discard and r1 in s.regions[0]
    act(miss, "attack phys")                                # control: a 5 is just a miss
    assert attacks(miss)[-1]["critical"] is False and attacks(miss)[-1]["defeated"] is False


def test_attack_03_dice_added_by_a_modifier_count_for_critical():
    """FTR-ATTACK-03 (recommended reading): dice added by modifiers (闘気's 1D) are part of
    "all dice": a 6 on the attack die with a 3 on the 闘気 die is no critical, two 6s are."""
    s = table(2)
    r1 = put(s, "teito", region=1)
    p = put(s, "minarai_madoushi_pippin", party=0)          # phys 1D
    put(s, "gokuen_masho_volga", party=1, guards=[r1])      # phys def 12
    x = put(s, "toki", hand=0)
    act(s, "end")
    act(s, f"invade {p} {r1}")
    act(s, f"support {x}", 0)                               # FTR-COMBAT-04: the invader first
    six = s.clone()
    s.rng, six.rng = Scripted([3, 5, 1, 6]), Scripted([6, 5, 1, 6])
    for st in (s, six):
        act(st, "nosupport", 1)                             # FTR-COMBAT-05: then the defender
        act(st, "attack phys")
    mixed, double = attacks(s)[-1], attacks(six)[-1]
    assert (mixed["total"], mixed["critical"], mixed["defeated"]) == (9, False, False)
    assert (double["total"], double["critical"], double["defeated"]) == (12, True, True)


def test_attack_02_dice_defence_rolled_at_the_attack():
    """FTR-ATTACK-02 (recommended reading 1): a defence printed with D (ボルグ 1D+6) is rolled
    when the attack is made; meeting it exactly allows persuasion."""
    s = table(2)
    r1 = put(s, "teito", region=1)
    a = put(s, HEI, party=0)
    borg = put(s, "juusou_heidanchou_borg", party=1, guards=[r1])
    to_battle(s, a, r1, dice=[5, 1, 4, 4, 2])
    act(s, "attack phys")
    guard = [e for e in s.log if e["e"] == "roll" and e["why"] == "defence"]
    assert len(guard) == 1 and guard[0]["card"] == borg and guard[0]["total"] == 8
    hit = attacks(s)[-1]
    assert (hit["total"], hit["defence"], hit["defeated"]) == (8, 8, True)
    assert s.phase == PERSUADE


def test_attack_04_defeated_character_discarded_with_equipment():
    """FTR-ATTACK-04: a defeated (not persuaded) character is discarded with its equipment."""
    s, a, d, r1 = duel()
    sword = put(s, "hagane_no_tsurugi", equip_to=d)         # phys attack +2: no defence change
    to_battle(s, a, r1, dice=[5, 1, 5, 4])
    act(s, "attack phys")                                   # 9 vs 8
    assert s.phase == REASSIGN                               # not exact: no persuasion offered
    assert d in s.discard and sword in s.discard
    assert d not in s.party[1] and sword not in s.host
    assert r1 in s.regions[0]


def test_attack_06_07_exact_value_persuasion_joins_with_equipment():
    """FTR-ATTACK-06, FTR-ATTACK-07: an exact hit may persuade; the character is not discarded, joins the
    persuader with its equipment, and counts as a gained card for reassignment."""
    s, a, d, r1 = duel()
    r0 = put(s, "kiri_no_mori", region=0)
    sword = put(s, "hagane_no_tsurugi", equip_to=d)
    to_battle(s, a, r1, dice=[5, 1, 4, 4])
    act(s, "attack phys")                                   # 8 vs 8: exact
    assert s.phase == PERSUADE and s.pending.players == (0,)
    declined = s.clone()
    act(s, "persuade")
    assert d in s.party[0] and d not in s.party[1] and d not in s.discard
    assert s.host[sword] == d
    assert r1 in s.regions[0] and events(s, "persuaded")[-1]["card"] == d
    assert f"guard {r1} {d}" in legal(s, 0) and f"guard {r0} {d}" in legal(s, 0)
    act(declined, "decline")
    assert d in declined.discard and sword in declined.discard


def test_attack_06_defender_may_persuade_the_invader():
    """FTR-ATTACK-06 (recommended reading 1): the defender can persuade a defeated invader."""
    s, a, d, r1 = duel()
    to_battle(s, a, r1, dice=[1, 5, 4, 4])
    act(s, "attack phys", 1)                                # D first: 8 vs 8 exact
    assert s.phase == PERSUADE and s.pending.players == (1,)
    act(s, "persuade", 1)
    assert a in s.party[1] and a not in s.discard and r1 in s.regions[1]


def test_attack_08_no_persuasion_with_five_party_members():
    """FTR-ATTACK-08: exact hit, but the persuader already has 5 (non-temporary) characters."""
    s, a, d, r1 = duel()
    for x in ("minarai_madoushi_pippin", "touzoku_jack", "murasume_anna", "souhei_gantetsu"):
        put(s, x, party=0)
    assert s.party_size(0) == 5
    to_battle(s, a, r1, dice=[5, 1, 4, 4])
    act(s, "attack phys")                                   # exact 8 vs 8
    assert attacks(s)[-1]["defeated"] and s.phase != PERSUADE
    assert d in s.discard and d not in s.party[0] and s.party_size(0) == 5


def test_attack_08_temporary_character_does_not_block_persuasion():
    """FTR-ATTACK-08 with FTR-TEMP-01: four characters plus a temporary one leave room."""
    s, a, d, r1 = duel()
    for x in ("minarai_madoushi_pippin", "touzoku_jack", "murasume_anna"):
        put(s, x, party=0)
    act(s, f"hold {put(s, 'jaraio_shizaharuto', hand=0)}")
    assert len(s.party[0]) == 5 and s.party_size(0) == 4
    to_battle(s, a, r1, dice=[5, 1, 4, 4])
    act(s, "attack phys")
    assert s.phase == PERSUADE
    act(s, "persuade")
    assert d in s.party[0] and s.party_size(0) == 5


# ----- FTR-TAWAKE ------------------------------------------------------------------------------------
def test_tawake_01_02_04_bystander_negates_battle_support():
    """FTR-TAWAKE-01, FTR-TAWAKE-02, FTR-TAWAKE-04: a player outside the battle negates a battle support card when it
    takes effect; the card is discarded without effect."""
    s, a, d, r1 = duel(3)
    x = put(s, "chikara_no_gofu", hand=0)
    t = put(s, "tawake", hand=2)
    to_battle(s, a, r1, dice=[5, 1, 3, 3, 1, 1], support=(x, None))
    pend = s.pending
    assert pend.kind is DecisionKind.RESPONSE and pend.players == (2,)
    assert legal(s, 2) == {f"tawake {t}", "allow"}
    assert s.view(2)["pending"]["kind"] == "response"
    act(s, f"tawake {t}", 2)
    assert x in s.discard and t in s.discard and t not in s.hands[2]
    assert events(s, "negated")[-1]["card"] == x
    assert not any(e["card"] == x for e in events(s, "support_effect"))
    assert s.phase == ATTACK
    act(s, "attack phys")
    assert attacks(s)[-1]["total"] == 6                    # no +3 from the negated card


def test_tawake_02_04_hold_card_negated_when_used():
    """FTR-TAWAKE-02, FTR-TAWAKE-04: a hold card can be negated when used: no draw happens."""
    s = table(2)
    h = put(s, "hokyu", hand=0)
    t = put(s, "tawake", hand=1)
    deck_before = list(s.deck)
    act(s, f"hold {h}")
    assert s.pending.kind is DecisionKind.RESPONSE and s.pending.players == (1,)
    act(s, f"tawake {t}", 1)
    assert s.hands[0] == [] and s.deck == deck_before
    assert h in s.discard and t in s.discard
    assert s.pending.kind is DecisionKind.TURN and s.phase == MAIN


def test_tawake_03_dice_hold_window_opens_after_the_roll():
    """FTR-TAWAKE-03, FTR-TAWAKE-04: for a card that rolls dice, the roll is made (and logged) before the
    たわけ！ window; the negated 刺客 then does nothing despite a winning roll."""
    s = table(2)
    target = put(s, HEI, party=1)                          # phys def 8
    k = put(s, "shikaku", hand=0)
    t = put(s, "tawake", hand=1)
    s.rng = Scripted([6, 6])                                # 13 would succeed
    act(s, f"hold {k} {target}")
    assert s.pending.kind is DecisionKind.RESPONSE
    rolls = [e for e in s.log if e["e"] == "roll" and e["why"] == "assassinate"]
    assert len(rolls) == 1 and rolls[0]["total"] == 13
    assert s.log.index(rolls[0]) > s.log.index(events(s, "hold")[-1])
    act(s, f"tawake {t}", 1)
    assert target in s.party[1] and k in s.discard
    assert events(s, "assassination") == []


def test_tawake_03_dice_support_window_after_roll_and_allowed():
    """FTR-TAWAKE-03: a dice battle support card (闘気) rolls before the window; allowed, it
    takes effect with that roll."""
    s, a, d, r1 = duel()
    x = put(s, "toki", hand=0)
    put(s, "tawake", hand=1)
    to_battle(s, a, r1, dice=[4, 5, 1, 1, 1], support=(x, None))
    assert s.pending.kind is DecisionKind.RESPONSE and s.pending.players == (1,)
    roll = [e for e in s.log if e["e"] == "roll" and e["why"] == "support"]
    assert len(roll) == 1 and roll[0]["total"] == 4 and roll[0]["card"] == x
    assert events(s, "initiative") == []
    act(s, "allow", 1)
    act(s, "attack phys")                                   # 2 + 4 = 6 vs 8
    assert attacks(s)[-1]["total"] == 6


def test_tawake_cannot_target_tawake():
    """FTR-TAWAKE ambiguity (1): a たわけ！ cannot itself be negated."""
    s = table(3)
    h = put(s, "hokyu", hand=0)
    mine = put(s, "tawake", hand=0)
    theirs = put(s, "tawake", nth=1, hand=1)
    act(s, f"hold {h}")
    assert s.pending.players == (1,)                        # the user is not polled
    act(s, f"tawake {theirs}", 1)
    assert s.windows == [] and s.pending.kind is DecisionKind.TURN and s.pending.players == (0,)
    assert mine in s.hands[0] and h in s.discard and s.hands[0] == [mine]
    assert not any(m.startswith("tawake") for m in legal(s, 0))


# ----- FTR-TEMP --------------------------------------------------------------------------------------
def test_temp_01_temporary_characters_with_full_party_and_their_departure():
    """FTR-TEMP-01: シーザーハルト, エクスジード and バナナサンド can be used with 5 characters;
    they do not count toward party size, and leave at the start of the user's next turn."""
    s = table(2)
    for i, x in enumerate((HEI, HEI, HEI, "minarai_madoushi_pippin", "touzoku_jack")):
        put(s, x, nth=i if x == HEI else 0, party=0)
    caesar = put(s, "jaraio_shizaharuto", hand=0)
    exceed = put(s, "meicho_maten_ekusujido", hand=0)
    banana = put(s, "choeiken_no_banana_sando", hand=0)
    anna = put(s, "murasume_anna", hand=0)
    moves = legal(s, 0)
    assert f"play {anna}" not in moves
    assert {f"hold {caesar}", f"hold {exceed}", f"hold {banana} {anna}"} <= moves
    act(s, f"hold {caesar}")
    act(s, f"hold {exceed}")
    act(s, f"hold {banana} {anna}")
    assert {caesar, exceed, anna} <= set(s.party[0]) and len(s.party[0]) == 8
    assert s.party_size(0) == 5 and set(s.temp) == {caesar, exceed, anna}
    assert banana in s.discard
    act(s, "end")                                           # player 1 has no region: no battle
    assert s.turn_player == 1 and set(s.temp) == {caesar, exceed, anna}
    act(s, "end")
    assert s.turn_player == 0 and s.phase == MAIN
    assert caesar in s.discard and exceed in s.discard
    assert anna in s.hands[0] and anna not in s.discard
    assert s.temp == [] and len(s.party[0]) == 5


# ----- FTR-STACK -------------------------------------------------------------------------------------
def test_stack_01_02_equipment_and_support_stack():
    """FTR-STACK-01, FTR-STACK-02: オリオン七神器 (+5) and 風陣王 (+3) on one character give +8 physical
    attack; a battle support card (+3) stacks on top of that."""
    s = table(2)
    r1 = put(s, "teito", region=1)
    a = put(s, HEI, party=0)
    put(s, "gokuen_masho_volga", party=1, guards=[r1])       # phys def 12
    orion = put(s, "orion_shichijingi", hand=0)
    fujin = put(s, "fujin_o", hand=0)
    x = put(s, "chikara_no_gofu", hand=0)
    act(s, f"equip {orion} {a}")
    act(s, f"equip {fujin} {a}")
    assert s.host[orion] == a and s.host[fujin] == a
    plain = s.clone()
    to_battle(s, a, r1, dice=[5, 1, 1, 1], support=(x, None))
    to_battle(plain, a, r1, dice=[5, 1, 1, 1, 1, 1, 1])
    act(s, "attack phys")
    act(plain, "attack phys")
    assert attacks(plain)[-1]["total"] == 2 + 8             # 10 vs 12: miss
    assert attacks(s)[-1]["total"] == 2 + 8 + 3             # 13 vs 12: defeated
    assert attacks(s)[-1]["defeated"] and not attacks(plain)[-1]["defeated"]


# ----- FTR-KYUKON ------------------------------------------------------------------------------------
@pytest.mark.parametrize("own, roll, joins, need", [
    ((), 5, True, 5),                       # no characters at all: usable
    ((), 4, False, 5),
    (("murasume_anna",), 4, False, 5),      # only same-sex (female) characters: usable, need 5
    ((HEI,), 4, True, 4),                   # an opposite-sex character lowers the need to 4
])
def test_kyukon_01_usable_without_or_with_same_sex_characters(own, roll, joins, need):
    """FTR-KYUKON-01: 求婚 has no precondition on the user's characters; the opposite-sex
    bonus (card data) lowers the roll needed."""
    s = table(2)
    target = put(s, "shinden_no_miko", party=1)            # female
    for x in own:
        put(s, x, party=0)
    k = put(s, "kyukon", hand=0)
    assert f"hold {k} {target}" in legal(s, 0)
    s.rng = Scripted([roll])
    act(s, f"hold {k} {target}")
    ev = events(s, "proposal")[-1]
    assert (ev["need"], ev["success"]) == (need, joins)
    assert (target in s.party[0]) is joins and (target in s.party[1]) is not joins
    assert k in s.discard


# ----- FTR-VAL ---------------------------------------------------------------------------------------
def test_val_01_soshi_val_cannot_be_equipped_while_val_in_play():
    """FTR-VAL-01: 操士ヴァル cannot be equipped while ヴァル is in play anywhere."""
    s = table(2)
    a = put(s, HEI, party=0)
    e = put(s, "soshi_val", hand=0)
    put(s, "val", party=1)                                  # in an opponent's area
    assert not any(m.startswith(f"equip {e}") for m in legal(s, 0))
    refused(s, f"equip {e} {a}", 0)


def test_val_02_soshi_val_discarded_when_val_enters_play():
    """FTR-VAL-02: if ヴァル enters play after 操士ヴァル is in use, the equipment is discarded."""
    s = table(2)
    a = put(s, HEI, party=0)
    e = put(s, "soshi_val", hand=0)
    v = put(s, "val", hand=1)
    act(s, f"equip {e} {a}")
    assert s.host[e] == a
    act(s, "end")                                           # no target to invade: turn passes
    assert s.turn_player == 1
    act(s, f"play {v}")
    assert e not in s.host and e in s.discard and a in s.party[0]


# ----- FTR-ERION -------------------------------------------------------------------------------------
def test_erion_01_seal_lasts_until_end_of_the_owners_turn():
    """FTR-ERION-01: エリオン on an opponent's character: it cannot invade until the end of its
    owner's turn; the seal ends at the end of that turn, not the user's."""
    s = table(2)
    r0 = put(s, "kiri_no_mori", region=0)                  # undefended: an easy target
    x = put(s, HEI, party=1)
    e = put(s, "tenkaicho_chokan_erion", hand=0)
    act(s, f"hold {e} {x}")
    assert s.sealed == [x] and e in s.discard
    act(s, "end")                                           # end of the user's turn
    assert s.turn_player == 1 and s.sealed == [x]
    act(s, "end")                                           # player 1: no battle phase at all
    assert s.turn_player == 0 and events(s, "invade") == []
    assert s.sealed == []                                   # ended with its owner's turn
    act(s, "end")
    assert s.turn_player == 1
    act(s, "end")
    assert s.phase == BATTLE and f"invade {x} {r0}" in legal(s, 1)


# ----- the other hold cards --------------------------------------------------------------------------
def test_hold_hokyu_draws_two():
    """補給: draw 2 cards; the hold card is discarded (FTR-PERSIST-01)."""
    s = table(2)
    h = put(s, "hokyu", hand=0)
    c1 = put(s, HEI, deck_top=True)
    c2 = put(s, "murasume_anna", deck_top=True)
    act(s, f"hold {h}")
    assert sorted(s.hands[0]) == sorted([c1, c2]) and h in s.discard


def test_hold_buki_hakai_discards_equipment():
    """武器破壊: an equipment card in play is discarded; its character stays."""
    s = table(2)
    d = put(s, HEI, party=1)
    armour = put(s, "souten_no_yoroi", equip_to=d)
    b = put(s, "buki_hakai", hand=0)
    act(s, f"hold {b} {armour}")
    assert armour not in s.host and armour in s.discard and d in s.party[1]


def test_hold_kaitaku_claims_a_centre_region():
    """開拓: a region from the centre goes to the user's area."""
    s = table(2)
    c = put(s, "teito", center=True)
    k = put(s, "kaitaku", hand=0)
    act(s, f"hold {k} {c}")
    assert c in s.regions[0] and s.center == [] and s.points(0) == 9


def test_hold_shodo_sakusen_only_undefended_regions():
    """焦土作戦: an undefended region is discarded; a defended one cannot be targeted."""
    s = table(2)
    guarded = put(s, "teito", region=1)
    open_ = put(s, "kiri_no_mori", region=1)
    put(s, HEI, party=1, guards=[guarded])
    k = put(s, "shodo_sakusen", hand=0)
    assert f"hold {k} {open_}" in legal(s, 0)
    refused(s, f"hold {k} {guarded}", 0)
    act(s, f"hold {k} {open_}")
    assert s.regions[1] == [guarded] and open_ in s.discard


@pytest.mark.parametrize("dice, success", [([4, 3], True), ([3, 3], False)])
def test_hold_shikaku_success_and_failure(dice, success):
    """刺客: 2D+1 against physical defence 8: 8 removes the character, 7 does not."""
    s = table(2)
    target = put(s, HEI, party=1)
    k = put(s, "shikaku", hand=0)
    s.rng = Scripted(dice)
    act(s, f"hold {k} {target}")
    ev = events(s, "assassination")[-1]
    assert (ev["roll"], ev["defence"], ev["success"]) == (sum(dice) + 1, 8, success)
    assert (target in s.discard) is success and (target in s.party[1]) is not success
    assert k in s.discard


# ----- events ----------------------------------------------------------------------------------------
def test_event_tenpen_chii_discards_centre_regions_when_drawn():
    """天変地異 drawn in the draw phase: every centre region is discarded; owned ones stay."""
    s = table(2)
    c1 = put(s, "teito", center=True)
    c2 = put(s, "kiri_no_mori", center=True)
    own = put(s, "sajin_no_kouya", region=1)
    ev = put(s, "tenpen_chii", deck_top=True)
    act(s, "end")                                           # player 1 draws the event
    assert s.turn_player == 1 and events(s, "event")[-1]["card"] == ev
    assert s.center == [] and c1 in s.discard and c2 in s.discard
    assert s.regions[1] == [own] and ev in s.discard and ev not in s.hands[1]


def test_event_kyosei_each_player_discards_one_at_random():
    """凶星 drawn: each player discards one card at random from their hand."""
    s = table(2)
    h0 = [put(s, x, hand=0) for x in ("hokyu", "kaitaku", "buki_hakai")]
    h1 = [put(s, x, hand=1) for x in ("shikaku", "kyukon")]
    ev = put(s, "kyosei", deck_top=True)
    s.rng = Scripted([1, 2])          # indices: the drawer (player 1) first, then player 0
    act(s, "end")
    assert s.turn_player == 1 and events(s, "event")[-1]["card"] == ev
    picks = [e for e in s.log if e["e"] == "random" and e["why"] == "random_discard"]
    assert [(e["player"], e["n"], e["index"]) for e in picks] == [(1, 2, 1), (0, 3, 2)]
    assert s.hands[1] == [h1[0]] and s.hands[0] == h0[:2]
    assert {h1[1], h0[2], ev} <= set(s.discard)


# ----- 刺客 reads the defence its card names -------------------------------------------------------
def _cards_with(tmp_path, card_id: str, old: str, new: str) -> str:
    from takujo.games.fuutei.cards import CARD_FILE
    sep = "\n[[card]]\n"
    head, *blocks = CARD_FILE.read_text(encoding="utf-8").split(sep)
    for i, b in enumerate(blocks):
        if b.startswith(f'id = "{card_id}"\n'):
            assert old in b
            blocks[i] = b.replace(old, new, 1)
    path = tmp_path / "cards.toml"
    path.write_text(sep.join([head, *blocks]), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("against, defence, success", [("phys_def", 8, False), ("mag_def", 7, True)])
def test_assassinate_rolls_against_the_defence_the_card_names(tmp_path, against, defence, success):
    """刺客's text: "2D+1を振り、その結果がそのキャラの物理防御以上なら…捨て札にする". The card data
    says which defence (``against``); a card typed in with magic defence rolls against that.
    帝国兵 has physical defence 8, magic defence 7; a roll of 7 beats only the latter."""
    s = table(2, cards=_cards_with(tmp_path, "shikaku", 'against = "phys_def"', f'against = "{against}"'))
    target = put(s, HEI, party=1)
    k = put(s, "shikaku", hand=0)
    s.rng = Scripted([3, 3])                                # 2D+1 = 7
    act(s, f"hold {k} {target}")
    ev = events(s, "assassination")[-1]
    assert (ev["roll"], ev["against"], ev["defence"], ev["success"]) == (7, against, defence, success)
    assert (target in s.discard) is success


def test_assassinate_defence_counts_equipment():
    """FTR-CARD-04: equipment adds to the defence 刺客 rolls against (蒼天の鎧 on 帝国兵)."""
    s = table(2)
    target = put(s, HEI, party=1)
    armour = put(s, "souten_no_yoroi", equip_to=target)
    k = put(s, "shikaku", hand=0)
    s.rng = Scripted([4, 3])                                # 8: enough against 8 alone
    act(s, f"hold {k} {target}")
    ev = events(s, "assassination")[-1]
    assert s.cat[armour].bonus[1] == 3
    assert (ev["roll"], ev["defence"], ev["success"]) == (8, 11, False) and target in s.party[1]


# ----- FTR-COMBAT-12 reassignment is bounded too -------------------------------------------------
def test_combat_12_reassignment_after_a_battle_is_capped():
    """FTR-COMBAT-12 with the [designed] GUARD_CHANGES_MAX: reassigning the gained region back
    and forth ends after 40 guard actions; then only "done" remains."""
    from takujo.games.fuutei.constants import GUARD_CHANGES_MAX
    s, a, d, r1 = duel()
    b = put(s, "minarai_madoushi_pippin", party=0)
    to_battle(s, a, r1, dice=[5, 1, 5, 4])
    act(s, "attack phys")                                   # 9 vs 8: defeated, no persuasion
    assert s.phase == REASSIGN and r1 in s.regions[0]
    for i in range(GUARD_CHANGES_MAX):
        act(s, f"guard {r1} {(a, b)[i % 2]}", 0)
    assert legal(s, 0) == {"done"}
    act(s, "done", 0)
    assert s.battle is None
