"""Test settings: the interface speaks English unless a test asks for Japanese."""
from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _english_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAKUJO_LANG", "en")
