"""Loading card data from TOML with validation.

A card file holds an array of tables (``[[card]]``). Each entry is validated by a pydantic
model of the game; any problem raises `CardDataError` naming the file, the card and the field.
"""
from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, Callable, ClassVar, Hashable, Iterable, Mapping, Sequence, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator, model_validator

from . import sources
from .errors import CardDataError, Phrase
from .validation import field_name, problem

M = TypeVar("M", bound=BaseModel)
C = TypeVar("C")


class Effect(BaseModel):
    """An effect named from a game's vocabulary: ``{do = "draw", n = 2}``.

    A game subclasses it and sets ``VOCABULARY``: its verb registry (`takujo.core.effects.Verbs`,
    read live, so a verb registered later is known at once) or a mapping verb -> allowed
    parameters; unknown verbs and parameters are refused with a message naming them."""

    model_config = ConfigDict(extra="allow", frozen=True)
    VOCABULARY: ClassVar[Mapping[str, Any]] = {}
    do: str

    @model_validator(mode="after")
    def _known(self) -> "Effect":
        vocab = type(self).VOCABULARY
        if self.do not in vocab:
            raise CardDataError("data.effect.unknown", effect=self.do, known=sorted(vocab))
        entry = vocab[self.do]
        allowed = set(getattr(entry, "params", entry))
        extra = set(self.model_extra or {}) - allowed
        if extra:
            raise CardDataError("data.effect.extra", effect=self.do, extra=sorted(extra),
                                allowed=sorted(allowed) or Phrase("data.none"))
        return self

    def get(self, key: str, default: Any = None) -> Any:
        return (self.model_extra or {}).get(key, default)


class CardText(BaseModel):
    """Rules text in Japanese and English, with whitespace from TOML folded."""

    text_ja: str = ""
    text_en: str = ""

    @field_validator("text_ja", "text_en")
    @classmethod
    def _text(cls, v: str) -> str:
        return " ".join(v.split())


#: Data files larger than this are refused unread (the built-in ones are under 100 kB).
MAX_DATA_BYTES = 4 * 1024 * 1024


_WHAT = {"data file": Phrase("data.what.data_file"), "TOML data file": Phrase("data.what.toml"),
         "decklist": Phrase("data.what.decklist")}


def _what(what: str) -> Phrase | str:
    return _WHAT.get(what, what)


def read_data_text(path: Path | str, what: str = "data file") -> str:
    """The text of a UTF-8 data file, or `CardDataError` naming the file and the problem
    (missing, a folder, unreadable, too large, not UTF-8). Never quotes the file's contents,
    so a path to a file that is not data (``/etc/passwd``) reveals nothing of it."""
    if str(path).startswith(sources.PREFIX):   # an uploaded set, held in memory: no file at all
        return _set_text(str(path), what)
    path = Path(path)
    try:
        if path.is_dir():
            raise CardDataError("data.folder", path=path, what=_what(what))
        with open(path, "rb") as fh:
            raw = fh.read(MAX_DATA_BYTES + 1)
    except FileNotFoundError:
        raise CardDataError("data.not_found", path=path) from None
    except PermissionError:
        raise CardDataError("data.permission", path=path) from None
    except OSError as exc:
        raise CardDataError("data.unreadable", path=path, reason=exc.strerror or type(exc).__name__) from None
    if len(raw) > MAX_DATA_BYTES:
        raise CardDataError("data.too_large", path=path, mb=MAX_DATA_BYTES // (1024 * 1024), what=_what(what))
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise CardDataError("data.not_utf8", path=path, byte=exc.start + 1, line=line,
                            what=_what(what)) from None


def _set_text(name: str, what: str) -> str:
    """The text of an uploaded card set (`takujo.core.sources`)."""
    if not sources.NAME.fullmatch(name):
        raise CardDataError("data.bad_set", name=name[:QUOTE])
    text = sources.text_of(name)
    if text is None:
        raise CardDataError("data.unknown_set", name=name[:16] + "…")
    if len(text.encode("utf-8")) > MAX_DATA_BYTES:
        raise CardDataError("data.too_large", path=name[:16] + "…", mb=MAX_DATA_BYTES // (1024 * 1024), what=_what(what))
    return text


def read_toml(path: Path) -> dict[str, Any]:
    """A TOML data file as a dict; every problem is a `CardDataError` naming the file."""
    text = read_data_text(path, "TOML data file")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CardDataError("data.not_toml", path=path, detail=str(exc)) from None


#: At most this many characters of a name the file gives (an id, a card number) in a message.
QUOTE = 40


def validate_entries(path: Path, entries: object, model: type[M], table: str = "card",
                     key: str = "id") -> list[M]:
    """Validate every entry of ``[[table]]``; report every bad card and field at once, each
    entry named by its position and its `key` field (``id``, or a card ``number``)."""
    if not isinstance(entries, list) or not entries:
        raise CardDataError("data.no_entries", path=path, table=table)
    out: list[M] = []
    problems: list[CardDataError] = []
    for i, entry in enumerate(entries, 1):
        if isinstance(entry, dict) and entry.get(key):
            label = Phrase("data.entry_named", table=table, n=i, key=str(entry[key])[:QUOTE])
        else:
            label = Phrase("data.entry", table=table, n=i)
        try:
            out.append(model.model_validate(entry))
        except ValidationError as exc:
            problems.extend(CardDataError("data.bad_field", path=path, entry=label,
                                          field=field_name(err), problem=problem(err))
                            for err in exc.errors())
    if problems:
        raise CardDataError("data.problems", lines=problems)
    return out


def load_cards(path: Path | str, model: type[M], table: str = "card",
               key: str = "id") -> tuple[dict[str, Any], list[M]]:
    """Return (the whole TOML document, the validated entries of ``[[table]]``)."""
    path = Path(path)
    doc = read_toml(path)
    return doc, validate_entries(path, doc.get(table), model, table, key)


#: What a data file's ``[meta]`` table may say (`read_meta`): the set's name, whether it is a
#: stand-in, and a note in each language.
META_KEYS = ("set", "stand_in", "note_ja", "note_en")


def unknown_keys(doc: dict[str, Any], tables: Sequence[str]) -> tuple[list[str], list[str]]:
    """The top-level keys of a data file that are none of its `tables` (``meta`` among them),
    and the keys of its ``[meta]`` table that are none of `META_KEYS`, each sorted and cut to
    `QUOTE` characters (the caller refuses them with its own message): a misspelt table or
    key would otherwise be ignored without a word."""
    extra = sorted(str(k)[:QUOTE] for k in doc if k not in tables)
    meta = doc.get("meta")
    extra_meta = sorted(str(k)[:QUOTE] for k in meta if k not in META_KEYS) if isinstance(meta, dict) else []
    return extra, extra_meta


# ----- what every card set does after validation ------------------------------------------------
def first_repeat(specs: Iterable[M], key: Callable[[M], Hashable]) -> Hashable | None:
    """The first `key` two entries of a card set share (the caller refuses the set with its
    own message naming it), or None when all differ."""
    seen: set[Hashable] = set()
    for spec in specs:
        k = key(spec)
        if k in seen:
            return k
        seen.add(k)
    return None


def expand(specs: Iterable[M], make: Callable[[int, M], C], count: Callable[[M], int] = lambda s: s.count) -> tuple[C, ...]:  # type: ignore[attr-defined]
    """One card instance per copy (`count` of each entry), in file order: ``make(iid, spec)``
    with instance ids dense from 0 (the ids states and actions use)."""
    out: list[C] = []
    for spec in specs:
        for _ in range(count(spec)):
            out.append(make(len(out), spec))
    return tuple(out)


def read_meta(doc: dict[str, Any]) -> dict[str, Any]:
    """The file's ``[meta]`` table (what the set is, e.g. a stand-in), {} without one."""
    meta = doc.get("meta", {})
    return dict(meta) if isinstance(meta, dict) else {}


def card_file_option(description: str, **extra: Any) -> Any:
    """The game option naming a card file to play with instead of the built-in one ("": the
    built-in set). Marked ``server_file``: a web client may not name server files."""
    from pydantic import Field
    return Field("", description=description,
                 json_schema_extra={"server_file": True, "prefixes": [sources.PREFIX], **extra})
