"""PPO with a legal-action mask (as MaskablePPO): the alternative to Deep Monte Carlo.

The same MLP gives one logit per action index and, in one extra output, the state's value.
Network seats sample from the softmax over their legal actions; each decision's return is the
player's final return (Monte Carlo, no discount), its advantage that return less the value.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Sequence

import numpy as np
import torch

from ..adapters.driver import Seat, Table
from ..bots.learned import Net
from ..sim import bot_rng
from .selfplay import heuristic_index, play_training_game


@dataclass
class Rollout:
    """On-policy decisions: observations, legal masks, actions, their log-probabilities, returns."""
    obs: list[np.ndarray]
    masks: list[np.ndarray]
    actions: list[int]
    logp: list[float]
    returns: list[float]

    def __len__(self) -> int:
        return len(self.actions)


def new_rollout() -> Rollout:
    return Rollout([], [], [], [], [])


def play_sampled(table: Table, seed: int, net: Net, heuristic_seats: Sequence[bool], rng: np.random.Generator,
                 heuristic: Any, into: Rollout) -> None:
    """Play game `seed` (network seats sample their policy) and add its network decisions."""
    rngs = [bot_rng(seed, p) for p in range(table.players)]
    start = len(into)
    who: list[int] = []

    def decide(seat: Seat, p: int, legal: list[int]) -> int:
        if heuristic_seats[p]:
            return heuristic_index(table, seat, p, legal, heuristic, rngs[p])
        o = seat.observe(p)
        logits = net.values(o)[legal]
        z = np.exp(logits - logits.max())
        probs = z / z.sum()
        k = int(rng.choice(len(legal), p=probs))
        mask = np.zeros(table.num_actions, dtype=bool)
        mask[legal] = True
        into.obs.append(o.astype(np.float16))
        into.masks.append(mask)
        into.actions.append(legal[k])
        into.logp.append(float(np.log(probs[k] + 1e-12)))
        who.append(p)
        return legal[k]

    ret = play_training_game(table, seed, decide).returns()
    into.returns.extend(ret[p] for p in who)
    assert len(into.returns) == start + len(who)


def ppo_steps(model: torch.nn.Module, optim: torch.optim.Optimizer, data: Rollout, rng: np.random.Generator,
              batch: int, epochs: int = 4, clip: float = 0.2, entropy: float = 0.01) -> Iterator[float]:
    """Clipped-surrogate updates over `data`, `epochs` passes of minibatches; yields each loss."""
    obs = torch.from_numpy(np.stack(data.obs).astype(np.float32))
    masks = torch.from_numpy(np.stack(data.masks))
    actions = torch.tensor(data.actions, dtype=torch.int64)
    old = torch.tensor(data.logp, dtype=torch.float32)
    returns = torch.tensor(data.returns, dtype=torch.float32)
    n = len(data)
    for _ in range(epochs):
        order = rng.permutation(n)
        for s in range(0, n, batch):
            i = torch.from_numpy(order[s:s + batch])
            out = model(obs[i])
            logits, value = out[:, :-1], out[:, -1]
            logits = logits.masked_fill(~masks[i], -1e9)
            logp_all = torch.log_softmax(logits, dim=1)
            logp = logp_all.gather(1, actions[i].unsqueeze(1)).squeeze(1)
            adv = returns[i] - value.detach()
            adv = (adv - adv.mean()) / (adv.std() + 1e-8) if len(i) > 1 else adv
            ratio = torch.exp(logp - old[i])
            policy = -torch.min(ratio * adv, torch.clamp(ratio, 1 - clip, 1 + clip) * adv).mean()
            probs = torch.exp(logp_all) * masks[i]
            ent = -(probs * logp_all.masked_fill(~masks[i], 0.0)).sum(1).mean()
            loss = policy + 0.5 * torch.mean((value - returns[i]) ** 2) - entropy * ent
            optim.zero_grad()
            torch.autograd.backward(loss)
            torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
            optim.step()
            yield float(loss.item())
