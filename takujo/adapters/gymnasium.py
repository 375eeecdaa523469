"""One seat of a takujo game as a single-agent Gymnasium environment (docs/research.md,
"Gymnasium").

    from takujo.adapters.gymnasium import env
    e = env("draft_daimyo(players=4)", opponents="heuristic", seat=0)
    obs, info = e.reset(seed=7)                    # the engine's game 7
    done = False
    while not done:
        action = e.action_space.sample(e.action_masks().astype(np.int8))
        obs, reward, terminated, truncated, info = e.step(action)
        done = terminated or truncated

One seat learns; every other seat is one of takujo's bots (`takujo.bots.make_bot`), which
reads only its own player's view. `step` applies the learner's action, then plays the bots'
moves until the learner is to act again or the game is over. The observation is the
learner's `Seat.observe` vector in a `Box` whose bounds come from the encoder's layout
(`observation_bounds`); the actions are ``Discrete(num_actions)`` over the configuration's
fixed action index, with `action_masks()` (bool) as sb3-contrib's MaskablePPO reads it. The
reward is 0 until the end, then the learner's result: 1/k if it is one of the k winners,
else 0.

This module also holds what the PettingZoo environments share with it: the bounds, reading
an action value, the steps of a bot's action and the text of a view. It needs gymnasium
(``pip install "takujo[rl]"``); the engine never imports it.
"""
from __future__ import annotations

import operator
from typing import Any, Iterator, Mapping, Sequence

import gymnasium
import numpy as np
from gymnasium import spaces

from ..core.action import Action
from ..core.errors import OptionError
from ..core.rng import Rng
from ..core.visibility import Vis
from .driver import IllegalIndexError, Seat, Table
from .observe import (COUNT_SCALE, CardValues, Custom, Feature, Fixed, Frame, Ignore, Last, ObsEncoder,
                      PerSeat, Scalar, ZoneFeature)

__all__ = ["IllegalIndexError", "TakujoEnv", "env", "observation_bounds", "UNBOUNDED"]

#: the bound of an entry whose feature declares no range (a scalar divided by its declared
#: scale, which is about its usual maximum, or a game's own encoding): observations are
#: clipped to [-UNBOUNDED, UNBOUNDED] there; random play never came near it (see the docs)
UNBOUNDED = 100.0
RENDER_MODES = ["human", "ansi"]
ILLEGAL_MODES = ("raise", "penalty")


# ----- bounds of the observation -----------------------------------------------------------------
def _leaves(f: Feature, at: int, n: int) -> Iterator[tuple[int, int, float, float]]:
    """(start, stop, low, high) runs of feature `f` laid out at `at`."""
    if isinstance(f, ZoneFeature):
        spec, c = f.spec, f.pool.size
        most = max(c, 1) * COUNT_SCALE           # a zone cannot hold more cards than its pool
        if spec.vis is Vis.PUBLIC:
            yield at, at + f.size, 0.0, 1.0
        elif spec.vis is Vis.OWNER and spec.per_player:
            yield at, at + c, 0.0, 1.0
            yield at + c, at + f.size, 0.0, most
        else:
            yield at, at + f.size, 0.0, most
    elif isinstance(f, Frame):
        if f.optional:
            yield at, at + 1, 0.0, 1.0
        off = at + (1 if f.optional else 0)
        for sub in f.fields.values():
            yield from _leaves(sub, off, n)
            off += sub.size
    elif isinstance(f, (PerSeat, Fixed)):
        count = n if isinstance(f, PerSeat) else f.length
        for k in range(count):
            yield from _leaves(f.inner, at + k * f.inner.size, n)
    elif isinstance(f, Last):
        yield at, at + 1, 0.0, UNBOUNDED         # the depth of a stack, over a scale
        yield from _leaves(f.inner, at + 1, n)
    elif isinstance(f, Ignore) or f.size == 0:
        return
    elif isinstance(f, (Scalar, CardValues, Custom)) or type(f).__module__ != Feature.__module__:
        yield at, at + f.size, -UNBOUNDED, UNBOUNDED
    else:                                        # flags, one-hots, seats, cards: indicators
        yield at, at + f.size, 0.0, 1.0


def observation_bounds(table: Table) -> tuple[np.ndarray, np.ndarray]:
    """float32 (low, high) of every entry of `table`'s observation, from the encoder's layout:
    indicators (flags, one-hots, seats, card multi-hots, the pending decision, the selection)
    in [0, 1]; a zone's card count in [0, max(pool size, 1) × COUNT_SCALE]; an entry whose feature
    declares no range (`Scalar`, `CardValues`, `Custom`, a stack's depth) in ±UNBOUNDED."""
    enc: ObsEncoder = table.encoder
    n = enc.n
    low = np.zeros(enc.size, np.float32)
    high = np.ones(enc.size, np.float32)
    at = 0
    runs: list[tuple[int, int, float, float]] = []
    for _, f in enc.zones:
        runs.extend(_leaves(f, at, n))
        at += f.size
    if at != enc.public_at:
        raise RuntimeError(f"the zones' layout ends at {at}, the public facts start at {enc.public_at}")
    runs.extend(_leaves(enc.public, enc.public_at, n))
    for start, stop, lo, hi in runs:             # the pending decision and the selection stay [0, 1]
        low[start:stop], high[start:stop] = lo, hi
    return low, high


class Bounds:
    """The observation `Box` of one table and the clipping that makes it hold."""

    def __init__(self, table: Table) -> None:
        self.low, self.high = observation_bounds(table)

    def box(self, copies: int = 1) -> spaces.Box:
        return spaces.Box(np.tile(self.low, copies), np.tile(self.high, copies), dtype=np.float32)

    def clip(self, obs: np.ndarray) -> np.ndarray:
        return np.clip(obs, self.low, self.high, out=obs)


# ----- what the environments share ---------------------------------------------------------------
def action_value(action: Any, n: int, who: str) -> int:
    """An action value as an int in [0, n): a Python or numpy integer, or a one-element
    integer array. TypeError for anything else; IllegalIndexError outside the range."""
    if isinstance(action, np.ndarray) and action.shape in ((), (1,)) and action.dtype.kind in "iu":
        action = action.reshape(()).item()
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise TypeError(f"{who}: an action is an int in [0, {n}), not {type(action).__name__} {action!r}")
    return int(action)


def out_of_range(i: int, n: int, player: int, legal: str) -> IllegalIndexError:
    return IllegalIndexError("adapters.index.not_legal", index=i, action=f"out of range 0..{n - 1}",
                             player=player, legal=legal)


def bot_steps(seat: Seat, action: Action) -> list[int]:
    """The indices that play one engine action (a bot's choice) from `seat`: its index, or,
    for a card set chosen card by card (the selection sub-turn), the steps not yet taken."""
    table = seat.table
    canon = table.canon(seat.state)
    a = canon(action) if canon is not None else action
    if not table.index.is_subset(a.verb):
        return [table.index.index(a)]
    path = list(table.index.subset_path(a))
    sel = seat.selection
    done = len(sel[2]) if sel is not None and sel[0] == a.player and sel[1] == a.verb else 0
    return path[done:]


def check_render_mode(render_mode: str | None) -> None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode {render_mode!r} is not supported; choose one of {RENDER_MODES} or None")


def check_lang(lang: str) -> str:
    from ..present import LANGS
    if lang not in LANGS:
        raise ValueError(f"lang {lang!r} is not supported; choose one of {list(LANGS)}")
    return lang


class ViewText:
    """The plain text of one player's view (the game's presenter), made on first use."""

    def __init__(self, table: Table, lang: str) -> None:
        self.table, self.lang = table, check_lang(lang)
        self._renderer: Any = None

    def __call__(self, seat: Seat, head: str, player: int | None) -> str:
        if player is None:
            return head
        if self._renderer is None:
            from ..present import Renderer
            self._renderer = Renderer(self.table.game, lang=self.lang, markup=False)
        text: str = self._renderer.view(seat.state.view(player))
        return f"{head}\n--- what player_{player} sees ---\n{text}"


def table_of(spec: str | Table) -> Table:
    if isinstance(spec, Table):
        return spec
    if not isinstance(spec, str):
        raise TypeError(f"a game string such as 'fuutei(players=3)' is needed, not {type(spec).__name__}")
    return Table(spec)      # an unknown game or option raises the engine's OptionError, naming it


def game_seed(seed: Any) -> int:
    """A reset seed as the engine's game seed (a non-negative int)."""
    try:
        if isinstance(seed, bool):
            raise TypeError
        value = operator.index(seed)
    except TypeError:
        raise TypeError(f"seed must be an int or None, not {type(seed).__name__} {seed!r}") from None
    if value < 0:
        raise ValueError(f"seed must be non-negative, not {value}")
    return value


# ----- the single-agent environment --------------------------------------------------------------
def _opponent_names(opponents: str | Sequence[str], others: int) -> list[str]:
    if isinstance(opponents, str):
        return [opponents] * others
    names = list(opponents)
    if len(names) != others or not all(isinstance(x, str) for x in names):
        raise ValueError(f"opponents: one bot name, or a list of {others} names (one per other seat), "
                         f"not {opponents!r}")
    return names


class TakujoEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One seat of a takujo game as a Gymnasium environment; the other seats are bots.

    - ``opponents``: a bot name for every other seat ("random", "heuristic", "ismcts:200" …),
      or a list of names, the j-th for the seat j+1 places after the learner's.
    - ``seat``: the learner's player number, or "rotate" (0, 1, … n-1, 0, … one a reset) or
      "random" (drawn at each reset from the environment's seeded generator).
    - ``illegal``: "raise" (IllegalIndexError naming the index and the legal ones, nothing
      changes) or "penalty" (a no-op: the game is unchanged, the reward is ``-penalty``,
      ``info["illegal"]`` is True; after ``max_illegal`` illegal actions in a row the episode
      is truncated).
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 1}

    def __init__(self, spec: str | Table, opponents: str | Sequence[str] = "heuristic",
                 seat: int | str = 0, *, illegal: str = "raise", penalty: float = 0.01,
                 max_illegal: int = 100, render_mode: str | None = None, lang: str = "en") -> None:
        check_render_mode(render_mode)
        self.table = table = table_of(spec)
        n = table.players
        if not (seat in ("rotate", "random") or (type(seat) is int and 0 <= seat < n)):
            raise ValueError(f"seat must be a player 0..{n - 1}, 'rotate' or 'random', not {seat!r}")
        if illegal not in ILLEGAL_MODES:
            raise ValueError(f"illegal must be one of {list(ILLEGAL_MODES)}, not {illegal!r}")
        if isinstance(penalty, bool) or not isinstance(penalty, (int, float)) or not 0 <= penalty < 1:
            raise ValueError(f"penalty must be a number in [0, 1), not {penalty!r}")
        if isinstance(max_illegal, bool) or not isinstance(max_illegal, int) or max_illegal < 1:
            raise ValueError(f"max_illegal must be a positive int, not {max_illegal!r}")
        from ..bots import make_bot
        self.opponents = _opponent_names(opponents, n - 1)
        try:
            self._bots = [make_bot(name, table.game) for name in self.opponents]
        except OptionError as exc:
            raise ValueError(f"opponents: {exc}") from None
        self.seat_choice, self.illegal, self.penalty, self.max_illegal = seat, illegal, float(penalty), max_illegal
        self.render_mode = render_mode
        self.bounds = Bounds(table)
        self.observation_space = self.bounds.box()
        self.action_space = spaces.Discrete(table.num_actions)
        self._text = ViewText(table, lang)
        self.game: Seat | None = None
        self.learner = seat if type(seat) is int else 0
        self.game_seed: int | None = None
        self._resets = 0
        self._streak = 0
        self._rng = Rng(0)

    # ----- the game ----------------------------------------------------------------------------
    def _live(self) -> Seat:
        if self.game is None:
            raise RuntimeError("call reset() before step()")
        return self.game

    def bot_of(self, player: int) -> Any:
        """The bot in `player`'s seat (not the learner's)."""
        n = self.table.players
        if player == self.learner:
            raise ValueError(f"player {player} is the learner")
        return self._bots[(player - self.learner - 1) % n]

    def _play_opponents(self) -> None:
        """The bots' moves until the learner is to act or the game is over."""
        seat = self._live()
        while (p := seat.current_player()) is not None and p != self.learner:
            action = self.bot_of(p).act(seat.state.view(p), seat.state.legal_actions(p), self._rng)
            for i in bot_steps(seat, action):
                seat.step(i)

    def _obs(self) -> np.ndarray:
        return self.bounds.clip(self._live().observe(self.learner))

    def _info(self) -> dict[str, Any]:
        return {"seat": self.learner, "game_seed": self.game_seed}

    def reset(self, *, seed: int | None = None, options: Mapping[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new game. ``seed=s`` plays the engine's game s (``takujo.load(spec).new_state(s)``)
        and seeds the generator later resets draw from (their game seeds, a random seat, the
        bots' randomness), so one seed gives one sequence of episodes. ``options`` may hold
        ``{"seat": p}`` for this episode's learner."""
        if seed is not None:
            seed = game_seed(seed)
        super().reset(seed=seed)
        n = self.table.players
        gen = self.np_random
        self.game_seed = seed if seed is not None else int(gen.integers(2**62))
        self._rng = Rng(int(gen.integers(2**62)))
        extra = dict(options or {})
        chosen = extra.pop("seat", None)
        if extra:
            raise ValueError(f"unknown reset option(s) {sorted(extra)}; the one option is 'seat'")
        if chosen is not None:
            if type(chosen) is not int or not 0 <= chosen < n:
                raise ValueError(f"options['seat'] must be a player 0..{n - 1}, not {chosen!r}")
            self.learner = chosen
        elif self.seat_choice == "rotate":
            self.learner = self._resets % n
        elif self.seat_choice == "random":
            self.learner = int(gen.integers(n))
        self._resets += 1
        self._streak = 0
        self.game = self.table.new(self.game_seed)
        self._play_opponents()
        if self.game.current_player() is None:
            raise RuntimeError(f"game {self.game_seed} ended before player {self.learner} could act")
        return self._obs(), self._info()

    def action_masks(self) -> np.ndarray:
        """bool[num_actions]: True at the learner's legal indices (all False once over)."""
        return self._live().mask().astype(bool)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Apply the learner's action, then the bots' moves until the learner acts again or
        the game ends. Reward 0 before the end, then the learner's result."""
        seat = self._live()
        if seat.current_player() is None:
            raise RuntimeError("the game is over: call reset()")
        n = self.table.num_actions
        i = action_value(action, n, f"player_{self.learner}")
        if not 0 <= i < n:
            raise out_of_range(i, n, self.learner, ", ".join(map(str, seat.legal()[:12])))
        try:
            seat.step(i)                         # IllegalIndexError, with the seat unchanged
        except IllegalIndexError:
            if self.illegal == "raise":
                raise
            self._streak += 1
            info = {**self._info(), "illegal": True, "illegal_streak": self._streak}
            return self._obs(), -self.penalty, False, self._streak >= self.max_illegal, info
        self._streak = 0
        self._play_opponents()
        over = seat.current_player() is None
        reward = seat.returns()[self.learner] if over else 0.0
        return self._obs(), float(reward), over, False, self._info()

    def render(self) -> str | None:
        """"ansi": the text of the learner's view; "human": the same, printed."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; use render_mode='ansi' or 'human'")
            return None
        seat = self._live()
        to_act = seat.current_player()
        head = (f"{self.table.spec}, seed {self.game_seed}, learner player_{self.learner}, step "
                f"{seat.state.steps}: " + ("game over" if to_act is None else f"player_{to_act} to act"))
        text = self._text(seat, head, self.learner)
        if self.render_mode == "human":
            print(text)
            return None
        return text


def env(spec: str | Table, opponents: str | Sequence[str] = "heuristic", seat: int | str = 0,
        **kwargs: Any) -> TakujoEnv:
    """The single-agent environment of a game string (see `TakujoEnv` for the options)."""
    return TakujoEnv(spec, opponents, seat, **kwargs)
