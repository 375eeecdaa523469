"""takujo's games as PettingZoo environments (docs/research.md, "PettingZoo").

    from takujo.adapters.pettingzoo import env
    e = env("fuutei(players=3)")                # any game string, options included
    e.reset(seed=7)                             # the same game as takujo.load(spec).new_state(7)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            action = None
        else:
            action = e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

`env(spec)` is an AEC environment in the style of PettingZoo's classic games: agents
``player_0`` … ``player_{n-1}`` (agent ``player_i`` is the engine's player i), an observation
``Dict(observation=Box(float32, [obs_size]), action_mask=Box(int8, [num_actions]))`` computed
from the agent's own view only (`Seat.observe`, within finite bounds from the encoder's
layout: `takujo.adapters.gymnasium.observation_bounds`), ``Discrete(num_actions)`` actions over the
configuration's fixed action index, and rewards only at the end: 1/k to each of the k winners,
0 to everyone else (`Seat.returns`). Every agent terminates when the game ends; no agent is
ever truncated unless a ``max_steps`` cap is given.

Simultaneous and response decisions are played as PettingZoo plays hidden simultaneous moves
(rock-paper-scissors): one agent at a time, in the order the decision names its players, each
choice hidden from the others until all have chosen (the engine logs it to its maker only).

An illegal action raises `IllegalIndexError` (a ValueError naming the index and the legal
ones) and leaves the environment unchanged; there is no TerminateIllegalWrapper (an agent
that wants that behaviour can add PettingZoo's own wrapper, which reads the same mask).

`parallel_env(spec)` is a PettingZoo ParallelEnv with one engine decision per step: every
agent the pending decision names acts in the same step (all players at once in
ドラフト戦国大名's draft, one player on an ordinary turn); the others get an all-zero mask and
their actions are ignored.

``state()`` (``state_space``) is privileged information for centralised critics: every
player's observation side by side. Render modes: "ansi" returns the text of a view, "human"
prints it.

This module needs pettingzoo and gymnasium (``pip install "takujo[rl]"``); the engine never
imports it.
"""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np
from gymnasium import logger, spaces
from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from ..core.decision import DecisionKind
from .driver import IllegalIndexError, Seat, Table
from .gymnasium import (RENDER_MODES, Bounds, ViewText, action_value, bot_steps, check_render_mode, game_seed,
                        out_of_range, table_of)

__all__ = ["IllegalIndexError", "env", "parallel_env", "raw_env", "ParallelTakujoEnv"]

Obs = dict[str, np.ndarray]


def _check_max_steps(max_steps: int | None) -> int | None:
    if max_steps is None:
        return None
    if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1:
        raise ValueError(f"max_steps must be a positive int or None, not {max_steps!r}")
    return max_steps


class _Core:
    """What the AEC and the parallel environments share: the table, the spaces (made once),
    the seeding and the observations of one game in progress."""

    def __init__(self, spec: str | Table, render_mode: str | None, max_steps: int | None, lang: str) -> None:
        check_render_mode(render_mode)
        self.table = table = table_of(spec)
        self.max_steps = _check_max_steps(max_steps)
        self.text = ViewText(table, lang)
        self.bounds = Bounds(table)
        n = table.players
        self.agents_all = [f"player_{i}" for i in range(n)]
        self.player_of = {a: i for i, a in enumerate(self.agents_all)}
        # one space object per agent (seeding one agent's space leaves the others alone)
        self.observation_spaces: dict[str, spaces.Dict] = {
            a: spaces.Dict({
                "observation": self.bounds.box(),
                "action_mask": spaces.Box(low=0, high=1, shape=(table.num_actions,), dtype=np.int8),
            }) for a in self.agents_all}
        self.action_spaces: dict[str, spaces.Discrete] = {
            a: spaces.Discrete(table.num_actions) for a in self.agents_all}
        self._seeder: np.random.Generator | None = None
        self.seat: Seat | None = None
        self.game_seed: int | None = None
        #: every seat's observation side by side (`state()`): privileged, see the docs
        self.state_space = self.bounds.box(n)
        self._obs_cache: dict[int, tuple[Any, np.ndarray]] = {}

    def metadata(self, parallelizable: bool) -> dict[str, Any]:
        return {"render_modes": list(RENDER_MODES), "name": f"takujo_{self.table.game.name}_v0",
                "is_parallelizable": parallelizable, "render_fps": 1}

    def agent(self, name: Any) -> int:
        try:
            return self.player_of[name]
        except (KeyError, TypeError):
            raise KeyError(f"unknown agent {name!r}; the agents are {self.agents_all}") from None

    def new_game(self, seed: int | None) -> Seat:
        """Seed 7 plays the engine's game 7; without a seed, the next game of the stream the
        last seed started (fresh entropy if none was ever given)."""
        if seed is not None:
            value = game_seed(seed)
            self._seeder = np.random.default_rng(value)
        else:
            if self._seeder is None:
                self._seeder = np.random.default_rng()
            value = int(self._seeder.integers(2**62))
        self.game_seed = value
        self.seat = self.table.new(value)
        self._obs_cache = {}
        return self.seat

    def live_seat(self) -> Seat:
        if self.seat is None:
            raise RuntimeError("call reset() before using the environment")
        return self.seat

    def observation(self, player: int, mask: np.ndarray | None) -> Obs:
        """`player`'s observation (from its view only) and the given mask (zeros if None)."""
        seat = self.live_seat()
        key = (seat.state.steps, seat.selection)
        hit = self._obs_cache.get(player)
        if hit is None or hit[0] != key:
            hit = (key, self.bounds.clip(seat.observe(player)))
            self._obs_cache[player] = hit
        if mask is None:
            mask = np.zeros(self.table.num_actions, dtype=np.int8)
        return {"observation": hit[1].copy(), "action_mask": mask}

    def index(self, action: Any, agent: str) -> int:
        """A valid action value as an int (Python or numpy integer, or a 0-d integer array)."""
        n = self.table.num_actions
        i = action_value(action, n, agent)
        if not 0 <= i < n:
            raise out_of_range(i, n, self.player_of[agent], self.legal_text(agent))
        return i

    def state(self) -> np.ndarray:
        """Every player's observation, player 0's first, each from that player's own view:
        privileged information (all hands at once), for a centralised critic only."""
        seat = self.live_seat()
        return np.concatenate([self.observation(p, None)["observation"] for p in range(self.table.players)])

    def legal_text(self, agent: str) -> str:
        """The first legal indices of `agent` now, for error messages ("none" if it is not to act)."""
        seat = self.live_seat()
        if seat.current_player() != self.player_of[agent]:
            return "none"
        return ", ".join(map(str, seat.legal()[:12]))

    def render(self, render_mode: str | None, player: int | None) -> str | None:
        """"ansi": the header and the text of what `player` sees; "human": the same, printed."""
        if render_mode is None:
            logger.warn("render() was called without a render_mode; use render_mode='ansi' or 'human'")
            return None
        seat = self.live_seat()
        to_act = seat.current_player()
        head = (f"{self.table.spec}, seed {self.game_seed}, step {seat.state.steps}: "
                + ("game over" if to_act is None else f"player_{to_act} to act"))
        text = self.text(seat, head, player)
        if render_mode == "human":
            print(text)
            return None
        return text


class _Surface:
    """What both environments answer the same way from their `_Core`: the cached spaces and
    the game in progress."""

    _core: _Core
    observation_spaces: dict[str, spaces.Dict]
    action_spaces: dict[str, spaces.Discrete]
    state_space: spaces.Box

    def observation_space(self, agent: str) -> spaces.Dict:
        self._core.agent(agent)
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        self._core.agent(agent)
        return self.action_spaces[agent]

    @property
    def seat(self) -> Seat:
        """The game in progress (the driver's `Seat`: state, legal(), clone(), to_json())."""
        return self._core.live_seat()

    def state(self) -> np.ndarray:
        """Privileged: every player's observation side by side (player 0's first), so every
        hand at once; for centralised critics (MAPPO), never for a policy."""
        return self._core.state()


class raw_env(_Surface, AECEnv):  # type: ignore[misc]
    """One takujo game configuration as a PettingZoo AEC environment (see the module's
    docstring). `env(spec)` wraps it in PettingZoo's OrderEnforcingWrapper."""

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "name": "takujo_v0",
                                "is_parallelizable": False, "render_fps": 1}
    #: PettingZoo's aec_to_parallel needs every agent to act once per cycle: no game here does

    def __init__(self, spec: str | Table, render_mode: str | None = None, *,
                 max_steps: int | None = None, lang: str = "en") -> None:
        super().__init__()
        self._core = core = _Core(spec, render_mode, max_steps, lang)
        self.table: Table = core.table
        self.metadata = core.metadata(False)
        self.render_mode = render_mode
        self.possible_agents: list[str] = list(core.agents_all)
        self.observation_spaces = core.observation_spaces
        self.action_spaces = core.action_spaces
        self.state_space = core.state_space
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection: str = self.possible_agents[0]
        self.num_steps = 0

    # ----- the game -----------------------------------------------------------------------------
    @property
    def game_seed(self) -> int | None:
        """The engine seed of the game in progress (``takujo.load(spec).new_state(seed)``)."""
        return self._core.game_seed

    # ----- for agents that speak the engine's actions (takujo's bots) -------------------------------
    def view(self, agent: str) -> dict[str, Any]:
        """`agent`'s own view of the game (``state.view(player)``), what takujo's bots read."""
        return self._core.live_seat().state.view(self._core.agent(agent))

    def legal_actions(self, agent: str) -> list[Any]:
        """`agent`'s legal engine actions now ([] unless it is to act)."""
        player = self._core.agent(agent)
        seat = self._core.live_seat()
        if seat.current_player() != player or seat.selection is not None:
            return []
        return seat.state.legal_actions(player)

    def action_indices(self, action: Any) -> list[int]:
        """The steps that play one engine action (a bot's choice): one index, or for a subset
        chosen card by card (いばら with multi-card combat) each ``add c`` then the commit."""
        return bot_steps(self._core.live_seat(), action)

    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> None:
        """A new game: `seed` gives the engine's game `seed` (the same seed, the same game);
        None, the next game of the last seed's stream. `options` are accepted and unused."""
        seat = self._core.new_game(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.num_steps = 0
        self._skip_agent_selection = None
        player = seat.current_player()
        if player is None:                       # a game over before it starts: not expected
            self._finish(self.possible_agents[0])
        else:
            self.agent_selection = self.possible_agents[player]

    def observe(self, agent: str) -> Obs:
        """`agent`'s observation from its own view, with its mask (all zeros unless it is to act)."""
        player = self._core.agent(agent)
        seat = self._core.live_seat()
        live = (agent == self.agent_selection and agent in self.terminations
                and not (self.terminations[agent] or self.truncations[agent]))
        mask = seat.mask() if live and seat.current_player() == player else None
        return self._core.observation(player, mask)

    def step(self, action: Any) -> None:
        """Apply the selected agent's action (an index whose mask entry is 1); None for an
        agent that has terminated. An illegal index raises IllegalIndexError, and nothing
        changes."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise TypeError(f"{agent} is to act: None is only for an agent that has terminated")
        index = self._core.index(action, agent)
        seat = self._core.live_seat()
        seat.step(index)                        # IllegalIndexError, with the seat unchanged
        self.num_steps += 1
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        player = seat.current_player()
        if player is None:
            self._finish(agent)
        elif self._core.max_steps is not None and self.num_steps >= self._core.max_steps:
            for a in self.agents:
                self.truncations[a] = True
            self.agent_selection = agent
        else:
            self.agent_selection = self.possible_agents[player]
        self._accumulate_rewards()

    def _finish(self, last: str) -> None:
        returns = self._core.live_seat().returns()
        for a in self.agents:
            self.rewards[a] = float(returns[self._core.player_of[a]])
            self.terminations[a] = True
        self.agent_selection = last

    def render(self) -> str | None:
        """"ansi": the text of what the selected agent sees (its view); "human": printed."""
        return self._core.render(self.render_mode, self._core.player_of.get(self.agent_selection))

    def close(self) -> None:
        pass

    def __str__(self) -> str:
        return str(self.metadata["name"])


def env(spec: str | Table, render_mode: str | None = None, *, max_steps: int | None = None,
        lang: str = "en") -> Any:
    """The AEC environment of a game string ("ibara(players=4,mode=short)"), wrapped in
    PettingZoo's OrderEnforcingWrapper. `max_steps` truncates every agent after that many
    steps (default: never; every game ends by its rules); `lang` is the language of render()."""
    return wrappers.OrderEnforcingWrapper(raw_env(spec, render_mode, max_steps=max_steps, lang=lang))


class ParallelTakujoEnv(_Surface, ParallelEnv):  # type: ignore[misc]
    """One takujo game as a PettingZoo ParallelEnv: one engine decision per step.

    The agents that act in a step are the players the pending decision names: all of them
    for a simultaneous or response decision (they choose without seeing each other's
    choices, which are applied together), the one player of an ordinary turn. The others'
    masks are all zero and whatever they are given is ignored. Games whose actions take a
    card subset chosen card by card (いばら with multi-card combat) keep that sub-turn: one
    player, one card a step.
    """

    metadata: dict[str, Any] = {**raw_env.metadata, "is_parallelizable": True}

    def __init__(self, spec: str | Table, render_mode: str | None = None, *,
                 max_steps: int | None = None, lang: str = "en") -> None:
        self._core = core = _Core(spec, render_mode, max_steps, lang)
        self.table: Table = core.table
        self.metadata = core.metadata(True)
        self.render_mode = render_mode
        self.possible_agents: list[str] = list(core.agents_all)
        self.observation_spaces = core.observation_spaces
        self.action_spaces = core.action_spaces
        self.state_space = core.state_space
        self.agents: list[str] = []
        self.num_steps = 0
        self._masks: dict[int, np.ndarray] = {}
        self._moves: dict[int, set[int]] = {}

    @property
    def acting(self) -> list[str]:
        """The agents whose actions the next step uses."""
        return [self.possible_agents[p] for p in self._moves]

    def _decide(self) -> None:
        """The players who act in the coming step and their masks."""
        seat = self._core.live_seat()
        first = seat.current_player()
        self._moves, self._masks = {}, {}
        if first is None:
            return
        self._moves[first] = set(seat.legal())
        self._masks[first] = seat.mask()
        pend = seat.state.pending
        assert pend is not None
        if pend.kind is DecisionKind.TURN or seat.table.index.subset_verbs or len(pend.players) < 2:
            return
        state, table = seat.state, seat.table
        for p in pend.players[1:]:
            legal = sorted({table.index_of(a, state) for a in state.legal_actions(p)})
            mask = np.zeros(table.num_actions, dtype=np.int8)
            mask[legal] = 1
            self._moves[p], self._masks[p] = set(legal), mask

    def _observations(self) -> dict[str, Obs]:
        return {a: self._core.observation(self._core.player_of[a], self._masks.get(self._core.player_of[a]))
                for a in self.agents}

    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None
              ) -> tuple[dict[str, Obs], dict[str, dict[str, Any]]]:
        """A new game, seeded as in the AEC environment; (observations, infos)."""
        self._core.new_game(seed)
        self.agents = list(self.possible_agents)
        self.num_steps = 0
        self._decide()
        return self._observations(), {a: {} for a in self.agents}

    def step(self, actions: Mapping[str, Any]) -> tuple[dict[str, Obs], dict[str, float], dict[str, bool],
                                                       dict[str, bool], dict[str, dict[str, Any]]]:
        """Apply the acting agents' actions (the others' are ignored). Every acting agent must
        give a legal index; otherwise IllegalIndexError (or TypeError), and nothing changes."""
        if not self.agents:
            raise RuntimeError("the game is over: call reset()")
        seat = self._core.live_seat()
        chosen: list[tuple[int, int]] = []
        for p, legal in self._moves.items():
            agent = self.possible_agents[p]
            if agent not in actions:
                raise KeyError(f"{agent} is to act but has no action (acting: {self.acting})")
            i = self._core.index(actions[agent], agent)
            if i not in legal:
                raise IllegalIndexError("adapters.index.not_legal", index=i, action=self.table.index.describe(i),
                                        player=p, legal=", ".join(map(str, sorted(legal)[:12])))
            chosen.append((p, i))
        for p, i in chosen:
            if seat.current_player() != p:
                raise RuntimeError(f"player_{p} was to act, but the engine asks player {seat.current_player()}")
            seat.step(i)
        self.num_steps += 1
        over = seat.current_player() is None
        truncated = not over and self._core.max_steps is not None and self.num_steps >= self._core.max_steps
        returns = seat.returns() if over else [0.0] * self.table.players
        agents = self.agents
        rewards = {a: float(returns[self._core.player_of[a]]) for a in agents}
        terminations = dict.fromkeys(agents, over)
        truncations = dict.fromkeys(agents, truncated)
        infos: dict[str, dict[str, Any]] = {a: {} for a in agents}
        if over or truncated:
            self._moves, self._masks = {}, {}
            observations = self._observations()
            self.agents = []
        else:
            self._decide()
            observations = self._observations()
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        """"ansi": the text of what the first acting agent sees; "human": printed."""
        return self._core.render(self.render_mode, next(iter(self._moves), None))

    def close(self) -> None:
        pass

    def __str__(self) -> str:
        return str(self.metadata["name"])


def parallel_env(spec: str | Table, render_mode: str | None = None, *, max_steps: int | None = None,
                 lang: str = "en") -> ParallelTakujoEnv:
    """The ParallelEnv of a game string: one engine decision per step (see ParallelTakujoEnv)."""
    return ParallelTakujoEnv(spec, render_mode, max_steps=max_steps, lang=lang)
