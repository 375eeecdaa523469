"""A fixed-size float32 observation of one player's view.

The observation is computed from ``state.view(player)`` only, never from the state, so it
can hold nothing the player may not know. Seats are relative to the observer: seat slot j is
player ``(observer + j) % n``, so slot 0 is always "me".

It has four parts, in this order:

1. the card zones, generic over the state's `ZONES` (a visible zone as a multi-hot over its
   card pool, a hidden one as a count; per-player zones per relative seat);
2. the ``public`` facts, from a small per-game declaration (`Feature` trees): every key of
   the view's ``public`` (and of its nested frames) must be declared, so a change of the
   view fails loudly here instead of being silently ignored;
3. the pending decision: its kind, the players it names (relative), whether the observer
   is one of them, its prompt, and whether the game is over;
4. for games with a selection sub-turn, the observer's own partial selection.

The log and the order of cards within a zone are left out.

`ObsEncoder.encode` writes a view into the vector feature by feature (the reference);
`ObsEncoder.encode_fast` gives the same vector from a lean view (``state.view(p, lean=True)``,
the same view without labels and events): each feature's `gather` collects the positions
and values into a `Sink`, and numpy writes them in bulk. Given a `Memo` (one per game in
progress), it starts from the player's previous observation and encodes again only the
parts (a zone, a key of ``public``) whose value changed since.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from array import array
from itertools import compress
from operator import ne
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np

from ..core.visibility import Vis, ZoneSpec

#: a hidden zone's count is scaled by this (counts of a few cards come out near 0.1..1)
COUNT_SCALE = 0.1


#: per observer, the values of the parts last encoded and the floats they gave
Memo = dict[int, tuple[list[Any], "Sink"]]
#: a part never encoded (equal to no value)
_UNSEEN = object()


class ObservationError(ValueError):
    """A view the declaration does not describe (an undeclared key, a value outside its
    declared range): the view changed and the encoding must follow."""


@dataclass
class Ctx:
    """What encoders need besides the value: the observer and the player count (and
    `rels`, the relative seat of each player)."""

    player: int
    n: int
    rels: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rels = [(p - self.player) % self.n for p in range(self.n)]

    def rel(self, p: int) -> int:
        return (p - self.player) % self.n


class Sink:
    """Where the fast path writes: `buf`, the floats as an ``array('f')`` (a Python-level
    write to it is several times cheaper than to a numpy array), and `out`, a numpy view of
    the same memory for the features that write numpy slices (`Custom`)."""

    __slots__ = ("buf", "out")

    def __init__(self, buf: "array[float]") -> None:
        self.buf = buf
        self.out = np.frombuffer(buf, dtype=np.float32)


class Pool:
    """A space of card ids: `size` slots, and the slot of each id (raises outside it)."""

    def __init__(self, name: str, ids: Iterable[int]) -> None:
        self.name = name
        self.ids = tuple(ids)
        self.size = len(self.ids)
        self._slot = {c: i for i, c in enumerate(self.ids)}
        # a lookup table over min..max id, -1 where no slot: for long lists
        lo = min(self.ids) if self.ids else 0
        hi = max(self.ids) if self.ids else -1
        self._lo = lo
        self._lut = np.full(hi - lo + 1, -1, dtype=np.intp)
        for i, c in enumerate(self.ids):
            self._lut[c - lo] = i

    @staticmethod
    def range(name: str, size: int, start: int = 0) -> "Pool":
        return Pool(name, range(start, start + size))

    def slot(self, card: Any) -> int:
        if type(card) is int:
            j = self._slot.get(card)
            if j is not None:
                return j
        raise ObservationError(f"card {card!r} is outside the pool {self.name!r} ({self.size} ids)")

    def slots(self, cards: Iterable[Any]) -> list[int]:
        return [self.slot(c) for c in cards]

    def add_to(self, buf: "array[float]", at: int, cards: Iterable[Any]) -> None:
        """``buf[at + slot(c)] += 1`` for each card (raises outside the pool)."""
        slot = self._slot
        try:
            for c in cards:
                buf[at + slot[c]] += 1.0
        except (KeyError, TypeError):
            self.slots(cards)                               # raises, naming the card
            raise

    def add(self, out: np.ndarray, at: int, cards: Sequence[Any]) -> None:
        """``out[at + slot(c)] += 1`` for each card (Python for a few, numpy for many)."""
        if len(cards) <= 12:
            get = self._slot.get
            for c in cards:
                j = get(c) if type(c) is int else None
                if j is None:
                    self.slot(c)                            # raises, naming the card
                    return
                out[at + j] += 1.0
            return
        try:
            ids = np.fromiter(cards, dtype=np.intp, count=len(cards)) - self._lo
        except (TypeError, ValueError):
            self.slots(cards)                               # raises, naming the card
            raise
        if ids.min() < 0 or ids.max() >= len(self._lut) or (self._lut[ids] < 0).any() or \
                any(type(c) is not int for c in cards):
            self.slots(cards)
        np.add.at(out, self._lut[ids] + at, 1.0)

    def __repr__(self) -> str:
        return f"Pool({self.name!r}, {self.size})"


# ----- features: one encoder per value shape ----------------------------------------------------
class Feature:
    """Encodes one value into ``size`` floats at ``out[at:at+size]`` (zeros already there)."""

    size: int = 0

    def bind(self, n: int) -> "Feature":
        """Sizes that depend on the player count are fixed here (called once per table)."""
        return self

    def write(self, out: np.ndarray, at: int, value: Any, ctx: Ctx) -> None:
        raise NotImplementedError

    def gather(self, s: Sink, at: int, value: Any, ctx: Ctx) -> None:
        """The fast path: the same floats as `write`, into ``s.buf`` (by default `write`
        into ``s.out``, the same memory)."""
        self.write(s.out, at, value, ctx)

    def rows(self, name: str) -> list[tuple[str, int]]:
        """(name, size) rows for the documentation."""
        return [(name, self.size)]


class Ignore(Feature):
    """A value deliberately left out (constant, or implied by other features); size 0."""

    def __init__(self, why: str = "") -> None:
        self.why = why

    def write(self, out: np.ndarray, at: int, value: Any, ctx: Ctx) -> None:
        pass

    def gather(self, s: Sink, at: int, value: Any, ctx: Ctx) -> None:
        pass

    def rows(self, name: str) -> list[tuple[str, int]]:
        return []


class Scalar(Feature):
    """A number, divided by `scale` (None counts as 0)."""

    size = 1

    def __init__(self, scale: float = 1.0) -> None:
        self.scale = float(scale)

    def write(self, out: np.ndarray, at: int, value: Any, ctx: Ctx) -> None:
        if value is not None:
            out[at] = float(value) / self.scale

    def gather(self, s: Sink, at: int, value: Any, ctx: Ctx) -> None:
        if value is not None:
            s.buf[at] = float(value) / self.scale

    def gather_seq(self, s: Sink, positions: Iterable[int], values: Sequence[Any]) -> None:
        """`gather` of each value at its position."""
        buf, scale = s.buf, self.scale
        for at, v in zip(positions, values):
            if v is not None:
                buf[at] = float(v) / scale


class Flag(Feature):
    """A boolean (or any truthy value) as 0/1."""

    size = 1

    def write(self, out: np.ndarray, at: int, value: Any, ctx: Ctx) -> None:
        if value:
            out[at] = 1.0

    def gather(self, s: Sink, at: int, value: Any, ctx: Ctx) -> None:
        if value:
            s.buf[at] = 1.0

    def gather_seq(self, s: Sink, positions: Iterable[int], values: Sequence[Any]) -> None:
        """`gather` of each value at its position."""
        buf = s.buf
        for at, v in zip(positions, values):
            if v:
                buf[at] = 1.0


class OneHot(Feature):
    """One of a declared list of values (raises on any other)."""

    def __init__(self, *values: Any) -> None:
        self.values = tuple(values)
        self.size = len(self.values)
        self._slot = {v: i for i, v in enumerate(self.values)}

    def write(self, out: np.ndarray, at: int, value: Any, ctx: Ctx) -> None:
        try:
            out[at + self._slot[value]] = 1.0
        except (KeyError, TypeError):
            raise ObservationError(f"{value!r} is not one of {self.values!r}") from None

    def gather(self, s: Sink, at: int, value: Any, ctx: Ctx) -> None:
        try:
            s.buf[at + self._slot[value]] = 1.0
        except (KeyError, TypeError):
            raise ObservationError(f"{value!r} is not one of {self.values!r}") from None


class Bucket(Feature):
    """A small int as a one-hot over lo..hi (clipped: the ends stand for "or beyond")."""

    def __init__(self, lo: int, hi: int) -> None:
        self.lo, self.hi = lo, hi
        self.size = hi - lo + 1

    def write(self, out: np.ndarray, at: int, value: Any, ctx: Ctx) -> None:
        out[at + min(max(int(value), self.lo), self.hi) - self.lo] = 1.0

    def gather(self, s: Sink, at: int, value: Any, ctx: Ctx) -> None:
        s.buf[at + min(max(int(value), self.lo), self.hi) - self.lo] = 1.0


class Seat(Feature):
    """A player as a one-hot over the relative seats, plus one slot per `extra` value (e.g.
    -1 for "nobody" or None)."""

    def __init__(self, *extra: Any) -> None:
        self.extra = tuple(extra)
        self._slot = {v: i for i, v in enumerate(self.extra)}

    def bind(self, n: int) -> "Seat":
        bound = Seat(*self.extra)
        bound.size = n + len(self.extra)
        return bound

    def write(self, out: np.ndarray, at: int, value: Any, ctx: Ctx) -> None:
        out[self.position(at, value, ctx)] = 1.0

    def gather(self, s: Sink, at: int, value: Any, ctx: Ctx) -> None:
        s.buf[self.position(at, value, ctx)] = 1.0

    def position(self, at: int, value: Any, ctx: Ctx) -> int:
        """Where the one of `value` goes."""
        j = self._slot.get(value) if (value is None or value in self._slot) else None
        if j is not None:
            return at + ctx.n + j
        if type(value) is int and 0 <= value < ctx.n:
            return at + ctx.rels[value]
        raise ObservationError(f"{value!r} is not a player (nor one of {self.extra!r})")


class Seats(Feature):
    """A collection of players as a multi-hot over the relative seats."""

    def bind(self, n: int) -> "Seats":
        bound = Seats()
        bound.size = n
        return bound

    def write(self, out: np.ndarray, at: int, value: Any, ctx: Ctx) -> None:
        for p in value:
            if type(p) is not int or not 0 <= p < ctx.n:
                raise ObservationError(f"{p!r} is not a player")
            out[at + ctx.rel(p)] = 1.0

    def gather(self, s: Sink, at: int, value: Any, ctx: Ctx) -> None:
        rels, n, buf = ctx.rels, ctx.n, s.buf
        for p in value:
            if type(p) is not int or not 0 <= p < n:
                raise ObservationError(f"{p!r} is not a player")
            buf[at + rels[p]] = 1.0


class PerSeat(Feature):
    """A list with one value per player (index = player), rotated so slot 0 is the
    observer's; each value encoded by `inner`."""

    def __init__(self, inner: Feature) -> None:
        self.inner = inner

    def bind(self, n: int) -> "PerSeat":
        bound = PerSeat(self.inner.bind(n))
        bound.n = n
        bound.size = n * bound.inner.size
        return bound

    n = 0

    def write(self, out: np.ndarray, at: int, value: Any, ctx: Ctx) -> None:
        if len(value) != ctx.n:
            raise ObservationError(f"expected one value per player, got {len(value)}")
        k = self.inner.size
        for p, v in enumerate(value):
            self.inner.write(out, at + ctx.rel(p) * k, v, ctx)

    def gather(self, s: Sink, at: int, value: Any, ctx: Ctx) -> None:
        if len(value) != ctx.n:
            raise ObservationError(f"expected one value per player, got {len(value)}")
        inner = self.inner
        k, rels = inner.size, ctx.rels
        if isinstance(inner, (Scalar, Flag)):
            inner.gather_seq(s, [at + r for r in rels], value)
            return
        for p, v in enumerate(value):
            inner.gather(s, at + rels[p] * k, v, ctx)


class Fixed(Feature):
    """A list of a fixed length (not per player), each item encoded by `inner`."""

    def __init__(self, length: int, inner: Feature) -> None:
        self.length, self.inner = length, inner

    def bind(self, n: int) -> "Fixed":
        bound = Fixed(self.length, self.inner.bind(n))
        bound.size = self.length * bound.inner.size
        return bound

    def write(self, out: np.ndarray, at: int, value: Any, ctx: Ctx) -> None:
        if len(value) != self.length:
            raise ObservationError(f"expected {self.length} values, got {len(value)}")
        k = self.inner.size
        for i, v in enumerate(value):
            self.inner.write(out, at + i * k, v, ctx)

    def gather(self, s: Sink, at: int, value: Any, ctx: Ctx) -> None:
        if len(value) != self.length:
            raise ObservationError(f"expected {self.length} values, got {len(value)}")
        inner = self.inner
        if isinstance(inner, (Scalar, Flag)):
            inner.gather_seq(s, range(at, at + len(value)), value)
            return
        k = inner.size
        if isinstance(inner, Seat):
            buf, position = s.buf, inner.position
            for i, v in enumerate(value):
                buf[position(at + i * k, v, ctx)] = 1.0
            return
        for i, v in enumerate(value):
            inner.gather(s, at + i * k, v, ctx)


class Positions(Feature):
    """A list of players by position (a turn order), at most `length` long: per position a
    one-hot over the relative seats plus the `extra` values (-1: position free)."""

    def __init__(self, length: int | None = None, *extra: Any) -> None:
        self.length, self.extra = length, extra

    def bind(self, n: int) -> "Positions":
        bound = Positions(self.length or n, *self.extra)
        bound.seat = Seat(*self.extra).bind(n)
        bound.size = bound.length * bound.seat.size        # type: ignore[operator]
        return bound

    seat: Feature = Ignore()

    def write(self, out: np.ndarray, at: int, value: Any, ctx: Ctx) -> None:
        assert self.length is not None
        if len(value) > self.length:
            raise ObservationError(f"{len(value)} positions, at most {self.length} declared")
        k = self.seat.size
        for i, p in enumerate(value):
            self.seat.write(out, at + i * k, p, ctx)

    def gather(self, s: Sink, at: int, value: Any, ctx: Ctx) -> None:
        assert self.length is not None
        if len(value) > self.length:
            raise ObservationError(f"{len(value)} positions, at most {self.length} declared")
        seat, buf = self.seat, s.buf
        assert isinstance(seat, Seat)
        k, position = seat.size, seat.position
        for i, p in enumerate(value):
            buf[position(at + i * k, p, ctx)] = 1.0


class Cards(Feature):
    """A collection of card ids as a multi-hot over `pool` (a card counted twice adds up)."""

    def __init__(self, pool: Pool) -> None:
        self.pool = pool
        self.size = pool.size

    def write(self, out: np.ndarray, at: int, value: Any, ctx: Ctx) -> None:
        if value:
            self.pool.add(out, at, value)

    def gather(self, s: Sink, at: int, value: Any, ctx: Ctx) -> None:
        if value:
            self.pool.add_to(s.buf, at, value)


class Card(Feature):
    """One card id as a one-hot over `pool`, all zeros for a `none` value (-1, None)."""

    def __init__(self, pool: Pool, none: tuple[Any, ...] = (-1, None)) -> None:
        self.pool, self.none = pool, none
        self.size = pool.size

    def write(self, out: np.ndarray, at: int, value: Any, ctx: Ctx) -> None:
        if value is None or value in self.none:
            return
        out[at + self.pool.slot(value)] = 1.0

    def gather(self, s: Sink, at: int, value: Any, ctx: Ctx) -> None:
        if value is None or value in self.none:
            return
        s.buf[at + self.pool.slot(value)] = 1.0


class CardMap(Feature):
    """A dict card -> card (keys may be strings of ids, as JSON has them) as a pair map:
    one row per `keys` card, a one-hot over `values` in it."""

    def __init__(self, keys: Pool, values: Pool) -> None:
        self.keys, self.values = keys, values
        self.size = keys.size * values.size

    def write(self, out: np.ndarray, at: int, value: Any, ctx: Ctx) -> None:
        cols = self.values.size
        for k, v in value.items():
            out[at + self.keys.slot(int(k)) * cols + self.values.slot(v)] = 1.0

    def gather(self, s: Sink, at: int, value: Any, ctx: Ctx) -> None:
        cols, keys, values, buf = self.values.size, self.keys._slot, self.values._slot, s.buf
        try:
            for k, v in value.items():
                buf[at + keys[int(k)] * cols + values[v]] = 1.0
        except (KeyError, TypeError, ValueError):
            self.write(s.out, at, value, ctx)                # raises as the reference does
            raise


class CardValues(Feature):
    """A dict card -> number (keys may be strings of ids) as one value per `pool` card,
    divided by `scale`."""

    def __init__(self, pool: Pool, scale: float = 1.0) -> None:
        self.pool, self.scale = pool, float(scale)
        self.size = pool.size

    def write(self, out: np.ndarray, at: int, value: Any, ctx: Ctx) -> None:
        for k, v in value.items():
            out[at + self.pool.slot(int(k))] = float(v) / self.scale

    def gather(self, s: Sink, at: int, value: Any, ctx: Ctx) -> None:
        slot, scale, buf = self.pool._slot, self.scale, s.buf
        try:
            for k, v in value.items():
                buf[at + slot[int(k)]] = float(v) / scale
        except (KeyError, TypeError, ValueError):
            self.write(s.out, at, value, ctx)                # raises as the reference does
            raise


class Frame(Feature):
    """A dict of declared keys (a nested frame of ``public``, or ``public`` itself), each
    encoded by its own feature; None for an absent frame (a presence bit says which, when
    `optional`). An undeclared key raises; a declared key missing from the dict counts as
    None."""

    def __init__(self, fields: Mapping[str, Feature], optional: bool = False, name: str = "") -> None:
        self.fields = dict(fields)
        self.optional = optional
        self.name = name
        self._layout: list[tuple[str, Feature, int]] = []
        #: (key, feature, offset, whether None is skipped), for the fast path
        self._fast: list[tuple[str, Feature, int, bool]] = []

    def bind(self, n: int) -> "Frame":
        bound = Frame({k: f.bind(n) for k, f in self.fields.items()}, self.optional, self.name)
        at = 1 if self.optional else 0
        for k, f in bound.fields.items():
            bound._layout.append((k, f, at))
            bound._fast.append((k, f, at, not isinstance(f, _NONE_ENCODED)))
            at += f.size
        bound.size = at
        return bound

    def write(self, out: np.ndarray, at: int, value: Any, ctx: Ctx) -> None:
        if value is None:
            if not self.optional:
                raise ObservationError(f"{self.name or 'frame'} is missing")
            return
        if not isinstance(value, dict):
            raise ObservationError(f"{self.name or 'frame'}: expected a dict, got {type(value).__name__}")
        fields = self.fields
        for key in value:
            if key not in fields:
                raise ObservationError(f"{self.name or 'frame'}: key {key!r} is not declared in the "
                                       "observation (declare it, or Ignore it with a reason)")
        if self.optional:
            out[at] = 1.0
        get = value.get
        for key, f, off in self._layout:
            v = get(key)
            if v is None and not isinstance(f, _NONE_ENCODED):
                continue
            try:
                f.write(out, at + off, v, ctx)
            except ObservationError as exc:
                raise ObservationError(f"{self.name}.{key}: {exc}" if self.name else f"{key}: {exc}") from None

    def gather(self, s: Sink, at: int, value: Any, ctx: Ctx) -> None:
        if value is None or type(value) is not dict or not value.keys() <= self.fields.keys():
            self.write(s.out, at, value, ctx)               # absent, or raises as the reference does
            return
        if self.optional:
            s.buf[at] = 1.0
        get = value.get
        key = ""
        try:
            for key, f, off, skip in self._fast:
                v = get(key)
                if v is None and skip:
                    continue
                f.gather(s, at + off, v, ctx)
        except ObservationError as exc:
            raise ObservationError(f"{self.name}.{key}: {exc}" if self.name else f"{key}: {exc}") from None

    def rows(self, name: str) -> list[tuple[str, int]]:
        out = [(f"{name} (present)", 1)] if self.optional else []
        for k, f in self.fields.items():
            out.extend(f.rows(f"{name}.{k}" if name else k))
        return out


class Last(Feature):
    """A list of which only the last item matters (a stack of windows, innermost last):
    the count, then the last item encoded by `inner` (a Frame)."""

    def __init__(self, inner: Feature, scale: float = 1.0) -> None:
        self.inner, self.scale = inner, scale

    def bind(self, n: int) -> "Last":
        bound = Last(self.inner.bind(n), self.scale)
        bound.size = 1 + bound.inner.size
        return bound

    def write(self, out: np.ndarray, at: int, value: Any, ctx: Ctx) -> None:
        if value:
            out[at] = len(value) / self.scale
            self.inner.write(out, at + 1, value[-1], ctx)

    def gather(self, s: Sink, at: int, value: Any, ctx: Ctx) -> None:
        if value:
            s.buf[at] = len(value) / self.scale
            self.inner.gather(s, at + 1, value[-1], ctx)

    def rows(self, name: str) -> list[tuple[str, int]]:
        return [(f"{name} (count)", 1), *self.inner.rows(f"{name}[-1]")]


class Custom(Feature):
    """A value of an odd shape: ``fn(out_slice, value, ctx)`` fills `size` floats
    (`size` may depend on n: give ``size_of(n)``)."""

    def __init__(self, size_of: Callable[[int], int], fn: Callable[[np.ndarray, Any, Ctx], None],
                 doc: str = "") -> None:
        self.size_of, self.fn, self.doc = size_of, fn, doc

    def bind(self, n: int) -> "Custom":
        bound = Custom(self.size_of, self.fn, self.doc)
        bound.size = self.size_of(n)
        return bound

    def write(self, out: np.ndarray, at: int, value: Any, ctx: Ctx) -> None:
        self.fn(out[at:at + self.size], value, ctx)


# ----- zones ----------------------------------------------------------------------------------------
class ZoneFeature(Feature):
    """One zone of the view, laid out from its `ZoneSpec` (so the size never depends on what
    the view shows): PUBLIC as a multi-hot (per relative seat when per player); OWNER per
    player as the observer's own multi-hot plus every seat's count; COUNT (and OWNER shared)
    as a count (per seat when per player)."""

    def __init__(self, spec: ZoneSpec, pool: Pool) -> None:
        self.spec, self.pool = spec, pool

    def bind(self, n: int) -> "ZoneFeature":
        bound = ZoneFeature(self.spec, self.pool)
        spec, c = self.spec, self.pool.size
        if spec.vis is Vis.PUBLIC:
            bound.size = n * c if spec.per_player else c
        elif spec.vis is Vis.OWNER and spec.per_player:
            bound.size = c + n
        else:
            bound.size = n if spec.per_player else 1
        return bound

    def write(self, out: np.ndarray, at: int, value: Any, ctx: Ctx) -> None:
        spec, pool = self.spec, self.pool
        c = pool.size
        if not spec.per_player:
            if spec.vis is Vis.PUBLIC:
                self._hot(out, at, value)
            else:
                out[at] = _count(value) * COUNT_SCALE
            return
        if len(value) != ctx.n:
            raise ObservationError(f"zone {spec.name}: expected {ctx.n} lists, got {len(value)}")
        if spec.vis is Vis.PUBLIC:
            for p, cards in enumerate(value):
                self._hot(out, at + ctx.rel(p) * c, cards)
        elif spec.vis is Vis.OWNER:
            self._hot(out, at, value[ctx.player])
            for p, cards in enumerate(value):
                out[at + c + ctx.rel(p)] = _count(cards) * COUNT_SCALE
        else:
            for p, cards in enumerate(value):
                out[at + ctx.rel(p)] = _count(cards) * COUNT_SCALE

    def gather(self, s: Sink, at: int, value: Any, ctx: Ctx) -> None:
        spec, buf = self.spec, s.buf
        if not spec.per_player:
            if spec.vis is Vis.PUBLIC:
                self._add(buf, at, value)
            else:
                buf[at] = _count(value) * COUNT_SCALE
            return
        if len(value) != ctx.n:
            raise ObservationError(f"zone {spec.name}: expected {ctx.n} lists, got {len(value)}")
        c, rels = self.pool.size, ctx.rels
        if spec.vis is Vis.PUBLIC:
            for p, cards in enumerate(value):
                self._add(buf, at + rels[p] * c, cards)
            return
        if spec.vis is Vis.OWNER:
            self._add(buf, at, value[ctx.player])
            at += c
        for p, cards in enumerate(value):
            buf[at + rels[p]] = _count(cards) * COUNT_SCALE

    def _add(self, buf: "array[float]", at: int, cards: Any) -> None:
        if type(cards) is not list:
            raise ObservationError(f"zone {self.spec.name}: expected the cards, got {cards!r}")
        if cards:
            self.pool.add_to(buf, at, cards)

    def _hot(self, out: np.ndarray, at: int, cards: Any) -> None:
        if type(cards) is not list:
            raise ObservationError(f"zone {self.spec.name}: expected the cards, got {cards!r}")
        if cards:
            self.pool.add(out, at, cards)

    def rows(self, name: str) -> list[tuple[str, int]]:
        spec = self.spec
        how = ("multi-hot per seat" if spec.per_player else "multi-hot") if spec.vis is Vis.PUBLIC else (
            "own multi-hot + count per seat" if spec.vis is Vis.OWNER and spec.per_player else
            ("count per seat" if spec.per_player else "count"))
        return [(f"zones.{spec.name} ({how}, pool {self.pool.name} {self.pool.size})", self.size)]


def _count(value: Any) -> int:
    return value if type(value) is int else len(value)


def _zeros(n: int) -> "array[float]":
    return array("f", bytes(4 * n))


def _zone_copy(value: Any) -> Any:
    """A zone's view value (a count, the cards, or one of those per player) copied."""
    if type(value) is not list:
        return value
    return [x[:] if type(x) is list else x for x in value]


#: the features a Frame hands a None to (the others leave their floats at 0 for it)
_NONE_ENCODED = (Frame, Seat, Card, OneHot, Custom)


# ----- the encoder --------------------------------------------------------------------------------------
@dataclass
class ObsSpec:
    """A game's declaration: the pool of each zone (by zone name, else by the zone's `pool`
    name), per-zone overrides (a `Feature` that encodes the zone's view value instead), the
    ``public`` frame, the prompts decisions can have, and the subset verbs' pool."""

    pools: Mapping[str, Pool]
    public: Mapping[str, Feature]
    prompts: Sequence[str]
    zone_pools: Mapping[str, Pool] = field(default_factory=dict)
    zone_features: Mapping[str, Feature] = field(default_factory=dict)
    #: subset verbs of the selection sub-turn, and the pool their cards come from
    selection_verbs: Sequence[str] = ()
    selection_pool: Pool | None = None
    #: rewrites a (fresh) view before encoding, e.g. ids that have no fixed bound to slots
    prepare: Callable[[dict[str, Any]], dict[str, Any]] | None = None


class ObsEncoder:
    """Builds, once per game configuration, the layout of the observation; `encode` fills
    a float32 vector of `size` from one view."""

    def __init__(self, zones: Sequence[ZoneSpec], spec: ObsSpec, players: int) -> None:
        self.n = n = players
        self.spec = spec
        parts: list[tuple[str, Feature]] = []
        for z in zones:
            f = spec.zone_features.get(z.name)
            if f is None:
                pool = spec.zone_pools.get(z.name) or spec.pools.get(z.pool)
                if pool is None:
                    raise ValueError(f"zone {z.name}: no pool declared for {z.pool!r}")
                f = ZoneFeature(z, pool)
            parts.append((z.name, f.bind(n)))
        self.zone_names = {z.name for z in zones}
        self.zones = parts
        self.public = Frame(spec.public, name="public").bind(n)
        self.prompts = OneHot(*spec.prompts)
        self.kinds = OneHot("turn", "simultaneous", "response")
        sel_size = 0
        if spec.selection_verbs:
            assert spec.selection_pool is not None
            sel_size = len(spec.selection_verbs) + spec.selection_pool.size
        self.sel_size = sel_size
        at = 0
        self._zone_at = []
        for _, f in parts:
            self._zone_at.append(at)
            at += f.size
        self.public_at = at
        at += self.public.size
        self.pending_at = at
        # kind (3), players named (n), observer to act (1), prompt, game over (1)
        at += 3 + n + 1 + self.prompts.size + 1
        self.selection_at = at
        at += sel_size
        self.size = at
        self._ctx = [Ctx(p, n) for p in range(n)]
        #: the parts of the fast path: (label, feature, offset, size, whether None is skipped,
        #: its floats zeroed)
        self._parts = [(f"zones.{name}", f, at, f.size, False, _zeros(f.size))
                       for (name, f), at in zip(parts, self._zone_at)]
        self._parts += [(f"public.{key}", f, self.public_at + off, f.size, skip, _zeros(f.size))
                        for key, f, off, skip in self.public._fast]
        self._zero, self._zero_tail = _zeros(self.size), _zeros(self.size - self.pending_at)
        self._zone_keys = [name for name, _ in parts]
        self._public_keys = [key for key, _, _, _ in self.public._fast]

    def encode(self, view: dict[str, Any], player: int,
               selection: tuple[str, Sequence[Any]] | None = None) -> np.ndarray:
        out = np.zeros(self.size, dtype=np.float32)
        self.encode_into(out, view, player, selection)
        return out

    def encode_into(self, out: np.ndarray, view: dict[str, Any], player: int,
                    selection: tuple[str, Sequence[Any]] | None = None) -> None:
        view, ctx = self._open(view, player)
        zones = view["zones"]
        for (name, f), at in zip(self.zones, self._zone_at):
            try:
                f.write(out, at, zones[name], ctx)
            except ObservationError as exc:
                raise ObservationError(f"zones.{name}: {exc}") from None
        self.public.write(out, self.public_at, view["public"], ctx)
        self._write_decision(out, view["pending"], ctx, selection)

    def encode_fast(self, view: dict[str, Any], player: int,
                    selection: tuple[str, Sequence[Any]] | None = None, memo: Memo | None = None) -> np.ndarray:
        """The same vector as `encode`, from a full or a lean view (``state.view(player,
        lean=True)``), collected feature by feature and written in bulk. With a `memo`, only
        the parts whose value differs (``!=``) from the player's last observation in it are
        encoded again; the memo keeps the values of ``public`` as they are (fresh in a view)
        and copies those of the zones (a lean view's are the state's own lists)."""
        view, ctx = self._open(view, player)
        zones, pub = view["zones"], view["public"]
        if type(pub) is not dict or not pub.keys() <= self.public.fields.keys():
            self.public.write(np.zeros(self.size, dtype=np.float32), self.public_at, pub, ctx)  # raises
        values = list(map(zones.__getitem__, self._zone_keys))
        values += map(pub.get, self._public_keys)
        values.append((view["pending"], selection))
        last = memo.pop(player, None) if memo is not None else None
        if last is None:
            seen, sink = [_UNSEEN] * len(values), Sink(self._zero[:])
            changed: Iterable[int] = range(len(values))
        else:
            seen, sink = last
            changed = list(compress(range(len(values)), map(ne, values, seen)))
        if changed:
            self._gather_parts(sink, changed, values, seen, ctx, last is not None)
        if memo is not None:
            memo[player] = (seen, sink)                 # only once encoded whole
        return sink.out.copy()

    def _gather_parts(self, s: Sink, changed: Iterable[int], values: list[Any], seen: list[Any], ctx: Ctx,
                      reused: bool) -> None:
        """Encode the `changed` parts of `values` into `s` (zeroing their floats first when
        `reused`), and note their values in `seen`."""
        buf, parts, zone_parts = s.buf, self._parts, len(self._zone_keys)
        decision = len(parts)
        for i in changed:
            v = values[i]
            if i == decision:
                if reused:
                    buf[self.pending_at:] = self._zero_tail
                self._write_decision(s.out, v[0], ctx, v[1])
                seen[i] = v
                return
            label, f, at, size, skip, zero = parts[i]
            if reused:
                buf[at:at + size] = zero
            if v is not None or not skip:
                try:
                    f.gather(s, at, v, ctx)
                except ObservationError as exc:
                    raise ObservationError(f"{label}: {exc}") from None
            seen[i] = _zone_copy(v) if i < zone_parts else v

    def _open(self, view: dict[str, Any], player: int) -> tuple[dict[str, Any], Ctx]:
        """The view checked (the observer's, the declared zones) and prepared, and its Ctx."""
        if view.get("player") != player:
            raise ObservationError(f"the view is player {view.get('player')!r}'s, not player {player}'s")
        if self.spec.prepare is not None:
            view = self.spec.prepare(view)
        zones = view["zones"]
        if zones.keys() != self.zone_names:
            raise ObservationError(f"zones {sorted(zones)} differ from the declared {sorted(self.zone_names)}")
        return view, self._ctx[player] if type(player) is int and 0 <= player < self.n else Ctx(player, self.n)

    def _write_decision(self, out: np.ndarray, pend: dict[str, Any] | None, ctx: Ctx,
                        selection: tuple[str, Sequence[Any]] | None) -> None:
        """The pending decision, and the observer's own selection in progress."""
        player = ctx.player
        at = self.pending_at
        n = self.n
        if pend is not None:
            self.kinds.write(out, at, pend["kind"], ctx)
            for p in pend["players"]:
                out[at + 3 + ctx.rel(p)] = 1.0
            if player in pend["players"]:
                out[at + 3 + n] = 1.0
            try:
                self.prompts.write(out, at + 4 + n, pend["prompt"], ctx)
            except ObservationError as exc:
                raise ObservationError(f"pending.prompt: {exc}") from None
        else:
            out[at + 4 + n + self.prompts.size] = 1.0
        if selection is not None and self.sel_size:
            verb, cards = selection
            pool = self.spec.selection_pool
            assert pool is not None
            at = self.selection_at
            out[at + list(self.spec.selection_verbs).index(verb)] = 1.0
            at += len(self.spec.selection_verbs)
            for c in cards:
                out[at + pool.slot(c)] = 1.0

    def rows(self) -> list[tuple[str, int]]:
        """(feature, size) rows, in layout order, for the documentation."""
        out: list[tuple[str, int]] = []
        for name, f in self.zones:
            out.extend(f.rows(f"zones.{name}") if not isinstance(f, ZoneFeature) else f.rows(name))
        out.extend(self.public.rows("public"))
        out.append(("pending.kind (turn|simultaneous|response)", 3))
        out.append(("pending.players (per seat)", self.n))
        out.append(("pending: observer to act", 1))
        out.append((f"pending.prompt ({len(self.prompts.values)} prompts)", self.prompts.size))
        out.append(("game over", 1))
        if self.sel_size:
            out.append((f"own selection (verb {len(self.spec.selection_verbs)} + cards "
                        f"{self.sel_size - len(self.spec.selection_verbs)})", self.sel_size))
        return out
