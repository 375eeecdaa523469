"""Rule tests for combat in いばらの姫と4人の騎士: single-card combat and the optional
multi-card combat of the addendum (IBR-COMBAT-MULTI, -RYAN, -RING, -MIX).

Each test builds a precise table with the helpers, starts a combat by moving seat 0's knight
(square 2) onto seat 1's knight (square 1), acts through the public driver surface
(`apply` / `legal_actions` / `pending` / `view`) and checks the real effect. Clause IDs refer
to docs/rules/ibara.md; the engine follows the catalogue's recommended readings.

Fixed choices of the table built by `duel`:
  - seats 0 and 1 play シオン and ミレイユ (no combat bonus) unless a test says otherwise;
  - the movement card is the first 剣1 (moves 3; the lowest card id, so it is the card the
    engine offers for a 3-step move), so no test fights with 剣1;
  - the second 巻物9 is on top of the deck: a loser is randomly placed on square 9
    (squares 8 and 11 hold the other knights, 3 the event marker), so no test fights with
    two 巻物9.
Suits: 剣 beats 巻物, 巻物 beats 拳, 拳 beats 剣; a 盾 shield (defender only) forces a tie unless
the attacking play is worth 13 or more.
"""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import takujo
from takujo.core.decision import DecisionKind
from takujo.core.errors import IllegalActionError
from takujo.games.ibara.state import (ACT, COMBAT_CHOOSE, COMBAT_DECLARE, COMBAT_DROP, COMBAT_PLAY,
                                      COMBAT_RING)

from .helpers import act, card, escort, events, give, give_item, legal, place, stack, table

KNIGHTS = ["sion", "mireille", "ryan", "gaiblitz"]
RYAN_ATTACKS = ["ryan", "mireille", "sion", "gaiblitz"]
FROM, AT, LANDING = 2, 1, 9          # attacker's square, defender's square, random placement


# ----- builders ----------------------------------------------------------------------------------
def ids(s, text: str) -> list[int]:
    """Card ids for "剣8 剣8 巻物8 SP:teleport": repeated cards take the next copy."""
    out: list[int] = []
    for tok in text.split():
        if tok.startswith("SP:"):
            sp = tok[3:]
            nth = sum(1 for c in out if s.card(c).sp == sp)
            out.append(card(s, None, sp=sp, nth=nth))
            continue
        m = re.fullmatch(r"(\D+)(\d+)", tok)
        suit, number = m.group(1), int(m.group(2))
        nth = sum(1 for c in out if s.card(c).suit == suit and s.card(c).number == number)
        out.append(card(s, suit, number, nth=nth))
    return out


def duel(attacker: str, defender: str, multi: bool = True, knights: list[str] = KNIGHTS):
    """Seat 0 (square 2) holds the movement card and `attacker`, seat 1 (square 1) holds
    `defender`. Returns (state, movement card, attacker's cards, defender's cards)."""
    s = table(multi_card_combat=multi, knights=knights)
    place(s, 0, FROM)
    place(s, 1, AT)
    mv = card(s, "剣", 1)
    both = ids(s, attacker + " " + defender)
    a, d = both[:len(attacker.split())], both[len(attacker.split()):]
    give(s, 0, mv, *a)
    give(s, 1, *d)
    stack(s, [card(s, "巻物", 9, nth=1)])
    return s, mv, a, d


def start(s, mv: int) -> None:
    act(s, f"move {mv} {AT}")


def play(*cards: int) -> str:
    return "fight " + " ".join(map(str, sorted(cards)))


def ring(*cards: int) -> str:
    return "ring " + " ".join(map(str, sorted(cards)))


def fight(s, a: list[int] | None, d: list[int] | None, declare: bool = True) -> None:
    """Declare the counts (multi-card combat), then commit both plays, attacker first."""
    if declare:
        act(s, f"declare {len(a)}", 0)
        act(s, f"declare {len(d)}", 1)
    assert s.phase == COMBAT_PLAY
    act(s, play(*a), 0)
    act(s, play(*d), 1)


def refused(s, text: str, player: int | None = None) -> None:
    """The action is illegal and the state is left exactly as it was."""
    before = s.clone()
    with pytest.raises(IllegalActionError):
        act(s, text, player)
    assert s == before


def result(s) -> dict:
    [r] = events(s, "combat_result")
    return r


def over(s) -> None:
    """The combat is over and seat 0's turn goes on."""
    assert s.phase == ACT and s.combat is None and s.commits is None
    assert s.pending.players == (0,)


def attacker_won(s, a: list[int], d: list[int]) -> None:
    over(s)
    assert result(s)["result"] == 1
    assert s.pos[0] == AT and s.pos[1] == LANDING                  # the loser is placed at random
    assert [e["square"] for e in events(s, "placed") if e["why"] == "combat"] == [LANDING]
    assert set(a) | set(d) <= set(s.discard)                        # played cards are discarded


def defender_won(s, a: list[int], d: list[int]) -> None:
    over(s)
    assert result(s)["result"] == -1
    assert s.pos[1] == AT and s.pos[0] == LANDING
    assert [e["square"] for e in events(s, "placed") if e["why"] == "combat"] == [LANDING]
    assert set(a) | set(d) <= set(s.discard)


def tied(s, a: list[int], d: list[int]) -> None:
    over(s)
    assert result(s)["result"] == 0
    assert s.pos[0] == FROM and s.pos[1] == AT                      # the attacker goes back
    assert [e["player"] for e in events(s, "tie")] == [0]
    assert not [e for e in events(s, "placed") if e["why"] == "combat"]
    assert set(a) | set(d) <= set(s.discard)


# ----- IBR-COMBAT-MULTI-01 / -02: the option ----------------------------------------------------
def test_multi_01_option_is_off_by_default():
    """IBR-COMBAT-MULTI-01: the multi-card combat rule is optional, and off by default."""
    assert takujo.load("ibara").options.multi_card_combat is False
    assert takujo.load("ibara", multi_card_combat=True).options.multi_card_combat is True


def test_multi_01_option_off_single_cards_only_and_no_declarations():
    """IBR-COMBAT-MULTI-01 / IBR-COMBAT-MULTI-02: with the option off, nobody declares a
    count and each side fights with exactly one card, committed hidden at once."""
    s, mv, (a5, a6), (d10, d3) = duel("剣5 剣6", "剣10 巻物3", multi=False)
    start(s, mv)
    assert s.phase == COMBAT_PLAY and s.pending.kind is DecisionKind.SIMULTANEOUS
    assert s.pending.players == (0, 1)
    assert not events(s, "declare")
    assert legal(s, 0) == {play(a5), play(a6)}
    assert legal(s, 1) == {play(d10), play(d3)}
    refused(s, play(a5, a6), 0)                 # a same-suit pair is no play without the option
    refused(s, "declare 2", 0)
    act(s, play(a6), 0)
    act(s, play(d3), 1)
    assert result(s)["attacker"] == ["剣", 6] and result(s)["defender"] == ["巻物", 3]
    attacker_won(s, [a6], [d3])                 # 剣 beats 巻物
    assert a5 in s.hands[0] and d10 in s.hands[1]


def test_ring_01_single_card_combat_holder_plays_again():
    """IBR-COMBAT-RING-01 ("自分の出したカードと相手のカードが明らかになった時点で、既に出した
    カードは含めずにもう１回カードを選択して出せる"): the chip is in the base item pool, so in
    single-card combat too the holder may, once both cards are revealed, play again without the
    card already played; the first card is spent, the ring used up [designed: the chip's base
    text]. 剣3 loses to 拳9; the redo 巻物2 beats it."""
    s, mv, (a3, a2), (d9,) = duel("剣3 巻物2", "拳9", multi=False)
    r = give_item(s, 0, "akuun_no_yubiwa")
    start(s, mv)
    fight(s, [a3], [d9], declare=False)
    assert s.phase == COMBAT_RING and s.pending.players == (0,)
    assert legal(s, 0) == {"noring", ring(a2)}              # not the card already played
    refused(s, ring(a3), 0)
    act(s, ring(a2), 0)
    assert r in s.item_discard and r not in s.items[0]
    assert result(s)["attacker"] == ["巻物", 2]
    attacker_won(s, [a3, a2], [d9])


def test_ring_02_single_card_combat_redo_is_one_card():
    """IBR-COMBAT-RING-02: "２回目のカードの出し方は１枚でも複数でも構いません" — the second play
    follows the play patterns in force; without multi-card combat that is one card (剣5 and
    剣6 are no pair here), and a holder whose opponent already lost may still decline."""
    s, mv, (a5, a6, a9), (d4,) = duel("剣5 剣6 巻物9", "拳4", multi=False)
    give_item(s, 1, "akuun_no_yubiwa")
    start(s, mv)
    fight(s, [a9], [d4], declare=False)                   # 巻物 beats 拳: the defender loses
    assert s.phase == COMBAT_RING and s.pending.players == (1,)
    assert legal(s, 1) == {"noring"}                        # nothing left to play: may only pass
    act(s, "noring", 1)
    attacker_won(s, [a9], [d4])
    s, mv, (a5, a6), (d9,) = duel("剣5 剣6", "拳9", multi=False)
    give_item(s, 0, "akuun_no_yubiwa")
    start(s, mv)
    fight(s, [a5], [d9], declare=False)
    assert legal(s, 0) == {"noring", ring(a6)}
    refused(s, ring(a6, 99), 0)


def test_multi_02_a_player_may_play_several_cards_or_still_one():
    """IBR-COMBAT-MULTI-02: with the option on, a player may play several cards instead of
    one — or still just one."""
    s, mv, (a5, a6), (d10, d9) = duel("剣5 剣6", "剣10 剣9")
    start(s, mv)
    assert s.phase == COMBAT_DECLARE
    assert legal(s, 0) == {"declare 1", "declare 2"}
    act(s, "declare 2", 0)
    assert legal(s, 1) == {"declare 1", "declare 2"}
    act(s, "declare 1", 1)
    assert legal(s, 0) == {play(a5, a6)}
    act(s, play(a5, a6), 0)
    act(s, play(d10), 1)
    assert result(s)["attacker"] == ["剣", 11] and result(s)["defender"] == ["剣", 10]
    attacker_won(s, [a5, a6], [d10])
    assert d9 in s.hands[1]


# ----- IBR-COMBAT-MULTI-03: declarations, hidden commit, reveal ---------------------------------
def test_multi_03_attacker_declares_first_then_defender_publicly():
    """IBR-COMBAT-MULTI-03: the attacker declares the count first, then the defender, in the
    open: the defender knows the attacker's count before declaring."""
    s, mv, (a5, a6, s5), (d4, d9) = duel("剣5 剣6 巻物5", "拳4 拳9")
    start(s, mv)
    assert s.phase == COMBAT_DECLARE
    assert s.pending.kind is DecisionKind.TURN and s.pending.players == (0,)
    assert legal(s, 0) == {"declare 1", "declare 2"}       # no legal play of three
    assert legal(s, 1) == set()
    refused(s, "declare 1", 1)                             # the defender cannot go first
    refused(s, "declare 3", 0)
    act(s, "declare 2", 0)
    assert [(e["player"], e["cards"], e["to"]) for e in events(s, "declare")] == [(0, 2, None)]
    assert s.pending.kind is DecisionKind.TURN and s.pending.players == (1,)
    v1 = s.view(1)
    assert v1["public"]["combat"]["size"][0] == 2
    assert any(e["e"] == "declare" and e["player"] == 0 and e["cards"] == 2 for e in v1["log"])
    refused(s, "declare 1", 0)                             # the attacker declared already
    act(s, "declare 1", 1)
    assert [(e["player"], e["cards"]) for e in events(s, "declare")] == [(0, 2), (1, 1)]
    assert s.view(0)["public"]["combat"]["size"] == [2, 1]
    # Now both commit at once, each with the count declared.
    assert s.phase == COMBAT_PLAY and s.pending.kind is DecisionKind.SIMULTANEOUS
    assert s.pending.players == (0, 1)
    assert legal(s, 0) == {play(a5, a6), play(a5, s5)}
    assert legal(s, 1) == {play(d4), play(d9)}
    refused(s, play(a5), 0)                                # not the declared count
    refused(s, play(d4, d9), 1)


def test_multi_03_plays_are_committed_hidden_and_revealed_together():
    """IBR-COMBAT-MULTI-03: the plays are committed face down simultaneously — the opponent
    sees only how many cards — and revealed together once both have committed."""
    s, mv, (a5, a6, s5), (d4, d9) = duel("剣5 剣6 巻物5", "拳4 拳9")
    start(s, mv)
    act(s, "declare 2", 0)
    act(s, "declare 1", 1)
    act(s, play(a5, a6), 0)
    assert s.phase == COMBAT_PLAY and s.pending.players == (1,)
    v1 = s.view(1)
    assert v1["zones"]["played"][0] == 2                    # a count, not the cards
    assert v1["zones"]["hand"][0] == 1
    assert v1["public"]["combat"]["plays"] == [[], []]
    assert not any(e["e"] == "act" and e["player"] == 0 and e["action"].startswith("fight")
                   for e in v1["log"])
    assert [(e["player"], e["n"]) for e in events(s, "committed")] == [(0, 2)]
    assert sorted(s.view(0)["zones"]["played"][0]) == [a5, a6]
    assert not events(s, "reveal")
    refused(s, play(a5, s5), 0)                             # a commit cannot be changed
    assert s.legal_actions(0) == []
    act(s, play(d9), 1)
    assert [(e["player"], sorted(e["cards"])) for e in events(s, "reveal")] == [
        (0, sorted([a5, a6])), (1, [d9])]
    # both revealed in one step: no decision in between
    kinds = [e["e"] for e in s.log]
    first = kinds.index("reveal")
    assert kinds[first:first + 2] == ["reveal", "reveal"]
    assert result(s)["attacker"] == ["剣", 11] and result(s)["defender"] == ["拳", 9]
    defender_won(s, [a5, a6], [d9])                         # 拳 beats 剣 whatever the sum
    assert s.hands[0] == [s5] and s.hands[1] == [d4]


def test_multi_03_the_defender_may_commit_first():
    """IBR-COMBAT-MULTI-03: the commit is simultaneous, so the order of commits is free; the
    attacker then sees only the defender's count."""
    s, mv, (a5, a6), (d10,) = duel("剣5 剣6", "剣10")
    start(s, mv)
    act(s, "declare 2", 0)
    assert legal(s, 1) == {"declare 1"}
    act(s, "declare 1", 1)
    act(s, play(d10), 1)
    assert s.pending.players == (0,)
    assert s.view(0)["zones"]["played"][1] == 1
    act(s, play(a5, a6), 0)
    attacker_won(s, [a5, a6], [d10])


# ----- IBR-COMBAT-MULTI-04 / -05 / -06: patterns and same-suit sums -----------------------------
def test_multi_04_only_same_suit_or_same_number_patterns():
    """IBR-COMBAT-MULTI-04: a multi-card play is several cards of one suit, or several cards of
    one number in different suits; anything else is refused. Shields fight alone."""
    s, mv, (a5, a9, s5, s7, sh3), (dsh2, dsh4, d2) = duel("剣5 剣9 巻物5 巻物7 盾3", "盾2 盾4 剣2")
    start(s, mv)
    assert legal(s, 0) == {"declare 1", "declare 2"}
    act(s, "declare 2", 0)
    assert legal(s, 1) == {"declare 1"}                     # 盾+盾 and 盾2+剣2 are no plays
    refused(s, "declare 2", 1)
    act(s, "declare 1", 1)
    assert legal(s, 0) == {play(a5, a9), play(s5, s7), play(a5, s5)}
    for bad in ((a9, s7), (a5, s7), (a9, s5), (a5, sh3)):
        refused(s, play(*bad), 0)
    assert legal(s, 1) == {play(dsh2), play(dsh4), play(d2)}


def test_multi_05_same_suit_sums_even_with_different_numbers():
    """IBR-COMBAT-MULTI-05: a same-suit play is worth the sum of its numbers (the numbers may
    differ), in that suit: 巻物2+3+4 = 巻物9 beats 巻物8."""
    s, mv, a, (d8,) = duel("巻物2 巻物3 巻物4", "巻物8")
    start(s, mv)
    act(s, "declare 3", 0)
    act(s, "declare 1", 1)
    fight(s, a, [d8], declare=False)
    assert result(s)["attacker"] == ["巻物", 9] and result(s)["defender"] == ["巻物", 8]
    attacker_won(s, a, [d8])


@pytest.mark.parametrize("attack, outcome", [("剣6 剣7", "win"), ("剣5 剣7", "tie"),
                                             ("剣2 剣3 剣8", "win")])
def test_multi_06_a_same_suit_sum_of_13_breaks_a_shield(attack, outcome):
    """IBR-COMBAT-MULTI-06: a same-suit sum worth 13 or more breaks the tie a shield forces
    (剣6+7 = 13 wins); 12 still ties, and the attacker goes back."""
    s, mv, a, (sh,) = duel(attack, "盾2")
    start(s, mv)
    fight(s, a, [sh])
    assert result(s)["defender"] == ["盾", 2]
    assert result(s)["attacker"] == ["剣", sum(s.card(c).number for c in a)]
    (attacker_won if outcome == "win" else tied)(s, a, [sh])


def test_multi_06_a_single_card_never_breaks_a_shield():
    """IBR-COMBAT-MULTI-06 (contrast): one card is worth 12 at most, so alone it always ties
    against a shield."""
    s, mv, (a12,), (sh,) = duel("剣12", "盾1")
    start(s, mv)
    fight(s, [a12], [sh])
    tied(s, [a12], [sh])


# ----- IBR-COMBAT-MULTI-07 / -08: same-number plays ---------------------------------------------
@pytest.mark.parametrize("suit, outcome", [("巻物", "lose"), ("剣", "win")])
def test_multi_07_same_number_player_chooses_the_suit_after_seeing(suit, outcome):
    """IBR-COMBAT-MULTI-07: after the reveal, the player of a same-number play picks one of its
    cards; that card alone fights, with its own number (巻物8 loses to 巻物9 — it is not 16),
    while 剣8 beats 巻物9 by suit."""
    s, mv, (a8, s8), (d9,) = duel("剣8 巻物8", "巻物9")
    start(s, mv)
    fight(s, [a8, s8], [d9])
    assert s.phase == COMBAT_CHOOSE
    assert s.pending.kind is DecisionKind.TURN and s.pending.players == (0,)
    assert s.view(0)["public"]["combat"]["plays"][1] == [d9]   # the opponent's card is known
    assert legal(s, 0) == {"choose 剣", "choose 巻物"}
    refused(s, "choose 拳", 0)
    refused(s, "choose 剣", 1)
    act(s, f"choose {suit}", 0)
    assert [(e["player"], e["suit"]) for e in events(s, "choose")] == [(0, suit)]
    assert result(s)["attacker"] == [suit, 8]
    (attacker_won if outcome == "win" else defender_won)(s, [a8, s8], [d9])


def test_multi_07_the_defender_chooses_too():
    """IBR-COMBAT-MULTI-07: the defender's same-number play is chosen by the defender, knowing
    the attacker's card: 剣4 beats 巻物10."""
    s, mv, (a10,), (d4, f4) = duel("巻物10", "剣4 拳4")
    start(s, mv)
    fight(s, [a10], [d4, f4])
    assert s.phase == COMBAT_CHOOSE and s.pending.players == (1,)
    assert legal(s, 1) == {"choose 剣", "choose 拳"}
    act(s, "choose 剣", 1)
    assert result(s)["defender"] == ["剣", 4]
    defender_won(s, [a10], [d4, f4])


@pytest.mark.parametrize("suit", ["剣", "巻物", "拳"])
def test_multi_08_a_same_number_play_cannot_break_a_shield(suit):
    """IBR-COMBAT-MULTI-08: a same-number play wins by suit but is useless against a shield:
    剣12/巻物12/拳12 is worth 12 whichever card is chosen, so the shield's tie stands."""
    s, mv, a, (sh,) = duel("剣12 巻物12 拳12", "盾1")
    start(s, mv)
    fight(s, a, [sh])
    assert s.phase == COMBAT_CHOOSE and legal(s, 0) == {"choose 剣", "choose 巻物", "choose 拳"}
    act(s, f"choose {suit}", 0)
    assert result(s)["attacker"] == [suit, 12]
    tied(s, a, [sh])


# ----- IBR-COMBAT-MULTI-09 / -10: both same-number plays ----------------------------------------
def test_multi_09_both_same_number_each_drops_one_card_hidden_then_contest():
    """IBR-COMBAT-MULTI-09: when both made same-number plays, each discards one of the played
    cards in secret (a simultaneous choice), and the rest fight: 剣8 against 拳5, 拳 wins."""
    s, mv, (a8, s8), (f5, d5) = duel("剣8 巻物8", "拳5 剣5")
    start(s, mv)
    fight(s, [a8, s8], [f5, d5])
    assert s.phase == COMBAT_DROP and s.pending.kind is DecisionKind.SIMULTANEOUS
    assert s.pending.players == (0, 1)
    assert legal(s, 0) == {f"drop {a8}", f"drop {s8}"}
    assert legal(s, 1) == {f"drop {f5}", f"drop {d5}"}
    assert not events(s, "choose")
    refused(s, f"drop {f5}", 0)                            # only one's own cards
    act(s, f"drop {s8}", 0)
    assert s.pending.players == (1,)
    v1 = s.view(1)
    assert not any(e["e"] == "act" and e["player"] == 0 and e["action"].startswith("drop")
                   for e in v1["log"])
    assert sorted(v1["public"]["combat"]["plays"][0]) == sorted([a8, s8])
    assert not events(s, "dropped")
    refused(s, f"drop {a8}", 0)                            # one drop each
    act(s, f"drop {d5}", 1)
    dropped = events(s, "dropped")
    assert [(e["player"], e["n"], e["remaining"]) for e in dropped] == [(0, 1, [a8]), (1, 1, [f5])]
    assert result(s)["attacker"] == ["剣", 8] and result(s)["defender"] == ["拳", 5]
    defender_won(s, [a8, s8], [f5, d5])


def test_multi_09_the_side_left_with_several_cards_then_chooses():
    """IBR-COMBAT-MULTI-09 (recommended reading): once one side is down to one card, the side
    still holding several cards chooses as in IBR-COMBAT-MULTI-07."""
    s, mv, (a8, s8, f8), (d5, t5) = duel("剣8 巻物8 拳8", "剣5 巻物5")
    start(s, mv)
    fight(s, [a8, s8, f8], [d5, t5])
    assert s.phase == COMBAT_DROP
    act(s, f"drop {f8}", 0)
    act(s, f"drop {t5}", 1)
    assert s.phase == COMBAT_CHOOSE and s.pending.players == (0,)
    assert legal(s, 0) == {"choose 剣", "choose 巻物"}
    act(s, "choose 剣", 0)
    assert result(s)["attacker"] == ["剣", 8] and result(s)["defender"] == ["剣", 5]
    attacker_won(s, [a8, s8, f8], [d5, t5])
    assert f8 in s.discard and t5 in s.discard


def test_multi_10_drops_repeat_while_both_have_several_suits_then_base_tie():
    """IBR-COMBAT-MULTI-10: while the combat is undecided and both sides still hold several
    suits, the hidden drop repeats; when both are down to one card, a tie is the base tie
    (the attacker goes back) — no endless loop."""
    s, mv, a, d = duel("剣7 巻物7 拳7", "剣7 巻物7 拳7")
    (a7, as7, af7), (d7, ds7, df7) = a, d
    start(s, mv)
    fight(s, a, d)
    assert s.phase == COMBAT_DROP
    act(s, f"drop {af7}", 0)
    act(s, f"drop {ds7}", 1)
    assert s.phase == COMBAT_DROP and s.pending.players == (0, 1)      # again
    assert legal(s, 0) == {f"drop {a7}", f"drop {as7}"}
    assert legal(s, 1) == {f"drop {d7}", f"drop {df7}"}
    assert not events(s, "combat_result")
    act(s, f"drop {as7}", 0)
    act(s, f"drop {df7}", 1)
    assert len(events(s, "dropped")) == 4
    assert result(s)["attacker"] == ["剣", 7] and result(s)["defender"] == ["剣", 7]
    tied(s, a, d)


def test_multi_10_loop_guard_resolves_instead_of_dropping():
    """IBR-COMBAT-MULTI-10 (loop guard): past the guard's number of drop rounds the combat is
    resolved at once instead of asking for another drop."""
    s, mv, a, d = duel("剣8 巻物8", "拳5 剣5")
    start(s, mv)
    act(s, "declare 2", 0)
    act(s, "declare 2", 1)
    act(s, play(*a), 0)
    s.combat.drops = 24                                  # as if 24 rounds had been dropped
    act(s, play(*d), 1)
    assert not events(s, "dropped")
    over(s)
    assert len(events(s, "combat_result")) == 1


# ----- IBR-COMBAT-RYAN-01 / -02 -----------------------------------------------------------------
def test_ryan_01_escorting_ryan_adds_an_sp_card_worth_15_of_the_suit():
    """IBR-COMBAT-RYAN-01: ライアン escorting the princess may add an SP card to a multi-card
    play; it counts as the play's suit with strength 15. 巻物1+SP = 16, +2 for ゲイブリッツ's
    combat ability, which ライアン has while escorting (IBR-RYAN-01): 巻物18 beats 巻物12."""
    s, mv, (s1, sp), (d12,) = duel("巻物1 SP:teleport", "巻物12", knights=RYAN_ATTACKS)
    escort(s, 0)
    start(s, mv)
    assert s.princess == AT
    assert legal(s, 0) == {"declare 1", "declare 2"}
    act(s, "declare 2", 0)
    act(s, "declare 1", 1)
    assert legal(s, 0) == {play(s1, sp)}
    act(s, play(s1, sp), 0)
    act(s, play(d12), 1)
    assert result(s)["attacker"] == ["巻物", 1 + 15 + 2]
    attacker_won(s, [s1, sp], [d12])
    assert s.escort == 0 and s.princess == AT


def test_ryan_01_sp_cards_need_a_normal_card_and_each_counts_15():
    """IBR-COMBAT-RYAN-01 (recommended reading): an SP card is never played alone (a normal card
    gives the suit); each SP card counts 15. 剣2+SP+SP = 32 (+2) breaks a shield."""
    s, mv, (a1, sp1, sp2), (sh,) = duel("剣2 SP:teleport SP:draw", "盾6", knights=RYAN_ATTACKS)
    escort(s, 0)
    start(s, mv)
    assert legal(s, 0) == {"declare 1", "declare 2", "declare 3"}
    act(s, "declare 1", 0)
    act(s, "declare 1", 1)
    assert legal(s, 0) == {play(a1)}                        # an SP card does not fight alone
    refused(s, play(sp1), 0)

    s, mv, a, (sh,) = duel("剣2 SP:teleport SP:draw", "盾6", knights=RYAN_ATTACKS)
    escort(s, 0)
    start(s, mv)
    fight(s, a, [sh])
    assert result(s)["attacker"] == ["剣", 2 + 15 + 15 + 2]
    attacker_won(s, a, [sh])


def test_ryan_01_the_player_chooses_which_sp_card_to_spend():
    """IBR-COMBAT-RYAN-01: any of ライアン's SP cards may be the one added; different SP cards
    are different choices (the other stays in hand for its own effect)."""
    s, mv, (a5, tele, draw), (d9,) = duel("剣5 SP:teleport SP:draw", "剣9", knights=RYAN_ATTACKS)
    escort(s, 0)
    start(s, mv)
    act(s, "declare 2", 0)
    act(s, "declare 1", 1)
    assert legal(s, 0) == {play(a5, tele), play(a5, draw)}
    act(s, play(a5, draw), 0)
    act(s, play(d9), 1)
    assert result(s)["attacker"] == ["剣", 5 + 15 + 2]
    attacker_won(s, [a5, draw], [d9])
    assert s.hands[0] == [tele]


@pytest.mark.parametrize("who", ["ryan_alone", "other_escort"])
def test_ryan_01_no_sp_card_unless_ryan_escorts(who):
    """IBR-COMBAT-RYAN-01: only ライアン, and only while escorting the princess, may add an SP
    card: ライアン alone, or シオン escorting, cannot."""
    knights = RYAN_ATTACKS if who == "ryan_alone" else KNIGHTS
    s, mv, (a5, sp), (d9,) = duel("剣5 SP:teleport", "剣9", knights=knights)
    if who == "other_escort":
        escort(s, 0)                                        # シオン escorts
    start(s, mv)
    assert legal(s, 0) == {"declare 1"}
    refused(s, "declare 2", 0)
    act(s, "declare 1", 0)
    act(s, "declare 1", 1)
    assert legal(s, 0) == {play(a5)}
    refused(s, play(a5, sp), 0)
    refused(s, play(sp), 0)


def test_ryan_01_no_sp_card_in_single_card_combat():
    """IBR-COMBAT-RYAN-01: without the option there are no multi-card plays, so even escorting
    ライアン fights with one normal card."""
    s, mv, (a5, sp), (d9,) = duel("剣5 SP:teleport", "剣9", multi=False, knights=RYAN_ATTACKS)
    escort(s, 0)
    start(s, mv)
    assert s.phase == COMBAT_PLAY and legal(s, 0) == {play(a5)}
    refused(s, play(a5, sp), 0)


def test_ryan_02_no_sp_card_in_same_number_plays():
    """IBR-COMBAT-RYAN-02: SP cards cannot join a same-number (different-suit) play, nor a mixed
    same-number play (IBR-COMBAT-MIX-01); they may join a same-suit play."""
    s, mv, (a5, s5, sp), (d9,) = duel("剣5 巻物5 SP:teleport", "剣9", knights=RYAN_ATTACKS)
    escort(s, 0)
    start(s, mv)
    assert legal(s, 0) == {"declare 1", "declare 2"}       # no play of three
    refused(s, "declare 3", 0)
    act(s, "declare 2", 0)
    act(s, "declare 1", 1)
    assert legal(s, 0) == {play(a5, s5), play(a5, sp), play(s5, sp)}

    s, mv, (a5, b5, s5, sp), (d9,) = duel("剣5 剣5 巻物5 SP:teleport", "剣9", knights=RYAN_ATTACKS)
    escort(s, 0)
    start(s, mv)
    assert legal(s, 0) == {"declare 1", "declare 2", "declare 3"}
    act(s, "declare 3", 0)
    act(s, "declare 1", 1)
    assert legal(s, 0) == {play(a5, b5, s5), play(a5, b5, sp)}
    refused(s, play(a5, s5, sp), 0)
    refused(s, "declare 4", 0)


# ----- IBR-COMBAT-RING-01 / -02 -----------------------------------------------------------------
def test_ring_01_holder_plays_again_after_the_reveal_first_cards_spent():
    """IBR-COMBAT-RING-01: after the reveal, the ring's holder may play once more with cards
    other than those played; the first cards are spent, the opponent does not replay, and the
    ring is used up. 剣3 loses to 拳9; the redo 巻物2 beats it."""
    s, mv, (a3, s2), (d9, d1) = duel("剣3 巻物2", "拳9 拳1")
    r = give_item(s, 0, "akuun_no_yubiwa")
    start(s, mv)
    fight(s, [a3], [d9])
    assert len(events(s, "reveal")) == 2
    assert s.phase == COMBAT_RING
    assert s.pending.kind is DecisionKind.TURN and s.pending.players == (0,)
    assert legal(s, 0) == {"noring", ring(s2)}              # not the card already played
    assert legal(s, 1) == set()
    refused(s, ring(a3), 0)
    act(s, ring(s2), 0)
    assert [(e["player"], e["cards"]) for e in events(s, "ring")] == [(0, [s2])]
    assert r not in s.items[0] and r in s.item_discard      # used up
    assert result(s)["attacker"] == ["巻物", 2] and result(s)["defender"] == ["拳", 9]
    attacker_won(s, [a3, s2], [d9])                         # 剣3 is spent, not back in hand
    assert d1 in s.hands[1]


def test_ring_01_holder_may_decline_and_keeps_the_ring():
    """IBR-COMBAT-RING-01: using the ring is a choice; declining keeps it and the first plays
    decide."""
    s, mv, (a3, s2), (d9,) = duel("剣3 巻物2", "拳9")
    r = give_item(s, 0, "akuun_no_yubiwa")
    start(s, mv)
    fight(s, [a3], [d9])
    act(s, "noring", 0)
    assert r in s.items[0] and not events(s, "ring")
    defender_won(s, [a3], [d9])
    assert s.hands[0] == [s2]


def test_ring_01_defender_holder_replays_after_seeing_the_attack():
    """IBR-COMBAT-RING-01: the defender holding the ring redoes after the reveal: 巻物9 loses
    to 剣10; the redo 拳1 beats it."""
    s, mv, (a10,), (d9, d1) = duel("剣10", "巻物9 拳1")
    r = give_item(s, 1, "akuun_no_yubiwa")
    start(s, mv)
    fight(s, [a10], [d9])
    assert s.phase == COMBAT_RING and s.pending.players == (1,)
    assert legal(s, 1) == {"noring", ring(d1)}
    act(s, ring(d1), 1)
    assert r in s.item_discard and not s.items[1]
    assert result(s)["defender"] == ["拳", 1]
    defender_won(s, [a10], [d9, d1])


def test_ring_02_the_redo_may_be_several_cards_any_count():
    """IBR-COMBAT-RING-02: the redo may be one card or several, following the multi-card
    patterns, whatever count was declared: 剣3 ties with the shield, the redo 剣4+剣9 = 13
    breaks it. A broken pattern is refused."""
    s, mv, (a3, a4, a9, s4), (sh,) = duel("剣3 剣4 剣9 巻物4", "盾2")
    give_item(s, 0, "akuun_no_yubiwa")
    start(s, mv)
    fight(s, [a3], [sh])
    assert s.phase == COMBAT_RING
    assert legal(s, 0) == {"noring", ring(a4), ring(a9), ring(s4), ring(a4, a9), ring(a4, s4)}
    refused(s, ring(a9, s4), 0)
    refused(s, ring(a3, a4), 0)
    act(s, ring(a4, a9), 0)
    assert result(s)["attacker"] == ["剣", 13]
    attacker_won(s, [a3, a4, a9], [sh])
    assert s.hands[0] == [s4]


def test_ring_02_a_same_number_redo_then_chooses():
    """IBR-COMBAT-RING-02 / IBR-COMBAT-MULTI-07: a same-number redo is chosen like any
    same-number play: 剣4/巻物4 → 巻物4 beats 拳9."""
    s, mv, (a3, a4, s4), (d9,) = duel("剣3 剣4 巻物4", "拳9")
    give_item(s, 0, "akuun_no_yubiwa")
    start(s, mv)
    fight(s, [a3], [d9])
    act(s, ring(a4, s4), 0)
    assert s.phase == COMBAT_CHOOSE and legal(s, 0) == {"choose 剣", "choose 巻物"}
    act(s, "choose 巻物", 0)
    assert result(s)["attacker"] == ["巻物", 4]
    attacker_won(s, [a3, a4, s4], [d9])


def test_ring_01_comes_before_the_choice_and_the_drops():
    """IBR-COMBAT-RING-01 / IBR-COMBAT-MULTI-09: the ring's redo follows the reveal at once;
    both sides made same-number plays, but the holder's single-card redo means no drop: the
    defender then chooses, knowing the redo (剣5 beats 巻物3)."""
    s, mv, (a8, s8, s3), (f5, d5) = duel("剣8 巻物8 巻物3", "拳5 剣5")
    r = give_item(s, 0, "akuun_no_yubiwa")
    start(s, mv)
    fight(s, [a8, s8], [f5, d5])
    assert s.phase == COMBAT_RING and s.pending.players == (0,)
    assert legal(s, 0) == {"noring", ring(s3)}
    act(s, ring(s3), 0)
    assert r in s.item_discard
    assert s.phase == COMBAT_CHOOSE and s.pending.players == (1,)
    assert legal(s, 1) == {"choose 拳", "choose 剣"}
    act(s, "choose 剣", 1)
    assert not events(s, "dropped")
    assert result(s)["attacker"] == ["巻物", 3] and result(s)["defender"] == ["剣", 5]
    defender_won(s, [a8, s8, s3], [f5, d5])


# ----- IBR-COMBAT-MIX-01 / -02 ------------------------------------------------------------------
@pytest.mark.parametrize("suit, outcome", [("剣", "win"), ("巻物", "lose")])
def test_mix_01_mixed_same_number_groups_sum_per_suit_and_the_player_chooses(suit, outcome):
    """IBR-COMBAT-MIX-01: 剣8 剣8 巻物8 巻物8 played together fight as "剣16 / 巻物16"; the player
    chooses the group after the reveal: 剣16 beats 剣12, 巻物16 loses to 剣 by suit."""
    s, mv, a, (d12,) = duel("剣8 剣8 巻物8 巻物8", "剣12")
    start(s, mv)
    assert "declare 4" in legal(s, 0)
    fight(s, a, [d12])
    assert s.phase == COMBAT_CHOOSE and legal(s, 0) == {"choose 剣", "choose 巻物"}
    act(s, f"choose {suit}", 0)
    assert result(s)["attacker"] == [suit, 16]
    (attacker_won if outcome == "win" else defender_won)(s, a, [d12])


def test_mix_01_groups_may_differ_in_size_but_share_one_number():
    """IBR-COMBAT-MIX-01 (recommended reading): all cards share one number; the groups may
    differ in size (剣8 剣8 巻物8 = 剣16 / 巻物8). 剣8 剣7 巻物8 is refused."""
    s, mv, (a8, b8, s8, a7), (d1,) = duel("剣8 剣8 巻物8 剣7", "拳1")
    start(s, mv)
    act(s, "declare 3", 0)
    act(s, "declare 1", 1)
    assert legal(s, 0) == {play(a8, b8, s8), play(a8, b8, a7)}
    refused(s, play(a8, a7, s8), 0)
    act(s, play(a8, b8, s8), 0)
    act(s, play(d1), 1)
    assert s.phase == COMBAT_CHOOSE and legal(s, 0) == {"choose 剣", "choose 巻物"}
    act(s, "choose 巻物", 0)
    assert result(s)["attacker"] == ["巻物", 8]
    attacker_won(s, [a8, b8, s8], [d1])                     # 巻物 beats 拳


@pytest.mark.parametrize("suit, outcome", [("剣", "win"), ("巻物", "tie")])
def test_mix_01_a_group_sum_of_13_breaks_a_shield(suit, outcome):
    """IBR-COMBAT-MIX-01 / IBR-COMBAT-MULTI-06: a chosen group sums like a same-suit play, so
    剣7+7 = 14 breaks the shield while the lone 巻物7 ties."""
    s, mv, a, (sh,) = duel("剣7 剣7 巻物7", "盾3")
    start(s, mv)
    fight(s, a, [sh])
    act(s, f"choose {suit}", 0)
    assert result(s)["attacker"] == [suit, 14 if suit == "剣" else 7]
    (attacker_won if outcome == "win" else tied)(s, a, [sh])


def test_mix_02_a_mixed_player_drops_a_whole_suit():
    """IBR-COMBAT-MIX-02: when both made same-number plays, a player who played several cards of
    one suit must drop all cards of one suit (both 剣8), not a single card; the other side
    drops one card. 巻物8 then beats 巻物5."""
    s, mv, (a8, b8, s8), (f5, t5) = duel("剣8 剣8 巻物8", "拳5 巻物5")
    start(s, mv)
    fight(s, [a8, b8, s8], [f5, t5])
    assert s.phase == COMBAT_DROP
    assert legal(s, 0) == {"drop_suit 剣", "drop_suit 巻物"}
    assert legal(s, 1) == {f"drop {f5}", f"drop {t5}"}
    refused(s, f"drop {a8}", 0)
    refused(s, f"drop {s8}", 0)
    refused(s, "drop_suit 拳", 1)
    act(s, "drop_suit 剣", 0)
    act(s, f"drop {f5}", 1)
    assert [(e["player"], e["n"], e["remaining"]) for e in events(s, "dropped")] == [
        (0, 2, [s8]), (1, 1, [t5])]
    assert {a8, b8, f5} <= set(s.discard)
    assert result(s)["attacker"] == ["巻物", 8] and result(s)["defender"] == ["巻物", 5]
    attacker_won(s, [a8, b8, s8], [f5, t5])


def test_mix_02_both_mixed_players_drop_whole_suits():
    """IBR-COMBAT-MIX-02: both players made combined plays, so both drop a whole suit; 剣16
    against 拳6 then loses by suit."""
    s, mv, a, d = duel("剣8 剣8 巻物8 巻物8", "拳3 拳3 剣3 剣3")
    start(s, mv)
    fight(s, a, d)
    assert legal(s, 0) == {"drop_suit 剣", "drop_suit 巻物"}
    assert legal(s, 1) == {"drop_suit 拳", "drop_suit 剣"}
    act(s, "drop_suit 巻物", 0)
    act(s, "drop_suit 剣", 1)
    assert result(s)["attacker"] == ["剣", 16] and result(s)["defender"] == ["拳", 6]
    defender_won(s, a, d)


# ----- the end of a combat, and refused plays ---------------------------------------------------
def test_loser_escort_is_placed_at_random_and_the_winner_takes_the_princess():
    """IBR-COMBAT-MULTI-05 (and the base combat [designed]): the loser is randomly placed
    (IBR-RANDOM-01: square 9 is taken by a knight, so 10); the escort who loses leaves the
    princess to the winner."""
    s, mv, a, (d10,) = duel("剣5 剣6", "剣10")
    place(s, 2, LANDING)
    escort(s, 1)
    start(s, mv)
    fight(s, a, [d10])
    over(s)
    assert result(s)["result"] == 1
    assert s.pos[0] == AT and s.pos[1] == LANDING + 1
    assert s.escort == 0 and s.princess == AT
    assert [e["player"] for e in events(s, "princess_taken")] == [0]


def test_tie_sends_the_attacker_back_with_the_princess():
    """IBR-COMBAT-MULTI-06 (and the base combat [designed]): a shield's tie sends the attacker
    back to the square it came from, with the princess it escorts; nobody is placed at random."""
    s, mv, a, (sh,) = duel("剣5 剣6", "盾4")
    escort(s, 0)
    start(s, mv)
    assert s.princess == AT
    fight(s, a, [sh])
    tied(s, a, [sh])
    assert s.escort == 0 and s.princess == FROM


@pytest.mark.parametrize("multi", [False, True])
def test_illegal_plays_are_refused_and_change_nothing(multi):
    """IBR-COMBAT-MULTI-04: the attacker may not play a shield; broken patterns, cards not in
    hand, another player's cards and plays out of turn are refused, the state unchanged."""
    s, mv, (a5, sh3, s7), (d9, d2) = duel("剣5 盾3 巻物7", "剣9 剣2", multi=multi)
    start(s, mv)
    if multi:
        assert legal(s, 0) == {"declare 1"}                # 剣5+巻物7 is no pattern; 盾 alone
        refused(s, "declare 2", 0)
        refused(s, "declare 0", 0)
        act(s, "declare 1", 0)
        refused(s, play(d9, d2), 1)                        # wait: the defender must declare
        act(s, "declare 2", 1)
    assert legal(s, 0) == {play(a5), play(s7)}
    refused(s, play(sh3), 0)                               # shields are for the defender
    refused(s, play(a5, s7), 0)
    refused(s, play(a5, sh3), 0)
    refused(s, play(d9), 0)                                # not the attacker's card
    refused(s, play(mv), 0)                                # spent on the move
    refused(s, "end", 0)
    if multi:
        refused(s, play(d9), 1)                            # declared 2
        act(s, play(a5), 0)
        act(s, play(d9, d2), 1)
        assert result(s)["defender"] == ["剣", 11]
        defender_won(s, [a5], [d9, d2])
    else:
        refused(s, play(d9, d2), 1)
        act(s, play(a5), 0)
        act(s, play(d9), 1)
        defender_won(s, [a5], [d9])


# ----- a fast check: one card decides whether any play exists -----------------------------------
@settings(max_examples=150, deadline=None)
@given(hand=st.lists(st.integers(0, 200), min_size=0, max_size=7, unique=True),
       defender=st.booleans(), ryan_sp=st.booleans())
def test_any_legal_play_exists_exactly_when_a_single_card_play_does(hand, defender, ryan_sp):
    """IBR-COMBAT-MULTI-04/05, IBR-COMBAT-RYAN-01/02: every legal multi-card play holds a
    suited card that could be played alone, so `can_fight` (one-card plays only) agrees with
    trying every size of play."""
    from takujo.games.ibara import combat
    s = table(multi_card_combat=True)
    ids = [c % len(s.content.cards) for c in hand]
    s.hands[0] = list(dict.fromkeys(ids))
    every_size = any(combat._plays(s, tuple(sorted(s.hands[0])), k, defender, ryan_sp)
                     for k in range(1, len(s.hands[0]) + 1))
    assert combat.can_fight(s, 0, defender) == every_size
