"""One training game on the adapters' `Seat`: network seats act ε-greedily, heuristic seats
act as the game's heuristic bot does; every decision with a choice becomes a transition
(observation, action index, the acting player's final return)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

from ..adapters.driver import Seat, Table
from ..bots.learned import Net
from ..sim import MAX_STEPS, bot_rng


@dataclass
class Episode:
    """What one game gave: observations [k, obs] (float16), actions [k], returns [k]."""
    obs: np.ndarray
    actions: np.ndarray
    returns: np.ndarray
    steps: int


def greedy(q: np.ndarray, legal: Sequence[int]) -> int:
    """The legal index of highest value; the lowest index among equals."""
    scores = q[list(legal)]
    return int(legal[int(np.argmax(scores))])


def play_training_game(table: Table, seed: int, decide: Callable[[Seat, int, list[int]], int]) -> Seat:
    """Play game `seed` to its end (or `MAX_STEPS`): where the player to act has a choice,
    `decide(seat, player, legal)` gives the index to play. The seat at the end."""
    seat: Seat = table.new(seed)
    for _ in range(MAX_STEPS):
        p = seat.current_player()
        if p is None:
            break
        legal = seat.legal()
        seat.step(legal[0] if len(legal) == 1 else decide(seat, p, legal))
    return seat


def heuristic_index(table: Table, seat: Seat, player: int, legal: list[int], heuristic: Any, rng: Any) -> int:
    """The index of the action the game's heuristic bot chooses for `player`."""
    choice = heuristic.act(seat.state.view(player), [seat.action_of(j) for j in legal], rng)
    return table.index_of(choice, seat.state)


def play_episode(table: Table, seed: int, net: Net, heuristic_seats: Sequence[bool], epsilon: float,
                 rng: np.random.Generator, heuristic: Any = None, learn_heuristic: bool = True,
                 guide: float = 0.0) -> Episode:
    """Play game `seed`; seat p is the heuristic when ``heuristic_seats[p]``, else the network
    (a uniformly random legal index with probability `epsilon`, the heuristic's choice with
    probability `guide`). With `learn_heuristic` the heuristic seats' decisions are kept too
    (Monte Carlo returns of the mixed play)."""
    rngs = [bot_rng(seed, p) for p in range(table.players)]
    obs: list[np.ndarray] = []
    acts: list[int] = []
    who: list[int] = []

    def decide(seat: Seat, p: int, legal: list[int]) -> int:
        by_heuristic = heuristic_seats[p]
        o = seat.observe(p) if learn_heuristic or not by_heuristic else None
        u = 1.0 if by_heuristic else rng.random()
        if by_heuristic or epsilon <= u < epsilon + guide:
            i = heuristic_index(table, seat, p, legal, heuristic, rngs[p])
        elif u < epsilon:
            i = legal[int(rng.integers(len(legal)))]
        else:
            assert o is not None
            i = greedy(net.values(o), legal)
        if o is not None:
            obs.append(o.astype(np.float16))
            acts.append(i)
            who.append(p)
        return i

    seat = play_training_game(table, seed, decide)
    ret = seat.returns()
    width = table.obs_size
    return Episode(np.stack(obs) if obs else np.zeros((0, width), np.float16),
                   np.asarray(acts, dtype=np.int64), np.asarray([ret[p] for p in who], dtype=np.float32),
                   seat.state.steps)


class Replay:
    """A ring buffer of the latest transitions."""

    def __init__(self, capacity: int, obs_size: int) -> None:
        self.obs = np.zeros((capacity, obs_size), np.float16)
        self.actions = np.zeros(capacity, np.int64)
        self.returns = np.zeros(capacity, np.float32)
        self.capacity = capacity
        self.size = 0
        self.at = 0

    def add(self, ep: Episode) -> None:
        for k in range(len(ep.actions)):
            self.obs[self.at], self.actions[self.at], self.returns[self.at] = ep.obs[k], ep.actions[k], ep.returns[k]
            self.at = (self.at + 1) % self.capacity
            self.size = min(self.size + 1, self.capacity)

    def sample(self, rng: np.random.Generator, batch: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        i = rng.integers(self.size, size=batch)
        return self.obs[i].astype(np.float32), self.actions[i], self.returns[i]
