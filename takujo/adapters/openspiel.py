"""The four games as OpenSpiel Python games (docs/research.md, "OpenSpiel").

    import pyspiel
    import takujo.adapters.openspiel             # registers takujo_fuutei, takujo_ibara, ...
    game = pyspiel.load_game("takujo_ibara(players=4,mode=short)")
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(random.choice(state.legal_actions()))
    state.returns()                              # [0.0, 1.0, 0.0, 0.0]

Importing this module registers one game per takujo game, named ``takujo_<game>``. Its
parameters are ``players``, every option of the game (typed as its default) and
``max_game_length`` (a step cap: a game still running after that many actions ends with no
winner, as ``takujo sim`` ends games at its step limit).

Everything comes from the research driver (`takujo.adapters.driver`): the action numbers are
its fixed action index, the observation tensor its observation of one player's view, the
observation string canonical JSON of that view. The information state (tensor and string
alike) is the observation plus every action the player knows of (their own, everyone's
public ones) in a fixed-length encoding sized by ``max_game_length``: perfect recall of
actions (`HistoryCode`). The games are SEQUENTIAL (one player acts at a time: a
simultaneous or response decision asks its players one after the other, each choice seen by
its maker only), so no node is simultaneous and ``pyspiel.convert_to_turn_based`` is not
needed.

Chance is EXPLICIT_STOCHASTIC, with all of it at the start: eight chance nodes, each a
uniform byte, choose the engine's 64-bit seed (most significant byte first), and the engine
deals when the eighth is applied. Every later die, shuffle and draw comes from the engine's
random streams seeded by it, inside its state, so the rest of the game is a deterministic
function of the seed and the players' actions: the game tree is exact, a clone plays the same
future, and replaying a history reproduces the state. Search that must not know the future
draws uses `TakujoState.resample_from_infostate`. (SAMPLED_STOCHASTIC, the other choice, would
keep an RNG in the game object, and OpenSpiel cannot serialise that for Python games.)

Serialisation is OpenSpiel's for Python games (the history, then the pickled Python
attributes); the one attribute pickles as the engine's JSON save. `deserialize_state` reads the
pickle with an unpickler that builds nothing but that save, so forged text is refused instead
of running code.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import io
import json
import pickle
import threading
from typing import Any, Iterable, NamedTuple

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from ..core.action import Action
from ..core.game import Game
from ..core.registry import game_class
from ..core.registry import load as load_engine
from ..core.rng import Rng
from ..core.visibility import events_between
from .driver import Seat, Table, play_random

#: the takujo games registered, in this order
GAMES = ("fuutei", "sengoku_taisen", "ibara", "draft_daimyo")
PREFIX = "takujo_"
#: each game's default step cap (``max_game_length``): the longest random game measured over
#: its configurations and player counts (`game_lengths`, 300 to 2,000 seeds each; the table in
#: docs/research.md) times more than 1.5; a game still running at the cap ends with no winner
MAX_GAME_LENGTHS = {"fuutei": 3000, "sengoku_taisen": 1000, "ibara": 1500, "draft_daimyo": 600}
#: the chance nodes at the start, one byte of the engine's seed each
SEED_BYTES = 8
#: the parameter every game has besides its options
EXTRA_PARAMETERS = ("max_game_length",)
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_BYTE_OUTCOMES = [(b, 1.0 / 256) for b in range(256)]

_TABLES: dict[str, Table] = {}
_TABLES_LOCK = threading.Lock()


def table_for(spec: str | Game) -> Table:
    """The driver table of a game configuration, built once per process (a table never
    changes once built, so every game and state of one configuration shares it)."""
    key = str(spec)
    table = _TABLES.get(key)
    if table is None:
        with _TABLES_LOCK:
            table = _TABLES.get(key)
            if table is None:
                table = _TABLES[key] = Table(spec)
    return table


def parameter_specification(name: str) -> dict[str, Any]:
    """OpenSpiel's parameter specification of takujo game `name`: each option's default
    (so its type: int, bool or str), plus ``max_game_length``."""
    spec: dict[str, Any] = {}
    for key, info in game_class(name).Options.model_fields.items():
        value = info.default
        if not isinstance(value, (bool, int, str)):
            raise TypeError(f"{name}: option {key!r} has a default of type {type(value).__name__}, "
                            f"which OpenSpiel parameters cannot carry")
        spec[key] = value
    spec["max_game_length"] = MAX_GAME_LENGTHS[name]
    return spec


def _player_range(name: str) -> tuple[int, int]:
    info = game_class(name).Options.model_fields["players"]
    lo = hi = int(info.default)
    for m in info.metadata:
        lo = int(getattr(m, "ge", lo))
        hi = int(getattr(m, "le", hi))
    return lo, hi


def game_type(name: str) -> Any:
    """The `pyspiel.GameType` of takujo game `name` (short name ``takujo_<name>``)."""
    lo, hi = _player_range(name)
    return pyspiel.GameType(
        short_name=PREFIX + name,
        long_name=f"takujo {game_class(name).title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=hi,
        min_num_players=lo,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameter_specification(name),
        default_loadable=True,
        provides_factored_observation_string=False)


def canonical(data: Any) -> str:
    """Canonical JSON text (sorted keys, no spaces, Unicode kept)."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def seed_of(seed_bytes: tuple[int, ...] | list[int]) -> int:
    """The engine seed the chance bytes choose (most significant first)."""
    return int.from_bytes(bytes(seed_bytes), "big")


# ----- the engine behind one OpenSpiel state ------------------------------------------------
def _restore(spec: str, dealt: tuple[int, ...], saved: str | None, moves: int, cap: int,
             acts: Any = ()) -> "_Engine":
    """Unpickling: an engine from its save (the seed bytes so far, or the seat's JSON, and
    the player actions with who saw them)."""
    table = table_for(spec)
    try:
        acts = [Act(int(p), int(i), bool(public)) for p, i, public in acts]
    except (TypeError, ValueError) as exc:
        raise ValueError(f"a saved takujo state's actions are malformed ({exc})") from None
    if saved is None:
        return _Engine(table, tuple(int(b) for b in dealt), None, int(moves), int(cap), acts)
    try:
        data = json.loads(saved)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"a saved takujo state is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ValueError(f"a saved takujo state is a JSON object, not {type(data).__name__}")
    try:
        seat = Seat.from_json(table, data)
    except (KeyError, TypeError, AttributeError, IndexError) as exc:
        raise ValueError(f"a saved takujo state of {spec} is incomplete or malformed "
                         f"({type(exc).__name__}: {exc})") from None
    return _Engine(table, tuple(int(b) for b in dealt), seat, int(moves), int(cap), acts)


class Act(NamedTuple):
    """One player action: who made it, its index, and whether the other players saw it (the
    engine logs a choice on an ordinary turn to everyone, a simultaneous or response choice
    to its maker only; a step of a selection sub-turn is logged to nobody)."""

    player: int
    action: int
    public: bool


class Known(NamedTuple):
    """The actions a player knows of (`_Engine.seen_by`) among the first `looked` of a game:
    as the text of their JSON rows (``[maker,index],…``) and as arrays of makers relative to
    the player and action indices. Extending makes a new one (clones share the old)."""

    looked: int
    text: str
    makers: np.ndarray
    indices: np.ndarray

    def extend(self, acts: list[Act], player: int, players: int) -> "Known":
        new = [a for a in acts[self.looked:] if a.public or a.player == player]
        if not new:
            return self._replace(looked=len(acts))
        rows = ",".join([f"[{a.player},{a.action}]" for a in new])
        makers = np.array([(a.player - player) % players for a in new], np.intp)
        indices = np.array([a.action for a in new], np.int64)
        return Known(len(acts), f"{self.text},{rows}" if self.text else rows,
                     np.concatenate((self.makers, makers)), np.concatenate((self.indices, indices)))


#: What a player knows before any action.
NOTHING_KNOWN = Known(0, "", np.zeros(0, np.intp), np.zeros(0, np.int64))


class _Engine:
    """The one Python attribute of an OpenSpiel state: the seed bytes drawn so far, the
    driver seat once they are all drawn, the number of player actions applied, the step
    cap and the player actions (`Act`) for the information states; plus caches of what the strings take from the log, which only grows (the events of
    the log so far, hashed for ``str(state)`` and rendered per player for the information
    state), so that each string costs only the events that are new."""

    __slots__ = ("table", "dealt", "seat", "moves", "cap", "acts", "_hash", "_seen", "_known")

    def __init__(self, table: Table, dealt: tuple[int, ...], seat: Seat | None, moves: int,
                 cap: int, acts: list[Act] | None = None) -> None:
        self.table = table
        self.dealt = dealt
        self.seat = seat
        self.moves = moves
        self.cap = cap
        self.acts: list[Act] = acts if acts is not None else []
        #: (events hashed, the hash so far, the last event hashed)
        self._hash: tuple[int, Any, Any] | None = None
        #: player -> (events looked through, their canonical texts, the last event looked at)
        self._seen: dict[int, tuple[int, list[str], Any]] = {}
        #: player -> `Known`: what `seen_by` gave, in the forms the information state takes
        self._known: dict[int, Known] = {}

    def player(self) -> int | None:
        """Who acts: a player, _CHANCE while the seed is drawn, None when over."""
        seat = self.seat
        if seat is None:
            return _CHANCE
        if self.moves >= self.cap:
            return None
        return seat.current_player()

    def truncated(self) -> bool:
        """Stopped by the step cap, not by the rules."""
        return self.seat is not None and self.moves >= self.cap and not self.seat.is_over()

    def play(self, index: int) -> None:
        """Apply the player to act's index and record it, seen by all or by its maker only
        as the engine logs it."""
        seat = self.seat
        assert seat is not None
        player = seat.current_player()
        assert player is not None
        log = seat.state.log
        start = len(log)
        seat.step(index)        # IllegalIndexError (a ValueError), the state unchanged
        public = len(log) > start and log[start]["e"] == "act" and log[start]["to"] is None
        self.acts.append(Act(player, int(index), public))
        self.moves += 1

    def seen_by(self, player: int) -> list[Act]:
        """The actions `player` knows of, in order: their own and everyone's public ones."""
        return [a for a in self.acts if a.public or a.player == player]

    def known(self, player: int, players: int) -> "Known":
        """`seen_by(player)` as the information state takes it (makers relative to
        `player` among `players`), extended by the actions since the last call."""
        cached = self._known.get(player)
        if cached is None or cached.looked > len(self.acts):
            cached = NOTHING_KNOWN
        if cached.looked < len(self.acts):
            cached = cached.extend(self.acts, player, players)
            self._known[player] = cached
        return cached

    def deal(self, byte: int) -> None:
        if not 0 <= byte < 256:
            raise ValueError(f"chance outcome {byte}: a seed byte is 0..255")
        dealt = (*self.dealt, byte)
        if len(dealt) == SEED_BYTES:
            self.seat = self.table.new(seed_of(dealt))
        self.dealt = dealt

    # ----- the log, incrementally -------------------------------------------------------------
    def log_hash(self) -> str:
        """A hash of the whole log (events are never changed once logged)."""
        assert self.seat is not None
        log = self.seat.state.log
        cached = self._hash
        if cached is None or cached[0] > len(log) or (cached[0] and log[cached[0] - 1] is not cached[2]):
            cached = (0, hashlib.sha256(), None)
        n, h, _ = cached
        if n < len(log):
            h = h.copy()
            for ev in log[n:]:
                h.update(canonical(ev).encode())
                h.update(b"\n")
            cached = (len(log), h, log[-1])
        self._hash = cached
        return str(h.hexdigest())

    def history_texts(self, player: int) -> list[str]:
        """Canonical JSON of every event `player` has seen (without sequence numbers)."""
        assert self.seat is not None
        log = self.seat.state.log
        cached = self._seen.get(player)
        if cached is None or cached[0] > len(log) or (cached[0] and log[cached[0] - 1] is not cached[2]):
            cached = (0, [], None)
        n, texts, _ = cached
        if n < len(log):
            texts = texts + [canonical(ev) for ev in _strip_seq(events_between(log, player, n, len(log)))]
            cached = (len(log), texts, log[-1])
            self._seen[player] = cached
        return texts

    def __deepcopy__(self, memo: dict[int, Any]) -> "_Engine":
        seat = self.seat
        other = _Engine(self.table, self.dealt, None if seat is None else seat.clone(), self.moves, self.cap,
                        list(self.acts))
        other._hash = self._hash            # shared: extending one copies the hash first
        other._seen = dict(self._seen)      # the lists are replaced, never extended in place
        other._known = dict(self._known)    # so are the texts and arrays
        return other

    def __reduce__(self) -> tuple[Any, ...]:
        seat = self.seat
        saved = None if seat is None else canonical(seat.to_json())
        return (_restore, (self.table.spec, self.dealt, saved, self.moves, self.cap,
                           [tuple(a) for a in self.acts]))


class _StateUnpickler(pickle.Unpickler):
    """Unpickles a saved state's attributes and nothing else: the one callable a saved state
    names is `_restore`; any other global (a forged payload) is refused."""

    def find_class(self, module: str, name: str) -> Any:
        if module == __name__ and name == "_restore":
            return _restore
        raise pickle.UnpicklingError(f"a saved state names no {module}.{name}")


# ----- game and state ------------------------------------------------------------------------
class TakujoGame(pyspiel.Game):  # type: ignore[misc]
    """A takujo game configuration as an OpenSpiel game. Subclassed once per takujo game
    (`NAME`); made by ``pyspiel.load_game("takujo_<game>(...)")``."""

    NAME = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        spec = parameter_specification(self.NAME)
        unknown = sorted(set(params) - set(spec))
        if unknown:
            raise ValueError(f"{PREFIX}{self.NAME}: unknown parameter(s) {unknown}; "
                             f"known: {sorted(spec)}")
        full = {**spec, **params}
        options = {}
        for key, default in spec.items():
            value = full[key]
            if type(value) is not type(default):
                raise ValueError(f"{PREFIX}{self.NAME}: parameter {key}={value!r} must be "
                                 f"{type(default).__name__}, like its default {default!r}")
            if key not in EXTRA_PARAMETERS and (key == "players" or value != default):
                options[key] = value
        cap = full["max_game_length"]
        if cap < 1:
            raise ValueError(f"{PREFIX}{self.NAME}: max_game_length must be at least 1, not {cap}")
        # takujo checks the options (ranges, choices, files): OptionError, a ValueError
        self.table = table_for(game_class(self.NAME)(**options))
        self.cap = int(cap)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.table.num_actions,
            max_chance_outcomes=256,
            num_players=self.table.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=self.cap)
        super().__init__(GAME_TYPES[self.NAME], info, full)

    # ----- states ------------------------------------------------------------------------------
    def new_initial_state(self, params: Any = None) -> "TakujoState":
        """A new game, at the first of the chance nodes that draw its seed."""
        if params is not None:
            raise TypeError(f"{PREFIX}{self.NAME}: new_initial_state takes no arguments "
                            f"(state_for_seed(seed) gives the game of one engine seed)")
        return TakujoState(self, _Engine(self.table, (), None, 0, self.cap))

    def state_for_seed(self, seed: int) -> "TakujoState":
        """The state after the chance nodes that draw engine seed `seed` (the same deal as
        ``takujo``'s ``game.new_state(seed)``), its history holding those eight bytes."""
        if type(seed) is not int or not 0 <= seed < 1 << (8 * SEED_BYTES):
            raise ValueError(f"an engine seed is an int in 0..2**{8 * SEED_BYTES}-1, not {seed!r}")
        state = self.new_initial_state()
        for b in seed.to_bytes(SEED_BYTES, "big"):
            state.apply_action(b)
        return state

    def state_of(self, seat: Seat, player_actions: int = 0) -> "TakujoState":
        """An OpenSpiel state around a driver seat of this configuration (taken, not copied;
        `player_actions` counts towards the step cap). Its history is empty."""
        if seat.table.spec != self.table.spec:
            raise ValueError(f"the seat plays {seat.table.spec}, not {self.table.spec}")
        return TakujoState(self, _Engine(self.table, (0,) * SEED_BYTES, seat, player_actions, self.cap))

    def max_chance_nodes_in_history(self) -> int:
        return SEED_BYTES

    def deserialize_state(self, text: str) -> "TakujoState":
        """A state from ``state.serialize()``, with a clear error for text that is not one
        of this game's."""
        if not isinstance(text, str):
            raise TypeError(f"a serialised state is a str, not {type(text).__name__}")
        parts = text.split("\n", 2)
        if (len(parts) != 3 or not parts[0].startswith("history=")
                or not parts[1].startswith("move_number=") or not parts[2].startswith("__dict__=")):
            raise ValueError("not a serialised OpenSpiel state: expected the lines history=, "
                             "move_number= and __dict__=")
        try:
            # read with an unpickler that can build nothing but a takujo state, so forged text
            # cannot run code (OpenSpiel then reads the same, checked, bytes)
            raw = base64.b64decode(parts[2][len("__dict__="):], validate=True)
            attrs = _StateUnpickler(io.BytesIO(raw)).load()
        except (binascii.Error, pickle.UnpicklingError, EOFError, ValueError) as exc:
            raise ValueError(f"the state's __dict__= line is not a saved state ({exc})") from None
        engine = attrs.get("_e") if isinstance(attrs, dict) else None
        if not isinstance(engine, _Engine):
            raise ValueError("the serialised state is not a takujo state")
        if engine.table.spec != self.table.spec:
            raise ValueError(f"the serialised state plays {engine.table.spec}, not {self.table.spec}")
        return super().deserialize_state(text)  # type: ignore[no-any-return]

    # ----- shapes without building a state ---------------------------------------------------
    def observation_tensor_shape(self) -> list[int]:
        return [self.table.obs_size]

    def observation_tensor_size(self) -> int:
        return int(self.table.obs_size)

    def information_state_tensor_shape(self) -> list[int]:
        return [self.information_state_tensor_size()]

    def information_state_tensor_size(self) -> int:
        """The observation, then `cap` history rows (`HistoryCode`)."""
        return int(self.table.obs_size + self.cap * self.history_code.width)

    @property
    def history_code(self) -> "HistoryCode":
        return HistoryCode(self.table.players, self.table.num_actions)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "TakujoObserver":
        """OpenSpiel's observer: see `TakujoObserver` for the types offered."""
        return TakujoObserver(self, iig_obs_type, params)

    def takujo_game(self) -> Game:
        """The engine's game object of this configuration."""
        return self.table.game


class TakujoState(pyspiel.State):  # type: ignore[misc]
    """A game in progress. Its one Python attribute, ``_e``, holds the driver seat; OpenSpiel
    keeps the history of action numbers itself."""

    def __init__(self, game: TakujoGame, engine: _Engine) -> None:
        super().__init__(game)
        self._e = engine

    @property
    def seat(self) -> Seat:
        """The driver seat (its ``state`` is the engine state: the whole truth, hidden cards
        included). ValueError while the seed is still being drawn."""
        seat = self._e.seat
        if seat is None:
            raise ValueError(f"the game is not dealt yet: {SEED_BYTES - len(self._e.dealt)} "
                             f"seed bytes are still to be drawn at chance nodes")
        return seat

    # ----- the decision ------------------------------------------------------------------------
    def current_player(self) -> int:
        p = self._e.player()
        return _TERMINAL if p is None else p

    def _legal_actions(self, player: int) -> list[int]:
        e = self._e
        if player < 0 or e.player() != player or e.seat is None:
            return []
        return e.seat.legal()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next seed byte: uniform over 0..255 (only at the chance nodes)."""
        if self._e.seat is not None:
            return []
        return list(_BYTE_OUTCOMES)

    def _apply_action(self, action: int) -> None:
        e = self._e
        if e.seat is None:
            e.deal(int(action))
            return
        if e.player() is None:
            raise ValueError(f"action {action}: the game is over")
        e.play(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        e = self._e
        i = int(action)
        if player == _CHANCE:
            return f"seed byte {i}"
        table = e.table
        if not 0 <= i < table.num_actions:
            return f"action {i} (out of range)"
        if e.seat is not None and e.player() == player:
            try:
                act = e.seat.action_of(i)
            except ValueError:
                act = None
            if act is not None:
                return str(act)
        return str(table.index.describe(i))

    def is_terminal(self) -> bool:
        return self._e.player() is None

    def returns(self) -> list[float]:
        """At the end 1/k to each of the k winners and 0 to the others (0 to all when the
        game had no winner or was stopped by the step cap); all 0 before the end."""
        e = self._e
        if e.seat is None or e.truncated():
            return [0.0] * e.table.players
        return e.seat.returns()

    def player_actions(self) -> int:
        """How many player actions have been applied (the step cap counts these)."""
        return self._e.moves

    def is_truncated(self) -> bool:
        """Ended by the step cap (``max_game_length``), not by the rules."""
        return self._e.truncated()

    def __str__(self) -> str:
        e = self._e
        seat = e.seat
        if seat is None:
            return f"{e.table.spec}: drawing the seed, bytes {list(e.dealt)}"
        p = e.player()
        if p is not None:
            where = f"player {p} to act"
        elif e.truncated():
            where = "stopped by the step cap"
        else:
            outcome = seat.state.outcome
            where = f"over, winners {list(outcome.winners) if outcome else []}"
        st = seat.state
        body = type(st).plan().dump(st)
        body["_base"] = {"rng": st.rng.state, "cards_rng": st.cards_rng.state, "steps": st.steps,
                         "outcome": st.outcome.to_json() if st.outcome else None,
                         "selection": seat.selection}
        digest = hashlib.sha256((canonical(body) + e.log_hash()).encode()).hexdigest()[:20]
        return f"{seat.table.spec} action {e.moves}: {where} (state {digest})"

    def indices_of(self, action: Action) -> list[int]:
        """The action numbers that apply the engine action `action` from here: its index, or,
        for a verb chosen card by card (the selection sub-turn), the steps not yet taken."""
        seat = self.seat
        index = seat.table.index
        if not index.is_subset(action.verb):
            return [seat.table.index_of(action, seat.state)]
        path = index.subset_path(action)
        sel = seat.selection
        done = len(sel[2]) if sel is not None and sel[0] == action.player and sel[1] == action.verb else 0
        return path[done:]

    # ----- search ------------------------------------------------------------------------------
    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> "TakujoState":
        """A state `player_id` cannot tell from this one: the engine's `determinize` of their
        view, the hidden cards and the random streams sampled anew from one draw of
        `probability_sampler` (a callable giving a float in [0, 1); None: a draw fixed by this
        state's history). The player's observations of it equal theirs of this state; its
        history is empty; the step count is kept."""
        e = self._e
        n = e.table.players
        if type(player_id) is not int or not 0 <= player_id < n:
            raise ValueError(f"player_id must be a player 0..{n - 1}, not {player_id!r}")
        if probability_sampler is None:
            seed = int.from_bytes(hashlib.sha256(repr(self.history()).encode()).digest()[:8], "little")
        else:
            seed = int(float(probability_sampler()) * 2.0 ** 53)
        seat = self.seat
        state = e.table.game.determinize(seat.state.view(player_id), Rng(seed))
        # the player's own event stream, so that their strings read the same (the engine's
        # determinize starts an empty log; no rule reads the log)
        state.log = [ev for ev in seat.state.log if ev["to"] is None or player_id in ev["to"]]
        sel = seat.selection
        own = sel if sel is not None and sel[0] == player_id else None
        other = Seat(e.table, state, own)
        engine = _Engine(e.table, e.dealt, other, e.moves, e.cap, e.seen_by(player_id))
        return TakujoState(self.get_game(), engine)


# ----- observations --------------------------------------------------------------------------
def _strip_seq(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    for ev in events:
        ev.pop("seq", None)
    return events


#: how many of the player's latest events the observation string shows
RECENT = 16


def view_record(seat: Seat, player: int) -> dict[str, Any]:
    """`player`'s view as the strings show it: without its log (the strings take the events
    from the player's own event stream instead) and the log's cursor (a position in a log that
    holds hidden events too), plus the player's own selection in progress, if any."""
    view = seat.state.view(player)
    view.pop("cursor", None)
    view.pop("log", None)
    sel = seat.selection
    if sel is not None and sel[0] == player:
        view["selection"] = {"verb": sel[1], "cards": list(sel[2])}
    return view


def observation_string(engine: "_Engine", player: int) -> str:
    """``{"recent": [the player's latest events], "view": their view}``, canonical JSON."""
    assert engine.seat is not None
    recent = engine.history_texts(player)[-RECENT:]
    view = canonical(view_record(engine.seat, player))
    return '{"recent":[' + ",".join(recent) + '],"view":' + view + "}"


class HistoryCode:
    """The fixed-length encoding of the actions a player knows of (`_Engine.seen_by`): row k
    is the k-th of them, a one-hot of its maker's seat relative to the player (n) and the bits
    of its index, least significant first (B = bits of num_actions - 1); rows past the last
    are zero. A game has at most `cap` player actions, so `cap` rows always suffice."""

    def __init__(self, players: int, num_actions: int) -> None:
        self.n = players
        self.bits = max(1, (num_actions - 1).bit_length())
        self.width = players + self.bits

    def fill(self, out: np.ndarray, known: Known) -> None:
        """Write the rows of the `known` actions into `out` (float32[cap, width], zeroed here)."""
        out.fill(0.0)
        count = len(known.indices)
        if not count:
            return
        k = np.arange(count)
        out[k, known.makers] = 1.0
        out[k, self.n:] = (known.indices[:, None] >> np.arange(self.bits)) & 1


def information_state_string(engine: "_Engine", player: int, obs: np.ndarray) -> str:
    """``{"actions": [[maker, index], ...], "observation": [[i, x], ...]}``: the actions the
    player knows of (`_Engine.seen_by`) and the nonzero entries of their observation `obs`,
    canonical JSON, so it tells apart exactly the states the tensor does."""
    acts = engine.known(player, engine.table.players).text
    nonzero = [[int(i), float(obs[i])] for i in np.flatnonzero(obs)]
    return f'{{"actions":[{acts}],"observation":{canonical(nonzero)}}}'


class TakujoObserver:
    """Observations of one player (OpenSpiel's PyObserver interface).

    The default type: the tensor is the driver's float32 encoding of the player's view
    (``Seat.observe``), named "observation"; the string is canonical JSON of the view with
    the player's latest events (`observation_string`). With ``perfect_recall`` (the
    information state) the tensor is that observation followed by "history", the actions the
    player knows of (their own, and everyone's public ones) in `HistoryCode`'s rows, and the
    string holds the same two things (`information_state_string`). Before the deal (the
    chance nodes) the tensor is zeros and the string says how many seed bytes are drawn,
    which nobody sees. Offered: the observing player's private information with the public
    information, as the default observation and the information state are; other types
    raise ValueError."""

    def __init__(self, game: TakujoGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        recall = False
        if iig_obs_type is not None:
            if (iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
                    or not iig_obs_type.public_info):
                raise ValueError("takujo games offer observations of one player's view (private "
                                 "information SINGLE_PLAYER, public information on) only; asked "
                                 f"for private_info={iig_obs_type.private_info}, "
                                 f"public_info={iig_obs_type.public_info}")
            recall = bool(iig_obs_type.perfect_recall)
        self.recall = recall
        size = game.table.obs_size
        code = self.code = game.history_code
        self.tensor = np.zeros(game.information_state_tensor_size() if recall else size, np.float32)
        self.dict = {"observation": self.tensor[:size]}
        if recall:
            self.dict["history"] = self.tensor[size:].reshape(game.cap, code.width)

    def set_from(self, state: TakujoState, player: int) -> None:
        seat = state._e.seat
        if seat is None:
            self.tensor.fill(0.0)
            return
        self.dict["observation"][:] = seat.observe(player)
        if self.recall:
            self.code.fill(self.dict["history"], state._e.known(player, self.code.n))

    def string_from(self, state: TakujoState, player: int) -> str:
        seat = state._e.seat
        if seat is None:
            return canonical({"dealing": len(state._e.dealt)})
        if self.recall:
            return information_state_string(state._e, player, seat.observe(player))
        return observation_string(state._e, player)


# ----- takujo's bots as OpenSpiel bots ------------------------------------------------------
class TakujoBot(pyspiel.Bot):  # type: ignore[misc]
    """One of takujo's bots (`takujo.bots.make_bot`: "random", "heuristic", "ismcts:200" …)
    as an OpenSpiel bot for `player`: it sees that player's view and legal actions only, and
    answers with action numbers (a card-by-card choice one step at a time)."""

    def __init__(self, game: TakujoGame, player: int, name: str = "heuristic", seed: int = 0) -> None:
        pyspiel.Bot.__init__(self)
        from ..bots import make_bot
        self.bot = make_bot(name, game.table.game)
        self.player = player
        self.rng = Rng(seed)
        self._plan: list[int] = []

    def restart_at(self, state: TakujoState) -> None:
        self._plan = []

    def inform_action(self, state: TakujoState, player_id: int, action: int) -> None:
        pass

    def step(self, state: TakujoState) -> int:
        p = state.current_player()
        if p != self.player:
            raise ValueError(f"bot of player {self.player} asked to act for player {p}")
        seat = state.seat
        sel = seat.selection
        if self._plan and sel is not None and sel[0] == p:
            return self._plan.pop(0)
        legal = seat.state.legal_actions(p)
        action = self.bot.act(seat.state.view(p), legal, self.rng)
        path = state.indices_of(action)
        self._plan = path[1:]
        return path[0]


# ----- registration --------------------------------------------------------------------------
GAME_TYPES: dict[str, Any] = {}
GAME_CLASSES: dict[str, type[TakujoGame]] = {}


def _register() -> None:
    registered = set(pyspiel.registered_names())
    for name in GAMES:
        gt = GAME_TYPES[name] = game_type(name)
        cls_name = "".join(part.title() for part in name.split("_")) + "Game"
        cls = type(cls_name, (TakujoGame,), {"NAME": name, "__module__": __name__,
                                             "__qualname__": cls_name,
                                             "__doc__": f"takujo {name} as an OpenSpiel game."})
        GAME_CLASSES[name] = cls
        globals()[cls_name] = cls
        if gt.short_name not in registered:
            pyspiel.register_game(gt, cls)


_register()


def game_lengths(spec: str, seeds: Iterable[int]) -> list[int]:
    """The number of player actions (OpenSpiel's moves after the deal, selection steps
    included) of one uniformly random game per engine seed: how `MAX_GAME_LENGTHS` was chosen."""
    table = table_for(load_engine(spec))
    out = []
    for seed in seeds:
        seat = table.new(seed)
        out.append(play_random(seat, Rng(seed)))
        if not seat.is_over():
            raise RuntimeError(f"{spec}: random game {seed} did not end")
    return out


def load(spec: str) -> Any:
    """``load("ibara(players=4,mode=short)")``: the OpenSpiel game of a takujo game string
    (``pyspiel.load_game`` with the ``takujo_`` prefix added)."""
    if not isinstance(spec, str):
        raise TypeError(f"a game string is a str, not {type(spec).__name__}")
    spec = spec.strip()
    return pyspiel.load_game(spec if spec.startswith(PREFIX) else PREFIX + spec)
