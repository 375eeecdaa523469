"""Two apps on one PostgreSQL database, in this process: what one does to a match, the other
sees (an action, an undo), and two actions at one version from both apply exactly once."""
from __future__ import annotations

import random
import threading
import time
from typing import Any, Callable

from fastapi.testclient import TestClient

from takujo.web.app import create_app

from .client import bearer
from .limits import GENEROUS


def two_apps(url: str) -> tuple[TestClient, TestClient]:
    return TestClient(create_app(url, settings=GENEROUS)), TestClient(create_app(url, settings=GENEROUS))


def until(pred: Callable[[], Any], seconds: float = 60.0) -> Any:
    deadline = time.time() + seconds
    while time.time() < deadline:
        value = pred()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError("timed out")


def state(client: TestClient, match: str, token: str) -> dict:
    res = client.get(f"/api/matches/{match}/state", headers=bearer(token))
    assert res.status_code == 200, res.text
    return res.json()


def test_an_undo_through_one_app_is_seen_by_the_other(postgres_url: str) -> None:
    a, b = two_apps(postgres_url)
    with a, b:
        made = a.post("/api/matches", json={"game": "sengoku_taisen", "seats": ["human", "human"], "seed": 3}).json()
        match, tokens = made["match"], [s["token"] for s in made["seats"]]
        rng = random.Random(2)
        for _ in range(300):  # play through app a until some seat may take back its action
            token = next(t for t in tokens if state(a, match, t)["legal"])
            now = state(a, match, token)
            assert a.post(f"/api/matches/{match}/actions", headers=bearer(token),
                          json={"action": rng.choice(now["legal"]), "version": now["version"]}).status_code == 200
            if state(a, match, token)["undo"]:
                break
        version = state(a, match, tokens[0])["version"]
        until(lambda: state(b, match, tokens[0])["version"] == version)  # b has it in memory, caught up
        assert b.post(f"/api/matches/{match}/undo", headers=bearer(token)).status_code == 200
        until(lambda: state(a, match, token)["version"] == version - 1)
        assert state(a, match, token)["view"] == state(b, match, token)["view"]


def test_two_actions_at_one_version_through_two_apps_apply_once(postgres_url: str) -> None:
    a, b = two_apps(postgres_url)
    with a, b:
        made = a.post("/api/matches", json={"game": "sengoku_taisen", "seats": ["human", "human"], "seed": 5}).json()
        match, tokens = made["match"], [s["token"] for s in made["seats"]]
        token = next(t for t in tokens if state(a, match, t)["legal"])
        now = state(a, match, token)
        until(lambda: state(b, match, token)["version"] == now["version"])
        results: dict[str, int] = {}
        legal = now["legal"]

        def act(name: str, client: TestClient, action: str) -> None:
            res = client.post(f"/api/matches/{match}/actions", headers=bearer(token),
                              json={"action": action, "version": now["version"]})
            results[name] = res.status_code
        threads = [threading.Thread(target=act, args=("a", a, legal[0])),
                   threading.Thread(target=act, args=("b", b, legal[-1]))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(results.values()) == [200, 409], results
        record = a.get(f"/api/matches/{match}/record").text.splitlines()
        steps = [line for line in record if '"type": "step"' in line]
        assert len(steps) == now["version"] + 1
        until(lambda: state(b, match, token)["version"] == now["version"] + 1)
