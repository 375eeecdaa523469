"""Skill against luck: how often a stronger bot beats weaker ones, in each variant.

For each step up the ladder (random → heuristic → ismcts:N), one stronger bot plays against
weaker ones in every seat in turn; its win rate against the fair share 1/P says how much the
game rewards better play. A game of pure luck gives the stronger bot 1/P; a game of pure
skill, nearly 1."""
from __future__ import annotations

import tempfile
from dataclasses import dataclass
from typing import Any

from ..sim import wilson
from .analysis import analyse
from .experiment import Experiment
from .runner import Progress, run
from .store import ResultStore

DEFAULT_LEVELS = ("random", "heuristic", "ismcts:200")


@dataclass
class SkillRow:
    variant: str
    weaker: str
    stronger: str
    games: int
    rate: float
    ci95: tuple[float, float]
    fair: float

    @property
    def edge(self) -> float:
        """How far above the fair share the stronger bot wins (0: luck alone; 1 - fair: skill)."""
        return self.rate - self.fair

    def to_json(self) -> dict[str, Any]:
        return {"variant": self.variant, "weaker": self.weaker, "stronger": self.stronger, "games": self.games,
                "rate": self.rate, "ci95": list(self.ci95), "fair": self.fair, "edge": self.edge}


def measure(game: str, options: dict[str, str], variants: list[tuple[str, dict[str, str]]], levels: list[str],
            games: int, seed: int, workers: int, max_steps: int,
            progress: Progress | None = None, ray: Any = None) -> list[SkillRow]:
    rows = []
    for label, opts in variants:
        for weaker, stronger in zip(levels, levels[1:]):
            probe = Experiment.make(game, {**options, **opts}, [], [stronger, weaker], 2, seed, max_steps)
            players = int(probe.options["players"])
            bots = [stronger] + [weaker] * (players - 1)
            exp = Experiment.make(game, {**options, **opts}, [], bots, games, seed, max_steps)
            with tempfile.TemporaryDirectory() as folder:
                store = ResultStore(folder)
                try:
                    run(exp, store, workers, progress, with_leads=False, ray=ray)
                    a = analyse(list(store.rows()), [v.label for v in exp.variants])
                finally:
                    store.close()
            mean = a.variants[0].means.get(f"bot_won:{stronger}", (0.0, 0.0, 0.0))[0]
            n = a.variants[0].games
            rows.append(SkillRow(label, weaker, stronger, n, mean, wilson(mean * n, n), 1 / players))
    return rows
