"""The Ibara bots play from views only; the heuristic beats random; games always end."""
from __future__ import annotations

from takujo.sim import run_games

ALL_ON = {"players": 4, "mode": "short", "multi_card_combat": True, "anger_penalty": "hybrid_event_one",
          "sp_cards_to_hand": True, "gaiblitz_buff": True, "ryan_last": True}


def test_heuristic_beats_three_random_bots():
    summary = run_games("ibara", 24, 3, ["heuristic", "random", "random", "random"], options={"players": 4})
    assert summary.bots["heuristic"].rate > 0.6          # an even share would be 0.25


def test_simulation_reports_knights_and_anger_with_every_option_on():
    summary = run_games("ibara", 24, 5, ["heuristic"], options=ALL_ON)
    assert set(summary.labels) == {"ゲイブリッツ", "シオン", "ミレイユ", "ライアン"}
    assert "anger_explosions" in summary.stats
    assert set(summary.reasons) <= {"escape", "time"}


def test_three_player_games_end():
    summary = run_games("ibara", 12, 7, ["heuristic", "random"], options={"players": 3})
    assert summary.games == 12 and "step_limit" not in summary.reasons


# ----- the heuristic avoids pointless moves ------------------------------------------------------
from takujo.core import Rng  # noqa: E402
from takujo.games.ibara.state import COMBAT_RING  # noqa: E402

from .helpers import act, card, escort, give, give_item, place, show_whim, stack, table  # noqa: E402


def _choice(s, player: int | None = None) -> str:
    p = s.pending.players[0] if player is None else player
    bot = s.game.heuristic_bot()
    return str(bot.act(s.view(p), s.legal_actions(p), Rng(0)))


def test_escorting_bot_keeps_its_last_card_to_fight_with():
    """Exploring with the escort's only card would leave an empty hand, and an empty hand
    loses the princess to any attack: the bot ends its turn instead (it explored)."""
    s = table()
    place(s, 0, 4)                                 # a corner
    escort(s, 0)
    show_whim(s, "nodo_ga_kawaita")                # asks for water, which it lacks
    nine = card(s, "剣", 9)
    give(s, 0, nine)
    assert f"explore {nine}" in {str(a) for a in s.legal_actions(0)}
    assert _choice(s) == "end"
    two = card(s, "拳", 11)
    give(s, 0, two)                                # with a second card it explores
    assert _choice(s).startswith("explore")


def test_bot_does_not_explore_when_no_chip_is_left():
    s = table()
    place(s, 0, 4)                                 # a corner; no nearer square to aim for
    escort(s, 0)
    show_whim(s, "nodo_ga_kawaita")
    give(s, 0, card(s, "剣", 9), card(s, "剣", 10))
    assert _choice(s).startswith("explore")
    s.item_discard, s.item_pool = s.item_pool, []
    assert _choice(s) == "end"


def test_bot_does_not_draw_cards_it_would_discard():
    """千里眼 (draw 2) with seven cards in hand only feeds the discard: not played."""
    s = table()
    escort(s, 0)                                   # no whim up: nowhere to go
    fore = card(s, None, sp="draw")
    give(s, 0, fore, *[card(s, "剣", n) for n in (2, 3, 4, 5, 6, 7, 8)][:6])
    assert len(s.hands[0]) == 7
    assert not _choice(s).startswith("sp")
    s.hands[0] = s.hands[0][:5]
    assert _choice(s) == f"sp {fore}"


def test_bot_uses_the_ring_only_to_turn_a_lost_combat():
    """IBR-COMBAT-RING-01: already winning (剣3 beats 巻物2), replaying with 剣12 would only
    spend the ring; losing (剣3 against 拳9), the bot replays with a card that wins."""
    for defender, want in ((("巻物", 2), "noring"), (("拳", 9), "ring")):
        s = table(knights=["sion", "mireille", "ryan", "gaiblitz"])
        place(s, 0, 2)
        place(s, 1, 1)
        mv, a3, a12, s12 = card(s, "剣", 1), card(s, "剣", 3), card(s, "剣", 12), card(s, "巻物", 12)
        give(s, 0, mv, a3, a12, s12)
        d = card(s, *defender)
        give(s, 1, d)
        give_item(s, 0, "akuun_no_yubiwa")
        stack(s, [card(s, "巻物", 9, nth=1)])
        act(s, f"move {mv} 1")
        act(s, f"fight {a3}", 0)
        act(s, f"fight {d}", 1)
        assert s.phase == COMBAT_RING
        choice = _choice(s, 0)
        assert choice.split()[0] == want
        if want == "ring":
            assert choice == f"ring {s12}"              # 巻物 beats 拳


def test_gaiblitz_with_a_full_hand_makes_the_escort_discard():
    """IBR-GABE-01: drawing 3 into a full hand only feeds the discard; the bot makes the
    escort discard 3 instead."""
    s = table(gaiblitz_buff=True)
    give(s, 0, *[card(s, "剣", n) for n in (2, 3, 4, 5, 6)])
    give(s, 2, card(s, "拳", 5))
    escort(s, 2)
    s.pos = [6, 5, 8, 11]
    s.princess = 8
    assert _choice(s) == "gaiblitz 2 discard"
