"""The documentation's examples run: the README's Python blocks and the docstrings' `>>>`
examples (so that they never drift from the code)."""
from __future__ import annotations

import doctest
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCTEST_MODULES = ["takujo", "takujo.core.dice"]


def _python_blocks(path: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", path.read_text(encoding="utf-8"), flags=re.S)


def test_the_python_examples_of_the_readme_run():
    """(docs/clients.md shows fragments of one session, with names from its prose: not run.)"""
    blocks = _python_blocks(ROOT / "README.md")
    assert blocks, "the README shows how to use takujo from Python"
    for block in blocks:
        exec(compile(block, "README.md example", "exec"), {})


@pytest.mark.parametrize("name", DOCTEST_MODULES)
def test_the_docstring_examples_run(name):
    module = importlib.import_module(name)
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failures == 0


# ----- references: every document named is in the repository, and no path of one machine ------
SCANNED = ("takujo", "tests", "docs", "bench", "scripts", "examples")
TEXTS = {".py", ".md", ".toml", ".js", ".html", ".css", ".txt"}
#: Paths that exist on one machine only (a checkout's parent folders, a home folder).
MACHINE_PATH = re.compile(r"/work/|/home/|/root/|\.\./shared\b|\bshared/(?:rules|research)/")
#: A document of the repository named by its path (``/docs/...`` is a URL of the server).
DOCUMENT = re.compile(r"(?<![\w/.])docs/[\w/.-]+\.(?:md|json|png)")
CONTRACT = re.compile(r"docs/architecture\.md, contracts? (\d+)(?:-(\d+))?")


def _text_files() -> list[Path]:
    here = Path(__file__).resolve()
    files = [ROOT / "README.md"]
    for folder in SCANNED:
        files += [p for p in sorted((ROOT / folder).rglob("*"))
                  if p.suffix in TEXTS and p.is_file() and "__pycache__" not in p.parts and p != here]
    return files


def test_no_file_names_a_path_of_one_machine():
    found = [f"{p.relative_to(ROOT)}: {m.group()}" for p in _text_files()
             for m in MACHINE_PATH.finditer(p.read_text(encoding="utf-8", errors="replace"))]
    assert not found, found


def test_every_document_named_is_in_the_repository():
    missing = [f"{p.relative_to(ROOT)}: {m.group()}" for p in _text_files()
               for m in DOCUMENT.finditer(p.read_text(encoding="utf-8", errors="replace"))
               if not (ROOT / m.group()).exists()]
    assert not missing, missing
    assert (ROOT / "takujo/web/static/boards/README.md").exists()   # named by board-kit.js


def test_every_contract_cited_is_numbered_in_the_architecture():
    numbered = {int(n) for n in re.findall(r"^(\d+)\. \*\*", (ROOT / "docs/architecture.md").read_text(encoding="utf-8"),
                                           flags=re.M)}
    cited = set()
    for p in _text_files():
        text = p.read_text(encoding="utf-8", errors="replace")
        assert "DESIGN contract" not in text, f"{p.relative_to(ROOT)} cites a document not in the repository"
        for first, last in CONTRACT.findall(text):
            cited |= set(range(int(first), int(last or first) + 1))
    assert cited and cited <= numbered, sorted(cited - numbered)
