"""Rule tests of ドラフト戦国大名 (docs/rules/draft_daimyo.md): the expansion card set (its
clauses DSD-COMP, DSD-SETUP, DSD-CARD) and the designed base game it is merged into: map,
3 players, draft, card choice, play or sell, hire, march, battles, capture, upkeep, income,
final scoring and bad input."""
from __future__ import annotations

from collections import Counter

import pytest

import takujo
from takujo.core.errors import CardDataError, IllegalActionError, OptionError
from takujo.core.rng import Rng
from takujo.games.draft_daimyo import battle, effects
from takujo.games.draft_daimyo.board import MAP_FILE
from takujo.games.draft_daimyo.cards import CARD_FILE, Effect, card_set, load
from takujo.games.draft_daimyo.state import BASIC, CARD, CHOOSE, DRAFT, OVER, TACTIC, TURNS

from .helpers import act, card, choose, events, hold, legal, province, table, take, to_domain

PATH = str(CARD_FILE)
DRAFT_TYPES = ("warlord", "development", "strategy")

REVISED_WARLORDS = ["北条氏康", "真田昌幸", "松永久秀", "斎藤道三", "本願寺顕如", "明智光秀",
                    "黒田官兵衛", "竹中半兵衛", "羽柴秀吉"]
NEW_WARLORDS = ["山本勘助", "武田信虎"]
NEW_DRAFT = ["山本勘助", "武田信虎", "鍛冶町", "能楽堂", "謀反の兆し", "恩賞", "城下町の開発", "浪人の登用"]
REVISED_NAMES = set(REVISED_WARLORDS) | {"城", "街道", "楽市楽座", "天下布武", "御馬揃え"}
TACTICS = ["毘沙門天の化身", "城方の内応", "風林火山", "野戦築城", "伏兵", "略奪", "詭計の成功", "金ヶ崎の退き口"]
CONSTANT_WARLORDS = {"本願寺顕如", "明智光秀", "山本勘助", "羽柴秀吉", "黒田官兵衛", "竹中半兵衛", "武田信虎"}


class Dice(Rng):
    """Scripted die faces (1..6), in order; any other use of chance fails the test."""

    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def below(self, n: int) -> int:
        assert n == 6, f"unexpected random draw below({n})"
        assert self.faces, "the scripted dice ran out"
        return self.faces.pop(0) - 1


def exp_specs():
    return [s for s in load(PATH)[1] if s.set == "expansion"]


def base_specs():
    return [s for s in load(PATH)[1] if s.set == "base"]


def counted(specs, kind=None) -> Counter:
    return Counter({s.name_ja: s.count for s in specs if kind is None or s.type == kind})


def names(cs, kinds) -> Counter:
    return Counter(c.spec.name_ja for c in cs.cards if c.type in kinds)


def finish_round(s) -> None:
    """Run the end of the current round: the last player of turn 4 rests. The next round's
    events are both 国人衆の参陣 (soldiers only), so gold and VP change by the round's end only."""
    e = card(s, "国人衆の参陣")
    s.event_deck, s.event_discard = [e], []
    assert not any(s.hand) and not any(s.chosen)
    s.turn, s.turn_index, s.phase = TURNS, s.n - 1, BASIC
    act(s, "rest")


def rolls(s, why="battle") -> list[dict]:
    return [e for e in events(s, "roll") if e["why"] == why]


def front(s, att: int = 3, dfn: int = 1, defender: int = 1) -> tuple[int, int]:
    """Seat 0 holds 三河 with `att` soldiers; `defender` holds 遠江 with `dfn` soldiers."""
    return hold(s, 0, "三河", att), hold(s, defender, "遠江", dfn)


# =====================================================================================
# DSD-COMP: the 36 expansion cards
# =====================================================================================

def test_DSD_COMP_01_expansion_has_exactly_36_cards():
    """DSD-COMP-01: the expansion contains exactly 36 cards."""
    assert sum(s.count for s in exp_specs()) == 36


def test_DSD_COMP_02_new_names_are_new_and_revised_names_exist_in_base():
    """DSD-COMP-02: 【】 names are new (not in the base game), the others revise a base card of
    the same name."""
    base = {s.name_ja for s in base_specs()}
    exp = {s.name_ja for s in exp_specs()}
    assert exp & base == REVISED_NAMES
    new = exp - base
    assert new == set(NEW_DRAFT) | {"戦国の覇者", "南蛮人の渡来", "大名の茶会"} | set(TACTICS)
    assert sum(s.count for s in exp_specs() if s.name_ja in new) == 19
    assert sum(s.count for s in exp_specs() if s.name_ja in REVISED_NAMES) == 17


def test_DSD_COMP_03_eleven_warlords_one_each():
    """DSD-COMP-03: 11 warlords, one each: 9 revised and 山本勘助, 武田信虎."""
    assert counted(exp_specs(), "warlord") == Counter({n: 1 for n in REVISED_WARLORDS + NEW_WARLORDS})


def test_DSD_COMP_04_seven_developments():
    """DSD-COMP-04: 城 x3, 街道 x2, 鍛冶町 x1, 能楽堂 x1 (recommended 1 each)."""
    assert counted(exp_specs(), "development") == Counter({"城": 3, "街道": 2, "鍛冶町": 1, "能楽堂": 1})


def test_DSD_COMP_05_five_strategies():
    """DSD-COMP-05: 楽市楽座, 謀反の兆し, 恩賞, 城下町の開発, 浪人の登用, one each."""
    assert counted(exp_specs(), "strategy") == Counter(
        {"楽市楽座": 1, "謀反の兆し": 1, "恩賞": 1, "城下町の開発": 1, "浪人の登用": 1})


def test_DSD_COMP_06_one_honour_card():
    """DSD-COMP-06: one honour card, 戦国の覇者."""
    assert counted(exp_specs(), "honour") == Counter({"戦国の覇者": 1})


def test_DSD_COMP_07_four_events():
    """DSD-COMP-07: 天下布武, 御馬揃え, 南蛮人の渡来, 大名の茶会, one each."""
    assert counted(exp_specs(), "event") == Counter(
        {"天下布武": 1, "御馬揃え": 1, "南蛮人の渡来": 1, "大名の茶会": 1})


def test_DSD_COMP_08_eight_tactics_cards():
    """DSD-COMP-08: 8 tactics cards, all new, one each; 略奪 is an attacker card."""
    specs = exp_specs()
    assert counted(specs, "tactics") == Counter({n: 1 for n in TACTICS})
    assert {s.name_ja: s.side for s in specs if s.type == "tactics"}["略奪"] == "attacker"
    assert not {s.name_ja for s in base_specs()} & set(TACTICS)


# =====================================================================================
# DSD-SETUP: merging the expansion
# =====================================================================================

def test_DSD_SETUP_01_revised_cards_are_balance_adjustments():
    """DSD-SETUP-01: the expansion adjusts the balance of base cards: each revised card differs
    from its base version, and the merged game uses the revised values."""
    base = {s.name_ja: s for s in base_specs()}
    for s in exp_specs():
        if s.name_ja in REVISED_NAMES:
            b = base[s.name_ja]
            strip = lambda x: x.model_dump(exclude={"set", "text_ja", "text_en"})  # noqa: E731
            assert strip(s) != strip(b), s.name_ja
    cs = card_set(PATH, True, False)
    costs = {c.spec.name_ja: c.spec.cost for c in cs.cards}
    assert costs["城"] == 2 and costs["街道"] == 1 and costs["松永久秀"] == 2   # base: 3, 2, 1


def test_DSD_SETUP_02_expansion_is_merged_into_the_base_game_never_alone():
    """DSD-SETUP-02: the expansion cannot be played alone: with it, every base card that is not
    revised or removed is still in the game, with its base copies."""
    cs = card_set(PATH, True, False)
    by_set = Counter(c.spec.set for c in cs.cards if c.type in DRAFT_TYPES)
    assert by_set == Counter({"base": 33, "expansion": 23})
    kept = {s.name_ja: s.count for s in base_specs()
            if s.name_ja not in REVISED_NAMES | {"城下町の発展", "将軍の策謀"}}
    merged = Counter(c.spec.name_ja for c in cs.cards)
    for name, n in kept.items():
        assert merged[name] == n, name
    assert merged["柴田勝家"] == 1 and merged["徴兵"] == 3 and merged["一向一揆"] == 1 and merged["天下人"] == 1
    # a game with the expansion deals base cards too
    s = takujo.load("draft_daimyo", expansion=True).new_state(3)
    pool = s.draft_deck + [c for p in s.packets for c in p]
    assert {s.card(c).spec.set for c in pool} == {"base", "expansion"}


def test_DSD_SETUP_03_revised_cards_replace_all_base_copies():
    """DSD-SETUP-03 (reading a): every base copy of a revised name is removed and every
    expansion copy added: 城 x3 and 街道 x2 are all expansion copies."""
    cs = card_set(PATH, True, False)
    for name in REVISED_NAMES:
        sets = [c.spec.set for c in cs.cards if c.spec.name_ja == name]
        want = next(s.count for s in exp_specs() if s.name_ja == name)
        assert sets == ["expansion"] * want, name
    base = card_set(PATH, False, False)
    assert [c.spec.set for c in base.cards if c.spec.name_ja == "城"] == ["base"] * 3
    assert [c.spec.set for c in base.cards if c.spec.name_ja == "街道"] == ["base"] * 2


def test_DSD_SETUP_04_the_8_new_draft_cards_join_the_draft_deck_others_do_not():
    """DSD-SETUP-04: the 8 new warlord/development/strategy cards are in the draft deck; the new
    honour, event and tactics cards are not."""
    s = takujo.load("draft_daimyo", expansion=True, tactics=True).new_state(1)
    pool = s.draft_deck + [c for p in s.packets for c in p]
    pool_names = Counter(s.card(c).name for c in pool)
    for name in NEW_DRAFT:
        assert pool_names[name] == 1, name
    for name in ["戦国の覇者", "南蛮人の渡来", "大名の茶会", *TACTICS]:
        assert pool_names[name] == 0, name
    assert {s.card(c).type for c in pool} == set(DRAFT_TYPES)
    assert {s.card(c).name for c in s.tactics_deck} == set(TACTICS)
    assert s.card(card(s, "戦国の覇者")) and card(s, "戦国の覇者") in s.honours


def test_DSD_SETUP_05_draft_deck_48_base_56_with_expansion():
    """DSD-SETUP-05: the base draft deck has 48 cards; merged, exactly 56 — in the card set and
    in a new game (deck + dealt packets)."""
    assert sum(names(card_set(PATH, False, False), DRAFT_TYPES).values()) == 48
    assert sum(names(card_set(PATH, True, False), DRAFT_TYPES).values()) == 56
    assert sum(names(card_set(PATH, True, True), DRAFT_TYPES).values()) == 56
    for exp, want in ((False, 48), (True, 56)):
        s = takujo.load("draft_daimyo", expansion=exp).new_state(2)
        assert len(s.draft_deck) + sum(len(p) for p in s.packets) == want


def test_DSD_SETUP_06_tenka_fubu_and_ouma_zoroe_are_the_revised_events():
    """DSD-SETUP-06: 御馬揃え and 天下布武 replace their base versions (the revised effect is used)."""
    cs = card_set(PATH, True, False)
    for name in ("天下布武", "御馬揃え"):
        found = [c for c in cs.cards if c.spec.name_ja == name]
        assert len(found) == 1 and found[0].spec.set == "expansion" and found[0].type == "event"
    s = table(expansion=True)
    hold(s, 0, "美濃", 1)                             # seat 0: 尾張 + 美濃
    before = list(s.vp)
    e = card(s, "天下布武")
    effects.resolve(s, -1, s.card(e).spec.play, (), source=e)
    assert s.vp[0] - before[0] == 2 and s.vp[1] - before[1] == 1  # revised: 1 VP per province


def test_DSD_SETUP_07_nanbanjin_no_torai_replaces_jokamachi_no_hatten():
    """DSD-SETUP-07: the event 南蛮人の渡来 replaces the event 城下町の発展 (while the strategy
    城下町の開発 is a different card, in the draft deck)."""
    cs = card_set(PATH, True, False)
    ev = names(cs, ("event",))
    assert ev["南蛮人の渡来"] == 1 and ev["城下町の発展"] == 0
    assert names(cs, ("strategy",))["城下町の開発"] == 1
    assert names(card_set(PATH, False, False), ("event",))["城下町の発展"] == 1
    assert names(card_set(PATH, False, False), ("event",))["南蛮人の渡来"] == 0


def test_DSD_SETUP_08_daimyo_no_chakai_replaces_shogun_no_sakubo():
    """DSD-SETUP-08: the event 大名の茶会 replaces the event 将軍の策謀."""
    ev = names(card_set(PATH, True, False), ("event",))
    assert ev["大名の茶会"] == 1 and ev["将軍の策謀"] == 0
    base = names(card_set(PATH, False, False), ("event",))
    assert base["将軍の策謀"] == 1 and base["大名の茶会"] == 0


def test_DSD_SETUP_09_removed_events_are_nowhere_in_the_game():
    """DSD-SETUP-09: with the expansion, 城下町の発展 and 将軍の策謀 are not in the game at all."""
    for tactics in (False, True):
        cs = card_set(PATH, True, tactics)
        assert not [c for c in cs.cards if c.spec.name_ja in ("城下町の発展", "将軍の策謀")]
    s = takujo.load("draft_daimyo", expansion=True).new_state(4)
    everywhere = s.event_deck + s.event_discard + s.honours + s.draft_deck + [c for p in s.packets for c in p]
    assert not {"城下町の発展", "将軍の策謀"} & {s.card(c).name for c in everywhere}


def test_DSD_SETUP_10_ten_events_with_or_without_the_expansion():
    """DSD-SETUP-10: the event set stays at 10 cards."""
    for exp in (False, True):
        for tac in (False, True):
            assert len(card_set(PATH, exp, tac).ids("event")) == 10
        s = takujo.load("draft_daimyo", expansion=exp).new_state(5)
        assert len(s.event_deck) == 10
    assert len(set(names(card_set(PATH, True, False), ("event",)))) == 10


def test_DSD_SETUP_11_sengoku_no_hasha_joins_the_honour_supply_and_scores():
    """DSD-SETUP-11: 戦国の覇者 is added to the honour supply (5 honours, base 4) and replaces
    nothing; at the end it gives its VP to the player who won the most battles."""
    assert names(card_set(PATH, False, False), ("honour",)) == Counter(
        {"天下人": 1, "名将": 1, "豪商": 1, "名君": 1})
    assert names(card_set(PATH, True, False), ("honour",)) == Counter(
        {"天下人": 1, "名将": 1, "豪商": 1, "名君": 1, "戦国の覇者": 1})
    s = table(expansion=True)
    assert {s.card(h).name for h in s.honours} == {"天下人", "名将", "豪商", "名君", "戦国の覇者"}
    s.honours = [card(s, "戦国の覇者")]
    s.battles_won = [0, 2, 1, 0]
    s.round = 4
    finish_round(s)
    assert s.phase == OVER
    assert s.vp == [3, 3 + 3, 3, 3]                   # income 3 each (homes), +3 to seat 1
    assert [e["player"] for e in events(s, "honour")] == [1]


# =====================================================================================
# DSD-CARD: notes on new and revised cards
# =====================================================================================

def test_DSD_CARD_01_and_DSD_CARD_02_exactly_seven_warlords_have_constant_abilities():
    """DSD-CARD-01, DSD-CARD-02: with the expansion exactly 7 warlords have a constant ability:
    本願寺顕如, 明智光秀, 山本勘助, 羽柴秀吉, 黒田官兵衛, 竹中半兵衛, 武田信虎."""
    cs = card_set(PATH, True, True)
    with_constant = [c.spec.name_ja for c in cs.cards if c.type == "warlord" and c.spec.constant]
    assert sorted(with_constant) == sorted(CONSTANT_WARLORDS)
    assert {s.name_ja for s in exp_specs() if s.type == "warlord" and s.constant} == CONSTANT_WARLORDS


def test_DSD_CARD_02_hashiba_hideyoshi_and_honganji_kennyo_add_income():
    """DSD-CARD-02: 羽柴秀吉's constant +1 gold and 本願寺顕如's constant +1 VP at income."""
    s = table(expansion=True)
    to_domain(s, 0, "羽柴秀吉")
    to_domain(s, 1, "本願寺顕如")
    finish_round(s)
    assert s.gold == [5 + 3 + 1, 5 + 3, 5 + 3, 5 + 3]
    assert s.vp == [3, 3 + 1, 3, 3]


def test_DSD_CARD_02_kuroda_kanbei_costs_no_upkeep():
    """DSD-CARD-02: 黒田官兵衛's constant: it costs no upkeep (a 3rd card that is him is free)."""
    s = table(expansion=True)
    for name in ("黒田官兵衛", "柴田勝家", "前田利家"):
        to_domain(s, 0, name)
    for name in ("真田昌幸", "馬場信春", "直江兼続"):
        to_domain(s, 1, name)
    finish_round(s)
    assert s.gold[0] == 5 + 3                          # no upkeep
    assert s.gold[1] == 5 - 1 + 3                      # the 3rd card costs 1


def test_DSD_CARD_02_takenaka_hanbei_ignores_the_defenders_warlord_dice():
    """DSD-CARD-02: 竹中半兵衛: in your attacks the defender's defence modifiers do not count."""
    for with_hanbei, def_dice in ((False, 1 + 3), (True, 1)):
        s = table(expansion=True)
        a, d = front(s, att=3, dfn=1)
        to_domain(s, 1, "北条氏康")                     # defence +3
        if with_hanbei:
            to_domain(s, 0, "竹中半兵衛")
        att_dice = 2 + (1 if with_hanbei else 0)
        s.rng = Dice([5] + [1] * (att_dice - 1) + [1] * def_dice)
        act(s, f"march {a} {d} 2")
        r = rolls(s)
        assert [len(e["faces"]) for e in r] == [att_dice, def_dice]
        assert s.owner[d] == 0 and not s.rng.faces


def test_DSD_CARD_02_yamamoto_kansuke_adds_an_attack_die():
    """DSD-CARD-02: 山本勘助 (attack +1) and his constant +1 die when attacking: 2 + 1 + 1 dice."""
    s = table(expansion=True)
    a, d = front(s, att=3, dfn=1)
    to_domain(s, 0, "山本勘助")
    s.rng = Dice([6, 1, 1, 1, 1])
    act(s, f"march {a} {d} 2")
    assert [len(e["faces"]) for e in rolls(s)] == [4, 1]
    assert s.owner[d] == 0


def test_DSD_CARD_02_takeda_nobutora_marches_one_more():
    """DSD-CARD-02: 武田信虎's constant: a march may move one more soldier."""
    s = table(expansion=True)
    o = hold(s, 0, "尾張", 5)
    m = hold(s, -2, "美濃", 0)
    assert f"march {o} {m} 3" not in legal(s)
    to_domain(s, 0, "武田信虎")
    assert f"march {o} {m} 3" in legal(s) and f"march {o} {m} 4" not in legal(s)


def test_DSD_CARD_03_akechi_plus_one_defection_during_gekokujo():
    """DSD-CARD-03 (reading a): during the event 下克上, 明智光秀's 離反値 (4) counts as 5: a 5
    makes him defect, while 斎藤道三 (also 4) stays on a 5."""
    s = table(expansion=True)
    akechi = to_domain(s, 0, "明智光秀")
    dosan = to_domain(s, 2, "斎藤道三")
    assert s.card(akechi).spec.defection == 4 and s.card(dosan).spec.defection == 4
    s.vp = [5, 0, 3, 4]
    g = card(s, "下克上")
    s.rng = Dice([5, 5])
    effects.resolve(s, -1, s.card(g).spec.play, (), source=g)
    assert not s.rng.faces
    assert akechi in s.domain[1]                       # to the player lowest in VP
    assert dosan in s.domain[2]
    # a 6 is above 5: he stays
    s = table(expansion=True)
    akechi = to_domain(s, 0, "明智光秀")
    s.vp = [5, 0, 3, 4]
    s.rng = Dice([6])
    effects.gekokujo(s)
    assert akechi in s.domain[0]


def test_DSD_CARD_03_akechi_bonus_does_not_apply_outside_gekokujo():
    """DSD-CARD-03 (reading a): outside 下克上 his 離反値 is 4: an effect that needs 離反値 5
    (or a 調略 needing 4) sees 4, not 5."""
    s = table(expansion=True)
    akechi = to_domain(s, 1, "明智光秀")
    assert (akechi,) not in effects.targets(s, 0, Effect(do="subvert", min_defection=5))
    assert (akechi,) in effects.targets(s, 0, Effect(do="subvert", min_defection=4))


def test_DSD_CARD_04_muhon_no_kizashi_lets_a_loyal_warlord_defect():
    """DSD-CARD-04: a 【忠臣】 never defects in 下克上 — not even rolled for — but once
    謀反の兆し is attached it can defect."""
    s = table(expansion=True)
    loyal = to_domain(s, 1, "山本勘助")
    assert s.card(loyal).spec.loyal
    s.vp = [0, 5, 3, 4]
    s.rng = Dice([])
    effects.gekokujo(s)                                # no roll at all for a 【忠臣】
    assert loyal in s.domain[1] and not rolls(s, "gekokujo")
    # seat 0 plays 謀反の兆し on him
    m = choose(s, 0, "謀反の兆し")
    assert f"play {m} {loyal}" in legal(s)
    act(s, f"play {m} {loyal}")
    assert s.marked == [loyal] and s.gold[0] == 5 - 2
    s.rng = Dice([1])
    effects.gekokujo(s)
    assert not s.rng.faces
    assert loyal in s.domain[0] and loyal not in s.domain[1]     # to the lowest in VP
    assert loyal not in s.marked                                   # the mark leaves with him


def test_DSD_CARD_04_mark_cannot_be_put_twice_or_on_your_own_warlord():
    """DSD-CARD-04: 謀反の兆し targets enemy warlords that do not already carry one."""
    s = table(expansion=True)
    mine = to_domain(s, 0, "柴田勝家")
    theirs = to_domain(s, 1, "山本勘助")
    m = choose(s, 0, "謀反の兆し")
    assert {a for a in legal(s) if a.startswith("play")} == {f"play {m} {theirs}"}
    s.marked = [theirs]
    assert {a for a in legal(s) if a.startswith("play")} == set()
    assert mine not in s.marked


def test_gekokujo_each_warlord_rolls_once():
    """下克上: every warlord rolls once; one who just defected does not roll again with his new
    lord (DSD-CARD-03 and DSD-CARD-04 rely on one die test per warlord)."""
    s = table(expansion=True)
    w = to_domain(s, 0, "松永久秀")                    # 離反値 5
    s.vp = [5, 0, 3, 4]
    s.rng = Dice([1, 1])
    effects.gekokujo(s)
    assert len(rolls(s, "gekokujo")) == 1
    assert w in s.domain[1]


def test_DSD_CARD_04_dismissed_marked_warlord_loses_the_mark():
    """DSD-CARD-04: 謀反の兆し is attached to a warlord: when he leaves play (dismissed at upkeep)
    the mark does not stay on the card for whoever drafts it next."""
    s = table(expansion=True)
    cheap = to_domain(s, 1, "山本勘助")              # cost 3, the cheapest of the three
    to_domain(s, 1, "柴田勝家")
    to_domain(s, 1, "北条氏康")
    s.marked = [cheap]
    s.gold[1] = 0
    finish_round(s)
    assert cheap not in s.domain[1]
    assert cheap not in s.marked


def test_DSD_CARD_05_each_kaido_lets_a_march_move_one_more_soldier():
    """DSD-CARD-05: 街道 【行軍＋▲】: +1 soldier per 街道 per march (2, 3, then 4)."""
    s = table(expansion=True)
    o = hold(s, 0, "尾張", 6)
    m = hold(s, -2, "美濃", 0)
    marches = lambda: {int(a.split()[3]) for a in legal(s) if a.startswith(f"march {o} {m} ")}  # noqa: E731
    assert marches() == {1, 2}
    to_domain(s, 0, "街道", 0)
    assert marches() == {1, 2, 3}
    to_domain(s, 0, "街道", 1)
    assert marches() == {1, 2, 3, 4}
    act(s, f"march {o} {m} 4")
    assert s.soldiers[o] == 2 and s.soldiers[m] == 4 and s.owner[m] == 0


def test_DSD_CARD_06_castle_defenders_do_not_retreat():
    """DSD-CARD-06: an outnumbered defender falls back to an adjacent province of theirs — but
    not from a province with a castle: they fight on."""
    # without a castle: 2 attackers vs 2 defenders; after one exchange 2 vs 1 -> retreat
    s = table(expansion=True)
    a, d = front(s, att=3, dfn=2)
    back = hold(s, 1, "信濃南", 1)
    s.rng = Dice([5, 1, 1, 1])
    act(s, f"march {a} {d} 2")
    assert events(s, "retreat") and s.soldiers[back] == 2
    assert s.owner[d] == 0 and s.soldiers[d] == 2
    # with a castle: same dice, no retreat; the defender (+1 die) fights to the last
    s = table(expansion=True)
    a, d = front(s, att=3, dfn=2)
    back = hold(s, 1, "信濃南", 1)
    c = to_domain(s, 1, "城")
    s.castles[c] = d
    s.rng = Dice([5, 1, 1, 1, 1,   1, 1, 1, 1,   6, 1, 1, 1])
    act(s, f"march {a} {d} 2")
    assert not s.rng.faces
    assert not events(s, "retreat") and s.soldiers[back] == 1
    assert s.owner[d] == 0 and s.soldiers[d] == 2
    assert c not in s.castles and c not in s.domain[1]            # razed when taken


def test_DSD_CARD_07_kanegasaki_refused_where_a_castle_stands():
    """DSD-CARD-07 (reading b): 金ヶ崎の退き口 cannot be declared for a province with a castle;
    elsewhere the defender may declare it where it has a province to fall back to."""
    s = table(expansion=True, tactics=True)
    a, d = front(s, att=3, dfn=1)
    hold(s, 1, "信濃南", 1)                            # next to 遠江: somewhere to withdraw to
    k = take(s, card(s, "金ヶ崎の退き口"))
    s.tactics_hand[1] = [k]
    act(s, f"march {a} {d} 2")
    assert s.phase == TACTIC and s.pending.players == (1,)
    assert f"tactic {k}" in legal(s, 1)
    # with a castle in 遠江: no declaration is offered, the battle is fought at once
    s = table(expansion=True, tactics=True)
    a, d = front(s, att=3, dfn=1)
    hold(s, 1, "信濃南", 1)
    k = take(s, card(s, "金ヶ崎の退き口"))
    s.tactics_hand[1] = [k]
    c = to_domain(s, 1, "城")
    s.castles[c] = d
    s.phase = BASIC
    s.battle = battle.Battle(attacker=0, defender=1, from_=a, to=d, k=2)
    assert battle.tactic_options(s, 1) == []
    s.battle = None
    s.rng = Dice([1, 1, 5, 1])                         # 2 attack dice, 1 + 1 castle defence dice
    act(s, f"march {a} {d} 2")
    if s.phase == TACTIC:                              # a holder may be asked, but can only decline
        assert legal(s, 1) == {"notactic"}
        before = s.to_json()
        with pytest.raises(IllegalActionError):
            act(s, f"tactic {k}", 1)
        assert s.to_json() == before
        act(s, "notactic", 1)
    assert s.phase != TACTIC and not s.rng.faces
    assert s.tactics_hand[1] == [k]                    # never used
    assert s.owner[d] == 1 and s.soldiers[a] == 1 + 1  # repulsed: the survivor goes back


# =====================================================================================
# The base game (designed): map and players
# =====================================================================================

def test_map_kai_totomi_border_is_impassable():
    """The mountains between 甲斐 and 遠江 are impassable: not adjacent, no march."""
    s = table()
    kai, totomi = province(s, "甲斐"), province(s, "遠江")
    assert totomi not in s.board.adjacent[kai] and kai not in s.board.adjacent[totomi]
    hold(s, 1, "甲斐", 3)
    hold(s, -2, "遠江", 0)
    s.turn_index = s.order.index(1)
    assert not [a for a in legal(s, 1) if a.startswith(f"march {kai} {totomi} ")]
    assert [a for a in legal(s, 1) if a.startswith(f"march {kai} {province(s, '駿河')} ")]


def test_three_players_drop_imagawa_and_three_provinces():
    """3 players: 今川 is absent; 駿河・遠江・伊豆 are unused (nobody there) and not marchable."""
    s = takujo.load("draft_daimyo", players=3).new_state(0)
    assert s.public_info()["factions"] == ["織田", "武田", "上杉"]
    for name in ("駿河", "遠江", "伊豆"):
        i = province(s, name)
        assert s.owner[i] == -2 and s.soldiers[i] == 0 and not s.active[i]
    assert sum(s.active) == 13
    s = table(players=3)
    kai, suruga = province(s, "甲斐"), province(s, "駿河")
    mikawa, totomi = hold(s, 0, "三河", 3), province(s, "遠江")
    _, izu = hold(s, 1, "相模", 3), province(s, "伊豆")
    out = legal(s, 0)
    assert not [a for a in out if a.startswith(f"march {mikawa} {totomi} ")]
    s.turn_index = s.order.index(1)
    out = legal(s, 1)
    for dest in (suruga, izu):
        assert not [a for a in out if a.split()[0] == "march" and int(a.split()[2]) == dest]
    assert [a for a in out if a.startswith(f"march {kai} {province(s, '武蔵')} ")]
    # with 4 players the same marches exist
    s4 = table()
    hold(s4, 1, "甲斐", 3)
    s4.turn_index = s4.order.index(1)
    assert [a for a in legal(s4, 1) if a.startswith(f"march {kai} {suruga} ")]


# =====================================================================================
# Draft and card choice
# =====================================================================================

def _pick_all(s, first=True):
    for p in s.pending.players:
        opts = [a for a in legal(s, p)]
        act(s, sorted(opts)[0] if first else sorted(opts)[-1], p)


def test_draft_five_cards_each_passed_to_the_left():
    """The draft: packets of 5; everyone picks one at once and passes the rest to the left
    (seat p to seat p+1) until each has a 5-card hand."""
    s = takujo.load("draft_daimyo").new_state(7)
    assert s.phase == DRAFT and [len(p) for p in s.packets] == [5] * 4 and not any(s.hand)
    seen = set()
    for pick in range(5):
        assert s.pending.kind.value == "simultaneous" and set(s.pending.players) == {0, 1, 2, 3}
        before = [list(p) for p in s.packets]
        picks = {p: before[p][0] for p in range(4)}
        for p in range(4):
            act(s, f"pick {picks[p]}", p)
        for p in range(4):
            assert s.hand[p][-1] == picks[p]
            if pick < 4:
                assert sorted(s.packets[(p + 1) % 4]) == sorted(c for c in before[p] if c != picks[p])
        seen |= set(picks.values())
    assert [len(h) for h in s.hand] == [5] * 4 and not any(s.packets)
    assert len(seen) == 20
    assert s.phase == CHOOSE


def test_draft_picks_are_hidden_until_everyone_has_picked():
    """A pick is hidden: another player's view is the same whichever card was picked; the card
    goes face down into the picker's hand at once, and the packets pass only once all have
    picked."""
    s = takujo.load("draft_daimyo").new_state(7)
    x, y = s.clone(), s.clone()
    act(x, f"pick {x.packets[0][0]}", 0)
    act(y, f"pick {y.packets[0][1]}", 0)
    for other in (1, 2, 3, None):
        assert x.view(other) == y.view(other)
    assert x.view(0) != y.view(0)
    assert x.view(1)["pending"]["players"] == [1, 2, 3]
    first = x.packets[0][:]
    assert len(x.hand[0]) == 1 and len(first) == 4                     # taken face down
    assert isinstance(x.view(1)["zones"]["packets"][0], int)
    assert isinstance(x.view(1)["zones"]["hand"][0], int)
    assert x.view(0)["zones"]["hand"][0] == x.hand[0]                  # the picker sees it
    for p in (1, 2, 3):
        act(x, f"pick {x.packets[p][0]}", p)
    assert len(x.hand[0]) == 1 and sorted(x.packets[1]) == sorted(first)   # passed on


def test_card_choice_is_simultaneous_and_hidden_then_played_in_turn_order():
    """Each turn everyone chooses a card of their hand face down at once; the choice is hidden
    until all have chosen; then the turn order plays (the first in order acts first)."""
    s = takujo.load("draft_daimyo").new_state(7)
    while s.phase == DRAFT:
        _pick_all(s)
    assert s.phase == CHOOSE and s.pending.kind.value == "simultaneous"
    assert set(s.pending.players) == {0, 1, 2, 3}
    x, y = s.clone(), s.clone()
    act(x, f"choose {x.hand[0][0]}", 0)
    act(y, f"choose {y.hand[0][1]}", 0)
    for other in (1, 2, 3, None):
        assert x.view(other) == y.view(other)
    assert len(x.chosen[0]) == 1 and isinstance(x.view(1)["zones"]["chosen"][0], int)
    assert not legal(x, 0)                              # already committed
    chosen = {}
    for p in (1, 2, 3):
        chosen[p] = x.hand[p][0]
        act(x, f"choose {chosen[p]}", p)
    for p in (1, 2, 3):
        assert x.chosen[p] == [chosen[p]] and len(x.hand[p]) == 4
    assert x.phase == CARD and x.pending.players == (x.order[0],)
    first = x.order[0]
    assert isinstance(x.view(x.order[1])["zones"]["chosen"][first], int)   # still face down


def test_sell_a_card_for_one_gold():
    """Instead of playing it, the chosen card is discarded for 1 gold; then the basic action."""
    s = table()
    c = choose(s, 0, "柴田勝家")
    act(s, f"sell {c}")
    assert s.gold[0] == 6 and c in s.draft_discard and c not in s.domain[0]
    assert s.phase == BASIC and s.pending.players == (0,)
    assert events(s, "sold")[0]["card"] == c


def test_playing_a_card_pays_its_cost():
    """Playing pays the card's gold cost; a card you cannot afford can only be sold."""
    s = table()
    c = choose(s, 0, "柴田勝家")                        # cost 4
    assert legal(s) == {f"play {c}", f"sell {c}"}
    act(s, f"play {c}")
    assert s.gold[0] == 1 and c in s.domain[0] and s.phase == BASIC
    s = table()
    s.gold[0] = 3
    c = choose(s, 0, "柴田勝家")
    assert legal(s) == {f"sell {c}"}
    # a strategy resolves and is discarded
    s = table()
    c = choose(s, 0, "年貢の徴収")                      # cost 1, gain 3 gold
    act(s, f"play {c}")
    assert s.gold[0] == 5 - 1 + 3 and c in s.draft_discard


def test_hire_soldiers_at_home_for_one_gold_each():
    """hire K: at most 2, 1 gold each, placed in the home province."""
    s = table()
    home = province(s, "尾張")
    assert {a for a in legal(s) if a.startswith("hire")} == {"hire 1", "hire 2"}
    act(s, "hire 2")
    assert s.gold[0] == 3 and s.soldiers[home] == 5
    s = table()
    s.gold[0] = 1
    assert {a for a in legal(s) if a.startswith("hire")} == {"hire 1"}


def test_march_into_an_empty_province_takes_it():
    """march A B K: up to 2 soldiers to an adjacent province; an empty one is simply taken; a
    province left with no soldiers (not the home) is no longer held."""
    s = table()
    o = hold(s, 0, "尾張", 3)
    m = hold(s, -2, "美濃", 0)
    assert f"march {o} {m} 3" not in legal(s)
    act(s, f"march {o} {m} 2")
    assert s.owner[m] == 0 and s.soldiers[m] == 2 and s.soldiers[o] == 1
    s = table()
    mk = hold(s, 0, "三河", 1)
    m = hold(s, -2, "美濃", 0)
    act(s, f"march {mk} {m} 1")
    assert s.owner[mk] == -2 and s.owner[m] == 0


# =====================================================================================
# Battles and capture
# =====================================================================================

def test_battle_against_neutral_force_and_capture():
    """A march into a neutral force's province is a battle: attacker 1 die per soldier, the
    neutral force 1 per soldier, 5+ hits; the winner takes the province with its survivors."""
    s = table()
    o = hold(s, 0, "尾張", 3)
    m = province(s, "三河")
    assert s.owner[m] == -1 and s.soldiers[m] == 1
    s.rng = Dice([5, 2, 4])
    act(s, f"march {o} {m} 2")
    r = rolls(s)
    assert [(e["player"], len(e["faces"])) for e in r] == [(0, 2), (None, 1)]
    assert s.owner[m] == 0 and s.soldiers[m] == 2 and s.soldiers[o] == 1
    assert events(s, "captured")[0]["province"] == m
    assert s.battles_won == [1, 0, 0, 0]


def test_battle_against_neutral_force_repulsed():
    """Misses on 1-4: when the attacker no longer outnumbers, its survivors march back."""
    s = table()
    o = hold(s, 0, "尾張", 3)
    mino = province(s, "美濃")                          # 小大名 2
    s.rng = Dice([4, 4, 5, 1])
    act(s, f"march {o} {mino} 2")
    assert s.owner[mino] == -1 and s.soldiers[mino] == 2
    assert s.soldiers[o] == 2                           # 1 lost, 1 back
    assert events(s, "repulsed") and s.battles_won == [0, 0, 0, 0]


def test_battle_first_strike_rolls_first():
    """【先制】: that side rolls first and its hits land before the other rolls."""
    # attacker with 柿崎景家 (attack +2, 先制) wipes the defender before it rolls
    s = table()
    a, d = front(s, att=3, dfn=1)
    to_domain(s, 0, "柿崎景家")
    s.rng = Dice([5, 1, 1, 1])
    act(s, f"march {a} {d} 2")
    assert [(e["player"], len(e["faces"])) for e in rolls(s)] == [(0, 4)]
    assert s.owner[d] == 0 and s.soldiers[d] == 2
    # the defender with 先制 rolls first; the attacker's survivors roll after
    s = table()
    a, d = front(s, att=3, dfn=1)
    to_domain(s, 1, "柿崎景家")                          # defence +0, 先制
    s.rng = Dice([6, 6])
    act(s, f"march {a} {d} 2")
    assert [(e["player"], len(e["faces"])) for e in rolls(s)] == [(1, 1), (0, 1)]
    assert s.owner[d] == 0 and s.soldiers[d] == 1
    # without 先制 both roll
    s = table()
    a, d = front(s, att=3, dfn=1)
    s.rng = Dice([5, 1, 6])
    act(s, f"march {a} {d} 2")
    assert [(e["player"], len(e["faces"])) for e in rolls(s)] == [(0, 2), (1, 1)]
    assert s.owner[d] == 0 and s.soldiers[d] == 1


def test_battle_castle_gives_the_defender_one_more_die():
    """A 城 in the province: the defender rolls one more die."""
    for castle, def_dice in ((False, 1), (True, 2)):
        s = table()
        a, d = front(s, att=3, dfn=1)
        if castle:
            c = to_domain(s, 1, "城")
            s.castles[c] = d
        s.rng = Dice([1, 1] + [5] + [1] * (def_dice - 1))
        act(s, f"march {a} {d} 2")
        assert [len(e["faces"]) for e in rolls(s)] == [2, def_dice]
        assert s.owner[d] == 1 and s.soldiers[a] == 2   # repulsed, 1 survivor back


def test_playing_a_castle_builds_it_in_one_of_your_provinces():
    """A 城 is played onto one of your provinces; there it adds the defender's die."""
    s = table()
    mk = hold(s, 0, "三河", 1)
    c = choose(s, 0, "城")
    home = province(s, "尾張")
    assert legal(s) == {f"play {c} {home}", f"play {c} {mk}", f"sell {c}"}
    act(s, f"play {c} {mk}")
    assert s.castles == {c: mk} and c in s.domain[0] and s.gold[0] == 2


# =====================================================================================
# End of round: upkeep, income, VP, final scoring
# =====================================================================================

def test_upkeep_from_the_third_card_and_dismissal_when_unpaid():
    """Upkeep: each warlord or development from the 3rd costs 1 gold, paid before income; what
    cannot be paid is dismissed, cheapest first."""
    s = table()
    for name in ("柴田勝家", "前田利家", "山県昌景"):
        to_domain(s, 0, name)
    to_domain(s, 1, "馬場信春")
    to_domain(s, 1, "直江兼続")
    finish_round(s)
    assert s.gold[0] == 5 - 1 + 3 and s.gold[1] == 5 + 3
    s = table()
    cheap = to_domain(s, 0, "足利義昭")               # cost 1
    others = [to_domain(s, 0, n) for n in ("柴田勝家", "前田利家", "山県昌景")]
    s.gold[0] = 1                                     # due 2, pays 1
    finish_round(s)
    assert cheap not in s.domain[0] and cheap in s.draft_discard + s.draft_deck + [
        c for p in s.packets for c in p]
    assert all(c in s.domain[0] for c in others)
    assert s.gold[0] == 0 + 3
    assert [e["card"] for e in events(s, "dismissed")] == [cheap]


def test_income_and_vp_equal_the_kokuryoku_of_held_provinces():
    """At the round's end each player gains gold and VP equal to the 国力 of their provinces."""
    s = table()
    hold(s, 0, "三河", 1)                               # 尾張 3 + 三河 2
    hold(s, 1, "武蔵", 1)
    hold(s, 1, "相模", 1)                               # 甲斐 3 + 武蔵 2 + 相模 2
    hold(s, 2, "越後", 0)                               # home kept with no soldiers: 3
    s.owner[province(s, "駿河")] = -2                   # 今川 lost the home: nothing
    s.vp = [1, 0, 0, 0]
    finish_round(s)
    assert s.gold == [5 + 5, 5 + 7, 5 + 3, 5]
    assert s.vp == [1 + 5, 7, 3, 0]
    assert s.round == 3


def test_final_scoring_honours_and_vp_winner():
    """After round 4: each honour gives its VP to the leader(s) of its measure; most VP wins."""
    s = table()
    hold(s, 0, "美濃", 1)                               # seat 0: 2 provinces (3 + 2)
    to_domain(s, 1, "柴田勝家")                         # seat 1: most warlords
    to_domain(s, 2, "寺社")                             # seat 2: most developments (+1 VP income)
    s.vp = [0, 10, 8, 0]
    s.round = 4
    finish_round(s)
    assert s.phase == OVER and s.pending is None
    got = Counter()
    for e in events(s, "honour"):
        got[(s.card(e["card"]).name, e["player"])] += e["vp"]
    assert got == Counter({("天下人", 0): 3, ("名将", 1): 2, ("豪商", 0): 2, ("名君", 2): 2})
    # income: 5/3/3+1/3 VP; gold 10/8/8/8
    assert s.vp == [5 + 3 + 2, 10 + 3 + 2, 8 + 4 + 2, 3]
    assert s.outcome.winners == (1,)


def test_final_scoring_honour_ties_share():
    """Tied leaders of an honour's measure all gain its VP."""
    s = table()
    s.honours = [card(s, "天下人")]
    s.round = 4
    finish_round(s)
    assert sorted(e["player"] for e in events(s, "honour")) == [0, 1, 2, 3]
    assert s.vp == [6, 6, 6, 6]


def test_final_scoring_vp_tie_broken_by_gold_then_shared():
    """Equal VP: most gold wins; equal gold too: a shared win."""
    s = table()
    s.honours = []
    s.vp = [4, 4, 0, 0]
    s.gold = [2, 1, 9, 9]
    s.round = 4
    finish_round(s)
    assert s.vp == [7, 7, 3, 3] and s.outcome.winners == (0,)
    s = table()
    s.honours = []
    s.vp = [4, 4, 0, 0]
    s.gold = [2, 2, 9, 9]
    s.round = 4
    finish_round(s)
    assert s.outcome.winners == (0, 1)


# =====================================================================================
# Bad input
# =====================================================================================

def test_unknown_option_and_bad_player_count_are_refused():
    with pytest.raises(OptionError, match="unknown option 'colour'"):
        takujo.load("draft_daimyo", colour="red")
    with pytest.raises(OptionError, match="players"):
        takujo.load("draft_daimyo", players=5)


@pytest.mark.parametrize("text,player", [
    ("hire 3", 0),                                    # more than 2
    ("march 0 3 1", 0),                               # 尾張 is not next to 飛騨
    ("play 0", 0),                                    # not the card phase
    ("rest", 1),                                      # not seat 1's turn
    ("fly 1", 0),                                     # no such verb
])
def test_illegal_action_is_refused_and_changes_nothing(text, player):
    s = table()
    before = s.to_json()
    with pytest.raises(IllegalActionError):
        act(s, text, player)
    assert s.to_json() == before


def test_illegal_card_play_changes_nothing():
    s = table()
    s.gold[0] = 3
    c = choose(s, 0, "柴田勝家")
    before = s.to_json()
    with pytest.raises(IllegalActionError):
        act(s, f"play {c}")
    assert s.to_json() == before


def test_malformed_cards_toml_names_file_card_and_field(tmp_path):
    bad = tmp_path / "cards.toml"
    bad.write_text('[[card]]\nid = "bad_lord"\nname_ja = "悪"\ntype = "warlord"\ncost = 12\n',
                   encoding="utf-8")
    with pytest.raises(CardDataError) as err:
        takujo.load("draft_daimyo", cards=str(bad))
    msg = str(err.value)
    assert str(bad) in msg and "bad_lord" in msg and "'name_en'" in msg and "'cost'" in msg
    bad2 = tmp_path / "cards2.toml"
    bad2.write_text('[[card]]\nid = "odd"\nname_ja = "奇"\nname_en = "Odd"\ntype = "strategy"\n'
                    'play = {do = "teleport"}\n', encoding="utf-8")
    with pytest.raises(CardDataError) as err:
        takujo.load("draft_daimyo", cards=str(bad2))
    msg = str(err.value)
    assert str(bad2) in msg and "odd" in msg and "play" in msg and "teleport" in msg


def test_malformed_map_toml_names_file_province_and_field(tmp_path):
    text = MAP_FILE.read_text(encoding="utf-8")
    bad = tmp_path / "map.toml"
    bad.write_text(text.replace('id = "mino"\nname_ja = "美濃"\nname_en = "Mino"\nkokuryoku = 2',
                                'id = "mino"\nname_ja = "美濃"\nname_en = "Mino"\nkokuryoku = 9'), encoding="utf-8")
    with pytest.raises(CardDataError) as err:
        takujo.load("draft_daimyo", board=str(bad))
    msg = str(err.value)
    assert str(bad) in msg and "mino" in msg and "'kokuryoku'" in msg
    bad2 = tmp_path / "map2.toml"
    bad2.write_text(text.replace('adjacent = ["mino", "mikawa"]', 'adjacent = ["mino", "mikawa", "kai"]'),
                    encoding="utf-8")
    with pytest.raises(CardDataError) as err:
        takujo.load("draft_daimyo", board=str(bad2))
    msg = str(err.value)
    assert str(bad2) in msg and "owari" in msg and "'adjacent'" in msg and "kai" in msg
