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


def read_toml(path: Path) -> dict:
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise CardDataError(f"{path}: file not found") from None
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
