"""The state of one game in progress: plain data plus the one driver surface.

    state = game.new_state(seed=1)
    while state.outcome is None:
        decision = state.pending            # who must act, and how
        actions = state.legal_actions(decision.players[0])
        state.apply(actions[0])             # IllegalActionError leaves the state untouched

Subclasses declare their data once, as annotated attributes (`takujo.core.fields`: that makes
their slots, initial values, `clone`, `to_json` and `from_json`), and implement `pending`,
`_legal`, `_apply`, `zone` and `public_info`; everything else (checking, views, chance
logging) is shared here.
"""
from __future__ import annotations

from abc import abstractmethod
from typing import TYPE_CHECKING, Any, ClassVar, Self

from . import events
from .action import Action
from .decision import Decision, DecisionKind, Outcome
from .dice import Dice
from .errors import IllegalActionError, StaleActionError
from .fields import Declared, Frame
from .plain import copy_plain
from .rng import Rng
from .visibility import ZoneSpec, derive_view, events_between

#: Mixed into a state's seed for its second random stream: the cards' (shuffles, so the deal).
CARDS_SALT = 0x5DEECE66D_C0FFEE

if TYPE_CHECKING:
    from .game import Game


def frame_json(frame: Frame | None) -> dict[str, Any] | None:
    """A frame (a battle, a combat) as fresh plain data for a view or a save, or None."""
    return None if frame is None else frame.to_json()


class State(metaclass=Declared, by_hand=True):
    """Base class of every game's state. Its own fields (below) are copied and saved by the
    code of this class; a subclass's annotated fields by `takujo.core.fields`."""

    ZONES: ClassVar[tuple[ZoneSpec, ...]] = ()

    game: "Game"
    rng: Rng
    cards_rng: Rng
    log: list[events.Event]
    outcome: Outcome | None
    steps: int
    #: False while `log` is a list another clone holds too: the next event copies it first
    #: (copy on write), so a clone costs the same late in a game as early.
    _own_log: bool

    def _init_base(self, game: "Game", rng: Rng, cards_rng: Rng | None = None, defaults: bool = True) -> None:
        """`rng` draws the dice and random picks; `cards_rng` (default: derived from `rng`'s
        seed) the shuffles, hence the deal. Two streams, so that a rule changing how many dice
        are rolled leaves the cards dealt from the same seed alone (paired experiments)."""
        self.game = game
        self.rng = rng
        self.cards_rng = cards_rng if cards_rng is not None else Rng(raw_state=rng.state ^ CARDS_SALT)
        self.log = []
        self._own_log = True
        self.outcome = None
        self.steps = 0
        if defaults:          # (loading sets every field itself)
            type(self).plan().set_defaults(self, game.players)
        self._bind(game)

    def reset_fields(self) -> None:
        """Every declared field back to its initial value (builders of test situations start
        from here, then set what the situation needs)."""
        type(self).plan().set_defaults(self, self.game.players)

    def _bind(self, game: "Game") -> None:
        """Set the `Bound` fields (what comes with the game: its catalogue, its board …), on
        creation and on loading; a game with such fields overrides it."""

    # ----- driver surface -------------------------------------------------------------
    @property
    @abstractmethod
    def pending(self) -> Decision | None:
        """The decision the game waits for, or None once the game is over."""

    def legal_actions(self, player: int | None = None, *, always: bool = False) -> list[Action]:
        """Legal actions of `player` (default: every player the pending decision names);
        [] for a player who is not to act. With ``always=True``, also the actions open to
        every seated player at any time (`always_actions`: conceding), which bots, search and
        the adapters never see: what a person's client offers, and what `apply` accepts."""
        pend = self.pending
        if pend is None:
            return []
        if player is None:
            out = [a for p in pend.players for a in self._legal(p)]
            return out + [a for p in range(self.game.players) for a in self.always_actions(p)] if always else out
        if player not in pend.players:
            return self.always_actions(player) if always else []
        return self._legal(player) + self.always_actions(player) if always else self._legal(player)

    def always_actions(self, player: int) -> list[Action]:
        """The actions `player` may take at any time while the game goes on, whoever is to
        decide ([] for a player not seated); none unless the game declares some
        (`takujo.core.phases`: ``ALWAYS``)."""
        return []

    @abstractmethod
    def _legal(self, player: int) -> list[Action]:
        """Legal actions of `player`, who is named by the pending decision."""

    @abstractmethod
    def _apply(self, action: Action) -> None:
        """Apply a legal action and advance to the next decision."""

    @property
    def version(self) -> int:
        """How many actions have been applied: it grows by one with each (views carry it)."""
        return self.steps

    def apply(self, action: Action | str, player: int | None = None, expect_version: int | None = None) -> None:
        """Apply an action (or its notation). Illegal ones raise and change nothing; with
        `expect_version`, an action meant for another version raises `StaleActionError`."""
        if expect_version is not None and expect_version != self.steps:
            raise StaleActionError("action.stale", chosen=expect_version, current=self.steps)
        if isinstance(action, str):
            action = self.parse_action(action, player)
        elif not isinstance(action, Action):
            raise IllegalActionError("action.not_action", type=type(action).__name__,
                                     value=str(action)[:40])
        if self.outcome is not None:
            raise IllegalActionError("action.game_over", action=str(action))
        legal = self.legal_actions(action.player, always=True)
        if action not in legal:
            pend = self.pending
            if (pend is None or action.player not in pend.players) and all(a.verb != action.verb for a in legal):
                raise IllegalActionError("action.not_your_decision", player=action.player, action=str(action))
            shown = ", ".join(map(str, legal[:12])) + (" …" if len(legal) > 12 else "")
            raise IllegalActionError("action.not_legal", action=str(action), player=action.player, legal=shown)
        self._log_act(action, self.pending)
        self._apply(action)
        self.steps += 1

    def apply_unchecked(self, action: Action, pending: Decision | None = None) -> None:
        """Fast path for bots that take actions from `legal_actions`: no legality check.
        `pending`, when given, is the current ``self.pending`` (saves computing it again)."""
        self._log_act(action, pending or self.pending)
        self._apply(action)
        self.steps += 1

    def first_choice(self) -> tuple[Decision | None, list[Action]]:
        """The pending decision and the legal actions of the first player it names, computed
        once (for fast loops: random play, search rollouts)."""
        pend = self.pending
        return (pend, self._legal(pend.players[0])) if pend is not None else (None, [])

    def _log_act(self, action: Action, pend: Decision | None) -> None:
        # Choices in simultaneous and response decisions are seen only by their maker.
        hidden = pend is not None and pend.kind is not DecisionKind.TURN
        self.append_event({"e": "act", "to": [action.player] if hidden else None,
                           "player": action.player, "action": str(action)})

    def append_event(self, event: events.Event) -> None:
        """Add `event` to the log (the one way events enter it: a log shared with a clone is
        copied first)."""
        if not self._own_log:
            self.log = list(self.log)
            self._own_log = True
        self.log.append(event)

    def parse_action(self, text: str, player: int | None = None) -> Action:
        """Read action notation for `player` (default: the single player to act)."""
        if player is None:
            pend = self.pending
            if pend is None or len(pend.players) != 1:
                raise IllegalActionError("action.which_player")
            player = pend.players[0]
        return self.game.parse_action(text, player)

    @property
    def to_act(self) -> tuple[int, ...]:
        pend = self.pending
        return pend.players if pend else ()

    # ----- chance ---------------------------------------------------------------------
    def roll(self, dice: Dice, why: str, player: int | None = None, **fields: Any) -> tuple[int, tuple[int, ...]]:
        """Roll `dice` on the state's RNG and log the realised faces publicly."""
        total, faces = dice.roll(self.rng)
        self.say("roll", None, chance=True, why=why, player=player, dice=str(dice), faces=list(faces),
                 total=total, **fields)
        return total, faces

    def shuffle(self, cards: list[int], what: str) -> None:
        """Shuffle in place (the cards' stream); the order is logged for the record only
        (nobody sees it)."""
        self.cards_rng.shuffle(cards)
        self.say("shuffle", events.NOBODY, chance=True, what=what, order=list(cards))

    def pick(self, n: int, why: str, to: list[int] | None = None, **fields: Any) -> int:
        """A uniform random index in [0, n) (a random choice announced like a die: who starts,
        a card discarded at random), drawn from the dice's stream and logged."""
        i = self.rng.below(n)
        self.say("random", to, chance=True, why=why, n=n, index=i, **fields)
        return i

    def say(self, kind: str, to: list[int] | None = None, /, **fields: Any) -> None:
        """Log an event (`events.Event`); `to` (positional) limits who sees it (None:
        everyone). The one place events are built."""
        if "e" in fields or "to" in fields or not (to is None or type(to) is list):
            raise TypeError(f"event {kind!r}: 'to' is the audience (None or a list of players), "
                            f"got {to!r}; 'e' and 'to' are reserved field names")
        if not self._own_log:          # `append_event`, inline: the most frequent call of a step
            self.log = list(self.log)
            self._own_log = True
        self.log.append({"e": kind, "to": to, **fields})

    def end_game(self, winners: tuple[int, ...], reason: str, scores: tuple[int, ...] = ()) -> bool:
        """Record the outcome (once) and log it for everyone; False if the game had ended."""
        if self.outcome is not None:
            return False
        self.outcome = Outcome(tuple(winners), reason, tuple(scores))
        self.say("game_over", winners=list(winners), reason=reason)
        return True

    # ----- statistics (for simulations) ------------------------------------------------
    def seat_labels(self) -> list[str]:
        """What sits at each seat besides the bot (a deck, a knight …); default: the game's."""
        return self.game.seat_labels()

    def estimate(self) -> list[float]:
        """Each player's rough chance of winning from here: `Game.estimate` (the evaluation
        belongs to the game's bots, not to its rules)."""
        return self.game.estimate(self)

    def check_invariants(self) -> list[str]:
        """Every fact a fast path caches or flags, recomputed the full way: a description of
        each that no longer holds (empty when all do). The conformance kit calls it after every
        step of its random games; a game with caches overrides it."""
        return []

    def stats(self) -> dict[str, float]:
        """Per-game figures worth averaging over a simulation (e.g. anger explosions)."""
        return {}

    # ----- visibility -----------------------------------------------------------------
    @abstractmethod
    def zone(self, name: str) -> Any:
        """The live list (or per-player lists) of card ids of a declared zone."""

    @abstractmethod
    def public_info(self) -> dict[str, Any]:
        """Facts everyone sees that are not card zones (phase, scores, battle, …), as fresh
        data: views hand it out as it is, so it must share no list or dict with the state
        (the conformance kit checks it)."""

    def view(self, player: int | None, legal: list[Action] | None = None, lean: bool = False) -> dict[str, Any]:
        """What `player` (None: a spectator) may know. Bots and clients get only this.
        Its ``log`` holds the latest events the player may see; ``cursor`` is where the log
        stands, for `events_for`. `legal`, when given, is ``legal_actions(player)`` already
        computed (a server that checked an action against it need not compute it again).
        A `lean` view leaves out the labels and the events, for encoders (`derive_view`)."""
        return derive_view(self, player, legal, lean)

    def events_for(self, player: int | None, since: int = 0) -> list[dict[str, Any]]:
        """Copies of every event from sequence number `since` on that `player` (None: a
        spectator) may see, each with its ``seq``. ``view(p)["cursor"]`` is the next one."""
        if type(since) is not int or since < 0:
            raise ValueError(f"since must be a sequence number (an int >= 0), not {since!r}")
        return events_between(self.log, player, since, len(self.log))

    # ----- copying and serialising ----------------------------------------------------
    def clone(self) -> Self:
        """An independent copy: the declared fields copied as deep as their types say (code
        generated from the declaration), the log shared until either adds to it (events never
        change once logged; `append_event` copies a shared list first)."""
        cls = type(self)
        other = cls.__new__(cls)
        other.game = self.game
        other.rng = self.rng.clone()
        other.cards_rng = self.cards_rng.clone()
        other.log = self.log
        other._own_log = self._own_log = False
        other.outcome = self.outcome
        other.steps = self.steps
        (cls._PLAN or cls.plan()).clone_into(self, other)
        return other

    def to_json(self, *, copy_log: bool = True) -> dict[str, Any]:
        """The whole state as plain JSON data (`from_json` reads it back). With
        ``copy_log=False`` the log's events are the state's own (never mutated once logged),
        for data that is serialized at once and not kept."""
        data = type(self).plan().dump(self)
        data["_base"] = {
            "game": str(self.game),
            "rng": self.rng.state,
            "cards_rng": self.cards_rng.state,
            "log": [copy_plain(e) for e in self.log] if copy_log else list(self.log),
            "outcome": self.outcome.to_json() if self.outcome else None,
            "steps": self.steps,
        }
        return data

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    @classmethod
    def from_json(cls, game: "Game", data: dict[str, Any]) -> Self:
        base = data["_base"]
        if base["game"] != str(game):
            raise ValueError(f"state belongs to {base['game']}, not {game}")
        state = cls.__new__(cls)
        cards = base.get("cards_rng")  # absent from older states and sampled worlds: derived
        state._init_base(game, Rng(raw_state=base["rng"]), Rng(raw_state=cards) if cards is not None else None,
                         defaults=False)
        state.log = [copy_plain(e) for e in base["log"]]
        state.outcome = Outcome.from_json(base["outcome"]) if base["outcome"] else None
        state.steps = base["steps"]
        cls.plan().load(state, data, game.players)
        return state
