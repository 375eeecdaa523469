"""Hidden information in いばらの姫と4人の騎士: who is asked in a combat, and what everyone else
sees, never depends on the cards someone holds.

A side with no card that can fight still commits: it lays a card face down that cannot fight
(`nofight CARD`), so the decision names the same players and the hand and face-down counts
move as for a real play; at the reveal it shows as no card and goes back to the hand
[designed]. Only an empty hand — a count everyone sees — commits nothing.
"""
from __future__ import annotations

import pytest

import takujo
from takujo.core import Rng, shuffle_unseen
from takujo.core.determinize import seen_by_pool
from takujo.core.decision import DecisionKind
from takujo.games.ibara.state import COMBAT_DECLARE, COMBAT_PLAY, COMBAT_RING

from tests.checks import game_objects, reachable_mutables, shared_by_clones
from tests.conformance.test_conformance import midgame_states

from .helpers import act, card, events, give, give_item, legal, place, stack, table

PLAIN = ["sion", "mireille", "ryan", "gaiblitz"]


def _duel(multi: bool, defender_cards: list[int] | None = None, **kw):
    """Seat 0 (square 2) moves onto seat 1 (square 1) with 剣1 and holds 剣8 to fight."""
    s = table(knights=PLAIN, multi_card_combat=multi, **kw)
    place(s, 0, 2)
    place(s, 1, 1)
    mv, a8 = card(s, "剣", 1), card(s, "剣", 8)
    give(s, 0, mv, a8)
    stack(s, [card(s, "巻物", 9, nth=1)])
    return s, mv, a8


def _others_see(s, p: int) -> list:
    """What players other than p see of p: hand and face-down counts, the decision, the log."""
    out = []
    for q in (None, 2, 3):
        v = s.view(q)
        out.append((v["zones"]["hand"][p], v["zones"]["played"][p], v["pending"],
                    [e for e in v["log"] if e["e"] != "act"]))
    return out


@pytest.mark.parametrize("multi", [False, True])
def test_a_side_with_no_fighting_card_is_asked_like_any_other(multi):
    """Commit leak: the defender holding only an SP card (no card that can fight) is named by
    the combat commit exactly like a defender holding a fighting card, and lays a card face
    down; the others' views of both tables are equal until the reveal."""
    tables = []
    for holds in ("sp", "sword"):
        s, mv, a8 = _duel(multi)
        c = card(s, None, sp="teleport") if holds == "sp" else card(s, "拳", 4)
        give(s, 1, c)
        act(s, f"move {mv} 1")
        if multi:
            assert s.phase == COMBAT_DECLARE and s.pending.players == (0,)
            act(s, "declare 1", 0)
            assert s.pending.players == (1,)
            assert legal(s, 1) == {"declare 1"}
            act(s, "declare 1", 1)
        assert s.phase == COMBAT_PLAY and s.pending.kind is DecisionKind.SIMULTANEOUS
        assert s.pending.players == (0, 1)
        assert legal(s, 1) == ({f"nofight {c}"} if holds == "sp" else {f"fight {c}"})
        act(s, next(iter(legal(s, 1))), 1)
        tables.append((s, c, a8))
    (s1, sp_card, a8), (s2, _, _) = tables
    assert _others_see(s1, 1) == _others_see(s2, 1)
    act(s1, f"fight {a8}", 0)
    assert [e["cards"] for e in events(s1, "reveal")] == [[a8], []]
    assert events(s1, "combat_result")[-1]["result"] == 1      # no card loses
    assert sp_card in s1.hands[1] and sp_card not in s1.discard


def test_the_attacker_without_a_fighting_card_commits_face_down_too():
    """Commit leak: an attacker holding only a shield (the attacker may not use one) still
    commits; both with no card that can fight is a tie, after a full reveal."""
    s = table(knights=PLAIN)
    place(s, 0, 2)
    place(s, 1, 1)
    mv, shield, d_sp = card(s, "剣", 1), card(s, "盾", 3), card(s, None, sp="draw")
    give(s, 0, mv, shield)
    give(s, 1, d_sp)
    act(s, f"move {mv} 1")
    assert s.pending.players == (0, 1)
    assert legal(s, 0) == {f"nofight {shield}"} and legal(s, 1) == {f"nofight {d_sp}"}
    act(s, f"nofight {shield}", 0)
    act(s, f"nofight {d_sp}", 1)
    assert len(events(s, "reveal")) == 2
    assert events(s, "combat_result")[-1]["result"] == 0
    assert s.pos[0] == 2 and shield in s.hands[0] and d_sp in s.hands[1]


def test_an_empty_hand_commits_nothing():
    """An empty hand (a count everyone sees) is not asked to commit and fights with no card."""
    s, mv, a8 = _duel(False)
    act(s, f"move {mv} 1")
    assert s.pending.players == (0,)
    act(s, f"fight {a8}", 0)
    assert events(s, "combat_result")[-1]["result"] == 1


def test_multi_card_declarations_are_asked_of_both_sides_always():
    """Commit leak (IBR-COMBAT-MULTI-03): the attacker, then the defender, always declares —
    one with no card that can fight declares 1 and lays a card that cannot fight; one with an
    empty hand declares 0."""
    s, mv, a8 = _duel(True)
    act(s, f"move {mv} 1")
    assert s.pending.players == (0,) and legal(s, 0) == {"declare 1"}
    act(s, "declare 1", 0)
    assert s.pending.players == (1,) and legal(s, 1) == {"declare 0"}
    act(s, "declare 0", 1)
    assert s.pending.players == (0,)
    act(s, f"fight {a8}", 0)
    assert events(s, "combat_result")[-1]["result"] == 1


def test_the_ring_holder_is_asked_whatever_they_hold():
    """Commit leak (IBR-COMBAT-RING-01): the ring is a public chip; its holder is asked after
    the reveal even with no card left to play (and may only decline)."""
    s, mv, a8 = _duel(False)
    d = card(s, "拳", 4)
    give(s, 1, d)
    give_item(s, 1, "akuun_no_yubiwa")
    act(s, f"move {mv} 1")
    act(s, f"fight {a8}", 0)
    act(s, f"fight {d}", 1)
    assert s.phase == COMBAT_RING and s.pending.players == (1,)
    assert legal(s, 1) == {"noring"}


#: Event fields naming cards, chips or whims.
CARD_FIELDS = ("card", "cards", "item", "remaining")


def _shown(view: dict, since: int) -> list[tuple]:
    """The cards the view's events since `since` turn up, in order, with how (a card flipped
    and then drawn shows the same cards as one drawn and then flipped, but not the same way)."""
    return [(e["e"], *(repr(e.get(k)) for k in CARD_FIELDS)) for e in view["log"]
            if e["seq"] >= since and any(k in e for k in CARD_FIELDS)]


@pytest.mark.parametrize("spec", ["ibara", "ibara(multi_card_combat=true,sp_cards_to_hand=true,gaiblitz_buff=true)",
                                  "ibara(players=3,multi_card_combat=true)"])
def test_non_interference_over_hidden_cards(spec):
    """For random mid-game states, an observer P and the actor A: shuffling the cards neither
    sees, then applying the same action of A, gives P equal views unless the action showed P
    different cards (compared per id space)."""
    game = takujo.load(spec)
    rng = Rng(99)
    compared = 0
    for seed in range(4):
        for state in midgame_states(game, seed, every=3):
            actor = state.pending.players[rng.below(len(state.pending.players))]
            legal_now = state.legal_actions(actor)
            picks = {legal_now[rng.below(len(legal_now))] for _ in range(2)}
            for observer in [*range(game.players), None]:
                if state.commits is not None and any(p not in (observer, actor) for p in state.commits.choices):
                    continue
                twin = shuffle_unseen(state, {observer, actor}, rng)
                before = state.view(observer)
                assert twin.view(observer) == before
                known = seen_by_pool(before, state.ZONES)
                for action in picks:
                    a, b = state.clone(), twin.clone()
                    a.apply(action)
                    b.apply(action)
                    va, vb = a.view(observer), b.view(observer)
                    if seen_by_pool(va, a.ZONES) - known != seen_by_pool(vb, b.ZONES) - known \
                            or _shown(va, before["cursor"]) != _shown(vb, before["cursor"]):
                        continue           # the action showed the observer different cards
                    assert va == vb, f"{spec} seed {seed} step {state.steps}: {action}, observer {observer}"
                    compared += 1
    assert compared > 100


def test_a_world_sampled_after_a_nofight_commit_plays_on_as_the_real_one():
    """determinize: the defender's own face-down card that cannot fight is rebuilt as the
    "nofight" it was (not as a play), so the sampled world reveals no card, as the real one."""
    s, mv, a8 = _duel(False)
    d_sp = card(s, None, sp="draw")
    give(s, 1, d_sp)
    act(s, f"move {mv} 1")
    act(s, f"nofight {d_sp}", 1)
    world = s.game.determinize(s.view(1), Rng(5))
    assert world.view(1)["zones"] == s.view(1)["zones"]
    assert world.commits.choices[1].verb == "nofight"
    for state in (s, world):
        state.apply(state.legal_actions(0)[0])       # the attacker's hand is sampled in the world
        assert [e["cards"] for e in events(state, "reveal")][1] == []
        assert events(state, "combat_result")[-1]["defender"] == []
        assert d_sp in state.hands[1]


@pytest.mark.parametrize("spec", ["ibara", "ibara(multi_card_combat=true,gaiblitz_buff=true)"])
def test_determinize_agrees_with_every_view_and_keeps_the_outcome(spec):
    """For every player, to act or not, at every step and at game over, a world sampled from
    the player's view shows that player the same zones, public facts, decision, legal actions
    and outcome."""
    game = takujo.load(spec)
    for seed in range(2):
        state = game.new_state(seed)
        rng = Rng(seed)
        while True:
            for p in range(game.players):
                view = state.view(p)
                seen = game.determinize(view, Rng(state.steps)).view(p)
                for key in ("zones", "public", "pending", "legal", "outcome"):
                    assert seen[key] == view[key], (seed, state.steps, p, key)
            if state.outcome is not None:
                break
            legal_now = state.legal_actions(state.pending.players[0])
            state.apply(legal_now[rng.below(len(legal_now))])
        assert seen["outcome"] is not None


def test_combat_states_share_nothing_mutable_with_clones_views_and_json():
    """Views, JSON and clones of states in every combat phase (multi-card combat, the ring,
    drops) hold fresh copies: editing one cannot change the game."""
    game = takujo.load("ibara(multi_card_combat=true,sp_cards_to_hand=true)")
    skip = game_objects(game)
    phases = set()
    for state in midgame_states(game, 3, every=1, limit=300) + midgame_states(game, 4, every=1, limit=300):
        if state.combat is None:
            continue
        phases.add(state.phase)
        live = set(reachable_mutables(state, skip)) - {id(state)}
        assert live
        may_share = shared_by_clones(state)
        for other in (state.clone(), state.to_json(), *(state.view(p) for p in (0, 1, None))):
            shared = set(reachable_mutables(other, skip)) & live
            if isinstance(other, type(state)):
                shared -= may_share      # the log (copied on write) and its events, which never change
            assert not shared, state.phase
    assert {"combat_declare", "combat_play"} <= phases
