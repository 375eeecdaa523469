"""Rules help in Japanese and English: how to play each game, and words for its options.

Each game keeps its help in ``howto.toml`` beside its code (``takujo/games/<game>/howto.toml``)::

    title = { ja = "…の遊び方", en = "How to play …" }

    [[sections]]                      # setup, turn, winning, and the game's special phases
    id = "setup"
    heading = { ja = "準備", en = "Setup" }
    [[sections.paragraphs]]
    rules = ["FTR-SETUP-01"]          # the clauses of docs/rules/<game>.md it summarizes
    tags = ["designed"]               # and/or rules the document tags [designed] or [public]
    ja = "…"
    en = "…"

    [options.center_regions]          # every option of the game's Options
    label = { ja = "中央の地域", en = "Centre regions" }
    description = { ja = "…", en = "…" }
    values.invadable = { ja = "侵攻できる", en = "Can be invaded" }   # by game-string form

The API::

    how_to_play(game, "en")      # the help for this configured game, its chosen options marked
    option_words("fuutei", "ja") # label, description and value labels of every option

Texts are plain (no markup). An unknown language falls back to English; a game without a
``howto.toml`` gets no sections, and its options the words its messages give
(`option_help`). Files are read and checked once (`CardDataError` names the problem).
"""
from __future__ import annotations

import enum
import sys
import types
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Mapping, TypedDict, Union, get_args, get_origin

from ..core.cards import read_toml
from ..core.errors import CardDataError, OptionError
from .catalogue import LANGS, option_help
from .language import parse_language

if TYPE_CHECKING:
    from ..core.game import Game

HOWTO_FILE = "howto.toml"
#: The sections every game's help has; a game may add its own (battle, combat, …).
REQUIRED_SECTIONS = ("setup", "turn", "winning")
#: Provenance besides clause IDs: the rules document's ``[designed]`` and ``[public: …]`` tags.
TAGS = frozenset({"designed", "public"})
FALLBACK_LANG = "en"


# ----- what the API returns ------------------------------------------------------------------
class Source(TypedDict):
    rules: list[str]          # clause IDs of docs/rules/<game>.md
    tags: list[str]           # "designed", "public"


class Section(TypedDict):
    id: str
    heading: str
    paragraphs: list[str]
    rules: list[str]          # every clause the section's paragraphs cite, in order, once each
    sources: list[Source]     # one a paragraph, in the same order


class ValueWords(TypedDict):
    value: Any                # the option's value (bool, int or str), as the game takes it
    label: str


class OptionWords(TypedDict):
    label: str
    description: str
    values: list[ValueWords]  # the values with a label (enum values, true/false, choices)
    default: Any


class OptionState(TypedDict):
    key: str
    label: str
    description: str
    value: Any
    value_label: str
    default: Any
    default_label: str
    changed: bool


class HowTo(TypedDict):
    game: str
    lang: str
    title: str                # "How to play …"
    game_title: str           # the game's own title in this language
    sections: list[Section]
    options: list[OptionState]


# ----- the data of one file, checked once -----------------------------------------------------
Text = Mapping[str, str]      # language -> text


@dataclass(frozen=True)
class Paragraph:
    text: Text
    rules: tuple[str, ...]
    tags: tuple[str, ...]


@dataclass(frozen=True)
class SectionData:
    id: str
    heading: Text
    paragraphs: tuple[Paragraph, ...]


@dataclass(frozen=True)
class OptionData:
    label: Text
    description: Text
    values: Mapping[str, Text]    # game-string form of a value -> its label


@dataclass(frozen=True)
class HowToData:
    """One game's ``howto.toml``, checked."""

    title: Text | None = None
    sections: tuple[SectionData, ...] = ()
    options: Mapping[str, OptionData] = field(default_factory=lambda: types.MappingProxyType({}))


def _bad(where: Path, item: str, detail: str) -> CardDataError:
    return CardDataError("messages.bad_template", where=str(where), id=item, detail=detail)


def _text(where: Path, item: str, value: Any) -> Text:
    if not isinstance(value, dict):
        raise CardDataError("messages.not_table", where=str(where), id=item)
    missing = [lang for lang in LANGS if not (isinstance(value.get(lang), str) and value[lang].strip())]
    if missing:
        raise CardDataError("messages.missing_language", where=str(where), id=item, langs=missing)
    extra = sorted(set(value) - set(LANGS))
    if extra:
        raise _bad(where, item, f"unknown keys {extra}")
    return types.MappingProxyType({lang: value[lang].strip() for lang in LANGS})


def _strings(where: Path, item: str, value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise _bad(where, item, "expected a list of strings")
    return tuple(value)


def load_howto(path: Path | str) -> HowToData:
    """Read and check a ``howto.toml``: every text in both languages, every paragraph with
    its provenance (clause IDs or tags), section IDs unique. Problems raise `CardDataError`."""
    path = Path(path)
    doc = read_toml(path)
    unknown = sorted(set(doc) - {"title", "sections", "options"})
    if unknown:
        raise _bad(path, "(top)", f"unknown tables {unknown}")
    title = _text(path, "title", doc["title"]) if "title" in doc else None
    sections: list[SectionData] = []
    raw_sections = doc.get("sections", [])
    if not isinstance(raw_sections, list):
        raise _bad(path, "sections", "expected [[sections]]")
    for n, raw in enumerate(raw_sections):
        sid = raw.get("id") if isinstance(raw, dict) else None
        if not isinstance(sid, str) or not sid:
            raise _bad(path, f"sections[{n}]", "a section needs an id")
        if any(s.id == sid for s in sections):
            raise _bad(path, f"sections.{sid}", "the id is used twice")
        paragraphs = []
        raw_paragraphs = raw.get("paragraphs")
        if not isinstance(raw_paragraphs, list) or not raw_paragraphs:
            raise _bad(path, f"sections.{sid}", "a section needs [[sections.paragraphs]]")
        for i, p in enumerate(raw_paragraphs):
            item = f"sections.{sid}.paragraphs[{i}]"
            if not isinstance(p, dict):
                raise CardDataError("messages.not_table", where=str(path), id=item)
            rules = _strings(path, f"{item}.rules", p.get("rules"))
            tags = _strings(path, f"{item}.tags", p.get("tags"))
            if set(tags) - TAGS:
                raise _bad(path, f"{item}.tags", f"tags are {sorted(TAGS)}")
            if not rules and not tags:
                raise _bad(path, item, "a paragraph cites its rules (rules, or tags)")
            text = _text(path, item, {k: v for k, v in p.items() if k not in ("rules", "tags")})
            paragraphs.append(Paragraph(text, rules, tags))
        extra = sorted(set(raw) - {"id", "heading", "paragraphs"})
        if extra:
            raise _bad(path, f"sections.{sid}", f"unknown keys {extra}")
        sections.append(SectionData(sid, _text(path, f"sections.{sid}.heading", raw.get("heading")),
                                    tuple(paragraphs)))
    options: dict[str, OptionData] = {}
    raw_options = doc.get("options", {})
    if not isinstance(raw_options, dict):
        raise CardDataError("messages.not_table", where=str(path), id="options")
    for key, raw in raw_options.items():
        item = f"options.{key}"
        if not isinstance(raw, dict):
            raise CardDataError("messages.not_table", where=str(path), id=item)
        extra = sorted(set(raw) - {"label", "description", "values"})
        if extra:
            raise _bad(path, item, f"unknown keys {extra}")
        values = raw.get("values", {})
        if not isinstance(values, dict):
            raise CardDataError("messages.not_table", where=str(path), id=f"{item}.values")
        options[key] = OptionData(_text(path, f"{item}.label", raw.get("label")),
                                  _text(path, f"{item}.description", raw.get("description")),
                                  types.MappingProxyType({str(v): _text(path, f"{item}.values.{v}", t)
                                                          for v, t in values.items()}))
    return HowToData(title, tuple(sections), types.MappingProxyType(options))


@lru_cache(maxsize=None)
def _load(path: str) -> HowToData:
    return load_howto(path) if Path(path).is_file() else HowToData()


def howto_path(game_class: type) -> Path:
    """Where a game's help lives: ``howto.toml`` beside its module."""
    module = sys.modules[game_class.__module__]
    return Path(module.__file__ or ".").with_name(HOWTO_FILE)


def help_data(game: "type[Game] | Game | str") -> HowToData:
    """The checked contents of a game's ``howto.toml`` (empty without one); read once."""
    return _load(str(howto_path(_game_class(game))))


# ----- helpers ---------------------------------------------------------------------------------
def language(lang: str | None) -> str:
    """`lang` as one of `LANGS` ("ja_JP.UTF-8" is "ja"); anything else is English."""
    if not lang:
        return FALLBACK_LANG
    try:
        return parse_language(lang)
    except OptionError:
        return FALLBACK_LANG


def _game_class(game: "type[Game] | Game | str") -> "type[Game]":
    if isinstance(game, str):
        from ..core.registry import game_class
        return game_class(game)
    return game if isinstance(game, type) else type(game)


def value_key(value: Any) -> str:
    """A value as a game string writes it: ``true``/``false``, numbers and text as they are."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, enum.Enum):
        return str(value.value)
    return str(value)


def option_choices(game_class: type, key: str) -> list[Any] | None:
    """The values an option takes from a fixed list: a Literal's or an Enum's values, true and
    false, or the ``choices`` its field declares (a starter deck's name); None for a number or
    free text."""
    info = game_class.Options.model_fields[key]  # type: ignore[attr-defined]
    found: list[Any] = []
    for t in _flatten_union(info.annotation):
        if get_origin(t) is Literal:
            found.extend(get_args(t))
        elif t is bool:
            found.extend([False, True])
        elif isinstance(t, type) and issubclass(t, enum.Enum):
            found.extend(m.value for m in t)
    extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
    choices = extra.get("choices")
    if isinstance(choices, list):
        found.extend(c for c in choices if c not in found)
    return found or None


def _flatten_union(t: Any) -> list[Any]:
    if get_origin(t) in (Union, types.UnionType):
        return [x for a in get_args(t) for x in _flatten_union(a)]
    return [t]


def _default(info: Any) -> Any:
    return info.get_default(call_default_factory=True)


# ----- the API ---------------------------------------------------------------------------------
def option_words(game: "type[Game] | Game | str", lang: str) -> dict[str, OptionWords]:
    """Words for every option of a game (a class, a configured game or a registered name), by
    option key in the order the game declares them: ``{"label", "description", "values":
    [{"value", "label"}], "default"}``. ``values`` lists the option's fixed values (enum
    values, false and true, declared choices) and any other value its help names (the empty
    text of a file option: the built-in set)."""
    cls = _game_class(game)
    lang = language(lang)
    data = help_data(cls)
    out: dict[str, OptionWords] = {}
    for key, info in cls.Options.model_fields.items():
        words = data.options.get(key)
        values: list[ValueWords] = []
        labelled = dict(words.values) if words is not None else {}
        for v in option_choices(cls, key) or []:
            text = labelled.pop(value_key(v), None)
            values.append({"value": v, "label": text[lang] if text is not None else value_key(v)})
        for k, text in labelled.items():
            values.append({"value": _parse_value(info.annotation, k), "label": text[lang]})
        out[key] = {
            "label": words.label[lang] if words is not None else key,
            "description": words.description[lang] if words is not None else option_help(cls, key, lang),
            "values": values,
            "default": _default(info),
        }
    return out


def _parse_value(annotation: Any, text: str) -> Any:
    """A value named in a help file (by its game-string form) as the option takes it."""
    kinds = _flatten_union(annotation)
    if bool in kinds and text in ("true", "false"):
        return text == "true"
    if int in kinds:
        try:
            return int(text)
        except ValueError:
            pass
    return text


def value_label(words: OptionWords, value: Any) -> str:
    """The label of `value` among an option's words, else the value as a game string writes it."""
    key = value_key(value)
    for v in words["values"]:
        if value_key(v["value"]) == key:
            return v["label"]
    return key


def how_to_play(game: "Game", lang: str) -> HowTo:
    """How to play this game, in `lang` (English for a language we do not have), with the
    options it was configured with::

        {"game", "lang", "title", "game_title",
         "sections": [{"id", "heading", "paragraphs": [str], "rules": [clause IDs],
                       "sources": [{"rules", "tags"} for each paragraph]}],
         "options": [{"key", "label", "description", "value", "value_label",
                      "default", "default_label", "changed"}]}

    ``changed`` is true for an option whose value differs from its default."""
    from .render import Renderer
    lang = language(lang)
    cls = type(game)
    data = help_data(cls)
    game_title = Renderer(game, lang, markup=False).title()
    sections: list[Section] = []
    for s in data.sections:
        cited: list[str] = []
        for p in s.paragraphs:
            cited.extend(r for r in p.rules if r not in cited)
        sections.append({
            "id": s.id,
            "heading": s.heading[lang],
            "paragraphs": [p.text[lang] for p in s.paragraphs],
            "rules": cited,
            "sources": [{"rules": list(p.rules), "tags": list(p.tags)} for p in s.paragraphs],
        })
    words = option_words(cls, lang)
    options: list[OptionState] = []
    for key, w in words.items():
        value, default = getattr(game.options, key), w["default"]
        options.append({
            "key": key,
            "label": w["label"],
            "description": w["description"],
            "value": value,
            "value_label": value_label(w, value),
            "default": default,
            "default_label": value_label(w, default),
            "changed": value_key(value) != value_key(default),
        })
    title = data.title[lang] if data.title is not None else game_title
    return {"game": cls.name, "lang": lang, "title": title, "game_title": game_title,
            "sections": sections, "options": options}


__all__ = ["HOWTO_FILE", "REQUIRED_SECTIONS", "TAGS", "HowTo", "HowToData", "OptionState", "OptionWords",
           "Section", "Source", "ValueWords", "help_data", "how_to_play", "howto_path", "language",
           "load_howto", "option_choices", "option_words", "value_key", "value_label"]
