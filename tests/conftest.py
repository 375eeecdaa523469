"""Test settings: the interface speaks English unless a test asks for Japanese; one headless
chromium for each test process; the long tests first; compiled modules kept between the
processes of a run; ``-n auto`` starts two workers a core (at most four more than the cores).

Each test process (an xdist worker) starts its chromium when a test first asks for it and
gives every test a new context of it (a context shares no cookie, storage or page with
another). Playwright's sync API keeps an event loop running on the thread, in which
``asyncio.run`` cannot start: the browser is stopped before any test that does not use it,
and the tests are ordered so that it starts at most twice (the long tests, those marked
``slow``, first; in each part the browser's tests last). Many tests wait on a server, a
browser or a child process: with two workers a core, another uses the core meanwhile.
"""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("TAKUJO_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--no-first-run"]

# A machine that sets PYTHONDONTWRITEBYTECODE makes every process of the run (each worker, each
# server and command the tests start) compile the test modules and the engine again; their
# bytecode goes to __pycache__ (which git ignores) for the run's later processes.
if os.environ.pop("PYTHONDONTWRITEBYTECODE", None):
    sys.dont_write_bytecode = False


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """Workers for ``-n auto``: two for each core the run may use, at most four more than the
    cores (each holds a browser and servers); PYTEST_XDIST_AUTO_NUM_WORKERS says otherwise."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return int(os.environ["PYTEST_XDIST_AUTO_NUM_WORKERS"])
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return cores + min(cores, 4)


def pytest_configure(config: pytest.Config) -> None:
    # xdist hands each worker tests in chunks, at first a quarter of its share: two at a time,
    # the long tests at the front go to every worker, not all to the first
    if config.pluginmanager.hasplugin("xdist") and getattr(config.option, "maxschedchunk", 0) is None:
        config.option.maxschedchunk = 2


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The long tests (marked slow) first, so that none is left to run alone at the end; the
    browser's tests after the others of their part; otherwise the order of collection."""
    items.sort(key=lambda item: (item.get_closest_marker("slow") is None,
                                 "browser" in getattr(item, "fixturenames", ())))


class _Chromium:
    """The test process's headless chromium (Debian's, driven by Playwright)."""

    def __init__(self) -> None:
        self._playwright: Any = None
        self._browser: Any = None

    def get(self) -> Any:
        if self._browser is None:
            if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
                pytest.fail(f"browser tests need chromium at {CHROMIUM} (apt-get install -y chromium)")
            from playwright.sync_api import sync_playwright
            self._playwright = sync_playwright().start()
            try:
                self._browser = self._playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            except BaseException:
                self.stop()
                raise
        return self._browser

    def stop(self) -> None:
        try:
            if self._browser is not None:
                self._browser.close()
        finally:
            if self._playwright is not None:
                self._playwright.stop()
            self._browser = self._playwright = None


_CHROMIUM = _Chromium()


@pytest.fixture
def browser() -> Any:
    """The test process's headless chromium (started at the first test that asks for it)."""
    return _CHROMIUM.get()


@pytest.fixture(autouse=True)
def _no_browser_where_none_is_used(request: pytest.FixtureRequest) -> None:
    if "browser" not in request.fixturenames:
        _CHROMIUM.stop()


def pytest_sessionfinish(session: pytest.Session) -> None:
    _CHROMIUM.stop()


@pytest.fixture(autouse=True)
def _english_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAKUJO_LANG", "en")
