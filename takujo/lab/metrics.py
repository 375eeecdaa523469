"""What one game of an experiment measures: a flat dict of numbers, one row of the results.

For every game: its length (turns, steps), each seat's win (a shared win counts 1/k), each
bot's (``bot_won:<bot>``, summed over its seats), the
win of each side that sits at a seat (deck, knight, faction: ``won:<label>``, per seat it
holds, so a deck on both sides of a mirror match wins 1/2), whether the
first player won, how the game ended (``ended:<reason>``), the lead changes (the leader by
the game's own `estimate()` after each step), and the game's own figures (`State.stats`:
anger explosions, regions changing hands, walls left, the VP spread …).
"""
from __future__ import annotations

import re
from typing import Any, Iterable

from ..core.game import Game
from ..core.state import State
from ..sim import GameResult


#: The lab's own metrics that are rates: a share of games (a shared win counts 1/k).
_RATE = re.compile(r"^(seat\d+_won|bot_won:.*|won:.*|ended:.*|first_player_won|no_winner)$")
#: The lab's own metrics that are not: counts and lengths.
_NOT_RATE = frozenset({"turns", "steps", "lead_changes"})


def is_rate(name: str, values: Iterable[float] = ()) -> bool:
    """Whether a metric is a proportion (its interval is then Wilson's): the lab's wins and
    endings by name; a game's own figure when it is a flag, every value 0 or 1 (the
    mulligan taken or not)."""
    if _RATE.match(name):
        return True
    if name in _NOT_RATE:
        return False
    seen = False
    for v in values:
        if v not in (0.0, 1.0):
            return False
        seen = True
    return seen


def metric_value(name: str, metrics: dict[str, float]) -> float | None:
    """A game's value of a metric as the lab counts it: None where the metric does not apply
    (``won:<side>`` of a side that did not sit in this game), 0 where the game did not record
    it (``ended:<reason>`` of another ending), else the recorded value."""
    if name in metrics:
        return metrics[name]
    return None if name.startswith("won:") else 0.0


def lead_changes(game: Game, seed: int, final: State) -> int:
    """How often the leader (the highest `estimate()`, ties ignored) changed over the game,
    replaying its actions from the seed."""
    state: State = game.new_state(seed)
    leader: int | None = None
    changes = 0
    for event in final.log:
        if event["e"] != "act":
            continue
        state.apply(event["action"], event["player"])
        est = state.estimate()
        best = max(est)
        if est.count(best) != 1:
            continue
        now = est.index(best)
        if leader is not None and now != leader:
            changes += 1
        leader = now
    return changes


def game_metrics(game: Game, seed: int, state: State, result: GameResult,
                 with_leads: bool = True) -> dict[str, float]:
    out: dict[str, float] = {"turns": float(result.turns), "steps": float(result.steps)}
    share = 1 / len(result.winners) if result.winners else 0.0
    for seat in range(game.players):
        out[f"seat{seat}_won"] = share if seat in result.winners else 0.0
    for seat, bot in enumerate(result.seats if len(set(result.seats)) > 1 else ()):
        key = f"bot_won:{bot}"
        out[key] = out.get(key, 0.0) + (share if seat in result.winners else 0.0)
    seats_of: dict[str, list[int]] = {}
    for seat, label in enumerate(result.labels):
        seats_of.setdefault(label, []).append(seat)
    for label, seats in seats_of.items():  # per seat it sits at: a mirror match counts 1/2 each
        out[f"won:{label}"] = sum(share for s in seats if s in result.winners) / len(seats)
    if result.first is not None:
        out["first_player_won"] = share if result.first in result.winners else 0.0
    out[f"ended:{result.reason}"] = 1.0
    out["no_winner"] = 0.0 if result.winners else 1.0
    if with_leads:
        out["lead_changes"] = float(lead_changes(game, seed, state))
    for key, value in result.stats.items():
        out[key] = float(value)
    return out


def row_to_json(variant: str, seed: int, rotation: int, result: GameResult, metrics: dict[str, float]) -> dict[str, Any]:
    return {"variant": variant, "seed": seed, "rotation": rotation, "game": result.game,
            "seats": result.seats, "winners": result.winners, "reason": result.reason,
            "steps": result.steps, "turns": result.turns, "labels": result.labels, "metrics": metrics}
