"""Bot-versus-bot simulation: many seeded games, rotating seats, win rates with 95% intervals.

    summary = run_games("toy", games=1000, seed=1, bots=["heuristic", "random"],
                        options={"players": 4}, workers=4)
    summary.seats[0].rate, summary.seats[0].ci95

Game ``i`` is played from ``game.new_state(seed + i)``; its seats are the bot list rotated by
``i`` (seat ``j`` gets ``bots[(i + j) % len(bots)]``), so every bot kind visits every seat. Bots
see only ``state.view(player)`` and ``state.legal_actions(player)`` and draw from their own
`Rng`, derived from the game's seed and the seat, so results do not depend on `workers`.
"""
from __future__ import annotations

import math
import statistics
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from .bots import Bot, make_bot
from .core.errors import OptionError
from .core import registry
from .core.game import Game, parse_game_string
from .core.rng import Rng
from .core.state import State
from .record import write_record

MAX_STEPS = 20_000
STEP_LIMIT = "step_limit"

Progress = Callable[[int, int], None]


# ----- statistics -------------------------------------------------------------------------
def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for `wins` successes out of `n` (95% for z=1.96)."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    center = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, center - half), min(1.0, center + half)


# ----- games and players ------------------------------------------------------------------
def checked_bot(name: str, game: Game) -> Bot:
    """`make_bot`, with a missing heuristic bot reported as an OptionError."""
    try:
        return make_bot(name, game)
    except NotImplementedError as exc:
        raise OptionError("bot.unavailable", name=name, detail=str(exc)) from None


def seat_bots(bots: Sequence[str], players: int, index: int) -> list[str]:
    """The bot names per seat in game `index`: the bot list, cycled, rotated by `index`."""
    k = len(bots)
    return [bots[(index + j) % k] for j in range(players)]


# ----- playing ----------------------------------------------------------------------------
class GameCrash(RuntimeError):
    """A game (or bot) raised while being played; the message says how to reproduce it."""

    def __init__(self, message: str, seed: int, seats: Sequence[str]) -> None:
        super().__init__(message)
        self.seed = seed
        self.seats = list(seats)

    def __reduce__(self) -> tuple[type[GameCrash], tuple[str, int, list[str]]]:  # picklable across worker processes
        return (GameCrash, (str(self), self.seed, self.seats))


@dataclass
class GameResult:
    seed: int
    seats: list[str]
    winners: list[int]
    reason: str
    steps: int
    turns: int
    labels: list[str] = field(default_factory=list)   # per seat: deck, faction … (if any)
    first: int | None = None                           # the seat that played first, if known
    game: str = ""                                     # the game string of this game
    stats: dict[str, float] = field(default_factory=dict)   # game-specific per-game figures

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "seats": self.seats, "winners": self.winners,
                "reason": self.reason, "steps": self.steps, "turns": self.turns,
                "labels": self.labels, "first": self.first, "game": self.game, "stats": self.stats}


def bot_rng(seed: int, seat: int) -> Rng:
    return Rng(seed * 7919 + seat).fork()


def play_game(game: Game, seats: Sequence[str], seed: int, bots: dict[str, Bot] | None = None,
              max_steps: int = MAX_STEPS, checked: bool = False) -> tuple[State, GameResult]:
    """Play one bot game from `game.new_state(seed)`; `seats` names each seat's bot.

    `bots` maps names to ready bots (others are made with `make_bot`). With `checked`, every
    bot action goes through `state.apply` (catching bots that answer an illegal action)."""
    cache = dict(bots or {})
    agents = []
    for name in seats:
        if name not in cache:
            cache[name] = checked_bot(name, game)
        agents.append(cache[name])
    rngs = [bot_rng(seed, p) for p in range(len(seats))]
    state = game.new_state(seed)
    try:
        _play_out(state, agents, rngs, max_steps, checked)
    except Exception as exc:
        raise GameCrash(f"{game} seed {seed} (seats {', '.join(seats)}), step {state.steps}: "
                        f"{type(exc).__name__}: {exc}", seed, seats) from exc
    out = state.outcome
    info = state.public_info()
    turns = info.get("turn")
    if not isinstance(turns, int):
        turns = state.steps
    first = info.get("first_player")
    result = GameResult(seed, list(seats), list(out.winners) if out else [],
                        out.reason if out else STEP_LIMIT, state.steps, int(turns),
                        state.seat_labels(), first if isinstance(first, int) else None, str(game),
                        state.stats())
    return state, result


def _play_out(state: State, agents: list[Bot], rngs: list[Rng], max_steps: int, checked: bool) -> None:
    apply = state.apply if checked else state.apply_unchecked
    while state.outcome is None and state.steps < max_steps:
        pend = state.pending
        if pend is None:
            raise RuntimeError("no outcome but no pending decision")
        acted = False
        for i, p in enumerate(pend.players):
            if i and (state.outcome is not None or p not in state.to_act):
                continue
            legal = state.legal_actions(p)
            if not legal:
                continue
            apply(agents[p].act(state.view(p), legal, rngs[p]))
            acted = True
        if not acted:
            raise RuntimeError(f"players {list(pend.players)} must act but have no legal action")


class Series:
    """The games of one simulation: a fixed game, or one varied per game by the game's
    `choose_options` (for instance a random pairing of starter decks)."""

    def __init__(self, game: Game | str, options: dict[str, Any] | None = None) -> None:
        self.fixed = game if isinstance(game, Game) else None
        self.spec = str(game)
        self.options = dict(options or {})
        self._cache: dict[str, Game] = {}
        self.base = self.fixed or registry.make_game(self.spec, options=self.options)

    def label(self, results: Sequence["GameResult"]) -> str:
        """The game string, or the base game marked as varied when games differed."""
        played = {r.game for r in results} or {str(self.base)}
        if len(played) == 1:
            return next(iter(played))
        return f"{self.base.name}(players={self.base.players}; options varied per game)"

    def game(self, seed: int) -> Game:
        if self.fixed is not None:
            return self.fixed
        cls = type(self.base)
        name, opts = parse_game_string(self.spec)
        opts = cls.choose_options({**opts, **self.options, "players": self.base.players}, Rng(seed).fork())
        key = repr(sorted(opts.items()))
        if key not in self._cache:
            self._cache[key] = cls(**opts)
        return self._cache[key]


def _play_chunk(series: Series, bots: list[str], seed: int, indices: list[int],
                record_dir: Path | None, max_steps: int, checked: bool) -> list[GameResult]:
    cache: dict[str, dict[str, Bot]] = {}
    return [_play_index(series, bots, seed, i, cache, record_dir, max_steps, checked) for i in indices]


def _play_index(series: Series, bots: list[str], seed: int, index: int,
                cache: dict[str, dict[str, Bot]], record_dir: Path | None, max_steps: int,
                checked: bool) -> GameResult:
    """Play game `index` of a series; `cache` keeps bots per game (they know its cards)."""
    s = seed + index
    game = series.game(s)
    seats = seat_bots(bots, game.players, index)
    state, result = play_game(game, seats, s, cache.setdefault(str(game), {}), max_steps, checked)
    if record_dir is not None:
        write_record(record_dir / f"game-{s}.jsonl", state, s, seats)
    return result


# ----- aggregation ------------------------------------------------------------------------
@dataclass
class Rate:
    wins: float
    games: int

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    def to_json(self) -> dict[str, Any]:
        lo, hi = self.ci95
        return {"wins": round(self.wins, 6), "games": self.games, "rate": round(self.rate, 6),
                "ci95": [round(lo, 6), round(hi, 6)]}


@dataclass
class Spread:
    mean: float
    sd: float
    min: float
    max: float

    @staticmethod
    def of(values: list[float]) -> "Spread":
        if not values:
            return Spread(0.0, 0.0, 0, 0)
        sd = statistics.stdev(values) if len(values) > 1 else 0.0
        return Spread(statistics.fmean(values), sd, min(values), max(values))

    def to_json(self) -> dict[str, Any]:
        return {"mean": round(self.mean, 4), "sd": round(self.sd, 4), "min": self.min, "max": self.max}


@dataclass
class Summary:
    """Aggregated results. A shared win among k winners counts 1/k for each of them.

    `seats[j]` is the win rate of seat j; `bots[name]` the win rate per seat played by that
    bot kind (so with P seats, a bot no better than the others wins about 1/P)."""

    game: str
    players: int
    seed: int
    bot_list: list[str]
    seats: list[Rate]
    bots: dict[str, Rate]
    turns: Spread
    steps: Spread
    reasons: dict[str, int]
    results: list[GameResult] = field(default_factory=list, repr=False)
    labels: dict[str, Rate] = field(default_factory=dict)
    first: Rate | None = None
    stats: dict[str, Spread] = field(default_factory=dict)

    @property
    def games(self) -> int:
        return len(self.results)

    @classmethod
    def of(cls, game: str, players: int, seed: int, bot_list: Sequence[str],
           results: Sequence[GameResult]) -> "Summary":
        seat_wins = [0.0] * players
        bot_wins: dict[str, float] = {b: 0.0 for b in bot_list}
        bot_games: dict[str, int] = {b: 0 for b in bot_list}
        for r in results:
            for name in r.seats:
                bot_games[name] = bot_games.get(name, 0) + 1
            for w in r.winners:
                share = 1 / len(r.winners)
                seat_wins[w] += share
                bot_wins[r.seats[w]] = bot_wins.get(r.seats[w], 0.0) + share
        n = len(results)
        reasons = Counter(r.reason for r in results)
        label_wins: dict[str, float] = {}
        label_games: dict[str, int] = {}
        first_wins, first_games = 0.0, 0
        for r in results:
            for seat, label in enumerate(r.labels):
                label_games[label] = label_games.get(label, 0) + 1
                if seat in r.winners:
                    label_wins[label] = label_wins.get(label, 0.0) + 1 / len(r.winners)
            if r.first is not None:
                first_games += 1
                if r.first in r.winners:
                    first_wins += 1 / len(r.winners)
        stat_names = sorted({k for r in results for k in r.stats})
        return cls(
            stats={k: Spread.of([r.stats.get(k, 0) for r in results]) for k in stat_names},
            labels={k: Rate(label_wins.get(k, 0.0), g) for k, g in sorted(label_games.items())},
            first=Rate(first_wins, first_games) if first_games else None,
            game=game, players=players, seed=seed, bot_list=list(bot_list),
            seats=[Rate(w, n) for w in seat_wins],
            bots={b: Rate(bot_wins.get(b, 0.0), g) for b, g in bot_games.items()},
            turns=Spread.of([r.turns for r in results]),
            steps=Spread.of([r.steps for r in results]),
            reasons=dict(reasons.most_common()),
            results=list(results),
        )

    def to_json(self, with_results: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": self.game, "players": self.players, "games": self.games, "seed": self.seed,
            "bots": self.bot_list,
            "seats": [{"seat": j, **rate.to_json()} for j, rate in enumerate(self.seats)],
            "per_bot": {name: rate.to_json() for name, rate in self.bots.items()},
            "length": {"turns": self.turns.to_json(), "steps": self.steps.to_json()},
            "reasons": self.reasons,
        }
        if self.labels:
            data["per_label"] = {name: rate.to_json() for name, rate in self.labels.items()}
        if self.first is not None:
            data["first_player"] = self.first.to_json()
        if self.stats:
            data["per_game"] = {k: v.to_json() for k, v in self.stats.items()}
        if with_results:
            data["results"] = [r.to_json() for r in self.results]
        return data


# ----- the driver -------------------------------------------------------------------------
def run_games(game_spec: str | Game, games: int, seed: int, bots: Sequence[str], workers: int = 1,
              record_dir: Path | str | None = None, options: dict[str, Any] | None = None,
              progress: Progress | None = None, max_steps: int = MAX_STEPS, checked: bool = False) -> Summary:
    """Play `games` bot games (see the module doc) and summarise them.

    `options` may hold ``players``; `progress(done, total)` is called as games finish; a game
    still running after `max_steps` steps ends with reason "step_limit" and no winner; with
    `record_dir` each game's record is written to ``record_dir/game-{seed}.jsonl``; `checked`
    makes every bot action go through the legality check. Bad games, options or bot names raise
    `OptionError` before any game is played; a game that raises is reported as `GameCrash`."""
    series = Series(game_spec, options)
    game = series.base
    bots = list(bots)
    if not bots:
        raise OptionError("sim.no_bots")
    if games < 0:
        raise OptionError("sim.games", games=games)
    if type(workers) is not int or workers < 1:
        raise OptionError("sim.workers", workers=workers)
    if type(max_steps) is not int or max_steps < 1:
        raise OptionError("sim.max_steps", max_steps=max_steps)
    for name in dict.fromkeys(bots):
        checked_bot(name, game)
    rdir = Path(record_dir) if record_dir is not None else None
    if rdir is not None:
        rdir.mkdir(parents=True, exist_ok=True)

    results: list[GameResult] = []
    if workers <= 1 or games < 2:
        cache: dict[str, dict[str, Bot]] = {}
        for i in range(games):
            results.append(_play_index(series, bots, seed, i, cache, rdir, max_steps, checked))
            if progress:
                progress(i + 1, games)
    else:
        size = max(1, min(200, math.ceil(games / (workers * 8))))
        chunks = [list(range(a, min(a + size, games))) for a in range(0, games, size)]
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(_play_chunk, series, bots, seed, chunk, rdir, max_steps, checked)
                       for chunk in chunks]
            for fut in as_completed(futures):
                results.extend(fut.result())
                if progress:
                    progress(len(results), games)
        results.sort(key=lambda r: r.seed)
    return Summary.of(series.label(results), game.players, seed, bots, results)
