"""Rule tests: ドラフト戦国大名, the optional tactics-card module (DSD-TACTICS, section 4 of
docs/rules/draft_daimyo.md) and the publisher's turn-order variant.

The engine follows the catalogue's recommended readings: checks at the very end of a round
(after VP), one d6, success if the roll is at most the player's competition rank (1 = leader),
−1 applied automatically with two or more warlords, the count of held cards public and their
identity hidden, never reshuffled, one card per player per battle, attacker's effect first,
a separate `tactics_discard`, and 金ヶ崎の退き口 refused where a castle stands.

Standard front used by the battle tests: seat 0 (織田) holds 美濃 with 4 soldiers, seat 1 (武田)
holds 信濃南 with 2, and seat 0 marches 2 soldiers from 美濃 into 信濃南. Battle dice hit on
5-6; a scripted RNG makes every die a miss (face 1) unless the test says otherwise, so with no
modifier the attacker (2) is not stronger than the defender (2) and withdraws after one
exchange.
"""
from __future__ import annotations

import json

import pytest

import takujo
from takujo.core.errors import IllegalActionError
from takujo.core.rng import Rng
from takujo.games.draft_daimyo.state import BASIC, CHOOSE, DRAFT, ORDER, TACTIC

from .helpers import act, card, events, hold, legal, province, table, take, to_domain

TACTICS = ("毘沙門天の化身", "城方の内応", "風林火山", "野戦築城", "伏兵", "略奪", "詭計の成功",
           "金ヶ崎の退き口")


# ----- local helpers --------------------------------------------------------------------------
class ScriptedRng(Rng):
    """Dice come from `faces` in order (a face f is `below(6) == f - 1`); once they run out,
    every die shows `rest`, or, with `rest=None`, the seeded stream takes over. Draws of other
    sizes (shuffles of other lengths, picks) always use the seeded stream."""

    def __init__(self, faces, rest=None, seed: int = 11) -> None:
        super().__init__(seed)
        self.faces = list(faces)
        self.rest = rest

    def below(self, n: int) -> int:
        if n == 6 and self.faces:
            return self.faces.pop(0) - 1
        if n == 6 and self.rest is not None:
            return self.rest - 1
        return super().below(n)


def dice(s, *faces, rest=None) -> ScriptedRng:
    s.rng = ScriptedRng(faces, rest)
    return s.rng


def give(s, p: int, *names: str) -> list[int]:
    """Put the named tactics cards (from wherever they are) into p's tactics hand."""
    out = []
    for n in names:
        c = take(s, card(s, n))
        s.tactics_hand[p].append(c)
        out.append(c)
    return out


def front(s) -> tuple[int, int]:
    return hold(s, 0, "美濃", 4), hold(s, 1, "信濃南", 2)


def march(s, frm: int, to: int, k: int = 2) -> None:
    act(s, f"march {frm} {to} {k}")


def rolls(s, why: str = "battle") -> list[tuple[int, int]]:
    """(player, number of dice) of each roll of that kind, in order."""
    return [(e["player"], len(e["faces"])) for e in events(s, "roll") if e["why"] == why]


def tactic(s, name: str, player: int | None = None) -> None:
    act(s, f"tactic {card(s, name)}", player)


def end_round(s) -> None:
    """The last player of the last turn rests: the round ends (hands are empty)."""
    s.turn, s.turn_index, s.phase = 4, s.n - 1, BASIC
    act(s, "rest", s.order[-1])


def checks(s) -> list[dict]:
    return events(s, "tactics_check")


def tac_table(**kw):
    return table(tactics=True, expansion=True, **kw)


# ----- DSD-TACTICS-01, DSD-TACTICS-PREP-01 -------------------------------------------------------
def test_module_off_has_no_tactics_deck_no_checks_and_no_declarations():
    """DSD-TACTICS-01: the tactics cards are an optional rule, off by default: no tactics card
    in the game, no end-of-round check, and a battle between players goes straight to the dice."""
    g = takujo.load("draft_daimyo", expansion=True)
    assert g.options.tactics is False
    s = g.new_state(3)
    assert s.tactics_deck == [] and s.cards.ids("tactics") == []
    assert not any(c.spec.name_ja in TACTICS for c in s.cards.cards)

    s = table(expansion=True)
    mino, sm = front(s)
    dice(s, rest=1)
    march(s, mino, sm)
    assert s.phase != TACTIC and events(s, "tactic_placed") == [] and events(s, "no_tactic") == []
    assert rolls(s) == [(0, 2), (1, 2)]                     # the battle was fought at once

    s = table(expansion=True)
    s.round = 4
    dice(s, 1, 1, 1, 1, rest=1)
    end_round(s)
    assert checks(s) == [] and all(h == [] for h in s.tactics_hand)


def test_module_on_adds_the_eight_tactics_cards_as_their_own_deck():
    """DSD-TACTICS-01: enabling the option adds the 8 tactics cards, and none of them goes into
    the draft deck."""
    s = takujo.load("draft_daimyo", expansion=True, tactics=True).new_state(3)
    names = sorted(s.card(c).spec.name_ja for c in s.tactics_deck)
    assert names == sorted(TACTICS)
    assert all(s.card(c).type == "tactics" for c in s.tactics_deck)
    assert not set(s.tactics_deck) & set(s.draft_deck) and not any(s.tactics_hand)


def test_setup_shuffles_the_tactics_deck_face_down():
    """DSD-TACTICS-PREP-01: at setup the 8 tactics cards are shuffled and laid face down as a
    draw pile: its order is seen by nobody, only its size."""
    orders = set()
    for seed in range(6):
        s = takujo.load("draft_daimyo", expansion=True, tactics=True).new_state(seed)
        assert len(s.tactics_deck) == 8
        shuffles = [e for e in s.log if e["e"] == "shuffle" and e["what"] == "tactics deck"]
        assert len(shuffles) == 1 and shuffles[0]["to"] == []        # nobody sees the order
        assert shuffles[0]["order"] == s.tactics_deck
        for p in (None, 0, 1, 2, 3):
            assert s.view(p)["zones"]["tactics_deck"] == 8             # a count, not the cards
        orders.add(tuple(s.tactics_deck))
    assert len(orders) > 1                                             # really shuffled


# ----- DSD-TACTICS-GAIN ------------------------------------------------------------------------
def test_checks_come_at_the_end_of_a_round_not_of_a_turn():
    """DSD-TACTICS-GAIN-01: the end of a turn makes no tactics check; the end of the round makes
    one per player, as the last step (after income and VP), before the next round begins."""
    s = tac_table()
    for p in range(4):                              # cards left in hand: turn 2 will follow
        s.hand[p] = [s.draft_deck.pop()]
    s.turn_index = 3
    dice(s)
    act(s, "rest", 3)
    assert s.phase == CHOOSE and s.turn == 2 and checks(s) == []

    s = tac_table()
    dice(s, 6, 6, 6, 6)
    end_round(s)
    kinds = [e["e"] for e in s.log]
    assert len(checks(s)) == 4
    first = kinds.index("tactics_check")
    assert max(i for i, k in enumerate(kinds) if k == "income") < first
    assert kinds.index("round") > max(i for i, k in enumerate(kinds) if k == "tactics_check")
    assert s.round == 3


def test_check_uses_the_rank_after_this_rounds_victory_points():
    """DSD-TACTICS-GAIN-01 (recommended reading: after VP are updated) with DSD-TACTICS-GAIN-03:
    seat 0 is last before income but first after it (it holds 美濃 as well), so its 3 fails."""
    s = tac_table()
    s.round = 4
    hold(s, 0, "美濃", 1)                            # income: seat 0 +5 VP, the others +3
    s.vp = [0, 1, 1, 1]
    dice(s, 3, 6, 6, 6)
    end_round(s)
    c0 = checks(s)[0]
    assert c0["player"] == 0 and c0["rank"] == 1 and c0["success"] is False
    assert s.tactics_hand[0] == []


def test_checks_are_made_in_turn_order():
    """DSD-TACTICS-GAIN-02: one check per player, in turn order; with one card left, the first
    in turn order to succeed takes it."""
    s = tac_table()
    s.round = 4
    s.order = [2, 3, 0, 1]
    last = card(s, "伏兵")
    s.tactics_deck = [last]
    dice(s, 1, 1, 1, 1)
    end_round(s)
    assert [e["player"] for e in checks(s)] == [2, 3, 0, 1]
    assert [e["player"] for e in events(s, "roll") if e["why"] == "tactics_check"] == [2, 3, 0, 1]
    assert s.tactics_hand == [[], [], [last], []]
    assert [e["drew"] for e in checks(s)] == [True, False, False, False]


def test_success_when_the_die_is_at_most_the_competition_rank():
    """DSD-TACTICS-GAIN-03: a d6 at most your rank on the VP board (1 = leader, tied players
    share the higher place: 1, 2, 2, 4) draws one tactics card."""
    s = tac_table()
    s.round = 4
    s.vp = [10, 5, 5, 0]                           # +3 each at income: ranks 1, 2, 2, 4
    top = s.tactics_deck[-2:]
    dice(s, 2, 2, 3, 4)
    end_round(s)
    got = [(e["rank"], e["roll"], e["success"]) for e in checks(s)]
    assert got == [(1, 2, False), (2, 2, True), (2, 3, False), (4, 4, True)]
    assert s.tactics_hand == [[], [top[1]], [], [top[0]]]
    assert len(s.tactics_deck) == 6


def test_two_warlords_give_minus_one_to_the_check():
    """DSD-TACTICS-GAIN-04: with two or more warlords in your domain the die counts 1 less;
    with one warlord, or none, the same roll fails."""
    s = tac_table()
    s.round = 4
    to_domain(s, 0, "柴田勝家")
    to_domain(s, 0, "前田利家")
    to_domain(s, 2, "馬場信春")
    s.vp = [5, 10, 5, 5]                           # ranks 2, 1, 2, 2
    dice(s, 3, 6, 3, 3)
    end_round(s)
    got = {e["player"]: (e["rank"], e["roll"], e["success"]) for e in checks(s)}
    assert got[0] == (2, 2, True)                  # 3 − 1 = 2 ≤ 2
    assert got[2] == (2, 3, False)                 # one warlord: no bonus
    assert got[3] == (2, 3, False)
    assert len(s.tactics_hand[0]) == 1 and s.tactics_hand[2] == s.tactics_hand[3] == []


def test_drawn_card_is_seen_by_its_owner_only_and_the_count_is_public():
    """DSD-TACTICS-GAIN-05, DSD-TACTICS-GAIN-06: the player looks at the drawn card and keeps it
    face down: only its owner's view names it; the others (and spectators) see how many."""
    s = tac_table()
    s.round = 4
    c = s.tactics_deck[-1]
    dice(s, 1, 6, 6, 6)
    end_round(s)
    assert s.tactics_hand[0] == [c]
    assert s.view(0)["zones"]["tactics_hand"][0] == [c]
    for q in (None, 1, 2, 3):
        v = s.view(q)
        assert v["zones"]["tactics_hand"][0] == 1
        assert not any(e.get("card") == c for e in s.events_for(q, 0))
    drawn = [e for e in s.events_for(0, 0) if e["e"] == "tactics_drawn"]
    assert drawn and drawn[0]["card"] == c and drawn[0]["to"] == [0]
    assert not any(e["e"] == "tactics_drawn" for e in s.events_for(1, 0))
    assert "".join(json.dumps(s.view(q)) for q in (None, 1, 2, 3)).count(f'"card": {c}') == 0


def test_there_is_no_limit_on_tactics_cards_held():
    """DSD-TACTICS-GAIN-07: a player holding seven tactics cards still draws an eighth, keeps
    them all, and may choose among all of his side's cards in a battle."""
    s = tac_table()
    s.round = 4
    seven = give(s, 0, *TACTICS[:7])
    dice(s, 1, 6, 6, 6)
    end_round(s)
    assert len(s.tactics_hand[0]) == 8 and set(seven) < set(s.tactics_hand[0])
    assert s.tactics_deck == [] and s.tactics_discard == []

    s = tac_table()
    give(s, 0, *TACTICS)
    mino, sm = front(s)
    march(s, mino, sm)
    attacker = {f"tactic {card(s, n)}" for n in ("毘沙門天の化身", "城方の内応", "風林火山", "略奪")}
    assert legal(s, 0) == attacker | {"notactic"}


def test_an_empty_deck_gives_nothing_and_is_never_refilled():
    """DSD-TACTICS-GAIN-08: once the tactics deck is empty a success draws nothing, and the used
    cards in `tactics_discard` are not shuffled back in, round after round."""
    s = tac_table()
    used = [card(s, n) for n in ("略奪", "伏兵", "風林火山")]
    s.tactics_discard = used[:]
    s.tactics_deck = []
    dice(s, 1, 1, 1, 1)                            # the seeded stream after these
    end_round(s)
    assert [e["success"] for e in checks(s)] == [True] * 4
    assert [e["drew"] for e in checks(s)] == [False] * 4
    assert s.tactics_deck == [] and s.tactics_discard == used and not any(s.tactics_hand)
    assert not any(e["e"] == "shuffle" and e["what"] == "tactics deck" for e in s.log)

    # the next round ends the same way
    assert s.round == 3
    s.log, s.packets, s.hand, s.commits = [], [[] for _ in range(4)], [[] for _ in range(4)], None
    s.round = 4
    dice(s, 1, 1, 1, 1)
    end_round(s)
    assert [e["drew"] for e in checks(s)] == [False] * 4
    assert s.tactics_deck == [] and s.tactics_discard == used


# ----- DSD-TACTICS-USE: when, against whom, how many ------------------------------------------
def test_declared_against_a_player_just_before_the_battle():
    """DSD-TACTICS-02, DSD-TACTICS-USE-01, DSD-TACTICS-USE-04: marching into another player's
    province stops before the battle for the tactics declarations; no battle die is rolled until
    they are made, and the card's text then acts in the battle (毘沙門天の化身: +2 dice)."""
    s = tac_table()
    bish, = give(s, 0, "毘沙門天の化身")
    mino, sm = front(s)
    dice(s, rest=1)
    march(s, mino, sm)
    assert s.phase == TACTIC and s.pending.players == (0,)
    assert legal(s, 0) == {f"tactic {bish}", "notactic"}
    assert rolls(s) == [] and s.owner[sm] == 1
    act(s, f"tactic {bish}")
    assert rolls(s) == [(0, 4), (1, 2)]


def test_never_against_a_neutral_force():
    """DSD-TACTICS-USE-02: a march into a neutral force's province is fought at once: no
    tactics decision, and the cards stay in hand."""
    s = tac_table()
    held = give(s, 0, "毘沙門天の化身", "風林火山")
    mino = hold(s, 0, "美濃", 4)
    hida = province(s, "飛騨")
    assert s.owner[hida] == -1
    dice(s, rest=1)
    march(s, mino, hida)
    assert events(s, "battle")[-1]["defender"] == -1
    assert s.phase != TACTIC and events(s, "tactic_placed") == [] and events(s, "no_tactic") == []
    assert rolls(s)[0] == (0, 2)                     # no +2 die either
    assert s.tactics_hand[0] == held and s.tactics_discard == []


def test_one_card_per_player_per_battle_and_both_sides_may_use_one():
    """DSD-TACTICS-USE-03 (reading b): each player places at most one card in a battle; the
    attacker is not asked again after placing one, and the defender may place one as well."""
    s = tac_table()
    bish, fur = give(s, 0, "毘沙門天の化身", "風林火山")
    yasen, = give(s, 1, "野戦築城")
    mino, sm = front(s)
    dice(s, rest=1)
    march(s, mino, sm)
    act(s, f"tactic {bish}")
    assert s.pending.players == (1,) and s.legal_actions(0) == []
    with pytest.raises(IllegalActionError):
        act(s, f"tactic {fur}", 0)
    act(s, f"tactic {yasen}")
    assert [e["card"] for e in events(s, "tactic_revealed")] == [bish, yasen]
    assert s.tactics_hand[0] == [fur] and sorted(s.tactics_discard) == sorted([bish, yasen])
    assert rolls(s) == [(0, 4), (1, 4)]


def test_only_cards_of_your_side_and_plunder_is_for_the_attacker():
    """DSD-TACTICS-USE-05, DSD-TACTICS-USE-06: each card is for one side; a defender holding
    略奪 (an attacker card) cannot use it, and an attacker cannot use 野戦築城."""
    s = tac_table()
    ryaku_a, yasen_a = give(s, 0, "略奪", "野戦築城")
    mino, sm = front(s)
    march(s, mino, sm)
    assert legal(s, 0) == {f"tactic {ryaku_a}", "notactic"}
    with pytest.raises(IllegalActionError):
        act(s, f"tactic {yasen_a}")

    s = tac_table()
    fuku, ryaku = give(s, 1, "伏兵", "略奪")
    mino, sm = front(s)
    dice(s, rest=1)
    march(s, mino, sm)
    assert s.pending.players == (1,)                # the attacker holds nothing
    assert legal(s, 1) == {f"tactic {fuku}", "notactic"}
    before = s.to_json()
    with pytest.raises(IllegalActionError):
        act(s, f"tactic {ryaku}")
    assert s.to_json() == before                     # refused, nothing changed
    assert card(s, "略奪") in s.tactics_hand[1]


def test_attacker_declares_first_and_the_defender_sees_a_card_but_not_which():
    """DSD-TACTICS-USE-07, DSD-TACTICS-USE-08, DSD-TACTICS-GAIN-06: the attacker declares
    first; the placement is public, the card's identity is seen by its owner only until the
    reveal. Two battles differing only in which attacker card was placed look the same to the
    defender, the other players and spectators."""
    views = {}
    for name in ("毘沙門天の化身", "風林火山"):
        s = tac_table()
        give(s, 0, "毘沙門天の化身", "風林火山")
        give(s, 1, "野戦築城")
        mino, sm = front(s)
        march(s, mino, sm)
        assert s.pending.players == (0,)            # attacker first
        tactic(s, name)
        assert s.pending.players == (1,)            # then the defender
        c = card(s, name)
        assert s.tactics_played[0] == [c]
        assert s.view(0)["zones"]["tactics_played"][0] == [c]
        v1 = s.view(1)
        assert v1["public"]["battle"]["cards"] == [1, 0]
        assert v1["zones"]["tactics_played"][0] == 1
        assert [e["player"] for e in v1["log"] if e["e"] == "tactic_placed"] == [0]
        assert not any(e.get("card") == c or str(c) in str(e.get("action", "")).split()
                       for e in v1["log"][-3:])
        views[name] = {q: s.view(q) for q in (None, 1, 2, 3)}
    a, b = views.values()
    for q in (None, 1, 2, 3):
        assert a[q] == b[q], f"view of {q} tells which card the attacker placed"


def test_being_asked_does_not_tell_which_cards_a_player_holds():
    """DSD-TACTICS-GAIN-06, DSD-TACTICS-USE-07, DSD-TACTICS-USE-08: only the number of tactics
    cards held is public. An attacker who holds one card is asked whether he uses it, whether
    or not it is of his side; declining an attacker card and holding only a defender card look
    the same to the defender."""
    views = []
    for name in ("略奪", "伏兵"):
        s = tac_table()
        give(s, 0, name)
        give(s, 1, "野戦築城")
        mino, sm = front(s)
        dice(s, rest=1)
        march(s, mino, sm)
        assert s.pending.players == (0,)
        first = s.view(1)
        act(s, "notactic", 0)
        views.append((first, s.view(1)))
    (a1, a2), (b1, b2) = views
    assert a1 == b1 and a2 == b2

    s = tac_table()                                 # with no card at all: nothing to ask
    give(s, 1, "野戦築城")
    mino, sm = front(s)
    march(s, mino, sm)
    assert s.pending.players == (1,)


def test_both_cards_revealed_together_then_the_battle():
    """DSD-TACTICS-USE-09: nothing is revealed after the attacker's declaration; once the
    defender has declared both cards are revealed in one step, followed straight by the battle."""
    s = tac_table()
    bish, = give(s, 0, "毘沙門天の化身")
    yasen, = give(s, 1, "野戦築城")
    mino, sm = front(s)
    dice(s, rest=1)
    march(s, mino, sm)
    act(s, f"tactic {bish}")
    assert events(s, "tactic_revealed") == []
    n = len(s.log)
    act(s, f"tactic {yasen}")
    after = s.log[n:]
    kinds = [e["e"] for e in after]
    assert kinds.count("act") == 1                   # one step: the defender's declaration
    i = kinds.index("tactic_revealed")
    assert kinds[i:i + 2] == ["tactic_revealed", "tactic_revealed"]
    assert all(e["to"] is None for e in after if e["e"] == "tactic_revealed")
    assert kinds.index("roll") > i + 1


def test_attacker_card_resolved_first_and_both_effects_apply():
    """DSD-TACTICS-USE-10: the revealed effects are resolved, the attacker's first: 毘沙門天の化身
    gives the attacker +2 dice and 野戦築城 the defender +2 dice in the same battle."""
    s = tac_table()
    bish, = give(s, 0, "毘沙門天の化身")
    yasen, = give(s, 1, "野戦築城")
    mino, sm = front(s)
    dice(s, rest=1)
    march(s, mino, sm)
    act(s, f"tactic {bish}")
    act(s, f"tactic {yasen}")
    assert [(e["player"], e["card"]) for e in events(s, "tactic_revealed")] == [(0, bish), (1, yasen)]
    assert rolls(s) == [(0, 4), (1, 4)]


def test_used_cards_go_to_the_tactics_discard_after_the_battle():
    """DSD-TACTICS-USE-11: after the battle both used cards lie face up in `tactics_discard`
    (not the draft discard, not the deck); the unplayed card stays in hand."""
    s = tac_table()
    bish, keep = give(s, 0, "毘沙門天の化身", "略奪")
    fuku, = give(s, 1, "伏兵")
    mino, sm = front(s)
    dice(s, rest=1)
    march(s, mino, sm)
    act(s, f"tactic {bish}")
    assert s.tactics_discard == []                   # not before the battle
    act(s, f"tactic {fuku}")
    assert s.battle is None and s.phase == BASIC and s.turn_index == 1
    assert sorted(s.tactics_discard) == sorted([bish, fuku])
    assert s.tactics_played == [[], [], [], []] and s.tactics_hand[0] == [keep]
    assert bish not in s.draft_discard and bish not in s.tactics_deck
    for q in (None, 2):
        assert sorted(s.view(q)["zones"]["tactics_discard"]) == sorted([bish, fuku])


def test_effects_last_only_for_their_battle_with_two_battles_in_a_turn():
    """DSD-TACTICS-USE-12: two battles in one turn; seat 0's 毘沙門天の化身 acts only in the
    first; in the second (seat 1 attacks seat 0) seat 0 may use another card, 野戦築城, and only
    that card acts there."""
    s = tac_table()
    bish, yasen = give(s, 0, "毘沙門天の化身", "野戦築城")
    mino, sm = front(s)
    dice(s, rest=1)
    march(s, mino, sm)
    act(s, f"tactic {bish}")
    assert rolls(s) == [(0, 4), (1, 2)]
    assert s.tactics_discard == [bish] and s.soldiers[mino] == 4
    assert s.turn == 1 and s.phase == BASIC and s.turn_player == 1
    act(s, f"march {sm} {mino} 2", 1)
    assert s.pending.players == (0,)                 # seat 1 holds nothing; seat 0 defends
    assert legal(s, 0) == {f"tactic {yasen}", "notactic"}
    act(s, f"tactic {yasen}")
    assert rolls(s)[2:] == [(1, 2), (0, 6)]          # 4 soldiers + 2, not + 4; seat 1 plain
    assert s.tactics_discard == [bish, yasen]
    assert s.turn == 1


# ----- the card texts (DSD-TACTICS-02, DSD-TACTICS-USE-10) ------------------------------------
@pytest.mark.parametrize("side, name, expected", [
    (0, None, [(0, 2), (1, 2)]),
    (0, "毘沙門天の化身", [(0, 4), (1, 2)]),
    (1, "野戦築城", [(0, 2), (1, 4)]),
    (1, "伏兵", [(0, 1), (1, 2)]),
])
def test_card_texts_change_the_dice(side, name, expected):
    """DSD-TACTICS-02, DSD-TACTICS-USE-10: the effect is the card's text: 毘沙門天の化身 +2
    attack dice, 野戦築城 +2 defence dice, 伏兵 one hit on the attacker before any roll."""
    s = tac_table()
    if name:
        give(s, side, name)
    mino, sm = front(s)
    dice(s, rest=1)
    march(s, mino, sm)
    if name:
        tactic(s, name, side)
    assert rolls(s) == expected
    lost = 1 if name == "伏兵" else 0
    assert s.soldiers[mino] == 4 - lost and s.owner[sm] == 1


def test_furinkazan_rolls_first():
    """DSD-TACTICS-02, DSD-TACTICS-USE-10: 風林火山: the attacker rolls first, so a defender
    wiped out never rolls back (without it both sides lose everything)."""
    s = tac_table()
    mino, sm = front(s)
    dice(s, 6, 6, 6, 6, rest=1)
    march(s, mino, sm)
    assert rolls(s) == [(0, 2), (1, 2)] and s.owner[sm] == 1

    s = tac_table()
    give(s, 0, "風林火山")
    mino, sm = front(s)
    dice(s, 6, 6, 6, 6, rest=1)
    march(s, mino, sm)
    tactic(s, "風林火山")
    assert rolls(s) == [(0, 2)]
    assert s.owner[sm] == 0 and s.soldiers[sm] == 2


def test_shirokata_no_naio_cancels_the_castle():
    """DSD-TACTICS-02, DSD-TACTICS-USE-10: 城方の内応: the defender's castle gives no die in this
    battle (without it the castle adds one)."""
    for use, defence in ((False, 3), (True, 2)):
        s = tac_table()
        if use:
            give(s, 0, "城方の内応")
        mino, sm = front(s)
        s.castles[to_domain(s, 1, "城")] = sm
        dice(s, rest=1)
        march(s, mino, sm)
        if use:
            tactic(s, "城方の内応")
        assert rolls(s) == [(0, 2), (1, defence)]


def test_kikei_no_seiko_rerolls_the_defenders_misses():
    """DSD-TACTICS-02, DSD-TACTICS-USE-10: 詭計の成功: the defender rerolls his missed dice once."""
    s = tac_table()
    give(s, 1, "詭計の成功")
    mino, sm = front(s)
    dice(s, rest=1)
    march(s, mino, sm)
    tactic(s, "詭計の成功", 1)
    assert rolls(s, "reroll") == [(1, 2)]


def test_ryakudatsu_takes_three_gold_when_the_attacker_wins():
    """DSD-TACTICS-02, DSD-TACTICS-USE-06, DSD-TACTICS-USE-10: 略奪 (attacker): winning the
    battle takes 3 gold from the defender; losing it takes nothing."""
    s = tac_table()
    give(s, 0, "略奪")
    mino, sm = front(s)
    dice(s, 6, 6, rest=1)
    march(s, mino, sm)
    tactic(s, "略奪")
    assert s.owner[sm] == 0 and s.gold == [8, 2, 5, 5]

    s = tac_table()
    give(s, 0, "略奪")
    mino, sm = front(s)
    dice(s, rest=1)
    march(s, mino, sm)
    tactic(s, "略奪")
    assert s.owner[sm] == 1 and s.gold == [5, 5, 5, 5]


def test_kanegasaki_withdraws_the_defender_without_loss():
    """DSD-TACTICS-02, DSD-TACTICS-USE-10: 金ヶ崎の退き口: the defender's soldiers fall back
    unharmed to his adjacent province (甲斐) before any die; the attacker's marching soldiers
    occupy the abandoned province."""
    s = tac_table()
    give(s, 1, "金ヶ崎の退き口")
    mino, sm = front(s)
    kai = province(s, "甲斐")
    dice(s, rest=1)
    march(s, mino, sm)
    tactic(s, "金ヶ崎の退き口", 1)
    assert rolls(s) == []
    assert s.soldiers[kai] == 3 + 2
    assert s.owner[sm] == 0 and s.soldiers[sm] == 2 and s.soldiers[mino] == 2
    assert sum(s.soldiers[i] for i in s.provinces_of(0)) == 3 + 4   # 尾張 3 + the 4 of 美濃


def test_kanegasaki_refused_where_a_castle_stands():
    """DSD-TACTICS-USE-05 with DSD-CARD-07 reading (b): 金ヶ崎の退き口 cannot be declared for a
    battle in a province with a castle; the defender can only decline."""
    s = tac_table()
    kane, = give(s, 1, "金ヶ崎の退き口")
    mino, sm = front(s)
    s.castles[to_domain(s, 1, "城")] = sm
    dice(s, rest=1)
    march(s, mino, sm)
    assert s.pending.players == (1,)
    assert legal(s, 1) == {"notactic"}
    with pytest.raises(IllegalActionError):
        act(s, f"tactic {kane}")
    act(s, "notactic")
    assert s.tactics_hand[1] == [kane] and s.tactics_discard == []


# ----- a side with no soldiers has lost (designed, extending the battles and DSD-TACTICS-USE-10) --
def battle_rolls_after(s, start: int) -> list[dict]:
    """Every die rolled (battle dice and rerolls) from log index `start` on."""
    return [e for e in s.log[start:] if e["e"] == "roll" and e["why"] in ("battle", "reroll")]


@pytest.mark.parametrize("attacker_warlord", [True, False])
@pytest.mark.parametrize("first", [None, "attacker", "defender"])
def test_fukuhei_on_the_only_marching_soldier_ends_the_attack_unrolled(attacker_warlord, first):
    """[designed, extending the battles and DSD-TACTICS-USE-10] a side with no soldiers in a
    battle has lost it and nothing more is rolled: 伏兵 removes the attacker's only marching
    soldier, so the attack has failed: the attacker's warlords do not roll (with every die a
    hit they would have wiped out the defenders), the defender does not roll either, whoever
    has 【先制】; the province stays the defender's with its soldiers and the defender wins the
    battle; the attacker's warlords stay in its domain, as after any failed attack."""
    s = tac_table()
    if attacker_warlord:
        to_domain(s, 0, "柴田勝家")                   # attack +3
    to_domain(s, 1, "馬場信春")                       # defence +2
    if first == "attacker":
        give(s, 0, "風林火山")
    if first == "defender":
        to_domain(s, 1, "柿崎景家")                   # 先制
    fuku, = give(s, 1, "伏兵")
    domains = [list(d) for d in s.domain]
    mino, sm = front(s)
    dice(s, rest=6)                                   # every die a hit
    start = len(s.log)
    march(s, mino, sm, 1)
    if first == "attacker":
        tactic(s, "風林火山")
    tactic(s, "伏兵", 1)
    assert battle_rolls_after(s, start) == [] and events(s, "exchange") == []
    assert s.owner[sm] == 1 and s.soldiers[sm] == 2
    assert s.soldiers[mino] == 3 and s.owner[mino] == 0
    assert [(e["player"], e["back"]) for e in events(s, "repulsed")] == [(0, 0)]
    assert events(s, "captured") == []
    assert s.battles_won == [0, 1, 0, 0]
    assert [list(d) for d in s.domain] == domains     # no warlord lost
    assert fuku in s.tactics_discard and s.battle is None
    assert s.phase == BASIC and s.turn_player == 1


def test_fukuhei_empties_the_attack_from_a_province_left_empty():
    """[designed] as after any failed attack with no survivor, a province marched from with its
    last soldier (not the home) is no longer held; the attacker's home is untouched."""
    s = tac_table()
    to_domain(s, 0, "柴田勝家")
    give(s, 1, "伏兵")
    mino, sm = hold(s, 0, "美濃", 1), hold(s, 1, "信濃南", 2)
    dice(s, rest=6)
    start = len(s.log)
    march(s, mino, sm, 1)
    tactic(s, "伏兵", 1)
    assert battle_rolls_after(s, start) == []
    assert s.owner[mino] == -2 and s.soldiers[mino] == 0
    assert s.owner[sm] == 1 and s.soldiers[sm] == 2
    assert s.owner[province(s, "尾張")] == 0


def test_fukuhei_leaving_soldiers_still_fights():
    """伏兵 on a march of 2 leaves 1 soldier: the battle is fought as usual, the attacker rolling
    1 die + its warlords' attack dice."""
    s = tac_table()
    to_domain(s, 0, "柴田勝家")                       # attack +3
    give(s, 1, "伏兵")
    mino, sm = front(s)
    dice(s, rest=1)
    march(s, mino, sm, 2)
    tactic(s, "伏兵", 1)
    assert rolls(s) == [(0, 4), (1, 2)]


@pytest.mark.parametrize("defender", [1, -1])
def test_defenders_without_soldiers_lose_the_province_unrolled(defender):
    """[designed] defenders with no soldier lose the battle before any die: a player's province
    held with none (his warlords' defence dice and his castle's die do not roll, the castle is
    razed), or a neutral province left with none; the marching soldiers take it."""
    s = tac_table()
    to_domain(s, 0, "柴田勝家")
    mino = hold(s, 0, "美濃", 4)
    sm = hold(s, defender, "信濃南", 0)
    if defender >= 0:
        to_domain(s, 1, "馬場信春")                   # defence +2
        s.castles[to_domain(s, 1, "城")] = sm
    dice(s, rest=6)
    start = len(s.log)
    march(s, mino, sm, 2)
    assert s.phase != TACTIC
    assert battle_rolls_after(s, start) == [] and events(s, "exchange") == []
    assert s.owner[sm] == 0 and s.soldiers[sm] == 2 and s.soldiers[mino] == 2
    assert events(s, "captured")[-1]["province"] == sm
    assert not s.has_castle(sm)
    assert s.battles_won == [1, 0, 0, 0]


def test_both_sides_empty_before_the_rolls_the_attack_fails():
    """[designed] a province is taken only by soldiers: defenders holding none and 伏兵 on the
    attacker's only soldier leave both sides empty; nothing is rolled and the province stays
    the defender's."""
    s = tac_table()
    to_domain(s, 0, "柴田勝家")
    to_domain(s, 1, "馬場信春")
    give(s, 1, "伏兵")
    mino, sm = hold(s, 0, "美濃", 4), hold(s, 1, "信濃南", 0)
    dice(s, rest=6)
    start = len(s.log)
    march(s, mino, sm, 1)
    tactic(s, "伏兵", 1)
    assert battle_rolls_after(s, start) == []
    assert s.owner[sm] == 1 and s.soldiers[sm] == 0 and s.soldiers[mino] == 3
    assert s.battles_won == [0, 1, 0, 0]


def test_an_attackers_ambush_on_the_only_defender_takes_the_province_unrolled(tmp_path):
    """[designed] with a card file where 伏兵 may be used by either side, the attacker's 伏兵 on
    the defender's only soldier wins the battle before any die: the defender's warlords do not
    roll and the marching soldiers take the province."""
    from takujo.games.draft_daimyo.cards import CARD_FILE
    text = CARD_FILE.read_text(encoding="utf-8")
    block = 'name_ja = "伏兵"\nname_en = "Ambush"\ntype = "tactics"\nset = "expansion"\nside = "defender"'
    assert block in text
    path = tmp_path / "cards.toml"
    path.write_text(text.replace(block, block.replace('"defender"', '"either"')), encoding="utf-8")
    s = tac_table(cards=str(path))
    to_domain(s, 1, "馬場信春")
    give(s, 0, "伏兵")
    mino, sm = hold(s, 0, "美濃", 4), hold(s, 1, "信濃南", 1)
    dice(s, rest=6)
    start = len(s.log)
    march(s, mino, sm, 2)
    tactic(s, "伏兵", 0)
    assert battle_rolls_after(s, start) == []
    assert s.owner[sm] == 0 and s.soldiers[sm] == 2
    assert s.battles_won == [1, 0, 0, 0]


def test_first_strike_emptying_the_attacker_leaves_its_warlords_unrolled():
    """[designed] during the rolls: the defender's 【先制】 hits land first; once they leave the
    attacker no soldier, the attacker's warlords do not roll and the attack has failed."""
    s = tac_table()
    to_domain(s, 0, "柴田勝家")                       # attack +3
    to_domain(s, 1, "柿崎景家")                       # defence +0, 先制
    mino, sm = front(s)
    dice(s, rest=6)
    march(s, mino, sm, 1)
    assert rolls(s) == [(1, 2)]
    assert s.owner[sm] == 1 and s.soldiers[sm] == 2 and s.soldiers[mino] == 3
    assert s.battles_won == [0, 1, 0, 0]


# ----- publisher's variant: turn_order_choice --------------------------------------------------
def _round_one_table(**kw):
    s = table(**kw)
    s.round = 1
    s.order = [0, 1, 2, 3]
    return s


@pytest.mark.parametrize("tie_rolls, choosers", [((3, 5), [1, 2, 0, 3]), ((4, 2), [2, 1, 0, 3])])
def test_turn_order_choice_lowest_vp_chooses_first_ties_by_low_die(tie_rolls, choosers):
    """Publisher variant `turn_order_choice`: from round 2 the player lowest in VP chooses a
    turn-order position first; tied players roll a die and the lowest roll chooses first."""
    s = _round_one_table(turn_order_choice=True)
    s.vp = [6, 2, 2, 9]                              # +3 each at income: 9, 5, 5, 12
    r1, r2 = tie_rolls
    dice(s, 4, r1, r2, 1)
    end_round(s)
    assert s.round == 2 and s.phase == ORDER
    picks = {choosers[0]: 3, choosers[1]: 1, choosers[2]: 4, choosers[3]: 2}
    for k, p in enumerate(choosers):
        assert s.pending.players == (p,)
        assert legal(s, p) == {f"order {i}" for i in range(1, 5) if i not in
                               [picks[q] for q in choosers[:k]]}
        act(s, f"order {picks[p]}", p)
    order = [0] * 4
    for p, pos in picks.items():
        order[pos - 1] = p
    assert s.order == order and s.phase == DRAFT
    assert events(s, "order")[-1]["order"] == order


def test_turn_order_choice_not_in_round_one():
    """Publisher variant `turn_order_choice`: it starts from round 2; round 1 goes straight to
    the draft."""
    s = takujo.load("draft_daimyo", turn_order_choice=True, tactics=True, expansion=True).new_state(5)
    assert s.round == 1 and s.phase == DRAFT


def test_without_the_variant_the_first_player_passes_left():
    """Without `turn_order_choice` the first player passes to the left each round (no choice,
    no die)."""
    s = _round_one_table(tactics=True, expansion=True)
    dice(s, 6, 6, 6, 6)
    end_round(s)
    assert s.round == 2 and s.order == [1, 2, 3, 0] and s.phase == DRAFT
    assert not any(e["why"] == "order_tie" for e in events(s, "roll"))
    s.packets, s.hand, s.commits = [[] for _ in range(4)], [[] for _ in range(4)], None
    dice(s, 6, 6, 6, 6)
    end_round(s)
    assert s.round == 3 and s.order == [2, 3, 0, 1]
