"""A paired experiment: variants of one game played on the same seeds and seat rotations.

    exp = Experiment.make("ibara", {"players": "4"}, compare=["ryan_last=false,true"],
                          bots=["heuristic"], games=400, seed=1)
    for job in exp.jobs(): ...             # (variant, seed, rotation)

Each variant is the base game with the compared options set; `--compare` given twice gives
every combination. A job's game is seeded by its seed alone, so every variant deals the same
cards and rolls the same dice for it as far as its rules allow (the state keeps separate
streams for the cards and the dice; each seat's bot has its own stream). Each seed is played
in every rotation of the bot list over the seats when the bots differ.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any, Iterator

from ..core.errors import OptionError
from ..core.game import Game, parse_game_string
from ..core.registry import make_game
from ..sim import Series, seat_bots


#: Each process's games by (game, options): built once, reused by every batch it plays.
_SERIES: dict[tuple[str, tuple[tuple[str, str], ...]], Series] = {}


@dataclass(frozen=True)
class Variant:
    """One variant: its label (``ryan_last=true``) and the options it sets."""

    label: str
    options: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Job:
    variant: str
    seed: int
    rotation: int


def parse_compare(items: list[str]) -> list[list[tuple[str, str]]]:
    """``["ryan_last=false,true"]`` -> [[("ryan_last", "false"), ("ryan_last", "true")]]."""
    out = []
    seen = set()
    for item in items:
        key, sep, values = str(item).partition("=")
        key = key.strip()
        choices = [v.strip() for v in values.split(",")]
        if not sep or not key or len(choices) < 2 or any(not v for v in choices):
            raise OptionError("lab.bad_compare", item=str(item)[:80])
        if key in seen:
            raise OptionError("lab.compare_twice", option=key)
        if len(set(choices)) != len(choices):
            raise OptionError("lab.compare_same", option=key)
        seen.add(key)
        out.append([(key, v) for v in choices])
    return out


def _refuse_synonyms(variants: list[Variant], games: list[Game]) -> None:
    """Refuse two variants that the options model reads as the same game (``false`` and ``0``
    of a flag): they would play identical games, and a test on them would "decide" nothing."""
    seen: dict[str, Variant] = {}
    for v, g in zip(variants, games):
        twin = seen.setdefault(str(g), v)
        if twin is v:
            continue
        first, second = dict(twin.options), dict(v.options)
        key = next(k for k in first if first[k] != second[k])
        value = getattr(g.options, key, second[key])
        raise OptionError("lab.compare_synonyms", option=key, first=first[key], second=second[key],
                          value=_fmt_value(value))


def _fmt_value(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


@dataclass
class Experiment:
    """What to play: the game, its variants, the bots, the seeds."""

    game: str
    options: dict[str, str]
    variants: list[Variant]
    bots: list[str]
    seeds: list[int]
    rotations: int
    max_steps: int

    @classmethod
    def make(cls, game: str, options: dict[str, str], compare: list[str], bots: list[str], games: int,
             seed: int, max_steps: int) -> "Experiment":
        """Check everything before a game is played: each variant must load."""
        name, spec_opts = parse_game_string(game)
        base = {**spec_opts, **{k: str(v) for k, v in options.items()}}
        axes = parse_compare(compare)
        for axis in axes:
            if axis[0][0] in base:
                raise OptionError("lab.compare_fixed", option=axis[0][0])
        variants = []
        for combo in itertools.product(*axes) if axes else [()]:
            label = ",".join(f"{k}={v}" for k, v in combo) or "base"
            variants.append(Variant(label, tuple(combo)))
        players = make_game(name, None, base).players
        base["players"] = str(players)
        built = [make_game(name, players, {**base, **dict(v.options)}) for v in variants]  # a bad value: refused now
        _refuse_synonyms(variants, built)
        rotations = players if len(set(bots)) > 1 else 1   # every bot visits every seat
        seeds = list(range(seed, seed + max(1, math.ceil(games / rotations))))
        return cls(name, base, variants, list(bots), seeds, rotations, max_steps)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "options": self.options,
                "variants": [{"label": v.label, "options": dict(v.options)} for v in self.variants],
                "bots": self.bots, "seeds": [self.seeds[0], self.seeds[-1]], "rotations": self.rotations,
                "max_steps": self.max_steps}

    @property
    def games_per_variant(self) -> int:
        return len(self.seeds) * self.rotations

    def jobs(self) -> Iterator[Job]:
        """Every game, seed by seed, so that a partial run holds complete pairs."""
        for seed in self.seeds:
            for rotation in range(self.rotations):
                for v in self.variants:
                    yield Job(v.label, seed, rotation)

    def series(self, variant: str) -> Series:
        """The games of a variant, kept per process (an experiment sent to a worker carries
        no game objects: each worker builds its own once)."""
        v = next(x for x in self.variants if x.label == variant)
        options = {**self.options, **dict(v.options)}
        key = (self.game, tuple(sorted(options.items())))
        if key not in _SERIES:
            _SERIES[key] = Series(self.game, options)
        return _SERIES[key]

    def seats(self, rotation: int, players: int) -> list[str]:
        return seat_bots(self.bots, players, rotation)

    def variant_game(self, variant: str, seed: int) -> Game:
        return self.series(variant).game(seed)
