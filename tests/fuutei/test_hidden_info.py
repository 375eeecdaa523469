"""Fuutei's hidden information: who the たわけ！ window polls, what views, JSON and clones
share with the state, and worlds sampled by determinize.

Clause IDs refer to docs/rules/fuutei.md; designed rules are in docs/rules/fuutei.md.
"""
from __future__ import annotations

import json

import pytest

import takujo
from tests.checks import vandalise
from takujo.core import Rng, shuffle_unseen
from takujo.core.decision import DecisionKind
from takujo.games.fuutei.heuristic import FuuteiHeuristic

from .helpers import Scripted, act, events, legal, put, table, to_battle, weak

HEI = "teikoku_hei"


# ----- FTR-TAWAKE-01: who is polled -------------------------------------------------------------
def test_tawake_01_window_polls_every_other_player_with_a_card_in_turn_order():
    """FTR-TAWAKE-01 ("全てのプレイヤーが使用できます"), order as FTR-TAWAKE-04 recommends: every
    other player with a card in hand is asked in turn order, whether or not they hold たわけ！;
    one with no たわけ！ may only allow; one with an empty hand is not asked; nor is the user."""
    s = table(4, turn_player=1)
    h = put(s, "hokyu", hand=1)
    put(s, weak(s, 0), hand=2)                 # a plain card: asked all the same
    t = put(s, "tawake", hand=0)
    # player 3 holds nothing: not asked
    act(s, f"hold {h}")
    pend = s.pending
    assert pend.kind is DecisionKind.RESPONSE and pend.players == (2,)
    assert legal(s, 2) == {"allow"}
    for q in (0, 1, 2, 3, None):                 # the responder is named openly to everyone
        v = s.view(q)
        assert v["pending"] == {"kind": "response", "players": [2], "prompt": "tawake"}
        w = v["public"]["windows"][-1]
        assert (w["order"], w["pos"], w["data"]["card"], w["data"]["user"]) == ([2, 0], 0, h, 1)
    act(s, "allow", 2)
    assert s.pending.players == (0,) and legal(s, 0) == {f"tawake {t}", "allow"}
    act(s, "allow", 0)
    assert s.windows == [] and s.phase == "main" and h in s.discard


def test_tawake_01_no_window_when_no_other_player_holds_a_card():
    """FTR-TAWAKE-01: with every other hand empty nobody could answer: the card resolves."""
    s = table(3)
    h = put(s, "hokyu", hand=0)
    drawn = [put(s, weak(s, i), deck_top=True) for i in (0, 1)]
    act(s, f"hold {h}")
    assert s.windows == [] and s.pending.kind is DecisionKind.TURN
    assert sorted(s.hands[0]) == sorted(drawn)


@pytest.mark.parametrize("holder", [1, 2])
def test_tawake_01_window_looks_the_same_whoever_holds_tawake(holder):
    """FTR-TAWAKE-01 [designed polling]: whether a window opens, whom it asks and what the
    asked players may see do not depend on who holds たわけ！ (or whether anyone does)."""
    def build(tawake_in: int | None):
        s = table(3)
        h = put(s, "hokyu", hand=0)
        for q in (1, 2):
            put(s, "tawake" if q == tawake_in else weak(s, q), hand=q)
        act(s, f"hold {h}")
        return s

    with_it, without = build(holder), build(None)
    for q in (0, 1, 2, None):
        other = 3 - holder                     # whoever does not hold it sees nothing new
        if q == holder:
            continue
        assert with_it.view(q)["pending"] == without.view(q)["pending"]
        assert with_it.view(q)["public"] == without.view(q)["public"]
        if q in (0, other, None):
            va, vb = with_it.view(q), without.view(q)
            assert va["log"] == vb["log"] and va["zones"] == vb["zones"]


def test_tawake_non_interference_in_random_windows():
    """docs/architecture.md, contract 8, for Fuutei: in random mid-game windows, shuffling
    the cards hidden from an observer and the responder changes nothing the observer sees
    after the response."""
    game = takujo.load("fuutei")
    rng = Rng(5)
    compared = 0
    for seed in range(12):
        s = game.new_state(seed)
        play = Rng(seed)
        while s.outcome is None and s.steps < 3000:
            if s.windows:
                actor = s.pending.players[0]
                for observer in [*range(game.players), None]:
                    twin = shuffle_unseen(s, {observer, actor}, rng)
                    for a in s.legal_actions(actor):
                        if a not in twin.legal_actions(actor):
                            continue
                        x, y = s.clone(), twin.clone()
                        x.apply(a)
                        y.apply(a)
                        vx, vy = x.view(observer), y.view(observer)
                        if vx["zones"] == vy["zones"]:
                            assert vx == vy
                            compared += 1
            legal_now = s.legal_actions(s.pending.players[0])
            s.apply(legal_now[play.below(len(legal_now))])
    assert compared > 50


# ----- the heuristic answers windows sensibly ----------------------------------------------------
def _bot_answer(s, q: int) -> str:
    bot = FuuteiHeuristic(s.game)
    return str(bot.act(s.view(q), s.legal_actions(q), Rng(0)))


def test_heuristic_allows_when_it_holds_no_tawake_and_spends_it_on_what_hurts():
    s = table(2)
    mine = put(s, HEI, party=1)
    k = put(s, "kyukon", hand=0)
    put(s, weak(s, 1), hand=1)
    s.rng = Scripted([6])                                   # 6: the proposal succeeds
    act(s, f"hold {k} {mine}")
    assert _bot_answer(s, 1) == "allow"                     # nothing to answer with
    s2 = table(2)
    mine = put(s2, HEI, party=1)
    k = put(s2, "kyukon", hand=0)
    t = put(s2, "tawake", hand=1)
    s2.rng = Scripted([6])
    act(s2, f"hold {k} {mine}")
    assert _bot_answer(s2, 1) == f"tawake {t}"              # my character would leave


def test_heuristic_does_not_waste_tawake_on_a_roll_that_already_failed():
    """FTR-TAWAKE-03: the dice are rolled before the window, so a failed roll needs no answer."""
    s = table(2)
    mine = put(s, HEI, party=1)                             # phys def 8
    k = put(s, "shikaku", hand=0)
    put(s, "tawake", hand=1)
    s.rng = Scripted([2, 3])                                # 2D+1 = 6 < 8: fails anyway
    act(s, f"hold {k} {mine}")
    assert _bot_answer(s, 1) == "allow"


def test_heuristic_negates_a_claim_that_would_win_and_an_opponents_support():
    s = table(2)
    for r in ("teito", "kiri_no_mori", "fuutei_no_shinden", "sajin_no_kouya", "seido_kishiryo"):
        put(s, r, region=0)
    centre = put(s, "hakugin_no_setsugen", center=True)
    assert s.points(0) + s.cat.points[centre] >= 40 > s.points(0)
    k = put(s, "kaitaku", hand=0)
    t = put(s, "tawake", hand=1)
    act(s, f"hold {k} {centre}")
    assert _bot_answer(s, 1) == f"tawake {t}"

    s = table(3)
    r1 = put(s, "teito", region=1)
    a = put(s, HEI, party=0)
    put(s, HEI, nth=1, party=1, guards=[r1])
    x = put(s, "chikara_no_gofu", hand=0)
    t = put(s, "tawake", hand=1)
    to_battle(s, a, r1, dice=[], support=(x, None))
    assert s.pending.players == (1,)                        # the defender is asked about x
    assert _bot_answer(s, 1) == f"tawake {t}"


# ----- no shared mutable objects -----------------------------------------------------------------
def _mutables(obj, out: dict[int, object]) -> dict[int, object]:
    if isinstance(obj, (list, dict, set)):
        if id(obj) in out:
            return out
        out[id(obj)] = obj
        for v in (obj.values() if isinstance(obj, dict) else obj):
            _mutables(v, out)
    return out


STATE_FIELDS = ("deck", "discard", "center", "stack", "hands", "supports", "regions", "party",
                "guard", "host", "temp", "sealed", "turns_taken", "battle", "windows", "commits")


def _state_mutables(s) -> dict[int, object]:
    """Every list/dict/set reachable from the state's own fields (windows and commits
    through their plain data)."""
    out: dict[int, object] = {}
    for name in STATE_FIELDS:
        v = getattr(s, name)
        if name == "windows":
            out[id(v)] = v
            for w in v:
                out[id(w.order)] = w.order
                _mutables(w.data, out)
        elif name == "commits":
            if v is not None:
                out[id(v.players)] = v.players
                out[id(v.choices)] = v.choices
        else:
            _mutables(v, out)
    return out


def _states_with_everything(limit: int = 30):
    """Mid-game states with battles, face-down supports and たわけ！ windows among them."""
    game = takujo.load("fuutei", players=4)
    out, kinds = [], set()
    for seed in range(40):
        s = game.new_state(seed)
        rng = Rng(seed)
        while s.outcome is None and s.steps < 2000:
            key = ("window" if s.windows else s.phase) + ("+gains" if s.battle and s.battle.gains else "")
            if key not in kinds or s.steps % 97 == 0:
                kinds.add(key)
                out.append(s.clone())
            legal_now = s.legal_actions(s.pending.players[0])
            s.apply(legal_now[rng.below(len(legal_now))])
        if len(out) >= limit and {"window", "support", "attack", "reassign+gains"} <= kinds:
            break
    assert {"window", "support", "attack", "reassign+gains"} <= kinds
    return out


def test_views_json_clones_and_public_info_share_nothing_mutable_with_the_state():
    """A client, a bot or a search that edits what it was given cannot change the game:
    battle frames (gains, mods, regions), windows (their data and targets), commits, guard."""
    for s in _states_with_everything():
        live = _state_mutables(s)
        given = {"public_info": s.public_info(), "json": s.to_json(),
                 **{f"view({p})": s.view(p) for p in [*range(s.n), None]}}
        for what, obj in given.items():
            shared = set(_mutables(obj, {})) & set(live)
            assert not shared, f"{what} shares {[live[i] for i in shared][:3]} with the state"
        clone = s.clone()
        shared = set(_state_mutables(clone)) & set(live)
        assert not shared, f"clone shares {[live[i] for i in shared][:3]} with the state"




def test_editing_views_json_and_clones_leaves_the_state_unchanged():
    for s in _states_with_everything(limit=12):
        before = json.dumps(s.to_json(), sort_keys=True)
        for p in [*range(s.n), None]:
            vandalise(s.view(p))
        vandalise(s.to_json())
        vandalise(s.public_info())
        clone = s.clone()
        for name in STATE_FIELDS:      # every field of the clone (the log's events are shared
            v = getattr(clone, name)   # by design: they are never changed once logged)
            if name == "windows":
                for w in v:
                    vandalise(w.data)
                    w.order.append(-1)
            elif name == "commits":
                if v is not None:
                    v.players.append(-1)
                    v.choices.clear()
            elif name in ("guard", "host") and not v:
                v[-1] = -1
            else:
                vandalise(v)
        assert json.dumps(s.to_json(), sort_keys=True) == before


# ----- determinize ----------------------------------------------------------------------------------
KEYS = ("zones", "public", "pending", "legal", "outcome")


def _agrees(game, s, rng) -> None:
    for p in range(game.players):
        view = s.view(p)
        world = game.determinize(view, rng)
        got = world.view(p)
        for key in KEYS:
            assert got[key] == view[key], f"step {s.steps}, player {p}: {key} differs"
        assert got["version"] == view["version"]


@pytest.mark.parametrize("spec, seeds", [
    ("fuutei", (1, 2)), ("fuutei(players=2)", (3,)),
    ("fuutei(players=5,old_region_rule=true)", (4,)),
    ("fuutei(center_regions=effects_only,deck_out=failed_draw)", (5,)),
])
def test_determinize_agrees_with_every_players_view_at_every_step_and_at_the_end(spec, seeds):
    """For every player, the one asked or not, at every step and at game over, a sampled
    world shows that player exactly their view: zones, public facts (windows with whom they
    poll, ordered commits, the guard-change count), the decision, legal actions, outcome."""
    game = takujo.load(spec)
    rng = Rng(9)
    for seed in seeds:
        s = game.new_state(seed)
        play = Rng(seed)
        windows = supports = 0
        while s.outcome is None:
            _agrees(game, s, rng)
            windows += bool(s.windows)
            supports += s.commits is not None and bool(s.commits.choices)
            world = game.determinize(s.view(0), rng)
            assert (world.commits is None) == (s.commits is None)
            if s.commits is not None:
                assert world.commits.players == s.commits.players and world.commits.ordered
                assert list(world.commits.choices) == list(s.commits.choices)
            legal_now = s.legal_actions(s.pending.players[0])
            s.apply(legal_now[play.below(len(legal_now))])
        _agrees(game, s, rng)
        assert game.determinize(s.view(0), rng).outcome == s.outcome
        assert windows and supports


def test_determinize_in_a_window_for_a_player_not_being_asked():
    """A world sampled for a player who is not the responder keeps the window where it is:
    the same responder, the same order (it used to restart the window at its first player)."""
    s = table(4, turn_player=1)
    h = put(s, "hokyu", hand=1)
    for q in (2, 3, 0):
        put(s, weak(s, q), hand=q)
    act(s, f"hold {h}")
    act(s, "allow", 2)
    assert s.pending.players == (3,)
    for p in range(4):
        world = s.game.determinize(s.view(p), Rng(p))
        assert world.pending == s.pending and world.windows[-1].pos == 1
        assert world.view(p)["legal"] == s.view(p)["legal"]


def test_determinize_during_ordered_battle_support():
    """FTR-COMBAT-04/05: after the invader's face-down commit, a world sampled for the defender
    asks the defender next, with one unknown battle support card on the invader's side."""
    s = table(3)
    r1 = put(s, "teito", region=1)
    a = put(s, HEI, party=0)
    put(s, HEI, nth=1, party=1, guards=[r1])
    x = put(s, "chikara_no_gofu", hand=0)
    act(s, "end")
    act(s, f"invade {a} {r1}")
    act(s, f"support {x}", 0)
    for p in (0, 1, 2):
        world = s.game.determinize(s.view(p), Rng(p))
        assert world.pending.players == (1,) and world.commits.ordered
        assert len(world.supports[0]) == 1 and world.cat[world.supports[0][0]].type == "battle_support"
        assert world.view(p)["zones"] == s.view(p)["zones"]
    assert events(s, "support_committed")[-1]["placed"] is True
