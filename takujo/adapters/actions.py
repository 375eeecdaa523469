"""A fixed discrete action index per game configuration, for learning agents.

An engine action is a verb and its arguments (``equip 55 17``). Learning libraries want a
fixed set of action numbers 0..n-1 and a mask of the legal ones. `ActionIndex` lays the verbs
of one game configuration out one after another; within a verb, the index is a mixed-radix
number over the declared argument domains (`Slot`s of a `Dom`). The layout is exact: every
action that can be legal has exactly one index, and `index` refuses (never wraps) anything
outside the declared domains, so a verb or an argument the declaration does not know fails
loudly instead of colliding with another action.

Two kinds of argument need the legal list to decode:

* a *derived* slot is set by the state, not chosen (戦国大戦's attack mode and the card that
  pays for it): it is left out of the index, and `action` picks the unique legal action with
  that index;
* a *subset* verb takes a variable-length sorted subset of a domain (いばら's multi-card
  fight): its index range is ``add c`` for each c of the domain, then ``commit``; the driver
  builds the subset one card at a time (a selection sub-turn, `SubsetSteps`).

Per-game declarations live beside this module (``takujo/adapters/<game>.py``).
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from ..core.action import Action, Arg
from ..core.targets import Kind, Signature, Target


class ActionIndexError(ValueError):
    """An action (or an index) outside the declared layout."""


class Dom:
    """A finite argument domain: ``values[i] <-> i``. Contiguous ints decode by offset."""

    __slots__ = ("values", "_start", "_codes", "name")

    def __init__(self, values: Iterable[Arg], name: str = "") -> None:
        vals = tuple(values)
        if len(set(vals)) != len(vals):
            raise ValueError(f"domain {name!r} repeats a value")
        self.values: tuple[Arg, ...] = vals
        self.name = name
        ints = all(type(v) is int for v in vals)
        contiguous = ints and bool(vals) and list(vals) == list(range(int(vals[0]), int(vals[0]) + len(vals)))
        self._start: int | None = int(vals[0]) if contiguous else None
        self._codes: dict[Arg, int] = {} if contiguous else {v: i for i, v in enumerate(vals)}

    @staticmethod
    def ints(n: int, start: int = 0, name: str = "") -> "Dom":
        return Dom(range(start, start + n), name or f"{start}..{start + n - 1}")

    @staticmethod
    def words(*words: str) -> "Dom":
        return Dom(words, "|".join(words))

    @staticmethod
    def union(*doms: "Dom", name: str = "") -> "Dom":
        values: list[Arg] = []
        for d in doms:
            values.extend(v for v in d.values if v not in values)
        return Dom(values, name or "|".join(d.name for d in doms))

    def code(self, value: Any) -> int:
        """The code of `value`; ActionIndexError for a value outside the domain."""
        start = self._start
        if start is not None:
            if type(value) is int:
                i = value - start
                if 0 <= i < len(self.values):
                    return i
        elif type(value) is not bool:                # True == 1 as a dict key: not a card
            try:
                return self._codes[value]
            except (KeyError, TypeError):
                pass
        raise ActionIndexError(f"{value!r} is outside the domain {self.name or self.values!r}")

    def __len__(self) -> int:
        return len(self.values)

    def __contains__(self, value: Any) -> bool:
        try:
            self.code(value)
        except ActionIndexError:
            return False
        return True

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Dom) and other.values == self.values

    def __hash__(self) -> int:
        return hash(self.values)

    def __repr__(self) -> str:
        return f"Dom({self.name or self.values!r}, {len(self.values)})"


@dataclass(frozen=True)
class Slot:
    """One argument position. `optional`: the argument may be absent (trailing only; code 0
    is "absent"). `derived`: set by the state, not encoded (trailing, after every encoded
    slot); decoding then needs the legal list."""

    dom: Dom
    optional: bool = False
    derived: bool = False

    @property
    def radix(self) -> int:
        return len(self.dom) + (1 if self.optional else 0)


@dataclass(frozen=True)
class VerbShape:
    """A verb and its argument slots; or, with `subset`, a verb whose arguments are a sorted
    subset of `subset` (built by sub-steps: ``add c`` for each value, then ``commit``); or,
    with `cases`, a verb whose later slots depend on its first argument: each case is the
    first argument's domain and the slots that follow it (a 城 targets a province, a
    subversion a warlord; a march goes to an adjacent province only)."""

    verb: str
    slots: tuple[Slot, ...] = ()
    subset: Dom | None = None
    cases: tuple[tuple[Dom, tuple[Slot, ...]], ...] = ()
    #: a short note for the layout table in docs/research.md
    note: str = ""

    def __post_init__(self) -> None:
        if (self.subset is not None) + bool(self.slots) + bool(self.cases) > 1:
            raise ValueError(f"{self.verb}: slots, subset and cases exclude each other")
        heads: set[Any] = set()
        for head, tail in self.cases:
            if heads & set(head.values):
                raise ValueError(f"{self.verb}: a first argument in two cases")
            heads |= set(head.values)
            _check_slots(self.verb, (Slot(head), *tail))
        _check_slots(self.verb, self.slots)

    @property
    def encoded(self) -> tuple[Slot, ...]:
        return tuple(s for s in self.slots if not s.derived)

    def parts(self) -> list[tuple[Slot, ...]]:
        """The slot lists laid out one after another (one, unless there are cases)."""
        if self.cases:
            return [(Slot(head), *tail) for head, tail in self.cases]
        return [self.slots]

    def size(self) -> int:
        if self.subset is not None:
            return len(self.subset) + 1
        total = 0
        for slots in self.parts():
            n = 1
            for s in slots:
                if not s.derived:
                    n *= s.radix
            total += n
        return total

    def describe(self) -> str:
        if self.subset is not None:
            return f"{self.verb}: add c ({self.subset.name}, {len(self.subset)}) | commit"
        out = []
        for slots in self.parts():
            parts = []
            for s in slots:
                label = f"{s.dom.name or 'dom'}({len(s.dom)})"
                if s.derived:
                    label = f"<derived {label}>"
                elif s.optional:
                    label = f"[{label}]"
                parts.append(label)
            out.append(" ".join([self.verb, *parts]))
        return " | ".join(out) if len(out) <= 4 else f"{out[0]} | … ({len(out)} cases)"


def target_dom(target: Target, players: int, cards: Callable[[str], Sequence[int]],
               places: Callable[[str], Sequence[int]]) -> Dom:
    """The domain of one declared target: a player is a seat, a card one of the group its
    `of` names (`cards(of)`), a place one of the game's places of that kind (`places(of)`)."""
    if target.kind is Kind.PLAYER:
        return Dom.ints(players, name="player")
    if target.kind is Kind.CARD:
        return Dom(cards(target.of), target.of or "card")
    if target.kind is Kind.PLACE:
        return Dom(places(target.of), target.of or "place")
    if target.kind is Kind.WORD and target.words:
        return Dom.words(*target.words)
    raise ValueError(f"no finite domain for a {target} target")


def card_led_shape(verb: str, cards: Iterable[int], tail_of: Callable[[int], Signature],
                   dom_of: Callable[[Target], Dom], note: str = "") -> VerbShape:
    """The layout of a card-led verb (``hold c t…``): the cards grouped by the kinds of what
    follows them (their effect verb's declared targets), one case per group, so a player
    target is encoded as a seat and a card target as a card, never one as the other."""
    groups: dict[Signature, list[int]] = {}
    for c in cards:
        groups.setdefault(tuple(tail_of(c)), []).append(c)
    cases = []
    for sig, members in groups.items():
        name = f"{verb} card" + (f" naming {', '.join(map(str, sig))}" if sig else "")
        cases.append((Dom(members, name), tuple(Slot(dom_of(t)) for t in sig)))
    return VerbShape(verb, cases=tuple(cases), note=note)


def _check_slots(verb: str, slots: tuple[Slot, ...]) -> None:
    seen_derived = seen_optional = False
    for s in slots:
        if s.derived:
            seen_derived = True
        elif seen_derived:
            raise ValueError(f"{verb}: derived slots must come after every encoded slot")
        elif s.optional:
            seen_optional = True
        elif seen_optional:
            raise ValueError(f"{verb}: optional slots must be trailing")


@dataclass
class _Entry:
    offset: int
    size: int
    shape: VerbShape
    slots: tuple[Slot, ...]        # the encoded ones
    radices: tuple[int, ...]
    max_args: int
    min_args: int
    derived: bool


class ActionIndex:
    """The fixed action numbering of one game configuration: verbs laid out one after
    another in declaration order, ``n`` numbers in all."""

    def __init__(self, shapes: Sequence[VerbShape]) -> None:
        self.shapes = tuple(shapes)
        self._by_verb: dict[str, _Entry | dict[Any, _Entry]] = {}
        self._offsets: list[int] = []
        self._entries: list[_Entry] = []
        self._verb_at: dict[str, tuple[int, int]] = {}
        offset = 0
        for shape in self.shapes:
            if shape.verb in self._by_verb:
                raise ValueError(f"verb {shape.verb!r} declared twice")
            start = offset
            made = []
            for slots in shape.parts():
                enc = tuple(s for s in slots if not s.derived)
                size = len(shape.subset) + 1 if shape.subset is not None else 1
                for s in enc:
                    size *= s.radix
                entry = _Entry(offset, size, shape, enc, tuple(s.radix for s in enc), len(slots),
                               sum(1 for s in enc if not s.optional), any(s.derived for s in slots))
                made.append(entry)
                self._offsets.append(offset)
                self._entries.append(entry)
                offset += size
            if shape.cases:
                self._by_verb[shape.verb] = {v: e for e, (head, _) in zip(made, shape.cases) for v in head.values}
            else:
                self._by_verb[shape.verb] = made[0]
            self._verb_at[shape.verb] = (start, offset - start)
        self.n = offset
        self.subset_verbs = tuple(s.verb for s in self.shapes if s.subset is not None)

    # ----- actions to numbers -------------------------------------------------------------
    def index(self, action: Action) -> int:
        """The number of `action` (its player is not encoded). ActionIndexError for a verb
        not declared, a value outside its domain or a wrong number of arguments; a subset
        verb's actions have a path of sub-steps instead (`subset_path`)."""
        entry = self._by_verb.get(action.verb)
        if entry is None:
            raise ActionIndexError(f"{action}: verb {action.verb!r} is not in the action layout")
        if type(entry) is dict:
            head = action.args[0] if action.args else None
            try:
                case = entry.get(head) if type(head) is not bool else None
            except TypeError:
                case = None
            if case is None:
                raise ActionIndexError(f"{action}: first argument {head!r} is outside the domain of "
                                       f"{action.verb!r} ({entry_describe(action.verb, self)})")
            entry = case
        assert isinstance(entry, _Entry)
        if entry.shape.subset is not None:
            raise ActionIndexError(f"{action}: {action.verb!r} is chosen card by card (subset_path)")
        args = action.args
        nargs = len(args)
        if nargs < entry.min_args or nargs > entry.max_args:
            raise ActionIndexError(f"{action}: {action.verb!r} takes {entry.min_args}..{entry.max_args} "
                                   f"arguments, not {nargs} ({entry.shape.describe()})")
        code = 0
        try:
            for pos, slot in enumerate(entry.slots):
                if pos < nargs:
                    c = slot.dom.code(args[pos]) + (1 if slot.optional else 0)
                else:
                    c = 0                       # optional and absent (min_args checked above)
                code = code * entry.radices[pos] + c
        except ActionIndexError as exc:
            raise ActionIndexError(f"{action}: {exc}") from None
        return entry.offset + code

    def indices(self, legal: Sequence[Action]) -> list[int]:
        return [self.index(a) for a in legal]

    def mask(self, legal: Sequence[Action]) -> np.ndarray:
        """int8[n]: 1 at the number of each legal action."""
        m = np.zeros(self.n, dtype=np.int8)
        if legal:
            m[self.indices(legal)] = 1
        return m

    # ----- numbers to actions ---------------------------------------------------------------
    def entry_of(self, i: int) -> _Entry:
        if type(i) is not int and not isinstance(i, (int, np.integer)):
            raise ActionIndexError(f"an action index is an int, not {type(i).__name__}")
        if not 0 <= i < self.n:
            raise ActionIndexError(f"action index {i} is outside 0..{self.n - 1}")
        return self._entries[bisect.bisect_right(self._offsets, int(i)) - 1]

    def action(self, i: int, player: int, legal: Sequence[Action] | None = None) -> Action:
        """The action numbered `i` for `player`. Pure for verbs without derived slots;
        otherwise the unique legal action with that number (`legal` is then required)."""
        entry = self.entry_of(i)
        i = int(i)
        shape = entry.shape
        if shape.subset is not None:
            raise ActionIndexError(f"index {i} is a sub-step of {shape.verb!r} (see SubsetSteps)")
        if entry.derived:
            if legal is None:
                raise ActionIndexError(f"{shape.verb!r} has arguments set by the state: decoding "
                                       f"index {i} needs the legal list")
            found = [a for a in legal if a.verb == shape.verb and a.player == player and self.index(a) == i]
            if len(found) != 1:
                raise ActionIndexError(f"index {i} ({shape.verb}) matches {len(found)} legal actions")
            return found[0]
        code = i - entry.offset
        digits = []
        for radix in reversed(entry.radices):
            code, d = divmod(code, radix)
            digits.append(d)
        digits.reverse()
        args: list[Arg] = []
        for slot, d in zip(entry.slots, digits):
            if slot.optional:
                if d == 0:
                    break
                d -= 1
            args.append(slot.dom.values[d])
        return Action(player, shape.verb, tuple(args))

    def describe(self, i: int) -> str:
        """A readable name of index `i` (for logs and docs)."""
        entry = self.entry_of(i)
        shape = entry.shape
        if shape.subset is not None:
            k = i - entry.offset
            return f"{shape.verb}+ {shape.subset.values[k]}" if k < len(shape.subset) else f"{shape.verb}."
        if entry.derived:
            return f"{shape.verb} #{i - entry.offset}"
        return str(self.action(i, 0))

    # ----- subset verbs (selection sub-turn) -------------------------------------------------
    def subset_path(self, action: Action) -> list[int]:
        """The sub-step numbers that choose `action` of a subset verb: ``add c`` for each of
        its (sorted) arguments, then ``commit``."""
        entry = self._by_verb.get(action.verb)
        if not isinstance(entry, _Entry) or entry.shape.subset is None:
            raise ActionIndexError(f"{action}: {action.verb!r} is not a subset verb")
        dom = entry.shape.subset
        try:
            return [entry.offset + dom.code(c) for c in action.args] + [entry.offset + len(dom)]
        except ActionIndexError as exc:
            raise ActionIndexError(f"{action}: {exc}") from None

    def is_subset(self, verb: str) -> bool:
        entry = self._by_verb.get(verb)
        return isinstance(entry, _Entry) and entry.shape.subset is not None

    def layout(self) -> list[tuple[str, int, int, str]]:
        """(verb, offset, size, description) per verb, in order."""
        return [(s.verb, *self._verb_at[s.verb], s.describe()) for s in self.shapes]


def entry_describe(verb: str, index: ActionIndex) -> str:
    for s in index.shapes:
        if s.verb == verb:
            return s.describe()
    return verb


@dataclass
class SubsetSteps:
    """The legal sub-steps of one decision, given a player's partial selection.

    `legal` is the engine's legal list; `selection` is ``(verb, cards so far)`` or None. With
    no selection, ordinary actions are legal by their own index, and a subset verb's actions
    open with ``add c`` for their first card (or ``commit`` for an empty subset); within a
    selection only its continuations are: ``add c`` where some legal action extends the
    selection by c, and ``commit`` when the selection is itself legal. Legal subsets are
    sorted, so each is exactly one path."""

    index: ActionIndex
    legal: Sequence[Action]
    selection: tuple[str, tuple[Arg, ...]] | None = None
    #: index -> the action it applies (None: a step that only extends the selection)
    moves: dict[int, Action | None] = field(default_factory=dict)

    def __post_init__(self) -> None:
        idx, moves, sel = self.index, self.moves, self.selection
        for a in self.legal:
            if idx.is_subset(a.verb):
                args = a.args
                if sel is not None:
                    verb, chosen = sel
                    k = len(chosen)
                    if a.verb != verb or args[:k] != chosen:
                        continue
                else:
                    k = 0
                path = idx.subset_path(a)
                step = path[k]
                if k == len(args):                  # commit: the selection is this action
                    moves[step] = a
                else:
                    moves.setdefault(step, None)
            elif sel is None:
                i = idx.index(a)
                if i in moves:
                    raise ActionIndexError(f"{a} and {moves[i]} share index {i}")
                moves[i] = a
