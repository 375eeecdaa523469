#!/usr/bin/env python3
"""A linear softmax agent trained by REINFORCE against takujo's bots, through PettingZoo.

The agent sits in player_0; takujo's bots (``takujo.bots.make_bot``) play every other seat
through the same AEC environment. The agent sees only what PettingZoo gives it: the
observation vector and the action mask. Its policy is a softmax over the legal actions of
``w[a] · observation + b[a]`` (one weight row per action, made the first time that action is
legal), trained for --train games by REINFORCE with a running-mean baseline on the end-of-game
reward (1/k for each of k winners, else 0). It is then evaluated over --games games, beside a
uniformly random legal agent over the same seeds, and both win rates are printed.

    python3 examples/pettingzoo_agent.py                         # sengoku_taisen vs random
    python3 examples/pettingzoo_agent.py --game "fuutei(players=3)" --bot heuristic --games 50

Needs numpy, pettingzoo and gymnasium (pip install "takujo[rl]"); no deep-learning framework.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

try:
    import takujo  # noqa: F401
except ImportError:  # run from a checkout
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from takujo.adapters.pettingzoo import env as make_env  # noqa: E402
from takujo.bots import make_bot  # noqa: E402
from takujo.core import Rng  # noqa: E402

AGENT = "player_0"


class LinearSoftmax:
    """A softmax over the legal actions of w[a]·x + b[a]; rows made lazily (zeros)."""

    def __init__(self, obs_size: int, lr: float, rng: np.random.Generator) -> None:
        self.obs_size, self.lr, self.rng = obs_size, lr, rng
        self.w: dict[int, np.ndarray] = {}
        self.b: dict[int, float] = {}
        self.baseline = 0.0

    def probs(self, x: np.ndarray, legal: np.ndarray) -> np.ndarray:
        zero = np.zeros(self.obs_size, np.float32)
        w = np.stack([self.w.get(int(a), zero) for a in legal])
        logits = w @ x + np.array([self.b.get(int(a), 0.0) for a in legal])
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()

    def act(self, x: np.ndarray, mask: np.ndarray, greedy: bool = False) -> tuple[int, tuple[Any, ...]]:
        legal = np.flatnonzero(mask)
        p = self.probs(x, legal)
        k = int(p.argmax()) if greedy else int(self.rng.choice(len(legal), p=p))
        return int(legal[k]), (x, legal, k, p)

    def learn(self, trajectory: list[tuple[Any, ...]], ret: float) -> None:
        """One REINFORCE update: grad log pi(a|x) = (onehot(a) - p) x, times the advantage."""
        adv = ret - self.baseline
        self.baseline += 0.05 * (ret - self.baseline)
        if adv == 0.0:
            return
        for x, legal, k, p in trajectory:
            g = -p
            g[k] += 1.0
            for a, ga in zip(legal, g):
                a = int(a)
                row = self.w.get(a)
                if row is None:
                    row = self.w[a] = np.zeros(self.obs_size, np.float32)
                row += (self.lr * adv * ga) * x
                self.b[a] = self.b.get(a, 0.0) + self.lr * adv * ga


def play(env: Any, bots: dict[str, Any], rng: Rng, seed: int, policy: LinearSoftmax | None,
         learn: bool = False, greedy: bool = False) -> float:
    """One game through the AEC API; player_0's final reward. With no policy, player_0 plays
    uniformly random legal actions (from the mask)."""
    env.reset(seed=seed)
    raw = env.unwrapped
    queued: dict[str, list[int]] = {}
    trajectory: list[tuple[Any, ...]] = []
    reward0 = 0.0
    for agent in env.agent_iter():
        if agent == AGENT:
            obs, reward, term, trunc, _ = env.last()
        else:
            obs, reward, term, trunc, _ = env.last(observe=False)
        if term or trunc:
            if agent == AGENT:
                reward0 = float(reward)
            env.step(None)
            continue
        if agent == AGENT:
            mask = obs["action_mask"]
            if policy is None:
                action = int(np.flatnonzero(mask)[rng.below(int(mask.sum()))])
            else:
                action, record = policy.act(obs["observation"], mask, greedy)
                trajectory.append(record)
        else:
            steps = queued.get(agent)
            if not steps:                 # a bot picks an engine action from its own view
                choice = bots[agent].act(raw.view(agent), raw.legal_actions(agent), rng)
                steps = queued[agent] = raw.action_indices(choice)
            action = steps.pop(0)
        env.step(action)
    if learn and policy is not None:
        policy.learn(trajectory, reward0)
    return reward0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="sengoku_taisen", help="a game string (default sengoku_taisen)")
    ap.add_argument("--games", type=int, default=100, help="evaluation games (default 100)")
    ap.add_argument("--train", type=int, default=200, help="training games before the evaluation (default 200)")
    ap.add_argument("--bot", default="random", help="takujo bot in the other seats: random, heuristic, ismcts:N")
    ap.add_argument("--lr", type=float, default=0.05, help="learning rate (default 0.05)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    if args.games < 1 or args.train < 0:
        ap.error("--games must be at least 1 and --train at least 0")

    t0 = time.perf_counter()
    env = make_env(args.game)
    raw = env.unwrapped
    bots = {a: make_bot(args.bot, raw.table.game) for a in raw.possible_agents if a != AGENT}
    rng = Rng(args.seed)
    policy = LinearSoftmax(raw.table.obs_size, args.lr, np.random.default_rng(args.seed))
    print(f"{raw.table.spec}: {raw.table.num_actions} actions, observation {raw.table.obs_size}; "
          f"{AGENT} against {args.bot} in {len(bots)} other seat(s)")

    for g in range(args.train):
        play(env, bots, rng, seed=args.seed * 1_000_003 + g, policy=policy, learn=True)
    t_train = time.perf_counter() - t0

    eval_seeds = [10**9 + args.seed * 1_000_003 + g for g in range(args.games)]   # unseen in training
    chance = 1.0 / raw.table.players
    rows = []
    for name, pol in (("random legal agent", None), ("linear agent (trained)", policy)):
        t = time.perf_counter()
        rewards = [play(env, bots, rng, seed=s, policy=pol) for s in eval_seeds]
        wins = sum(r > 0 for r in rewards)
        rows.append((name, wins / len(rewards), float(np.mean(rewards)), time.perf_counter() - t))
    print(f"trained on {args.train} games in {t_train:.1f} s ({len(policy.w)} action rows); "
          f"evaluated on {args.games} games (seat share 1/{raw.table.players} = {chance:.2f})")
    for name, rate, mean, dt in rows:
        print(f"  {name:<24} win rate {rate:.3f}  mean reward {mean:.3f}  ({dt:.1f} s)")
    print(f"total {time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
