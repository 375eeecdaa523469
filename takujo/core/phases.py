"""The flow of a game: its phases, how one leads to the next, the windows that interrupt them
and the actions open at any time, declared once (as boardgame.io's flow declares phases).

A state whose turn runs through named phases lists them in one table instead of three
parallel if-chains (in `pending`, `_legal` and `_apply`). Each `Phase` says who decides
(`decision`), what they may do (`legal`) and what it does (`apply`); it may also say what
happens when it begins and ends (`on_begin`, `on_end`), when it is over by itself (`end_if`)
and what comes next (`next`)::

    class MyState(PhasedState):
        windows: list[Window] = []            # open response windows, innermost last

        def _draw(self) -> None: ...          # the turn player draws
        def _hand_fits(self) -> bool: return len(self.hand[self.turn_player]) <= 7
        def _pass_turn(self) -> None: self.turn_player = 1 - self.turn_player

        PHASES = {
            MAIN: Phase(_turn_decision, _main_actions, _apply_main, on_begin=_draw, next=DISCARD),
            DISCARD: Phase(_turn_decision, _discard_actions, _apply_discard,
                           end_if=_hand_fits, on_end=_pass_turn, next=MAIN),
        }
        INTERRUPTS = {"counter": Phase(_window_decision, _counter_actions, _apply_counter)}
        ALWAYS = {"concede": Always(_concede_actions, _concede)}

        def on_move(self) -> None:            # after every action
            self.check_victory()

Here ``end`` in the main phase calls ``self.end_phase()``: DISCARD begins, and if the hand
already fits it ends at once, the turn passes (DISCARD's on_end) and MAIN begins again with a
draw. A discard that makes the hand fit ends DISCARD the same way: `end_if` is checked when
its phase begins, after each of the phase's own actions that leaves it in that phase with no
window open, and when the last open window closes.

- ``state.enter(name)`` ends the phase in progress (its `on_end`) and begins `name` (its
  `on_begin`, then its `end_if`); ``state.end_phase()`` does the same for the phase the
  current one's `next` names (a name, or a function of the state returning one), worked out
  after its `on_end`. A phase skipped because its `end_if` holds at once leads to its own
  `next`, and so on. Nothing moves once the game is over; `on_begin` may move on itself (with
  `enter`), `on_end` may not. Setting ``state.phase`` directly changes the phase without any
  hook: the steps inside a phase (an attack's interception) and test set-ups do that.
- `INTERRUPTS`: an open `Window` (core `response`) interrupts every phase. A state with
  windows keeps them in a ``windows`` field, innermost last; while any is open the entry of
  the innermost one's `kind` decides, lists and applies, and the phase waits below. The
  game's window code opens and closes them (push and pop).
- `ALWAYS`: actions open to every seated player whatever the phase, whoever is to decide,
  while the game goes on (conceding). They are left out of the decision's own lists
  (`first_choice`, ``legal_actions(p)``, which bots, search and the research adapters use),
  so nothing that plays by those lists ever picks one; ``legal_actions(p, always=True)``
  (what a person's client offers) and `State.apply`'s check include them, and they are
  applied, logged and counted like any other action.
- `on_move`: a method the state may override, called after every action (each game's
  instant victory checks).

The hot path stays one dict lookup (the phase's entry) and, for a state with windows, one
list check (and for one with always-open actions, one look at the verb): each class gets the
plain or the windowed methods when it is made, hooks run only when a phase changes, and
`end_if` is called after an action only in a phase that has one. The tables are read when the
class is made: a class that needs other phases is a subclass with its own `PHASES`.
"""
from __future__ import annotations

from typing import Any, Callable, ClassVar, Mapping, NamedTuple

from .action import Action
from .decision import Decision
from .state import State


class Phase(NamedTuple):
    """One phase: `decision(state)` is the pending decision, `legal(state, player)` that
    player's legal actions, `apply(state, action)` applies a legal one. Optional hooks (see the
    module's docstring): `on_begin(state)` and `on_end(state)` run when it begins and ends;
    `end_if(state)`, checked when it begins and after each of its actions, ends it when true;
    `next` names the phase that follows (or is a function of the state giving the name)."""

    decision: Callable[[Any], Decision]
    legal: Callable[[Any, int], list[Action]]
    apply: Callable[[Any, Action], None]
    on_begin: Callable[[Any], None] | None = None
    on_end: Callable[[Any], None] | None = None
    end_if: Callable[[Any], bool] | None = None
    next: str | Callable[[Any], str] | None = None


class Always(NamedTuple):
    """An action open to every seated player at any time while the game goes on:
    `legal(state, player)` lists that player's, `apply(state, action)` applies one."""

    legal: Callable[[Any, int], list[Action]]
    apply: Callable[[Any, Action], None]


class PhasedState(State):
    """A state driven by its `PHASES` table, its `INTERRUPTS` and its `ALWAYS` actions (see
    the module's docstring)."""

    PHASES: ClassVar[Mapping[str, Phase]] = {}
    #: the entry answering an open window, by the window's kind (a state with any has a
    #: ``windows: list[Window]`` field)
    INTERRUPTS: ClassVar[Mapping[str, Phase]] = {}
    #: actions open at any time, by verb
    ALWAYS: ClassVar[Mapping[str, Always]] = {}
    #: made from `PHASES` with the class: each phase's apply function (see `_applies`), and
    #: its hooks as a plain tuple (on_begin, on_end, end_if, next), read when phases change
    _APPLIES: ClassVar[dict[str, Callable[[Any, Action], None]]] = {}
    _HOOKS: ClassVar[dict[str, tuple[Any, Any, Any, Any]]] = {}
    phase: str

    @classmethod
    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        _check(cls)
        _install(cls)

    def current_phase(self) -> Phase:
        """The entry in effect: the innermost open window's, else the phase's."""
        return self.PHASES[self.phase]

    @property
    def pending(self) -> Decision | None:
        if self.outcome is not None:
            return None
        return self.PHASES[self.phase].decision(self)

    def _legal(self, player: int) -> list[Action]:
        return self.PHASES[self.phase].legal(self, player)

    def _apply(self, action: Action) -> None:
        _apply_phase(self, action)

    def on_move(self) -> None:
        """Called after every action (a phase's, a window's or an always-open one) when a
        state overrides it; by default there is nothing to do."""

    def always_actions(self, player: int) -> list[Action]:
        if self.outcome is not None or not self.ALWAYS or not 0 <= player < self.game.players:
            return []
        return [a for entry in self.ALWAYS.values() for a in entry.legal(self, player)]

    # ----- moving between phases ---------------------------------------------------------
    def enter(self, phase: str | None = None) -> None:
        """End the phase in progress (its `on_end`) and begin `phase` (its `on_begin`), or
        without one the phase the ending one's `next` names; if the new phase's `end_if`
        holds at once, it ends in turn and its own `next` begins, and so on."""
        hooks = self._HOOKS                         # name -> (on_begin, on_end, end_if, next)
        while self.outcome is None:
            ending = hooks.get(self.phase)
            if ending is not None and ending[1] is not None:
                ending[1](self)
                if self.outcome is not None:
                    return
            if phase is None:
                step = ending[3] if ending is not None else None
                if step is None:
                    raise RuntimeError(f"{type(self).__name__}: phase {self.phase!r} ended but names no next phase")
                phase = step if isinstance(step, str) else step(self)
            self.phase = phase
            on_begin, _, end_if, _ = hooks[phase]
            if on_begin is not None:
                on_begin(self)
                if self.phase != phase:            # it moved on (or ended the game) itself
                    return
            if self.outcome is not None or end_if is None or not end_if(self):
                return
            phase = None

    #: ``end_phase()``: end the phase in progress and begin the one its `next` names (`enter`
    #: without a phase; one method, since phases change many times a game)
    end_phase = enter


# ----- the methods each class gets (`_install`) ---------------------------------------------------
# Written out for each kind of state, so that none pays for what it does not have (they are
# the hot path of every step): without windows, with and without `on_move`; with windows; and
# each with the always-open actions (those with windows or always-open actions call `on_move`
# whether or not the state overrides it). Each class's `_APPLIES` maps a phase to the function
# applying its actions: the phase's own `apply`, followed by its `end_if` in a phase that has
# one, so that the others pay nothing for it.
def _apply_phase(self: Any, action: Action) -> None:
    self._APPLIES[self.phase](self, action)


def _apply_phase_moved(self: Any, action: Action) -> None:
    self._APPLIES[self.phase](self, action)
    self.on_move()


def _apply_windows(self: Any, action: Action) -> None:
    windows = self.windows
    if windows:
        self.INTERRUPTS[windows[-1].kind].apply(self, action)
        if not self.windows:
            _windows_closed(self)
    else:
        self._APPLIES[self.phase](self, action)
    self.on_move()


def _apply_phase_always(self: Any, action: Action) -> None:
    if action.verb in self.ALWAYS:
        self.ALWAYS[action.verb].apply(self, action)
    else:
        self._APPLIES[self.phase](self, action)
    self.on_move()


def _apply_windows_always(self: Any, action: Action) -> None:
    windows = self.windows
    if action.verb in self.ALWAYS:
        self.ALWAYS[action.verb].apply(self, action)
    elif windows:
        self.INTERRUPTS[windows[-1].kind].apply(self, action)
        if not self.windows:
            _windows_closed(self)
    else:
        self._APPLIES[self.phase](self, action)
    self.on_move()


def _windows_closed(self: Any) -> None:
    """The last open window closed: the phase below may be over."""
    entry = self.PHASES.get(self.phase)
    if entry is not None and entry.end_if is not None and self.outcome is None and entry.end_if(self):
        self.end_phase()


def _applies(cls: type[PhasedState], windowed: bool) -> dict[str, Callable[[Any, Action], None]]:
    """Each phase's `apply`, followed by its `end_if` where it has one (unless the action left
    the phase, ended the game or opened a window)."""
    out: dict[str, Callable[[Any, Action], None]] = {}
    for name, entry in cls.PHASES.items():
        out[name] = entry.apply if entry.end_if is None else _then_end_if(name, entry.apply, entry.end_if, windowed)
    return out


def _then_end_if(name: str, apply: Callable[[Any, Action], None], end_if: Callable[[Any], bool],
                 windowed: bool) -> Callable[[Any, Action], None]:
    if windowed:
        def run(self: Any, action: Action) -> None:
            apply(self, action)
            if self.phase == name and self.outcome is None and not self.windows and end_if(self):
                self.end_phase()
    else:
        def run(self: Any, action: Action) -> None:
            apply(self, action)
            if self.phase == name and self.outcome is None and end_if(self):
                self.end_phase()
    return run


def _pending_windows(self: Any) -> Decision | None:
    if self.outcome is not None:
        return None
    windows = self.windows
    return (self.INTERRUPTS[windows[-1].kind] if windows else self.PHASES[self.phase]).decision(self)  # type: ignore[no-any-return]


def _legal_windows(self: Any, player: int) -> list[Action]:
    windows = self.windows
    return (self.INTERRUPTS[windows[-1].kind] if windows else self.PHASES[self.phase]).legal(self, player)  # type: ignore[no-any-return]


def _current_windows(self: Any) -> Phase:
    windows = self.windows
    return self.INTERRUPTS[windows[-1].kind] if windows else self.PHASES[self.phase]  # type: ignore[no-any-return]


#: `_apply` by (windows, always-open actions, `on_move` overridden)
_APPLY = {(False, False, False): _apply_phase, (False, False, True): _apply_phase_moved,
          (True, False, False): _apply_windows, (True, False, True): _apply_windows,
          (False, True, False): _apply_phase_always, (False, True, True): _apply_phase_always,
          (True, True, False): _apply_windows_always, (True, True, True): _apply_windows_always}
_WINDOWED: dict[str, Any] = {"pending": property(_pending_windows), "_legal": _legal_windows,
                             "current_phase": _current_windows}
_PLAIN: dict[str, Any] = {name: PhasedState.__dict__[name] for name in _WINDOWED}
_FLOW_METHODS: set[Any] = {*_APPLY.values(), *_WINDOWED.values(), *_PLAIN.values(), PhasedState.__dict__["_apply"]}


def _defined_by(cls: type, name: str) -> type:
    return next(k for k in cls.__mro__ if name in k.__dict__)


def _ours(cls: type, name: str) -> bool:
    """Whether `cls`'s `name` is the flow's own (not a method the game wrote itself)."""
    owner = _defined_by(cls, name)
    return owner is PhasedState or owner.__dict__[name] in _FLOW_METHODS


def _check(cls: type[PhasedState]) -> None:
    """The declaration makes sense: every `next` named exists, a phase that can end by itself
    says what follows, a state with windows has a field to hold them."""
    for name, entry in cls.PHASES.items():
        if not isinstance(entry, Phase):
            raise TypeError(f"{cls.__name__}.PHASES[{name!r}] is not a Phase")
        if isinstance(entry.next, str) and entry.next not in cls.PHASES:
            raise TypeError(f"{cls.__name__}: phase {name!r} is followed by {entry.next!r}, which is not a phase")
        if entry.end_if is not None and entry.next is None:
            raise TypeError(f"{cls.__name__}: phase {name!r} may end by itself (end_if) but names no next phase")
    if cls.INTERRUPTS and not hasattr(cls, "windows"):
        raise TypeError(f"{cls.__name__} declares INTERRUPTS but no windows field to hold open windows")
    if cls.ALWAYS and not _ours(cls, "_apply"):
        raise TypeError(f"{cls.__name__} declares ALWAYS actions but applies actions itself (_apply)")


def _install(cls: type[PhasedState]) -> None:
    """Give `cls` the driver methods its declaration needs (unless it wrote its own)."""
    windowed = bool(cls.INTERRUPTS)
    moved = _defined_by(cls, "on_move") is not PhasedState
    for name, method in _WINDOWED.items():
        if _ours(cls, name):
            setattr(cls, name, method if windowed else _PLAIN[name])
    cls._APPLIES = _applies(cls, windowed)
    cls._HOOKS = {name: (e.on_begin, e.on_end, e.end_if, e.next) for name, e in cls.PHASES.items()}
    if _ours(cls, "_apply"):
        setattr(cls, "_apply", _APPLY[windowed, bool(cls.ALWAYS), moved])
