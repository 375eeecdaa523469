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
