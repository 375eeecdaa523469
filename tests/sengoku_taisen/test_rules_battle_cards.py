"""Rule tests for 戦国大戦 双: castle walls, the battle procedure and every card type.

Each test builds a precise table with the helpers, acts through the public driver surface
(`apply` / `legal_actions` / `pending` / `view`) and checks the real effect. Clause IDs refer
to docs/rules/sengoku_taisen.md; where the catalogue leaves a point open the tests
follow its recommended reading.

Cards used (stand-in pool, takujo/games/sengoku_taisen/cards.toml):
  AK-01 織田信長   紅紅2    cavalry 3500 攻城力2
  AK-15 織田信長   紅紅紅3  gunner 5500 攻城力3 【貫通】 (same name, different number)
  AK-02 柴田勝家   infantry 3000 攻城力1 【貫通】      AK-03 森可成 cavalry 1000 【奇襲】
  AK-04 前田利家   spear 2000                          AK-06 滝川一益 cavalry 1500 【奇襲】
  AK-05 佐々成政   {メイン}{待機⇒疲弊}{1回制限} 1000 damage to an enemy
  AK-07 丹羽長秀   infantry 2500                        AK-16 岐阜城 formation: cavalry +500
  AK-11 鉄砲三段撃ち {戦闘} 2000 damage (counter: 1000 damage)
  AK-12 桶狭間の奇襲 {メイン} ready an ally           AK-13 城攻め {メイン} 攻城力+1
  AK-14 天下布武   {メイン} 紅紅1 all allies +1000 (counter: draw 1)
  AO-04 本多忠勝   spear 4000 【長槍】 {戦闘確定時} +500   AO-05 酒井忠次 spear 1000 【長槍】
  AO-02 太原雪斎   infantry 1500 攻城力0              AO-13 牽制 counter: 1000 damage (chosen)
  AO-14 籠城の備え {戦闘} ally +1500 (counter: 築城1)  AO-15 三河武士の忠義 permanent aura +500
  NT-04 城普請     {メイン} 築城1                       KR-13 / KR-14 summon soldiers
A temporary pool adds EX-01 (an `exile` stratagem), EX-02 (a second 前田利家 number) and
EX-03 (a formation with a placement cost).
"""
from __future__ import annotations

import pytest

import takujo
from takujo.core.decision import DecisionKind
from takujo.core.errors import IllegalActionError
from takujo.core.rng import Rng
from takujo.core.visibility import Vis, shuffle_unseen
from takujo.games.sengoku_taisen import decks, effects
from takujo.games.sengoku_taisen.cards import CARD_FILE
from takujo.games.sengoku_taisen.cards import pool as decks_pool
from takujo.games.sengoku_taisen.state import COUNTER, INTERCEPT, KOKU, MAIN, TOKEN_BASE, SengokuState

from .helpers import act, events, give_koku, ids, legal, pass_battle, put, table

EXTRA_CARDS = """

[[card]]
number = "EX-01"
name_ja = "流罪"
name_en = "Exile Decree"
type = "stratagem"
color = "紅"
cost = "紅"
timing = "メイン"
effect = { do = "exile", max_strength = 3000 }
counter = { do = "draw", n = 1 }

[[card]]
number = "EX-02"
name_ja = "前田利家"
name_en = "Maeda Toshiie (another number)"
type = "warlord"
color = "紅"
cost = "紅1"
unit = "spear"
strength = 2000
siege = 1

[[card]]
number = "EX-03"
name_ja = "有料の砦"
name_en = "Costly Fort"
type = "formation"
color = "紅"
cost = "紅"
effect = { do = "aura", amount = 500, unit = "cavalry" }
"""


@pytest.fixture(scope="module")
def extra(tmp_path_factory) -> dict[str, str]:
    """Options for a 紅 deck (player 0) drawn from a pool with the EX cards added."""
    d = tmp_path_factory.mktemp("sgt_pool")
    pool = d / "cards.toml"
    pool.write_text(CARD_FILE.read_text(encoding="utf-8") + EXTRA_CARDS, encoding="utf-8")
    deck = d / "aka_plus.txt"
    deck.write_text((decks.DECK_DIR / "aka.txt").read_text(encoding="utf-8")
                    + "\n4 EX-01\n2 EX-02\n2 EX-03\n", encoding="utf-8")
    return {"deck1": str(deck), "cards": str(pool)}


# ----- local helpers -----------------------------------------------------------------------
def take(s: SengokuState, number: str, p: int, zone: str, **kw) -> int:
    """The first copy of card `number` still in p's deck, moved into `zone`."""
    c = next(c for c in ids(s, number, p) if c in s.deck[p])
    return put(s, c, p, zone, **kw)


def refused(s: SengokuState, text: str, player: int | None = None) -> None:
    """The action is illegal and the state is left exactly as it was."""
    before = s.clone()
    with pytest.raises(IllegalActionError):
        act(s, text, player)
    assert s == before


def attack_options(s: SengokuState, u: int, p: int = 0) -> set[str]:
    return {a for a in legal(s, p) if a.startswith(f"attack {u} ")}


def next_turn(s: SengokuState) -> None:
    """End the current turn; the next player skips the kokuryoku phase, if offered."""
    act(s, "end")
    if s.phase == KOKU:
        act(s, "skip")
    assert s.phase == MAIN


CARD_KEYS = ("card", "unit", "token", "target", "attacker", "defender", "interceptor", "cards")


def seen_ids(view: dict) -> set[int]:
    """Every card id a view shows: zone lists, public facts, log events and legal actions."""
    out: set[int] = set()
    for zone in view["zones"].values():
        for part in zone:
            if isinstance(part, list):
                out.update(part)
    pub = view["public"]
    out.update(pub["exhausted"])
    for key in ("strength", "siege", "damage", "placed", "attacks", "tokens"):
        out.update(int(k) for k in pub[key])
    for e in view["log"] + ([pub["battle"]] if pub["battle"] else []):
        for k in CARD_KEYS:
            v = e.get(k)
            if isinstance(v, int):
                out.add(v)
            elif isinstance(v, list):
                out.update(x for x in v if isinstance(x, int))
    for a in view["legal"]:
        out.update(int(x) for x in a.split()[1:] if x.isdigit())
    return out


def combat(s: SengokuState) -> dict:
    (e,) = events(s, "combat")
    return e


# ===== SGT-WALL ===============================================================================
def test_wall_03_wall_04_start_with_eight_face_down_walls_from_the_deck_top():
    """SGT-WALL-03 / SGT-START-01 / SGT-SETUP-06: after the hands and mulligan each player puts
    the top 8 cards of their deck, unseen, as walls. SGT-WALL-04: they are face down — every
    view, the owner's included, shows only how many there are."""
    s = takujo.load("sengoku_taisen", deck1="紅", deck2="蒼").new_state(7)
    assert s.phase == "mulligan" and s.walls == [[], []]
    before = s.clone()
    act(s, "keep")
    for p in (0, 1):
        assert len(s.walls[p]) == 8
        # walls[-1] (the top) is the last card taken: deck.pop() eight times.
        assert s.walls[p] == list(reversed(before.deck[p][-8:]))
        assert len(s.deck[p]) == len(before.deck[p]) - 8
    spec = {z.name: z for z in SengokuState.ZONES}["walls"]
    assert spec.vis is Vis.COUNT
    for v in (0, 1, None):
        assert s.view(v)["zones"]["walls"] == [8, 8]


def test_wall_05_no_player_ever_sees_a_wall_and_wall_order_is_invisible():
    """SGT-WALL-05: nobody, owner included, may look at the walls. No view of either player (or a
    spectator) names a wall card anywhere — zones, public facts, log or legal actions — and two
    states that differ only in the order of the walls give identical views."""
    s = takujo.load("sengoku_taisen", deck1="紅", deck2="蒼").new_state(11)
    act(s, "keep")
    wall_ids = set(s.walls[0]) | set(s.walls[1])
    assert len(wall_ids) == 16
    for v in (0, 1, None):
        assert not seen_ids(s.view(v)) & wall_ids
    other = s.clone()
    other.walls[0].reverse()
    other.walls[1] = other.walls[1][3:] + other.walls[1][:3]
    assert other != s and other.walls != s.walls
    for v in (0, 1, None):
        assert other.view(v) == s.view(v)
    # The generic no-leak check: reshuffling everything p cannot see changes nothing p sees.
    for p in (0, 1):
        assert shuffle_unseen(s, p, Rng(5)).view(p) == s.view(p)


def test_wall_05_wall_06_destroyed_walls_are_revealed_in_the_discard_top_first():
    """SGT-WALL-05 / SGT-WALL-06 / SGT-ZONE-06: walls stay hidden until destroyed; a siege takes
    them from the top (the last placed) and puts them face up in their owner's discard, so only
    then do views differ with the wall order."""
    s = table("紅", "紅")
    a = take(s, "AK-01", 0, "camp")                      # 攻城力 2
    w = [take(s, "AK-02", 1, "walls"), take(s, "AK-03", 1, "walls"), take(s, "AK-06", 1, "walls")]
    t = s.clone()
    t.walls[1].reverse()
    for v in (0, 1, None):
        assert s.view(v) == t.view(v)
        assert not seen_ids(s.view(v)) & set(w)
    act(s, f"attack {a} castle")
    pass_battle(s)
    act(t, f"attack {a} castle")
    pass_battle(t)
    assert s.walls[1] == [w[0]] and s.discard[1] == [w[2], w[1]]
    assert t.walls[1] == [w[2]] and t.discard[1] == [w[0], w[1]]
    assert [e["card"] for e in events(s, "wall_destroyed")] == [w[2], w[1]]
    for v in (0, 1):
        view = s.view(v)
        assert view["zones"]["discard"][1] == [w[2], w[1]]
        assert view["zones"]["walls"][1] == 1
        assert w[0] not in seen_ids(view)                # the survivor is still hidden
        assert view != t.view(v)


def test_wall_01_formation_05_any_card_can_be_a_wall_and_only_stratagem_walls_counter():
    """SGT-WALL-01: a warlord, a formation and a stratagem all serve as walls and are destroyed
    alike. SGT-FORMATION-05: a formation in the walls is no formation — its aura does nothing
    there and its destruction triggers nothing. Only the stratagem's counter fires (SGT-WALL-09)."""
    s = table("紅", "紅")
    g = take(s, "AK-15", 0, "camp")                      # 攻城力 3
    cav = take(s, "AK-03", 1, "camp")                    # p1's cavalry, exhausted: no interceptor
    s.exhausted.add(cav)
    warlord = take(s, "AK-01", 1, "walls")
    formation = take(s, "AK-16", 1, "walls")             # 岐阜城: cavalry +500 — not as a wall
    strat = take(s, "AK-14", 1, "walls")                 # counter: draw 1
    assert s.strength(cav) == 1000
    hand = len(s.hand[1])
    act(s, f"attack {g} castle")
    pass_battle(s)
    assert s.walls[1] == []
    assert s.discard[1] == [strat, formation, warlord]
    assert [e["card"] for e in events(s, "counter_stratagem")] == [strat]
    assert len(s.hand[1]) == hand + 1
    assert s.outcome is None


def test_wall_02_unintercepted_attack_on_a_castle_with_no_walls_wins():
    """SGT-WALL-02 / SGT-WIN-01 (reading (a)): with 0 walls, an unintercepted castle attack wins —
    also when the defender could intercept but declines. An intercepted one does not."""
    s = table("紅", "蒼")
    a = take(s, "AK-01", 0, "camp")
    d = take(s, "AO-02", 1, "camp")                      # 1500, ready: may intercept
    act(s, f"attack {a} castle")
    assert s.phase == INTERCEPT and s.pending.players == (1,)
    declined, blocked = s.clone(), s.clone()
    act(declined, "nointercept")
    assert declined.outcome is None                      # the battle window comes first
    pass_battle(declined)
    assert declined.outcome is not None
    assert declined.outcome.winners == (0,) and declined.outcome.reason == "castle"
    act(blocked, f"intercept {d}")
    pass_battle(blocked)
    assert blocked.outcome is None                       # the interceptor died, the castle stands
    assert d in blocked.discard[1] and blocked.walls[1] == []
    # No possible interceptor at all: the attack goes straight through.
    s2 = table("紅", "蒼")
    a2 = take(s2, "AK-03", 0, "camp")
    act(s2, f"attack {a2} castle")
    pass_battle(s2)
    assert s2.outcome.winners == (0,)


def test_wall_07_walls_only_come_from_effects_and_a_built_wall_goes_on_top():
    """SGT-WALL-07: walls are only added by effects (築城). Placing kokuryoku, deploying and
    attacking never add one; NT-04 城普請 puts the deck's top card onto the walls, face down and
    unseen. SGT-WALL-06: the built wall is the new top and is destroyed first."""
    s = table("蒼", "紅")
    w = [take(s, "AO-05", 0, "walls"), take(s, "AO-06", 0, "walls")]
    build = take(s, "NT-04", 0, "hand")
    down = take(s, "AO-16", 0, "hand")
    war = take(s, "AO-09", 0, "hand")
    atk = take(s, "AK-02", 1, "camp")                    # p1's, 攻城力 1
    give_koku(s, 0, "蒼", 4)
    s.phase = KOKU
    assert all(a.split()[0] in ("koku", "skip") for a in legal(s, 0))
    act(s, f"koku {down} down")
    act(s, f"deploy {war}")
    assert s.walls[0] == w
    assert {a.split()[0] for a in legal(s, 0)} <= {"deploy", "stratagem", "ability", "ougi", "attack", "end"}
    top = s.deck[0][-1]
    deck_size = len(s.deck[0])
    act(s, f"stratagem {build}")
    assert s.walls[0] == w + [top] and len(s.deck[0]) == deck_size - 1
    assert build in s.discard[0]
    for v in (0, 1):
        assert s.view(v)["zones"]["walls"][0] == 3
        assert top not in seen_ids(s.view(v))
    next_turn(s)                                         # player 1's turn
    act(s, f"attack {atk} castle")
    act(s, "nointercept")                                # AO-09 could intercept; it declines
    pass_battle(s)
    assert s.walls[0] == w and s.discard[0][-1] == top


def test_wall_08_siege_destroys_siege_power_walls():
    """SGT-WALL-08 / SGT-WARLORD-07 / SGT-ZONE-04: an unintercepted siege destroys as many walls
    as the attacker's 攻城力 (AK-01: 2), and a castle with walls left is not taken."""
    s = table("紅", "蒼")
    a = take(s, "AK-01", 0, "camp")
    w = [take(s, "AO-09", 1, "walls") for _ in range(3)] + [take(s, "AO-02", 1, "walls") for _ in range(2)]
    act(s, f"attack {a} castle")
    pass_battle(s)
    assert s.walls[1] == w[:3] and s.discard[1] == [w[4], w[3]]
    assert s.outcome is None


def test_wall_08_siege_above_the_remaining_walls_destroys_them_all_but_does_not_win():
    """SGT-WALL-08 (reading 2): with fewer walls than 攻城力 all remaining walls fall, no more, and
    the same attack does not win; the next unintercepted castle attack does."""
    s = table("紅", "蒼")
    g = take(s, "AK-15", 0, "camp")                      # 攻城力 3
    b = take(s, "AK-02", 0, "camp")
    w = [take(s, "AO-09", 1, "walls"), take(s, "AO-09", 1, "walls")]
    act(s, f"attack {g} castle")
    pass_battle(s)
    assert s.walls[1] == [] and s.discard[1] == [w[1], w[0]]
    assert len(events(s, "wall_destroyed")) == 2
    assert s.outcome is None and s.phase == MAIN
    act(s, f"attack {b} castle")
    pass_battle(s)
    assert s.outcome.winners == (0,) and s.outcome.reason == "castle"


def test_wall_09_counter_stratagems_fire_in_order_owner_chooses_target_for_free():
    """SGT-WALL-09 / SGT-STRAT-06 / SGT-COST-10: each destroyed stratagem wall fires its counter,
    one at a time top first; the wall's owner (the defender, off turn) chooses the target — here
    not the strongest — and pays nothing. The second counter (築城) waits for the first."""
    s = table("紅", "蒼")
    a = take(s, "AK-01", 0, "camp")                      # 3500, 攻城力 2
    weak = take(s, "AK-03", 0, "camp")                   # 1000
    bottom = take(s, "AO-05", 1, "walls")
    second = take(s, "AO-14", 1, "walls")                # counter: 築城1
    top = take(s, "AO-13", 1, "walls")                   # counter: 1000 damage, chosen
    koku = give_koku(s, 1, "蒼", 2)
    act(s, f"attack {a} castle")
    pass_battle(s)
    assert s.phase == COUNTER and s.pending.players == (1,)
    assert s.discard[1] == [top, second] and s.walls[1] == [bottom]
    assert legal(s, 1) == {f"counter {top} {a}", f"counter {top} {weak}"}   # no pass: mandatory
    assert legal(s, 0) == set()
    new_top = s.deck[1][-1]
    act(s, f"counter {top} {weak}", 1)
    assert weak in s.discard[0] and s.in_play(a) and s.damage.get(a, 0) == 0
    assert s.walls[1] == [bottom, new_top]               # then 籠城の備え's 築城1
    assert [e["card"] for e in events(s, "counter_stratagem")] == [top, second]
    assert not set(koku) & s.exhausted and s.down_exhausted == [0, 0]
    assert s.phase == MAIN and s.pending.players == (0,)


# ===== the battle procedure ====================================================================
def test_battle_attack_exhausts_intercept_is_optional_by_ready_units_and_does_not_exhaust():
    """SGT-BASIC-09 (recommended readings): declaring an attack exhausts the attacker; the
    defender may intercept with a ready unit only, or decline; intercepting does not exhaust.
    SGT-WARLORD-05 / SGT-ZONE-06: both sides deal their 兵力; the loser goes to its discard."""
    s = table("紅", "蒼")
    a = take(s, "AK-01", 0, "camp")                      # 3500, 攻城力 2, no 貫通
    ready = take(s, "AO-04", 1, "camp")                  # 4000, {戦闘確定時} +500
    tired = take(s, "AO-02", 1, "camp")
    s.exhausted.add(tired)
    walls = [take(s, "AO-09", 1, "walls") for _ in range(3)]
    act(s, f"attack {a} castle")
    assert a in s.exhausted
    assert s.phase == INTERCEPT and s.pending.players == (1,)
    assert legal(s, 1) == {f"intercept {ready}", "nointercept"}
    refused(s, f"intercept {tired}", 1)
    declined = s.clone()
    act(declined, "nointercept")
    pass_battle(declined)
    assert declined.walls[1] == walls[:1]
    act(s, f"intercept {ready}")
    pass_battle(s)
    assert ready not in s.exhausted
    assert combat(s)["to_defender"] == 3500 and combat(s)["to_attacker"] == 4500
    assert a in s.discard[0] and not s.in_play(a)
    assert s.strength(ready) == 4000 + 500 - 3500
    assert s.walls[1] == walls                           # intercepted: no siege


def test_battle_only_an_exhausted_enemy_warlord_can_be_attacked():
    """SGT-BASIC-08 / SGT-ZONE-03: an attack targets the castle or an exhausted unit in the enemy
    camp, never a ready one. The target fights back; no wall falls."""
    s = table("紅", "蒼")
    a = take(s, "AK-01", 0, "camp")
    ready = take(s, "AO-05", 1, "camp")
    tired = take(s, "AO-02", 1, "camp")
    s.exhausted.add(tired)
    walls = [take(s, "AO-09", 1, "walls")]
    assert attack_options(s, a) == {f"attack {a} castle", f"attack {a} {tired}"}
    refused(s, f"attack {a} {ready}")
    act(s, f"attack {a} {tired}")
    assert legal(s, 1) == {f"intercept {ready}", "nointercept"}
    act(s, "nointercept")
    pass_battle(s)
    assert tired in s.discard[1]
    assert s.damage[a] == 1500 and s.walls[1] == walls


def test_battle_damage_is_simultaneous_both_ways():
    """Both sides deal damage equal to their 兵力 at once: two 3500 warlords destroy each other
    (SGT-WARLORD-12), each going to its owner's discard (SGT-ZONE-06)."""
    s = table("紅", "蒼")
    a = take(s, "AK-01", 0, "camp")                      # 3500
    d = take(s, "AO-01", 1, "camp")                      # 3500
    act(s, f"attack {a} castle")
    act(s, f"intercept {d}")
    pass_battle(s)
    e = combat(s)
    assert (e["to_defender"], e["to_attacker"]) == (3500, 3500)
    assert s.discard[0] == [a] and s.discard[1] == [d]
    assert s.camp == [[], []]


def test_battle_long_spear_doubles_damage_against_ambush_only():
    """【長槍】 deals double damage to a 【奇襲】 unit, whichever side it is on; against a unit
    without 【奇襲】 its damage is its plain 兵力."""
    s = table("紅", "蒼")
    ambush = take(s, "AK-06", 0, "camp")                 # 1500 【奇襲】
    plain = take(s, "AK-07", 0, "camp")                  # 2500
    spear = take(s, "AO-05", 1, "camp")                  # 1000 【長槍】
    take(s, "AO-09", 1, "walls")
    control = s.clone()
    act(s, f"attack {ambush} castle")
    act(s, f"intercept {spear}")
    pass_battle(s)
    assert (combat(s)["to_attacker"], combat(s)["to_defender"]) == (2000, 1500)
    assert ambush in s.discard[0] and spear in s.discard[1]
    act(control, f"attack {plain} castle")
    act(control, f"intercept {spear}")
    pass_battle(control)
    assert combat(control)["to_attacker"] == 1000
    assert control.strength(plain) == 1500 and spear in control.discard[1]
    no_spear = table("紅", "蒼")                           # 奇襲 against a unit without 長槍
    amb0 = take(no_spear, "AK-06", 0, "camp")
    blocker = take(no_spear, "AO-02", 1, "camp")         # 1500
    act(no_spear, f"attack {amb0} castle")
    act(no_spear, f"intercept {blocker}")
    pass_battle(no_spear)
    assert (combat(no_spear)["to_attacker"], combat(no_spear)["to_defender"]) == (1500, 1500)
    # 長槍 attacking a 奇襲 target on player 1's turn.
    t = table("紅", "蒼", turn_player=1)
    amb = take(t, "AK-06", 0, "camp")
    t.exhausted.add(amb)
    sp = take(t, "AO-05", 1, "camp")
    act(t, f"attack {sp} {amb}")
    pass_battle(t)
    assert (combat(t)["to_defender"], combat(t)["to_attacker"]) == (2000, 1500)
    assert amb in t.discard[0] and sp in t.discard[1]


def test_battle_pierce_sieges_through_a_beaten_interceptor():
    """【貫通】: an intercepted castle attack whose attacker wins still destroys 攻城力 walls; a
    winner without 貫通 destroys none, a losing 貫通 attacker none, and 貫通 against 0 walls
    does not win (the attack was intercepted)."""
    def board(attacker: str, blocker: str, n_walls: int = 2):
        s = table("紅", "蒼")
        a = take(s, attacker, 0, "camp")
        d = take(s, blocker, 1, "camp")
        w = [take(s, "AO-09", 1, "walls") for _ in range(n_walls)]
        act(s, f"attack {a} castle")
        act(s, f"intercept {d}")
        pass_battle(s)
        return s, a, d, w

    s, a, d, w = board("AK-02", "AO-02")                 # 3000 貫通 vs 1500
    assert d in s.discard[1] and s.in_play(a)
    assert s.walls[1] == w[:1] and s.discard[1] == [d, w[1]]
    s, a, d, w = board("AK-01", "AO-02")                 # 3500 without 貫通
    assert d in s.discard[1] and s.walls[1] == w
    s, a, d, w = board("AK-02", "AO-04")                 # 貫通 attacker loses
    assert a in s.discard[0] and s.walls[1] == w
    s, a, d, w = board("AK-02", "AO-02", n_walls=0)
    assert d in s.discard[1] and s.outcome is None


def test_battle_attack_declared_trigger_fires_on_declaration():
    """{攻撃宣言時} abilities fire when the attack is declared: 羽柴秀吉 (攻城力 1) sieges with 2.
    SGT-WARLORD-13: the +1 ends with the turn."""
    s = table("紅", "蒼")
    h = take(s, "AK-08", 0, "camp")
    w = [take(s, "AO-09", 1, "walls") for _ in range(3)]
    assert s.siege(h) == 1
    act(s, f"attack {h} castle")
    assert s.siege(h) == 2                               # fired before the battle window
    pass_battle(s)
    assert s.walls[1] == w[:1] and s.siege(h) == 2
    act(s, "end")
    assert s.siege(h) == 1


# ===== SGT-CARD ================================================================================
def test_card_01_permanents_stay_on_the_field_instants_go_to_the_discard():
    """SGT-CARD-01 / SGT-ZONE-01 / SGT-ZONE-06: a warlord, a formation, a permanent stratagem and
    a used ougi stay on the field across turns; an instant stratagem goes to the discard after
    use; summoned soldiers live in a token zone, outside the card set."""
    s = table("蒼", "紅")
    war = take(s, "AO-05", 0, "hand")
    inst = take(s, "AO-11", 0, "hand")                   # draw 2
    perm = take(s, "AO-15", 0, "hand")                   # permanent aura +500
    form = take(s, "AO-16", 0, "koku_up")
    give_koku(s, 0, "蒼", 6)
    act(s, f"deploy {war}")
    act(s, f"stratagem {inst}")
    act(s, f"stratagem {perm}")
    og = s.ougi[0][0]
    act(s, "ougi")
    assert inst in s.discard[0] and perm not in s.discard[0]
    for _ in range(2):
        next_turn(s)
    assert s.turn_player == 0
    assert s.camp[0] == [war] and s.field[0] == [perm] and form in s.koku_up[0]
    assert s.ougi_up[0] == [og] and s.discard[0] == [inst]
    assert s.strength(war) == 1000 + 500
    view = s.view(1)
    assert view["zones"]["camp"][0] == [war] and view["zones"]["field"][0] == [perm]
    assert {z.name: z for z in SengokuState.ZONES}["summons"].tokens


# ===== SGT-WARLORD =============================================================================
def test_warlord_02_warlord_03_placed_in_own_camp_by_paying_its_cost():
    """SGT-WARLORD-02 / SGT-WARLORD-03: deploying AK-01 (紅紅2) needs its full cost — 3 ready
    kokuryoku are not enough, and 4 colourless ones cannot pay the 紅 — and puts it in its
    owner's own camp, exhausting the kokuryoku paid."""
    s = table("紅", "蒼")
    c = take(s, "AK-01", 0, "hand")
    colorless = s.clone()
    give_koku(colorless, 0, None, 4, up=False)
    assert f"deploy {c}" not in legal(colorless, 0)
    red = give_koku(s, 0, "紅", 3)
    assert f"deploy {c}" not in legal(s, 0)
    refused(s, f"deploy {c}")
    give_koku(s, 0, None, 1, up=False)
    act(s, f"deploy {c}")
    assert s.camp[0] == [c] and s.camp[1] == [] and c not in s.hand[0]
    assert set(red) <= s.exhausted and s.down_exhausted[0] == 1


def test_warlord_04_warlords_are_deck_cards_summons_and_ougi_are_not():
    """SGT-WARLORD-04 / SGT-DECK-02: warlord cards are put in the deck (every warlord of the 紅
    starter's list) and are dealt from it; a summoned-soldier card may not be in a deck."""
    g = takujo.load("sengoku_taisen", deck1="紅", deck2="蒼")
    warlords = [c for c in g.deck_ids[0] if g.instances[c].type == "warlord"]
    listed = [n for n in decks.load("紅").cards() if g.pool[n].type == "warlord"]
    assert len(warlords) == len(listed) >= 30 and g.instances[g.ougi_ids[0]].type == "ougi"
    s = g.new_state(2)
    assert all(c in s.deck[0] + s.hand[0] for c in warlords)
    bad = decks.parse((decks.DECK_DIR / "aka.txt").read_text(encoding="utf-8") + "\n1 TK-01\n")
    assert any("TK-01" in problem for problem in decks.check(bad, g.pool))


def test_warlord_05_warlord_06_strength_and_troop_type():
    """SGT-WARLORD-05: a warlord has a 兵力. SGT-WARLORD-06 (and SGT-LEGACY-06): its troop type
    decides which effects reach it — 岐阜城's cavalry aura raises AK-01 and the old-series
    騎馬隊 OLD-01, not the infantry AK-02."""
    s = table("紅", "蒼")
    cav = take(s, "AK-01", 0, "camp")
    inf = take(s, "AK-02", 0, "camp")
    old = take(s, "OLD-01", 0, "camp")
    assert [s.unit_type(u) for u in (cav, inf, old)] == ["cavalry", "infantry", "cavalry"]
    assert [s.strength(u) for u in (cav, inf, old)] == [3500, 3000, 2500]
    take(s, "AK-16", 0, "koku_up")
    assert [s.strength(u) for u in (cav, inf, old)] == [4000, 3000, 3000]


def test_warlord_07_siege_power_sets_the_walls_destroyed():
    """SGT-WARLORD-07 / SGT-WALL-08 (reading 4): 攻城力 is the number of walls a siege destroys;
    a warlord without any (AO-02, 攻城力 0) may attack the castle but destroys none."""
    s = table("蒼", "紅")
    zero = take(s, "AO-02", 0, "camp")
    two = take(s, "AO-10", 0, "camp")
    w = [take(s, "AK-02", 1, "walls") for _ in range(2)] + [take(s, "AK-07", 1, "walls")]
    assert (s.siege(zero), s.siege(two)) == (0, 2)
    act(s, f"attack {zero} castle")
    pass_battle(s)
    assert s.walls[1] == w and s.outcome is None
    act(s, f"attack {two} castle")
    pass_battle(s)
    assert s.walls[1] == w[:1]


def test_warlord_08_cannot_attack_on_its_placement_turn():
    """SGT-WARLORD-08 / SGT-BASIC-04: a warlord deployed this turn has no attack; on its owner's
    next turn it may attack."""
    s = table("紅", "蒼")
    c = take(s, "AK-01", 0, "hand")
    give_koku(s, 0, "紅", 4)
    act(s, f"deploy {c}")
    assert attack_options(s, c) == set()
    refused(s, f"attack {c} castle")
    next_turn(s)                                         # player 1
    next_turn(s)                                         # player 0 again
    assert attack_options(s, c) == {f"attack {c} castle"}


def test_warlord_09_shippu_doto_discards_a_same_number_card_to_attack_at_once():
    """SGT-WARLORD-09 ("手札から同一番号カードを1枚捨てることで、疾風怒濤として攻撃を行う"): a
    warlord — AK-04 prints no keyword — attacks on its placement turn by discarding another
    AK-04 from the hand, paid when the attack is declared (recommended reading); a card of
    another number (AK-08) does not count. SGT-WARLORD-10: no plain second attack; with a
    third copy in hand only 無双連撃 is offered (SGT-WARLORD-11 reading 2: they combine)."""
    s = table("紅", "蒼")
    w = take(s, "AK-04", 0, "hand")
    other = take(s, "AK-08", 0, "hand")
    give_koku(s, 0, "紅", 2)
    act(s, f"deploy {w}")
    assert attack_options(s, w) == set()                 # AK-08 is not the same number
    refused(s, f"attack {w} castle shippu {other}")
    copy = take(s, "AK-04", 0, "hand")
    spare = take(s, "AK-04", 0, "hand")
    walls = [take(s, "AO-09", 1, "walls") for _ in range(2)]
    assert attack_options(s, w) == {f"attack {w} castle shippu {copy}"}
    refused(s, f"attack {w} castle")
    assert copy in s.hand[0]                             # nothing paid at deployment
    act(s, f"attack {w} castle shippu {copy}")
    pass_battle(s)
    assert copy in s.discard[0] and copy not in s.hand[0]
    assert [e["keyword"] for e in events(s, "keyword")] == ["疾風怒濤"]
    assert s.walls[1] == walls[:1]
    assert spare in s.hand[0] and attack_options(s, w) == {f"attack {w} castle muso {spare}"}


def test_warlord_09_same_name_with_another_number_does_not_pay_shippu_doto(extra):
    """SGT-WARLORD-09 / SGT-DECK-03: the discard must have the same card *number*: EX-02 is also
    named 前田利家 but is a different number, so it cannot pay for AK-04."""
    s = table(**extra)
    w = take(s, "AK-04", 0, "camp", placed_turn=3)
    namesake = take(s, "EX-02", 0, "hand")
    assert s.card(namesake).name == s.card(w).name and s.card(namesake).number != s.card(w).number
    assert attack_options(s, w) == set()
    refused(s, f"attack {w} castle shippu {namesake}")
    copy = take(s, "AK-04", 0, "hand")
    assert attack_options(s, w) == {f"attack {w} castle shippu {copy}"}


def test_warlord_09_warlord_11_belong_to_every_warlord_not_to_summoned_soldiers():
    """SGT-WARLORD-09 / SGT-WARLORD-11: the source gives 疾風怒濤 and 無双連撃 as rules of warlord
    cards ("ただし手札から同一番号カードを1枚捨てることで…"), not as keywords: every warlord of
    every starter may use them with a same-number card in hand (unless its {常時} ability
    forbids it to attack at all). A summoned soldier has no card number: it never may. The
    pool prints neither as a keyword."""
    assert not any(k in ("疾風怒濤", "無双連撃") for c in decks_pool().cards.values() for k in c.keywords)
    for deck in ("紅", "蒼", "翠", "黒"):
        s = table(deck, "蒼")
        numbers = sorted({s.card(c).number for c in s.game.deck_ids[0]
                          if s.card(c).type == "warlord" and not s.card(c).cannot_attack
                          and sum(1 for d in s.game.deck_ids[0] if s.card(d).number == s.card(c).number) >= 3})
        assert numbers
        for number in numbers:
            t = table(deck, "蒼")
            w = take(t, number, 0, "camp", placed_turn=t.turn)
            copy = take(t, number, 0, "hand")
            spare = take(t, number, 0, "hand")
            [take(t, "AO-09", 1, "walls") for _ in range(3)]
            if t.has(w, "奇襲"):
                assert f"attack {w} castle" in attack_options(t, w)
                act(t, f"attack {w} castle")
                left = min(copy, spare)
            else:
                assert attack_options(t, w) == {f"attack {w} castle shippu {min(copy, spare)}"}, number
                act(t, f"attack {w} castle shippu {min(copy, spare)}")
                left = max(copy, spare)
            pass_battle(t)
            assert attack_options(t, w) == {f"attack {w} castle muso {left}"}, number
    s = table("黒", "紅")
    tok = s.summon(0, 1000, 1, "infantry")
    s.placed[tok] = s.turn
    assert attack_options(s, tok) == set()
    s.placed[tok] = s.turn - 1
    assert attack_options(s, tok) == {f"attack {tok} castle"}
    act(s, f"attack {tok} castle")
    pass_battle(s)
    assert attack_options(s, tok) == set()


def test_warlord_09_11_a_card_printing_them_as_keywords_is_refused(tmp_path):
    """SGT-WARLORD-09 / SGT-WARLORD-11: a card that lists 疾風怒濤 or 無双連撃 among its keywords
    is refused at load, with a message that says they belong to every warlord."""
    from takujo.core.errors import CardDataError
    from takujo.games.sengoku_taisen.cards import build_pool
    for word in ("疾風怒濤", "【無双連撃】"):
        bad = tmp_path / f"bad{len(word)}.toml"
        bad.write_text(CARD_FILE.read_text(encoding="utf-8").replace(
            'number = "AK-07"', 'number = "AK-07"\nkeywords = ["%s"]' % word, 1), encoding="utf-8")
        with pytest.raises(CardDataError, match="rule of every warlord"):
            build_pool(bad)


def test_warlord_11_reading_2_option_shippu_then_muso():
    """SGT-WARLORD-11 ambiguity (2), configurable as recommended: by default a warlord that
    attacked by 疾風怒濤 on its placement turn may attack once more by 無双連撃 (two discards);
    with ``shippu_then_muso=false`` it may not — but a 【奇襲】 warlord's plain first attack on
    its placement turn still allows 無双連撃."""
    for combine in (True, False):
        s = table("紅", "蒼", shippu_then_muso=combine)
        w = take(s, "AK-04", 0, "camp", placed_turn=s.turn)
        c1, c2 = take(s, "AK-04", 0, "hand"), take(s, "AK-04", 0, "hand")
        amb = take(s, "AK-09", 0, "camp", placed_turn=s.turn)   # 【奇襲】
        a2 = take(s, "AK-09", 0, "hand")
        [take(s, "AO-09", 1, "walls") for _ in range(3)]
        act(s, f"attack {w} castle shippu {min(c1, c2)}")
        pass_battle(s)
        assert bool(attack_options(s, w)) is combine
        act(s, f"attack {amb} castle")
        pass_battle(s)
        assert attack_options(s, amb) == {f"attack {amb} castle muso {a2}"}


def test_warlord_10_a_warlord_attacks_once_per_turn_even_when_readied():
    """SGT-WARLORD-10: after its attack, AK-02 readied again by 桶狭間の奇襲 still cannot attack
    a second time this turn."""
    s = table("紅", "蒼")
    a = take(s, "AK-02", 0, "camp")
    rdy = take(s, "AK-12", 0, "hand")
    give_koku(s, 0, "紅", 1)
    [take(s, "AO-09", 1, "walls") for _ in range(3)]
    act(s, f"attack {a} castle")
    pass_battle(s)
    assert s.attacks[a] == 1 and len(s.walls[1]) == 2
    act(s, f"stratagem {rdy} {a}")
    assert a not in s.exhausted
    assert attack_options(s, a) == set()
    refused(s, f"attack {a} castle")


def test_warlord_11_muso_rengeki_gives_one_extra_attack_not_a_third():
    """SGT-WARLORD-11 (recommended readings 1 and 3): 無双連撃 — discarding another AK-01 from
    the hand lets the exhausted AK-01 attack once more; never a third time, even with a third
    copy in hand. AK-15 shares the name but not the number and cannot pay."""
    s = table("紅", "蒼")
    a = take(s, "AK-01", 0, "camp")
    namesake = take(s, "AK-15", 0, "hand")
    [take(s, n, 1, "walls") for n in ("AO-09", "AO-02") for _ in range(3)]
    act(s, f"attack {a} castle")
    pass_battle(s)
    assert len(s.walls[1]) == 4 and a in s.exhausted
    assert attack_options(s, a) == set()                 # AK-15 is another number
    c1 = take(s, "AK-01", 0, "hand")
    c2 = take(s, "AK-01", 0, "hand")
    assert attack_options(s, a) == {f"attack {a} castle muso {min(c1, c2)}"}
    act(s, f"attack {a} castle muso {min(c1, c2)}")
    pass_battle(s)
    assert len(s.walls[1]) == 2 and s.attacks[a] == 2
    assert min(c1, c2) in s.discard[0] and max(c1, c2) in s.hand[0] and namesake in s.hand[0]
    assert attack_options(s, a) == set()
    refused(s, f"attack {a} castle muso {max(c1, c2)}")


def test_warlord_12_strength_zero_or_less_is_destroyed():
    """SGT-WARLORD-12: 1000 damage leaves AO-05 (1000) at 0 — destroyed, to its owner's discard;
    AO-02 (1500) survives the same damage at 500."""
    s = table("紅", "蒼")
    g1 = take(s, "AK-05", 0, "camp")
    g2 = take(s, "AK-05", 0, "camp")
    low = take(s, "AO-05", 1, "camp")
    mid = take(s, "AO-02", 1, "camp")
    act(s, f"ability {g1} 0 {low}")
    assert not s.in_play(low) and s.discard[1] == [low]
    act(s, f"ability {g2} 0 {mid}")
    assert s.in_play(mid) and s.strength(mid) == 500


def test_warlord_13_damage_and_this_turn_changes_reset_at_the_end_of_every_turn():
    """SGT-WARLORD-13 (reading: every turn) / SGT-BASIC-06: at the end of player 0's turn the
    damage on player 1's warlord and player 0's +兵力 / +攻城力 end; at the end of player 1's
    turn the battle damage on player 0's warlord is cleared too."""
    s = table("紅", "蒼")
    g = take(s, "AK-15", 0, "camp")                      # 5500, 攻城力 3
    f = take(s, "AK-05", 0, "camp")                      # 1500, damage ability
    t14 = take(s, "AK-14", 0, "hand")
    t13 = take(s, "AK-13", 0, "hand")
    d = take(s, "AO-04", 1, "camp")                      # 4000
    [take(s, "AK-06", 0, "walls") for _ in range(2)]
    [take(s, "AO-09", 1, "walls") for _ in range(2)]
    give_koku(s, 0, "紅", 4)
    act(s, f"stratagem {t14}")
    act(s, f"stratagem {t13} {g}")
    act(s, f"ability {f} 0 {d}")
    assert (s.strength(g), s.siege(g), s.strength(f), s.strength(d)) == (6500, 4, 2500, 3000)
    act(s, "end")
    assert s.turn_player == 1
    assert (s.strength(g), s.siege(g), s.strength(f), s.strength(d)) == (5500, 3, 1500, 4000)
    if s.phase == KOKU:
        act(s, "skip")
    act(s, f"attack {d} castle")
    assert legal(s, 0) == {f"intercept {g}", "nointercept"}   # f is still exhausted
    act(s, f"intercept {g}")
    pass_battle(s)
    assert d in s.discard[1] and s.strength(g) == 5500 - 4500
    act(s, "end")
    assert s.turn_player == 0 and s.damage == {} and s.strength(g) == 5500


def test_warlord_14_uniqueness_by_name_in_your_own_camp_only():
    """SGT-WARLORD-14 / SGT-KOKU-08: with 織田信長 (AK-01) in your camp you cannot deploy AK-15,
    another number with the same name. The opponent's camp and your face-up kokuryoku do not
    count: once your own AK-01 is gone, AK-15 deploys — then the other AK-01 cannot."""
    s = table("紅", "紅")
    mine = take(s, "AK-01", 0, "camp")
    take(s, "AK-01", 0, "koku_up")
    again = take(s, "AK-01", 0, "hand")
    big = take(s, "AK-15", 0, "hand")
    take(s, "AK-01", 1, "camp")
    give_koku(s, 0, "紅", 10)
    assert effects.can_pay(s, 0, s.card(big).cost)
    assert f"deploy {big}" not in legal(s, 0) and f"deploy {again}" not in legal(s, 0)
    refused(s, f"deploy {big}")
    put(s, mine, 0, "discard")
    assert {f"deploy {big}", f"deploy {again}"} <= legal(s, 0)
    act(s, f"deploy {big}")
    assert s.camp[0] == [big]
    assert effects.can_pay(s, 0, s.card(again).cost)
    assert f"deploy {again}" not in legal(s, 0)
    refused(s, f"deploy {again}")


# ===== SGT-FORMATION ===========================================================================
def test_formation_02_formations_are_deck_cards():
    """SGT-FORMATION-02: formation cards go in the deck (4 岐阜城 in the 紅 starter) and the
    deck is legal with them."""
    g = takujo.load("sengoku_taisen", deck1="紅", deck2="蒼")
    forms = [c for c in g.deck_ids[0] if g.instances[c].type == "formation"]
    assert len(forms) == 4 and {g.instances[c].number for c in forms} == {"AK-16"}
    assert decks.check(decks.load("紅"), g.pool) == []
    s = g.new_state(3)
    assert all(c in s.deck[0] + s.hand[0] for c in forms)


def test_formation_03_aura_works_only_while_face_up_in_kokuryoku():
    """SGT-FORMATION-03 / SGT-KOKU-09: 岐阜城 in the hand, face down as kokuryoku, in the walls or
    in the discard does nothing; placed face up as kokuryoku it raises its owner's cavalry
    (only) by 500, also once exhausted; the opponent's formation does not reach you."""
    s = table("紅", "蒼")
    cav = take(s, "AK-01", 0, "camp")
    inf = take(s, "AK-02", 0, "camp")
    h = take(s, "AK-16", 0, "hand")
    take(s, "AK-16", 0, "koku_down")
    take(s, "AK-16", 0, "walls")
    take(s, "AK-16", 0, "discard")
    foe_inf = take(s, "AO-09", 1, "camp")
    take(s, "AO-16", 1, "koku_up")                        # 駿府城: p1's infantry +500
    assert (s.strength(cav), s.strength(inf), s.strength(foe_inf)) == (3500, 3000, 2500)
    s.phase = KOKU
    act(s, f"koku {h} up")
    assert h in s.koku_up[0]
    assert (s.strength(cav), s.strength(inf)) == (4000, 3000)
    s.exhausted.add(h)
    assert s.strength(cav) == 4000
    put(s, h, 0, "discard")
    assert s.strength(cav) == 3500


def test_formation_04_no_placement_cost_unless_one_is_printed(extra):
    """SGT-FORMATION-04: 岐阜城 goes face up as kokuryoku with no kokuryoku at all and exhausts
    nothing; a formation that prints a cost (EX-03, 紅) can go face up only by paying it.
    A formation is never deployed into the camp."""
    s = table(**extra)
    free = take(s, "AK-16", 0, "hand")
    costly = take(s, "EX-03", 0, "hand")
    s.phase = KOKU
    assert f"koku {free} up" in legal(s, 0)
    assert f"koku {costly} up" not in legal(s, 0) and f"koku {costly} down" in legal(s, 0)
    placed = s.clone()
    act(placed, f"koku {free} up")
    assert placed.koku_up[0] == [free] and placed.exhausted == set()
    assert not any(str(free) in a.split()[1:] for a in legal(placed, 0))   # not deployable
    red = give_koku(s, 0, "紅", 1)
    act(s, f"koku {costly} up")
    assert costly in s.koku_up[0] and red[0] in s.exhausted


# ===== SGT-OUGI ================================================================================
def test_ougi_02_ougi_06_face_down_from_the_start_outside_the_deck():
    """SGT-OUGI-02 / SGT-SETUP-01 / SGT-DECK-04: each player's ougi starts face down in the ougi
    zone, outside the deck — its owner sees it, the opponent sees only a card. SGT-OUGI-06: it
    is this game's own ougi (a once-per-game card kept beside the deck), not a deck card: a deck
    listing it is illegal."""
    g = takujo.load("sengoku_taisen", deck1="紅", deck2="蒼")
    s = g.new_state(5)
    act(s, "keep")
    for p in (0, 1):
        og = g.ougi_ids[p]
        assert s.ougi[p] == [og] and s.ougi_up[p] == []
        assert og not in g.deck_ids[p] and og not in s.deck[p] + s.hand[p] + s.walls[p]
        assert s.view(p)["zones"]["ougi"][p] == [og]
        assert s.view(1 - p)["zones"]["ougi"][p] == 1
    bad = decks.parse((decks.DECK_DIR / "aka.txt").read_text(encoding="utf-8") + "\n1 AK-OG\n")
    assert any("okugi" in problem for problem in decks.check(bad, g.pool))


def test_ougi_03_ougi_04_ougi_05_threshold_counts_every_kokuryoku_and_costs_nothing():
    """SGT-OUGI-04: AK-OG needs 5 kokuryoku — 4 is not enough. SGT-OUGI-05: exhausted and face-down
    kokuryoku count, and activating pays nothing. SGT-OUGI-03: it flips face up, works, and is
    never usable again — not later this turn nor on a later own turn."""
    s = table("紅", "蒼")
    a = take(s, "AK-02", 0, "camp")
    up = give_koku(s, 0, "紅", 2)
    s.exhausted.update(up)
    give_koku(s, 0, None, 2, up=False)
    s.down_exhausted[0] = 2
    assert "ougi" not in legal(s, 0)
    refused(s, "ougi")
    give_koku(s, 0, None, 1, up=False)
    s.down_exhausted[0] = 3
    assert "ougi" in legal(s, 0)
    og = s.ougi[0][0]
    exhausted, down = set(s.exhausted), list(s.down_exhausted)
    act(s, "ougi")
    assert s.ougi[0] == [] and s.ougi_up[0] == [og] and s.ougi_used[0]
    assert s.strength(a) == 4000
    assert s.exhausted == exhausted and s.down_exhausted == down
    refused(s, "ougi")
    next_turn(s)
    next_turn(s)
    assert s.turn_player == 0 and "ougi" not in legal(s, 0)


def test_ougi_03_only_on_your_own_turn():
    """SGT-OUGI-03: a player who meets the threshold cannot activate the ougi on the opponent's
    turn — not even when polled in the battle window."""
    s = table("紅", "蒼", turn_player=1)
    k = take(s, "AK-11", 0, "hand")
    take(s, "AK-03", 0, "walls")
    give_koku(s, 0, "紅", 6)
    atk = take(s, "AO-05", 1, "camp")
    assert legal(s, 0) == set()
    act(s, f"attack {atk} castle")
    assert s.pending.kind is DecisionKind.RESPONSE and s.pending.players == (1,)   # turn player first
    act(s, "pass", 1)
    assert s.pending.kind is DecisionKind.RESPONSE and s.pending.players == (0,)
    assert legal(s, 0) == {f"stratagem {k} {atk}", "pass"}
    refused(s, "ougi", 0)
    act(s, "pass", 0)
    assert not s.windows and s.ougi[0] and not s.ougi_used[0]


# ===== SGT-STRAT ===============================================================================
def test_strat_02_strat_03_a_stratagem_costs_its_printed_cost():
    """SGT-STRAT-02: 天下布武 (紅紅1) cannot be used with two kokuryoku; with a third (face down,
    for the generic part) it can, and exactly those three are exhausted. SGT-STRAT-03: it is a
    deck card (4 in the 紅 starter)."""
    s = table("紅", "蒼")
    assert sum(1 for c in s.game.deck_ids[0] if s.card(c).number == "AK-14") == 4
    a = take(s, "AK-02", 0, "camp")
    c = take(s, "AK-14", 0, "hand")
    red = give_koku(s, 0, "紅", 2)
    assert f"stratagem {c}" not in legal(s, 0)
    refused(s, f"stratagem {c}")
    give_koku(s, 0, None, 1, up=False)
    act(s, f"stratagem {c}")
    assert set(red) <= s.exhausted and s.down_exhausted[0] == 1
    assert s.strength(a) == 4000


def test_strat_04_instant_to_the_discard_permanent_stays_on_the_field():
    """SGT-STRAT-04 / SGT-ZONE-06: the instant 軍師の献策 draws 2 and is discarded; the permanent
    三河武士の忠義 stays on the field and its aura lasts across turns."""
    s = table("蒼", "紅")
    war = take(s, "AO-05", 0, "camp")
    inst = take(s, "AO-11", 0, "hand")
    perm = take(s, "AO-15", 0, "hand")
    give_koku(s, 0, "蒼", 5)
    act(s, f"stratagem {inst}")
    assert s.discard[0] == [inst] and len(s.hand[0]) == 3
    act(s, f"stratagem {perm}")
    assert s.field[0] == [perm] and perm not in s.discard[0]
    assert s.strength(war) == 1500
    next_turn(s)
    next_turn(s)
    assert s.field[0] == [perm] and s.strength(war) == 1500


def test_strat_05_main_stratagems_only_in_your_main_phase_battle_ones_only_in_battle():
    """SGT-STRAT-05: in the main phase 天下布武 ({メイン}) can be used and 鉄砲三段撃ち ({戦闘})
    cannot; in the battle window it is the reverse; kokuryoku phase allows neither."""
    s = table("紅", "蒼")
    a = take(s, "AK-01", 0, "camp")
    battle = take(s, "AK-11", 0, "hand")
    main = take(s, "AK-14", 0, "hand")
    d = take(s, "AO-04", 1, "camp")
    give_koku(s, 0, "紅", 5)
    assert f"stratagem {main}" in legal(s, 0)
    assert not any(x.startswith(f"stratagem {battle}") for x in legal(s, 0))
    koku = s.clone()
    koku.phase = KOKU
    assert not any(x.startswith("stratagem") for x in legal(koku, 0))
    act(s, f"attack {a} castle")
    act(s, f"intercept {d}")
    assert s.pending.kind is DecisionKind.RESPONSE
    # five kokuryoku also reach 紅's okugi, which the battle window offers in your own turn
    assert legal(s, 0) == {f"stratagem {battle} {d}", "ougi", "pass"}
    refused(s, f"stratagem {main}", 0)


def test_ougi_03_usable_in_your_battle_window_unless_restricted_to_main():
    """SGT-OUGI-03 (recommended reading): the okugi may be used in your main phase or in a
    battle window of your own turn; with option ougi_timing=main only in the main phase."""
    for timing, offered in (("main_or_battle", True), ("main", False)):
        s = table("紅", "蒼", ougi_timing=timing)
        a = take(s, "AK-01", 0, "camp")
        d = take(s, "AO-04", 1, "camp")
        give_koku(s, 0, "紅", 5)
        take(s, "AK-11", 0, "hand")                      # something to keep the window open
        assert "ougi" in legal(s, 0)
        act(s, f"attack {a} castle")
        act(s, f"intercept {d}")
        assert ("ougi" in legal(s, 0)) is offered
        if offered:
            before = s.strength(a)
            act(s, "ougi", 0)
            assert s.ougi_used[0] and s.strength(a) == before + 1000   # 圧切長谷部: all allies +1000
            assert s.pending.kind is DecisionKind.RESPONSE               # the window goes on


def test_strat_05_battle_window_turn_player_first_cycles_until_both_pass():
    """SGT-STRAT-05 / the battle window: after {戦闘確定時}, {戦闘} stratagems are offered turn
    player first; an action reopens the round, and the window closes only when both players
    pass in succession; then damage is dealt."""
    s = table("紅", "蒼")
    a = take(s, "AK-01", 0, "camp")                      # 3500
    k = take(s, "AK-11", 0, "hand")                      # 2000 damage
    d = take(s, "AO-04", 1, "camp")                      # 4000, +500 on confirm
    x1 = take(s, "AO-14", 1, "hand")                     # +1500
    x2 = take(s, "AO-14", 1, "hand")
    red = give_koku(s, 0, "紅", 2)
    blue = give_koku(s, 1, "蒼", 4)
    act(s, f"attack {a} castle")
    act(s, f"intercept {d}")
    assert s.strength(d) == 4500                         # {戦闘確定時} came first
    assert s.pending.kind is DecisionKind.RESPONSE and s.pending.players == (0,)
    assert legal(s, 1) == set()
    act(s, "pass")
    assert s.windows and s.pending.players == (1,)       # one pass does not close it
    act(s, f"stratagem {x1} {d}")
    assert len(set(blue) & s.exhausted) == 2             # SGT-STRAT-02: 蒼1 paid
    assert s.pending.players == (0,)                     # player 0 may answer again
    act(s, f"stratagem {k} {d}")
    assert set(red) <= s.exhausted
    assert s.strength(d) == 4500 + 1500 - 2000
    assert s.pending.players == (1,) and f"stratagem {x2} {d}" in legal(s, 1)
    act(s, "pass")                                        # player 1 passes; one pass is not two
    assert s.windows and s.pending.players == (0,)
    assert legal(s, 0) == {"pass"}                       # nothing left to play, still asked
    act(s, "pass")                                        # both passed in succession: closes
    assert not s.windows and s.phase == MAIN
    assert [(e["player"], e["card"]) for e in events(s, "stratagem")] == [(1, x1), (0, k)]
    assert a in s.discard[0] and s.strength(d) == 4000 - 3500 and x2 in s.hand[1]


def test_strat_05_battle_stratagem_on_the_opponents_turn():
    """SGT-STRAT-05: {戦闘} stratagems are usable in the battle window of the opponent's turn,
    after the turn player: player 0 destroys player 1's attacker with 鉄砲三段撃ち, so the
    attack does nothing."""
    s = table("紅", "蒼", turn_player=1)
    k = take(s, "AK-11", 0, "hand")
    main = take(s, "AK-14", 0, "hand")
    w = [take(s, "AK-03", 0, "walls")]
    give_koku(s, 0, "紅", 5)
    atk = take(s, "AO-05", 1, "camp")
    take(s, "AO-14", 1, "hand")
    give_koku(s, 1, "蒼", 2)
    act(s, f"attack {atk} castle")
    assert s.pending.players == (1,)                     # the turn player first
    act(s, "pass")
    assert s.pending.players == (0,)
    assert legal(s, 0) == {f"stratagem {k} {atk}", "pass"}
    refused(s, f"stratagem {main}", 0)
    act(s, f"stratagem {k} {atk}")
    pass_battle(s)                                       # player 1, then player 0 again
    assert atk in s.discard[1] and s.walls[0] == w and s.phase == MAIN and s.turn_player == 1
    assert not s.windows


def test_strat_06_counter_fires_only_when_destroyed_as_a_wall():
    """SGT-STRAT-06: using 天下布武 from the hand does not fire its counter (draw 1); the same kind
    of card destroyed as a wall does, for the wall's owner."""
    s = table("紅", "紅")
    a = take(s, "AK-02", 0, "camp")
    c = take(s, "AK-14", 0, "hand")
    give_koku(s, 0, "紅", 3)
    w = take(s, "AK-14", 1, "walls")
    hand0 = len(s.hand[0])
    act(s, f"stratagem {c}")
    assert len(s.hand[0]) == hand0 - 1 and events(s, "counter_stratagem") == []
    hand1 = len(s.hand[1])
    act(s, f"attack {a} castle")
    pass_battle(s)
    assert w in s.discard[1]
    assert [e["card"] for e in events(s, "counter_stratagem")] == [w]
    assert len(s.hand[1]) == hand1 + 1 and len(s.hand[0]) == hand0 - 1


# ===== SGT-SUMMON ==============================================================================
def test_summon_01_summon_03_tokens_made_by_effects_with_the_card_s_stats():
    """SGT-SUMMON-01 / SGT-SUMMON-03 / SGT-SUMMON-04 / SGT-CARD-01: 一揆勢 and 三本の矢 put
    summoned-soldier tokens (not cards of the set) into the summons zone, with the strength,
    攻城力 and troop type their card names; troop-type auras reach them."""
    s = table("黒", "紅")
    one = take(s, "KR-14", 0, "hand")                    # 1000, 攻城力1, infantry
    three = take(s, "KR-13", 0, "hand")                  # 3 × 1000, 攻城力0, archer
    give_koku(s, 0, "黒", 4)
    act(s, f"stratagem {one}")
    act(s, f"stratagem {three}")
    toks = s.summons[0]
    assert len(toks) == 4 and all(t >= TOKEN_BASE and t >= len(s.inst) for t in toks)
    assert s.camp[0] == []
    assert [(s.strength(t), s.siege(t), s.unit_type(t)) for t in toks] == \
        [(1000, 1, "infantry")] + [(1000, 0, "archer")] * 3
    take(s, "KR-16", 0, "koku_up")                       # infantry +500, summons included
    assert [s.strength(t) for t in toks] == [1500, 1000, 1000, 1000]
    view = s.view(1)
    assert view["zones"]["summons"][0] == toks
    assert view["public"]["tokens"][str(toks[0])] == {"owner": 0, "strength": 1000, "siege": 1, "unit": "infantry"}


def test_summon_02_summon_04_tokens_fight_like_warlords_and_vanish_when_destroyed():
    """SGT-SUMMON-02: a token cannot attack on its placement turn, may intercept, attacks the
    castle with its 攻城力 on a later turn, and once exhausted can be attacked.
    SGT-SUMMON-04: destroyed, it ceases to exist — in no discard, exile or other zone."""
    s = table("黒", "紅")
    k = take(s, "KR-14", 0, "hand")
    give_koku(s, 0, "黒", 1)
    foe = take(s, "AK-01", 1, "camp")
    foe2 = take(s, "AK-02", 1, "camp")
    [take(s, "KR-09", 0, "walls") for _ in range(3)]
    [take(s, "AK-06", 1, "walls") for _ in range(3)]
    act(s, f"stratagem {k}")
    (t,) = s.summons[0]
    assert attack_options(s, t) == set()
    refused(s, f"attack {t} castle")
    next_turn(s)                                         # player 1 attacks; the token may intercept
    act(s, f"attack {foe2} castle")
    assert legal(s, 0) == {f"intercept {t}", "nointercept"}
    act(s, "nointercept")
    pass_battle(s)
    next_turn(s)                                         # player 0: the token attacks
    assert attack_options(s, t) == {f"attack {t} castle", f"attack {t} {foe2}"}
    act(s, f"attack {t} castle")
    act(s, "nointercept")
    pass_battle(s)
    assert len(s.walls[1]) == 2 and t in s.exhausted
    next_turn(s)                                         # player 1: the exhausted token is a target
    assert f"attack {foe} {t}" in attack_options(s, foe, 1)
    act(s, f"attack {foe} {t}")
    pass_battle(s)
    assert combat(s)["to_defender"] == 3500 and combat(s)["to_attacker"] == 1000
    assert t not in s.tokens and s.summons[0] == []
    zones = [z for spec in s.ZONES for z in s.zone(spec.name)]
    assert not any(t in z for z in zones)
    for v in (0, 1):
        view = s.view(v)
        assert not any(t in part for zone in view["zones"].values() for part in zone if isinstance(part, list))
    assert str(t) not in s.view(0)["public"]["tokens"]


def test_summon_02_a_token_intercepts_and_deals_its_strength():
    """SGT-SUMMON-02: an intercepting token deals damage equal to its 兵力, like a warlord."""
    s = table("紅", "黒")
    a = take(s, "AK-07", 0, "camp")                      # 2500
    t = s.summon(1, 2000, 1, "infantry")
    act(s, f"attack {a} castle")
    act(s, f"intercept {t}")
    pass_battle(s)
    assert combat(s)["to_attacker"] == 2000 and s.strength(a) == 500
    assert t not in s.tokens and not any(t in d for d in s.discard)


# ===== SGT-ZONE ================================================================================
def test_zone_01_zone_02_zone_03_each_field_has_camp_walls_kokuryoku_and_ougi():
    """SGT-ZONE-01 / SGT-ZONE-02: each player's field has a camp, walls, kokuryoku (face up and
    face down) and an ougi zone. SGT-ZONE-03: both camps form one battlefield that both players
    see, and a unit may attack into the enemy camp."""
    s = table("紅", "蒼")
    mine = take(s, "AK-01", 0, "camp")
    theirs = take(s, "AO-02", 1, "camp")
    s.exhausted.add(theirs)
    up = take(s, "AK-16", 0, "koku_up")
    take(s, "AK-03", 0, "koku_down")
    take(s, "AO-09", 1, "walls")
    for v in (0, 1):
        z = s.view(v)["zones"]
        for name in ("camp", "walls", "koku_up", "koku_down", "ougi"):
            assert len(z[name]) == 2
        assert z["camp"] == [[mine], [theirs]]
        assert z["koku_up"][0] == [up] and z["walls"] == [0, 1]
    assert s.view(1)["zones"]["koku_down"][0] == 1
    assert f"attack {mine} {theirs}" in attack_options(s, mine)


def test_zone_05_the_kokuryoku_zone_holds_at_most_ten():
    """SGT-ZONE-05 / SGT-KOKU-05: with 10 kokuryoku no card may be placed as kokuryoku."""
    s = table("紅", "蒼")
    h = take(s, "AK-02", 0, "hand")
    give_koku(s, 0, "紅", 9)
    s.phase = KOKU
    assert f"koku {h} up" in legal(s, 0)
    give_koku(s, 0, None, 1, up=False)
    assert legal(s, 0) == {"skip"}
    refused(s, f"koku {h} down")


def test_zone_06_destroyed_permanents_and_used_instants_go_to_the_discard():
    """SGT-ZONE-06: a warlord destroyed in battle goes to its owner's discard, the instant used
    on it to its user's discard; the surviving warlord stays in the camp."""
    s = table("紅", "蒼")
    k = take(s, "AK-11", 0, "hand")
    d = take(s, "AO-01", 1, "camp")
    a = take(s, "AK-01", 0, "camp")
    give_koku(s, 0, "紅", 2)
    act(s, f"attack {a} castle")
    act(s, f"intercept {d}")
    act(s, f"stratagem {k} {d}")                          # 3500 - 2000
    pass_battle(s)                                       # player 1 may answer, then player 0
    assert not s.windows and combat(s)["to_attacker"] == 1500
    assert s.discard[1] == [d] and s.discard[0] == [k]
    assert s.camp[0] == [a] and s.strength(a) == 2000


def test_zone_07_exiled_cards_go_to_the_exile_zone(extra):
    """SGT-ZONE-07: an `exile` effect removes an enemy warlord to its owner's exile zone — not the
    discard; tokens and warlords above the limit cannot be chosen."""
    s = table(**extra)
    ex = take(s, "EX-01", 0, "hand")
    give_koku(s, 0, "紅", 1)
    small = take(s, "AO-05", 1, "camp")
    take(s, "AO-04", 1, "camp")                          # 4000 > 3000
    s.summon(1, 1000, 0, "infantry")
    assert {a for a in legal(s, 0) if a.startswith(f"stratagem {ex}")} == {f"stratagem {ex} {small}"}
    act(s, f"stratagem {ex} {small}")
    assert s.exile[1] == [small] and small not in s.discard[1] and not s.in_play(small)
    assert s.discard[0] == [ex]
    assert s.view(0)["zones"]["exile"][1] == [small]
