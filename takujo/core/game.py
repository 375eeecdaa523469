"""A game: its typed, validated options and the factory for its states.

    game = takujo.load("fuutei", players=4, center_regions="effects_only")
    str(game)  # 'fuutei(players=4,center_regions=effects_only)'
    state = game.new_state(seed=7)
"""
from __future__ import annotations

import importlib
import re
from abc import ABC, abstractmethod
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel, ConfigDict, ValidationError

from .action import Action, ActionTable, ActionTables, BareActions
from .decision import TurnDecisions
from .errors import NotSupportedError, OptionError
from .rng import Rng
from .validation import field_name, problem
from .state import State as GameState
from .targets import ArgKinds, Kind, Signature, Target, Typed

if TYPE_CHECKING:
    from ..bots import Bot


#: Core event kinds no log line is needed for: ``act`` records the action itself (the game
#: logs what it did as its own events).
CORE_SILENT_EVENTS = frozenset({"act"})


class GameOptions(BaseModel):
    """Base of every game's options. Unknown keys are refused."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    players: int


def _fmt(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class Game(ABC):
    """Immutable description of one configured game."""

    name: ClassVar[str]
    title: ClassVar[str]
    Options: ClassVar[type[GameOptions]]
    State: ClassVar[type[GameState]]
    #: The pydantic model of ``state.public_info()`` (the ``public`` part of every view), for
    #: the view schema (`takujo.core.schema`); None leaves it undocumented.
    PublicView: ClassVar[type[BaseModel] | None] = None

    def __init__(self, **options: Any) -> None:
        try:
            opts = self.Options(**options)
        except ValidationError as exc:
            raise OptionError("option.invalid", game=self.name, problems=_describe(exc, options)) from None
        object.__setattr__(self, "options", opts)
        self._check_options(opts)

    options: GameOptions

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError("Game objects are immutable")

    def _check_options(self, options: GameOptions) -> None:
        """Hook for checks across several options; raise OptionError."""

    @property
    def players(self) -> int:
        return self.options.players

    @cached_property
    def bare_actions(self) -> BareActions:
        """``game.bare_actions["end"][p]``: argument-less actions, built once and reused by
        every legal-action list."""
        return BareActions(self.players)

    @property
    def card_count(self) -> int:
        """How many card instances the game's per-card actions range over (a game with cards
        overrides it: the size of its expanded card set)."""
        return 0

    @cached_property
    def card_actions(self) -> ActionTables:
        """``game.card_actions["discard"].row(p, 0)[card]``: the action ``discard card`` of
        player p, one table per verb of one card, built once and reused."""
        n = self.card_count
        return ActionTables(lambda verb: ActionTable.unary(verb, self.players, n))

    @cached_property
    def card_pair_actions(self) -> ActionTables:
        """``game.card_pair_actions["equip"].row(p, card)[other]``: the action ``equip card
        other``, for verbs of two cards."""
        n = self.card_count
        return ActionTables(lambda verb: ActionTable(verb, self.players, n, n))

    @cached_property
    def turn_decisions(self) -> TurnDecisions:
        """``game.turn_decisions[prompt][p]``: one player's TURN decisions, built once."""
        return TurnDecisions(self.players)

    def __str__(self) -> str:
        return self._spec

    @cached_property
    def _spec(self) -> str:
        """The game string (made once: the game is immutable)."""
        parts = [f"players={self.options.players}"]
        for key, info in self.Options.model_fields.items():
            value = getattr(self.options, key)
            if key != "players" and value != info.default:
                parts.append(f"{key}={_fmt(value)}")
        return f"{self.name}({','.join(parts)})"

    def __repr__(self) -> str:
        return f"<Game {self}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and str(self) == str(other)

    def __hash__(self) -> int:
        return hash(str(self))

    @abstractmethod
    def new_state(self, seed: int = 0) -> GameState:
        """A new game, set up with the given seed (all chance comes from it)."""

    def state_from_json(self, data: dict[str, Any]) -> GameState:
        return self.State.from_json(self, data)

    def parse_action(self, text: str, player: int) -> Action:
        return Action.parse(text, player)

    @classmethod
    def option_table(cls) -> list[tuple[str, str, Any, str]]:
        """(name, type, default, help) for every option, for help screens."""
        rows = []
        for key, info in cls.Options.model_fields.items():
            ann = info.annotation
            typ = getattr(ann, "__name__", None) or str(ann).replace("typing.", "")
            if str(ann).startswith("typing.Literal"):
                typ = "|".join(map(str, ann.__args__))  # type: ignore[union-attr]
            rows.append((key, typ, info.default, info.description or ""))
        return rows

    def rng_for(self, seed: int) -> Rng:
        return Rng(seed)

    # ----- simulation hooks (games override these) -----------------------------------------
    @classmethod
    def choose_options(cls, options: dict[str, Any], rng: Rng) -> dict[str, Any]:
        """Options for one game of a series (`takujo sim`, `takujo play`): a game may fill
        options the user left out at random, e.g. pairings of starter decks."""
        return options

    def seat_labels(self) -> list[str]:
        """What sits at each seat besides the bot (a deck, a faction), for statistics."""
        return []

    # ----- decks (games with constructed decks override all three) -----------------------
    # `takujo deck` is built on these. A decklist is plain text: `key: value` lines (e.g.
    # `name:`) and `COUNT CARD` lines, with `#` comments.
    @classmethod
    def starter_deck_names(cls) -> list[str]:
        """The names of this game's starter (preconstructed) decks."""
        raise NotSupportedError("deck.none", game=cls.name)

    @classmethod
    def deck_text(cls, name: str) -> str:
        """The decklist text of the starter deck `name`; OptionError for an unknown name."""
        raise NotSupportedError("deck.none", game=cls.name)

    @classmethod
    def deck_from_text(cls, text: str, cards: str | None = None) -> str:
        """The option value that plays the decklist `text` (e.g. a deck code), checked
        against the construction rules and the card pool `cards` (the value of the game's
        ``cards`` option; default its own file); `OptionError` naming every problem."""
        raise NotSupportedError("deck.none", game=cls.name)

    @classmethod
    def check_deck(cls, path: str | Path) -> list[str]:
        """Every construction problem of the decklist file at `path` (empty when legal).
        A file that cannot be read raises OSError (or UnicodeDecodeError)."""
        raise NotSupportedError("deck.none", game=cls.name)

    # ----- hidden information -------------------------------------------------------------
    def determinize(self, view: dict[str, Any], rng: Rng) -> GameState:
        """A full state that agrees with everything `view` shows, hidden cards sampled on
        `rng` (the bot's own stream). Needed by IS-MCTS."""
        raise NotImplementedError(f"{self.name} cannot determinize views yet")

    # ----- presentation and bots ---------------------------------------------------------
    #: the game's presenter module, read by `takujo.present.Renderer`: ``event_message``,
    #: ``action_message``, ``render_view(game, view, renderer)``, ``card_info(game, query,
    #: renderer)`` and ``SILENT_EVENTS``; the texts are in ``messages_file`` beside the game
    #: (default ``messages.toml``)
    presentation: ClassVar[str | None] = None
    #: ``"module:Class"`` of the game's heuristic bot (constructed with the game)
    heuristic: ClassVar[str | None] = None
    #: the default opponent in ``takujo play``: the strongest bot measured that answers within
    #: about a second (docs/bots.md)
    play_bot: ClassVar[str] = "heuristic"
    #: ``"module:function"`` of the game's evaluation for search: ``estimate(state)`` gives each
    #: player's rough chance of winning from `state` (it lives with the game's bots, not its rules)
    estimator: ClassVar[str | None] = None
    #: random steps IS-MCTS plays past its tree before scoring with `Game.estimate`
    rollout_depth: ClassVar[int] = 10
    #: IS-MCTS bonus for the heuristic's choice at the root: 0 gives 1 / (visits + 1), fading;
    #: c > 0 gives c * sqrt(root visits) / (visits + 1), PUCT-style, lasting
    prior_puct: ClassVar[float] = 0.0

    def _presenter(self) -> Any:
        return importlib.import_module(self.presentation) if self.presentation else None

    def heuristic_bot(self) -> Bot:
        """This game's heuristic bot (an object with ``act(view, legal, rng)``)."""
        if not self.heuristic:
            raise NotImplementedError(f"{self.name} has no heuristic bot")
        module, _, cls = self.heuristic.partition(":")
        bot: Bot = getattr(importlib.import_module(module), cls)(self)
        return bot

    def estimate(self, state: GameState) -> list[float]:
        """Each player's rough chance of winning from `state` (sums to 1), for search cut-offs
        and the lab's lead changes: the finished outcome when over, else the game's
        `estimator` (even chances without one)."""
        n = self.players
        outcome = state.outcome
        if outcome is not None and outcome.winners:
            return [1 / len(outcome.winners) if p in outcome.winners else 0.0 for p in range(n)]
        if outcome is None and self.estimator:
            fn = _ESTIMATORS.get(self.estimator)
            if fn is None:
                module, _, name = self.estimator.partition(":")
                fn = _ESTIMATORS[self.estimator] = getattr(importlib.import_module(module), name)
            return fn(state)  # type: ignore[no-any-return]
        return [1 / n] * n

    def export_catalogue(self) -> dict[str, Any]:
        """Every card (and board square or province) with names, stats and texts in both
        languages, as JSON-able data for clients: ``{"game": ..., "cards": [...], ...}``."""
        raise NotSupportedError("catalogue.none", game=self.name)

    def card_names(self, card: Any) -> tuple[str, str]:
        """A card's (Japanese, English) names, for messages; games with cards override it."""
        raise KeyError(card)

    def place_names(self, of: str, place: Any) -> tuple[str, str]:
        """A place's (Japanese, English) names (`of`: which places, as `Target.of` says);
        games with a board override it."""
        raise KeyError(place)

    def places(self, of: str) -> list[int]:
        """Every place of kind `of` (a board's provinces, squares …); [] for a game without."""
        return []

    def is_card(self, of: str, value: Any) -> bool:
        """Whether `value` may name a card of group `of` (`Target.card`): an instance id; a
        game whose play makes cards of its own (tokens) overrides it."""
        return type(value) is int and 0 <= value < self.card_count

    #: The kinds of every action's arguments (`takujo.core.targets`); a game declares its
    #: own by overriding `_arg_kinds`.
    def _arg_kinds(self) -> ArgKinds:
        return ArgKinds()

    @cached_property
    def arg_table(self) -> ArgKinds:
        return self._arg_kinds()

    def arg_kinds(self, action: Action) -> Signature:
        """The declared kind of each argument of `action` (`Kind.ANY` for each argument of a
        verb the game does not declare; the conformance kit requires every legal action's)."""
        try:
            return self.arg_table.of(self, action)
        except KeyError:
            return (_UNDECLARED,) * len(action.args)

    def typed_args(self, action: Action) -> list[Typed]:
        """`action`'s arguments paired with their kinds."""
        kinds = self.arg_kinds(action)
        return [Typed(k, v) for k, v in zip(kinds, action.args)]

    def arg_problems(self, action: Action) -> list[str]:
        """What is wrong with the declared kinds of a (legal) action: a count that differs
        from its arguments, or a value outside its kind (for the conformance kit)."""
        try:
            kinds = self.arg_table.of(self, action)
        except KeyError as exc:
            return [str(exc.args[0]) if exc.args else f"{action.verb}: undeclared"]
        if len(kinds) != len(action.args):
            return [f"{action}: {len(action.args)} arguments, {len(kinds)} kinds declared "
                    f"({', '.join(map(str, kinds))})"]
        out = []
        for k, v in zip(kinds, action.args):
            bad = ((k.kind is Kind.PLAYER and not (type(v) is int and 0 <= v < self.players))
                   or (k.kind is Kind.CARD and not self.is_card(k.of, v))
                   or (k.kind is Kind.PLACE and v not in self.places(k.of))
                   or (k.kind is Kind.NUMBER and type(v) is not int)
                   or (k.kind is Kind.WORD and (type(v) is not str or (k.words and v not in k.words))))
            if bad:
                out.append(f"{action}: {v!r} is not a {k}")
        return out

    def silent_events(self) -> frozenset[str]:
        """Event kinds the game's presenter leaves out of the log on purpose (e.g. a shuffle
        nobody can see); every other kind it logs must render as a sentence."""
        mod = self._presenter()
        own = frozenset(getattr(mod, "SILENT_EVENTS", ())) if mod is not None else frozenset()
        return own | CORE_SILENT_EVENTS

_ESTIMATORS: dict[str, Any] = {}
_UNDECLARED = Target(Kind.ANY)


def _describe(exc: ValidationError, given: dict[str, Any]) -> list[OptionError]:
    msgs = []
    for err in exc.errors():
        key = field_name(err, "?")
        if err["type"] == "extra_forbidden":
            msgs.append(OptionError("option.unknown", option=key))
        elif err["type"] == "missing":
            msgs.append(OptionError("option.required", option=key))
        else:
            msgs.append(OptionError("option.bad_value", option=key, value=repr(given.get(key))[:80],
                                    problem=problem(err)))
    return msgs


_SPEC = re.compile(r"^\s*([a-z_][a-z0-9_]*)\s*(?:\((.*)\))?\s*$")


def parse_game_string(spec: str) -> tuple[str, dict[str, str]]:
    """``"fuutei(players=4,center_regions=invadable)"`` -> ("fuutei", {...}). An option given
    twice is refused."""
    if not isinstance(spec, str):
        raise OptionError("game_string.not_str", type=type(spec).__name__, value=str(spec)[:40])
    if len(spec) > 4000:
        raise OptionError("game_string.too_long", length=len(spec), limit=4000)
    m = _SPEC.match(spec)
    if not m:
        raise OptionError("game_string.bad", spec=spec)
    name, body = m.group(1), m.group(2)
    opts: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in (body or "").split(","))):
        key, sep, value = part.partition("=")
        if not sep or not key.strip():
            raise OptionError("game_string.bad_option", part=part, spec=spec)
        key = key.strip()
        if key in opts:
            raise OptionError("game_string.twice", option=key, spec=spec)
        opts[key] = value.strip()
    return name, opts
