"""Rule tests for 戦国大戦 双: players, victory, deck construction, starting values, setup,
turn and card states, basic rules, old-series cards, colours, costs and kokuryoku.

Clause IDs are those of docs/rules/sengoku_taisen.md; where a clause has an Ambiguity note the
engine follows its recommended reading, and the test says so. Attacks are driven only as far
as a clause of this file needs (the combat procedure itself is tested elsewhere).
"""
from __future__ import annotations

import pytest

import takujo
from takujo.core import Action, DecisionKind, IllegalActionError, OptionError
from takujo.core.errors import CardDataError
from takujo.games.sengoku_taisen import decks
from takujo.games.sengoku_taisen.cards import CARD_FILE, COLORS, Cost, build_pool, pool
from takujo.games.sengoku_taisen.state import (DISCARD, HAND_LIMIT, INTERCEPT, KOKU, KOKU_MAX, MAIN,
                                               MULLIGAN, START_HAND, START_WALLS, TOKEN_BASE, Token)

from .helpers import act, events, find, give_koku, ids, legal, pass_battle, put, table

POOL = pool()


# ----- local helpers ----------------------------------------------------------------------------
def fresh(seed: int = 0, deck1: str = "紅", deck2: str = "蒼", **options):
    """A real new game, still in the mulligan decision."""
    return takujo.load("sengoku_taisen", deck1=deck1, deck2=deck2, **options).new_state(seed)


def _seed_where_first(player: int) -> int:
    return next(seed for seed in range(200) if fresh(seed).first == player)


#: Seeds whose random first player (SGT-SETUP-03) is player 0, and player 1.
P0_FIRST, P0_SECOND = _seed_where_first(0), _seed_where_first(1)


def shuffled(s, p: int) -> list[int]:
    """Player p's deck order right after the setup shuffle (the top is the end of the list)."""
    (e,) = [e for e in s.log if e["e"] == "shuffle" and e["what"] == f"deck {p}"]
    return list(e["order"])


def koku_phase(s, p: int = 0) -> None:
    s.phase, s.turn_player = KOKU, p


def ready_koku(s, p: int) -> list[int]:
    return [c for c in s.koku_up[p] if c not in s.exhausted]


def deck_text(lines: list[str], okugi: list[str] | None = None, name: str = "test") -> str:
    head = [f"name: {name}"] + [f"okugi: {o}" for o in (["AK-OG"] if okugi is None else okugi)]
    return "\n".join(head + lines) + "\n"


def fifty(extra: list[str] | None = None) -> list[str]:
    """A legal 52-card body (the 紅 starter's lines) plus `extra` lines."""
    text = (decks.DECK_DIR / "aka.txt").read_text(encoding="utf-8")
    body = [ln for ln in text.splitlines() if ln.strip() and ln[0].isdigit()]
    return body + (extra or [])


# A mixed-colour deck (for payments with several colours) and a pool with extra test cards:
# card victory / defeat conditions (no such card is in the stand-in pool), a 黄 warlord, a
# 他-faction warlord, and one warlord for each old-series troop type.
MIX = deck_text(["4 AK-01", "1 AK-15", "4 AK-02", "4 AK-03", "4 AK-04", "4 AK-07", "4 AK-10",
                 "4 AK-11", "4 AK-16", "4 AO-05", "4 AO-11", "4 MD-06", "4 KR-09", "4 NT-03",
                 "2 OLD-01"], name="mix")

EXTRA_CARDS = '''
[[card]]
number = "TW-01"
name_ja = "天下統一の城"
name_en = "Castle of Unification"
type = "formation"
color = "紅"
cost = 0
effect = { do = "win_if", koku = 3, camp = 0 }

[[card]]
number = "TW-02"
name_ja = "兵糧攻め"
name_en = "Starvation Siege"
type = "formation"
color = "蒼"
cost = 0
effect = { do = "lose_if", hand_at_most = 0 }

[[card]]
number = "TY-01"
name_ja = "黄の将"
name_en = "Yellow General"
type = "warlord"
color = "黄"
cost = "黄1"
unit = "infantry"
strength = 2000

[[card]]
number = "TY-02"
name_ja = "他の将"
name_en = "Other General"
type = "warlord"
color = "他"
cost = 1
unit = "infantry"
strength = 1000

[[card]]
number = "LG-01"
name_ja = "旧鉄砲隊"
name_en = "Old Gunners"
type = "warlord"
color = "黒"
cost = "黒"
"兵種" = "鉄砲隊"
"武力" = 1000

[[card]]
number = "LG-02"
name_ja = "旧騎馬隊"
name_en = "Old Horse"
type = "warlord"
color = "紅"
cost = "紅"
"兵種" = "騎馬隊"
"武力" = 1000

[[card]]
number = "LG-03"
name_ja = "旧槍足軽"
name_en = "Old Spears"
type = "warlord"
color = "翠"
cost = "翠"
"兵種" = "槍足軽"
"武力" = 1000

[[card]]
number = "LG-04"
name_ja = "旧弓足軽"
name_en = "Old Bows"
type = "warlord"
color = "蒼"
cost = "蒼"
unit = "弓足軽"
"武力" = 1000

[[card]]
number = "LG-05"
name_ja = "旧足軽"
name_en = "Old Foot"
type = "warlord"
color = "紅"
cost = "紅"
"兵種" = "足軽"
"武力" = 1000
"特技" = [{ timing = "撤退時", do = "draw", n = 1 }]
'''
EXT_LINES = ["1 TW-01", "1 TW-02", "4 TY-01", "1 TY-02", "1 LG-01", "4 LG-02", "1 LG-03", "1 LG-04",
             "1 LG-05", "1 KR-16"]


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, str]:
    d = tmp_path_factory.mktemp("sgt")
    cards = d / "cards.toml"
    cards.write_text(CARD_FILE.read_text(encoding="utf-8") + EXTRA_CARDS, encoding="utf-8")
    mix = d / "mix.txt"
    mix.write_text(MIX, encoding="utf-8")
    ext = d / "ext.txt"
    ext.write_text(deck_text(fifty(EXT_LINES), name="ext"), encoding="utf-8")
    return {"cards": str(cards), "mix": str(mix), "ext": str(ext)}


def ext_table(files, **kw):
    return table(deck1=files["ext"], deck2=files["ext"], cards=files["cards"], **kw)


def attack_castle(s, u: int, intercept: str | None = None) -> None:
    """p0 attacks the castle with u; the defender answers `intercept` if asked; both players
    then pass the battle window."""
    act(s, f"attack {u} castle")
    if s.phase == INTERCEPT:
        act(s, intercept or "nointercept")
    pass_battle(s)


# ===== SGT-META ===================================================================================
def test_meta_02_the_game_is_for_two_players():
    """SGT-META-02: a two-player game: the option is fixed at 2 and every per-player zone has
    exactly two sides; the decisions alternate between players 0 and 1."""
    g = takujo.load("sengoku_taisen")
    assert g.players == 2
    s = g.new_state(1)
    for spec in s.ZONES:
        assert len(s.zone(spec.name)) == 2
    for bad in (1, 3):
        with pytest.raises(OptionError, match="players"):
            takujo.load("sengoku_taisen", players=bad)
    act(s, "keep")
    seen = {s.turn_player}
    if s.phase == KOKU:
        act(s, "skip")
    act(s, "end")
    seen.add(s.turn_player)
    assert seen == {0, 1}


def test_meta_07_three_or_more_players_are_not_offered():
    """SGT-META-07: 3+ player rules are not given by the document, so the engine refuses
    them with an option error instead of guessing."""
    for n in (3, 4):
        with pytest.raises(OptionError) as err:
            takujo.load(f"sengoku_taisen(players={n})")
        assert "players" in str(err.value)
    help_rows = {row[0]: row for row in takujo.game_class("sengoku_taisen").option_table()}
    assert "2" in help_rows["players"][3]


# ===== SGT-WIN ====================================================================================
def test_win_01_unintercepted_castle_attack_at_zero_walls_wins():
    """SGT-WIN-01 (and SGT-WALL-02): an attack on the castle of a player with no walls that
    nobody intercepts wins the game at once."""
    s = table()
    u = put(s, "AK-07", 0, "camp")
    assert s.walls[1] == [] and s.units(1) == []
    attack_castle(s, u)
    assert s.outcome is not None
    assert s.outcome.winners == (0,) and s.outcome.reason == "castle"
    assert s.pending is None and s.legal_actions() == []
    assert events(s, "game_over")[-1]["reason"] == "castle"


def test_win_01_declining_to_intercept_still_loses():
    """SGT-WIN-01 Ambiguity, reading (a): a defender who could intercept but does not loses."""
    s = table()
    u = put(s, "AK-07", 0, "camp")
    guard = put(s, "AO-02", 1, "camp")
    act(s, f"attack {u} castle")
    assert s.pending.players == (1,) and f"intercept {guard}" in legal(s, 1)
    act(s, "nointercept")
    pass_battle(s)
    assert s.outcome.winners == (0,) and s.outcome.reason == "castle"


def test_win_01_intercepted_attack_at_zero_walls_does_not_win():
    """SGT-WIN-01: only an unintercepted attack wins; an intercepted one is a battle (here the
    interceptor dies) and the game goes on."""
    s = table()
    u = put(s, "AK-07", 0, "camp")             # 2500, no keyword
    guard = put(s, "AO-02", 1, "camp")         # 1500
    attack_castle(s, u, intercept=f"intercept {guard}")
    assert s.outcome is None
    assert guard in s.discard[1] and u in s.camp[0]
    assert s.phase == MAIN and s.turn_player == 0


def test_win_02_library_out_at_the_draw_phase_loses():
    """SGT-WIN-02 reading (a): a player whose draw phase must draw from an empty deck loses."""
    s = table()
    s.deck[1] = []
    act(s, "end")
    assert s.outcome.winners == (0,) and s.outcome.reason == "library_out"
    assert s.pending is None and s.legal_actions() == []


def test_win_03_card_victory_condition(files):
    """SGT-WIN-03: a victory condition printed on a card (win_if: 3 kokuryoku while the
    formation is face up) wins for its owner the moment it is met; face down it does nothing."""
    s = ext_table(files)
    give_koku(s, 0, "紅", 2)
    w1 = put(s, "TW-01", 0, "hand")
    koku_phase(s)
    act(s, f"koku {w1} down")                 # face down: no printed effect (3 kokuryoku anyway)
    assert s.koku_count(0) == 3 and s.outcome is None

    s = ext_table(files)
    give_koku(s, 0, "紅", 2)
    w1 = put(s, "TW-01", 0, "hand")
    koku_phase(s)
    act(s, f"koku {w1} up")
    assert s.outcome.winners == (0,) and s.outcome.reason == "card_condition"


def test_win_03_card_defeat_condition_of_the_opponent(files):
    """SGT-WIN-03: a defeat condition printed on a card (lose_if: the opponent's hand is
    empty) makes the opponent lose when met; unmet, nothing happens."""
    s = ext_table(files)
    tw = put(s, "TW-02", 0, "hand")
    put(s, "AK-03", 1, "hand")
    koku_phase(s)
    act(s, f"koku {tw} up")
    assert s.outcome is None                   # player 1 still holds a card
    s = ext_table(files)
    tw = put(s, "TW-02", 0, "hand")
    assert s.hand[1] == []
    koku_phase(s)
    act(s, f"koku {tw} up")
    assert s.outcome.winners == (0,) and s.outcome.reason == "card_condition"


def test_win_04_concede_at_any_time():
    """SGT-WIN-04: a player may concede at any moment, even when it is not their decision;
    the opponent wins. Nothing can be played afterwards."""
    s = fresh(P0_SECOND)                                # mulligan: player 0 (second) to decide
    assert s.pending.players == (0,)
    s.apply(Action(1, "concede"))               # player 1 is not being asked
    assert s.outcome.winners == (0,) and s.outcome.reason == "concede"
    with pytest.raises(IllegalActionError):
        s.apply(Action(0, "concede"))
    with pytest.raises(IllegalActionError):
        s.apply(Action(0, "keep"))

    s = table()                                 # in the middle of an attack, by the attacker
    u = put(s, "AK-07", 0, "camp")
    put(s, "AO-02", 1, "camp")
    put(s, "AO-02", 1, "walls", nth=1)
    act(s, f"attack {u} castle")
    assert s.phase == INTERCEPT
    s.apply("concede", 0)
    assert s.outcome.winners == (1,) and s.outcome.reason == "concede"
    assert s.pending is None


def test_win_05_turns_alternate_and_the_game_ends_at_once():
    """SGT-WIN-05: players take turns in alternation, and the game ends as soon as a victory
    condition is met: no decision is left and nothing more applies."""
    s = fresh(P0_FIRST)                                # player 0 goes first
    act(s, "keep")
    order = []
    for _ in range(5):
        order.append((s.turn, s.turn_player))
        if s.phase == KOKU:
            act(s, "skip")
        act(s, "end")
        while s.phase == DISCARD:
            act(s, f"discard {s.hand[s.turn_player][0]}")
    assert order == [(1, 0), (2, 1), (3, 0), (4, 1), (5, 0)]

    s = table()
    a, b = put(s, "AK-07", 0, "camp"), put(s, "AK-02", 0, "camp")
    attack_castle(s, a)
    assert s.outcome is not None and s.pending is None
    assert s.legal_actions(0) == [] and s.legal_actions(1) == []
    with pytest.raises(IllegalActionError):
        act(s, f"attack {b} castle", 0)


def test_win_05_simultaneous_conditions_are_a_draw(files):
    """SGT-WIN-05 Ambiguity: both players meeting a condition at the same moment is a draw,
    a shared result with reason "draw"."""
    s = ext_table(files)
    put(s, "TW-02", 1, "koku_up")               # p1: p0 loses when p0's hand is empty
    give_koku(s, 0, "紅", 2)
    w1 = put(s, "TW-01", 0, "hand")             # p0: wins with 3 kokuryoku
    assert s.hand[0] == [w1]
    koku_phase(s)
    act(s, f"koku {w1} up")                     # empties p0's hand and makes 3 kokuryoku at once
    assert s.outcome.winners == (0, 1) and s.outcome.reason == "draw"


def test_win_06_nothing_carries_over_between_games():
    """SGT-WIN-06: a finished game leaves nothing behind: the next game of the same
    configuration starts exactly as a game that had none before it."""
    g = takujo.load("sengoku_taisen", deck1="翠", deck2="黒")
    pristine = g.new_state(4).to_json()
    s = g.new_state(4)
    act(s, "keep")
    s.apply(Action(0, "concede"))
    assert s.outcome is not None
    again = g.new_state(4)
    assert again.to_json() == pristine
    assert again.outcome is None and again.walls == [[], []] and again.ougi_used == [False, False]
    assert [len(h) for h in again.hand] == [START_HAND, START_HAND]
    assert str(g) == "sengoku_taisen(players=2,deck1=翠,deck2=黒)"


# ===== SGT-DECK and bad decklists =================================================================
def test_deck_01_at_least_fifty_cards_and_no_maximum():
    """SGT-DECK-01: 49 cards is refused, 50 accepted, and a 100-card deck is legal too."""
    twelve = ("AK-01", "AK-02", "AK-03", "AK-04", "AK-05", "AK-06", "AK-07", "AK-08", "AK-09",
              "AK-10", "AK-11", "AK-12")
    forty_nine = deck_text([f"4 {n}" for n in twelve] + ["1 AK-13"])
    problems = decks.check(decks.parse(forty_nine), POOL)
    assert problems == ["the deck has 49 cards; at least 50 are needed"]
    fifty_cards = forty_nine.replace("1 AK-13", "2 AK-13")
    assert decks.check(decks.parse(fifty_cards), POOL) == []
    numbers = [n for n, c in POOL.cards.items() if c.type not in ("ougi", "summon")][:25]
    hundred = deck_text([f"4 {n}" for n in numbers])
    d = decks.parse(hundred)
    assert len(d.cards()) == 100 and decks.check(d, POOL) == []


def test_deck_02_okugi_and_summoned_soldiers_may_not_be_in_the_deck():
    """SGT-DECK-02: an okugi or the summoned-soldier card on a count line is refused."""
    problems = decks.check(decks.parse(deck_text(fifty(["1 AK-OG", "1 TK-01"]))), POOL)
    assert len(problems) == 2
    assert "AK-OG is an okugi" in problems[0] and "okugi:" in problems[0]
    assert "TK-01 is a summoned-soldier" in problems[1]


def test_deck_03_at_most_four_per_card_number():
    """SGT-DECK-03: five copies of one number (even split over lines) are refused; the limit
    is per card number, so 4 AK-01 and 4 AK-15 (both 織田信長) are fine."""
    lines = fifty()
    assert "4 AK-09   # 森長可" in lines                    # the 紅 starter has 4 AK-09
    five = deck_text(lines + ["1 AK-09"])
    problems = decks.check(decks.parse(five), POOL)
    assert problems == ["5 copies of AK-09 (森長可); at most 4 per card number"]
    same_name = deck_text([ln for ln in lines if "AK-01" not in ln and "AK-15" not in ln]
                          + ["4 AK-01", "4 AK-15"])
    assert POOL["AK-01"].name == POOL["AK-15"].name
    assert decks.check(decks.parse(same_name), POOL) == []


def test_deck_04_exactly_one_okugi_outside_the_deck():
    """SGT-DECK-04: exactly one okugi line, naming an okugi; zero or two lines, or a line
    naming another card type or an unknown number, are refused. The okugi is not a deck card."""
    body = fifty()
    assert decks.check(decks.parse(deck_text(body, okugi=[])), POOL) == [
        "a deck needs exactly one okugi (奥義) line; found 0"]
    assert decks.check(decks.parse(deck_text(body, okugi=["AK-OG", "AO-OG"])), POOL) == [
        "a deck needs exactly one okugi (奥義) line; found 2"]
    assert decks.check(decks.parse(deck_text(body, okugi=["AK-01"])), POOL) == [
        "okugi: AK-01 (織田信長) is a warlord, not an okugi"]
    assert decks.check(decks.parse(deck_text(body, okugi=["ZZ-OG"])), POOL) == [
        "okugi: unknown card number 'ZZ-OG'"]
    d = decks.parse(deck_text(body))
    assert d.okugi == ["AK-OG"] and "AK-OG" not in d.cards() and len(d.cards()) == 52


def test_deck_05_there_is_no_sideboard():
    """SGT-DECK-05: no cards are swapped between games, so the format has no sideboard:
    a sideboard line is a problem, and a game holds only the deck and the okugi."""
    text = deck_text(fifty()) + "sideboard: AK-03\n"
    problems = decks.check(decks.parse(text), POOL)
    assert len(problems) == 1
    assert "expected 'COUNT CARD-NUMBER'" in problems[0] and "sideboard" in problems[0]
    g = takujo.load("sengoku_taisen", deck1="紅", deck2="蒼")
    assert len(g.instances) == 2 * (52 + 1)


def test_deck_06_summoned_soldiers_are_tokens_made_as_needed():
    """SGT-DECK-06 (and SGT-SUMMON-01, SGT-SUMMON-04): summoned soldiers need no prepared card:
    an effect makes a token with its own id, outside every deck, and no card is used up."""
    s = table(deck1="黒")
    st = put(s, "KR-14", 0, "hand")             # 一揆勢: summon 1 infantry 1000 / siege 1
    give_koku(s, 0, "黒", 1)
    before = sum(len(z[p]) for z in (s.deck, s.hand, s.koku_up, s.discard) for p in (0, 1))
    act(s, f"stratagem {st}")
    (tok,) = s.summons[0]
    assert tok >= TOKEN_BASE and tok not in range(len(s.inst))
    assert s.tokens[tok] == Token(owner=0, strength=1000, siege=1, unit="infantry")
    assert ids(s, "TK-01", 0) == []
    after = sum(len(z[p]) for z in (s.deck, s.hand, s.koku_up, s.discard) for p in (0, 1))
    assert after == before


def test_unknown_deck_name_is_an_option_error():
    """Bad input: a deck that is neither a starter nor a file is named in the error."""
    with pytest.raises(OptionError) as err:
        takujo.load("sengoku_taisen", deck1="紫")
    assert "'紫'" in str(err.value) and "蒼" in str(err.value)
    with pytest.raises(OptionError, match="no_such_deck.txt"):
        takujo.load("sengoku_taisen", deck2="/nonexistent/no_such_deck.txt")


def test_bad_decklist_file_names_every_problem(tmp_path):
    """Bad input, SGT-DECK-01, SGT-DECK-02, SGT-DECK-03, SGT-DECK-04: a decklist with several
    kinds of problem raises one OptionError that names every problem, with line numbers."""
    text = "\n".join([
        "name: broken",                 # 1
        "okugi: AK-OG",                 # 2
        "okugi: AO-OG",                 # 3  two okugi lines
        "5 AK-03",                      # 4  five copies
        "1 MD-OG",                      # 5  an okugi on a count line
        "1 TK-01",                      # 6  the summoned-soldier card
        "2 ZZ-99",                      # 7  unknown number
        "four AK-01",                   # 8  not a count line
        "4 AK-02",                      # 9
    ]) + "\n"
    path = tmp_path / "broken.txt"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(OptionError) as err:
        takujo.load("sengoku_taisen", deck1=str(path))
    msg = str(err.value)
    for needle in ("line 8: expected 'COUNT CARD-NUMBER'", "line 5: MD-OG is an okugi",
                   "line 6: TK-01 is a summoned-soldier", "line 7: unknown card number 'ZZ-99'",
                   "5 copies of AK-03", "the deck has 9 cards; at least 50",
                   "exactly one okugi (奥義) line; found 2", str(path)):
        assert needle in msg, needle
    one = tmp_path / "no_okugi.txt"
    one.write_text("\n".join(fifty()) + "\n", encoding="utf-8")
    with pytest.raises(OptionError, match="found 0"):
        takujo.load("sengoku_taisen", deck2=str(one))


def test_starter_decks_are_legal():
    """SGT-DECK-01, SGT-DECK-02, SGT-DECK-03, SGT-DECK-04 sanity: every starter is legal, with
    52 cards and one okugi (SGT-META-08)."""
    for name in decks.STARTERS:
        d = decks.load(name)
        assert decks.check(d, POOL) == [] and len(d.cards()) == 52 and len(d.okugi) == 1


# ===== SGT-START ==================================================================================
def test_start_01_each_player_starts_with_eight_walls():
    """SGT-START-01: after setup each player has 8 castle walls."""
    for seed in (0, 1):
        s = fresh(seed)
        act(s, "keep")
        assert [len(w) for w in s.walls] == [START_WALLS, START_WALLS] == [8, 8]


def test_start_02_walls_have_no_upper_limit():
    """SGT-START-02: building walls goes beyond the starting 8 (城普請 twice: 8 → 10)."""
    s = table(deck1="蒼")
    works = ids(s, "NT-04", 0)
    for c in works:
        put(s, c, 0, "hand")
    for c in find(s, 0, type="warlord")[:8]:
        put(s, c, 0, "walls")
    give_koku(s, 0, None, 4, up=False)
    act(s, f"stratagem {works[0]}")
    assert len(s.walls[0]) == 9
    act(s, f"stratagem {works[1]}")
    assert len(s.walls[0]) == 10


def test_start_03_life_is_the_walls_plus_one_defenceless_hit():
    """SGT-START-03: with one wall left, the first unintercepted siege only removes it; the
    next unintercepted attack on the defenceless castle wins."""
    s = table()
    a, b = put(s, "AK-07", 0, "camp"), put(s, "AK-02", 0, "camp")
    wall = put(s, "AO-02", 1, "walls")
    attack_castle(s, a)
    assert s.outcome is None and s.walls[1] == [] and wall in s.discard[1]
    attack_castle(s, b)
    assert s.outcome.winners == (0,) and s.outcome.reason == "castle"


def test_start_04_starting_hand_is_five():
    """SGT-START-04: both players start with 5 cards in hand."""
    s = fresh(3)
    assert [len(h) for h in s.hand] == [5, 5] == [START_HAND] * 2


def test_start_05_hand_limit_seven_at_end_of_own_turn_player_chooses():
    """SGT-START-05: a hand may exceed 7 during the turn; at the end of the owner's turn they
    discard cards of their choice down to 7, then the turn passes."""
    s = table()
    hand = [put(s, c, 0, "hand") for c in find(s, 0, type="warlord")[:9]]
    assert len(s.hand[0]) == 9 and "end" in legal(s)          # over the limit is allowed now
    act(s, "end")
    assert s.phase == DISCARD and s.pending.players == (0,)
    assert legal(s) == {f"discard {c}" for c in hand}
    chosen = [hand[4], hand[7]]
    act(s, f"discard {chosen[0]}")
    assert s.phase == DISCARD and s.turn_player == 0 and len(s.hand[0]) == 8
    act(s, f"discard {chosen[1]}")
    assert s.discard[0] == chosen
    assert sorted(s.hand[0]) == sorted(set(hand) - set(chosen)) and len(s.hand[0]) == HAND_LIMIT
    assert s.turn_player == 1


def test_start_05_hand_limit_is_checked_only_in_the_owners_turn():
    """SGT-START-05: the opponent's big hand is not cut at the end of my turn."""
    s = table()
    for c in find(s, 1, type="warlord")[:9]:
        put(s, c, 1, "hand")
    act(s, "end")
    assert s.turn_player == 1 and len(s.hand[1]) == 10 and s.discard[1] == []


def test_start_06_only_the_second_player_may_mulligan_once():
    """SGT-START-06: only the second player is offered the mulligan, it is optional, and
    there is never a second one."""
    for seed, second in ((P0_SECOND, 0), (P0_FIRST, 1)):
        s = fresh(seed)
        assert s.first == 1 - second and s.phase == MULLIGAN
        assert s.pending.players == (second,)
        assert legal(s, second) == {"keep", "mulligan"}
        assert s.legal_actions(1 - second) == []
        with pytest.raises(IllegalActionError):
            s.apply(Action(1 - second, "mulligan"))
        act(s, "mulligan")
        assert s.phase != MULLIGAN and s.turn_player == 1 - second
        for p in (0, 1):
            assert not any(a.verb == "mulligan" for a in s.legal_actions(p))
        assert len(events(s, "mulligan")) == 1

    s = fresh(P0_SECOND)
    hand = list(s.hand[0])
    act(s, "keep")                                   # optional: keeping changes nothing
    assert s.hand[0] == hand and events(s, "mulligan") == []


def test_start_07_mulligan_puts_the_hand_at_the_bottom_without_shuffle():
    """SGT-START-07: the whole hand goes to the bottom of the deck, unshuffled, and the new
    hand of 5 is the 5 cards that were on top; the rest of the deck keeps its order."""
    s = fresh(P0_SECOND)                                     # player 0 is second
    old_hand, deck = list(s.hand[0]), list(s.deck[0])
    shuffles = len(events(s, "shuffle"))
    act(s, "mulligan")
    assert s.hand[0] == [deck[-1], deck[-2], deck[-3], deck[-4], deck[-5]]
    assert sorted(s.deck[0][:5]) == sorted(old_hand)
    assert s.walls[0] == list(reversed(deck[-13:-5]))          # the 8 walls came next
    assert s.deck[0][5:] == deck[:-13]
    assert len(events(s, "shuffle")) == shuffles
    assert len(s.hand[0]) == START_HAND


def test_start_08_first_player_skips_the_first_draw():
    """SGT-START-08: the first player draws nothing on turn 1; the second draws in turn 2 and
    the first draws again from turn 3."""
    s = fresh(P0_FIRST)
    assert s.first == 0
    mark = len(s.log)
    act(s, "keep")
    assert s.turn == 1 and s.turn_player == 0
    assert len(s.hand[0]) == 5 and not [e for e in s.log[mark:] if e["e"] == "draw_count"]
    top1 = s.deck[1][-1]
    act(s, "skip")
    act(s, "end")
    assert s.turn == 2 and s.turn_player == 1 and len(s.hand[1]) == 6 and top1 in s.hand[1]
    top0 = s.deck[0][-1]
    act(s, "skip")
    act(s, "end")
    assert s.turn == 3 and len(s.hand[0]) == 6 and top0 in s.hand[0]


# ===== SGT-SETUP ==================================================================================
def test_setup_01_okugi_face_down_in_its_zone_hidden_from_the_opponent():
    """SGT-SETUP-01 (SGT-OUGI-02): from the start each okugi lies face down in its owner's
    okugi zone, outside the deck; the owner sees it, the opponent and spectators only a count."""
    s = fresh(2)
    g = s.game
    for p in (0, 1):
        og = g.ougi_ids[p]
        assert s.ougi[p] == [og] and s.card(og).type == "ougi" and s.ougi_up[p] == []
        assert og not in s.deck[p] and og not in s.hand[p]
        assert s.view(p)["zones"]["ougi"][p] == [og]
        assert s.view(1 - p)["zones"]["ougi"][p] == 1
        assert s.view(None)["zones"]["ougi"][p] == 1
    act(s, "keep")
    assert s.view(1)["zones"]["ougi"][0] == 1 and s.view(0)["zones"]["ougi"][0] == [g.ougi_ids[0]]


def test_setup_02_each_deck_is_shuffled():
    """SGT-SETUP-02: each deck is shuffled from its list order (logged for the record only,
    seen by nobody), and different seeds give different orders."""
    s, t = fresh(P0_SECOND), fresh(5)
    g = s.game
    for p in (0, 1):
        order = shuffled(s, p)
        assert sorted(order) == sorted(g.deck_ids[p]) and order != list(g.deck_ids[p])
        assert order != shuffled(t, p)
        (e,) = [e for e in s.log if e["e"] == "shuffle" and e["what"] == f"deck {p}"]
        assert e["to"] == [] and e["chance"] is True
        assert e not in s.view(p)["log"]


def test_setup_03_first_player_is_chosen_at_random():
    """SGT-SETUP-03 Ambiguity: the first player is drawn at random from the seed (some seeds
    give player 0, others player 1), and the draw is logged as a chance outcome."""
    assert fresh(P0_FIRST).first == 0 and fresh(P0_SECOND).first == 1
    s = fresh(P0_SECOND)
    (pick,) = [e for e in s.log if e["e"] == "random"]
    assert pick["why"] == "first_player" and pick["n"] == 2 and pick["index"] == 1 and pick["chance"]
    assert events(s, "first_player")[0]["player"] == 1
    assert {fresh(seed).first for seed in range(12)} == {0, 1}


def test_setup_04_each_player_draws_five_from_the_top():
    """SGT-SETUP-04: each hand is the top 5 cards of that player's shuffled deck."""
    s = fresh(7)
    for p in (0, 1):
        order = shuffled(s, p)
        assert s.hand[p] == [order[-1], order[-2], order[-3], order[-4], order[-5]]
        assert s.deck[p] == order[:-5]


def test_setup_05_mulligan_comes_before_the_walls():
    """SGT-SETUP-05: during the mulligan decision no wall is placed; the walls are taken only
    after it, from below the (new) hand."""
    s = fresh(P0_SECOND)
    assert s.phase == MULLIGAN and s.walls == [[], []] and s.turn == 0
    deck = list(s.deck[0])
    act(s, "mulligan")
    assert set(s.walls[0]) == set(deck[-13:-5])       # after the 5 cards of the new hand
    assert not set(s.walls[0]) & set(s.hand[0])


def test_setup_06_eight_walls_from_the_top_face_down_unseen():
    """SGT-SETUP-06: after hand and mulligan each player puts the next 8 cards of the deck
    face down as walls; nobody, the owner included, sees them (only a count)."""
    s = fresh(7)
    orders = [shuffled(s, p) for p in (0, 1)]
    act(s, "keep")
    for p in (0, 1):
        o = orders[p]
        assert s.walls[p] == [o[-6], o[-7], o[-8], o[-9], o[-10], o[-11], o[-12], o[-13]]
        assert s.deck[p] == o[:-13]
        for viewer in (0, 1, None):
            assert s.view(viewer)["zones"]["walls"][p] == 8


def test_setup_07_walls_are_a_stack_whose_top_is_destroyed_first():
    """SGT-SETUP-07 Ambiguity (SGT-WALL-06): the last wall placed is the top and is destroyed
    first; walls have no ready / exhausted state."""
    s = fresh(7)
    act(s, "keep")
    last_placed = s.walls[1][-1]
    assert last_placed == shuffled(s, 1)[-13]
    s = table()
    stack = [put(s, c, 1, "walls") for c in find(s, 1, type="warlord")[:4]]   # no counters
    u = put(s, "AK-01", 0, "camp")              # 攻城力 2
    attack_castle(s, u)
    assert [e["card"] for e in events(s, "wall_destroyed")] == [stack[3], stack[2]]
    assert s.walls[1] == stack[:2]
    assert not set(stack) & s.exhausted


# ===== SGT-TURN ===================================================================================
def test_turn_01_phase_order():
    """SGT-TURN-01 Ambiguity: a turn runs start (ready) → draw (1 card) → kokuryoku (0–1) →
    main (deploy, stratagems, attacks) → end (hand limit, damage reset) → the next turn."""
    s = table()
    put(s, "AO-02", 1, "hand")
    top = s.deck[1][-1]
    mark = len(s.log)
    act(s, "end")
    kinds = [e["e"] for e in s.log[mark:]]
    assert kinds == ["act", "end_turn", "turn", "draw", "draw_count"]
    assert s.turn == 4 and s.turn_player == 1 and top in s.hand[1]
    assert s.phase == KOKU and "skip" in legal(s) and not any(a.startswith("deploy") for a in legal(s))
    act(s, "skip")
    assert s.phase == MAIN and "end" in legal(s)
    act(s, "end")
    assert s.turn == 5 and s.turn_player == 0


def test_turn_01_own_cards_become_ready_at_the_start_of_own_turn():
    """SGT-TURN-01 Ambiguity: all of the active player's cards (warlords, face-up and face-down
    kokuryoku) are readied at the start of their own turn, not at the opponent's."""
    s = table()
    mine = [put(s, "AK-07", 0, "camp"), *give_koku(s, 0, "紅", 2)]
    theirs = [put(s, "AO-02", 1, "camp"), *give_koku(s, 1, "蒼", 2)]
    give_koku(s, 0, None, 2, up=False)
    give_koku(s, 1, None, 2, up=False)
    s.exhausted |= set(mine) | set(theirs)
    s.down_exhausted = [2, 2]
    act(s, "end")                                # player 1's turn starts
    assert s.turn_player == 1
    assert set(mine) <= s.exhausted and s.down_exhausted[0] == 2
    assert not set(theirs) & s.exhausted and s.down_exhausted[1] == 0
    if s.phase == KOKU:
        act(s, "skip")
    act(s, "end")                                # player 0's turn starts
    assert not set(mine) & s.exhausted and s.down_exhausted[0] == 0


# ===== SGT-STATE ==================================================================================
def test_state_01_ready_cards_can_act():
    """SGT-STATE-01: a ready (upright) kokuryoku pays and a ready warlord may attack or
    intercept."""
    s = table()
    k = give_koku(s, 0, "紅", 1)[0]
    u = put(s, "AK-07", 0, "camp")
    w = put(s, "AK-03", 0, "hand")
    guard = put(s, "AO-02", 1, "camp")
    assert {f"deploy {w}", f"attack {u} castle"} <= legal(s)
    act(s, f"deploy {w}")
    assert k in s.exhausted
    act(s, f"attack {u} castle")
    assert f"intercept {guard}" in legal(s, 1)


def test_state_02_exhausted_cards_cannot_pay_attack_or_intercept():
    """SGT-STATE-02: an exhausted (sideways) kokuryoku pays nothing, an exhausted warlord may
    neither attack nor intercept, and it becomes a legal attack target."""
    s = table()
    k = give_koku(s, 0, "紅", 1)[0]
    u, v = put(s, "AK-07", 0, "camp"), put(s, "AK-02", 0, "camp")
    w = put(s, "AK-03", 0, "hand")
    tired, fresh_guard = put(s, "AO-02", 1, "camp"), put(s, "AO-02", 1, "camp", nth=1)
    s.exhausted |= {k, v, tired}
    moves = legal(s)
    assert f"deploy {w}" not in moves
    assert not any(m.startswith(f"attack {v} ") for m in moves)
    assert f"attack {u} {tired}" in moves and f"attack {u} {fresh_guard}" not in moves
    act(s, f"attack {u} castle")
    assert legal(s, 1) == {f"intercept {fresh_guard}", "nointercept"}


def test_state_03_face_down_kokuryoku_are_colourless_and_exhaust():
    """SGT-STATE-03: a face-down kokuryoku is colourless (pays no 紅) and also has ready and
    exhausted states: once it paid, it pays nothing more this turn."""
    s = table()
    give_koku(s, 0, None, 1, up=False)
    st = ids(s, "NT-03", 0)                          # 兵糧入れ: cost 1 generic
    war = put(s, "AK-03", 0, "hand")                 # cost 紅
    for c in st:
        put(s, c, 0, "hand")
    moves = legal(s)
    assert f"stratagem {st[0]}" in moves and f"deploy {war}" not in moves
    act(s, f"stratagem {st[0]}")
    assert s.down_exhausted[0] == 1 and len(s.koku_down[0]) == 1
    assert s.view(1)["public"]["koku_down_exhausted"] == [1, 0]
    assert f"stratagem {st[1]}" not in legal(s)


# ===== SGT-BASIC ==================================================================================
def test_basic_01_discard_pile_exists():
    """SGT-BASIC-01 (SGT-ZONE-06): used instants and discarded cards go to a public discard
    pile."""
    s = table()
    give_koku(s, 0, None, 1, up=False)
    st = put(s, "NT-03", 0, "hand")
    act(s, f"stratagem {st}")
    assert s.discard[0] == [st] and s.view(1)["zones"]["discard"][0] == [st]


def test_basic_02_an_empty_deck_loses_only_at_the_draw_phase():
    """SGT-BASIC-02 (SGT-WIN-02 Ambiguity, reading (a)): emptying the deck by an effect does
    not lose; the owner loses at their next draw phase."""
    s = table()
    give_koku(s, 0, None, 1, up=False)
    st = put(s, "NT-03", 0, "hand")
    last = s.deck[0][-1]
    s.deck[0] = [last]
    act(s, f"stratagem {st}")
    assert s.deck[0] == [] and last in s.hand[0] and s.outcome is None
    for c in list(s.hand[0]):
        put(s, c, 0, "discard")
    act(s, "end")
    assert s.outcome is None and s.turn_player == 1
    if s.phase == KOKU:
        act(s, "skip")
    act(s, "end")
    assert s.outcome.winners == (1,) and s.outcome.reason == "library_out"


def test_basic_03_no_summoning_sickness_for_abilities():
    """SGT-BASIC-03 / SGT-BASIC-04 Ambiguity: a warlord placed this turn may use an ability and
    be exhausted for it at once; only attacking is restricted."""
    s = table()
    give_koku(s, 0, "紅", 2)
    gun = put(s, "AK-05", 0, "hand")                 # {メイン}{待機⇒疲弊}: 1000 damage
    foe = put(s, "AO-05", 1, "camp")                 # 1000
    act(s, f"deploy {gun}")
    assert f"ability {gun} 0 {foe}" in legal(s)
    act(s, f"ability {gun} 0 {foe}")
    assert gun in s.exhausted and foe in s.discard[1]


def test_basic_04_no_attack_on_the_placement_turn_except_by_keyword():
    """SGT-BASIC-04: a warlord cannot attack on its placement turn; 【奇襲】 and 疾風怒濤 (any
    warlord, with a same-number card to discard: SGT-WARLORD-09) are the exceptions; next turn
    it attacks normally."""
    s = table()
    give_koku(s, 0, "紅", 6)
    plain, ambush, rush, rush2 = (put(s, "AK-07", 0, "hand"), put(s, "AK-03", 0, "hand"),
                                  put(s, "AK-04", 0, "hand"), put(s, "AK-04", 0, "hand", nth=1))
    for c in (plain, ambush, rush):
        act(s, f"deploy {c}")
    moves = legal(s)
    assert not any(m.startswith(f"attack {plain} ") for m in moves)
    assert f"attack {ambush} castle" in moves
    assert f"attack {rush} castle shippu {rush2}" in moves and f"attack {rush} castle" not in moves
    s.turn += 1
    assert f"attack {plain} castle" in legal(s)


def test_basic_05_no_resource_pool_across_turns():
    """SGT-BASIC-05: resources are only kokuryoku cards; unused kokuryoku store nothing, so
    two kokuryoku never pay a cost of 3 however many turns pass."""
    s = table()
    give_koku(s, 0, "紅", 2)
    big = put(s, "AK-02", 0, "hand")                 # 紅紅1
    for _ in range(2):
        assert f"deploy {big}" not in legal(s)
        act(s, "end")
        if s.phase == KOKU:
            act(s, "skip")
        act(s, "end")
        if s.phase == KOKU:
            act(s, "skip")
    assert s.turn_player == 0 and len(ready_koku(s, 0)) == 2
    assert f"deploy {big}" not in legal(s)
    assert not any("pool" in k or "mana" in k for k in s.public_info())


def test_basic_06_damage_does_not_carry_over():
    """SGT-BASIC-06 (SGT-WARLORD-13): damage taken in a battle is gone at the end of the turn."""
    s = table()
    u = put(s, "AK-02", 0, "camp")                   # 3000
    guard = put(s, "AO-09", 1, "camp")               # 2000
    put(s, "AO-02", 1, "walls")
    attack_castle(s, u, intercept=f"intercept {guard}")
    assert s.damage[u] == 2000 and s.strength(u) == 1000 and guard not in s.camp[1]
    act(s, "end")
    assert s.damage == {} and s.strength(u) == 3000


def test_basic_07_one_warlord_per_name_in_own_camp():
    """SGT-BASIC-07 (SGT-WARLORD-14): with 織田信長 (AK-01) in my camp, AK-15 (same name) cannot
    be deployed; the opponent's camp does not count."""
    s = table(deck2="紅")
    give_koku(s, 0, "紅", 7)
    nobu = put(s, "AK-15", 0, "hand")
    put(s, "AK-01", 1, "camp")                       # the opponent's 織田信長
    assert f"deploy {nobu}" in legal(s)
    put(s, "AK-01", 0, "camp")
    assert f"deploy {nobu}" not in legal(s)
    with pytest.raises(IllegalActionError):
        act(s, f"deploy {nobu}")


def test_basic_08_attack_targets_castle_or_exhausted_warlords():
    """SGT-BASIC-08: an attack targets the castle or one exhausted enemy warlord (or exhausted
    summoned soldier), never a ready one."""
    s = table()
    u = put(s, "AK-07", 0, "camp")
    ready_foe, tired_foe = put(s, "AO-02", 1, "camp"), put(s, "AO-09", 1, "camp")
    tok = s.summon(1, 1000, 0, "infantry")
    s.exhausted |= {tired_foe, tok}
    targets = {m.split()[2] for m in legal(s) if m.startswith(f"attack {u} ")}
    assert targets == {"castle", str(tired_foe), str(tok)}
    with pytest.raises(IllegalActionError):
        act(s, f"attack {u} {ready_foe}")


def test_basic_09_defender_chooses_the_interceptor():
    """SGT-BASIC-09 Ambiguity: the defender chooses freely among their ready warlords (or no
    interception), and the chosen one meets the attack."""
    s = table()
    u = put(s, "AK-07", 0, "camp")                   # 2500
    a, b, tired = put(s, "AO-02", 1, "camp"), put(s, "AO-04", 1, "camp"), put(s, "AO-09", 1, "camp")
    s.exhausted.add(tired)
    put(s, "AO-05", 1, "walls")
    act(s, f"attack {u} castle")
    assert s.pending.kind is DecisionKind.TURN and s.pending.players == (1,)
    assert legal(s, 1) == {f"intercept {a}", f"intercept {b}", "nointercept"}
    act(s, f"intercept {b}")                         # 本多忠勝 4000 (+500) beats 2500
    pass_battle(s)
    assert events(s, "intercept")[-1]["unit"] == b
    assert u in s.discard[0] and b in s.camp[1] and len(s.walls[1]) == 1


# ===== SGT-LEGACY =================================================================================
def test_legacy_01_old_series_cards_are_usable():
    """SGT-LEGACY-01: old-series cards (OLD-01, OLD-02) are legal in decks and can be played."""
    d = decks.load("紅")
    assert "OLD-01" in d.cards() and decks.check(d, POOL) == []
    assert "OLD-02" in decks.load("黒").cards()
    s = table()
    give_koku(s, 0, "紅", 3)
    old = put(s, "OLD-01", 0, "hand")
    act(s, f"deploy {old}")
    assert old in s.camp[0]


def test_legacy_02_old_terms_are_read_as_current_terms():
    """SGT-LEGACY-02: cards written with old terms (兵種, 武力, 特技) load and are flagged as
    old-series; giving an old and a new term for the same field is refused."""
    for number in ("OLD-01", "OLD-02"):
        spec = POOL[number].spec
        assert spec.legacy and spec.strength is not None and spec.unit and spec.abilities
    assert not POOL["AK-01"].spec.legacy


def test_legacy_02_old_and_new_term_together_is_refused(tmp_path):
    """SGT-LEGACY-02: a card giving both 武力 and strength is a card-data error naming it."""
    bad = tmp_path / "bad.toml"
    bad.write_text('[[card]]\nnumber = "X-01"\nname_ja = "x"\nname_en = "x"\ntype = "warlord"\n'
                   'unit = "騎兵"\nstrength = 1000\n"武力" = 1000\n', encoding="utf-8")
    with pytest.raises(CardDataError, match="武力"):
        build_pool(bad)


def test_legacy_03_buryoku_is_strength():
    """SGT-LEGACY-03: OLD-01's printed 武力 2500 is its 兵力 in play."""
    assert POOL["OLD-01"].spec.strength == 2500 and POOL["OLD-02"].spec.strength == 1500
    s = table()
    old = put(s, "OLD-01", 0, "camp")
    assert s.strength(old) == 2500


def test_legacy_04_tokugi_is_an_ability():
    """SGT-LEGACY-04: OLD-01's 特技 ({戦闘確定時} +500) works as an ability in a battle, and
    OLD-02's ({撤退時} 1000 damage) fires when it is destroyed."""
    s = table()
    old = put(s, "OLD-01", 0, "camp")
    put(s, "AO-02", 1, "walls")
    attack_castle(s, old)
    assert s.buff[old] == 500 and s.strength(old) == 3000 and s.walls[1] == []

    s = table(deck1="黒")
    gun = put(s, "OLD-02", 0, "camp")
    foe = put(s, "AO-05", 1, "camp")                 # 1000
    s.destroy(gun)
    assert foe in s.discard[1] and gun in s.discard[0]


def _unit_of(files, number):
    return pool(files["cards"])[number].spec.unit


def test_legacy_05_teppotai_is_gunner(files):
    """SGT-LEGACY-05: old 鉄砲隊 = current 鉄砲兵 (gunner), as OLD-02 and AK-05 (鉄砲兵)."""
    assert _unit_of(files, "LG-01") == "gunner" == POOL["OLD-02"].spec.unit == POOL["AK-05"].spec.unit


def test_legacy_06_kibatai_is_cavalry(files):
    """SGT-LEGACY-06: old 騎馬隊 = current 騎兵: it gets a cavalry formation's aura."""
    assert _unit_of(files, "LG-02") == "cavalry" == POOL["OLD-01"].spec.unit
    s = ext_table(files)
    horse = put(s, "LG-02", 0, "camp")
    put(s, "AK-16", 0, "koku_up")                    # 岐阜城: your cavalry +500
    assert s.strength(horse) == 1500


def test_legacy_07_yari_ashigaru_is_spearman(files):
    """SGT-LEGACY-07: old 槍足軽 = current 槍兵 (spear)."""
    assert _unit_of(files, "LG-03") == "spear" == POOL["MD-06"].spec.unit


def test_legacy_08_yumi_ashigaru_is_archer(files):
    """SGT-LEGACY-08: old 弓足軽 = current 弓兵 (archer), also when written as the unit field."""
    assert _unit_of(files, "LG-04") == "archer" == POOL["AO-01"].spec.unit


def test_legacy_09_ashigaru_is_infantry(files):
    """SGT-LEGACY-09: old 足軽 = current 歩兵: it gets an infantry formation's aura, and its
    特技 ({撤退時} draw 1) works as an ability."""
    assert _unit_of(files, "LG-05") == "infantry" == POOL["AK-07"].spec.unit
    s = ext_table(files)
    foot = put(s, "LG-05", 0, "camp")
    horse = put(s, "LG-02", 0, "camp")
    put(s, "KR-16", 0, "koku_up")                    # 吉田郡山城: your infantry +500
    assert s.strength(foot) == 1500 and s.strength(horse) == 1000
    top = s.deck[0][-1]
    s.destroy(foot)
    assert s.hand[0] == [top]


def test_legacy_10_no_regulation_restricts_old_cards_by_default():
    """SGT-LEGACY-10: a regulation may restrict old cards; none is configured, so decks with
    old cards are legal, and the old-series flag is kept for a regulation to use."""
    d = decks.parse(deck_text(fifty(["2 OLD-02"])))
    assert decks.check(d, POOL) == []
    assert {n for n, c in POOL.cards.items() if c.spec.legacy} == {"OLD-01", "OLD-02"}


def test_legacy_11_current_rules_govern_old_cards():
    """SGT-LEGACY-11: old cards follow the current rules: OLD-01 pays its cost, cannot attack
    on its placement turn except by 疾風怒濤 (discarding its twin, SGT-WARLORD-09, as any
    warlord may), and is unique by name in the camp."""
    s = table()
    give_koku(s, 0, "紅", 2)
    old, twin = put(s, "OLD-01", 0, "hand"), put(s, "OLD-01", 0, "hand", nth=1)
    assert f"deploy {old}" not in legal(s)           # 紅紅1 needs 3
    give_koku(s, 0, "紅", 4)
    act(s, f"deploy {old}")
    assert len([c for c in s.koku_up[0] if c in s.exhausted]) == 3
    moves = legal(s)
    assert {m for m in moves if m.startswith(f"attack {old} ")} == {f"attack {old} castle shippu {twin}"}
    assert f"deploy {twin}" not in moves


# ===== SGT-COLOR ==================================================================================
def test_color_01_every_card_has_a_faction_colour():
    """SGT-COLOR-01: every card of the pool has a faction colour (or colourless), and the
    colour of a face-up kokuryoku is the colour its card's faction gives."""
    assert POOL.cards and all(c.spec.color in (*COLORS, "無") for c in POOL.cards.values())
    assert {c.spec.color for c in POOL.cards.values()} >= {"蒼", "紅", "翠", "黒", "無"}


def test_color_02_costs_are_written_in_colours():
    """SGT-COLOR-02 / SGT-COST-03: a cost is colour requirements plus a generic number."""
    c = Cost.parse("紅紅1")
    assert c.colors == (("紅", 2),) and c.generic == 1 and c.total == 3 and str(c) == "紅紅1"
    assert Cost.parse("翠蒼").colors == (("蒼", 1), ("翠", 1))
    assert Cost.parse(3) == Cost((), 3) and str(Cost.parse(0)) == "0"
    with pytest.raises(ValueError, match="bad cost"):
        Cost.parse("1紅")
    assert POOL["AK-02"].cost == c


def test_color_03_five_colours_and_other_as_colourless(files, tmp_path):
    """SGT-COLOR-03: the colours are 蒼 紅 翠 黄 黒; 他 ("other") is colourless; any other
    colour is refused. A 黄 cost is paid by a face-up 黄 kokuryoku, not by 他."""
    assert COLORS == ("蒼", "紅", "翠", "黄", "黒")
    ext = pool(files["cards"])
    assert ext["TY-01"].spec.color == "黄" and ext["TY-02"].spec.color == "無"
    s = ext_table(files)
    yellow, yellow2, other = ids(s, "TY-01", 0)[:2] + [ids(s, "TY-02", 0)[0]]
    put(s, yellow, 0, "hand")
    put(s, other, 0, "koku_up")
    give_koku(s, 0, None, 1, up=False)
    assert f"deploy {yellow}" not in legal(s)        # 黄1: the 他 card pays only generic
    put(s, yellow2, 0, "koku_up")
    assert f"deploy {yellow}" in legal(s)
    bad = tmp_path / "purple.toml"
    bad.write_text('[[card]]\nnumber = "P-01"\nname_ja = "p"\nname_en = "p"\ntype = "warlord"\n'
                   'color = "紫"\nunit = "騎兵"\nstrength = 1000\n', encoding="utf-8")
    with pytest.raises(CardDataError, match="color"):
        build_pool(bad)


# ===== SGT-COST ===================================================================================
def test_cost_01_primary_use_needs_the_printed_cost():
    """SGT-COST-01: deploying a warlord or using a stratagem needs its cost paid."""
    s = table()
    w, st = put(s, "AK-03", 0, "hand"), put(s, "AK-13", 0, "hand")   # 紅 / 紅
    ally = put(s, "AK-07", 0, "camp")
    assert f"deploy {w}" not in legal(s) and f"stratagem {st} {ally}" not in legal(s)
    with pytest.raises(IllegalActionError):
        act(s, f"deploy {w}")
    give_koku(s, 0, "紅", 1)
    assert {f"deploy {w}", f"stratagem {st} {ally}"} <= legal(s)


def test_cost_02_paid_by_exhausting_one_ready_kokuryoku_per_point():
    """SGT-COST-02: paying 3 (紅2) exhausts exactly 3 ready kokuryoku, 1 per cost point."""
    s = table()
    koku = give_koku(s, 0, "紅", 4)
    w = put(s, "AK-07", 0, "hand")
    act(s, f"deploy {w}")
    assert len([c for c in koku if c in s.exhausted]) == 3
    assert len(ready_koku(s, 0)) == 1 and s.koku_up[0] == koku


def test_cost_03_a_cost_may_name_a_colour(files):
    """SGT-COST-03: 紅2 needs a 紅: three 蒼 kokuryoku cannot pay it, one 紅 and two 蒼 can."""
    s = table(deck1=files["mix"])
    w = put(s, "AK-07", 0, "hand")
    blues = [put(s, c, 0, "koku_up") for c in ids(s, "AO-05", 0)[:3]]
    assert f"deploy {w}" not in legal(s)
    put(s, blues[2], 0, "hand")
    red = give_koku(s, 0, "紅", 1)[0]
    act(s, f"deploy {w}")
    assert {red, blues[0], blues[1]} <= s.exhausted


def test_cost_04_coloured_part_only_by_face_up_kokuryoku():
    """SGT-COST-04: face-down kokuryoku never pay a coloured part, however many there are."""
    s = table()
    give_koku(s, 0, None, 5, up=False)
    w = put(s, "AK-03", 0, "hand")                   # 紅
    assert f"deploy {w}" not in legal(s)
    give_koku(s, 0, "紅", 1)
    assert f"deploy {w}" in legal(s)


def test_cost_05_a_face_up_kokuryoku_pays_its_own_colour(files):
    """SGT-COST-05: a face-up 蒼 pays 蒼 but not 紅; a face-up 紅 pays 紅."""
    s = table(deck1=files["mix"])
    red_card, blue_card = put(s, "AK-03", 0, "hand"), put(s, "AO-05", 0, "hand")
    blue = put(s, ids(s, "AO-05", 0)[1], 0, "koku_up")
    moves = legal(s)
    assert f"deploy {blue_card}" in moves and f"deploy {red_card}" not in moves
    act(s, f"deploy {blue_card}")
    assert blue in s.exhausted


def test_cost_06_generic_part_paid_by_any_kokuryoku(files):
    """SGT-COST-06: the generic part is paid by any kokuryoku: another colour face up, or face
    down; 紅2 is paid by one 紅 + one 蒼 + one face-down."""
    s = table(deck1=files["mix"])
    w = put(s, "AK-07", 0, "hand")
    red = give_koku(s, 0, "紅", 1)[0]
    blue = put(s, ids(s, "AO-05", 0)[0], 0, "koku_up")
    down = put(s, ids(s, "NT-03", 0)[0], 0, "koku_down")
    act(s, f"deploy {w}")
    assert {red, blue} <= s.exhausted and s.down_exhausted[0] == 1 and down in s.koku_down[0]


def test_cost_07_no_cost_when_not_used_for_its_primary_purpose():
    """SGT-COST-07: a card used as kokuryoku is not paid for: 明智光秀 (紅紅紅2) goes into the
    kokuryoku zone, face up or face down, with no kokuryoku at all."""
    s = table()
    big = put(s, "AK-10", 0, "hand")
    koku_phase(s)
    assert s.koku_count(0) == 0
    assert {f"koku {big} up", f"koku {big} down"} <= legal(s)
    act(s, f"koku {big} up")
    assert s.koku_up[0] == [big] and big not in s.exhausted


def test_cost_08_placing_kokuryoku_costs_nothing():
    """SGT-COST-08: placing a kokuryoku (face up or down) exhausts no kokuryoku."""
    for face in ("up", "down"):
        s = table()
        koku = give_koku(s, 0, "紅", 2)
        c = put(s, "AK-07", 0, "hand")
        koku_phase(s)
        act(s, f"koku {c} {face}")
        assert not set(koku) & s.exhausted and s.down_exhausted[0] == 0


def test_cost_09_placing_walls_costs_nothing():
    """SGT-COST-09: the 8 starting walls are placed with no kokuryoku at all, and a wall built
    by a counter-stratagem exhausts nothing."""
    s = fresh(2)
    act(s, "keep")
    assert [len(w) for w in s.walls] == [8, 8] and s.koku_count(0) == s.koku_count(1) == 0
    s = table()
    koku = give_koku(s, 1, "蒼", 2)
    put(s, "AO-02", 1, "walls")
    wall = put(s, "AO-12", 1, "walls")              # counter: build 1 wall
    u = put(s, "AK-07", 0, "camp")
    attack_castle(s, u)
    assert wall in s.discard[1] and len(s.walls[1]) == 2
    assert not set(koku) & s.exhausted


def test_cost_10_counter_stratagems_cost_nothing():
    """SGT-COST-10: a counter-stratagem fires free: its owner had no kokuryoku to pay 蒼1 (the
    card's own cost) and still draws; with kokuryoku, none is exhausted."""
    for with_koku in (False, True):
        s = table()
        koku = give_koku(s, 1, "蒼", 2) if with_koku else []
        put(s, "AO-02", 1, "walls")
        wall = put(s, "AO-11", 1, "walls")          # counter: draw 1
        top = s.deck[1][-1]
        u = put(s, "AK-07", 0, "camp")
        attack_castle(s, u)
        assert wall in s.discard[1] and s.hand[1] == [top]
        assert events(s, "counter_stratagem")[0]["card"] == wall
        assert not set(koku) & s.exhausted and s.down_exhausted[1] == 0


# ===== SGT-KOKU ===================================================================================
def test_koku_01_any_deck_card_can_be_kokuryoku():
    """SGT-KOKU-01: warlords, stratagems and formations may all be placed as kokuryoku."""
    s = table()
    cards = [put(s, n, 0, "hand") for n in ("AK-01", "AK-11", "AK-16", "NT-03")]
    koku_phase(s)
    moves = legal(s)
    for c in cards:
        assert f"koku {c} down" in moves


def test_koku_02_kokuryoku_pay_costs():
    """SGT-KOKU-02: a kokuryoku placed this turn pays for a card in the main phase."""
    s = table()
    a, b = put(s, "AK-06", 0, "hand"), put(s, "AK-03", 0, "hand")   # a 紅 card; 森可成 costs 紅
    koku_phase(s)
    act(s, f"koku {a} up")
    assert s.phase == MAIN and f"deploy {b}" in legal(s)
    act(s, f"deploy {b}")
    assert a in s.exhausted and b in s.camp[0]


def test_koku_03_placed_from_hand_into_own_zone():
    """SGT-KOKU-03: the card leaves its owner's hand for its owner's kokuryoku zone; a card not
    in hand cannot be placed."""
    s = table()
    c = put(s, "AK-07", 0, "hand")
    elsewhere = ids(s, "AK-07", 0)[1]                # still in the deck
    koku_phase(s)
    with pytest.raises(IllegalActionError):
        act(s, f"koku {elsewhere} up")
    act(s, f"koku {c} up")
    assert c not in s.hand[0] and s.koku_up[0] == [c] and s.koku_up[1] == []
    assert events(s, "koku")[-1] == {"e": "koku", "to": None, "player": 0, "card": c, "face": "up"}


def test_koku_04_at_most_one_placement_per_phase_and_optional():
    """SGT-KOKU-04: one kokuryoku per kokuryoku phase: after it the main phase begins and no
    more can be placed; skipping places none; the next own kokuryoku phase allows one again."""
    s = table()
    a, b = put(s, "AK-07", 0, "hand"), put(s, "AK-02", 0, "hand")
    koku_phase(s)
    act(s, f"koku {a} down")
    assert s.phase == MAIN and not any(m.startswith("koku") for m in legal(s))
    with pytest.raises(IllegalActionError):
        act(s, f"koku {b} down")
    assert s.koku_count(0) == 1

    s = table()
    a = put(s, "AK-07", 0, "hand")
    koku_phase(s)
    act(s, "skip")
    assert s.phase == MAIN and s.koku_count(0) == 0 and s.hand[0] == [a]
    act(s, "end")
    if s.phase == KOKU:
        act(s, "skip")
    act(s, "end")
    assert s.turn_player == 0 and s.phase == KOKU and f"koku {a} up" in legal(s)


def test_koku_05_at_most_ten_kokuryoku():
    """SGT-KOKU-05 reading (a): with 10 kokuryoku no more can be placed (the phase offers only
    skip, and a real turn goes straight to the main phase); with 9, the tenth can."""
    s = table()
    c, extra = put(s, "AK-03", 0, "hand"), put(s, "AK-07", 0, "hand")
    give_koku(s, 0, "紅", 5)
    give_koku(s, 0, None, 4, up=False)
    koku_phase(s)
    assert s.koku_count(0) == 9 and f"koku {c} up" in legal(s)
    act(s, f"koku {c} up")
    assert s.koku_count(0) == KOKU_MAX == 10
    koku_phase(s)
    assert legal(s) == {"skip"}
    with pytest.raises(IllegalActionError):
        act(s, f"koku {extra} down")
    act(s, "skip")
    act(s, "end")                                    # player 1's turn
    if s.phase == KOKU:
        act(s, "skip")
    act(s, "end")                                    # player 0 draws, then no kokuryoku phase
    assert s.turn_player == 0 and s.phase == MAIN and s.hand[0] and s.koku_count(0) == 10


def test_koku_06_each_placement_chooses_face_up_or_down():
    """SGT-KOKU-06: a warlord can go face up (into the public zone) or face down (into the
    owner-only zone)."""
    for face, zone in (("up", "koku_up"), ("down", "koku_down")):
        s = table()
        c = put(s, "AK-07", 0, "hand")
        koku_phase(s)
        assert {f"koku {c} up", f"koku {c} down"} <= legal(s)
        act(s, f"koku {c} {face}")
        assert getattr(s, zone)[0] == [c]


def test_koku_07_stratagems_are_never_placed_face_up():
    """SGT-KOKU-07: a stratagem may only go face down."""
    s = table()
    st = put(s, "AK-11", 0, "hand")
    koku_phase(s)
    assert f"koku {st} up" not in legal(s) and f"koku {st} down" in legal(s)
    before = s.to_json()
    with pytest.raises(IllegalActionError):
        act(s, f"koku {st} up")
    assert s.to_json() == before
    act(s, f"koku {st} down")
    assert s.koku_down[0] == [st]


def test_koku_08_same_name_warlord_may_be_face_up_kokuryoku():
    """SGT-KOKU-08: the uniqueness rule does not touch kokuryoku: with 織田信長 (AK-01) in the
    camp and another already face up as kokuryoku, AK-15 (same name) still goes face up."""
    s = table()
    put(s, "AK-01", 0, "camp")
    put(s, "AK-01", 0, "koku_up", nth=1)
    nobu = put(s, "AK-15", 0, "hand")
    koku_phase(s)
    assert f"koku {nobu} up" in legal(s)
    act(s, f"koku {nobu} up")
    assert nobu in s.koku_up[0] and len(s.camp[0]) == 1


def test_koku_09_face_up_formation_takes_effect():
    """SGT-KOKU-09 (SGT-FORMATION-03): 岐阜城 face up gives cavalry +500; face down nothing."""
    for face, bonus in (("down", 0), ("up", 500)):
        s = table()
        horse = put(s, "AK-03", 0, "camp")           # cavalry 1000
        foot = put(s, "AK-07", 0, "camp")            # infantry 2500
        castle = put(s, "AK-16", 0, "hand")
        koku_phase(s)
        act(s, f"koku {castle} {face}")
        assert s.strength(horse) == 1000 + bonus and s.strength(foot) == 2500


def test_koku_10_face_down_has_no_conditions():
    """SGT-KOKU-10: any card in hand may go face down: warlord, stratagem, formation, the
    most expensive card, and with no kokuryoku at all."""
    s = table()
    hand = [put(s, n, 0, "hand") for n in ("AK-10", "AK-14", "AK-16", "OLD-01")]
    koku_phase(s)
    assert {f"koku {c} down" for c in hand} <= legal(s)


def test_koku_10_face_down_card_is_hidden_from_the_opponent():
    """SGT-KOKU-10 / SGT-STATE-03: a face-down kokuryoku is face down: the opponent (and a
    spectator) sees how many, not which card, neither in the zones nor in the log."""
    s = table()
    c = put(s, "AK-10", 0, "hand")
    koku_phase(s)
    act(s, f"koku {c} down")
    assert s.view(0)["zones"]["koku_down"][0] == [c]
    for viewer in (1, None):
        v = s.view(viewer)
        assert v["zones"]["koku_down"][0] == 1
        for e in v["log"]:
            assert c not in e.values() and str(c) not in str(e.get("action", "")).split()


def test_koku_11_face_down_kokuryoku_is_colourless():
    """SGT-KOKU-11: a face-down kokuryoku yields 1 colourless: it pays a generic 1 but not a
    紅 cost, even when the card itself is 紅."""
    s = table()
    red = put(s, "AK-03", 0, "hand")
    war = put(s, "AK-06", 0, "hand")                 # 紅1
    st = put(s, "NT-03", 0, "hand")                  # 1
    koku_phase(s)
    act(s, f"koku {red} down")
    moves = legal(s)
    assert f"stratagem {st}" in moves and f"deploy {war}" not in moves


def test_koku_12_face_down_draws_one_face_up_does_not():
    """SGT-KOKU-12: placing face down draws the top card of the deck; face up draws none."""
    s = table()
    c = put(s, "AK-07", 0, "hand")
    top, n = s.deck[0][-1], len(s.deck[0])
    koku_phase(s)
    act(s, f"koku {c} down")
    assert s.hand[0] == [top] and len(s.deck[0]) == n - 1
    s = table()
    c = put(s, "AK-07", 0, "hand")
    n = len(s.deck[0])
    koku_phase(s)
    act(s, f"koku {c} up")
    assert s.hand[0] == [] and len(s.deck[0]) == n


def test_koku_12_bonus_draw_from_an_empty_deck_draws_nothing_and_does_not_lose():
    """SGT-KOKU-12 Ambiguity: with an empty deck the bonus draw draws nothing and nobody loses
    at that moment; the game goes on to the main phase."""
    s = table()
    c = put(s, "AK-07", 0, "hand")
    s.deck[0] = []
    koku_phase(s)
    act(s, f"koku {c} down")
    assert s.outcome is None and s.hand[0] == [] and s.koku_down[0] == [c]
    assert s.phase == MAIN and "end" in legal(s)


def test_koku_13_kokuryoku_never_flip_nor_leave():
    """SGT-KOKU-13: no action flips a kokuryoku or takes it out of the zone: through turns of
    paying, attacking and readying, every kokuryoku stays where and how it was placed."""
    s = table()
    up = give_koku(s, 0, "紅", 3)
    down = give_koku(s, 0, None, 2, up=False)
    their = give_koku(s, 1, "蒼", 2)
    put(s, "AK-07", 0, "hand")
    put(s, "AO-02", 1, "hand")
    koku = set(up) | set(down) | set(their)
    for _ in range(6):
        for p in s.pending.players:
            for a in s.legal_actions(p):
                named = a.args[:1] + a.args[2:] if a.verb == "ability" else a.args   # [1]: an index
                assert not koku & set(named), a
        moves = legal(s)
        deploy = sorted(m for m in moves if m.startswith("deploy"))
        if s.phase == KOKU:
            act(s, "skip")
        elif deploy:
            act(s, deploy[0])
        else:
            act(s, "end")
    assert len(events(s, "deploy")) == 2             # both players paid from their kokuryoku
    assert s.koku_up == [up, their] and s.koku_down == [down, []]
    koku_phase(s, 0)
    for text in (f"koku {up[0]} down", f"koku {down[0]} up"):
        with pytest.raises(IllegalActionError):
            act(s, text)


# ===== bad input ==================================================================================
def test_illegal_actions_leave_the_state_unchanged():
    """Bad input: illegal actions in every kind of decision raise IllegalActionError and leave
    `to_json()` exactly as it was."""
    def refused(s, *attempts):
        before = s.to_json()
        for a in attempts:
            with pytest.raises(IllegalActionError):
                s.apply(a) if isinstance(a, Action) else act(s, a, s.to_act[0] if s.to_act else 0)
            assert s.to_json() == before

    s = fresh(P0_SECOND)                                     # mulligan of player 0
    refused(s, Action(1, "mulligan"), Action(1, "keep"), "deploy 3", "mulligan 5", "")
    s = table()
    st, w = put(s, "AK-11", 0, "hand"), put(s, "AK-10", 0, "hand")
    koku_phase(s)
    refused(s, f"koku {st} up", f"koku {w} sideways", "koku 999 down", Action(1, "skip"))
    s.phase = MAIN
    u = put(s, "AK-07", 0, "camp", placed_turn=s.turn)
    refused(s, f"deploy {w}", f"attack {u} castle", "no_such_verb 1", "end 1")
    s.turn += 1
    tired, guard = put(s, "AO-02", 1, "camp"), put(s, "AO-05", 1, "camp")
    s.exhausted.add(tired)
    put(s, "AO-02", 1, "walls", nth=1)
    act(s, f"attack {u} castle")
    assert s.phase == INTERCEPT and legal(s, 1) == {f"intercept {guard}", "nointercept"}
    refused(s, f"intercept {tired}", Action(0, "nointercept"))
    s = table()
    for c in find(s, 0, type="warlord")[:8]:
        put(s, c, 0, "hand")
    act(s, "end")
    assert s.phase == DISCARD
    refused(s, f"discard {s.deck[0][0]}", "end", Action(1, "discard", (s.hand[0][0],)))
    s.apply(Action(1, "concede"))
    refused(s, Action(0, "end"), Action(1, "concede"), Action(0, "concede"))
