"""The driver both research APIs (PettingZoo, OpenSpiel) are built on.

    table = Table("fuutei(players=3)")        # index and encoder built once per configuration
    seat = table.new(seed=1)
    while seat.current_player() is not None:
        seat.step(random.choice(seat.legal()))
    seat.returns()                            # [1.0, 0.0, 0.0]

A `Seat` is one game in progress as a learning environment sees it: one player acts at a
time. For a simultaneous or response decision that is the first player the decision names;
the engine logs each hidden choice to its maker only, so the others' observations do not
show it. The engine's randomness stays inside the state (seeded by ``new(seed)``).

For games whose actions take a variable-length subset of cards (いばら with multi-card
combat) the seat runs a *selection sub-turn*: the player adds one card at a time (``add c``)
and then commits; the partial selection is the seat's, the engine state is untouched until
the commit, and only the selecting player's observation shows it.
"""
from __future__ import annotations

import importlib
from typing import Any, Callable, Sequence

import numpy as np

from ..core.action import Action, Arg
from ..core.errors import IllegalActionError
from ..core.game import Game
from ..core.registry import load
from ..core.state import State
from .actions import ActionIndex, ActionIndexError, SubsetSteps, VerbShape
from .observe import Memo, ObsEncoder, ObsSpec

#: the module of each game's declarations (``action_shapes(game)`` and ``obs_spec(game)``)
DECLARATIONS = {
    "fuutei": "takujo.adapters.fuutei",
    "sengoku_taisen": "takujo.adapters.sengoku_taisen",
    "ibara": "takujo.adapters.ibara",
    "draft_daimyo": "takujo.adapters.draft_daimyo",
}


class IllegalIndexError(IllegalActionError):
    """An action index that is not legal now (the seat is unchanged)."""


def declarations(game: Game) -> Any:
    try:
        return importlib.import_module(DECLARATIONS[game.name])
    except KeyError:
        raise ValueError(f"no action and observation declarations for {game.name!r}") from None


class Table:
    """One game configuration ("fuutei(players=3)"): the loaded game, its action index and
    its observation encoder, built once."""

    def __init__(self, spec: str | Game) -> None:
        self.game: Game = spec if isinstance(spec, Game) else load(spec)
        decl = declarations(self.game)
        self.shapes: list[VerbShape] = decl.action_shapes(self.game)
        self.index = ActionIndex(self.shapes)
        self.obs_spec: ObsSpec = decl.obs_spec(self.game)
        #: ``canon(state)``: a function rewriting actions before indexing (ids with no fixed
        #: bound, such as summoned tokens, to slots), or None when there is nothing to rewrite
        self.canon: Callable[[State], Callable[[Action], Action] | None] = getattr(
            decl, "action_canon", lambda state: None)
        self.encoder = ObsEncoder(self.game.State.ZONES, self.obs_spec, self.game.players)
        self.players: int = self.game.players
        self.num_actions: int = self.index.n
        self.obs_size: int = self.encoder.size
        self.spec = str(self.game)
        #: the index of each (canonical) engine action met so far
        self._codes: dict[Action, int] = {}

    def new(self, seed: int) -> "Seat":
        return Seat(self, self.game.new_state(seed))

    def seat(self, state: State) -> "Seat":
        """A seat on an existing engine state (no selection in progress)."""
        return Seat(self, state)

    def from_json(self, data: dict[str, Any]) -> "Seat":
        return Seat.from_json(self, data)

    def index_of(self, action: Action, state: State) -> int:
        """The index of an engine action in `state` (ids rewritten as the seat does)."""
        canon = self.canon(state)
        return self.code(canon(action) if canon is not None else action)

    def code(self, action: Action) -> int:
        """``index.index(action)`` of an action already canonical, remembered."""
        i = self._codes.get(action)
        if i is None:
            i = self._codes[action] = self.index.index(action)
        return i

    def __repr__(self) -> str:
        return f"<Table {self.spec}: {self.num_actions} actions, observation {self.obs_size}>"


class Seat:
    """One game in progress, as a learning environment sees it."""

    __slots__ = ("table", "state", "selection", "_cache_key", "_moves", "_player", "_memo")

    def __init__(self, table: Table, state: State,
                 selection: tuple[int, str, tuple[Arg, ...]] | None = None) -> None:
        self.table = table
        self.state = state
        #: (player, verb, cards so far) of a selection sub-turn in progress, or None
        self.selection = selection
        self._cache_key: tuple[int, Any] | None = None
        self._moves: dict[int, Action | None] = {}
        self._player: int | None = None
        #: each player's last observation and the view's parts it came from (`ObsEncoder`)
        self._memo: Memo = {}

    # ----- the decision -----------------------------------------------------------------------
    def current_player(self) -> int | None:
        """Who acts now; None when the game is over. For a simultaneous or response decision,
        the first player it names."""
        self._refresh()
        return self._player

    def _refresh(self) -> None:
        key = (self.state.steps, self.selection)
        if key == self._cache_key:
            return
        pend, legal = self.state.first_choice()
        if pend is None:
            self._player, self._moves = None, {}
        else:
            player = pend.players[0]
            sel = self.selection
            if sel is not None and sel[0] != player:
                raise RuntimeError(f"a selection of player {sel[0]} is in progress, but player {player} acts")
            index = self.table.index
            canon = self.table.canon(self.state)
            if index.subset_verbs:
                self._moves = SubsetSteps(index, legal, None if sel is None else (sel[1], sel[2])).moves
            else:
                moves: dict[int, Action | None] = {}
                code = self.table.code
                for a in legal:
                    i = code(a if canon is None else canon(a))
                    if i in moves:
                        raise ActionIndexError(f"{a} and {moves[i]} share index {i}")
                    moves[i] = a
                self._moves = moves
            self._player = player
        self._cache_key = key

    def legal(self) -> list[int]:
        """The legal action indices of the current player, sorted ([] when over)."""
        self._refresh()
        return sorted(self._moves)

    def mask(self) -> np.ndarray:
        """int8[num_actions]: 1 at each legal index."""
        self._refresh()
        m = np.zeros(self.table.num_actions, dtype=np.int8)
        if self._moves:
            m[list(self._moves)] = 1
        return m

    def action_of(self, index: int) -> Action | None:
        """The engine action a legal index applies (None for a selection step); raises
        for an index that is not legal now."""
        self._refresh()
        if not isinstance(index, (int, np.integer)) or isinstance(index, (bool, np.bool_)):
            raise IllegalIndexError("adapters.index.not_int", type=type(index).__name__, value=repr(index)[:40])
        i = int(index)
        if i in self._moves:
            return self._moves[i]
        if self._player is None:
            raise IllegalIndexError("adapters.index.game_over", index=i)
        desc = self.table.index.describe(i) if 0 <= i < self.table.num_actions else "out of range"
        raise IllegalIndexError("adapters.index.not_legal", index=i, action=desc, player=self._player,
                                legal=", ".join(map(str, sorted(self._moves)[:12])))

    def step(self, index: int) -> None:
        """Apply a legal index (an engine action, or a step of a selection sub-turn).
        IllegalIndexError for any other index, and the seat is unchanged."""
        action = self.action_of(index)
        player = self._player
        assert player is not None
        if action is None:                                  # add a card to the selection
            i = int(index)  # action_of checked it
            entry = self.table.index.entry_of(i)
            dom = entry.shape.subset
            assert dom is not None
            card = dom.values[i - entry.offset]
            sel = self.selection
            chosen = (*sel[2], card) if sel is not None else (card,)
            self.selection = (player, entry.shape.verb, chosen)
            return
        self.selection = None
        self.state.apply_unchecked(action)

    # ----- what players see ---------------------------------------------------------------------
    def observe(self, player: int) -> np.ndarray:
        """float32[obs_size]: `player`'s observation, from ``state.view(player)`` only (plus the
        player's own selection in progress): its lean form (no labels, no events), through
        the encoder's fast path, encoding again only what changed since this seat's last
        observation of `player`."""
        view = self.state.view(player, lean=True)
        return self.table.encoder.encode_fast(view, player, self._own(player), self._memo)

    def observe_reference(self, player: int) -> np.ndarray:
        """The same observation the slow way, the reference `observe` is tested against:
        the full view, encoded feature by feature."""
        return self.table.encoder.encode(self.state.view(player), player, self._own(player))

    def _own(self, player: int) -> tuple[str, tuple[Arg, ...]] | None:
        sel = self.selection
        return (sel[1], sel[2]) if sel is not None and sel[0] == player else None

    def returns(self) -> list[float]:
        """At the end, 1/k to each of the k winners and 0 to the others; all 0 before."""
        n = self.table.players
        outcome = self.state.outcome
        if outcome is None or not outcome.winners:
            return [0.0] * n
        share = 1.0 / len(outcome.winners)
        return [share if p in outcome.winners else 0.0 for p in range(n)]

    def is_over(self) -> bool:
        return self.state.outcome is not None

    # ----- copying and saving ---------------------------------------------------------------------
    def clone(self) -> "Seat":
        return Seat(self.table, self.state.clone(), self.selection)

    def to_json(self) -> dict[str, Any]:
        sel = self.selection
        return {"game": self.table.spec, "state": self.state.to_json(),
                "selection": None if sel is None else {"player": sel[0], "verb": sel[1], "cards": list(sel[2])}}

    @staticmethod
    def from_json(table: Table, data: dict[str, Any]) -> "Seat":
        if data.get("game") != table.spec:
            raise ValueError(f"the seat belongs to {data.get('game')!r}, not {table.spec!r}")
        state = table.game.state_from_json(data["state"])
        sel = data.get("selection")
        selection = None if sel is None else (int(sel["player"]), str(sel["verb"]), tuple(sel["cards"]))
        return Seat(table, state, selection)

    def __repr__(self) -> str:
        return f"<Seat {self.table.spec} step {self.state.steps}>"


def play_random(seat: Seat, rng: Any, max_steps: int = 100_000) -> int:
    """Play `seat` to the end with uniform random legal indices (`rng.below(n)`, the engine's
    Rng); the number of steps taken."""
    steps = 0
    while steps < max_steps:
        legal = seat.legal()
        if not legal:
            break
        seat.step(legal[rng.below(len(legal))])
        steps += 1
    return steps


def indices_of(table: Table, legal: Sequence[Action]) -> list[int]:
    return table.index.indices(legal)
