"""The conformance kit: contracts every registered game must keep.

Random playouts to the end with invariants (cards conserved, every decision has a legal
action, games end), clone equality and independence, exact JSON round-trip, replay equality,
seeded determinism, the no-leak view test, every enumerated action applies, and illegal
actions raise and change nothing. Parametrized over `takujo.names()`, so a newly registered
game is checked without writing anything.
"""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import takujo
from takujo.core import Action, DecisionKind, IllegalActionError, Rng, parse_game_string, shuffle_unseen
from takujo.record import record_lines, replay

STEP_CAP = 20_000
GAMES = takujo.names()


def player_counts(name: str) -> list[int]:
    """The player counts to play `name` (a registered game, or a game string such as
    ``fuutei(cards=set:…)``) at."""
    field = takujo.game_class(parse_game_string(name)[0]).Options.model_fields["players"]
    lo = next((m.ge for m in field.metadata if hasattr(m, "ge")), 2)
    hi = next((m.le for m in field.metadata if hasattr(m, "le")), lo + 3)
    return list(range(lo, min(hi, 5) + 1))


def card_total(state) -> int:
    total = 0
    for spec in state.ZONES:
        if spec.tokens:
            continue
        data = state.zone(spec.name)
        total += sum(map(len, data)) if spec.per_player else len(data)
    return total


def random_step(state, rng: Rng) -> None:
    pend = state.pending
    player = pend.players[rng.below(len(pend.players))]
    legal = state.legal_actions(player)
    assert legal, f"{state.game}: player {player} must act but has no legal action"
    state.apply(legal[rng.below(len(legal))])


def playout(game, seed: int, check=None):
    """Play a random game to the end, checking invariants at every step; return the state."""
    state = game.new_state(seed)
    rng = Rng(seed ^ 0x5EED)
    cards = card_total(state)
    while state.outcome is None:
        assert state.pending is not None and state.pending.players
        random_step(state, rng)
        assert card_total(state) == cards, f"{game} seed {seed}: cards not conserved at step {state.steps}"
        assert state.steps < STEP_CAP, f"{game} seed {seed}: no end after {STEP_CAP} steps"
        problems = state.check_invariants()
        assert not problems, f"{game} seed {seed} step {state.steps}: {problems}"
        if check:
            check(state)
    assert state.pending is None and state.legal_actions() == []
    assert state.outcome.winners, "a finished game names its winners"
    return state


def midgame_states(game, seed: int, every: int = 7, limit: int = 40):
    """Clones of unfinished states met along one random game."""
    state = game.new_state(seed)
    rng = Rng(seed + 1)
    out = []
    while state.outcome is None and len(out) < limit:
        random_step(state, rng)
        if state.steps % every == 0 and state.outcome is None:
            out.append(state.clone())
    return out


#: Random games a registered game plays to the end, spread over its player counts.
PLAYOUTS = 320
#: ... and an extension's card set (one new card on a game the kit checks in full).
EXTENSION_PLAYOUTS = 96


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_random_playouts_end_with_conserved_cards(name, games: int = PLAYOUTS):
    """Many random games across player counts: conserved cards, a legal action always, an end."""
    counts = player_counts(name)
    per_count = -(-games // len(counts))
    runs = 0
    for players in counts:
        game = takujo.load(name, players=players)
        for seed in range(per_count):
            playout(game, seed)
            runs += 1
    assert runs >= games


@pytest.mark.parametrize("name", GAMES)
def test_clone_is_equal_and_independent(name):
    game = takujo.load(name)
    for state in midgame_states(game, 3):
        twin = state.clone()
        assert twin == state and twin.to_json() == state.to_json()
        before = state.to_json()
        if twin.outcome is None:
            random_step(twin, Rng(9))
            assert state.to_json() == before, "changing a clone changed the original"


@pytest.mark.parametrize("name", GAMES)
def test_json_round_trip_is_exact(name):
    game = takujo.load(name)
    for state in midgame_states(game, 4):
        data = state.to_json()
        text = json.dumps(data)
        back = game.state_from_json(json.loads(text))
        assert back.to_json() == data
        assert back.legal_actions() == state.legal_actions()
        assert back.view(0) == state.view(0)
        # the restored state plays on exactly like the original
        if state.outcome is None:
            a, b = state.clone(), back
            for _ in range(30):
                if a.outcome is not None:
                    break
                act = a.legal_actions()[0]
                a.apply(act)
                b.apply(act)
            assert a.to_json() == b.to_json()


@pytest.mark.parametrize("name", GAMES)
def test_replay_rebuilds_the_same_game(name):
    game = takujo.load(name)
    for seed in range(3):
        final = playout(game, seed)
        lines = json.loads(json.dumps(record_lines(final, seed)))
        assert replay(lines).to_json() == final.to_json()


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**40))
def test_seeded_determinism(name, seed):
    game = takujo.load(name)
    a, b = game.new_state(seed), game.new_state(seed)
    ra, rb = Rng(seed), Rng(seed)
    for _ in range(150):
        if a.outcome is not None:
            break
        random_step(a, ra)
        random_step(b, rb)
    assert a.to_json() == b.to_json()


@pytest.mark.parametrize("name", GAMES)
def test_views_do_not_leak_hidden_information(name):
    """Two states that differ only in what P cannot see give P equal views."""
    game = takujo.load(name)
    rng = Rng(77)
    checked = 0
    for seed in range(4):
        for state in midgame_states(game, seed, every=5):
            for player in [*range(game.players), None]:
                other = shuffle_unseen(state, player, rng)
                assert other.view(player) == state.view(player)
                checked += 1
    assert checked > 50


@pytest.mark.parametrize("name", GAMES)
def test_views_hold_no_private_events_of_others(name):
    game = takujo.load(name)
    state = playout(game, 5)
    for player in [*range(game.players), None]:
        for event in state.view(player)["log"]:
            to = event.get("to")
            assert to is None or player in to
        json.dumps(state.view(player))


@pytest.mark.parametrize("name", GAMES)
def test_every_enumerated_action_applies(name):
    game = takujo.load(name)
    for state in midgame_states(game, 6, every=9, limit=15):
        for player in state.pending.players if state.pending else ():
            for action in state.legal_actions(player):
                twin = state.clone()
                twin.apply(action)
                assert game.parse_action(str(action), player) == action


@pytest.mark.parametrize("name", GAMES)
def test_illegal_actions_raise_and_change_nothing(name):
    game = takujo.load(name)
    for state in midgame_states(game, 8, every=11, limit=10):
        before = state.to_json()
        actor = state.pending.players[0]
        idle = next((p for p in range(game.players) if p not in state.pending.players), None)
        bad = [Action(actor, "no_such_verb", (1,))]
        legal = state.legal_actions(actor)
        bad.append(Action(actor, legal[0].verb, (*legal[0].args, 99999)))
        if idle is not None:
            bad.append(Action(idle, legal[0].verb, legal[0].args))
        for action in bad:
            with pytest.raises(IllegalActionError):
                state.apply(action)
            assert state.to_json() == before


@pytest.mark.parametrize("name", GAMES)
def test_decision_kinds_are_declared(name):
    game = takujo.load(name)
    seen = set()
    for seed in range(5):
        playout(game, seed, check=lambda s: seen.add(s.pending.kind) if s.pending else None)
    assert DecisionKind.TURN in seen
