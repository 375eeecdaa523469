"""Contracts of 戦国大戦 双 that no client may break: the battle window tells nobody what the
other player holds; views, JSON and clones share nothing mutable with the state; a sampled
world (`determinize`) agrees with the view of every player, also the one not asked.

Clause IDs refer to docs/rules/sengoku_taisen.md.
"""
from __future__ import annotations

import json

import takujo
from tests.checks import vandalise
from takujo.core.decision import DecisionKind, Outcome
from takujo.core.rng import Rng
from takujo.core.visibility import shuffle_unseen
from takujo.games.sengoku_taisen.combat import Battle
from takujo.games.sengoku_taisen.schema import BattleView
from takujo.games.sengoku_taisen.state import SengokuState

from .helpers import act, give_koku, legal, put, table

SPECS = ("sengoku_taisen(deck1=紅,deck2=蒼)", "sengoku_taisen(deck1=黒,deck2=翠)")
# An Outcome is a frozen dataclass of tuples: a state and its copies may share it.
_IMMUTABLE = (str, bytes, int, float, bool, type(None), Outcome)


def random_states(spec: str, seed: int, limit: int = 400):
    """Every state of one random game (clones), the last one at game over."""
    s = takujo.load(spec).new_state(seed)
    rng = Rng(seed + 7)
    out = [s.clone()]
    while s.outcome is None and s.steps < limit:
        p = s.pending.players[rng.below(len(s.pending.players))]
        options = s.legal_actions(p)
        s.apply(options[rng.below(len(options))])
        out.append(s.clone())
    return out


# ----- the battle window (SGT-STRAT-05) -----------------------------------------------------
def test_strat_05_the_battle_window_polls_both_players_whatever_they_hold():
    """SGT-STRAT-05: battle stratagems are played in the window after the battle is confirmed,
    the turn player first. The window opens for every battle and asks both players, so an
    attacker learns nothing of whether the defender holds one: with or without 籠城の備え in
    player 1's hand, player 0 sees the same decision, prompt and public facts."""
    views = []
    for holds in (False, True):
        s = table("紅", "蒼")
        a = put(s, "AK-01", 0, "camp")
        put(s, "AO-09", 1, "walls")
        if holds:
            put(s, "AO-14", 1, "hand")                # {戦闘} ally +1500, castable
            give_koku(s, 1, "蒼", 2)
        else:
            put(s, "AO-05", 1, "hand")                # a warlord: nothing to cast
            give_koku(s, 1, "蒼", 2)
        act(s, f"attack {a} castle")
        assert s.pending.kind is DecisionKind.RESPONSE and s.pending.players == (0,)
        assert legal(s, 0) == {"pass"}
        act(s, "pass")
        assert s.pending.kind is DecisionKind.RESPONSE and s.pending.players == (1,)
        assert "pass" in legal(s, 1)
        views.append(s.view(0))
    assert views[0] == views[1]


def test_strat_05_a_shuffle_of_hidden_cards_never_changes_who_the_window_asks():
    """Non-interference over random play: S and S' differ only in cards hidden from the
    observer and the actor; after the same action the observer's views agree (decision, whom
    it names, prompt, zones, public facts, log) unless different cards were revealed."""
    from takujo.core.determinize import seen_cards
    rng = Rng(99)
    compared = windows = 0
    for spec in SPECS:
        for seed in range(4):
            for s in random_states(spec, seed)[1:-1:3]:
                actor = s.pending.players[0]
                options = s.legal_actions(actor)
                action = options[rng.below(len(options))]
                for observer in (0, 1, None):
                    twin = shuffle_unseen(s, {observer, actor}, rng)
                    known = seen_cards(s.view(observer), SengokuState.ZONES)
                    a, b = s.clone(), twin.clone()
                    a.apply(action)
                    b.apply(action)
                    va, vb = a.view(observer), b.view(observer)
                    if seen_cards(va, a.ZONES) - known != seen_cards(vb, b.ZONES) - known:
                        continue
                    assert va == vb, f"{spec} seed {seed} step {s.steps}: {action}"
                    compared += 1
                    windows += bool(a.windows)
    assert compared > 300 and windows > 20


# ----- no shared mutables -------------------------------------------------------------------
def _mutables(root, skip: set[int]) -> dict[int, object]:
    found: dict[int, object] = {}
    stack, seen = [root], set()
    while stack:
        obj = stack.pop()
        if id(obj) in seen or id(obj) in skip or isinstance(obj, _IMMUTABLE):
            continue
        seen.add(id(obj))
        if isinstance(obj, (list, set, dict)):
            found[id(obj)] = obj
            stack.extend(list(obj.values()) + list(obj.keys()) if isinstance(obj, dict) else obj)
        elif isinstance(obj, (tuple, frozenset)):
            stack.extend(obj)
        elif hasattr(obj, "__slots__") and not isinstance(obj, type):
            found[id(obj)] = obj
            for cls in type(obj).__mro__:
                for slot in getattr(cls, "__slots__", ()):
                    if hasattr(obj, slot):
                        stack.append(getattr(obj, slot))
            stack.extend(getattr(obj, "__dict__", {}).values())
    return found


def _state_mutables(s: SengokuState) -> dict[int, object]:
    """The game's own mutable objects of the state (its lists, dicts, sets, battle frame and
    windows), not the game's shared tables, nor the event log (the core's, whose events are
    never changed once logged)."""
    out: dict[int, object] = {}
    skip = {id(s.game), id(s.inst), id(s.owner), id(s.acts), id(s.turns)}
    for name in (*SengokuState.__slots__, "rng", "outcome"):
        if hasattr(s, name) and name not in ("inst", "owner", "acts", "turns"):
            out.update(_mutables(getattr(s, name), skip))
    return out


def test_views_json_and_clones_share_nothing_mutable_in_battles_windows_and_counters():
    """A battle frame, an open battle window (with data), pending counter-stratagems, tokens
    and nested per-player lists: none is shared with a clone, a view or the JSON, and editing
    a view or the JSON changes nothing."""
    s = table("紅", "蒼")
    a = put(s, "AK-01", 0, "camp")
    put(s, "AO-14", 1, "walls")
    s.summon(1, 1000, 0, "infantry")
    s.exhausted.update(s.summons[1])
    act(s, f"attack {a} castle")
    s.windows[-1].data["note"] = [1, {"x": [2]}]
    s.counters.append([1, s.walls[1][0]])
    assert s.battle and s.windows and s.counters and s.tokens
    live = _state_mutables(s)
    before = json.dumps(s.to_json(), sort_keys=True)
    for what, other in {"clone": s.clone(), "json": s.to_json(),
                        **{f"view {p}": s.view(p) for p in (0, 1, None)}}.items():
        shared = set(_mutables(other, {id(s.game)})) & set(live)
        assert not shared, f"{what} shares {[live[i] for i in shared][:3]!r:.200}"


    for p in (0, 1, None):
        vandalise(s.view(p))
    vandalise(s.to_json())
    vandalise(s.public_info())
    assert json.dumps(s.to_json(), sort_keys=True) == before


def test_a_battle_made_by_its_own_constructor_has_every_declared_field():
    """`Battle` sets its fields by hand (it is made on every attack): each declared field, and
    the keys the view documents (`BattleView`), no more."""
    b = Battle(12, 0, "castle")
    assert b.to_json() == {"attacker": 12, "player": 0, "target": "castle", "interceptor": -1}
    assert set(b.to_json()) == {f.name for f in Battle._FIELDS} == set(BattleView.model_fields)
    assert Battle.from_json(b.to_json()) == b == b.clone()


def test_random_states_share_nothing_mutable_with_their_copies():
    for s in random_states(SPECS[1], 3)[::25]:
        live = _state_mutables(s)
        for other in (s.clone(), s.to_json(), s.view(0), s.view(1), s.view(None)):
            assert not set(_mutables(other, {id(s.game)})) & set(live), s.steps


# ----- determinize ---------------------------------------------------------------------------
def _agrees(view: dict, again: dict) -> bool:
    return all(view[k] == again[k] for k in ("zones", "public", "pending", "legal", "outcome"))


def test_determinize_agrees_with_every_players_view_at_every_step_and_at_game_over():
    """For each player p — the one asked and the one not — at every step, and at game over, a
    world sampled from p's view shows p the same zones, public facts, decision, legal actions
    and outcome. Battle windows are rebuilt as they stand (who is asked, how many passed)."""
    rng = Rng(4)
    windows = 0
    for spec in SPECS:
        for seed in range(3):
            states = random_states(spec, seed)
            assert states[-1].outcome is not None
            for s in states:
                for p in (0, 1):
                    view = s.view(p)
                    world = s.game.determinize(view, rng)
                    assert _agrees(view, world.view(p)), f"{spec} seed {seed} step {s.steps} player {p}"
                windows += bool(s.windows)
            over = states[-1]
            for p in (0, 1):
                world = over.game.determinize(over.view(p), rng)
                assert world.outcome is not None and world.outcome == over.outcome
                assert world.pending is None and world.legal_actions() == []
    assert windows > 10


def test_determinize_rebuilds_a_window_after_a_pass_so_the_next_pass_closes_it():
    """In a battle window where the turn player has passed, the other player's pass closes it
    (both passed in succession); a world sampled from either player's view must agree."""
    s = table("紅", "蒼")
    a = put(s, "AK-01", 0, "camp")
    put(s, "AO-09", 1, "walls")
    act(s, f"attack {a} castle")
    act(s, "pass", 0)
    for p in (0, 1):
        world = s.game.determinize(s.view(p), Rng(p))
        assert world.pending.players == (1,)
        act(world, "pass", 1)
        assert not world.windows and any(e["e"] == "wall_destroyed" for e in world.log)


# ----- documented view schema and card catalogue ----------------------------------------------
def test_views_in_battles_windows_and_counters_match_the_documented_schema():
    from takujo.core.schema import view_model
    from takujo.games.sengoku_taisen.game import SengokuGame
    model = view_model(SengokuGame)
    s = table("紅", "蒼")
    a = put(s, "AK-01", 0, "camp")
    put(s, "AO-14", 1, "walls")
    s.summon(1, 1000, 0, "infantry")
    act(s, f"attack {a} castle")
    for p in (0, 1, None):
        model.model_validate(s.view(p))
    for state in random_states(SPECS[1], 2)[::10]:
        model.model_validate(state.view(None))


def test_the_card_catalogue_lists_every_card_of_the_pool_in_both_languages():
    g = takujo.load("sengoku_taisen")
    data = g.export_catalogue()
    assert json.loads(json.dumps(data, ensure_ascii=False)) == data
    assert {c["id"] for c in data["cards"]} == set(g.pool.cards)
    honda = next(c for c in data["cards"] if c["id"] == "AO-04")
    assert (honda["name_ja"], honda["name_en"], honda["strength"], honda["keywords"]) == \
        ("本多忠勝", "Honda Tadakatsu", 4000, ["長槍"])
    assert g.card_names(g.deck_ids[0][0]) == tuple(
        getattr(g.instances[g.deck_ids[0][0]].spec, k) for k in ("name_ja", "name_en"))
