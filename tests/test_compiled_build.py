"""The optional compiled build (setup.py): which modules it compiles, and when it compiles.

The build itself is exercised by .ci/run, which compiles a copy of the tree with
``TAKUJO_COMPILE=1`` and runs the whole suite against it."""
from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

import takujo

ROOT = Path(__file__).resolve().parent.parent


def _setup_module():
    spec = importlib.util.spec_from_file_location("takujo_setup", ROOT / "setup.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)          # not __main__: setup() is not run
    return module


def test_every_compiled_pattern_names_modules_of_the_package():
    setup = _setup_module()
    for pattern in setup.COMPILED:
        found = sorted(ROOT.glob(pattern))
        assert found, f"{pattern} matches no module: renamed or removed?"
        assert all(f.suffix == ".py" and "takujo" in f.parts for f in found)
    covered = {f for pattern in setup.COMPILED for f in ROOT.glob(pattern)}
    for game in ("fuutei", "sengoku_taisen", "ibara", "draft_daimyo"):
        assert ROOT / "takujo" / "games" / game / "state.py" in covered


@pytest.mark.parametrize("env, argv, wanted", [
    ({}, ["setup.py", "bdist_wheel"], False),
    ({"TAKUJO_COMPILE": "0"}, ["setup.py", "bdist_wheel"], False),
    ({"TAKUJO_COMPILE": "1"}, ["setup.py", "editable_wheel"], False),
])
def test_pure_python_unless_asked_and_never_for_editable_installs(monkeypatch, env, argv, wanted):
    setup = _setup_module()
    monkeypatch.delenv("TAKUJO_COMPILE", raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setattr(setup.sys, "argv", argv)
    assert bool(setup.extensions()) is wanted


def test_compiled_reports_how_the_engine_runs():
    """Pure Python when the suite runs from a checkout; compiled in the compiled stage of
    .ci/run, which sets TAKUJO_EXPECT_COMPILED=1 (so that stage cannot pass on pure modules)."""
    assert takujo.compiled() is (os.environ.get("TAKUJO_EXPECT_COMPILED") == "1")
