#!/usr/bin/env python3
"""IS-MCTS speed: iterations per second from a mid-game position of every registered game.

    python3 bench/search.py [--seconds S] [--json]
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

try:
    import takujo
except ImportError:  # run from a checkout without installing
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import takujo

from takujo.bots.ismcts import ISMCTS
from takujo.core.rng import Rng

MIDGAME_STEPS = 120


def midgame(game, seed: int = 3):
    """The state halfway through a random game (at most MIDGAME_STEPS in)."""
    def play(limit: int):
        state = game.new_state(seed)
        rng = Rng(seed)
        while state.outcome is None and state.steps < limit:
            legal = state.legal_actions(state.pending.players[0])
            state.apply(legal[rng.below(len(legal))])
        return state

    full = play(10**6)
    limit = min(MIDGAME_STEPS, full.steps // 2)
    state = play(limit)
    while state.outcome is None and len(state.legal_actions(state.pending.players[0])) < 2:
        limit += 1
        state = play(limit)                       # a position with a real choice
    return state


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if not args.json:
        print(f"takujo {'compiled (setup.py)' if takujo.compiled() else 'pure Python'}")
    for name in takujo.names():
        game = takujo.load(name)
        state = midgame(game)
        p = state.pending.players[0]
        bot = ISMCTS(game, iterations=None, seconds=args.seconds)
        bot.act(state.view(p), state.legal_actions(p), Rng(1))
        rate = bot.last_iterations / args.seconds
        if args.json:
            print(json.dumps({"engine": "takujo", "game": name, "players": game.players,
                              "ismcts_iterations_per_s": round(rate, 1), "compiled": takujo.compiled()}))
        else:
            print(f"{str(game):40} {rate:8.0f} IS-MCTS iterations/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
