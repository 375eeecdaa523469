"""Rule tests for 風帝伝説FIGHTER: game structure, setup, victory, turn, main phase, options and
bad input. Clause IDs are those of docs/rules/fuutei.md; the engine follows each Ambiguity
note's recommended reading.

Battle steps themselves (FTR-COMBAT, FTR-ATTACK, FTR-TAWAKE) are covered elsewhere; battles
here are only driven as far as a clause of this file needs.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import takujo
from takujo.core.decision import DecisionKind
from takujo.core.dice import Dice
from takujo.core.errors import CardDataError, IllegalActionError, OptionError
from takujo.games.fuutei import battle
from takujo.games.fuutei.cards import CARD_FILE, MAX_DICE, build_catalogue
from takujo.games.fuutei.state import ATTACK, BATTLE, HAND, MAIN, OVER, REASSIGN, SUPPORT

from .helpers import Scripted, act, card, legal, of_type, put, table, weak

TOTAL = 99
SEEDS = range(120)


# ----- local helpers ----------------------------------------------------------------------------
def kinds(s) -> list[str]:
    return [e["e"] for e in s.log]


def events(s, kind: str) -> list[dict]:
    return [e for e in s.log if e["e"] == kind]


def every_card(s) -> list[int]:
    """Every card instance in any zone (equipment is attached, so it lives in `host`)."""
    out = list(s.deck) + list(s.discard) + list(s.center) + list(s.stack) + list(s.host)
    for zones in (s.hands, s.supports, s.regions, s.party):
        for z in zones:
            out.extend(z)
    return out


def types(s, cards) -> list[str]:
    return [s.cat[c].type for c in cards]


def deck_top(s, *ids: str | int) -> list[int]:
    """Put cards on top of the deck; the last one given is drawn first."""
    return [put(s, c, deck_top=True) for c in ids]


def non_open(s, k: int) -> list[int]:
    """k plain character ids not otherwise used by these tests (from the weak end)."""
    chars = of_type(s, "character", exclude=("val", "aoi_kaze"))
    return chars[-k:]


def only_deck(s, cards: list[int]) -> None:
    """Leave exactly `cards` in the deck (in order, last drawn first); the rest is discarded."""
    rest = [c for c in s.deck if c not in cards]
    s.discard.extend(rest)
    s.deck = list(cards)


def to_attack(s, invader: int, region: int, dice: list[int]) -> None:
    """From the turn player's main phase: end it, invade, both sides play no battle support.

    `dice` starts with the two initiative rolls (invader, defender)."""
    s.rng = Scripted(dice)
    act(s, "end")
    assert s.phase == BATTLE
    act(s, f"invade {invader} {region}")
    assert s.phase == SUPPORT
    for p in list(s.battle.players):          # FTR-COMBAT-04/05: invader, then defender
        assert s.pending.players == (p,)
        act(s, "nosupport", p)
    assert s.phase == ATTACK


def finish_turn(s) -> None:
    """Take the simplest way out of the current player's turn (no holds, no invasions)."""
    p = s.turn_player
    while s.outcome is None and s.turn_player == p:
        options = legal(s)
        for choice in ("end", "pass", "done", "nosupport", "allow"):
            if choice in options:
                act(s, choice, s.pending.players[0])
                break
        else:
            act(s, sorted(options)[0], s.pending.players[0])


# ===== FTR-GOAL ===================================================================================
def test_ftr_goal_01_invading_increases_your_regions():
    """FTR-GOAL-01: the aim is to increase the regions you own: taking a region moves it (and
    its points) from the victim's area to the invader's."""
    s = table(players=3)
    aoi = put(s, "aoi_kaze", party=0)
    mine = put(s, "teito", region=0)
    theirs = put(s, "kiri_no_mori", region=1)
    before = (s.points(0), s.points(1))
    act(s, "end")
    act(s, f"invade {aoi} {theirs}")
    assert s.regions[0] == [mine, theirs] and s.regions[1] == []
    assert (s.points(0), s.points(1)) == (before[0] + 5, before[1] - 5)
    assert events(s, "gain_region")[-1] == {"e": "gain_region", "to": None, "player": 0,
                                             "region": theirs, "from_player": 1}


def test_ftr_goal_02_number_of_characters_is_limited():
    """FTR-GOAL-02 (see FTR-MAIN-04): after five characters, a sixth cannot be put into play."""
    s = table(players=3)
    chars = [put(s, weak(s, i), hand=0) for i in range(6)]
    for c in chars[:5]:
        act(s, f"play {c}")
    assert s.party[0] == chars[:5]
    assert f"play {chars[5]}" not in legal(s)
    with pytest.raises(IllegalActionError):
        act(s, f"play {chars[5]}")
    assert chars[5] in s.hands[0] and len(s.party[0]) == 5


def test_ftr_goal_03_a_defender_cannot_invade():
    """FTR-GOAL-03 (reading a): a character defending any region cannot be the invader; it is
    tested when the invasion is declared. The invader may then defend what it gained."""
    s = table(players=3)
    guard, free = put(s, weak(s, 0), party=0), put(s, weak(s, 1), party=0)
    home = put(s, "teito", region=0)
    target = put(s, "kiri_no_mori", region=1)
    act(s, f"guard {home} {guard}")
    act(s, "end")
    assert s.phase == BATTLE
    assert legal(s) == {f"invade {free} {target}", "pass"}
    before = s.to_json()
    with pytest.raises(IllegalActionError):
        act(s, f"invade {guard} {target}")
    assert s.to_json() == before
    # The free character invades and may then be assigned to defend the region it gained.
    act(s, f"invade {free} {target}")
    assert s.phase == REASSIGN
    assert f"guard {target} {free}" in legal(s)
    act(s, f"guard {target} {free}")
    assert s.guard[target] == free and s.guard[home] == guard


def test_ftr_goal_03_unguarding_frees_a_character_to_invade():
    """FTR-GOAL-03: the test is made at declaration: a character that stops defending in the
    main phase may invade."""
    s = table(players=3)
    c = put(s, weak(s, 0), party=0)
    home = put(s, "teito", region=0, )
    target = put(s, "kiri_no_mori", region=1)
    s.guard[home] = c
    act(s, f"unguard {home}")
    act(s, "end")
    assert f"invade {c} {target}" in legal(s)


# ===== FTR-PLAYERS ================================================================================
def test_ftr_players_01_two_or_more_players():
    """FTR-PLAYERS-01: two players is a legal game; one is refused."""
    s = takujo.load("fuutei", players=2).new_state(3)
    assert s.n == 2 and len(s.hands) == 2 and all(s.regions)
    with pytest.raises(OptionError, match="players"):
        takujo.load("fuutei", players=1)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_ftr_players_01_random_games_finish(n):
    """FTR-PLAYERS-01: games with 2..6 players run to an outcome through legal actions only."""
    game = takujo.load("fuutei", players=n)
    for seed in range(2):
        s = game.new_state(seed)
        pick = random.Random(seed * 10 + n)
        for _ in range(5000):
            if s.outcome is not None:
                break
            p = s.pending.players[0]
            s.apply(pick.choice(s.legal_actions(p)))
            assert sorted(every_card(s)) == list(range(TOTAL))
        assert s.outcome is not None and s.pending is None and s.legal_actions() == []
        assert s.outcome.reason in ("points", "deck_out", "yamiomaru")


def test_ftr_players_02_default_is_four_and_three_or_four_work():
    """FTR-PLAYERS-02: 3-4 players are recommended; the default game has 4 and both set up."""
    assert takujo.load("fuutei").players == 4
    assert takujo.load("fuutei").new_state(0).n == 4
    for n in (3, 4):
        s = takujo.load("fuutei", players=n).new_state(5)
        assert len(s.hands) == len(s.regions) == len(s.party) == n
        assert all(len(r) >= 1 for r in s.regions)
        assert str(s.game) == f"fuutei(players={n})"


def test_ftr_players_03_more_than_four_dice_is_bad_card_data(tmp_path):
    """FTR-PLAYERS-03: the game has four dice; an expression rolling more is refused as card
    data (the engine itself would roll any number)."""
    assert MAX_DICE == 4
    assert Dice.parse("4D+1", max_dice=MAX_DICE) == Dice(4, 1)
    with pytest.raises(ValueError):
        Dice.parse("5D", max_dice=MAX_DICE)
    assert Dice.parse("5D") == Dice(5, 0)   # no cap outside the card data
    path = mutated(tmp_path, "aoi_kaze", 'stats = ["2D+3",', 'stats = ["5D+3",')
    with pytest.raises(CardDataError) as err:
        build_catalogue(path)
    msg = str(err.value)
    assert str(path) in msg and "aoi_kaze" in msg and "'stats'" in msg and "5D+3" in msg
    # The built-in set keeps to four dice everywhere.
    cat = build_catalogue()
    for c in cat.cards:
        assert all(d.n <= MAX_DICE for d in (c.stats or ()))


def test_ftr_players_03_effect_dice_over_four_refused(tmp_path):
    """FTR-PLAYERS-03: the cap applies to dice in card effects too."""
    path = mutated(tmp_path, "shikaku", "dice = \"2D+1\"", "dice = \"6D\"")
    with pytest.raises(CardDataError) as err:
        build_catalogue(path)
    assert "shikaku" in str(err.value) and "effect" in str(err.value)


# ===== FTR-COMP / FTR-CARD ========================================================================
def test_ftr_comp_01_card_set_composition():
    """FTR-COMP-01: 49 characters, 12 equipment, 11 hold, 11 battle support, 2 tawake, 2 events,
    12 regions."""
    cat = build_catalogue()
    want = {"character": 49, "equipment": 12, "hold": 11, "battle_support": 11,
            "tawake": 2, "event": 2, "region": 12}
    assert {t: len(cat.of_type(t)) for t in want} == want


def test_ftr_comp_02_ninety_nine_cards_in_play_and_deck():
    """FTR-COMP-02: 99 cards in total, and a new game uses every one of them exactly once."""
    cat = build_catalogue()
    assert len(cat) == TOTAL and [c.iid for c in cat.cards] == list(range(TOTAL))
    s = takujo.load("fuutei").new_state(11)
    assert sorted(every_card(s)) == list(range(TOTAL))


def test_ftr_card_01_characters_have_no_type_line_fields():
    """FTR-CARD-01: a character's card carries stats (no effect, bonus or points); every other
    card is typed by its bottom row."""
    cat = build_catalogue()
    for c in cat.cards:
        if c.type == "character":
            assert c.stats is not None and len(c.stats) == 4 and c.spec.sex in ("male", "female")
            assert c.effect is None and c.spec.points is None and c.spec.bonus is None
        else:
            assert c.type in ("equipment", "hold", "battle_support", "tawake", "event", "region")
    # a character in hand can be played as a character; a hold cannot
    s = table()
    ch, hold = put(s, weak(s), hand=0), put(s, "hokyu", hand=0)
    assert f"play {ch}" in legal(s) and f"play {hold}" not in legal(s)


def test_ftr_card_02_stat_order_on_characters_and_temporaries():
    """FTR-CARD-02: top row = physical attack, physical defence, magic attack, magic defence,
    also on 邪雷王シーザーハルト and 冥頂魔天エクスジード."""
    s = table()
    aoi = put(s, "aoi_kaze", party=0)
    P, PD, M, MD = battle.PHYS_ATK, battle.PHYS_DEF, battle.MAG_ATK, battle.MAG_DEF
    assert [battle.stat_dice(s, aoi, i) for i in (P, PD, M, MD)] == [
        Dice(2, 3), Dice(0, 11), Dice(2, 2), Dice(0, 11)]
    jar = card(s, "jaraio_shizaharuto")
    exs = card(s, "meicho_maten_ekusujido")
    assert [battle.stat_dice(s, jar, i) for i in (P, PD, M, MD)] == [
        Dice(3, 2), Dice(0, 12), Dice(3, 0), Dice(0, 11)]
    assert [battle.stat_dice(s, exs, i) for i in (P, PD, M, MD)] == [
        Dice(2, 3), Dice(0, 11), Dice(3, 2), Dice(0, 12)]


@pytest.mark.parametrize("kind, faces, total, defence, defeated", [
    ("mag", [4, 4], 10, 9, True),     # magic: 2D+2 (3rd value) against magic defence 9 (4th)
    ("phys", [4, 3], 10, 11, False),  # physical: 2D+3 (1st value) against physical defence 11
])
def test_ftr_card_02_attacks_use_matching_stats(kind, faces, total, defence, defeated):
    """FTR-CARD-02: a physical attack rolls the 1st value against the 2nd, a magic attack the
    3rd against the 4th (白銀の騎士エドガー: 2D+1 / 11 / 1D / 9)."""
    s = table(players=2)
    aoi = put(s, "aoi_kaze", party=0)
    edgar = put(s, "hakugin_no_kishi_edgar", party=1)
    r = put(s, "kiri_no_mori", region=1)
    s.guard[r] = edgar
    to_attack(s, aoi, r, [6, 1] + faces + [1, 1])
    act(s, f"attack {kind}")
    hit = events(s, "attack")[0]
    assert (hit["total"], hit["defence"], hit["defeated"]) == (total, defence, defeated)
    assert (edgar in s.discard) is defeated


def test_ftr_card_03_dice_notation():
    """FTR-CARD-03: D is a six-sided die; nD+m is the sum of n dice plus m (2D+3 = 2 dice + 3)."""
    d = Dice.parse("2D+3")
    assert d == Dice(2, 3) and str(d) == "2D+3"
    assert d.roll(Scripted([4, 6])) == (13, (4, 6))
    assert d.roll(Scripted([1, 1])) == (5, (1, 1))
    assert Dice.parse("D") == Dice(1, 0) and Dice.parse("D").roll(Scripted([5])) == (5, (5,))
    assert Dice.parse("３Ｄ＋１") == Dice(3, 1)
    assert Dice.parse("1D-1").roll(Scripted([3])) == (2, (3,))
    assert Dice.parse("11") == Dice(0, 11) and Dice.parse(9).roll(Scripted([])) == (9, ())
    for bad in ("2X+1", "", "0D", "D3", "2D+", "DD"):
        with pytest.raises(ValueError):
            Dice.parse(bad)


def test_ftr_card_03_card_stats_parse_as_dice_and_roll_in_battle():
    """FTR-CARD-03: 蒼い風's printed "2D+3" is rolled as two dice + 3 in an attack."""
    s = table(players=2)
    aoi = put(s, "aoi_kaze", party=0)
    assert s.cat[aoi].stats[0] == Dice(2, 3)
    volga = put(s, "gokuen_masho_volga", party=1)   # physical defence 12
    r = put(s, "kiri_no_mori", region=1)
    s.guard[r] = volga
    to_attack(s, aoi, r, [6, 1, 5, 4, 1, 1, 1])
    act(s, "attack phys")
    hit = events(s, "attack")[0]
    roll = [e for e in s.log if e["e"] == "roll" and e["why"] == "phys_attack"][0]
    assert roll["dice"] == "2D+3" and roll["faces"] == [5, 4] and roll["total"] == 12
    assert hit["total"] == 12 and hit["defence"] == 12 and hit["defeated"]


def test_ftr_card_04_equipment_adds_to_stats():
    """FTR-CARD-04 (and FTR-STACK-02): equipment values are added to the matching stats;
    オリオン七神器 + 風陣王 give physical attack +8."""
    s = table()
    aoi = put(s, "aoi_kaze", party=0)
    orion, fujin, shield = (put(s, x, hand=0)
                            for x in ("orion_shichijingi", "fujin_o", "kishi_no_tate"))
    act(s, f"equip {orion} {aoi}")
    act(s, f"equip {fujin} {aoi}")
    act(s, f"equip {shield} {aoi}")        # +0 / +2 / +0 / +1
    got = [battle.stat_dice(s, aoi, i) for i in range(4)]
    assert got == [Dice(2, 3 + 8), Dice(0, 11 + 2), Dice(2, 2), Dice(0, 11 + 1)]


def test_ftr_card_04_equipment_bonus_counts_in_an_attack():
    """FTR-CARD-04: with +8 physical attack, a roll of 1+1 beats physical defence 12."""
    s = table(players=2)
    aoi = put(s, "aoi_kaze", party=0)
    put(s, "orion_shichijingi", equip_to=aoi)
    put(s, "fujin_o", equip_to=aoi)
    volga = put(s, "gokuen_masho_volga", party=1)
    r = put(s, "kiri_no_mori", region=1)
    s.guard[r] = volga
    to_attack(s, aoi, r, [6, 1, 1, 1])
    act(s, "attack phys")
    hit = events(s, "attack")[0]
    assert (hit["total"], hit["defence"], hit["defeated"]) == (1 + 1 + 3 + 8, 12, True)
    assert volga in s.discard and r in s.regions[0]


# ===== FTR-SETUP ==================================================================================
def _setups():
    for n in (2, 3, 4, 5, 6):
        game = takujo.load("fuutei", players=n)
        for seed in SEEDS:
            yield n, seed, game.new_state(seed)


SETUPS = list(_setups())


def _dealt(s) -> dict[int, list[int]]:
    return {e["player"]: e["cards"] for e in events(s, "dealt")}


def test_ftr_setup_01_one_region_each_at_random():
    """FTR-SETUP-01: as many regions as players are taken at random, one to each area."""
    firsts = set()
    for n, seed, s in SETUPS:
        setup = events(s, "region_setup")
        assert [e["player"] for e in setup] == list(range(n))
        assert len({e["card"] for e in setup}) == n
        for e in setup:
            assert s.cat[e["card"]].type == "region" and e["card"] in s.regions[e["player"]]
        assert all(len(r) >= 1 for r in s.regions)
        firsts.add(setup[0]["card"])
    assert len(firsts) > 6   # random, not always the same region


def test_ftr_setup_02_remaining_regions_shuffled_into_deck():
    """FTR-SETUP-02: every other card, the remaining regions included, is shuffled into one
    draw pile."""
    orders = set()
    for n, seed, s in SETUPS:
        deck_shuffle = [e for e in s.log if e["e"] == "shuffle" and e["what"] == "deck"][0]
        setup = {e["card"] for e in events(s, "region_setup")}
        assert sorted(deck_shuffle["order"]) == sorted(set(range(TOTAL)) - setup)
        assert types(s, deck_shuffle["order"]).count("region") == 12 - n
        orders.add(tuple(deck_shuffle["order"][:10]))
        # every region is in an area, in the deck or in the centre
        regions = [r for rs in s.regions for r in rs] + s.center + [
            c for c in s.deck if s.cat[c].type == "region"]
        assert sorted(regions) == sorted(s.cat.of_type("region"))
    assert len(orders) == len(SETUPS)


def test_ftr_setup_03_five_card_hands_rest_is_the_pile():
    """FTR-SETUP-03: each player is dealt 5 cards; the rest form the draw pile (seat 0 has then
    drawn its first card)."""
    for n, seed, s in SETUPS:
        dealt = _dealt(s)
        assert sorted(dealt) == list(range(n))
        assert all(len(h) == 5 for h in dealt.values())
        if not events(s, "event"):            # seat 0's first draw may be an event (強制)
            for p in range(1, n):
                assert s.hands[p] == dealt[p]
        extra = len(events(s, "setup_region"))
        # 99 - n setup regions - 5n hands - one per region kept at setup - seat 0's first draw
        assert len(s.deck) == TOTAL - n - 5 * n - extra - 1
        assert sorted(every_card(s)) == list(range(TOTAL))


def test_ftr_setup_04_event_in_hand_is_shuffled_back_and_replaced():
    """FTR-SETUP-04: an event in a dealt hand goes back into the pile, which is shuffled, and
    the player draws a replacement."""
    found = 0
    for n, seed, s in SETUPS:
        for i, e in enumerate(s.log):
            if e["e"] != "setup_event_returned":
                continue
            found += 1
            ev, p = e["card"], e["player"]
            assert s.cat[ev].type == "event"
            assert s.log[i - 1]["e"] == "shuffle" and s.log[i - 1]["what"] == "deck"
            assert ev in s.log[i - 1]["order"]
            assert ev not in _dealt(s)[p] and len(_dealt(s)[p]) == 5
            assert not any(ev in h for h in s.hands)
            assert ev in s.deck or ev in s.discard    # seat 0's first draw may have opened it
    assert found >= 20


def test_ftr_setup_05_region_in_hand_is_kept_and_replaced():
    """FTR-SETUP-05: a region in a dealt hand goes to that player's own area (owned) and the
    player draws a replacement."""
    found = 0
    for n, seed, s in SETUPS:
        for e in events(s, "setup_region"):
            found += 1
            r, p = e["card"], e["player"]
            assert s.cat[r].type == "region"
            assert r in s.regions[p] and r not in s.center and s.region_owner(r) == p
            assert len(_dealt(s)[p]) == 5 and r not in _dealt(s)[p]
        kept = {}
        for e in events(s, "setup_region"):
            kept[e["player"]] = kept.get(e["player"], 0) + 1
        for p in range(n):
            assert len(s.regions[p]) == 1 + kept.get(p, 0)
    assert found >= 100


def test_ftr_setup_06_no_open_card_stays_in_a_hand():
    """FTR-SETUP-06: after setup no hand holds an event or a region (repeated until none)."""
    repeated = 0
    for n, seed, s in SETUPS:
        for p, cards in _dealt(s).items():
            assert not {"event", "region"} & set(types(s, cards))
        for h in s.hands:
            assert not {"event", "region"} & set(types(s, h))
        per_player = {}
        for e in s.log:
            if e["e"] in ("setup_event_returned", "setup_region"):
                per_player[e["player"]] = per_player.get(e["player"], 0) + 1
        repeated += any(v > 1 for v in per_player.values())
    assert repeated > 0   # some hands needed more than one replacement


def test_ftr_setup_06_repeats_until_the_hand_is_clean():
    """FTR-SETUP-06 (recommended reading): a replacement that is again an open card is dealt
    with too, until the hand is clean (a seed where seat 0 needs two replacements)."""
    game = takujo.load("fuutei", players=2)
    # find a seed where player 0 needs at least two replacements
    for seed in range(2000):
        s = game.new_state(seed)
        first = [e for e in s.log if e["e"] in ("setup_event_returned", "setup_region")
                 and e["player"] == 0]
        if len(first) >= 2:
            break
    else:
        pytest.fail("no seed with two replacements for one player")
    assert not {"event", "region"} & set(types(s, _dealt(s)[0]))
    assert len(_dealt(s)[0]) == 5


def test_ftr_setup_07_seat_zero_starts_then_clockwise():
    """FTR-SETUP-07: player 1 (seat 0) takes the first turn; play passes clockwise."""
    for n, seed, s in SETUPS[::37]:
        assert s.turn_player == 0 and s.turn == 1 and s.phase == MAIN
        assert s.turns_taken == [1] + [0] * (n - 1)
        assert events(s, "turn")[0]["player"] == 0
        assert s.pending.players == (0,)
    s = takujo.load("fuutei", players=3).new_state(4)
    for _ in range(4):
        finish_turn(s)
    assert [e["player"] for e in events(s, "turn")] == [0, 1, 2, 0, 1]


# ===== FTR-WIN ====================================================================================
def _forty(s, extra: str):
    """p0 owns 34 points (9+9+8+8); p1 owns region `extra`, undefended; p0's 蒼い風 is free."""
    aoi = put(s, "aoi_kaze", party=0)
    for r in ("fuutei_no_shinden", "teito", "kodai_iseki_rune", "tenkuu_kairou"):
        put(s, r, region=0)
    assert s.points(0) == 34
    target = put(s, extra, region=1)
    return aoi, target


def test_ftr_win_01_02_forty_points_wins_at_once():
    """FTR-WIN-01, FTR-WIN-02: reaching 40 points wins immediately, in mid-turn; the game is
    then over and refuses every action."""
    s = table(players=3)
    aoi, target = _forty(s, "hakugin_no_setsugen")     # 6 points -> exactly 40
    act(s, "end")
    act(s, f"invade {aoi} {target}")
    assert s.points(0) == 40
    assert s.outcome is not None and s.outcome.winners == (0,) and s.outcome.reason == "points"
    assert s.outcome.scores == (40, 0, 0)
    assert s.phase == OVER and s.pending is None and s.legal_actions() == []
    assert events(s, "game_over")[-1]["winners"] == [0]
    with pytest.raises(IllegalActionError):
        act(s, "done", 0)


def test_ftr_win_02_more_than_forty_also_wins():
    """FTR-WIN-02: "collect 40 points" is at least 40."""
    s = table(players=3)
    aoi, target = _forty(s, "madou_gakuin_toshi")      # 7 points -> 41
    act(s, "end")
    act(s, f"invade {aoi} {target}")
    assert s.outcome.winners == (0,) and s.points(0) == 41


def test_ftr_win_02_thirty_nine_is_not_enough():
    """FTR-WIN-02: 39 points with four or fewer players does not win; play goes on."""
    s = table(players=4)
    aoi, target = _forty(s, "kiri_no_mori")            # 5 points -> 39
    act(s, "end")
    act(s, f"invade {aoi} {target}")
    assert s.points(0) == 39 and s.outcome is None
    assert s.phase == REASSIGN and s.pending.players == (0,)


def test_ftr_win_02_region_claimed_by_effect_also_checked():
    """FTR-WIN-02: the check is made whenever a total changes, also through a card effect."""
    s = table(players=3)
    _forty(s, "henkyo_no_mura")
    centre = put(s, "hakugin_no_setsugen", center=True)
    k = put(s, "kaitaku", hand=0)
    act(s, f"hold {k} {centre}")
    assert s.outcome is not None and s.outcome.winners == (0,) and s.points(0) == 40


@pytest.mark.parametrize("players, wins", [(5, True), (6, True), (4, False), (3, False)])
def test_ftr_win_03_thirty_points_with_five_or_more(players, wins):
    """FTR-WIN-03: with five or more players 30 points win; with fewer they do not."""
    s = table(players=players)
    aoi = put(s, "aoi_kaze", party=0)
    for r in ("fuutei_no_shinden", "teito", "kodai_iseki_rune"):
        put(s, r, region=0)
    target = put(s, "henkyo_no_mura", region=1)
    assert s.points(0) == 26
    assert s.threshold() == (30 if players >= 5 else 40)
    act(s, "end")
    act(s, f"invade {aoi} {target}")
    assert s.points(0) == 30
    assert (s.outcome is not None) is wins
    if wins:
        assert s.outcome.winners == (0,) and s.outcome.reason == "points"


@pytest.mark.parametrize("options", [{"players": 4}, {"players": 5, "old_region_rule": True}])
def test_ftr_win_01_03_05_no_victory_is_missed_in_random_play(options):
    """FTR-WIN-01..03, 05: victories are looked for only after regions, the centre or
    equipment changed; whenever a random game goes on, a full check on a copy finds no
    victory either, and the games do end by points."""
    game = takujo.load("fuutei", **options)
    rng = random.Random(5)
    reasons = []
    for seed in range(12):
        s = game.new_state(seed)
        while s.outcome is None:
            pend, choices = s.first_choice()
            s.apply_unchecked(rng.choice(choices), pend)
            if s.outcome is None:
                probe = s.clone()
                probe.check_victory()
                assert probe.outcome is None, f"seed {seed} step {s.steps}: a victory was missed"
        reasons.append(s.outcome.reason)
    assert "points" in reasons


def _deck_out_table(players: int = 3, **options):
    s = table(players=players, **options)
    put(s, "teito", region=0)                 # 9
    put(s, "fuutei_no_shinden", region=1)     # 9
    put(s, "henkyo_no_mura", region=2)        # 4
    last = non_open(s, 1)[0]
    only_deck(s, [last])
    return s, last


def test_ftr_win_04_deck_out_at_end_of_the_turn_the_pile_ran_out_shared_on_tie():
    """FTR-WIN-04 (reading a): the pile runs out in player 1's draw; play goes on to the end of
    that turn, then the highest total wins; a tie is a shared win."""
    s, last = _deck_out_table()
    act(s, "end")                                  # player 0's turn ends normally
    assert s.turn_player == 1 and s.deck == [] and last in s.hands[1]
    assert s.pile_emptied and s.outcome is None
    assert s.phase == MAIN and s.pending.players == (1,)
    act(s, "end")                                  # end of the turn in which it ran out
    assert s.outcome is not None
    assert s.outcome.reason == "deck_out" and s.outcome.winners == (0, 1)
    assert s.outcome.scores == (9, 9, 4)
    assert s.turn_player == 1 and events(s, "turn")[-1]["player"] == 1


def test_ftr_win_04_deck_out_single_winner():
    """FTR-WIN-04: the single highest total wins the deck-out."""
    s, last = _deck_out_table()
    put(s, "kiri_no_mori", region=2)
    put(s, "sajin_no_kouya", region=2)             # player 2: 4 + 5 + 5 = 14
    act(s, "end")
    act(s, "end")
    assert s.outcome.winners == (2,) and s.outcome.reason == "deck_out"


def test_ftr_win_04_pile_emptied_by_a_card_ends_that_turn():
    """FTR-WIN-04: the pile running out through a card draw in the main phase ends the game at
    the end of the same turn."""
    s = table(players=3)
    put(s, "teito", region=2)
    a, b = non_open(s, 2)
    only_deck(s, [a, b])
    h = put(s, "hokyu", hand=0)
    act(s, f"hold {h}")
    assert s.deck == [] and {a, b} <= set(s.hands[0]) and s.outcome is None
    act(s, "end")
    assert s.outcome is not None and s.outcome.reason == "deck_out"
    assert s.outcome.winners == (2,) and s.turn_player == 0


def test_ftr_win_04_failed_draw_option():
    """FTR-WIN-04, option deck_out=failed_draw (reading b): the game ends at the end of the
    turn whose draw found the pile empty, not the turn that emptied it."""
    s, last = _deck_out_table(deck_out="failed_draw")
    act(s, "end")
    assert s.turn_player == 1 and s.deck == []
    act(s, "end")
    assert s.outcome is None and s.turn_player == 2
    assert events(s, "empty_draw")[-1]["player"] == 2 and s.pending.players == (2,)
    act(s, "end")
    assert s.outcome is not None and s.outcome.reason == "deck_out"
    assert s.outcome.winners == (0, 1)


def test_ftr_win_05_yamiomaru_and_no_regions_anywhere_wins():
    """FTR-WIN-05: a character of yours carrying 闇王丸 while no region card is in play wins."""
    s = table(players=3)
    c = put(s, weak(s), party=0)
    y = put(s, "yamiomaru", hand=0)
    act(s, f"equip {y} {c}")
    assert s.outcome is not None and s.outcome.winners == (0,)
    assert s.outcome.reason == "yamiomaru"


def test_ftr_win_05_destroying_the_last_region_wins():
    """FTR-WIN-05: the win comes as soon as the last region leaves play."""
    s = table(players=3)
    c = put(s, weak(s), party=0)
    put(s, "yamiomaru", equip_to=c)
    last = put(s, "kiri_no_mori", region=1)
    burn = put(s, "shodo_sakusen", hand=0)
    s.check_victory()
    assert s.outcome is None
    act(s, f"hold {burn} {last}")
    assert last in s.discard
    assert s.outcome is not None and s.outcome.winners == (0,) and s.outcome.reason == "yamiomaru"


def test_ftr_win_05_holder_wins_even_on_another_players_turn():
    """FTR-WIN-05: the holder of 闇王丸 wins, whoever removed the last region."""
    s = table(players=3)
    c = put(s, weak(s), party=2)
    put(s, "yamiomaru", equip_to=c)
    last = put(s, "kiri_no_mori", region=1)
    burn = put(s, "shodo_sakusen", hand=0)
    act(s, f"hold {burn} {last}")
    assert s.outcome.winners == (2,)


@pytest.mark.parametrize("where", ["center", "other_area", "own_area"])
def test_ftr_win_05_any_region_in_play_blocks_it(where):
    """FTR-WIN-05 (reading a): a region in the centre, or in any area, prevents the win."""
    s = table(players=3)
    c = put(s, weak(s), party=0)
    if where == "center":
        put(s, "kiri_no_mori", center=True)
    elif where == "other_area":
        put(s, "kiri_no_mori", region=1)
    else:
        put(s, "kiri_no_mori", region=0)
    y = put(s, "yamiomaru", hand=0)
    act(s, f"equip {y} {c}")
    assert s.outcome is None and s.host[y] == c


def test_ftr_win_05_centre_region_left_after_destroying_the_last_owned_one():
    """FTR-WIN-05: burning the last owned region while one waits in the centre is no win."""
    s = table(players=3)
    c = put(s, weak(s), party=0)
    put(s, "yamiomaru", equip_to=c)
    last = put(s, "kiri_no_mori", region=1)
    put(s, "sajin_no_kouya", center=True)
    burn = put(s, "shodo_sakusen", hand=0)
    act(s, f"hold {burn} {last}")
    assert s.outcome is None and last in s.discard


# ===== FTR-PERSIST ================================================================================
def test_ftr_persist_01_hold_is_discarded_after_use():
    """FTR-PERSIST-01: a hold card is single-use: after its effect it is in the discard pile."""
    s = table(players=3)
    a, b = deck_top(s, *non_open(s, 2))
    h = put(s, "hokyu", hand=0)
    act(s, f"hold {h}")
    assert h in s.discard and h not in s.hands[0] and h not in s.stack
    assert {a, b} <= set(s.hands[0])


def test_ftr_persist_01_tawake_and_negated_hold_are_discarded():
    """FTR-PERSIST-01: a tawake card is single-use too; the hold it negates is discarded."""
    s = table(players=3)
    deck_top(s, *non_open(s, 2))
    h = put(s, "hokyu", hand=0)
    t = put(s, "tawake", hand=1)
    act(s, f"hold {h}")
    assert s.pending.kind is DecisionKind.RESPONSE and s.pending.players == (1,)
    act(s, f"tawake {t}", 1)
    assert h in s.discard and t in s.discard and s.hands[0] == [] and s.hands[1] == []
    assert s.stack == [] and s.phase == MAIN


def test_ftr_persist_01_battle_support_is_discarded_after_the_battle():
    """FTR-PERSIST-01: a battle support card is single-use: discarded when the battle ends."""
    s = table(players=2)
    aoi = put(s, "aoi_kaze", party=0)
    volga = put(s, "gokuen_masho_volga", party=1)
    r = put(s, "kiri_no_mori", region=1)
    s.guard[r] = volga
    sup = put(s, "chikara_no_gofu", hand=0)
    deck_top(s, *non_open(s, 1))
    s.rng = Scripted([6, 1, 3, 2, 1, 1, 1])
    act(s, "end")
    act(s, f"invade {aoi} {r}")
    act(s, f"support {sup}", 0)
    act(s, "nosupport", 1)
    assert sup in s.stack and s.phase == ATTACK
    act(s, "attack phys")                  # 3+2+3+3 = 11 < 12
    act(s, "attack phys")                  # 1+1+1 = 3 < 11
    assert s.battle is None and sup in s.discard and s.stack == []


def test_ftr_persist_02_characters_equipment_regions_stay_in_play():
    """FTR-PERSIST-02: characters, equipment and regions stay across turns until removed."""
    s = table(players=3)
    aoi = put(s, "aoi_kaze", party=0)
    sword = put(s, "orion_shichijingi", equip_to=aoi)
    home = put(s, "teito", region=0)
    s.guard[home] = aoi
    deck_top(s, *non_open(s, 3))
    for _ in range(3):
        finish_turn(s)
    assert s.turn_player == 0 and s.turns_taken == [3, 3, 3]
    assert s.party[0] == [aoi] and s.host == {sword: aoi}
    assert s.regions[0] == [home] and s.guard == {home: aoi}


def test_ftr_persist_02_event_is_discarded_once_resolved():
    """FTR-PERSIST-02 (ambiguity: events): an event is a one-shot card, discarded after it is
    followed."""
    s = table(players=3)
    ev = put(s, "tenpen_chii", deck_top=True)
    act(s, "end")
    assert ev in s.discard and not any(ev in h for h in s.hands)


# ===== FTR-TURN / FTR-DRAW ========================================================================
def test_ftr_turn_01_draw_main_battle_hand_in_order():
    """FTR-TURN-01: a turn is draw → main → battle → hand adjustment, then the next turn."""
    s = table(players=3)
    aoi = put(s, "aoi_kaze", party=0)
    target = put(s, "kiri_no_mori", region=1)
    hand = [put(s, c, hand=0) for c in non_open(s, 6)]
    nxt = deck_top(s, weak(s, 0))[0]
    assert s.phase == MAIN
    act(s, "end")
    assert s.phase == BATTLE and f"invade {aoi} {target}" in legal(s)
    act(s, "pass")
    assert s.phase == HAND and s.turn_player == 0
    act(s, f"discard {hand[0]}")
    # player 1's turn: the draw comes first, then the main phase
    assert s.turn_player == 1 and s.phase == MAIN
    after = kinds(s)[kinds(s).index("turn"):]
    assert after[:2] == ["turn", "draw"] and "act" not in after
    assert nxt in s.hands[1]


def test_ftr_turn_01_battle_phase_skipped_when_nobody_can_invade():
    """FTR-TURN-01: with no possible invasion the battle phase passes straight on."""
    s = table(players=3)
    deck_top(s, *non_open(s, 1))
    act(s, "end")
    assert s.turn_player == 1 and s.phase == MAIN


def test_ftr_draw_01_draw_one_card_from_the_pile():
    """FTR-DRAW-01: the draw phase draws exactly the top card of the pile."""
    s = table(players=3)
    under, top = deck_top(s, *non_open(s, 2))
    size = len(s.deck)
    act(s, "end")
    assert s.hands[1] == [top] and s.deck[-1] == under and len(s.deck) == size - 1
    draw = events(s, "draw")[-1]
    assert draw["player"] == 1 and draw["card"] == top and draw["to"] == [1]


def test_ftr_draw_02_event_is_revealed_followed_and_discarded_without_replacement():
    """FTR-DRAW-02: a drawn event is revealed and obeyed (天変地異 discards the centre's
    regions), then discarded; no replacement card is drawn."""
    s = table(players=3)
    centre = put(s, "kiri_no_mori", center=True)
    under = deck_top(s, weak(s, 3))[0]
    ev = put(s, "tenpen_chii", deck_top=True)
    act(s, "end")
    assert s.turn_player == 1
    assert events(s, "event")[-1] == {"e": "event", "to": None, "player": 1, "card": ev}
    assert centre in s.discard and s.center == [] and ev in s.discard
    assert s.hands[1] == [] and s.deck[-1] == under


def test_ftr_draw_02_event_drawn_by_a_card_is_resolved_too():
    """FTR-DRAW-02 (ambiguity 2): an event drawn by a card effect is revealed and obeyed too."""
    s = table(players=3)
    centre = put(s, "kiri_no_mori", center=True)
    other = deck_top(s, weak(s, 3))[0]
    ev = put(s, "tenpen_chii", deck_top=True)
    h = put(s, "hokyu", hand=0)
    act(s, f"hold {h}")
    assert s.hands[0] == [other] and ev in s.discard and centre in s.discard


def test_ftr_draw_03_region_drawn_goes_to_the_centre():
    """FTR-DRAW-03: a region drawn after setup is revealed and placed in the centre, owned by
    nobody."""
    s = table(players=3)
    r = put(s, "teito", deck_top=True)
    act(s, "end")
    assert s.turn_player == 1 and s.center == [r]
    assert s.hands[1] == [] and s.regions[1] == [] and s.points(1) == 0
    assert s.region_owner(r) == -1
    drawn = events(s, "region_drawn")[-1]
    assert drawn["to"] is None and drawn["player"] == 1 and drawn["dest"] == "center"
    view = s.view(2)                       # public: every player sees it and the event
    seq = s.log.index(drawn)               # views number their events by log position
    assert view["zones"]["center"] == [r] and {**drawn, "seq": seq} in view["log"]
    assert {**drawn, "seq": seq} in s.events_for(2, 0)


def test_ftr_draw_03_region_drawn_by_a_card_goes_to_the_centre():
    """FTR-DRAW-03: this holds for every region drawn after setup, by a card effect too."""
    s = table(players=3)
    a = deck_top(s, weak(s, 3))[0]
    r = put(s, "teito", deck_top=True)
    h = put(s, "hokyu", hand=0)
    act(s, f"hold {h}")
    assert s.center == [r] and s.hands[0] == [a] and s.regions[0] == []


def test_ftr_change_01_old_region_rule_option_gives_it_to_the_drawer():
    """FTR-CHANGE-01: the only change from the old rules is FTR-DRAW-03; option
    old_region_rule=true restores the old handling (the drawer keeps the region)."""
    s = table(players=3, old_region_rule=True)
    r = put(s, "teito", deck_top=True)
    act(s, "end")
    assert s.regions[1] == [r] and s.center == [] and s.points(1) == 9
    assert events(s, "region_drawn")[-1]["dest"] == "own"
    # default game: to the centre (see FTR-DRAW-03); the option shows in the game string
    assert str(s.game) == "fuutei(players=3,old_region_rule=true)"
    assert takujo.load("fuutei", players=3).options.old_region_rule is False


def test_ftr_change_01_old_rule_draw_can_win():
    """FTR-CHANGE-01 with the old rule: a region drawn into your area counts at once."""
    s = table(players=3, old_region_rule=True)
    for r in ("fuutei_no_shinden", "teito", "kodai_iseki_rune", "tenkuu_kairou"):
        put(s, r, region=1)
    put(s, "hakugin_no_setsugen", deck_top=True)
    act(s, "end")
    assert s.outcome is not None and s.outcome.winners == (1,) and s.points(1) == 40


# ===== FTR-MAIN ===================================================================================
def test_ftr_main_01_actions_in_any_order_many_times():
    """FTR-MAIN-01: play, equip, guard, reassign and holds mix freely and repeat in one main
    phase."""
    s = table(players=3)
    c1, c2, c3 = (put(s, weak(s, i), hand=0) for i in range(3))
    e1, e2 = put(s, "hagane_no_tsurugi", hand=0), put(s, "hagane_no_tsurugi", hand=0, nth=1)
    r1, r2 = put(s, "teito", region=0), put(s, "kiri_no_mori", region=0)
    deck_top(s, *non_open(s, 2))
    h = put(s, "hokyu", hand=0)
    for step in (f"play {c1}", f"guard {r1} {c1}", f"equip {e1} {c1}", f"play {c2}",
                 f"hold {h}", f"guard {r1} {c2}", f"equip {e2} {c1}", f"guard {r2} {c1}",
                 f"play {c3}", f"unguard {r2}", f"guard {r2} {c3}"):
        assert step in legal(s), step
        act(s, step)
        assert s.phase == MAIN and s.turn_player == 0
    assert s.party[0] == [c1, c2, c3]
    assert s.guard == {r1: c2, r2: c3} and s.host == {e1: c1, e2: c1}
    assert "end" in legal(s)


def test_ftr_main_02_03_put_a_character_into_your_party():
    """FTR-MAIN-02, FTR-MAIN-03: a character from the hand goes, free of cost, into your own
    area; the characters there are your party."""
    s = table(players=3)
    c = put(s, weak(s), hand=0)
    other = put(s, weak(s, 1), hand=0)
    act(s, f"play {c}")
    assert s.party[0] == [c] and c not in s.hands[0] and s.hands[0] == [other]
    assert s.party_size(0) == 1 and s.owner_of(c) == 0 and s.party[1] == []
    assert events(s, "play")[-1]["card"] == c
    # only from your own hand
    theirs = put(s, weak(s, 2), hand=1)
    with pytest.raises(IllegalActionError):
        act(s, f"play {theirs}")


def test_ftr_main_04_party_of_five_refuses_a_sixth_and_card_effects():
    """FTR-MAIN-04: never more than five, including through card effects (求婚)."""
    s = table(players=3)
    for i in range(5):
        put(s, weak(s, i), party=0)
    extra = put(s, weak(s, 5), hand=0)
    k = put(s, "kyukon", hand=0)
    victim = put(s, weak(s, 6), party=1)
    options = legal(s)
    assert f"play {extra}" not in options and not any(a.startswith(f"hold {k}") for a in options)
    before = s.to_json()
    for bad in (f"play {extra}", f"hold {k} {victim}"):
        with pytest.raises(IllegalActionError):
            act(s, bad)
    assert s.to_json() == before
    # with room for one more, both are possible again
    s.party[0].pop()
    assert f"play {extra}" in legal(s) and f"hold {k} {victim}" in legal(s)


def test_ftr_main_04_temporary_characters_do_not_count():
    """FTR-MAIN-04 with FTR-TEMP-01: a temporary character joins a full party without counting,
    and does not take the last real place."""
    s = table(players=3)
    for i in range(4):
        put(s, weak(s, i), party=0)
    jar = put(s, "jaraio_shizaharuto", hand=0)
    fifth, sixth = put(s, weak(s, 4), hand=0), put(s, weak(s, 5), hand=0)
    act(s, f"hold {jar}")
    assert jar in s.party[0] and jar in s.temp
    assert len(s.party[0]) == 5 and s.party_size(0) == 4
    act(s, f"play {fifth}")
    assert len(s.party[0]) == 6 and s.party_size(0) == 5
    assert f"play {sixth}" not in legal(s)


def test_ftr_main_05_reassign_defenders():
    """FTR-MAIN-05: which character defends which region can be changed freely."""
    s = table(players=3)
    a, b = put(s, weak(s, 0), party=0), put(s, weak(s, 1), party=0)
    r1, r2 = put(s, "teito", region=0), put(s, "kiri_no_mori", region=0)
    act(s, f"guard {r1} {a}")
    act(s, f"guard {r2} {b}")
    act(s, f"guard {r1} {b}")
    act(s, f"guard {r2} {a}")
    assert s.guard == {r1: b, r2: a}
    # not another player's region, nor with another player's character
    theirs = put(s, "sajin_no_kouya", region=1)
    foreign = put(s, weak(s, 2), party=1)
    for bad in (f"guard {theirs} {a}", f"guard {r1} {foreign}"):
        with pytest.raises(IllegalActionError):
            act(s, bad)


def test_ftr_main_05_guard_changes_capped_per_main_phase():
    """FTR-MAIN-01/05 with the [designed] safeguard: reassigning is free ("何度でも") up to
    GUARD_CHANGES_MAX guard/unguard actions in one main phase; then only the other actions
    remain, so a phase cannot go on for ever. The count is public and starts again next turn."""
    from takujo.games.fuutei.constants import GUARD_CHANGES_MAX
    assert GUARD_CHANGES_MAX == 40                       # the number docs/rules/fuutei.md gives
    s = table(players=2)
    a, b = put(s, weak(s, 0), party=0), put(s, weak(s, 1), party=0)
    r1 = put(s, "teito", region=0)
    c = put(s, weak(s, 2), hand=0)
    for i in range(GUARD_CHANGES_MAX):
        assert s.view(1)["public"]["guard_changes"] == i
        current = s.guard.get(r1)
        if current is not None and i % 4 == 3:
            act(s, f"unguard {r1}")
        else:
            act(s, f"guard {r1} {b if current == a else a}")
    moves = legal(s, 0)
    assert not any(m.startswith(("guard", "unguard")) for m in moves)
    assert {f"play {c}", "end"} <= moves
    with pytest.raises(IllegalActionError):
        act(s, f"guard {r1} {a}")
    act(s, f"play {c}")                                  # the other actions stay open
    act(s, "end")
    assert s.turn_player == 1 and s.guard_changes == 0
    finish_turn(s)
    assert s.turn_player == 0 and any(m.startswith("guard") for m in legal(s, 0))


def test_ftr_main_05_endless_reassignment_is_impossible():
    """The [designed] cap in play: a player who reassigns whenever it can still reaches the
    end of its main phase (100,000 such steps used to keep one phase going)."""
    game = takujo.load("fuutei", players=3)
    s = game.new_state(4)
    turns, steps = s.turn, 0
    while s.turn < turns + 12 and s.outcome is None:
        options = s.legal_actions(s.pending.players[0])
        moves = [a for a in options if a.verb in ("guard", "unguard")] or [
            a for a in options if a.verb == "play"]
        s.apply(moves[steps % len(moves)] if moves else options[-1])
        steps += 1
        assert steps < 12 * 200, "a main phase did not end"
    from takujo.games.fuutei.constants import GUARD_CHANGES_MAX
    per_turn: dict[int, int] = {}
    turn = 0
    for e in s.log:
        if e["e"] == "turn":
            turn = e["turn"]
        elif e["e"] in ("guard", "unguard"):
            per_turn[turn] = per_turn.get(turn, 0) + 1
    assert GUARD_CHANGES_MAX <= max(per_turn.values()) <= 2 * GUARD_CHANGES_MAX  # main + a reassignment


def test_ftr_main_06_one_character_defends_several_regions():
    """FTR-MAIN-06: one character may defend several regions at once."""
    s = table(players=3)
    a = put(s, weak(s, 0), party=0)
    rs = [put(s, r, region=0) for r in ("teito", "kiri_no_mori", "henkyo_no_mura")]
    for r in rs:
        act(s, f"guard {r} {a}")
    assert sorted(s.defended_by(a)) == sorted(rs)


def test_ftr_main_07_losing_defender_loses_every_region_it_guarded():
    """FTR-MAIN-07 (with FTR-COMBAT-02): the invasion targets every region of that defender;
    when it is defeated all of them are taken; other regions stay."""
    s = table(players=2)
    aoi = put(s, "aoi_kaze", party=0)
    hei = put(s, "teikoku_hei", party=1)             # 2D / 8 / 1D / 7
    noel = put(s, "minarai_kishi_noel", party=1)
    r1, r2 = put(s, "kiri_no_mori", region=1), put(s, "sajin_no_kouya", region=1)
    r3 = put(s, "henkyo_no_mura", region=1)
    s.guard.update({r1: hei, r2: hei, r3: noel})
    to_attack(s, aoi, r2, [6, 1, 6, 5])
    assert sorted(s.battle.regions) == sorted([r1, r2])
    act(s, "attack phys")                            # 11 + 3 = 14 >= 8
    assert hei in s.discard
    assert sorted(s.regions[0]) == sorted([r1, r2]) and s.regions[1] == [r3]
    assert s.guard == {r3: noel}


def test_ftr_main_07_defender_that_survives_keeps_its_regions():
    """FTR-MAIN-07 (ambiguity): "loses" means is defeated; a defender that is not defeated
    keeps every region."""
    s = table(players=2)
    aoi = put(s, "aoi_kaze", party=0)
    volga = put(s, "gokuen_masho_volga", party=1)     # physical defence 12
    r1, r2 = put(s, "kiri_no_mori", region=1), put(s, "sajin_no_kouya", region=1)
    s.guard.update({r1: volga, r2: volga})
    deck_top(s, *non_open(s, 1))
    to_attack(s, aoi, r1, [6, 1, 1, 1, 1, 1, 1])
    act(s, "attack phys")
    act(s, "attack phys")
    assert s.battle is None and s.regions[1] == [r1, r2] and s.guard == {r1: volga, r2: volga}


def test_ftr_main_08_a_region_has_at_most_one_defender():
    """FTR-MAIN-08: assigning a second defender replaces the first."""
    s = table(players=3)
    a, b = put(s, weak(s, 0), party=0), put(s, weak(s, 1), party=0)
    r = put(s, "teito", region=0)
    act(s, f"guard {r} {a}")
    assert f"guard {r} {a}" not in legal(s)         # already its defender
    act(s, f"guard {r} {b}")
    assert s.guard[r] == b and s.defended_by(a) == [] and s.defended_by(b) == [r]
    assert [ch for reg, ch in s.guard.items() if reg == r] == [b]


def test_ftr_main_09_undefended_region_taken_automatically():
    """FTR-MAIN-09 (FTR-COMBAT-03): a region may stand undefended; invaded, it is taken at
    once with no battle support and no dice."""
    s = table(players=3)
    aoi = put(s, "aoi_kaze", party=0)
    r = put(s, "kiri_no_mori", region=1)
    sup = put(s, "chikara_no_gofu", hand=1)         # the defender never gets to play it
    s.rng = Scripted([])                             # any roll would fail the test
    act(s, "end")
    act(s, f"invade {aoi} {r}")
    assert s.regions[0] == [r] and s.regions[1] == []
    assert s.phase == REASSIGN and s.commits is None and s.hands[1] == [sup]
    assert not any(e["e"] == "roll" for e in s.log)
    act(s, f"guard {r} {aoi}")
    assert s.guard[r] == aoi


def test_ftr_main_09_unguard_leaves_a_region_undefended():
    """FTR-MAIN-09: a region may have no defender: unguarding removes it."""
    s = table(players=3)
    a = put(s, weak(s, 0), party=0)
    r = put(s, "teito", region=0)
    assert f"unguard {r}" not in legal(s)
    act(s, f"guard {r} {a}")
    act(s, f"unguard {r}")
    assert r not in s.guard and r in s.regions[0]


def test_ftr_main_10_equip_own_character_permanent_no_move():
    """FTR-MAIN-10: equipment goes onto a character of your own party, without limit of
    pieces, and is not moved afterwards."""
    s = table(players=3)
    a, b = put(s, weak(s, 0), party=0), put(s, weak(s, 1), party=0)
    foreign = put(s, weak(s, 2), party=1)
    e1 = put(s, "hagane_no_tsurugi", hand=0)
    e2, e3 = put(s, "madou_no_tsue", hand=0), put(s, "kishi_no_tate", hand=0)
    assert {f"equip {e1} {a}", f"equip {e1} {b}"} <= legal(s)
    with pytest.raises(IllegalActionError):
        act(s, f"equip {e1} {foreign}")
    for e in (e1, e2, e3):
        act(s, f"equip {e} {a}")
    assert sorted(s.gear_of(a)) == sorted([e1, e2, e3]) and s.hands[0] == []
    assert not any(str(e1) in x.split()[1:2] for x in legal(s))
    with pytest.raises(IllegalActionError):
        act(s, f"equip {e1} {b}")
    # no equipment on an empty party
    s2 = table(players=3)
    e = put(s2, "hagane_no_tsurugi", hand=0)
    assert not any(x.startswith("equip") for x in legal(s2))


def test_ftr_main_11_use_a_hold_card():
    """FTR-MAIN-11: a hold card is used in the main phase and its effect happens (補給:
    draw two)."""
    s = table(players=3)
    a, b = deck_top(s, *non_open(s, 2))
    h = put(s, "hokyu", hand=0)
    assert f"hold {h}" in legal(s)
    act(s, f"hold {h}")
    assert sorted(s.hands[0]) == sorted([a, b]) and s.phase == MAIN
    # not in another phase
    s2 = table(players=3)
    put(s2, "aoi_kaze", party=0)
    put(s2, "kiri_no_mori", region=1)
    h2 = put(s2, "hokyu", hand=0)
    act(s2, "end")
    assert s2.phase == BATTLE and f"hold {h2}" not in legal(s2)


# ===== FTR-HAND ===================================================================================
@pytest.mark.parametrize("size", [6, 7])
def test_ftr_hand_01_discard_down_to_five_player_chooses(size):
    """FTR-HAND-01: with 6+ cards the player discards, choosing which, until 5 remain."""
    s = table(players=3)
    hand = [put(s, c, hand=0) for c in non_open(s, size)]
    deck_top(s, weak(s, 0))
    act(s, "end")
    assert s.phase == HAND and s.pending.players == (0,)
    assert legal(s) == {f"discard {c}" for c in hand}
    chosen = [hand[3], hand[1]][: size - 5]
    for i, c in enumerate(chosen):
        assert s.turn_player == 0 and s.phase == HAND
        act(s, f"discard {c}")
    assert sorted(s.hands[0]) == sorted(set(hand) - set(chosen))
    assert len(s.hands[0]) == 5 and set(chosen) <= set(s.discard)
    assert s.turn_player == 1


def test_ftr_hand_01_five_or_fewer_no_discard():
    """FTR-HAND-01: with 5 cards nothing is discarded and the turn passes."""
    s = table(players=3)
    hand = [put(s, c, hand=0) for c in non_open(s, 5)]
    deck_top(s, weak(s, 0))
    act(s, "end")
    assert s.turn_player == 1 and s.hands[0] == hand and not events(s, "discard")


# ===== option center_regions ======================================================================
def test_option_center_regions_invadable_default():
    """FTR-DRAW-03 reading (a), the default: a centre region can be invaded and is taken."""
    s = table(players=3)
    assert s.game.options.center_regions == "invadable"
    aoi = put(s, "aoi_kaze", party=0)
    r = put(s, "teito", center=True)
    act(s, "end")
    assert s.phase == BATTLE and f"invade {aoi} {r}" in legal(s)
    act(s, f"invade {aoi} {r}")
    assert s.regions[0] == [r] and s.center == [] and s.points(0) == 9


def test_option_center_regions_effects_only():
    """FTR-DRAW-03 reading (b), center_regions=effects_only: centre regions cannot be invaded;
    only a card (開拓) claims one."""
    s = table(players=3, center_regions="effects_only")
    aoi = put(s, "aoi_kaze", party=0)
    r = put(s, "teito", center=True)
    k = put(s, "kaitaku", hand=0)
    assert f"hold {k} {r}" in legal(s)
    before = s.to_json()
    s.phase = BATTLE
    assert not any(a.startswith("invade") for a in legal(s))
    with pytest.raises(IllegalActionError):
        act(s, f"invade {aoi} {r}")
    s.phase = MAIN
    assert s.to_json() == before
    act(s, f"hold {k} {r}")
    assert s.regions[0] == [r] and s.center == [] and k in s.discard
    # with nothing else to invade, ending the main phase skips the battle phase
    deck_top(s, *non_open(s, 1))
    s2 = table(players=3, center_regions="effects_only")
    put(s2, "aoi_kaze", party=0)
    put(s2, "teito", center=True)
    deck_top(s2, *non_open(s2, 1))
    act(s2, "end")
    assert s2.turn_player == 1


# ===== bad input ==================================================================================
def test_bad_option_unknown_name():
    with pytest.raises(OptionError, match="unknown option 'colour'"):
        takujo.load("fuutei", colour="red")
    with pytest.raises(OptionError, match="unknown option"):
        takujo.load("fuutei(players=3,centre=yes)")


@pytest.mark.parametrize("opts", [
    {"players": "many"}, {"players": 9}, {"players": 0}, {"center_regions": "sometimes"},
    {"deck_out": "never"}, {"old_region_rule": "perhaps"},
])
def test_bad_option_values(opts):
    with pytest.raises(OptionError) as err:
        takujo.load("fuutei", **opts)
    assert list(opts)[0] in str(err.value)


def test_good_option_strings():
    g = takujo.load("fuutei(players=3,center_regions=effects_only,deck_out=failed_draw)")
    assert g.players == 3 and g.options.center_regions == "effects_only"
    assert g.options.deck_out == "failed_draw"


def test_illegal_actions_leave_the_state_unchanged():
    """State.apply refuses an illegal action with IllegalActionError and changes nothing."""
    s = takujo.load("fuutei", players=3).new_state(7)
    foreign = s.hands[1][0]
    before = s.to_json()
    for who, text in ((1, "end"), (0, "fly"), (0, f"play {foreign}"), (0, "discard 0"),
                      (0, "invade 1 2"), (0, "equip"), (0, "guard 999 0"), (2, "pass")):
        with pytest.raises(IllegalActionError):
            s.apply(text, who)
        assert s.to_json() == before, text
    # a legal action after all these refusals still works as usual
    assert "end" in legal(s)
    act(s, "end")
    assert s.phase == HAND or s.turn_player == 1


def test_illegal_actions_in_other_decisions_leave_the_state_unchanged():
    """Refusals inside a battle and in the hand phase change nothing either."""
    s = table(players=2)
    aoi = put(s, "aoi_kaze", party=0)
    hei = put(s, "teikoku_hei", party=1)
    r = put(s, "kiri_no_mori", region=1)
    s.guard[r] = hei
    sup = put(s, "chikara_no_gofu", hand=1)
    act(s, "end")
    act(s, f"invade {aoi} {r}")
    before = s.to_json()
    for who, text in ((0, "attack phys"), (0, f"support {sup}"), (1, "end"), (0, "support 3")):
        with pytest.raises(IllegalActionError):
            s.apply(text, who)
        assert s.to_json() == before, text
    s2 = table(players=2)
    hand = [put(s2, c, hand=0) for c in non_open(s2, 6)]
    act(s2, "end")
    assert s2.phase == HAND
    before = s2.to_json()
    for who, text in ((0, "end"), (0, f"discard {weak(s2, 0)}"), (1, f"discard {hand[0]}")):
        with pytest.raises(IllegalActionError):
            s2.apply(text, who)
        assert s2.to_json() == before, text


# ----- malformed card files ---------------------------------------------------------------------
SEP = "\n[[card]]\n"


def mutated(tmp_path: Path, card_id: str, old: str, new: str, name: str = "cards.toml") -> Path:
    """A copy of the built-in cards.toml with one edit inside the card `card_id`."""
    text = CARD_FILE.read_text(encoding="utf-8")
    head, *blocks = text.split(SEP)
    for i, b in enumerate(blocks):
        if b.startswith(f'id = "{card_id}"\n'):
            assert old in b, (card_id, old)
            blocks[i] = b.replace(old, new, 1)
            break
    else:
        raise AssertionError(f"no card {card_id}")
    path = tmp_path / name
    path.write_text(SEP.join([head, *blocks]), encoding="utf-8")
    return path


def _both_refuse(path: Path) -> str:
    with pytest.raises(CardDataError) as e1:
        build_catalogue(path)
    with pytest.raises(CardDataError) as e2:
        takujo.load("fuutei", cards=str(path))
    assert str(e1.value) == str(e2.value)
    msg = str(e1.value)
    assert str(path) in msg
    return msg


def test_card_file_copy_is_accepted(tmp_path):
    path = mutated(tmp_path, "teito", 'name_en = "', 'name_en = "')
    g = takujo.load("fuutei", players=3, cards=str(path))
    assert len(g.catalogue) == TOTAL and g.new_state(1).n == 3


def test_card_file_wrong_type_value(tmp_path):
    path = mutated(tmp_path, "teito", 'type = "region"', 'type = "monster"')
    msg = _both_refuse(path)
    assert "teito" in msg and "'type'" in msg


def test_card_file_missing_field(tmp_path):
    path = mutated(tmp_path, "aoi_kaze", 'name_ja = "蒼い風"\n', "")
    msg = _both_refuse(path)
    assert "aoi_kaze" in msg and "'name_ja'" in msg and "required" in msg.lower()


@pytest.mark.parametrize("card_id, line, field", [
    ("teito", "points = 9\n", "points"),
    ("aoi_kaze", 'stats = ["2D+3", "11", "2D+2", "11"]\n', "stats"),
    ("aoi_kaze", 'sex = "male"\n', "sex"),
    ("yamiomaru", "bonus = [0, 1, 3, 1]\n", "bonus"),
    ("hokyu", 'effect = { do = "draw", n = 2 }\n', "effect"),
])
def test_card_file_missing_type_specific_field(tmp_path, card_id, line, field):
    """A field that only some card types need is reported under that field's name."""
    path = mutated(tmp_path, card_id, line, "")
    msg = _both_refuse(path)
    assert f"({card_id})" in msg and f"field {field!r}" in msg


def test_card_file_bad_dice_notation(tmp_path):
    path = mutated(tmp_path, "aoi_kaze", '"2D+3"', '"2X+1"')
    msg = _both_refuse(path)
    assert "aoi_kaze" in msg and "'stats'" in msg and "2X+1" in msg


def test_card_file_wrong_composition(tmp_path):
    """FTR-COMP-01, FTR-COMP-02: a card file that is not the 99-card composition is refused."""
    path = mutated(tmp_path, "teikoku_hei", "count = 3", "count = 2")
    msg = _both_refuse(path)
    assert "composition" in msg and "character: 48 (needs 49)" in msg
    path2 = mutated(tmp_path, "teito", 'type = "region"\n',
                    'type = "event"\neffect = { do = "discard_center_regions" }\n', name="c2.toml")
    msg2 = _both_refuse(path2)
    assert "region: 11 (needs 12)" in msg2 and "event: 3 (needs 2)" in msg2


def test_card_file_unknown_field_and_missing_file(tmp_path):
    path = mutated(tmp_path, "val", 'sex = "male"\n', 'sex = "male"\ncolour = "blue"\n')
    msg = _both_refuse(path)
    assert "val" in msg and "'colour'" in msg
    missing = tmp_path / "nope.toml"
    with pytest.raises(CardDataError, match="not found"):
        build_catalogue(missing)


# ----- the effect vocabulary --------------------------------------------------------------------
def test_every_declared_effect_parameter_is_read_by_a_rule(monkeypatch):
    """Every parameter the vocabulary declares for a verb of the shipped cards is read by the
    rule that carries it out during random play (a declared parameter no rule reads would be
    accepted and silently ignored, as `against` of 刺客 once was)."""
    from takujo.core.cards import Effect as CoreEffect
    from takujo.games.fuutei.effects import VERBS
    read: set[tuple[str, str]] = set()
    original = CoreEffect.get

    def spy(self, key, default=None):
        read.add((self.do, key))
        return original(self, key, default)

    monkeypatch.setattr(CoreEffect, "get", spy)
    used = {c.effect.do for c in takujo.load("fuutei").catalogue.cards if c.effect is not None}
    wanted = {(verb, p) for verb in used for p in VERBS[verb].params}
    for spec in ("fuutei", "fuutei(players=2)", "fuutei(players=5,old_region_rule=true)"):
        game = takujo.load(spec)
        for seed in range(60):
            s = game.new_state(seed)
            rng = random.Random(seed)
            while s.outcome is None:
                options = s.legal_actions(s.pending.players[0])
                s.apply(rng.choice(options))
            if wanted <= read:
                break
        if wanted <= read:
            break
    assert wanted - read == set()


@pytest.mark.parametrize("old, new, needle", [
    ('against = "phys_def"', 'against = "luck"', "against"),          # not a defence
    ('dice = "2D+1", ', "", "dice"),                                  # 刺客 cannot roll nothing
    ('against = "phys_def"', 'against = "phys_def", speed = 2', "speed"),  # undeclared
])
def test_card_file_bad_assassinate_parameters_refused(tmp_path, old, new, needle):
    """The loader refuses an effect parameter that no rule would read, a missing one a rule
    needs, and a value outside its list, naming file, card and field."""
    path = mutated(tmp_path, "shikaku", old, new)
    msg = _both_refuse(path)
    assert "shikaku" in msg and "'effect'" in msg and needle in msg


@pytest.mark.parametrize("card_id, old, new, needle", [
    ("hokyu", "n = 2", "n = 0", "'n'"),
    ("hokyu", "n = 2", 'n = "two"', "'n'"),
    ("enmaku", 'target = "opponent"', 'target = "everyone"', "'target'"),
    ("toki", 'roll_to = "attack"', 'roll_to = "luck"', "'roll_to'"),
    ("chikara_no_gofu", "phys_atk = 3", "phys_atk = 3.5", "'phys_atk'"),
    ("kyukon", "need = 5", "need = true", "'need'"),
])
def test_card_file_bad_effect_values_refused(tmp_path, card_id, old, new, needle):
    path = mutated(tmp_path, card_id, old, new)
    msg = _both_refuse(path)
    assert card_id in msg and needle in msg


def test_card_file_folder_and_non_utf8_refused(tmp_path):
    """Data files are read with the engine's checks: a folder or a non-UTF-8 file is a clear
    CardDataError naming the path, never a traceback, and never quotes the file."""
    with pytest.raises(CardDataError, match="folder"):
        takujo.load("fuutei", cards=str(tmp_path))
    bad = tmp_path / "latin1.toml"
    bad.write_bytes("[[card]]\nid = 'caf\xe9'\n".encode("latin-1"))
    with pytest.raises(CardDataError, match="UTF-8") as exc:
        takujo.load("fuutei", cards=str(bad))
    assert str(bad) in str(exc.value) and "caf" not in str(exc.value)
