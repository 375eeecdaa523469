"""The games as PettingZoo environments (takujo.adapters.pettingzoo): PettingZoo's own
api_test and seed_test on every game, default options and options on; the parallel
environment through parallel_api_test; illegal actions refused with nothing changed; the
rewards at the end; seeding; the example agent."""
from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from pettingzoo.test import api_test, parallel_api_test, render_test, seed_test  # noqa: E402
from pettingzoo.test.state_test import test_state_space as state_space_test  # noqa: E402
from pettingzoo.utils.conversions import aec_to_parallel, parallel_to_aec  # noqa: E402

from takujo.adapters import IllegalIndexError, Table  # noqa: E402
from takujo.adapters.gymnasium import observation_bounds  # noqa: E402
from takujo.adapters.pettingzoo import env, parallel_env, raw_env  # noqa: E402
from takujo.core import Rng  # noqa: E402

from tests.adapters.configs import SPECS  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


#: more than the longest random game of any configuration above (about 1,700 steps)
CYCLES = 3000

_TABLES: dict[str, Table] = {}


def table(spec: str) -> Table:
    if spec not in _TABLES:
        _TABLES[spec] = Table(spec)
    return _TABLES[spec]


@pytest.fixture(autouse=True)
def _quiet():
    # api_test warns that a Dict observation is not a Box and that a finished agent's mask is
    # all zeros; both are how PettingZoo's own classic games are made
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


def play(e, seed: int, rng: np.random.Generator):
    """Play one game with random legal actions; the (agent, reward) pairs last() gave."""
    e.reset(seed=seed)
    seen = []
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        seen.append((agent, reward, term, trunc))
        if term or trunc:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return seen


# ----- PettingZoo's own tests ---------------------------------------------------------------------
@pytest.mark.parametrize("spec", SPECS)
def test_api_test(spec):
    e = env(table(spec))
    steps = []
    raw = e.unwrapped
    step = raw.step
    raw.step = lambda a: (step(a), steps.append(raw.agents[:]))
    api_test(e, num_cycles=CYCLES)
    assert any(not agents for agents in steps), "the play test did not reach the end of a game"


@pytest.mark.parametrize("spec", SPECS)
def test_seed_test(spec):
    t = table(spec)
    seed_test(lambda: env(t), num_cycles=CYCLES)


@pytest.mark.parametrize("spec", ["fuutei(players=2)", "sengoku_taisen", "draft_daimyo",
                                  "ibara(players=3,multi_card_combat=true,gaiblitz_buff=true)"])
def test_parallel_api_test(spec):
    parallel_api_test(parallel_env(table(spec)), num_cycles=CYCLES)


@pytest.mark.parametrize("spec", ["fuutei(players=3)", "sengoku_taisen", "ibara(mode=short)", "draft_daimyo"])
def test_render_test(spec, capsys):
    t = table(spec)
    render_test(lambda render_mode=None: env(t, render_mode=render_mode))
    assert "what player_" in capsys.readouterr().out          # "human" printed the view


@pytest.mark.parametrize("make", [env, parallel_env])
def test_state_space_test(make):
    """PettingZoo's check of the state space (its test_state steps unmasked random actions,
    so the state itself is checked below)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        state_space_test(make(table("draft_daimyo")))


@pytest.mark.parametrize("spec", ["fuutei(players=3)", "sengoku_taisen", "ibara(players=3,multi_card_combat=true)",
                                  "draft_daimyo(expansion=true,tactics=true)"])
def test_state_is_every_seats_observation_within_its_space(spec):
    """state(): each player's observation side by side, player 0 first (privileged: all the
    hands); it and every observation lie within the declared, finite spaces."""
    t = table(spec)
    e = env(t)
    e.reset(seed=3)
    raw = e.unwrapped
    low, high = observation_bounds(t)
    assert np.array_equal(e.observation_space("player_0")["observation"].low, low)
    assert np.isfinite(raw.state_space.low).all() and np.isfinite(raw.state_space.high).all()
    assert raw.state_space.shape == (t.players * t.obs_size,)
    rng = np.random.default_rng(0)
    for step, agent in enumerate(e.agent_iter()):
        obs, _, term, trunc, _ = e.last()
        if step % 7 == 0 or term:
            state = e.state()
            assert raw.state_space.contains(state)
            for p in range(t.players):
                part = state[p * t.obs_size:(p + 1) * t.obs_size]
                assert np.array_equal(part, raw.seat.observe(p))
                assert e.observation_space(f"player_{p}").contains(e.observe(f"player_{p}"))
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    p = parallel_env(t)
    p.reset(seed=3)
    assert p.state_space.shape == raw.state_space.shape
    assert np.array_equal(p.state(), np.concatenate([p.seat.observe(q) for q in range(t.players)]))


def test_parallelizable_where_exact():
    """The parallel environment says it is parallelizable, and the conversions round-trip to it;
    the AEC environment does not, since aec_to_parallel needs every agent to act each cycle."""
    t = table("draft_daimyo")
    par = parallel_env(t)
    assert par.metadata["is_parallelizable"] is True
    assert aec_to_parallel(parallel_to_aec(par)) is par
    aec = env(t)
    assert aec.metadata["is_parallelizable"] is False
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(aec)


# ----- the environment's contract -------------------------------------------------------------------
def test_spaces_and_metadata():
    t = table("ibara(mode=short)")
    e = env(t)
    e.reset(seed=1)
    assert e.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    assert e.metadata["name"] == "takujo_ibara_v0" and str(e.unwrapped) == "takujo_ibara_v0"
    for a in e.possible_agents:
        space = e.observation_space(a)
        assert space is e.observation_space(a) and e.action_space(a) is e.action_space(a)
        assert space["observation"].shape == (t.obs_size,) and space["observation"].dtype == np.float32
        assert space["action_mask"].shape == (t.num_actions,) and space["action_mask"].dtype == np.int8
        assert e.action_space(a).n == t.num_actions
    assert e.observation_space("player_0") is not e.observation_space("player_1")
    with pytest.raises(KeyError, match="unknown agent 'player_9'"):
        e.observation_space("player_9")


def test_observation_is_the_view_and_only_the_actor_has_a_mask():
    e = env("fuutei(players=3)")
    e.reset(seed=4)
    raw = e.unwrapped
    rng = np.random.default_rng(0)
    for _ in range(60):
        actor = e.agent_selection
        seat = raw.seat
        for a in e.agents:
            p = int(a.split("_")[1])
            obs = e.observe(a)
            want = seat.table.encoder.encode(seat.state.view(p), p)
            assert np.array_equal(obs["observation"], want)
            assert obs["action_mask"].dtype == np.int8
            if a == actor:
                assert np.array_equal(obs["action_mask"], seat.mask())
                assert obs["action_mask"].sum() == len(seat.legal()) > 0
            else:
                assert not obs["action_mask"].any()
        e.step(int(rng.choice(np.flatnonzero(e.observe(actor)["action_mask"]))))


def test_simultaneous_choices_stay_hidden():
    """In ドラフト戦国大名's draft every player picks at once, one agent after the other: what
    player_0 picked leaves the next agent's observation as it would be for any other pick."""
    e = env("draft_daimyo")
    e.reset(seed=3)
    raw = e.unwrapped
    seat = raw.seat
    pend = seat.state.pending
    assert pend.kind.name == "SIMULTANEOUS" and len(pend.players) == 4
    first = e.agent_selection
    legal = seat.legal()
    assert len(legal) > 1
    nxt = set()
    for i in legal[:3]:
        copy = seat.clone()
        copy.step(i)
        p = copy.current_player()
        assert p != int(first.split("_")[1])
        nxt.add(copy.observe(p).tobytes())
    assert len(nxt) == 1


def test_seed_gives_the_engines_game():
    t = table("draft_daimyo")
    e = env(t)
    e.reset(seed=7)
    assert e.unwrapped.game_seed == 7
    assert e.unwrapped.seat.state.to_json() == t.game.new_state(7).to_json()
    # unseeded resets continue the last seed's stream: the same sequence of games again
    e.reset(seed=11)
    after = [(e.reset(), e.unwrapped.game_seed)[1] for _ in range(3)]
    e.reset(seed=11)
    assert [(e.reset(), e.unwrapped.game_seed)[1] for _ in range(3)] == after
    assert len(set(after)) == 3
    with pytest.raises(TypeError, match="seed must be an int"):
        e.reset(seed=1.5)
    with pytest.raises(ValueError, match="non-negative"):
        e.reset(seed=-1)


def test_same_seed_same_game():
    t = table("fuutei(players=2)")
    a = play(env(t), 5, np.random.default_rng(1))
    b = play(env(t), 5, np.random.default_rng(1))
    assert a == b
    assert a != play(env(t), 6, np.random.default_rng(1))


@pytest.mark.parametrize("spec", ["fuutei(players=2)", "sengoku_taisen", "ibara(mode=short)",
                                  "draft_daimyo", "ibara(players=3,multi_card_combat=true)"])
def test_rewards_at_the_end(spec):
    """Rewards are 0 until the game ends; then 1/k to each of the k winners, 0 to the others,
    as Seat.returns(); every agent terminates, none is truncated, and all are removed."""
    e = env(table(spec))
    for seed in range(2):
        e.reset(seed=seed)
        raw = e.unwrapped
        rng = np.random.default_rng(seed)
        final: dict[str, float] = {}
        for agent in e.agent_iter():
            obs, reward, term, trunc, _ = e.last()
            assert not trunc
            if term:
                final[agent] = reward
                e.step(None)
                continue
            assert reward == 0 and not any(e.rewards.values())
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert e.agents == [] and set(final) == set(e.possible_agents)
        returns = raw.seat.returns()
        assert [final[a] for a in e.possible_agents] == returns
        winners = raw.seat.state.outcome.winners
        assert sum(returns) == pytest.approx(1.0 if winners else 0.0)
        assert all(r == (1 / len(winners) if int(a.split("_")[1]) in winners else 0.0)
                   for a, r in final.items())


def test_illegal_action_is_refused_and_changes_nothing():
    e = env("fuutei(players=3)")
    e.reset(seed=2)
    raw = e.unwrapped
    rng = np.random.default_rng(0)
    for _ in range(5):
        e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])

    def snapshot():
        return (json.dumps(raw.seat.to_json(), sort_keys=True), e.agent_selection, dict(e.rewards),
                dict(raw._cumulative_rewards), dict(e.terminations), dict(e.truncations), raw.num_steps)

    before = snapshot()
    player = int(e.agent_selection.split("_")[1])
    with pytest.raises(IllegalIndexError, match=rf"index {illegal} \(.*\) is not legal for player {player} now; legal: \d"):
        e.step(illegal)
    assert snapshot() == before
    with pytest.raises(IllegalIndexError, match=rf"index {raw.table.num_actions} \(out of range 0\.\.{raw.table.num_actions - 1}\)"):
        e.step(raw.table.num_actions)
    with pytest.raises(IllegalIndexError, match=r"index -1 \(out of range"):
        e.step(-1)
    for bad in (None, 1.0, "3", True, np.array([1, 2])):
        with pytest.raises(TypeError, match="player_"):
            e.step(bad)
    assert snapshot() == before
    e.step(np.int64(np.flatnonzero(mask)[0]))                # still playable, numpy ints taken
    assert raw.num_steps == before[-1] + 1


def test_illegal_parallel_action_changes_nothing():
    p = parallel_env("draft_daimyo")
    obs, _ = p.reset(seed=1)
    acting = p.acting
    assert len(acting) == 4                                  # the draft: everyone at once
    good = {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in acting}
    bad = dict(good, player_3=int(np.flatnonzero(obs["player_3"]["action_mask"] == 0)[0]))
    before = json.dumps(p.seat.to_json(), sort_keys=True)
    with pytest.raises(IllegalIndexError, match="is not legal for player 3 now"):
        p.step(bad)
    with pytest.raises(KeyError, match="player_2 is to act"):
        p.step({a: v for a, v in good.items() if a != "player_2"})
    assert json.dumps(p.seat.to_json(), sort_keys=True) == before
    p.step(good)
    assert p.seat.state.steps == 4


@pytest.mark.parametrize("spec", ["draft_daimyo", "ibara(mode=short)"])
def test_parallel_plays_the_same_game(spec):
    """The parallel environment given the same choices plays the AEC environment's game."""
    t = table(spec)
    a, p = raw_env(t), parallel_env(t)
    a.reset(seed=9)
    obs, _ = p.reset(seed=9)
    most = 0
    while p.agents:
        acting = p.acting
        most = max(most, len(acting))
        for agent in acting:                   # the AEC agents come in the same order
            assert a.agent_selection == agent
            a.step(int(np.flatnonzero(obs[agent]["action_mask"])[-1]))
        obs, rew, term, trunc, _ = p.step({x: int(np.flatnonzero(obs[x]["action_mask"])[-1]) if x in acting else 0
                                           for x in p.agents})
        assert a.seat.state.steps == p.seat.state.steps
        if p.num_steps % 50 == 0 or not p.agents:
            assert json.dumps(a.seat.to_json(), sort_keys=True) == json.dumps(p.seat.to_json(), sort_keys=True)
    assert all(term.values()) and list(rew.values()) == a.seat.returns()
    if spec.startswith("draft_daimyo"):
        assert most == t.players                  # the draft: everyone in one step


def test_truncation_only_at_max_steps():
    e = env("fuutei(players=2)", max_steps=10)
    e.reset(seed=0)
    n = 0
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        if trunc:
            assert not term and reward == 0
            e.step(None)
            continue
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
        n += 1
    assert n == 10
    with pytest.raises(ValueError, match="max_steps"):
        env("fuutei", max_steps=0)


def test_render_and_bad_arguments():
    e = env("sengoku_taisen", render_mode="ansi")
    e.reset(seed=0)
    text = e.render()
    assert isinstance(text, str) and "step 0" in text and f"what {e.agent_selection} sees" in text
    quiet = env("sengoku_taisen")
    quiet.reset(seed=0)
    assert quiet.render() is None
    with pytest.raises(ValueError, match="render_mode 'rgb_array' is not supported"):
        env("fuutei", render_mode="rgb_array")
    ja = env("sengoku_taisen", render_mode="ansi", lang="ja")
    ja.reset(seed=0)
    assert ja.render() != text
    with pytest.raises(ValueError, match="lang 'fr' is not supported"):
        env("fuutei", lang="fr")
    with pytest.raises(ValueError, match="nosuchgame"):
        env("nosuchgame")
    with pytest.raises(ValueError, match="colour"):
        env("fuutei(colour=3)")
    with pytest.raises(TypeError, match="game string"):
        env(3)


def test_bot_actions_through_the_environment():
    """takujo's bots speak engine actions: action_indices turns one into the steps that play it
    (several for a subset chosen card by card)."""
    from takujo.bots import make_bot
    t = table("ibara(players=3,multi_card_combat=true,gaiblitz_buff=true)")
    e = env(t)
    e.reset(seed=1)
    raw = e.unwrapped
    bot, rng = make_bot("random", t.game), Rng(0)
    queue: list[int] = []
    multi = 0
    for agent in e.agent_iter():
        _, _, term, trunc, _ = e.last(observe=False)
        if term or trunc:
            e.step(None)
            continue
        if not queue:
            action = bot.act(raw.view(agent), raw.legal_actions(agent), rng)
            queue = raw.action_indices(action)
            multi += len(queue) > 1
        e.step(queue.pop(0))
    assert multi > 0 and raw.seat.is_over()


def test_example_agent_runs():
    script = ROOT / "examples" / "pettingzoo_agent.py"
    if not script.is_file():           # a copy of the tree without examples/ (the compiled build's)
        pytest.skip("examples/ is not in this tree")
    out = subprocess.run(
        [sys.executable, str(script), "--game", "sengoku_taisen",
         "--games", "3", "--train", "2", "--bot", "random"],
        capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert "win rate" in out.stdout
