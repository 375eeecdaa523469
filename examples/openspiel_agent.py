#!/usr/bin/env python3
"""OpenSpiel's MCTS bot against takujo's bots, through OpenSpiel.

The agent sits in player 0 of an OpenSpiel game loaded with ``pyspiel.load_game``; takujo's
bots (``takujo.bots.make_bot``, wrapped as OpenSpiel bots by
``takujo.adapters.openspiel.TakujoBot``) play every other seat; OpenSpiel's own
``evaluate_bots`` plays the games. The agent is OpenSpiel's ``MCTSBot`` made fair for a game
of hidden cards: at each decision it searches --worlds states sampled from its own
information state (``state.resample_from_infostate``: the hidden cards and the future dice
drawn anew) and plays the action most searches chose (determinized MCTS). Its leaves are
scored by a short random rollout and then the game's evaluation (``Game.estimate``) of the
sampled state. A uniformly random legal agent is evaluated over the same deals beside it,
and both win rates are printed (a win is the agent's share of the victory, 1/k of k winners).

    python3 examples/openspiel_agent.py                     # sengoku_taisen vs the heuristic
    python3 examples/openspiel_agent.py --game "fuutei(players=2)" --bot random --games 50

Needs numpy and open_spiel (pip install "takujo[rl]"); no deep-learning framework.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

try:
    import takujo  # noqa: F401
except ImportError:  # run from a checkout
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pyspiel  # type: ignore[import-not-found]  # noqa: E402
from open_spiel.python.algorithms import mcts  # type: ignore[import-untyped]  # noqa: E402
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots  # type: ignore[import-untyped]  # noqa: E402

from takujo.adapters import openspiel as takujo_openspiel  # noqa: E402

AGENT = 0


class RolloutEstimate(mcts.Evaluator):  # type: ignore[misc]
    """Leaf values: `depth` random actions, then the finished returns or, if the game goes
    on, the game's evaluation of the (sampled) state: each player's rough chance to win."""

    def __init__(self, depth: int, rng: np.random.RandomState) -> None:
        self.depth = depth
        self.rng = rng

    def evaluate(self, state: Any) -> np.ndarray:
        working = state.clone()
        for _ in range(self.depth):
            if working.is_terminal():
                break
            legal = working.legal_actions()
            working.apply_action(legal[self.rng.randint(len(legal))])
        if working.is_terminal():
            return np.array(working.returns())
        engine = working.seat.state
        return np.array(engine.game.estimate(engine))

    def prior(self, state: Any) -> list[tuple[int, float]]:
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


class DeterminizedMCTS(pyspiel.Bot):  # type: ignore[misc]
    """OpenSpiel's MCTSBot run on `worlds` states sampled from the player's information
    state; the action chosen most often (ties: the first world's)."""

    def __init__(self, game: Any, player: int, simulations: int, worlds: int, depth: int,
                 seed: int) -> None:
        pyspiel.Bot.__init__(self)
        self.player = player
        self.worlds = worlds
        self.rng = np.random.RandomState(seed)
        self.search = mcts.MCTSBot(game, uct_c=1.4, max_simulations=simulations,
                                   evaluator=RolloutEstimate(depth, self.rng), solve=False,
                                   random_state=self.rng)

    def restart_at(self, state: Any) -> None:
        pass

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        pass

    def step(self, state: Any) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        votes: Counter[int] = Counter()
        for _ in range(self.worlds):
            world = state.resample_from_infostate(self.player, self.rng.random_sample)
            votes[int(self.search.step(world))] += 1
        return votes.most_common(1)[0][0]


class UniformRandom(pyspiel.Bot):  # type: ignore[misc]
    """A uniformly random legal action."""

    def __init__(self, seed: int) -> None:
        pyspiel.Bot.__init__(self)
        self.rng = np.random.RandomState(seed)

    def restart_at(self, state: Any) -> None:
        pass

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        pass

    def step(self, state: Any) -> int:
        legal = state.legal_actions()
        return int(legal[self.rng.randint(len(legal))])


def play(game: Any, agent: Any, bot: str, games: int, seed: int) -> float:
    """The agent's mean return in player 0 over `games` deals (seeds seed, seed+1, …)."""
    total = 0.0
    chance = np.random.RandomState(seed)
    for g in range(games):
        bots = [agent] + [takujo_openspiel.TakujoBot(game, p, bot, seed=seed * 1000 + g * 10 + p)
                          for p in range(1, game.num_players())]
        state = game.state_for_seed(seed + g)      # the same deal for every agent
        total += evaluate_bots(state, bots, chance)[AGENT]
    return total / games


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="sengoku_taisen", help="a takujo game string (default: %(default)s)")
    ap.add_argument("--bot", default="heuristic", help="takujo's bot in the other seats: random, heuristic, "
                                                    "ismcts:N (default: %(default)s)")
    ap.add_argument("--games", type=int, default=20, help="games per agent (default: %(default)s)")
    ap.add_argument("--simulations", type=int, default=32, help="MCTS simulations per world (default: %(default)s)")
    ap.add_argument("--worlds", type=int, default=2, help="sampled worlds searched per decision (default: %(default)s)")
    ap.add_argument("--depth", type=int, default=4, help="random actions before a leaf is estimated (default: %(default)s)")
    ap.add_argument("--seed", type=int, default=1, help="first deal (default: %(default)s)")
    args = ap.parse_args(argv)
    if args.games < 1 or args.simulations < 1 or args.worlds < 1 or args.depth < 0:
        ap.error("--games, --simulations and --worlds must be at least 1, --depth at least 0")

    try:
        game = takujo_openspiel.load(args.game)
    except (ValueError, pyspiel.SpielError) as exc:
        ap.error(f"--game {args.game!r}: {exc}")
    print(f"{game.get_type().short_name}: {game.num_players()} players, {game.num_distinct_actions()} actions; "
          f"agent in player 0, takujo's {args.bot!r} bot elsewhere, {args.games} games each")
    agents = {
        f"mcts ({args.worlds} world(s) x {args.simulations} simulations)":
            DeterminizedMCTS(game, AGENT, args.simulations, args.worlds, args.depth, args.seed),
        "uniform random": UniformRandom(args.seed),
    }
    for label, agent in agents.items():
        t0 = time.perf_counter()
        rate = play(game, agent, args.bot, args.games, args.seed)
        print(f"  {label}: win rate {rate:.3f} ({time.perf_counter() - t0:.1f} s)")
    print(f"  (an even share would be {1 / game.num_players():.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
