"""Loading card data from TOML with validation.

A card file holds an array of tables (``[[card]]``). Each entry is validated by a pydantic
model of the game; any problem raises `CardDataError` naming the file, the card and the field.
"""
from __future__ import annotations

import tomllib
from pathlib import Path
from typing import TypeVar

from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator, model_validator

from .errors import CardDataError

M = TypeVar("M", bound=BaseModel)


class Effect(BaseModel):
    """An effect named from a game's vocabulary: ``{do = "draw", n = 2}``.

    A game subclasses it and sets ``VOCABULARY`` (verb -> allowed parameters); unknown verbs
    and parameters are refused with a message naming them."""

    model_config = ConfigDict(extra="allow", frozen=True)
    VOCABULARY: ClassVar[dict[str, set[str]]] = {}
    do: str

    @model_validator(mode="after")
    def _known(self) -> "Effect":
        vocab = type(self).VOCABULARY
        if self.do not in vocab:
            raise ValueError(f"unknown effect {self.do!r}; known: {', '.join(sorted(vocab))}")
        extra = set(self.model_extra or {}) - vocab[self.do]
        if extra:
            raise ValueError(f"effect {self.do!r} takes no parameter(s) {sorted(extra)}; "
                             f"allowed: {sorted(vocab[self.do]) or 'none'}")
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


def read_data_text(path: Path | str, what: str = "data file") -> str:
    """The text of a UTF-8 data file, or `CardDataError` naming the file and the problem
    (missing, a folder, unreadable, too large, not UTF-8). Never quotes the file's contents,
    so a path to a file that is not data (``/etc/passwd``) reveals nothing of it."""
    path = Path(path)
    try:
        if path.is_dir():
            raise CardDataError(f"{path}: is a folder, not a {what}")
        with open(path, "rb") as fh:
            raw = fh.read(MAX_DATA_BYTES + 1)
    except FileNotFoundError:
        raise CardDataError(f"{path}: file not found") from None
    except PermissionError:
        raise CardDataError(f"{path}: permission denied") from None
    except OSError as exc:
        raise CardDataError(f"{path}: cannot be read ({exc.strerror or type(exc).__name__})") from None
    if len(raw) > MAX_DATA_BYTES:
        raise CardDataError(f"{path}: larger than {MAX_DATA_BYTES // (1024 * 1024)} MB; not a {what}")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise CardDataError(f"{path}: not UTF-8 text (byte {exc.start + 1}, line {line}); "
                            f"a {what} is UTF-8") from None


def read_toml(path: Path) -> dict:
    """A TOML data file as a dict; every problem is a `CardDataError` naming the file."""
    text = read_data_text(path, "TOML data file")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CardDataError(f"{path}: not valid TOML: {exc}") from None


def validate_entries(path: Path, entries: object, model: type[M], table: str = "card") -> list[M]:
    """Validate every entry of ``[[table]]``; report every bad card and field at once."""
    if not isinstance(entries, list) or not entries:
        raise CardDataError(f"{path}: expected a non-empty array of [[{table}]] tables")
    out: list[M] = []
    problems: list[str] = []
    for i, entry in enumerate(entries, 1):
        label = f"{table} #{i}"
        if isinstance(entry, dict) and entry.get("id"):
            label += f" ({entry['id']})"
        try:
            out.append(model.model_validate(entry))
        except ValidationError as exc:
            for err in exc.errors():
                field = ".".join(str(p) for p in err["loc"]) or "(entry)"
                problems.append(f"{path}: {label}: field {field!r}: {err['msg']}")
    if problems:
        raise CardDataError("\n".join(problems))
    return out


def load_cards(path: Path | str, model: type[M], table: str = "card") -> tuple[dict, list[M]]:
    """Return (the whole TOML document, the validated entries of ``[[table]]``)."""
    path = Path(path)
    doc = read_toml(path)
    return doc, validate_entries(path, doc.get(table), model, table)
