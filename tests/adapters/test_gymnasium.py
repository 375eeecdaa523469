"""One seat as a single-agent Gymnasium environment (takujo.adapters.gymnasium): SB3's and
Gymnasium's env checkers, the bots' moves inside step, rewards, seeding, illegal actions in
both modes, the observation bounds on random states, bad arguments and the example."""
from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from takujo.adapters import IllegalIndexError, Table  # noqa: E402
from takujo.adapters.gymnasium import UNBOUNDED, TakujoEnv, env, observation_bounds  # noqa: E402
from takujo.core import Rng  # noqa: E402

from tests.adapters.configs import SPECS  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def first_legal(e: TakujoEnv) -> int:
    return int(np.flatnonzero(e.action_masks())[0])


def play(e: TakujoEnv, seed: int, rng: np.random.Generator) -> list[tuple[bytes, float]]:
    """One game with random legal actions: (observation, reward) after every step."""
    obs, _ = e.reset(seed=seed)
    seen = [(obs.tobytes(), 0.0)]
    done = False
    while not done:
        obs, reward, terminated, truncated, _ = e.step(int(rng.choice(np.flatnonzero(e.action_masks()))))
        seen.append((obs.tobytes(), reward))
        done = terminated or truncated
    return seen


# ----- the checkers -------------------------------------------------------------------------------
@pytest.mark.parametrize("spec", ["draft_daimyo(players=4)", "sengoku_taisen", "fuutei(players=3)",
                                  "ibara(players=3,multi_card_combat=true)"])
def test_sb3_check_env_passes_with_the_penalty_option(spec):
    """SB3's checker steps random actions from the whole space, so most are illegal: with
    illegal="penalty" they are penalised no-ops and it passes without a warning."""
    from stable_baselines3.common.env_checker import check_env
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env(spec, opponents="random", illegal="penalty"))


def test_gymnasium_check_env_passes():
    from gymnasium.utils.env_checker import check_env
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", message=".*spec.*")      # made without gymnasium.make
        check_env(env("draft_daimyo", opponents="random", illegal="penalty"), skip_render_check=True)


def test_maskable_ppo_reads_the_masks():
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
    e = env("sengoku_taisen", opponents="random")
    e.reset(seed=1)
    assert is_masking_supported(e)
    masks = get_action_masks(e)
    assert masks.dtype == bool and masks.shape == (e.table.num_actions,)
    assert np.array_equal(masks, e.game.mask().astype(bool)) and masks.sum() == len(e.game.legal())


# ----- the game inside the environment -------------------------------------------------------------
class SpyBot:
    """A random bot that checks it is given its own player's view and legal actions."""

    def __init__(self, env: TakujoEnv) -> None:
        self.env, self.calls = env, 0

    def act(self, view, legal, rng):
        seat = self.env.game
        p = view["player"]
        assert p != self.env.learner and seat.current_player() == p
        assert view == seat.state.view(p) and legal == seat.state.legal_actions(p)
        self.calls += 1
        return legal[rng.below(len(legal))]


@pytest.mark.parametrize("seat", [0, 2])
def test_bots_play_until_the_learner_is_to_act(seat):
    e = env("draft_daimyo", opponents="random", seat=seat)
    spy = SpyBot(e)
    e._bots = [spy] * 3
    obs, info = e.reset(seed=5)
    assert info == {"seat": seat, "game_seed": 5}
    done, steps = False, 0
    while not done:
        assert e.game.current_player() == seat
        assert np.array_equal(obs, e.game.observe(seat))          # the learner's own view
        obs, reward, terminated, truncated, _ = e.step(first_legal(e))
        done = terminated or truncated
        assert not truncated and (reward == 0.0 or terminated)
        steps += 1
    assert e.game.is_over() and spy.calls > steps
    assert reward == e.game.returns()[seat]
    assert not e.action_masks().any()
    with pytest.raises(RuntimeError, match="reset"):
        e.step(0)


def test_the_opponents_are_bots_by_name_seat_by_seat():
    e = env("ibara(players=3)", opponents=["heuristic", "random"], seat=1)
    assert e.opponents == ["heuristic", "random"]
    assert type(e.bot_of(2)).__name__ != "RandomBot" and type(e.bot_of(0)).__name__ == "RandomBot"
    with pytest.raises(ValueError, match="learner"):
        e.bot_of(1)


def test_the_seat_can_rotate_or_be_drawn():
    rot = env("draft_daimyo", opponents="random", seat="rotate")
    assert [rot.reset(seed=s)[1]["seat"] for s in range(5)] == [0, 1, 2, 3, 0]
    drawn = env("draft_daimyo", opponents="random", seat="random")
    seats = [drawn.reset(seed=s)[1]["seat"] for s in range(12)]
    again = env("draft_daimyo", opponents="random", seat="random")
    assert [again.reset(seed=s)[1]["seat"] for s in range(12)] == seats and len(set(seats)) > 1
    assert rot.reset(seed=3, options={"seat": 2})[1]["seat"] == 2


def test_reset_seed_is_reproducible_and_plays_the_engines_game():
    t = Table("sengoku_taisen")
    a, b = env(t, opponents="heuristic"), env(t, opponents="heuristic")
    assert play(a, 7, np.random.default_rng(1)) == play(b, 7, np.random.default_rng(1))
    assert play(a, 8, np.random.default_rng(1)) != play(b, 7, np.random.default_rng(1))
    a.reset(seed=7)
    assert a.game_seed == 7
    # unseeded resets continue the seeded stream
    a.reset(seed=11)
    after = [a.reset()[1]["game_seed"] for _ in range(3)]
    a.reset(seed=11)
    assert [a.reset()[1]["game_seed"] for _ in range(3)] == after and len(set(after)) == 3


def test_a_bot_seat_first_sees_the_engines_game():
    """With the learner in the second seat, reset plays the bot's opening moves on the engine's
    game `seed`."""
    t = Table("sengoku_taisen")
    e = env(t, opponents="random", seat=1)
    e.reset(seed=3)
    fresh = t.new(3)
    assert e.game.state.steps >= 1 and e.game.state.log[:3] == fresh.state.log[:3]


# ----- illegal actions ----------------------------------------------------------------------------------
def test_an_illegal_action_raises_and_changes_nothing():
    e = env("fuutei(players=3)", opponents="random")
    e.reset(seed=2)
    mask = e.action_masks()
    illegal = int(np.flatnonzero(~mask)[0])
    before = json.dumps(e.game.to_json(), sort_keys=True)
    with pytest.raises(IllegalIndexError, match=rf"index {illegal} \(.*\) is not legal for player 0 now; legal: \d"):
        e.step(illegal)
    with pytest.raises(IllegalIndexError, match=r"index 99999 \(out of range"):
        e.step(99999)
    for bad in (None, 1.5, "3", True):
        with pytest.raises(TypeError, match="player_0"):
            e.step(bad)
    assert json.dumps(e.game.to_json(), sort_keys=True) == before
    e.step(np.int64(first_legal(e)))                          # numpy integers are taken


def test_the_penalty_is_a_no_op_and_truncates_after_a_run():
    e = env("fuutei(players=3)", opponents="random", illegal="penalty", penalty=0.05, max_illegal=3)
    obs, _ = e.reset(seed=2)
    illegal = int(np.flatnonzero(~e.action_masks())[0])
    before = json.dumps(e.game.to_json(), sort_keys=True)
    for k in (1, 2):
        again, reward, terminated, truncated, info = e.step(illegal)
        assert np.array_equal(again, obs) and reward == -0.05 and not terminated and not truncated
        assert info["illegal"] is True and info["illegal_streak"] == k
    e.step(first_legal(e))                                    # a legal action ends the run
    for k in (1, 2, 3):
        _, reward, _, truncated, info = e.step(int(np.flatnonzero(~e.action_masks())[0]))
        assert truncated == (k == 3) and info["illegal_streak"] == k
    assert json.dumps(e.game.to_json(), sort_keys=True) != before
    with pytest.raises(IllegalIndexError, match="out of range"):   # outside the space: always an error
        e.step(e.table.num_actions)


# ----- observations --------------------------------------------------------------------------------------
@pytest.mark.parametrize("spec", SPECS)
def test_every_observation_lies_within_the_declared_bounds(spec):
    """On random states of random games every player's raw observation (before any clipping)
    lies within the bounds the spaces declare; the bounds are finite."""
    t = Table(spec)
    low, high = observation_bounds(t)
    assert low.shape == high.shape == (t.obs_size,) and np.isfinite(low).all() and np.isfinite(high).all()
    assert (low <= high).all() and (low < high).any()
    for seed in range(3):
        seat, rng, k = t.new(seed), Rng(seed), 0
        while True:
            if k % 5 == 0 or seat.current_player() is None:
                for p in range(t.players):
                    obs = seat.observe(p)
                    out = np.flatnonzero((obs < low) | (obs > high))
                    assert not len(out), f"{spec}: entries {out[:5]} = {obs[out[:5]]} outside their bounds"
            if seat.current_player() is None:
                break
            legal = seat.legal()
            seat.step(legal[rng.below(len(legal))])
            k += 1


def test_the_bounds_follow_the_layout():
    t = Table("ibara(players=3,multi_card_combat=true)")
    low, high = observation_bounds(t)
    e = t.encoder
    # the pending decision and the selection are indicators; the public turn counter has no range
    assert (low[e.pending_at:] == 0).all() and (high[e.pending_at:] == 1).all()
    assert (high == UNBOUNDED).sum() > 0 and (high == 1).sum() > t.obs_size // 2
    deck = next(f for name, f in e.zones if name == "deck")
    assert high[0] == pytest.approx(deck.pool.size * 0.1)     # a count: at most the pool


# ----- bad arguments, rendering, the example --------------------------------------------------------------
@pytest.mark.parametrize("kwargs, words", [
    ({"opponents": "grandmaster"}, "unknown bot 'grandmaster'"),
    ({"opponents": ["random"]}, "a list of 3 names"),
    ({"seat": 4}, "seat must be a player 0..3"),
    ({"seat": "left"}, "seat must be"),
    ({"illegal": "ignore"}, "illegal must be one of"),
    ({"penalty": -1}, "penalty must be"),
    ({"max_illegal": 0}, "max_illegal"),
    ({"render_mode": "rgb_array"}, "render_mode 'rgb_array'"),
    ({"lang": "fr"}, "lang 'fr'"),
])
def test_bad_arguments_are_refused_naming_them(kwargs, words):
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)").replace("..", r"\.\.")):
        env("draft_daimyo", **kwargs)


def test_bad_games_and_reset_options():
    with pytest.raises(ValueError, match="nosuchgame"):
        env("nosuchgame")
    with pytest.raises(TypeError, match="game string"):
        env(3)
    e = env("draft_daimyo", opponents="random")
    with pytest.raises(RuntimeError, match="reset"):
        e.step(0)
    with pytest.raises(ValueError, match="unknown reset option"):
        e.reset(seed=1, options={"colour": 1})
    with pytest.raises(ValueError, match=r"options\['seat'\]"):
        e.reset(seed=1, options={"seat": 9})
    with pytest.raises(TypeError, match="seed must be an int"):
        e.reset(seed="x")


def test_render_human_prints_and_ansi_returns(capsys):
    ansi = env("sengoku_taisen", opponents="random", render_mode="ansi")
    ansi.reset(seed=0)
    text = ansi.render()
    assert isinstance(text, str) and "learner player_0" in text and "what player_0 sees" in text
    human = env("sengoku_taisen", opponents="random", render_mode="human")
    human.reset(seed=0)
    assert human.render() is None
    assert capsys.readouterr().out.strip() == text.strip()


def test_the_example_trains_briefly():
    script = ROOT / "examples" / "train_maskable_ppo.py"
    if not script.is_file():                   # a copy of the tree without examples/
        pytest.skip("examples/ is not in this tree")
    out = subprocess.run([sys.executable, str(script), "--game", "sengoku_taisen", "--timesteps", "64",
                          "--games", "1"], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert "win rate before training" in out.stdout and "after 64 timesteps" in out.stdout
    bad = subprocess.run([sys.executable, str(script), "--opponents", "nobot"],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert bad.returncode == 2 and "nobot" in bad.stderr
