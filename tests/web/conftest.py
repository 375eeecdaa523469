"""Fixtures of the web tests: a live server process, pages of the headless chromium of
tests/conftest.py (Debian's, ``executable_path=/usr/bin/chromium``; .ci/run installs it with
apt), and a throw-away PostgreSQL server (Debian's postgresql, which .ci/run installs too)."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

import pytest

from .postgres import PostgresServer, find_bin
from .server import LiveServer


@pytest.fixture
def client(tmp_path: Path) -> Iterator[object]:
    """The app in-process on a temporary SQLite file, with rates no test reaches."""
    from fastapi.testclient import TestClient

    from takujo.web.app import create_app

    from .limits import GENEROUS
    with TestClient(create_app(tmp_path / "t.db", settings=GENEROUS)) as c:
        yield c


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path / "takujo.db").start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def module_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One live server for the test process, shared by the tests that play on it: each makes
    its own matches, and its pages their own people (a browser context each)."""
    server = LiveServer(tmp_path_factory.mktemp("web") / "takujo.db").start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def page(browser: object) -> Iterator[object]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.js_errors = errors  # type: ignore[attr-defined]
    try:
        yield pg
    finally:
        context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """A throw-away PostgreSQL server for this test process (each xdist worker starts its own).
    Skipped where PostgreSQL is not installed, except in CI, where that is a failure."""
    bin_dir = find_bin()
    if bin_dir is None:
        message = ("PostgreSQL's initdb and pg_ctl were not found (on the PATH or in "
                   "/usr/lib/postgresql/*/bin): apt-get install -y postgresql")
        if os.environ.get("CI"):
            pytest.fail(f"the PostgreSQL tests must run in CI: {message}")
        pytest.skip(message)
    server = PostgresServer(bin_dir).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def postgres_url(postgres: PostgresServer) -> Iterator[str]:
    """The URL of a new, empty database on the test server, removed after the test."""
    url = postgres.fresh_database()
    try:
        yield url
    finally:
        postgres.drop_database(url)
