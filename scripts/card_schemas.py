#!/usr/bin/env python3
"""Write the JSON Schemas of the games' card files from the loaders' own pydantic models.

    python3 scripts/card_schemas.py            # (re)write docs/schemas/<game>-<kind>.schema.json
    python3 scripts/card_schemas.py --check    # exit 1 if a written file differs from the models

One schema per file kind (the game option that names it): fuutei ``cards``, sengoku_taisen
``cards``, ibara ``content``, draft_daimyo ``cards`` and ``board``. Each is a top-level object
schema with one property per table the loader accepts (its ``TABLES``): ``[[card]]`` and the
other arrays of tables as arrays of the entry model's schema, ``[deck]`` as the model's
object, and ``[meta]`` with the keys `takujo.core.cards.META_KEYS` allows.

Everything comes from the models (`model_json_schema`), with four additions, each read from
the loader too, never written here by hand:

- an effect (a `takujo.core.cards.Effect` model, or a field the loader checks against a
  vocabulary table) lists its verbs (``do``) and, verb by verb, the parameters the loader
  accepts (its ``VOCABULARY``);
- old terms a model renames before validation (戦国大戦 双's 武力, 特技, 兵種) are accepted
  as the fields they stand for, and never together with them;
- an optional field is a key left out: TOML has no null, so none is offered;
- the schemas are JSON Schema draft 4 (``definitions``, no ``const``), the version the
  Taplo language server of the "Even Better TOML" VS Code extension supports.

What a model checks in code (a character's four stats, composition, cross references, the
ranges of effect parameters …) is not in a schema: the loader remains the judge
(docs/cards.md).
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from types import ModuleType
from typing import Any, Iterable, Mapping

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from pydantic import BaseModel  # noqa: E402
from pydantic.json_schema import GenerateJsonSchema, models_json_schema  # noqa: E402

from takujo.core import cards as core_cards  # noqa: E402
from takujo.games.draft_daimyo import board as dsd_board, cards as dsd_cards  # noqa: E402
from takujo.games.fuutei import cards as ftr_cards  # noqa: E402
from takujo.games.ibara import content as ibr_content  # noqa: E402
from takujo.games.sengoku_taisen import cards as sgt_cards  # noqa: E402

OUT = ROOT / "docs" / "schemas"
DRAFT = "http://json-schema.org/draft-04/schema#"
#: Keywords of later drafts that Taplo (draft 4) would not understand.
LATER_KEYWORDS = {"const", "if", "then", "else", "propertyNames", "$defs", "examples", "contains",
                  "dependentSchemas", "dependentRequired", "unevaluatedProperties", "prefixItems"}


@dataclass(frozen=True)
class Table:
    """One table of a card file: ``[[name]]`` entries (`many`) or one ``[name]`` table."""

    name: str
    model: type[BaseModel]
    many: bool = True


@dataclass(frozen=True)
class FileKind:
    game: str
    kind: str                      # the game option naming such a file
    title: str
    loader: ModuleType             # the module whose TABLES the file may hold
    builtin: Path                  # the built-in (stand-in) file
    tables: tuple[Table, ...]
    #: fields a loader checks against a vocabulary of its module: (model, field) -> vocabulary
    vocabularies: dict[tuple[type[BaseModel], str], Any] = field(default_factory=dict)

    @property
    def path(self) -> Path:
        return OUT / f"{self.game}-{self.kind}.schema.json"


FILE_KINDS: tuple[FileKind, ...] = (
    FileKind("fuutei", "cards", "風帝伝説FIGHTER: a card file (cards.toml)", ftr_cards, ftr_cards.CARD_FILE,
             (Table("card", ftr_cards.CardSpec),)),
    FileKind("sengoku_taisen", "cards", "戦国大戦 双: a card pool (cards.toml)", sgt_cards, sgt_cards.CARD_FILE,
             (Table("card", sgt_cards.CardSpec),)),
    FileKind("ibara", "content", "いばらの姫と4人の騎士: a content file (content.toml)", ibr_content,
             ibr_content.CONTENT_FILE,
             (Table("deck", ibr_content.DeckSpec, many=False), Table("sp", ibr_content.SpCard),
              Table("knight", ibr_content.Knight), Table("item", ibr_content.Item),
              Table("whim", ibr_content.Whim), Table("event", ibr_content.Event)),
             {(ibr_content.Event, "effect"): ibr_content.EVENT_EFFECTS,
              (ibr_content.SpCard, "effect"): ibr_content.SP_EFFECTS}),
    FileKind("draft_daimyo", "cards", "ドラフト戦国大名: a card file (cards.toml)", dsd_cards, dsd_cards.CARD_FILE,
             (Table("card", dsd_cards.CardSpec),)),
    FileKind("draft_daimyo", "board", "ドラフト戦国大名: a map (map.toml)", dsd_board, dsd_board.MAP_FILE,
             (Table("province", dsd_board.ProvinceSpec),)),
)


# ----- what a model renames before validation -------------------------------------------------
def renamed_terms(model: type[BaseModel]) -> list[tuple[str, str]]:
    """(old key, field) pairs a ``mode="before"`` model validator of `model` renames, read from
    the validator itself (its table of pairs, or `LEGACY_TERMS` of the model's module if it
    has one) and each checked by calling the validator: renaming ``{old: 1}`` must give the
    field the value."""
    module = sys.modules[model.__module__]
    found: list[tuple[str, str]] = []
    for deco in model.__pydantic_decorators__.model_validators.values():
        if deco.info.mode != "before":
            continue
        func = getattr(deco.func, "__func__", deco.func)
        pairs = getattr(module, "LEGACY_TERMS", None)
        if pairs is None:
            pairs = next((c for c in func.__code__.co_consts if isinstance(c, tuple) and c
                          and all(isinstance(p, tuple) and len(p) == 2 and all(isinstance(x, str) for x in p)
                                  for p in c)), ())
        for old, new in (pairs.items() if isinstance(pairs, dict) else pairs):
            if new not in model.model_fields:
                raise SystemExit(f"{model.__qualname__}: {old!r} is renamed to {new!r}, which is no field")
            renamed = deco.func({old: 1})
            if not isinstance(renamed, dict) or renamed.get(new) != 1 or old in renamed:
                raise SystemExit(f"{model.__qualname__}: the before-validator does not rename {old!r} to "
                                 f"{new!r}; update renamed_terms() in {Path(__file__).name}")
            found.append((old, new))
    return found


# ----- the schema generator -------------------------------------------------------------------
def effect_schema(vocabulary: Mapping[str, Any], fields: Iterable[str], base: dict[str, Any]) -> dict[str, Any]:
    """`base` (an object schema with a ``do`` key) with its verbs and, for each verb, exactly
    the keys it may have: the model's own fields and the verb's parameters."""
    # a verb registry (`takujo.core.effects.Verbs`) gives each verb's parameters as `params`
    vocabulary = {verb: getattr(names, "params", names) for verb, names in vocabulary.items()}
    out = dict(base)
    props = dict(out.get("properties", {}))
    props["do"] = {**props.get("do", {"type": "string"}), "enum": sorted(vocabulary)}
    params: dict[str, list[str]] = {}
    for verb, names in vocabulary.items():
        for name in names:
            params.setdefault(name, []).append(verb)
    for name in sorted(params):
        props.setdefault(name, {"description": "a parameter of " + ", ".join(sorted(params[name]))})
    out["properties"] = props
    out["required"] = sorted(set(out.get("required", [])) | {"do"})
    own = sorted(set(fields) - {"do"})
    out["anyOf"] = [{"title": verb,
                     "properties": {"do": {"enum": [verb]}, **{k: {} for k in sorted(set(own) | set(names))}},
                     "additionalProperties": False}
                    for verb, names in sorted(vocabulary.items())]
    return out


class TomlSchema(GenerateJsonSchema):
    """Pydantic's JSON Schema of a model, for a TOML file (see the module's docstring)."""

    vocabularies: dict[tuple[type[BaseModel], str], Any] = {}

    def nullable_schema(self, schema: Any) -> dict[str, Any]:
        # TOML has no null: an optional field is one the file leaves out
        return self.generate_inner(schema["schema"])

    def model_schema(self, schema: Any) -> dict[str, Any]:
        out = super().model_schema(schema)
        cls = schema["cls"]
        if isinstance(cls, type) and issubclass(cls, core_cards.Effect) and cls.VOCABULARY:
            out = effect_schema(cls.VOCABULARY, cls.model_fields, out)
        props = out.get("properties", {})
        for (model, name), vocabulary in self.vocabularies.items():
            if cls is model:
                if isinstance(vocabulary, dict):
                    props[name] = effect_schema(vocabulary, {"do"}, {
                        "type": "object", "title": props[name].get("title", name),
                        "properties": {"do": {"type": "string"}}, "additionalProperties": True})
                else:
                    props[name] = {**props[name], "enum": sorted(vocabulary)}
        renamed = renamed_terms(cls) if isinstance(cls, type) and issubclass(cls, BaseModel) else []
        if renamed:
            for old, new in renamed:
                props[old] = {**props[new], "description": f"an old term for `{new}`, read as it"}
            groups: dict[str, list[str]] = {}
            for old, new in renamed:
                groups.setdefault(new, [new]).append(old)
            out["allOf"] = [{"not": {"required": list(pair)}} for names in groups.values()
                            for pair in combinations(names, 2)]
        return out


def _draft4(node: Any) -> Any:
    """The schema in draft 4's terms: no null defaults (TOML has none), ``const`` as a
    one-value ``enum``; any other keyword of a later draft is refused."""
    if isinstance(node, list):
        return [_draft4(x) for x in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "default" and value is None:
            continue
        if key == "const":
            out["enum"] = [value]
            continue
        if key in LATER_KEYWORDS or (key in ("exclusiveMinimum", "exclusiveMaximum") and not isinstance(value, bool)):
            raise SystemExit(f"a schema uses {key!r}, which JSON Schema draft 4 has not")
        out[key] = _draft4(value) if key not in ("properties", "definitions") else \
            {k: _draft4(v) for k, v in value.items()}
    return out


def meta_schema() -> dict[str, Any]:
    return {"type": "object", "title": "meta",
            "description": "What the set is: its name (set), whether it is a stand-in (stand_in), a note in each "
                           "language (note_ja, note_en). See docs/cards.md.",
            "properties": {key: {} for key in core_cards.META_KEYS}, "additionalProperties": False}


def schema_of(kind: FileKind) -> dict[str, Any]:
    """The JSON Schema of one file kind."""
    names = {t.name for t in kind.tables} | {"meta"}
    if names != set(kind.loader.TABLES):
        raise SystemExit(f"{kind.game} {kind.kind}: the loader's tables are {list(kind.loader.TABLES)}, "
                         f"the script's {sorted(names)}: update FILE_KINDS in {Path(__file__).name}")
    generator = type("Generator", (TomlSchema,), {"vocabularies": kind.vocabularies})
    refs, defs = models_json_schema([(t.model, "validation") for t in kind.tables],
                                    ref_template="#/definitions/{model}", schema_generator=generator)
    definitions = defs.get("$defs", {})
    properties: dict[str, Any] = {"meta": meta_schema()}
    required: list[str] = []
    for table in kind.tables:
        ref = refs[(table.model, "validation")]
        if table.many:
            # load_cards / validate_entries refuse a file without entries in the table
            properties[table.name] = {"type": "array", "minItems": 1, "items": ref,
                                      "description": f"the [[{table.name}]] entries"}
            required.append(table.name)
        else:
            properties[table.name] = {**ref}
            name = ref["$ref"].rsplit("/", 1)[-1]
            if definitions[name].get("required"):
                required.append(table.name)
    schema = {
        "$schema": DRAFT,
        "title": kind.title,
        "description": f"The {kind.kind} file of {kind.game} (option {kind.kind}=…), generated from the "
                       f"loader's models by scripts/card_schemas.py; the loader checks more "
                       f"(docs/cards.md). The built-in file: "
                       f"{kind.builtin.relative_to(ROOT).as_posix()}.",
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
        "definitions": definitions,
    }
    return _draft4(schema)


def render(kind: FileKind) -> str:
    return json.dumps(schema_of(kind), ensure_ascii=False, indent=2) + "\n"


def render_all() -> dict[Path, str]:
    """Every schema file's path and text."""
    return {kind.path: render(kind) for kind in FILE_KINDS}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a file differs")
    args = parser.parse_args(argv)
    stale = []
    for path, text in render_all().items():
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            continue
        stale.append(path)
        if not args.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    for path in stale:
        print(("differs: " if args.check else "wrote: ") + path.relative_to(ROOT).as_posix())
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
