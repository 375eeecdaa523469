"""Deep Monte Carlo (as in DouZero): Q(s, a) regressed on Monte Carlo returns, ε-greedy play.

An MLP maps the observation to one value per action index; the loss is the squared error
between the value of the action taken and the acting player's final return (1/k for each of
k winners, else 0). Games mix network seats (self-play, the latest weights) and heuristic
seats. Everything lives in ``--out``: ``checkpoint.pt`` (weights, optimiser, counters, random
streams), ``weights.npz`` and ``best.npz`` (numpy, float16), ``evals.jsonl`` and the report.
"""
from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

import numpy as np
import torch
from torch import nn

from ..adapters.driver import Table
from ..bots.learned import Net, save_net
from ..core.errors import OptionError
from .evaluate import append_eval, evaluate, write_report
from .ppo import new_rollout, play_sampled, ppo_steps
from .selfplay import Replay, play_episode


@dataclass
class Config:
    """A run's settings (stored in its checkpoint; a resumed run keeps them)."""
    spec: str
    seed: int = 1
    hidden: list[int] = field(default_factory=lambda: [256, 256])
    lr: float = 3e-4
    batch: int = 256
    buffer: int = 50_000
    epsilon: float = 0.05
    heuristic_share: float = 0.5
    guide: float = 0.0
    learn_heuristic: bool = True
    updates_per_game: int = 2
    eval_every: int = 1000
    eval_games: int = 40
    method: str = "dmc"        # or "ppo"
    rollout: int = 4096        # PPO: decisions collected before each round of updates


def build_model(obs_size: int, hidden: list[int], num_actions: int) -> nn.Sequential:
    sizes = [obs_size, *hidden]
    layers: list[nn.Module] = []
    for a, b in zip(sizes, sizes[1:]):
        layers += [nn.Linear(a, b), nn.ReLU()]
    layers.append(nn.Linear(sizes[-1], num_actions))
    return nn.Sequential(*layers)


def to_net(model: nn.Sequential, spec: str, value_head: bool = False) -> Net:
    """The numpy network of the model's current weights (without PPO's value output)."""
    linears = [m for m in model if isinstance(m, nn.Linear)]
    layers = [(m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy()) for m in linears]
    if value_head:
        w, b = layers[-1]
        layers[-1] = (w[:, :-1].copy(), b[:-1].copy())
    return Net(layers, spec)


def export(model: nn.Sequential, spec: str, path: Path, value_head: bool = False) -> None:
    net = to_net(model, spec, value_head)
    save_net(path, net.layers, spec)


class Trainer:
    """A resumable training run in `folder`."""

    def __init__(self, folder: Path, config: Config) -> None:
        self.folder = folder
        ckpt_path = folder / "checkpoint.pt"
        self.ckpt: dict[str, Any] | None = None
        if ckpt_path.is_file():
            try:
                self.ckpt = torch.load(ckpt_path, weights_only=False)
                stored = Config(**self.ckpt["config"])
            except Exception as exc:
                raise OptionError("train.bad_checkpoint", path=str(ckpt_path),
                                  detail=f"{type(exc).__name__}: {exc}") from None
            if stored.spec != config.spec:
                raise OptionError("train.other_game", path=str(ckpt_path), spec=stored.spec, game=config.spec)
            config = stored
        self.config = config
        self.table = Table(config.spec)
        if self.table.index.subset_verbs:
            raise OptionError("train.subset", game=config.spec)
        self.heuristic = self.table.game.heuristic_bot()
        if config.method not in ("dmc", "ppo"):
            raise OptionError("train.bad_method", method=config.method)
        self.ppo = config.method == "ppo"
        torch.manual_seed(config.seed)
        self.model = build_model(self.table.obs_size, config.hidden, self.table.num_actions + self.ppo)
        self.optim = torch.optim.Adam(self.model.parameters(), lr=config.lr)
        self.rng = np.random.default_rng(config.seed)
        self.updates = self.games = 0
        self.seconds = 0.0
        self.loss = float("nan")
        self.best = -1.0
        self.losses: list[float] = []
        if self.ckpt is not None:
            c = self.ckpt
            self.model.load_state_dict(c["model"])
            self.optim.load_state_dict(c["optim"])
            self.updates, self.games, self.seconds = c["updates"], c["games"], c["seconds"]
            self.loss, self.best = c["loss"], c["best"]
            self.rng.bit_generator.state = c["rng"]
            torch.set_rng_state(c["torch_rng"])
        self.replay = Replay(config.buffer if not self.ppo else 1, self.table.obs_size)
        self.rollout = new_rollout()

    @property
    def resumed(self) -> bool:
        return self.ckpt is not None

    def save(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        state = {"config": asdict(self.config), "model": self.model.state_dict(), "optim": self.optim.state_dict(),
                 "updates": self.updates, "games": self.games, "seconds": self.seconds, "loss": self.loss,
                 "best": self.best, "rng": self.rng.bit_generator.state, "torch_rng": torch.get_rng_state()}
        tmp = self.folder / "checkpoint.pt.tmp"
        torch.save(state, tmp)
        tmp.replace(self.folder / "checkpoint.pt")
        export(self.model, self.config.spec, self.folder / "weights.npz", self.ppo)

    def seats(self) -> list[bool]:
        """Which seats the heuristic takes this game (never all of them)."""
        n = self.table.players
        seats = [bool(self.rng.random() < self.config.heuristic_share) for _ in range(n)]
        if all(seats):
            seats[int(self.rng.integers(n))] = False
        return seats

    def game(self) -> None:
        """Play one game into the replay buffer (PPO: the rollout)."""
        c = self.config
        net = to_net(self.model, c.spec, self.ppo)
        if self.ppo:
            play_sampled(self.table, c.seed * 1_000_003 + self.games, net, self.seats(), self.rng, self.heuristic,
                         self.rollout)
            self.games += 1
            return
        ep = play_episode(self.table, c.seed * 1_000_003 + self.games, net, self.seats(), c.epsilon, self.rng,
                          self.heuristic, c.learn_heuristic, c.guide)
        self.replay.add(ep)
        self.games += 1

    def learn(self) -> Iterator[float]:
        """The gradient steps the games so far call for; yields each loss."""
        c = self.config
        if self.ppo:
            if len(self.rollout) >= c.rollout:
                data, self.rollout = self.rollout, new_rollout()
                for loss in ppo_steps(self.model, self.optim, data, self.rng, c.batch):
                    self.track(loss)
                    yield loss
        elif self.replay.size >= c.batch:
            for _ in range(c.updates_per_game):
                yield self.update()

    def track(self, value: float) -> None:
        self.loss = value if self.loss != self.loss else 0.98 * self.loss + 0.02 * value
        self.losses.append(value)

    def update(self) -> float:
        obs, actions, returns = self.replay.sample(self.rng, self.config.batch)
        q = self.model(torch.from_numpy(obs))
        chosen = q.gather(1, torch.from_numpy(actions).unsqueeze(1)).squeeze(1)
        loss = torch.mean((chosen - torch.from_numpy(returns)) ** 2)
        self.optim.zero_grad()
        torch.autograd.backward(loss)
        self.optim.step()
        value = float(loss.item())
        self.track(value)
        return value

    def evaluate(self, command: str) -> dict[str, Any]:
        c = self.config
        result = evaluate(self.table, to_net(self.model, c.spec, self.ppo), c.eval_games)
        row = {"updates": self.updates, "games": self.games, "minutes": self.seconds / 60, "loss": self.loss,
               "eval": result}
        self.folder.mkdir(parents=True, exist_ok=True)
        append_eval(self.folder, row)
        if result["rate"] > self.best:
            self.best = result["rate"]
            export(self.model, c.spec, self.folder / "best.npz", self.ppo)
        self.save()
        write_report(self.folder, c.spec, command)
        return row

    def run(self, steps: int | None, minutes: float | None, command: str,
            progress: Callable[[dict[str, Any]], None] = lambda info: None) -> None:
        """Train until `steps` updates in all (a resumed run counts its earlier ones) or
        `minutes` of this call, whichever comes first; evaluate every ``eval_every`` updates."""
        c = self.config
        start = time.monotonic()
        last = start
        info: dict[str, Any] = {}
        try:
            while True:
                now = time.monotonic()
                self.seconds += now - last
                last = now
                if steps is not None and self.updates >= steps:
                    break
                if minutes is not None and now - start >= minutes * 60:
                    break
                self.game()
                for _ in self.learn():
                    self.updates += 1
                    if self.updates % c.eval_every == 0:
                        info["eval"] = self.evaluate(command)["eval"]
                info.update(updates=self.updates, games=self.games, loss=self.loss, elapsed=now - start)
                progress(info)
        finally:
            self.save()
            write_report(self.folder, c.spec, command)
