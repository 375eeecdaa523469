"""Data declared once: a class's annotated attributes say how it is created, copied and saved.

A game's state (and a frame, such as a battle in progress) lists its data as annotated
attributes, once::

    class MyState(State):
        deck: list[int] = []                   # a fresh empty list in every new state
        hands: list[list[int]] = per_player([])  # one empty list per player
        guard: dict[int, int] = {}             # saved as [[key, value], ...] (JSON keys are strings)
        turn: int = 0
        battle: Battle | None = None           # a Frame (or anything with clone/to_json/from_json)
        cat: Bound[Catalogue]                  # set by `_bind(game)`; shared by clones, never saved
        dirty: Transient[bool] = False         # copied by clones, not saved: back to its default on load

From that one declaration the class gets `__slots__` (so a misspelt attribute raises instead of
passing silently), the initial values of a new object, an exact `clone` (every list, set and
dict copied as deep as its type says; generated as straight-line code, as fast as a
hand-written one), and `to_json` / `from_json`. Defaults are copied for each object, never
shared. A field whose type this module cannot copy safely is refused when the class is made.

The types understood: ``int``, ``float``, ``str``, ``bool``, ``None``, ``tuple[...]`` and
``frozenset[...]`` (immutable, shared); ``list[X]``, ``set[X]`` (saved sorted), ``dict[K, V]``;
``X | None``; and classes with ``clone()``, ``to_json()`` and a static ``from_json(data)``.
"""
from __future__ import annotations

import ast
import sys
from abc import ABCMeta
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Callable, ClassVar, TypeVar

T = TypeVar("T")

BOUND = "takujo:bound"
TRANSIENT = "takujo:transient"

#: Data that comes with the game (its catalogue, its board): set by ``_bind(game)``, shared by
#: clones, never saved.
Bound = Annotated[T, BOUND]
#: Data copied by clones but not saved (a cache, a pending check): back to its default on load.
Transient = Annotated[T, TRANSIENT]

_SCALARS = {"int", "float", "str", "bool", "None"}
_IMMUTABLE = {"tuple", "frozenset"}


class PerPlayer:
    """The default "one copy of `value` per player" (see `per_player`)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


def per_player(value: T) -> list[T]:
    """Default of a field holding one value per player: each new object gets
    ``[copy of value for each player]``."""
    return PerPlayer(value)  # type: ignore[return-value]


class FieldTypeError(TypeError):
    """A declared field whose type cannot be copied or saved safely (a programming error)."""


# ----- kinds: how one declared type is copied and saved ---------------------------------------
class Kind:
    """How values of one declared type are copied (as generated code) and saved."""

    immutable = False

    def copy_code(self, src: str, depth: int) -> str:
        """A Python expression copying the value of expression `src`."""
        raise NotImplementedError

    def dump(self, value: Any) -> Any:
        raise NotImplementedError

    def load(self, data: Any) -> Any:
        raise NotImplementedError

    def load_code(self, src: str, name: str) -> str | None:
        """A Python expression loading the saved value `src`, or None: call `load`."""
        return None


class Scalar(Kind):
    immutable = True

    def copy_code(self, src: str, depth: int) -> str:
        return src

    def dump(self, value: Any) -> Any:
        return value

    def load(self, data: Any) -> Any:
        return data

    def load_code(self, src: str, name: str) -> str | None:
        return src if type(self) is Scalar else None


class Immutable(Scalar):
    """A tuple or frozenset of scalars: shared by copies, saved as a list."""

    def __init__(self, container: type) -> None:
        self.container = container

    def dump(self, value: Any) -> Any:
        return list(value)

    def load(self, data: Any) -> Any:
        return self.container(data)


class ListOf(Kind):
    def __init__(self, item: Kind) -> None:
        self.item = item

    def copy_code(self, src: str, depth: int) -> str:
        if self.item.immutable:
            return f"{src}[:]"
        v = f"_v{depth}"
        return f"[{self.item.copy_code(v, depth + 1)} for {v} in {src}]"

    def dump(self, value: Any) -> Any:
        item = self.item
        if type(item) is Scalar:
            return list(value)
        return [item.dump(v) for v in value]

    def load(self, data: Any) -> Any:
        item = self.item
        if type(item) is Scalar:
            return list(data)
        return [item.load(v) for v in data]

    def load_code(self, src: str, name: str) -> str | None:
        if type(self.item) is Scalar:
            return f"list({src})"
        if isinstance(self.item, ListOf) and type(self.item.item) is Scalar:
            return f"[list(_v) for _v in {src}]"
        return None


class SetOf(Kind):
    def __init__(self, item: Kind) -> None:
        if not item.immutable:
            raise FieldTypeError("a set holds scalars only")
        self.item = item

    def copy_code(self, src: str, depth: int) -> str:
        return f"set({src})"

    def dump(self, value: Any) -> Any:
        return sorted(value)

    def load(self, data: Any) -> Any:
        return set(data)


class DictOf(Kind):
    """Saved as a JSON object when its keys are strings, else as ``[[key, value], ...]``."""

    def __init__(self, key: Kind, value: Kind, str_keys: bool) -> None:
        if not key.immutable:
            raise FieldTypeError("dict keys must be scalars")
        self.key, self.value, self.str_keys = key, value, str_keys

    def copy_code(self, src: str, depth: int) -> str:
        if self.value.immutable:
            return f"{src}.copy()"
        k, v = f"_k{depth}", f"_v{depth}"
        return f"{{{k}: {self.value.copy_code(v, depth + 1)} for {k}, {v} in {src}.items()}}"

    def dump(self, value: Any) -> Any:
        val = self.value
        if type(val) is Scalar:
            return dict(value) if self.str_keys else [[k, v] for k, v in value.items()]
        if self.str_keys:
            return {k: val.dump(v) for k, v in value.items()}
        return [[k, val.dump(v)] for k, v in value.items()]

    def load(self, data: Any) -> Any:
        val = self.value
        if type(val) is Scalar:
            return dict(data) if self.str_keys else {k: v for k, v in data}
        pairs = data.items() if self.str_keys else data
        return {k: val.load(v) for k, v in pairs}


class Optional_(Kind):
    def __init__(self, inner: Kind) -> None:
        self.inner = inner
        self.immutable = inner.immutable

    def copy_code(self, src: str, depth: int) -> str:
        if self.inner.immutable:
            return src
        return f"(None if {src} is None else {self.inner.copy_code(src, depth)})"

    def dump(self, value: Any) -> Any:
        return None if value is None else self.inner.dump(value)

    def load(self, data: Any) -> Any:
        return None if data is None else self.inner.load(data)


class Object(Kind):
    """A value with its own ``clone()``, ``to_json()`` and static ``from_json(data)``."""

    def __init__(self, cls: type) -> None:
        for method in ("clone", "to_json", "from_json"):
            if not callable(getattr(cls, method, None)):
                raise FieldTypeError(f"{cls.__name__} has no {method}()")
        self.cls = cls

    def copy_code(self, src: str, depth: int) -> str:
        return f"{src}.clone()"

    def dump(self, value: Any) -> Any:
        return value.to_json()

    def load(self, data: Any) -> Any:
        return self.cls.from_json(data)  # type: ignore[attr-defined]


SCALAR = Scalar()


def kind_of(annotation: str, namespace: dict[str, Any]) -> tuple[Kind, str | None]:
    """The kind of a field annotated `annotation` (as written, a string), and its marker
    (BOUND, TRANSIENT or None). Class names are looked up in `namespace`."""
    node = ast.parse(annotation, mode="eval").body
    if isinstance(node, ast.Constant) and isinstance(node.value, str):   # a quoted annotation
        return kind_of(node.value, namespace)
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) \
            and node.value.id in ("Bound", "Transient"):
        marker = BOUND if node.value.id == "Bound" else TRANSIENT
        if marker == BOUND:
            return SCALAR, BOUND                 # shared, never copied: no need to read the type
        return _kind(node.slice, namespace), marker
    return _kind(node, namespace), None


def _kind(node: ast.expr, namespace: dict[str, Any]) -> Kind:
    if isinstance(node, ast.Constant) and node.value is None:
        return SCALAR
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return _kind(ast.parse(node.value, mode="eval").body, namespace)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        parts = _union_parts(node)
        rest = [p for p in parts if not (isinstance(p, ast.Constant) and p.value is None)]
        kinds = [_kind(p, namespace) for p in rest]
        if all(k.immutable for k in kinds):
            return SCALAR
        if len(kinds) == 1 and len(rest) < len(parts):
            return Optional_(kinds[0])
        raise FieldTypeError(f"cannot copy a union of containers: {ast.unparse(node)}")
    if isinstance(node, ast.Name):
        if node.id in _SCALARS:
            return SCALAR
        return Object(_resolve(node.id, namespace))
    if isinstance(node, ast.Attribute):
        return Object(_resolve(ast.unparse(node), namespace))
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        outer = node.value.id
        args = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
        if outer in _IMMUTABLE:
            if not all(_kind(a, namespace).immutable for a in args if not isinstance(a, ast.Constant)):
                raise FieldTypeError(f"{ast.unparse(node)}: an immutable container of mutable values")
            return Immutable(tuple if outer == "tuple" else frozenset)
        if outer == "list" and len(args) == 1:
            return ListOf(_kind(args[0], namespace))
        if outer == "set" and len(args) == 1:
            return SetOf(_kind(args[0], namespace))
        if outer == "dict" and len(args) == 2:
            str_keys = isinstance(args[0], ast.Name) and args[0].id == "str"
            return DictOf(_kind(args[0], namespace), _kind(args[1], namespace), str_keys)
        if outer == "Optional" and len(args) == 1:
            inner = _kind(args[0], namespace)
            return inner if inner.immutable else Optional_(inner)
    raise FieldTypeError(f"cannot tell how to copy and save a field of type {ast.unparse(node)}")


def _union_parts(node: ast.expr) -> list[ast.expr]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _union_parts(node.left) + _union_parts(node.right)
    return [node]


def _resolve(name: str, namespace: dict[str, Any]) -> type:
    head, _, rest = name.partition(".")
    if head not in namespace:
        raise FieldTypeError(f"type {name!r} is not imported at run time in {namespace.get('__name__')}")
    value = namespace[head]
    for part in rest.split(".") if rest else ():
        value = getattr(value, part)
    return value  # type: ignore[no-any-return]


# ----- the declaration of one class ------------------------------------------------------------
_MISSING = object()


@dataclass(frozen=True, slots=True)
class Field:
    name: str
    annotation: str
    default: Any          # _MISSING when the field has none
    module: str
    by_hand: bool = False  # copied and saved by hand-written code (the core State's own)

    @property
    def has_default(self) -> bool:
        return self.default is not _MISSING


class Plan:
    """What a class's declared fields need, resolved once (on first use, when every type the
    annotations name has been imported)."""

    def __init__(self, cls: type, fields: tuple[Field, ...]) -> None:
        self.fields = fields
        self.kinds: dict[str, Kind] = {}
        self.bound: list[str] = []
        self.saved: list[str] = []
        for f in fields:
            namespace = vars(sys.modules[f.module])
            try:
                kind, marker = kind_of(f.annotation, namespace)
            except FieldTypeError as err:
                raise FieldTypeError(f"{cls.__name__}.{f.name}: {err}") from None
            self.kinds[f.name] = kind
            if marker == BOUND:
                self.bound.append(f.name)
            elif marker is None:
                self.saved.append(f.name)
        self.defaults = [(f.name, f.default) for f in fields if f.has_default]
        self.required = frozenset(f.name for f in fields if not f.has_default)
        #: `load(obj, data, players)` sets every field but the bound ones: a saved one from
        #: `data` (its default if an older save lacks it), a transient one to its default
        self.load = self._compile_load(cls)
        self.clone_into = self._compile_clone(cls)
        #: `set_defaults(obj, players)` gives every field with a default a fresh copy of it
        self.set_defaults = self._compile_defaults(cls)

    def _compile_clone(self, cls: type) -> Callable[[Any, Any], None]:
        lines = [f"def clone_into(src, dst):  # generated from {cls.__qualname__}'s fields"]
        for f in self.fields:
            kind = self.kinds[f.name]
            lines.append(f"    dst.{f.name} = {kind.copy_code('src.' + f.name, 0)}")
        if len(lines) == 1:
            lines.append("    pass")
        scope: dict[str, Any] = {}
        exec(compile("\n".join(lines), f"<{cls.__qualname__} fields>", "exec"), scope)  # noqa: S102
        return scope["clone_into"]  # type: ignore[no-any-return]

    def _compile_defaults(self, cls: type) -> Callable[[Any, int], None]:
        lines = [f"def set_defaults(dst, players):  # generated from {cls.__qualname__}'s defaults"]
        for name, default in self.defaults:
            kind = self.kinds[name]
            if type(default) is PerPlayer:
                item = kind.item if isinstance(kind, ListOf) else SCALAR
                code = f"[{item.copy_code(f'D[{name!r}].value', 1)} for _ in range(players)]"
            else:
                code = kind.copy_code(f"D[{name!r}]", 0)
            lines.append(f"    dst.{name} = {code}")
        if len(lines) == 1:
            lines.append("    pass")
        scope: dict[str, Any] = {"D": dict(self.defaults)}
        exec(compile("\n".join(lines), f"<{cls.__qualname__} defaults>", "exec"), scope)  # noqa: S102
        return scope["set_defaults"]  # type: ignore[no-any-return]

    def compile_init(self, cls: type) -> Callable[..., None]:
        """``__init__(self, *, field, ...)`` for a frame: every field by keyword, those with a
        default optional (a fresh copy of it when left out)."""
        required = [f.name for f in self.fields if not f.has_default]
        optional = [name for name, _ in self.defaults]
        params = ", ".join(["self", "*"] + required + [f"{n}=_MISSING" for n in optional]) if self.fields else "self"
        lines = [f"def __init__({params}) -> None:  # generated from {cls.__qualname__}'s fields"]
        lines += [f"    self.{n} = {n}" for n in required]
        for name in optional:
            kind, default = self.kinds[name], f"D[{name!r}]"
            if kind.immutable:
                lines.append(f"    self.{name} = {default} if {name} is _MISSING else {name}")
            else:
                lines.append(f"    self.{name} = {kind.copy_code(default, 0)} if {name} is _MISSING else {name}")
        if len(lines) == 1:
            lines.append("    pass")
        scope: dict[str, Any] = {"D": dict(self.defaults), "_MISSING": _MISSING}
        exec(compile("\n".join(lines), f"<{cls.__qualname__} __init__>", "exec"), scope)  # noqa: S102
        init = scope["__init__"]
        init.__qualname__ = f"{cls.__qualname__}.__init__"
        return init  # type: ignore[no-any-return]

    def dump(self, obj: Any) -> dict[str, Any]:
        kinds = self.kinds
        return {name: kinds[name].dump(getattr(obj, name)) for name in self.saved}

    def _compile_load(self, cls: type) -> Callable[[Any, dict[str, Any], int], None]:
        lines = [f"def load(dst, data, players):  # generated from {cls.__qualname__}'s fields"]
        defaults = dict(self.defaults)
        for f in self.fields:
            name, kind = f.name, self.kinds[f.name]
            if name in self.bound:
                continue
            if name in defaults:
                default = defaults[name]
                if type(default) is PerPlayer:
                    item = kind.item if isinstance(kind, ListOf) else SCALAR
                    fresh = f"[{item.copy_code(f'D[{name!r}].value', 1)} for _ in range(players)]"
                else:
                    fresh = kind.copy_code(f"D[{name!r}]", 0)
            else:
                fresh = f"_missing({name!r})"
            if name not in self.saved:                     # transient: its default
                lines.append(f"    dst.{name} = {fresh}")
                continue
            src = f"data[{name!r}]"
            code = kind.load_code(src, name) or f"K[{name!r}].load({src})"
            lines.append(f"    dst.{name} = {code} if {name!r} in data else {fresh}")
        if len(lines) == 1:
            lines.append("    pass")
        scope: dict[str, Any] = {"D": defaults, "K": self.kinds, "_missing": _missing}
        exec(compile("\n".join(lines), f"<{cls.__qualname__} load>", "exec"), scope)  # noqa: S102
        return scope["load"]  # type: ignore[no-any-return]


def _missing(name: str) -> Any:
    raise KeyError(name)


class Declared(ABCMeta):
    """Metaclass reading a class's annotated attributes as its fields (see the module's
    docstring): it makes their `__slots__` and keeps their defaults out of the class."""

    _FIELDS: tuple[Field, ...]
    _PLAN: Plan | None

    def __new__(mcs, name: str, bases: tuple[type, ...], ns: dict[str, Any], by_hand: bool = False,
                **kw: Any) -> Declared:
        inherited: tuple[Field, ...] = ()
        for base in bases:
            inherited += tuple(f for f in getattr(base, "_FIELDS", ()) if f not in inherited)
        known = {f.name for f in inherited}
        own: list[Field] = []
        module = ns.get("__module__", "")
        for fname, annotation in ns.get("__annotations__", {}).items():
            text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", str(annotation))
            if text.startswith(("ClassVar", "typing.ClassVar", "'ClassVar")):
                continue      # a class constant
            if fname in known:
                # a base's field again: its type narrowed for the type checker, and (unless
                # the base copies it by hand) maybe a default of this class's own
                i = next(i for i, f in enumerate(inherited) if f.name == fname)
                if not inherited[i].by_hand:
                    inherited = inherited[:i] + (Field(fname, text, ns.pop(fname, inherited[i].default),
                                                       module),) + inherited[i + 1:]
                continue
            own.append(Field(fname, text, ns.pop(fname, _MISSING), module, by_hand))
        if "__slots__" not in ns:
            ns["__slots__"] = tuple(f.name for f in own)
        cls = super().__new__(mcs, name, bases, ns, **kw)
        cls._FIELDS = inherited + tuple(own)
        cls._PLAN = None
        return cls

    def plan(cls) -> Plan:
        """The class's resolved fields (made on first use)."""
        plan: Plan | None = cls.__dict__.get("_PLAN")
        if plan is None:
            plan = Plan(cls, tuple(f for f in cls._FIELDS if not f.by_hand))
            cls._PLAN = plan
        return plan


class Frame(metaclass=Declared):
    """A typed value held by a state (a battle, a combat in progress): its annotated fields are
    its data, created by keyword (``Battle(actor=0, region=5)``; fields with defaults may be
    left out), copied by `clone` and saved by `to_json`."""

    _FIELDS: ClassVar[tuple[Field, ...]]

    if TYPE_CHECKING:
        def __init__(self, **values: Any) -> None:
            """Every field by keyword (generated per class on first use; see __init_subclass__)."""

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        if "__init__" not in cls.__dict__:      # a frame may write its own
            def __init__(self: Any, **values: Any) -> None:
                # replaced on first use by one generated from the fields (keyword-only
                # arguments, the defaults copied fresh): as fast as a hand-written one
                init = (cls._PLAN or cls.plan()).compile_init(cls)
                cls.__init__ = init  # type: ignore[method-assign]
                init(self, **values)

            cls.__init__ = __init__  # type: ignore[method-assign]

    def clone(self: T) -> T:
        cls = type(self)
        other = cls.__new__(cls)
        cls.plan().clone_into(self, other)  # type: ignore[attr-defined]
        return other

    def to_json(self) -> dict[str, Any]:
        return type(self).plan().dump(self)

    @classmethod
    def from_json(cls: type[T], data: dict[str, Any]) -> T:
        obj = cls.__new__(cls)
        cls.plan().load(obj, data, 0)  # type: ignore[attr-defined]
        return obj

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        body = ", ".join(f"{f.name}={getattr(self, f.name, '?')!r}" for f in self._FIELDS)
        return f"{type(self).__name__}({body})"
