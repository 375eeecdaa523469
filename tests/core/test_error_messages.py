"""Every error the engine raises has a message ID whose template exists in Japanese and in
English with the same placeholders, and every raise site passes exactly those arguments."""
from __future__ import annotations

import ast
import functools
import pickle
import re
from pathlib import Path

import pytest

from takujo.core.errors import (LANGS, OptionError, RecordError, TakujoError, error_file,
                                error_messages, is_message_id)
from takujo.present.catalogue import placeholders

ROOT = Path(__file__).resolve().parents[2] / "takujo"
ERROR_CLASSES = {"TakujoError", "IllegalActionError", "StaleActionError", "OptionError",
                 "CardDataError", "RecordError", "NotSupportedError", "NotationError", "Phrase"}
CATALOGUES = [ROOT / "core" / "errors.toml", *sorted((ROOT / "games").glob("*/errors.toml")),
              *sorted(p for p in ROOT.glob("*/errors.toml") if p.parent.name != "core")]


SOURCES = sorted(ROOT.rglob("*.py"))


@functools.cache
def _trees() -> tuple[tuple[Path, ast.Module], ...]:
    """Every source file of the engine, parsed (once a test process, when a test first needs
    it: parsing them all while the suite is collected would cost every worker a second)."""
    return tuple((path, ast.parse(path.read_text(encoding="utf-8"))) for path in SOURCES)


@functools.cache
def _error_subclasses() -> frozenset[str]:
    """The engine's error classes and every class defined from one of them, anywhere."""
    known = set(ERROR_CLASSES)
    grew = True
    while grew:
        grew = False
        for _, tree in _trees():
            for node in ast.walk(tree):
                if (isinstance(node, ast.ClassDef) and node.name not in known
                        and any(isinstance(b, ast.Name) and b.id in known for b in node.bases)):
                    known.add(node.name)
                    grew = True
    return frozenset(known)


def _raise_sites(path: Path, tree: ast.Module) -> list[tuple[str, ast.Call]]:
    """The calls in `tree` that build one of the engine's errors, named ``file:line``."""
    classes = _error_subclasses()
    return [(f"{path.relative_to(ROOT.parent)}:{node.lineno}", node) for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in classes]


def _all_sites() -> list[tuple[str, ast.Call]]:
    return [site for path, tree in _trees() for site in _raise_sites(path, tree)]


def _site_problem(where: str, call: ast.Call) -> str | None:
    """What is wrong with one raise site, or None."""
    if not call.args:
        return f"{where}: an error needs a message ID"
    first = call.args[0]
    if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
        return (f"{where}: the message must be a literal ID (not an f-string or expression), "
                "so that it can be translated")
    msg_id = first.value
    if not is_message_id(msg_id):
        return f"{where}: {msg_id!r} is not a message ID"
    entry = error_messages(error_file(msg_id)).get(msg_id)
    if entry is None:
        return f"{where}: {msg_id} is in no error catalogue ({error_file(msg_id)})"
    given = {kw.arg for kw in call.keywords}
    if None in given:
        return f"{where}: pass the arguments by name, not **kwargs"
    if placeholders(entry["en"]) != given:
        return f"{where}: {msg_id} takes {placeholders(entry['en'])}, given {given}"
    return None


def test_there_are_raise_sites_to_check() -> None:
    assert len(_all_sites()) > 100


def test_a_wrong_raise_site_is_told_apart() -> None:
    """The check itself: each kind of wrong call is named with its site."""
    def call(text: str) -> ast.Call:
        node = ast.parse(text).body[0]
        assert isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
        return node.value
    assert _site_problem("x.py:1", call('OptionError("option.unknown", option="c")')) is None
    assert "message ID" in str(_site_problem("x.py:1", call("OptionError()")))
    assert "literal ID" in str(_site_problem("x.py:1", call('OptionError(f"option.{x}")')))
    assert "no error catalogue" in str(_site_problem("x.py:1", call('OptionError("option.nothing_like_it")')))
    assert "by name" in str(_site_problem("x.py:1", call('OptionError("option.unknown", **kw)')))
    assert "given" in str(_site_problem("x.py:1", call('OptionError("option.unknown", colour="c")')))


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT.parent)))
def test_every_raise_site_names_a_known_message_with_its_arguments(path: Path) -> None:
    tree = dict(_trees())[path]
    problems = [p for where, call in _raise_sites(path, tree) if (p := _site_problem(where, call))]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: str(p.relative_to(ROOT)))
def test_catalogue_messages_have_both_languages_with_the_same_placeholders(path: Path) -> None:
    messages = error_messages(path)
    assert messages
    for msg_id, entry in messages.items():
        assert set(entry) == set(LANGS), msg_id
        assert placeholders(entry["ja"]) == placeholders(entry["en"]), msg_id
        words = re.sub(r"\{[^}]*\}", "", entry["en"])
        if re.search(r"[A-Za-z]{3}", words):
            assert entry["ja"] != entry["en"], f"{msg_id}: the Japanese text is the English one"


def test_every_catalogued_message_is_used() -> None:
    used = {call.args[0].value for _, call in _all_sites()
            if call.args and isinstance(call.args[0], ast.Constant)}
    unused = {m for path in CATALOGUES for m in error_messages(path)} - used
    assert not unused


def test_an_error_renders_in_either_language_with_nested_errors() -> None:
    inner = OptionError("option.unknown", option="colour")
    outer = RecordError("record.bad_header", where="g.jsonl", error=inner)
    assert "colour" in outer.text("en") and "colour" in outer.text("ja")
    assert outer.text("ja") != outer.text("en")
    assert str(outer) == outer.text("en")
    assert any("\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff" for ch in outer.text("ja"))


def test_errors_survive_pickling_with_their_arguments() -> None:
    err = OptionError("option.unknown", option="colour")
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is OptionError and back.text("ja") == err.text("ja")


def test_free_text_is_kept_for_games_without_a_catalogue() -> None:
    assert str(TakujoError("something broke: x")) == "something broke: x"
