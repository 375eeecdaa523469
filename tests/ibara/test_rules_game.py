"""Rule tests for いばらの姫と4人の騎士: the turn, the board, the princess, whims and
irritation, anger explosions, random placement, SP cards turned up at random, the knights'
options, short mode and the end of the game.

Clause IDs are those of docs/rules/ibara.md; the engine follows each Ambiguity note's
recommended reading. The base game (board, single-card combat, exploration, items) is the
designed stand-in of docs/rules/ibara.md. Multi-card combat is covered elsewhere.

Board reminder: ring 1..12, keep 0 linked to 3/6/9/12, gate 13 beyond 1, corners 1/4/7/10.
`table()` starts seat 0's action phase with knights on 2, 5, 8, 11, the princess alone in the
keep and the event marker on 3.
"""
from __future__ import annotations

import pytest

import takujo
from takujo.core.decision import DecisionKind
from takujo.core.errors import IllegalActionError, OptionError
from takujo.games.ibara import board
from takujo.games.ibara.state import (ACT, COMBAT_PLAY, DISCARD, GABE_DISCARD, OVER, PENALTY)

from .helpers import (act, card, escort, event, events, give, give_item, hold_whims, legal,
                      place, show_whim, stack, table, whim)

# Knights for combat tests without any combat ability in play (ライアン is not escorting).
PLAIN = ["sion", "mireille", "ryan", "gaiblitz"]


# ----- local helpers ----------------------------------------------------------------------------
def flips(s, *cards: int) -> None:
    """The next cards turned up, in the order given (the first is turned up first)."""
    stack(s, list(reversed(cards)))


def sp(s, effect: str = "teleport", nth: int = 0) -> int:
    return card(s, None, sp=effect, nth=nth)


def end(s, *cards: int) -> None:
    """End the turn player's turn; `cards` are the next flips in order."""
    flips(s, *cards)
    act(s, "end")


def to_combat(s, a_card: int, d_card: int, *flipped: int, att: int = 0, dfd: int = 1,
              frm: int = 4, at: int = 5) -> int:
    """`att` (the turn player) stands on `frm`, `dfd` on `at`; `att` moves in with a spare
    card. Each holds exactly the given combat card. Returns the card used to move."""
    place(s, att, frm)
    place(s, dfd, at)
    mover = card(s, "拳", 2, nth=1)
    give(s, att, mover, a_card)
    give(s, dfd, d_card)
    flips(s, *flipped)
    act(s, f"move {mover} {at}", att)
    return mover


def fight(s, a_card: int, d_card: int, att: int = 0, dfd: int = 1) -> None:
    act(s, f"fight {a_card}", att)
    act(s, f"fight {d_card}", dfd)


def whim_ids(s, cards) -> list[str]:
    return [s.content.whims[w].id for w in cards]


# ----- board and movement -----------------------------------------------------------------------
def test_move_goes_up_to_the_card_value_along_the_board():
    """Base movement [designed]: 1-4 move 3, 5-8 move 2; only adjacent steps count, the card
    played is discarded."""
    s = table()
    s.event_pos = 9
    three, two = card(s, "剣", 1), card(s, "剣", 5)
    give(s, 0, three, two)
    moves = legal(s)
    assert f"move {two} 4" in moves            # 2-3-4
    assert f"move {two} 5" not in moves        # 2-3-4-5 is three steps
    assert f"move {three} 5" in moves          # a knight's square is a destination
    assert f"move {three} 7" not in moves      # far too far
    act(s, f"move {two} 4")
    assert s.pos[0] == 4
    assert two in s.discard and two not in s.hands[0]


def test_pieces_block_passing_through():
    """Base movement [designed]: a knight, the event marker or the lone princess cannot be
    passed through; a blocked square is only a destination."""
    s = table()
    three = card(s, "剣", 1)
    give(s, 0, three)
    # The event marker on 3 blocks the only short way 2-3-4.
    assert f"move {three} 4" not in legal(s)
    assert f"move {three} 3" in legal(s)
    s.event_pos = 9
    assert f"move {three} 4" in legal(s)
    # A knight on 3 blocks it as well.
    place(s, 1, 3)
    assert f"move {three} 4" not in legal(s)
    # The lone princess in the keep blocks the way 12-keep-6 ...
    place(s, 0, 12)
    place(s, 1, 5)
    assert f"move {three} 6" not in legal(s)
    # ... and once she is escorted by the mover she no longer blocks him.
    escort(s, 0)
    assert f"move {three} 6" in legal(s)


def test_illegal_move_raises_and_leaves_state_unchanged():
    """Core API: State.apply raises IllegalActionError and leaves the state unchanged."""
    s = table()
    two = card(s, "剣", 5)
    give(s, 0, two)
    before = s.clone()
    with pytest.raises(IllegalActionError):
        act(s, f"move {two} 7")
    with pytest.raises(IllegalActionError):
        act(s, "end", 1)
    assert s == before


def test_entering_princess_square_makes_you_her_escort_and_she_follows():
    """Base rule [public]: entering the princess's square makes you her escort; she moves
    with you."""
    s = table()
    place(s, 0, 12)
    one, two = card(s, "剣", 1), card(s, "剣", 2)
    give(s, 0, one, two)
    act(s, f"move {one} 0")                    # into the keep, where she waits
    assert s.escort == 0 and s.princess == 0
    assert events(s, "escort")[-1]["player"] == 0
    act(s, f"move {two} 1")                    # keep-12-1
    assert s.pos[0] == 1 and s.princess == 1 and s.escort == 0


def test_event_marker_square_triggers_an_event():
    """Base rule [public]; IBR-COMP-01: the event marker is a piece on the board; stepping on
    it draws an event card (here わき水: a water chip)."""
    s = table()
    one = card(s, "剣", 1)
    give(s, 0, one)
    e = event(s, "izumi")
    act(s, f"move {one} 3")
    assert e in s.event_discard
    assert [s.content.items[i].id for i in s.items[0]] == ["water"]


# ----- turn sequence ------------------------------------------------------------------------------
def test_turn_start_places_event_marker_at_random_and_draws_three():
    """Turn [public]: the next player's turn places the event marker by a flipped card, then
    draws 3 cards. IBR-COMP-01: the marker's square is public in every view."""
    s = table()
    seven = card(s, "剣", 7)
    drawn = [card(s, "巻物", 1), card(s, "巻物", 2), card(s, "巻物", 3)]
    end(s, seven, *drawn)
    assert s.turn_player == 1 and s.phase == ACT
    assert s.event_pos == 7
    assert sorted(s.hands[1]) == sorted(drawn)
    for p in (0, 1, 2, 3, None):
        assert s.view(p)["public"]["event_marker"] == 7


def test_hand_limit_seven_at_end_of_turn():
    """End of turn [designed]: discard down to 7, the player choosing."""
    s = table()
    hand = [card(s, "剣", n) for n in range(1, 10)]
    give(s, 0, *hand)
    flips(s, card(s, "巻物", 7))
    act(s, "end")
    assert s.phase == DISCARD and s.pending.players == (0,)
    assert legal(s) == {f"discard {c}" for c in hand}
    act(s, f"discard {hand[0]}")
    assert s.phase == DISCARD
    act(s, f"discard {hand[5]}")
    assert s.turn_player == 1 and s.phase == ACT
    assert sorted(s.hands[0]) == sorted(hand[1:5] + hand[6:])


def test_hand_of_seven_is_kept():
    s = table()
    give(s, 0, *[card(s, "剣", n) for n in range(1, 8)])
    end(s, card(s, "巻物", 7))
    assert s.turn_player == 1 and len(s.hands[0]) == 7


# ----- exploration ----------------------------------------------------------------------------------
def test_exploration_success_gives_an_item():
    """Exploration [designed]: on a corner, card + flipped card >= 13 takes a random item."""
    s = table()
    place(s, 0, 1)
    c = card(s, "剣", 6)
    give(s, 0, c)
    flips(s, card(s, "巻物", 7))
    pool = len(s.item_pool)
    act(s, f"explore {c}")
    assert len(s.items[0]) == 1 and len(s.item_pool) == pool - 1
    assert events(s, "explore")[-1]["success"] is True
    assert c in s.discard


def test_exploration_failure_gives_nothing_and_once_per_turn():
    s = table()
    place(s, 0, 1)
    c, c2 = card(s, "剣", 6), card(s, "剣", 11)
    give(s, 0, c, c2)
    flips(s, card(s, "巻物", 6))
    act(s, f"explore {c}")
    assert s.items[0] == []
    assert events(s, "explore")[-1]["total"] == 12
    assert not any(a.startswith("explore") for a in legal(s))


def test_exploration_only_on_corners():
    s = table()                                 # seat 0 on square 2
    give(s, 0, card(s, "剣", 6))
    assert not any(a.startswith("explore") for a in legal(s))


def test_mireille_explores_plus_four_and_twice():
    """ミレイユ [designed]: exploration +4, twice a turn."""
    s = table()
    s.turn_index = 2
    place(s, 2, 7)
    a, b = card(s, "剣", 5), card(s, "剣", 6)
    give(s, 2, a, b)
    flips(s, card(s, "巻物", 4), card(s, "巻物", 2))
    act(s, f"explore {a}")                      # 5 + 4 + 4 = 13
    assert len(s.items[2]) == 1
    act(s, f"explore {b}")                      # 6 + 2 + 4 = 12
    assert len(s.items[2]) == 1
    assert not any(x.startswith("explore") for x in legal(s))


# ----- whims: satisfying, visiting, winning ------------------------------------------------------------
def test_satisfy_whim_with_items():
    """Whims [designed]: the escort gives the asked item and takes the whim card; IBR-IRR-04:
    the irritation counter is removed when the whim is taken."""
    s = table()
    escort(s, 0)
    w = show_whim(s, "nodo_ga_kawaita", irritation=2)
    water = give_item(s, 0, "water")
    food = give_item(s, 0, "food")
    assert "satisfy" in legal(s)
    act(s, "satisfy")
    assert s.whims[0] == [w] and s.whim_up == []
    assert s.irritation == 0
    assert water in s.item_discard and s.items[0] == [food]


def test_satisfy_needs_every_item_and_the_escort():
    s = table()
    escort(s, 0)
    show_whim(s, "ochakai")                     # water and food
    give_item(s, 0, "water")
    assert "satisfy" not in legal(s)
    give_item(s, 0, "food")
    assert "satisfy" in legal(s)
    s.escort, s.princess = -1, board.KEEP
    assert "satisfy" not in legal(s)


def test_visit_whim_is_taken_on_its_square():
    """A visit whim [designed]: bringing the princess to its square takes it."""
    s = table()
    escort(s, 0)
    w = show_whim(s, "kita_no_to")              # square 1
    one = card(s, "剣", 1)
    give(s, 0, one)
    act(s, f"move {one} 1")
    assert s.whims[0] == [w] and s.whim_up == []


def test_visit_whim_not_taken_without_the_princess():
    s = table()
    show_whim(s, "kita_no_to")
    one = card(s, "剣", 1)
    give(s, 0, one)
    act(s, f"move {one} 1")
    assert s.whims[0] == [] and len(s.whim_up) == 1


def _at_gate_door(s, p: int = 0) -> int:
    place(s, p, 1)
    one = card(s, "剣", 1)
    give(s, p, one)
    return one


def test_win_at_the_gate_with_three_whims_IBR_WIN_01():
    """IBR-WIN-01: 3 whim cards and leaving the castle (the gate) with the princess wins."""
    s = table()
    one = _at_gate_door(s)
    escort(s, 0)
    hold_whims(s, 0, "nodo_ga_kawaita", "onaka_ga_suita", "taikutsu")
    assert f"move {one} 13" in legal(s)
    act(s, f"move {one} 13")
    assert s.outcome is not None
    assert s.outcome.winners == (0,) and s.outcome.reason == "escape"
    assert s.pending is None and s.phase == OVER


def test_gate_closed_with_two_whims_in_standard_IBR_WIN_01():
    """IBR-WIN-01: two whims are not enough in the standard game."""
    s = table()
    one = _at_gate_door(s)
    escort(s, 0)
    hold_whims(s, 0, "nodo_ga_kawaita", "onaka_ga_suita")
    assert s.whims_needed() == 3
    assert f"move {one} 13" not in legal(s)
    with pytest.raises(IllegalActionError):
        act(s, f"move {one} 13")
    assert s.outcome is None


def test_gate_needs_the_princess_IBR_WIN_01():
    """IBR-WIN-01: three whims without escorting the princess do not open the gate."""
    s = table()
    one = _at_gate_door(s)
    hold_whims(s, 0, "nodo_ga_kawaita", "onaka_ga_suita", "taikutsu")
    assert f"move {one} 13" not in legal(s)


# ----- short mode -------------------------------------------------------------------------------------
def test_short_mode_is_a_setup_option_IBR_SHORT_01():
    """IBR-SHORT-01: the short version is a game mode chosen at setup."""
    assert takujo.load("ibara").options.mode == "standard"
    g = takujo.load("ibara", mode="short")
    assert "mode=short" in str(g)
    assert g.new_state(3).whims_needed() == 2
    with pytest.raises(OptionError):
        takujo.load("ibara", mode="tiny")


def test_short_mode_wins_with_two_whims_IBR_SHORT_03():
    """IBR-SHORT-03: in short mode 2 whims and the princess at the gate win."""
    s = table(mode="short")
    one = _at_gate_door(s)
    escort(s, 0)
    hold_whims(s, 0, "nodo_ga_kawaita", "onaka_ga_suita")
    assert f"move {one} 13" in legal(s)
    act(s, f"move {one} 13")
    assert s.outcome.winners == (0,) and s.outcome.reason == "escape"


def test_short_mode_still_needs_the_princess_IBR_SHORT_03():
    s = table(mode="short")
    one = _at_gate_door(s)
    hold_whims(s, 0, "nodo_ga_kawaita", "onaka_ga_suita")
    assert f"move {one} 13" not in legal(s)


def _count(entries, ids, key: str) -> int:
    return sum(1 for i in ids if entries[i].id == key)


def test_short_mode_removes_named_whims_IBR_SHORT_04():
    """IBR-SHORT-04: いばら姫の恋？ and 伝説のルビー are removed in short mode only."""
    std, short = takujo.load("ibara"), takujo.load("ibara", mode="short")
    whims = std.content.whims
    for key in ("ibarahime_no_koi", "densetsu_no_ruby"):
        assert _count(whims, std.whim_ids, key) == 1
        assert _count(whims, short.whim_ids, key) == 0
    assert len(std.whim_ids) == 20 and len(short.whim_ids) == 18
    for seed in (0, 1):
        s = short.new_state(seed)
        in_play = s.whim_deck + s.whim_up + [w for held in s.whims for w in held]
        assert sorted(in_play) == sorted(short.whim_ids)
        assert not {"ibarahime_no_koi", "densetsu_no_ruby"} & set(whim_ids(s, in_play))


def test_short_mode_removes_both_mysterious_jewel_events_IBR_SHORT_05():
    """IBR-SHORT-05: the 2 ふしぎな宝石 event cards are removed."""
    std, short = takujo.load("ibara"), takujo.load("ibara", mode="short")
    evs = std.content.events
    assert _count(evs, std.event_ids, "fushigi_na_hoseki") == 2
    assert _count(evs, short.event_ids, "fushigi_na_hoseki") == 0
    assert len(short.event_ids) == len(std.event_ids) - 2
    s = short.new_state(0)
    assert sorted(s.event_deck + s.event_discard) == sorted(short.event_ids)
    assert _count(evs, s.event_deck, "fushigi_na_hoseki") == 0


def test_short_mode_removes_two_jewel_chips_IBR_SHORT_06():
    """IBR-SHORT-06: exactly 2 宝石 chips are removed (4 → 2), no other chip."""
    std, short = takujo.load("ibara"), takujo.load("ibara", mode="short")
    items = std.content.items
    assert _count(items, std.item_ids, "hoseki") == 4
    assert _count(items, short.item_ids, "hoseki") == 2
    assert len(short.item_ids) == len(std.item_ids) - 2
    for key in ("water", "food", "clothes", "flower", "book", "medicine", "akuun_no_yubiwa"):
        assert _count(items, short.item_ids, key) == _count(items, std.item_ids, key)
    s = short.new_state(0)
    assert sorted(s.item_pool) == sorted(short.item_ids)
    assert _count(items, s.item_pool, "hoseki") == 2


# ----- event marker -------------------------------------------------------------------------------------
def test_event_marker_is_a_public_piece_that_blocks_random_placement_IBR_COMP_01():
    """IBR-COMP-01: the event marker is a piece on the board: a knight placed at random on its
    square goes one further (IBR-RANDOM-01), and its square is in every view."""
    s = table(knights=PLAIN)
    s.event_pos = 7
    a, d = card(s, "剣", 3), card(s, "巻物", 12)
    to_combat(s, a, d, card(s, "拳", 7))        # the loser's flip: 7, where the marker is
    fight(s, a, d)
    assert s.pos[1] == 9                        # 7 the marker, 8 knight 2 → 9
    view = s.view(2)
    assert view["public"]["event_marker"] == 7
    assert s.view(None)["public"]["event_marker"] == 7


# ----- random placement ---------------------------------------------------------------------------------
def test_random_placement_uses_the_flipped_number_IBR_RANDOM_01():
    """IBR-RANDOM-01: a free square: the piece goes to the flipped number."""
    s = table(knights=PLAIN)
    a, d = card(s, "剣", 3), card(s, "巻物", 12)
    to_combat(s, a, d, card(s, "拳", 7))
    fight(s, a, d)
    assert s.pos[1] == 7
    assert events(s, "placed")[-1] == {"e": "placed", "to": None, "player": 1, "square": 7,
                                       "why": "combat"}


def test_random_placement_plus_one_for_a_knight_IBR_RANDOM_01():
    """IBR-RANDOM-01: a knight on the flipped square: +1."""
    s = table(knights=PLAIN)                    # knight 2 on 8
    a, d = card(s, "剣", 3), card(s, "巻物", 12)
    to_combat(s, a, d, card(s, "拳", 8))
    fight(s, a, d)
    assert s.pos[1] == 9


def test_random_placement_example_8_9_10_IBR_RANDOM_02_IBR_RANDOM_04():
    """IBR-RANDOM-02, IBR-RANDOM-04: an 8 with a marker on 8 and on 9 lands on 10."""
    s = table(knights=PLAIN)                    # knight 2 on 8
    s.event_pos = 9
    a, d = card(s, "剣", 3), card(s, "巻物", 12)
    to_combat(s, a, d, card(s, "拳", 8))
    fight(s, a, d)
    assert s.pos[1] == 10


def test_random_placement_plus_one_for_the_lone_princess_IBR_RANDOM_01():
    """IBR-RANDOM-01: the princess left alone on a square blocks it too."""
    s = table(knights=PLAIN)
    s.princess = 7
    a, d = card(s, "剣", 3), card(s, "巻物", 12)
    to_combat(s, a, d, card(s, "拳", 7))
    fight(s, a, d)
    assert s.pos[1] == 8 + 1                    # 7 princess, 8 knight 2 → 9


def test_event_marker_placement_skips_the_lone_princess_IBR_RANDOM_01_IBR_RANDOM_04():
    """IBR-RANDOM-01, IBR-RANDOM-04: the event marker is placed at random too; an 8 with a
    knight on 8 and the princess (alone) on 9 puts it on 10."""
    s = table()
    s.princess = 9                              # nobody escorts her
    end(s, card(s, "剣", 8))
    assert s.event_pos == 10


def test_event_marker_placement_skips_knights_but_not_its_own_square_IBR_RANDOM_01():
    s = table()
    s.event_pos = 6
    end(s, card(s, "剣", 6))                    # its own old square is free for it
    assert s.event_pos == 6
    end(s, card(s, "剣", 11))                   # knight 3 on 11
    assert s.event_pos == 12


def test_random_placement_wraps_12_to_1_IBR_RANDOM_03():
    """IBR-RANDOM-03: after 12 comes 1."""
    s = table(knights=PLAIN)
    place(s, 3, 12)
    a, d = card(s, "剣", 3), card(s, "巻物", 12)
    to_combat(s, a, d, card(s, "拳", 12))
    fight(s, a, d)
    assert s.pos[1] == 1


def test_random_placement_wraps_past_several_markers_IBR_RANDOM_02_IBR_RANDOM_03():
    s = table(knights=PLAIN)                    # knight 3 on 11
    s.event_pos = 12
    a, d = card(s, "剣", 3), card(s, "巻物", 12)
    to_combat(s, a, d, card(s, "拳", 11))
    fight(s, a, d)
    assert s.pos[1] == 1


def test_shield_number_works_for_random_placement_IBR_RANDOM_01():
    s = table(knights=PLAIN)
    a, d = card(s, "剣", 3), card(s, "巻物", 12)
    to_combat(s, a, d, card(s, "盾", 6))
    fight(s, a, d)
    assert s.pos[1] == 6


# ----- SP cards turned up at random ---------------------------------------------------------------------
def test_sp_card_flipped_for_placement_is_discarded_and_another_flipped_IBR_SP_01():
    """IBR-SP-01: without the option an SP card turned up for random placement is discarded
    and the next card gives the square."""
    s = table()
    x = sp(s)
    end(s, x, card(s, "剣", 7))
    assert s.event_pos == 7
    assert x in s.discard
    assert all(x not in h for h in s.hands)


def test_sp_card_flipped_for_exploration_counts_zero_IBR_SP_01():
    """IBR-SP-01: an SP card turned up in an exploration check counts 0 and is discarded."""
    s = table()
    place(s, 0, 1)
    c = card(s, "剣", 12)
    give(s, 0, c)
    x = sp(s, "draw")
    flips(s, x, card(s, "剣", 1))               # the card after the SP card is not flipped
    act(s, f"explore {c}")
    ex = events(s, "explore")[-1]
    assert ex["flipped"] == 0 and ex["total"] == 12 and ex["success"] is False
    assert s.items[0] == []
    assert x in s.discard and x not in s.hands[0]
    assert len(events(s, "flip")) == 1


def test_sp_to_hand_event_marker_goes_to_the_active_player_IBR_SP_02_IBR_SP_03():
    """IBR-SP-02, IBR-SP-03: with `sp_cards_to_hand` an SP card turned up while the event
    marker is placed goes to the active player; the placement still uses the next card."""
    s = table(sp_cards_to_hand=True)
    x = sp(s)
    drawn = [card(s, "巻物", 1), card(s, "巻物", 2), card(s, "巻物", 3)]
    end(s, x, card(s, "剣", 7), *drawn)
    assert s.turn_player == 1
    assert s.event_pos == 7
    assert sorted(s.hands[1]) == sorted([x, *drawn])
    assert x not in s.discard
    assert events(s, "sp_to_hand")[-1]["player"] == 1


def test_sp_to_hand_combat_placement_goes_to_the_placed_player_IBR_SP_04():
    """IBR-SP-04: SP card turned up for the random placement after a combat goes to the
    randomly placed player (here the defender, not the active player)."""
    s = table(knights=PLAIN, sp_cards_to_hand=True)
    a, d = card(s, "剣", 3), card(s, "巻物", 12)
    x = sp(s, "move_event")
    to_combat(s, a, d, x, card(s, "拳", 7))
    fight(s, a, d)
    assert s.pos[1] == 7                        # resolution unchanged (IBR-SP-02)
    assert s.hands[1] == [x]
    assert x not in s.hands[0] and x not in s.discard


def test_sp_without_option_in_combat_placement_is_discarded_IBR_SP_01_IBR_SP_04():
    s = table(knights=PLAIN)
    a, d = card(s, "剣", 3), card(s, "巻物", 12)
    x = sp(s, "move_event")
    to_combat(s, a, d, x, card(s, "拳", 7))
    fight(s, a, d)
    assert s.pos[1] == 7 and s.hands[1] == [] and x in s.discard


def test_sp_to_hand_anger_placement_goes_to_the_placed_player_IBR_SP_05():
    """IBR-SP-05: SP card turned up for the placement after an anger explosion goes to the
    placed player: here the escort (seat 1), exploded by an event on seat 0's turn."""
    s = table(sp_cards_to_hand=True)
    escort(s, 1)                                # princess on 5 with seat 1
    show_whim(s, "zutsu", irritation=1)         # limit 2
    event(s, "kanshaku")
    one = card(s, "剣", 1)
    give(s, 0, one)
    x = sp(s)
    flips(s, x, card(s, "剣", 7))
    act(s, f"move {one} 3")                     # the event marker's square
    assert events(s, "anger")
    assert s.pos[1] == 7
    assert s.hands[1] == [x] and s.hands[0] == []
    assert s.princess == 5 and s.escort == -1


def test_sp_to_hand_exploration_goes_to_the_active_player_IBR_SP_06():
    """IBR-SP-06, IBR-SP-02: SP card turned up in an exploration check goes to the active
    player; the check is resolved as before (the SP counts 0)."""
    s = table(sp_cards_to_hand=True)
    place(s, 0, 1)
    c = card(s, "剣", 12)
    give(s, 0, c)
    x = sp(s, "draw")
    flips(s, x)
    act(s, f"explore {c}")
    ex = events(s, "explore")[-1]
    assert ex["flipped"] == 0 and ex["success"] is False
    assert s.hands[0] == [x]
    assert s.items[0] == []


def test_sp_to_hand_pitfall_goes_to_the_active_player_IBR_SP_07():
    """IBR-SP-07: any other random placement (落とし穴) — the player whose turn it is."""
    s = table(sp_cards_to_hand=True)
    one = card(s, "剣", 1)
    give(s, 0, one)
    event(s, "otoshiana")
    x = sp(s)
    flips(s, x, card(s, "剣", 7))
    act(s, f"move {one} 3")
    assert s.pos[0] == 7 and s.hands[0] == [x]


# ----- irritation ---------------------------------------------------------------------------------------
def test_whim_turned_up_at_zero_and_not_raised_same_turn_IBR_IRR_01_IBR_IRR_05():
    """IBR-IRR-05, IBR-IRR-01: the escort's turn ends with no whim face up: one is turned up,
    its counter at 0 — and not also raised (exactly one branch)."""
    s = table()
    escort(s, 0)
    w = whim(s, "nodo_ga_kawaita")
    s.whim_deck.remove(w)
    s.whim_deck.append(w)
    s.irritation = 2                            # stale value: must not survive
    end(s, card(s, "剣", 6))
    assert s.whim_up == [w]
    assert s.irritation == 0
    assert events(s, "whim")[-1]["card"] == w
    assert events(s, "irritation") == []


def test_escort_turn_end_raises_irritation_once_IBR_IRR_02_IBR_IRR_06():
    """IBR-IRR-06, IBR-IRR-02: with a whim face up, the escort's turn end adds exactly 1."""
    s = table()
    escort(s, 0)
    w = show_whim(s, "hana_ga_hoshii", irritation=1)     # limit 4
    deck = list(s.whim_deck)
    end(s, card(s, "剣", 6))
    assert s.irritation == 2 and s.whim_up == [w]
    assert s.whim_deck == deck                  # no second whim turned up
    assert events(s, "irritation")[-1]["value"] == 2


def test_irritation_over_a_full_round_IBR_IRR_02_IBR_IRR_06_IBR_IRR_07_IBR_IRR_08():
    """IBR-IRR-06, IBR-IRR-08: non-escorts' turn ends and the start of a round add nothing;
    IBR-IRR-02: each escort turn end adds 1; IBR-IRR-07: reaching the limit explodes;
    IBR-IRR-03: the counter is removed."""
    s = table()
    escort(s, 0)
    w = show_whim(s, "nodo_ga_kawaita", irritation=1)    # limit 3
    end(s, card(s, "剣", 6))
    assert s.irritation == 2
    for p, n in ((1, 6), (2, 6), (3, 6)):
        assert s.turn_player == p
        end(s, card(s, "巻物", n, nth=(p - 1) % 2) if p != 3 else card(s, "拳", 6))
        assert s.irritation == 2                # no increase for non-escorts
    assert s.turn_player == 0 and s.round == 3  # a new round began: no increase either
    assert s.irritation == 2 and s.whim_up == [w]
    end(s, card(s, "剣", 9), card(s, "拳", 6, nth=1))   # anger placement 9, then next marker
    assert events(s, "anger")[-1]["card"] == w
    assert w in s.whim_discard and s.whim_up == []
    assert s.irritation == 0
    assert s.pos[0] == 9 and s.escort == -1 and s.princess == 2


def test_below_limit_no_explosion_IBR_IRR_07():
    s = table()
    escort(s, 0)
    show_whim(s, "taikutsu", irritation=3)      # limit 5
    end(s, card(s, "剣", 6))
    assert s.irritation == 4 and events(s, "anger") == []
    assert s.escort == 0


def test_reaching_limit_explodes_IBR_IRR_07_IBR_IRR_03():
    """IBR-IRR-07: reaching the printed limit explodes the princess's anger; IBR-IRR-03: the
    counter is removed; the escort is placed alone (the princess stays)."""
    s = table()
    escort(s, 0)
    w = show_whim(s, "zutsu", irritation=1)     # limit 2
    end(s, card(s, "剣", 9), card(s, "剣", 6))
    assert events(s, "anger")[-1] == {"e": "anger", "to": None, "player": 0, "card": w,
                                      "by_event": False}
    assert s.whim_up == [] and s.irritation == 0 and w in s.whim_discard
    assert s.pos[0] == 9 and s.princess == 2 and s.escort == -1
    assert s.turn_player == 1


def test_non_escort_turn_end_raises_nothing_IBR_IRR_05_IBR_IRR_06():
    """IBR-IRR-05, IBR-IRR-06: only the escort's turn end counts; with nobody escorting nothing
    happens, not even turning a whim up."""
    s = table()
    end(s, card(s, "剣", 6))
    assert s.whim_up == [] and s.irritation == 0
    escort(s, 2)
    show_whim(s, "nodo_ga_kawaita", irritation=1)
    end(s, card(s, "巻物", 6))                  # seat 1's turn ends; seat 2 escorts
    assert s.irritation == 1


def test_combat_does_not_raise_irritation_IBR_IRR_08():
    """IBR-IRR-08: combat no longer raises the counter (win or lose, escort involved)."""
    s = table(knights=PLAIN)
    place(s, 1, 5)
    escort(s, 1)
    show_whim(s, "taikutsu", irritation=2)
    a, d = card(s, "剣", 3), card(s, "巻物", 12)
    to_combat(s, a, d, card(s, "拳", 7))
    fight(s, a, d)
    assert s.irritation == 2 and len(s.whim_up) == 1
    assert events(s, "irritation") == []


def test_tantrum_event_raises_and_explodes_IBR_IRR_07():
    """IBR-IRR-07 with the event 姫のかんしゃく (+1): reaching the limit explodes at once."""
    s = table()
    escort(s, 0)
    show_whim(s, "zutsu", irritation=1)
    event(s, "kanshaku")
    one = card(s, "剣", 1)
    give(s, 0, one)
    flips(s, card(s, "剣", 9))
    act(s, f"move {one} 3")
    assert events(s, "anger")[-1]["by_event"] is True
    assert s.pos[0] == 9 and s.princess == 3
    assert s.phase == ACT and s.turn_player == 0


# ----- anger explosions ----------------------------------------------------------------------------------
def _explode_at_end(s, *held: str) -> list[int]:
    """Seat 0 escorts with `held` whims; 頭が痛いの at 1/2; seat 0 ends the turn. Flips: 9
    for the escort, then 6 for the next event marker."""
    escort(s, 0)
    ws = hold_whims(s, 0, *held)
    show_whim(s, "zutsu", irritation=1)
    end(s, card(s, "剣", 9), card(s, "剣", 6))
    return ws


def test_discard_one_player_chooses_IBR_ANGER_01():
    """IBR-ANGER-01: the exploded escort discards one whim card of their choice."""
    s = table()
    a, b = _explode_at_end(s, "nodo_ga_kawaita", "onaka_ga_suita")
    assert s.phase == PENALTY and s.pending.players == (0,)
    assert legal(s) == {f"lose {a}", f"lose {b}"}
    assert s.legal_actions(1) == []
    with pytest.raises(IllegalActionError):
        act(s, "end", 0)
    act(s, f"lose {b}")
    assert s.whims[0] == [a] and b in s.whim_discard
    assert s.pos[0] == 9 and s.escort == -1 and s.princess == 2
    assert s.turn_player == 1 and s.phase == ACT


def test_discard_one_identical_whims_no_choice_IBR_ANGER_01():
    s = table()
    a, b = _explode_at_end(s, "nodo_ga_kawaita", "nodo_ga_kawaita")
    assert s.turn_player == 1
    assert len(s.whims[0]) == 1 and len(set(s.whims[0]) & {a, b}) == 1
    assert s.pos[0] == 9


def test_discard_one_holding_none_IBR_ANGER_01():
    s = table()
    _explode_at_end(s)
    assert s.whims[0] == [] and s.pos[0] == 9 and s.turn_player == 1


def test_discard_all_option_IBR_ANGER_03_IBR_ANGER_05():
    """IBR-ANGER-03, IBR-ANGER-05: `anger_penalty=discard_all` loses every held whim."""
    s = table(anger_penalty="discard_all")
    a, b = _explode_at_end(s, "nodo_ga_kawaita", "onaka_ga_suita")
    assert s.whims[0] == []
    assert {a, b} <= set(s.whim_discard)
    assert s.turn_player == 1 and s.pos[0] == 9


def test_hybrid_normal_explosion_loses_all_IBR_ANGER_04():
    """IBR-ANGER-04: `hybrid_event_one`: a normal explosion discards all."""
    s = table(anger_penalty="hybrid_event_one")
    _explode_at_end(s, "nodo_ga_kawaita", "onaka_ga_suita")
    assert s.whims[0] == [] and s.turn_player == 1


def _explode_by_event(s, *held: str) -> list[int]:
    """Seat 0 escorts with `held`, at 1/2 of 頭が痛いの, and steps on 姫のかんしゃく."""
    escort(s, 0)
    ws = hold_whims(s, 0, *held)
    show_whim(s, "zutsu", irritation=1)
    event(s, "kanshaku")
    one = card(s, "剣", 1)
    give(s, 0, one)
    flips(s, card(s, "剣", 9))
    act(s, f"move {one} 3")
    return ws


def test_hybrid_event_explosion_loses_one_of_choice_IBR_ANGER_04():
    """IBR-ANGER-04: an explosion caused by the event card 姫のかんしゃく loses only one,
    chosen by the player; the turn then goes on."""
    s = table(anger_penalty="hybrid_event_one")
    a, b = _explode_by_event(s, "nodo_ga_kawaita", "onaka_ga_suita")
    assert s.phase == PENALTY and s.pending.players == (0,)
    act(s, f"lose {a}")
    assert s.whims[0] == [b]
    assert s.pos[0] == 9 and s.princess == 3 and s.escort == -1
    assert s.phase == ACT and s.turn_player == 0


def test_discard_all_event_explosion_loses_all_IBR_ANGER_03():
    s = table(anger_penalty="discard_all")
    _explode_by_event(s, "nodo_ga_kawaita", "onaka_ga_suita")
    assert s.whims[0] == [] and s.phase == ACT


def test_discard_one_event_explosion_loses_one_IBR_ANGER_01():
    s = table()
    a, b = _explode_by_event(s, "nodo_ga_kawaita", "onaka_ga_suita")
    act(s, f"lose {b}")
    assert s.whims[0] == [a]


def test_anger_penalty_values_IBR_ANGER_05():
    """IBR-ANGER-05: the penalty is a setup choice; discard_one is the default."""
    assert takujo.load("ibara").options.anger_penalty == "discard_one"
    for v in ("discard_one", "discard_all", "hybrid_event_one"):
        assert takujo.load("ibara", anger_penalty=v).options.anger_penalty == v
    with pytest.raises(OptionError):
        takujo.load("ibara", anger_penalty="discard_two")


def test_whims_kept_when_losing_combat_IBR_ANGER_02():
    """IBR-ANGER-02: whim cards are lost only by an explosion — a beaten escort keeps his."""
    s = table(knights=PLAIN)
    place(s, 1, 5)
    escort(s, 1)
    held = hold_whims(s, 1, "nodo_ga_kawaita", "onaka_ga_suita")
    a, d = card(s, "剣", 3), card(s, "巻物", 12)
    to_combat(s, a, d, card(s, "拳", 7))
    fight(s, a, d)
    assert s.escort == 0
    assert s.whims[1] == held and s.whims[0] == []


def test_whims_kept_when_thrown_by_a_pitfall_IBR_ANGER_02():
    s = table()
    escort(s, 0)
    held = hold_whims(s, 0, "nodo_ga_kawaita")
    event(s, "otoshiana")
    one = card(s, "剣", 1)
    give(s, 0, one)
    flips(s, card(s, "剣", 9))
    act(s, f"move {one} 3")
    assert s.pos[0] == 9 and s.escort == -1 and s.princess == 3
    assert s.whims[0] == held


# ----- combat -------------------------------------------------------------------------------------------
def test_entering_a_knight_starts_a_simultaneous_single_card_combat():
    """Combat [public; designed simultaneous]: both commit one card face down; only the
    defender may use a shield."""
    s = table(knights=PLAIN)
    a, a_shield = card(s, "剣", 3), card(s, "盾", 4)
    d, d_shield = card(s, "巻物", 12), card(s, "盾", 5)
    give(s, 0, a_shield)
    give(s, 1, d_shield)
    to_combat(s, a, d)
    assert s.phase == COMBAT_PLAY
    pend = s.pending
    assert pend.kind is DecisionKind.SIMULTANEOUS and set(pend.players) == {0, 1}
    assert legal(s, 0) == {f"fight {a}"}       # no shield for the attacker
    assert legal(s, 1) == {f"fight {d}", f"fight {d_shield}"}
    act(s, f"fight {a}", 0)
    assert s.pending.players == (1,)
    assert s.legal_actions(0) == []


def test_combat_commit_is_hidden_from_the_view():
    """Hidden information: the committed card and other hands are not in another view."""
    s = table(knights=PLAIN)
    a, d = card(s, "剣", 3), card(s, "巻物", 12)
    extra = card(s, "拳", 10)
    give(s, 0, extra)
    to_combat(s, a, d)
    act(s, f"fight {a}", 0)
    for p in (1, 2, None):
        v = s.view(p)
        assert v["zones"]["played"][0] == 1
        assert v["zones"]["hand"][0] == 1       # the extra card, as a count
        assert v["public"]["combat"]["plays"] == [[], []]
        assert not any(e["e"] == "act" and "fight" in e["action"] for e in v["log"])
    mine = s.view(0)
    assert mine["zones"]["played"][0] == [a] and mine["zones"]["hand"][0] == [extra]
    assert mine["zones"]["hand"][1] == 1 and s.view(1)["zones"]["hand"][1] == [d]
    act(s, f"fight {d}", 1)
    shown = [e for e in s.view(2)["log"] if e["e"] == "reveal"]
    assert {e["player"]: e["cards"] for e in shown} == {0: [a], 1: [d]}


def test_other_hands_hidden_in_view():
    s = table()
    h0, h1 = [card(s, "剣", 1), card(s, "剣", 2)], [card(s, "拳", 3)]
    give(s, 0, *h0)
    give(s, 1, *h1)
    v = s.view(1)
    assert v["zones"]["hand"][0] == 2 and v["zones"]["hand"][1] == h1
    assert v["zones"]["deck"] == len(s.deck)
    assert v["legal"] == []
    assert s.view(0)["zones"]["hand"][1] == 1


@pytest.mark.parametrize("att, dfd, result", [
    (("剣", 3), ("巻物", 12), 1),
    (("巻物", 3), ("拳", 12), 1),
    (("拳", 3), ("剣", 12), 1),
    (("巻物", 12), ("剣", 3), -1),
    (("拳", 12), ("巻物", 3), -1),
    (("剣", 12), ("拳", 3), -1),
    (("剣", 9), ("剣", 8), 1),
    (("剣", 8), ("剣", 9), -1),
    (("剣", 8), ("剣", 8), 0),
    (("剣", 12), ("盾", 1), 0),
])
def test_combat_result_cycle_number_and_shield(att, dfd, result):
    """Combat [public; designed direction]: 剣>巻物>拳>剣; same suit, higher number; equal is
    a tie; a defender's shield forces a tie. The loser is placed at random; on a tie the
    attacker goes back. Played cards are discarded."""
    s = table(knights=PLAIN)
    a = card(s, *att)
    d = card(s, *dfd, nth=1 if dfd == att else 0)
    to_combat(s, a, d, card(s, "拳", 7))
    fight(s, a, d)
    assert events(s, "combat_result")[-1]["result"] == result
    assert a in s.discard and d in s.discard
    assert s.hands[0] == [] and s.hands[1] == []
    if result == 1:
        assert (s.pos[0], s.pos[1]) == (5, 7)
    elif result == -1:
        assert (s.pos[0], s.pos[1]) == (7, 5)
    else:
        assert (s.pos[0], s.pos[1]) == (4, 5)
        assert events(s, "placed") == []
    assert s.phase == ACT and s.turn_player == 0


def test_beaten_escort_loses_the_princess_to_the_winner():
    """Combat [public]: a defeated escort loses the princess to the winner."""
    s = table(knights=PLAIN)
    place(s, 1, 5)
    escort(s, 1)
    a, d = card(s, "剣", 3), card(s, "巻物", 12)
    to_combat(s, a, d, card(s, "拳", 7))
    fight(s, a, d)
    assert s.escort == 0 and s.princess == 5 and s.pos[0] == 5 and s.pos[1] == 7


def test_beaten_attacking_escort_loses_the_princess_to_the_defender():
    s = table(knights=PLAIN)
    place(s, 0, 4)
    escort(s, 0)
    a, d = card(s, "剣", 3), card(s, "剣", 12)
    to_combat(s, a, d, card(s, "拳", 7))
    assert s.princess == 5                       # she came along
    fight(s, a, d)
    assert s.escort == 1 and s.princess == 5 and s.pos[0] == 7


def test_tie_sends_the_escorting_attacker_back_with_the_princess():
    s = table(knights=PLAIN)
    place(s, 0, 4)
    escort(s, 0)
    a, d = card(s, "剣", 8), card(s, "剣", 8, nth=1)
    to_combat(s, a, d)
    fight(s, a, d)
    assert s.pos[0] == 4 and s.princess == 4 and s.escort == 0 and s.pos[1] == 5


def test_combat_win_satisfies_a_duel_whim():
    """A deed whim [designed]: winning a combat while escorting takes 決闘が見たいわ."""
    s = table(knights=PLAIN)
    place(s, 0, 4)
    escort(s, 0)
    w = show_whim(s, "kenka_ga_mitai")
    a, d = card(s, "剣", 3), card(s, "巻物", 12)
    to_combat(s, a, d, card(s, "拳", 7))
    fight(s, a, d)
    assert s.whims[0] == [w] and s.whim_up == []


# ----- ゲイブリッツ ----------------------------------------------------------------------------------------
def test_gaiblitz_combat_bonus_without_option_IBR_GABE_01():
    """IBR-GABE-01 (option off): ゲイブリッツ keeps his printed ability, combat +2, and has no
    draw/discard ability."""
    s = table()
    assert not any(a.startswith("gaiblitz") for a in legal(s))
    a, d = card(s, "剣", 5), card(s, "剣", 6)
    to_combat(s, a, d, card(s, "拳", 7))
    fight(s, a, d)
    r = events(s, "combat_result")[-1]
    assert r["attacker"] == ["剣", 7] and r["result"] == 1


def test_gaiblitz_buff_replaces_the_combat_bonus_IBR_GABE_01():
    """IBR-GABE-01: with `gaiblitz_buff` the +2 is replaced (剣5 now loses to 剣6)."""
    s = table(gaiblitz_buff=True)
    a, d = card(s, "剣", 5), card(s, "剣", 6)
    to_combat(s, a, d, card(s, "拳", 7))
    fight(s, a, d)
    r = events(s, "combat_result")[-1]
    assert r["attacker"] == ["剣", 5] and r["result"] == -1


def test_gaiblitz_buff_target_discards_three_of_their_choice_IBR_GABE_01():
    """IBR-GABE-01: the target chooses and discards 3 cards; once per turn."""
    s = table(gaiblitz_buff=True)
    hand = [card(s, "巻物", n) for n in (1, 2, 3, 4)]
    give(s, 1, *hand)
    moves = legal(s)
    assert {f"gaiblitz {q} draw" for q in range(4)} <= moves
    assert "gaiblitz 1 discard" in moves and "gaiblitz 2 discard" not in moves
    act(s, "gaiblitz 1 discard")
    assert s.phase == GABE_DISCARD and s.pending.players == (1,)
    assert legal(s) == {f"discard {c}" for c in hand}
    for c in (hand[0], hand[2], hand[3]):
        act(s, f"discard {c}")
    assert s.hands[1] == [hand[1]]
    assert {hand[0], hand[2], hand[3]} <= set(s.discard)
    assert s.phase == ACT and s.pending.players == (0,)
    assert not any(a.startswith("gaiblitz") for a in legal(s))


def test_gaiblitz_buff_target_with_fewer_cards_discards_all_IBR_GABE_01():
    s = table(gaiblitz_buff=True)
    hand = [card(s, "巻物", 1), card(s, "巻物", 2)]
    give(s, 2, *hand)
    act(s, "gaiblitz 2 discard")
    act(s, f"discard {hand[1]}")
    assert s.phase == GABE_DISCARD
    act(s, f"discard {hand[0]}")
    assert s.hands[2] == [] and s.phase == ACT


def test_gaiblitz_buff_target_draws_three_IBR_GABE_01():
    s = table(gaiblitz_buff=True)
    top = [card(s, "拳", 1), card(s, "拳", 2), card(s, "拳", 3)]
    flips(s, *top)
    act(s, "gaiblitz 3 draw")
    assert sorted(s.hands[3]) == sorted(top)
    assert s.phase == ACT and s.gabe_used


def test_gaiblitz_buff_can_target_himself_IBR_GABE_02():
    """IBR-GABE-02: ゲイブリッツ's player may target himself (draw or discard)."""
    s = table(gaiblitz_buff=True)
    top = [card(s, "拳", 1), card(s, "拳", 2), card(s, "拳", 3)]
    flips(s, *top)
    act(s, "gaiblitz 0 draw")
    assert sorted(s.hands[0]) == sorted(top)
    s2 = table(gaiblitz_buff=True)
    mine = [card(s2, "剣", n) for n in (1, 2, 3, 4)]
    give(s2, 0, *mine)
    assert "gaiblitz 0 discard" in legal(s2)
    act(s2, "gaiblitz 0 discard")
    assert s2.pending.players == (0,) and s2.phase == GABE_DISCARD
    for c in mine[1:]:
        act(s2, f"discard {c}")
    assert s2.hands[0] == [mine[0]] and s2.phase == ACT


def test_gaiblitz_buff_is_used_in_place_of_moving_IBR_GABE_01():
    """IBR-GABE-01 [designed use]: once per turn in place of moving — no move after it, and
    not after a move."""
    s = table(gaiblitz_buff=True)
    two = card(s, "剣", 5)
    give(s, 0, two)
    act(s, "gaiblitz 2 draw")
    assert not any(a.startswith("move") for a in legal(s))
    s = table(gaiblitz_buff=True)
    give(s, 0, two)
    act(s, f"move {two} 1")
    assert not any(a.startswith("gaiblitz") for a in legal(s))


def test_gaiblitz_buff_only_for_gaiblitz_IBR_GABE_01():
    s = table(gaiblitz_buff=True)
    s.turn_index = 1                             # シオン
    assert not any(a.startswith("gaiblitz") for a in legal(s))


# ----- ライアン -------------------------------------------------------------------------------------------
def _ryan_turn(escorting: bool):
    s = table()
    s.turn_index = 3
    place(s, 0, 1)
    place(s, 1, 2)
    place(s, 2, 3)
    s.event_pos = 4
    place(s, 3, 7)
    if escorting:
        escort(s, 3)
    return s


def test_ryan_escorting_moves_one_further_IBR_RYAN_01():
    """IBR-RYAN-01: ライアン escorting has シオン's ability (+1 movement); not otherwise."""
    s = _ryan_turn(escorting=False)
    three = card(s, "剣", 1)
    give(s, 3, three)
    assert f"move {three} 11" not in legal(s)    # 7-8-9-10-11 is four steps
    assert f"move {three} 10" in legal(s)
    s = _ryan_turn(escorting=True)
    give(s, 3, three)
    assert f"move {three} 11" in legal(s)
    act(s, f"move {three} 11")
    assert s.pos[3] == 11 and s.princess == 11


def test_ryan_escorting_explores_plus_four_twice_IBR_RYAN_01():
    """IBR-RYAN-01: ライアン escorting has ミレイユ's exploration (+4, twice a turn)."""
    s = _ryan_turn(escorting=True)
    a, b = card(s, "剣", 5), card(s, "剣", 6)
    give(s, 3, a, b)
    flips(s, card(s, "巻物", 4), card(s, "巻物", 3))
    act(s, f"explore {a}")                       # 5 + 4 + 4
    assert len(s.items[3]) == 1
    act(s, f"explore {b}")                       # 6 + 3 + 4
    assert len(s.items[3]) == 2


def test_ryan_not_escorting_explores_plain_once_IBR_RYAN_01():
    s = _ryan_turn(escorting=False)
    a, b = card(s, "剣", 5), card(s, "剣", 6)
    give(s, 3, a, b)
    flips(s, card(s, "巻物", 4))
    act(s, f"explore {a}")                       # 5 + 4 = 9
    assert s.items[3] == []
    assert events(s, "explore")[-1]["total"] == 9
    assert not any(x.startswith("explore") for x in legal(s))


@pytest.mark.parametrize("escorting, result", [(True, 1), (False, -1)])
def test_ryan_escorting_fights_plus_two_IBR_RYAN_01(escorting, result):
    """IBR-RYAN-01: ライアン escorting has ゲイブリッツ's combat +2 (剣5 beats 剣6)."""
    s = table()
    s.turn_index = 3
    place(s, 3, 4)
    if escorting:
        escort(s, 3)
    a, d = card(s, "剣", 5), card(s, "剣", 6)
    to_combat(s, a, d, card(s, "拳", 7), att=3, dfd=1)
    fight(s, a, d, att=3, dfd=1)
    assert events(s, "combat_result")[-1]["result"] == result


@pytest.mark.parametrize("seed", range(8))
def test_ryan_last_in_turn_order_IBR_RYAN_02(seed):
    """IBR-RYAN-02: with `ryan_last`, ライアン's player takes the last turn; the others keep
    seat order. Without it, seat order."""
    g = takujo.load("ibara", ryan_last=True)
    s = g.new_state(seed)
    ryan = next(p for p in range(4) if s.knight(p).id == "ryan")
    assert s.order == [p for p in range(4) if p != ryan] + [ryan]
    assert s.turn_player == s.order[0] and s.view(0)["public"]["order"] == s.order
    plain = takujo.load("ibara").new_state(seed)
    assert plain.order == [0, 1, 2, 3]


def test_ryan_last_keeps_ryan_last_through_the_round_IBR_RYAN_02():
    g = takujo.load("ibara", ryan_last=True)
    seed = next(x for x in range(20) if g.new_state(x).knight(0).id == "ryan")
    s = g.new_state(seed)
    assert s.order == [1, 2, 3, 0] and s.round == 1
    seen = []
    for _ in range(4):
        seen.append(s.turn_player)
        act(s, "end")                            # nobody escorts, hands of 3: no decision
    assert seen == [1, 2, 3, 0]
    assert s.round == 2 and s.turn_player == 1


# ----- the end of the game ----------------------------------------------------------------------------
def test_game_ends_after_forty_rounds_by_most_whims():
    """Ending [designed]: after 40 rounds the most whim cards win (shared), reason `time`."""
    s = table()
    s.round, s.turn_index = 40, 3
    hold_whims(s, 0, "nodo_ga_kawaita")
    hold_whims(s, 1, "onaka_ga_suita", "taikutsu")
    hold_whims(s, 2, "zutsu", "ochakai")
    act(s, "end")
    assert s.outcome is not None
    assert s.outcome.reason == "time" and s.outcome.winners == (1, 2)
    assert s.outcome.scores == (1, 2, 2, 0)
    assert s.pending is None and s.legal_actions() == []


def test_game_goes_on_before_round_forty():
    s = table()
    s.round, s.turn_index = 39, 3
    end(s, card(s, "剣", 6))
    assert s.outcome is None and s.round == 40 and s.turn_player == 0
