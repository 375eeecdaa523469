"""Information-set Monte Carlo tree search (single observer), acting on views only.

Each iteration samples a world with ``game.determinize(view, rng)`` on the bot's own RNG,
descends the tree by UCT over the actions available in that world (availability counts, as
in Cowling, Powley & Whitehouse 2012), expands one node, plays a few steps on (at random, or
with the game's heuristic: ``ismcts:N:h``) and backs up each player's estimated share of the
win. Budgets: a number of iterations or seconds.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

from ..core.action import Action
from ..core.game import Game
from ..core.rng import Rng
from ..core.state import State

ROLLOUT_DEPTH = 40          # random steps after the tree, then the game's own estimate


@dataclass
class Node:
    player: int = -1                      # who chose the action leading here
    visits: int = 0
    reward: float = 0.0
    avail: int = 0                        # times this action was available
    children: dict[str, "Node"] = field(default_factory=dict)


class ISMCTS:
    """``ISMCTS(game, iterations=200)`` or ``ISMCTS(game, seconds=1.0)``."""

    def __init__(self, game: Game, iterations: int | None = 200, seconds: float | None = None,
                 exploration: float = 0.7, rollout_depth: int = ROLLOUT_DEPTH,
                 rollout_policy: Any = None) -> None:
        self.game = game
        self.depth = rollout_depth
        self.policy = rollout_policy          # None: uniform random; else a bot (e.g. the heuristic)
        self.iterations = iterations
        self.seconds = seconds
        self.c = exploration
        self.name = (f"ismcts:{iterations}" if seconds is None else f"ismcts:{seconds:g}s") + \
            (":h" if rollout_policy is not None else "")
        self.last_iterations = 0

    def act(self, view: dict[str, Any], legal: list[Action], rng: Rng) -> Action:
        if len(legal) == 1:
            return legal[0]
        me = view["player"]
        root = Node(player=me)
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        done = 0
        while True:
            if deadline is not None and time.perf_counter() >= deadline:
                break
            if deadline is None and done >= (self.iterations or 0):
                break
            world = self.game.determinize(view, rng.fork())
            self._iterate(world, root, me, rng)
            done += 1
        self.last_iterations = done
        by_key = {str(a): a for a in legal}
        best = max((k for k in root.children if k in by_key),
                   key=lambda k: (root.children[k].visits, root.children[k].reward), default=None)
        return by_key[best] if best is not None else legal[rng.below(len(legal))]

    def _iterate(self, state: State, root: Node, me: int, rng: Rng) -> None:
        node, path = root, [root]
        first = True
        while state.outcome is None:
            pend = state.pending
            p = me if first and me in pend.players else pend.players[0]
            first = False
            actions = state.legal_actions(p)
            if not actions:
                break              # a sampled world the hidden cards cannot carry on from
            keys = [str(a) for a in actions]
            for k in keys:
                child = node.children.get(k)
                if child is not None:
                    child.avail += 1
            untried = [i for i, k in enumerate(keys) if k not in node.children]
            if untried:
                i = untried[rng.below(len(untried))]
                child = node.children[keys[i]] = Node(player=p, avail=1)
                state.apply_unchecked(actions[i])
                path.append(child)
                break
            log_n = math.log(max(1, node.visits))
            i = max(range(len(keys)), key=lambda j: self._ucb(node.children[keys[j]], log_n))
            node = node.children[keys[i]]
            state.apply_unchecked(actions[i])
            path.append(node)
        rewards = self._rollout(state, rng)
        for n in path:
            n.visits += 1
            if n.player >= 0:
                n.reward += rewards[n.player]

    def _ucb(self, child: Node, log_parent: float) -> float:
        if child.visits == 0:
            return float("inf")
        return child.reward / child.visits + self.c * math.sqrt(math.log(max(1, child.avail)) / child.visits)

    def _rollout(self, state: State, rng: Rng) -> list[float]:
        """Random play for a few steps, then the game's estimate of each player's chances."""
        steps = 0
        while state.outcome is None and steps < self.depth:
            p = state.pending.players[0]
            actions = state.legal_actions(p)
            if not actions:
                break
            if self.policy is None:
                action = actions[rng.below(len(actions))]
            else:
                action = self.policy.act(state.view(p), actions, rng)
            state.apply_unchecked(action)
            steps += 1
        return state.estimate()
