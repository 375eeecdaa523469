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
from typing import TYPE_CHECKING, Any

from ..core.action import Action
from ..core.game import Game
from ..core.rng import Rng
from ..core.state import State

if TYPE_CHECKING:
    from . import Bot

EXPLORATION = 0.7           # UCT constant, on rewards rescaled to the spread seen in this search
PRIOR_WEIGHT = 1.0          # progressive bias toward the prior bot's choice: weight / (visits + 1)


@dataclass
class Node:
    player: int = -1                      # who chose the action leading here
    visits: int = 0
    reward: float = 0.0
    avail: int = 0                        # times this action was available
    children: dict[Action, "Node"] = field(default_factory=dict)


class CycleGuard:
    """Remembers, per player and game, the actions taken from each information state.

    Free moves (re-assigning guards, say) let a search procrastinate: every line that ends the
    turn later looks at least as good as ending it now, and the bot shuffles forever. A bot
    back in a position it already acted in uses this to choose something else."""

    def __init__(self) -> None:
        self.taken: dict[int, dict[int, set[Action]]] = {}
        self.log_len: dict[int, int] = {}

    def taken_here(self, view: dict[str, Any]) -> set[Action]:
        """The (mutable) set of actions already taken from this view's information state."""
        me = view["player"]
        if view["cursor"] < self.log_len.get(me, 0):
            self.taken[me] = {}                    # the log shrank: a new game
        self.log_len[me] = view["cursor"]
        key = hash(repr([view["zones"], view["public"], view["pending"], view["legal"]]))
        return self.taken.setdefault(me, {}).setdefault(key, set())


class ISMCTS:
    """``ISMCTS(game, iterations=200)`` or ``ISMCTS(game, seconds=1.0)``."""

    def __init__(self, game: Game, iterations: int | None = 200, seconds: float | None = None,
                 exploration: float = EXPLORATION, rollout_depth: int | None = None,
                 rollout_policy: Bot | None = None, prior: Bot | None = None) -> None:
        self.game = game
        self.depth = game.rollout_depth if rollout_depth is None else rollout_depth
        self.policy = rollout_policy          # None: uniform random; else a bot (e.g. the heuristic)
        self.prior = prior                    # a bot whose choice at the root is favoured early
        self.iterations = iterations
        self.seconds = seconds
        self.c = exploration
        self.name = (f"ismcts:{iterations}" if seconds is None else f"ismcts:{seconds:g}s") + \
            (":h" if rollout_policy is not None else "")
        self.last_iterations = 0
        self.cycles = CycleGuard()

    def act(self, view: dict[str, Any], legal: list[Action], rng: Rng) -> Action:
        if len(legal) == 1:
            return legal[0]
        tried = self.cycles.taken_here(view)
        fresh = [a for a in legal if a not in tried] or legal
        hint = self.prior.act(view, fresh, rng.fork()) if self.prior is not None else None
        if tried and hint is not None:
            choice = hint              # back in a position it acted in: the prior breaks the cycle
        else:
            choice = self._search(view, fresh, hint, rng)
        tried.add(choice)
        return choice

    def _search(self, view: dict[str, Any], legal: list[Action], hint: Action | None, rng: Rng) -> Action:
        me = view["player"]
        root = Node(player=me)
        self.lo, self.hi = math.inf, -math.inf
        self.hint = hint
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
        best = max((a for a in legal if a in root.children),
                   key=lambda a: (root.children[a].visits, root.children[a].reward), default=None)
        return best if best is not None else legal[rng.below(len(legal))]

    def _iterate(self, state: State, root: Node, me: int, rng: Rng) -> None:
        node, path = root, [root]
        first = True
        while state.outcome is None:
            pend = state.pending
            assert pend is not None       # the game is not over
            p = me if first and me in pend.players else pend.players[0]
            first = False
            actions = state.legal_actions(p)
            if not actions:
                break              # a sampled world the hidden cards cannot carry on from
            children = node.children
            for a in actions:
                child = children.get(a)
                if child is not None:
                    child.avail += 1
            untried = [a for a in actions if a not in children]
            if untried:
                a = untried[rng.below(len(untried))]
                if node is root and self.hint in untried:
                    a = self.hint                            # the prior's choice is tried first
                child = children[a] = Node(player=p, avail=1)
                state.apply_unchecked(a, pend)
                path.append(child)
                break
            hint = self.hint if node is root and self.hint in children else None
            bonus = self._prior_bonus(node, children[hint]) if hint is not None else 0.0
            a = max(actions, key=lambda a: self._ucb(children[a]) + (bonus if a == hint else 0.0))
            node = children[a]
            state.apply_unchecked(a, pend)
            path.append(node)
        rewards = self._rollout(state, rng)
        self.lo = min(self.lo, *rewards)
        self.hi = max(self.hi, *rewards)
        for n in path:
            n.visits += 1
            if n.player >= 0:
                n.reward += rewards[n.player]

    def _prior_bonus(self, root: Node, child: Node) -> float:
        """Progressive bias toward the prior's choice (``Game.prior_puct`` picks the kind)."""
        if self.game.prior_puct > 0:
            return self.game.prior_puct * math.sqrt(root.visits) / (child.visits + 1)
        return PRIOR_WEIGHT / (child.visits + 1)

    def _ucb(self, child: Node) -> float:
        """Mean reward rescaled to [0, 1] over the rewards seen so far (in a 4-player game
        shares of about 1/4 would otherwise drown in the exploration term), plus UCT with
        availability counts."""
        if child.visits == 0:
            return math.inf
        spread = self.hi - self.lo
        q = (child.reward / child.visits - self.lo) / spread if spread > 1e-9 else 0.5
        return q + self.c * math.sqrt(math.log(max(1, child.avail)) / child.visits)

    def _rollout(self, state: State, rng: Rng) -> list[float]:
        """Random play for a few steps, then the game's estimate of each player's chances."""
        steps = 0
        while state.outcome is None and steps < self.depth:
            pend, actions = state.first_choice()
            if not actions:
                break
            if self.policy is None:
                action = actions[rng.below(len(actions))]
            else:
                assert pend is not None   # it named the player whose actions these are
                action = self.policy.act(state.view(pend.players[0]), actions, rng)
            state.apply_unchecked(action, pend)
            steps += 1
        return state.estimate()
