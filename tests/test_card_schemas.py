"""The JSON Schemas of the card files (docs/schemas/, written by scripts/card_schemas.py).

They are generated from the loaders' pydantic models: regenerated here in memory, they must
equal the committed files (run ``python3 scripts/card_schemas.py`` after changing a model).
Every built-in file must pass its schema, and a file with a wrong type must not.
"""
from __future__ import annotations

import copy
import importlib.util
import json
import sys
import tomllib
from pathlib import Path

import pytest
from pydantic import ValidationError

from takujo.core.errors import CardDataError

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "card_schemas.py"


def _script():
    name = "takujo_card_schemas_script"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, SCRIPT)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module          # (its dataclasses look their module up)
        spec.loader.exec_module(module)
    return sys.modules[name]


cs = _script()
KINDS = {f"{k.game}-{k.kind}": k for k in cs.FILE_KINDS}


def _builtin(kind) -> dict:
    return tomllib.loads(kind.builtin.read_text(encoding="utf-8"))


def test_every_file_kind_has_a_schema_file():
    assert sorted(p.name for p in cs.OUT.glob("*.schema.json")) == sorted(f"{n}.schema.json" for n in KINDS)
    assert set(KINDS) == {"fuutei-cards", "sengoku_taisen-cards", "ibara-content", "draft_daimyo-cards",
                          "draft_daimyo-board"}


@pytest.mark.parametrize("name", sorted(KINDS))
def test_committed_schema_is_what_the_models_give(name):
    kind = KINDS[name]
    committed = kind.path.read_text(encoding="utf-8") if kind.path.exists() else None
    assert committed == cs.render(kind), (
        f"{kind.path.relative_to(ROOT)} is out of step with the loader's models: "
        "run python3 scripts/card_schemas.py and commit the result")


def test_check_mode_reports_nothing_stale(capsys):
    assert cs.main(["--check"]) == 0
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize("name", sorted(KINDS))
def test_schema_lists_the_loaders_tables(name):
    kind = KINDS[name]
    schema = json.loads(kind.path.read_text(encoding="utf-8"))
    assert set(schema["properties"]) == set(kind.loader.TABLES)
    assert schema["additionalProperties"] is False
    assert schema["$schema"] == cs.DRAFT


# ----- validation with the jsonschema package (skipped without it) ------------------------------
def _validator(kind):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(kind.path.read_text(encoding="utf-8"))
    jsonschema.Draft4Validator.check_schema(schema)
    return jsonschema.Draft4Validator(schema)


def _errors(kind, doc) -> list:
    return list(_validator(kind).iter_errors(doc))


@pytest.mark.parametrize("name", sorted(KINDS))
def test_builtin_file_passes_its_schema(name):
    kind = KINDS[name]
    assert _errors(kind, _builtin(kind)) == []


@pytest.mark.parametrize("name", sorted(KINDS))
def test_builtin_file_says_it_is_a_stand_in(name):
    assert _builtin(KINDS[name])["meta"]["stand_in"] is True


def test_a_wrong_type_fails_validation_and_the_loader_refuses_it_too(tmp_path):
    from takujo.games.fuutei.cards import build_catalogue
    kind = KINDS["fuutei-cards"]
    text = kind.builtin.read_text(encoding="utf-8")
    bad_text = text.replace("count = 3", 'count = "three"', 1)
    assert bad_text != text
    errors = _errors(kind, tomllib.loads(bad_text))
    assert len(errors) == 1
    assert list(errors[0].absolute_path)[-1] == "count" and "'three' is not of type 'integer'" in errors[0].message
    bad = tmp_path / "bad.toml"
    bad.write_text(bad_text, encoding="utf-8")
    with pytest.raises(CardDataError):
        build_catalogue(bad)


@pytest.mark.parametrize("name, path, value", [
    ("fuutei-cards", ("card", 0, "points"), 41),                  # above the model's range
    ("fuutei-cards", ("card", 0, "sex"), "other"),                # not one of the Literal's values
    ("draft_daimyo-cards", ("card", 0, "cost"), 10),
    ("draft_daimyo-cards", ("card", 0, "loyal"), "maybe"),
    ("draft_daimyo-board", ("province", 0, "kokuryoku"), 6),
    ("ibara-content", ("deck", "copies"), 2.5),
    ("ibara-content", ("whim", 0, "limit"), 7),
    ("sengoku_taisen-cards", ("card", 0, "siege"), "high"),
])
def test_wrong_values_fail_the_schema_and_the_model(name, path, value):
    kind = KINDS[name]
    doc = copy.deepcopy(_builtin(kind))
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    assert _errors(kind, doc)
    model = next(t.model for t in kind.tables if t.name == path[0])
    with pytest.raises((ValidationError, CardDataError)):
        model.model_validate(node)


def test_misspelt_keys_unknown_tables_and_unknown_verbs_fail():
    kind = KINDS["fuutei-cards"]
    doc = _builtin(kind)
    typo = copy.deepcopy(doc)
    typo["card"][0]["stat"] = typo["card"][0].pop("stats")
    assert _errors(kind, typo)
    table = copy.deepcopy(doc)
    table["cards"] = table.pop("card")
    assert _errors(kind, table)
    meta = copy.deepcopy(doc)
    meta["meta"]["stand-in"] = True
    assert _errors(kind, meta)
    holds = [c for c in doc["card"] if c.get("effect", {}).get("do") == "draw"]
    verb = copy.deepcopy(doc)
    next(c for c in verb["card"] if c["id"] == holds[0]["id"])["effect"]["do"] = "drow"
    assert _errors(kind, verb)
    param = copy.deepcopy(doc)
    next(c for c in param["card"] if c["id"] == holds[0]["id"])["effect"]["need"] = 3   # a param of proposal only
    assert _errors(kind, param)


def test_old_series_terms_pass_alone_and_fail_beside_the_current_ones():
    kind = KINDS["sengoku_taisen-cards"]
    doc = _builtin(kind)
    old = next(c for c in doc["card"] if "武力" in c)
    assert _errors(kind, doc) == []
    both = copy.deepcopy(doc)
    next(c for c in both["card"] if c["number"] == old["number"])["strength"] = 1000
    assert _errors(kind, both)


def test_ibara_event_effects_follow_the_loaders_vocabulary():
    kind = KINDS["ibara-content"]
    doc = copy.deepcopy(_builtin(kind))
    doc["event"][0]["effect"] = {"do": "teleport"}
    assert _errors(kind, doc)
    doc["event"][0]["effect"] = {"do": "draw", "n": 2, "item": "x"}
    assert _errors(kind, doc)
    doc["event"][0]["effect"] = {"do": "draw", "n": 2}
    assert _errors(kind, doc) == []
