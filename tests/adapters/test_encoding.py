"""The research adapters' encoding: exact action indices, masks equal to the legal sets, and
observations computed from the observer's view alone (takujo.adapters)."""
from __future__ import annotations

import json

import numpy as np
import pytest

from takujo.adapters import ActionIndexError, Dom, IllegalIndexError, ObservationError, Slot, Table, VerbShape
from takujo.adapters.actions import ActionIndex
from takujo.core import Action, Rng, shuffle_unseen

#: configurations played through Seat: each game's defaults and its options switched on
CONFIGS = [
    "fuutei", "fuutei(players=2)", "fuutei(players=6)",
    "sengoku_taisen", "sengoku_taisen(deck1=蒼,deck2=蒼)", "sengoku_taisen(deck1=黒,deck2=翠)",
    "sengoku_taisen(deck1=黒,deck2=黒,ougi_timing=main,shippu_then_muso=false)",
    "draft_daimyo", "draft_daimyo(players=3)",
    "draft_daimyo(expansion=true,tactics=true,turn_order_choice=true)",
    "ibara", "ibara(players=3)", "ibara(multi_card_combat=true,gaiblitz_buff=true,players=3)",
    "ibara(multi_card_combat=true,gaiblitz_buff=true,sp_cards_to_hand=true)",
]

#: (num_actions, obs_size) per configuration: a change of layout must be deliberate
GOLDEN = {
    "fuutei": (2282, 2556),
    "sengoku_taisen": (11602, 2181),
    "draft_daimyo": (551, 760),
    "ibara": (1587, 1283),
}

_TABLES: dict[str, Table] = {}


def table(spec: str) -> Table:
    if spec not in _TABLES:
        _TABLES[spec] = Table(spec)
    return _TABLES[spec]


def visible_sets(view: dict) -> dict:
    """What a view shows of the zones, order aside (the observation drops order)."""
    out = {}
    for name, z in view["zones"].items():
        if isinstance(z, list) and z and isinstance(z[0], list):
            out[name] = [sorted(x) if isinstance(x, list) else x for x in z]
        elif isinstance(z, list) and all(isinstance(x, int) for x in z):
            out[name] = sorted(z)
        else:
            out[name] = [sorted(x) if isinstance(x, list) else x for x in z] if isinstance(z, list) else z
    return out


def check_step(t: Table, seat, rng: Rng, hidden_checks: list[int]) -> None:
    state = seat.state
    player = seat.current_player()
    legal_actions = state.legal_actions(player)
    idx = t.index
    legal = seat.legal()
    if not seat.selection:
        canon = t.canon(state) or (lambda a: a)
        subset = [a for a in legal_actions if idx.is_subset(a.verb)]
        plain = [a for a in legal_actions if not idx.is_subset(a.verb)]
        codes = [t.index_of(a, state) for a in plain]
        assert len(set(codes)) == len(codes), "two legal actions share an index"
        canonical = [canon(a) for a in legal_actions]
        for a, i in zip(plain, codes):
            assert idx.action(i, player, canonical) == canon(a)
            assert seat.action_of(i) == a
        firsts = {idx.subset_path(a)[0] for a in subset}
        assert sorted(set(codes) | firsts) == legal
    mask = seat.mask()
    assert mask.dtype == np.int8 and mask.shape == (t.num_actions,)
    assert sorted(np.flatnonzero(mask).tolist()) == legal
    if rng.below(25) == 0:
        hidden_checks.append(1)
        for observer in range(t.players):
            obs = seat.observe(observer)                # the fast path (lean view, memo)
            assert obs.dtype == np.float32 and obs.shape == (t.obs_size,)
            assert np.isfinite(obs).all()
            assert obs.tobytes() == seat.observe_reference(observer).tobytes()
            twin = shuffle_unseen(state, observer, rng)
            assert twin.view(observer) == state.view(observer)
            assert twin.view(observer, lean=True) == state.view(observer, lean=True)
            twin_seat = t.seat(twin)
            twin_seat.selection = seat.selection
            assert np.array_equal(twin_seat.observe(observer), obs), "hidden cards changed the observation"
            # the same through a memo that saw the real state just before
            warm = seat.clone()
            warm.observe(observer)
            warm.state = twin
            assert np.array_equal(warm.observe(observer), obs), "hidden cards changed the observation"
            # cards hidden from someone else but seen by the observer: the observation follows
            other = (observer + 1) % t.players
            moved = shuffle_unseen(state, other, rng)
            if visible_sets(moved.view(observer)) != visible_sets(state.view(observer)):
                moved_seat = t.seat(moved)
                moved_seat.selection = seat.selection if seat.selection and seat.selection[0] != observer else None
                if seat.selection is None or seat.selection[0] != observer:
                    assert not np.array_equal(moved_seat.observe(observer), obs), \
                        "the observation ignores cards the observer sees"


@pytest.mark.parametrize("spec", CONFIGS)
def test_random_games_through_seat(spec):
    t = table(spec)
    hidden: list[int] = []
    games = 2
    for seed in range(games):
        seat = t.new(seed)
        rng = Rng(seed * 7919 + 1)
        steps = 0
        while seat.current_player() is not None:
            check_step(t, seat, rng, hidden)
            legal = seat.legal()
            seat.step(legal[rng.below(len(legal))])
            steps += 1
            assert steps < 50_000
        assert seat.legal() == [] and not seat.mask().any()
        r = seat.returns()
        assert len(r) == t.players and abs(sum(r) - 1.0) < 1e-9
        winners = seat.state.outcome.winners
        assert all((r[p] > 0) == (p in winners) for p in range(t.players))
    assert len(hidden) > 5


@pytest.mark.parametrize("spec", sorted(GOLDEN))
def test_golden_sizes(spec):
    t = table(spec)
    assert (t.num_actions, t.obs_size) == GOLDEN[spec]


def test_illegal_index_leaves_the_seat_unchanged():
    t = table("fuutei")
    seat = t.new(3)
    before = json.dumps(seat.to_json(), sort_keys=True)
    legal = set(seat.legal())
    bad = next(i for i in range(t.num_actions) if i not in legal)
    for i in (bad, -1, t.num_actions, t.num_actions + 5, "3", 2.0, None, True):
        with pytest.raises(IllegalIndexError):
            seat.step(i)
    assert json.dumps(seat.to_json(), sort_keys=True) == before
    assert isinstance(IllegalIndexError("x"), ValueError)
    seat.step(np.int32(sorted(legal)[0]))                 # numpy ints are indices too
    assert seat.state.steps == 1


def test_returns_are_zero_before_the_end_and_shared_after():
    t = table("fuutei")
    seat = t.new(0)
    assert seat.returns() == [0.0] * t.players
    rng = Rng(1)
    while seat.current_player() is not None:
        legal = seat.legal()
        seat.step(legal[rng.below(len(legal))])
    assert sum(seat.returns()) == pytest.approx(1.0)


def test_clone_and_json_round_trip():
    t = table("fuutei")
    seat = t.new(5)
    rng = Rng(5)
    for _ in range(60):
        legal = seat.legal()
        seat.step(legal[rng.below(len(legal))])
    twin = seat.clone()
    back = t.from_json(json.loads(json.dumps(seat.to_json())))
    for other in (twin, back):
        assert other.legal() == seat.legal()
        for p in range(t.players):
            assert np.array_equal(other.observe(p), seat.observe(p))
    i = seat.legal()[0]
    twin.step(i)
    assert twin.state.steps == seat.state.steps + 1   # independent
    with pytest.raises(ValueError):
        Table("fuutei(players=3)").from_json(seat.to_json())


def test_index_refuses_what_is_outside_the_domains():
    t = table("fuutei")
    idx = t.index
    with pytest.raises(ActionIndexError, match="not in the action layout"):
        idx.index(Action(0, "teleport", (1,)))
    with pytest.raises(ActionIndexError, match="outside the domain"):
        idx.index(Action(0, "play", (10_000,)))
    with pytest.raises(ActionIndexError, match="arguments"):
        idx.index(Action(0, "play", ()))
    with pytest.raises(ActionIndexError, match="arguments"):
        idx.index(Action(0, "end", (1,)))
    with pytest.raises(ActionIndexError):
        idx.action(idx.n, 0)


def test_mixed_radix_layout():
    idx = ActionIndex([
        VerbShape("end"),
        VerbShape("move", (Slot(Dom.ints(3)), Slot(Dom.words("a", "b"), optional=True))),
        VerbShape("pick", subset=Dom.ints(4)),
    ])
    assert idx.n == 1 + 3 * 3 + 5
    seen = set()
    for a in [Action(0, "end")] + [Action(0, "move", (x, *w)) for x in range(3) for w in ((), ("a",), ("b",))]:
        i = idx.index(a)
        assert idx.action(i, 0) == a
        seen.add(i)
    assert len(seen) == 10
    assert idx.subset_path(Action(0, "pick", (1, 3))) == [11, 13, 14]
    with pytest.raises(ActionIndexError):
        idx.index(Action(0, "move", (1, "c")))
    with pytest.raises(ActionIndexError):
        idx.index(Action(0, "move", (True,)))       # a bool is not a card id


def test_undeclared_public_key_fails_loudly():
    t = table("fuutei")
    seat = t.new(0)
    view = seat.state.view(0)
    view["public"]["new_thing"] = 1
    with pytest.raises(ObservationError, match="new_thing"):
        t.encoder.encode(view, 0)
    with pytest.raises(ObservationError):
        t.encoder.encode(seat.state.view(1), 0)        # another player's view


def subset_tree(seat) -> set:
    """Every engine action the selection sub-turn can commit from here (depth first)."""
    found = set()
    for i in seat.legal():
        a = seat.action_of(i)
        if a is not None:
            found.add(a)
        else:
            twin = seat.clone()
            twin.step(i)
            found |= subset_tree(twin)
    return found


@pytest.mark.parametrize("spec", ["ibara(multi_card_combat=true)", "ibara(multi_card_combat=true,players=3)"])
def test_selection_sub_turn_reaches_exactly_the_legal_plays(spec):
    t = table(spec)
    checked = 0
    for seed in range(6):
        seat = t.new(seed)
        rng = Rng(seed)
        while seat.current_player() is not None and checked < 60:
            player = seat.current_player()
            legal = seat.state.legal_actions(player)
            if seat.selection is None and any(t.index.is_subset(a.verb) for a in legal):
                assert subset_tree(seat) == set(legal)
                checked += 1
                # a selection step changes nothing in the engine, and only the selector sees it
                before = {p: seat.observe(p) for p in range(t.players)}
                steps = seat.state.steps
                first = next(i for i in seat.legal() if seat.action_of(i) is None) if any(
                    seat.action_of(i) is None for i in seat.legal()) else None
                if first is not None:
                    twin = seat.clone()
                    twin.step(first)
                    assert twin.state.steps == steps and twin.selection[0] == player
                    for p in range(t.players):
                        same = np.array_equal(twin.observe(p), before[p])
                        assert same == (p != player)
                    back = t.from_json(json.loads(json.dumps(twin.to_json())))
                    assert back.selection == twin.selection and back.legal() == twin.legal()
                    assert np.array_equal(back.observe(player), twin.observe(player))
            legal_i = seat.legal()
            seat.step(legal_i[rng.below(len(legal_i))])
    assert checked > 10


def test_the_research_doc_is_current_and_its_example_runs():
    import re
    from pathlib import Path

    from takujo.adapters.report import generated

    text = (Path(__file__).resolve().parents[2] / "docs" / "research.md").read_text(encoding="utf-8")
    start = text.index("<!-- generated: python3 -m takujo.adapters.report -->\n")
    end = text.index("<!-- end generated -->")
    body = text[start:end].split("\n", 1)[1]
    assert body == generated(), "docs/research.md is stale: paste python3 -m takujo.adapters.report"
    for block in re.findall(r"```python\n(.*?)```", text, flags=re.S):
        exec(compile(block, "docs/research.md example", "exec"), {})


def test_summoned_soldiers_are_numbered_by_slot_and_refused_past_the_last():
    from takujo.adapters.sengoku_taisen import TOKEN_BASE, token_bound

    t = table("sengoku_taisen(deck1=黒,deck2=黒)")
    cap = token_bound(t.game)
    seat = t.new(2)
    rng = Rng(2)
    while not seat.state.tokens or seat.state.outcome is not None:
        if seat.state.outcome is not None:
            seat = t.new(seat.state.steps)
        legal = seat.legal()
        seat.step(legal[rng.below(len(legal))])
    state = seat.state
    live = sorted(state.tokens)
    canon = t.canon(state)
    unit = live[-1]
    a = Action(0, "intercept", (unit,))
    assert canon(a).args == (TOKEN_BASE + len(live) - 1,)        # its slot, whatever its id
    with pytest.raises(ActionIndexError, match="not in play"):
        canon(Action(0, "intercept", (max(live) + 1,)))
    for _ in range(cap + 1 - len(live)):
        state.summon(0, 1000, 0, "infantry")
    with pytest.raises(ActionIndexError, match="token slots"):
        t.seat(state).legal()
