"""Train sb3-contrib's MaskablePPO in one seat of a takujo game against takujo's bots.

    python3 examples/train_maskable_ppo.py [--game G] [--opponents B] [--timesteps T]
                                          [--games N] [--seed S]

The learner sits in player 0 of game G (default ドラフト戦国大名 with four players) and every
other seat is bot B (default "random"). It prints the learner's win rate over N evaluation
games (the same deals each time) before training and after T timesteps of MaskablePPO.
Needs the train extra: pip install "takujo[rl,train]".
"""
from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from takujo.adapters.gymnasium import TakujoEnv, env

#: the evaluation games' seeds start here (training draws its own from --seed)
EVAL_SEEDS = 1_000_000


def win_rate(model: Any, game: TakujoEnv, games: int) -> float:
    """The share of `games` evaluation games the model wins (a shared win counts 1/k)."""
    total = 0.0
    for k in range(games):
        obs, _ = game.reset(seed=EVAL_SEEDS + k)
        done, reward = False, 0.0
        while not done:
            action, _ = model.predict(obs, action_masks=game.action_masks(), deterministic=True)
            obs, reward, terminated, truncated, _ = game.step(action)
            done = terminated or truncated
        total += reward
    return total / games


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="draft_daimyo(players=4)", help="a takujo game string")
    ap.add_argument("--opponents", default="random", help="the bot in every other seat (random, heuristic, ismcts:N)")
    ap.add_argument("--timesteps", type=int, default=2048, help="training timesteps (learner actions)")
    ap.add_argument("--games", type=int, default=20, help="evaluation games before and after")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    if args.timesteps < 1 or args.games < 1:
        ap.error("--timesteps and --games must be positive")
    try:
        train = env(args.game, opponents=args.opponents, seat=0)
        test = env(args.game, opponents=args.opponents, seat=0)
    except ValueError as exc:
        ap.error(str(exc))
    import torch                        # the arguments are checked before the slow imports
    from sb3_contrib import MaskablePPO
    torch.set_num_threads(1)            # small networks: threads only contend
    train.reset(seed=args.seed)
    model = MaskablePPO("MlpPolicy", train, n_steps=min(2048, max(64, args.timesteps)),
                        batch_size=64, seed=args.seed, verbose=0, device="cpu")
    start = time.time()
    before = win_rate(model, test, args.games)
    print(f"{args.game} against {args.opponents}: win rate before training {before:.3f} "
          f"over {args.games} games")
    model.learn(total_timesteps=args.timesteps)
    after = win_rate(model, test, args.games)
    print(f"win rate after {args.timesteps} timesteps of MaskablePPO: {after:.3f} "
          f"(the same {args.games} deals; {time.time() - start:.0f} s in all)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
