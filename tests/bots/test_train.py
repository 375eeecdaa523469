"""Training by self-play: the loss falls, runs resume, and the saved bot plays with numpy only."""
from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import takujo
from takujo.bots.learned import LearnedBot, load_net
from takujo.core.errors import OptionError
from takujo.sim import play_game

SPEC = "draft_daimyo(players=3)"


@pytest.fixture
def torch():
    """torch on one thread (imported by the tests that train, not when the suite is collected:
    it takes a second to import)."""
    module = pytest.importorskip("torch", reason="training needs torch (pip install 'takujo[train]')")
    module.set_num_threads(1)
    return module


@pytest.fixture
def dmc(torch):
    from takujo.train import dmc
    return dmc


def small(dmc, spec: str = SPEC):
    return dmc.Config(spec=spec, seed=3, hidden=[32], batch=64, buffer=5000, updates_per_game=4,
                      eval_every=150, eval_games=3)


def test_loss_falls_and_the_saved_bot_plays_legal_games(tmp_path, dmc):
    trainer = dmc.Trainer(tmp_path, small(dmc))
    trainer.run(300, None, "test")
    assert trainer.updates >= 300
    first, last = np.mean(trainer.losses[:20]), np.mean(trainer.losses[-50:])
    assert last < first, (first, last)
    assert (tmp_path / "report.md").is_file() and (tmp_path / "curve.png").is_file()
    assert len((tmp_path / "evals.jsonl").read_text().splitlines()) == 2

    game = takujo.load(SPEC)
    bot = LearnedBot(game, load_net(tmp_path / "weights.npz"))
    state, result = play_game(game, ["learned", "heuristic", "learned"], 7, {"learned": bot}, checked=True)
    assert state.outcome is not None and result.winners

    # the saved weights play from a fresh interpreter without importing torch
    script = textwrap.dedent(f"""
        import sys, takujo
        from takujo.sim import play_game
        from takujo.bots import make_bot
        game = takujo.load({SPEC!r})
        bot = make_bot({"learned:" + str(tmp_path / "weights.npz")!r}, game)
        state, _ = play_game(game, ["learned"] * 3, 11, {{"learned": bot}}, checked=True)
        assert state.outcome is not None
        assert "torch" not in sys.modules, "the learned bot imported torch"
        """)
    subprocess.run([sys.executable, "-c", script], check=True)


def test_a_rerun_continues_and_refuses_another_game(tmp_path, torch, dmc):
    first = dmc.Trainer(tmp_path, small(dmc))
    first.run(40, None, "test")
    again = dmc.Trainer(tmp_path, small(dmc))
    assert again.resumed and again.updates == first.updates and again.games == first.games
    for a, b in zip(first.model.parameters(), again.model.parameters()):
        assert torch.equal(a, b)
    again.run(80, None, "test")
    assert again.updates >= 80
    with pytest.raises(OptionError, match="draft_daimyo\\(players=3\\)"):
        dmc.Trainer(tmp_path, small(dmc, "draft_daimyo(players=4)"))
    (tmp_path / "checkpoint.pt").write_bytes(b"not a checkpoint")
    with pytest.raises(OptionError, match="checkpoint"):
        dmc.Trainer(tmp_path, small(dmc))


def test_ppo_runs_and_exports_a_policy_without_its_value_output(tmp_path, dmc):
    config = dmc.Config(spec=SPEC, seed=4, hidden=[32], batch=64, method="ppo", rollout=256, eval_every=10**6)
    trainer = dmc.Trainer(tmp_path, config)
    trainer.run(40, None, "test")
    assert trainer.updates >= 40 and all(np.isfinite(trainer.losses))
    net = load_net(tmp_path / "weights.npz")
    game = takujo.load(SPEC)
    assert net.num_actions == LearnedBot(game, net).table.num_actions
    state, _ = play_game(game, ["learned"] * 3, 5, {"learned": LearnedBot(game, net)}, checked=True)
    assert state.outcome is not None
    with pytest.raises(OptionError, match="sarsa"):
        dmc.Trainer(tmp_path / "other", dmc.Config(spec=SPEC, method="sarsa"))
