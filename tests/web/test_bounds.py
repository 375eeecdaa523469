"""Bounded resources: matches leave memory when idle or finished and come back from the
store as they were; the least recently used leave first past the cap; the match list is
paged; undo costs at most a snapshot's worth of replay; bot moves are shared fairly."""
from __future__ import annotations

import asyncio
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from takujo.web.app import create_app
from takujo.web.scheduler import FairScheduler
from takujo.web.settings import Limits, Settings
from takujo.web.store import SNAPSHOT_EVERY

from .client import TWO_PEOPLE, bearer, new_match
from .limits import RATES



def settings(**limits: object) -> Settings:
    return Settings(limits=Limits(**{**RATES, **limits}))  # type: ignore[arg-type]




def play(client: TestClient, match: str, tokens: list[str], steps: int, rng: random.Random) -> None:
    """`steps` random legal actions by whoever is to act."""
    for _ in range(steps):
        for token in tokens:
            state = client.get(f"/api/matches/{match}/state", headers=bearer(token)).json()
            if state["legal"]:
                res = client.post(f"/api/matches/{match}/actions", headers=bearer(token),
                                  json={"action": rng.choice(state["legal"]), "version": state["version"]})
                assert res.status_code == 200, res.text
                break


def test_an_idle_match_leaves_memory_and_comes_back_as_it_was(tmp_path: Path, monkeypatch):
    import takujo.web.service as service_module
    monkeypatch.setattr(service_module, "SWEEP_EVERY", 1e6)   # only the test's own sweep: none between its steps
    with TestClient(create_app(tmp_path / "t.db", settings=settings(idle_seconds=0.0))) as client:
        service = client.app.state.service
        match, tokens = new_match(client)
        play(client, match, tokens, 2 * SNAPSHOT_EVERY + 7, random.Random(1))
        before = client.get(f"/api/matches/{match}/state", headers=bearer(tokens[0])).json()
        assert client.portal.call(service.drop_idle) >= 1
        assert match not in service.matches
        after = client.get(f"/api/matches/{match}/state", headers=bearer(tokens[0])).json()
        assert match in service.matches
        assert after["view"] == before["view"] and after["legal"] == before["legal"]
        assert after["version"] == 2 * SNAPSHOT_EVERY + 7


def test_a_watched_match_stays_in_memory(tmp_path: Path):
    with TestClient(create_app(tmp_path / "t.db", settings=settings(idle_seconds=0.0))) as client:
        service = client.app.state.service
        match, tokens = new_match(client)
        with client.websocket_connect(f"/ws/matches/{match}?token={tokens[0]}") as ws:
            ws.receive_json()
            client.portal.call(service.drop_idle)
            assert match in service.matches
        client.portal.call(service.drop_idle)
        assert match not in service.matches


def test_past_the_cap_the_least_recently_used_matches_leave_first(tmp_path: Path):
    with TestClient(create_app(tmp_path / "t.db", settings=settings(live_matches=3))) as client:
        service = client.app.state.service
        ids = [new_match(client)[0] for _ in range(6)]
        assert list(service.matches) == ids[-3:]
        assert client.get(f"/api/matches/{ids[0]}").status_code == 200  # loaded again
        assert list(service.matches) == [*ids[-2:], ids[0]]
        assert client.get("/metrics").text.count("takujo_live_matches 3.0") == 1


def test_undo_after_a_reload_replays_at_most_a_snapshots_worth(tmp_path: Path, monkeypatch):
    with TestClient(create_app(tmp_path / "t.db", settings=settings(idle_seconds=0.0))) as client:
        service = client.app.state.service
        rng = random.Random(4)
        match, tokens = new_match(client)
        for _ in range(400):  # play on until some person can take back a quiet action
            play(client, match, tokens, 1, rng)
            undoable = [t for t in tokens if client.get(f"/api/matches/{match}/state",
                                                        headers=bearer(t)).json()["undo"]]
            if undoable and client.get(f"/api/matches/{match}").json()["version"] > SNAPSHOT_EVERY:
                break
        else:
            pytest.fail("no quiet action to undo")
        version = client.get(f"/api/matches/{match}").json()["version"]
        expected = client.get(f"/api/matches/{match}/record").text
        client.portal.call(service.drop_idle)  # the kept states are gone with it
        replayed: list[int] = []
        original = service.store.actions

        async def counting(match_id: str, start: int, end: int | None = None):
            rows = await original(match_id, start, end)
            replayed.append(len(rows))
            return rows
        monkeypatch.setattr(service.store, "actions", counting)
        res = client.post(f"/api/matches/{match}/undo", headers=bearer(undoable[0]))
        assert res.status_code == 200, res.text
        assert res.json()["version"] == version - 1
        assert replayed and max(replayed) < SNAPSHOT_EVERY
        lines = expected.splitlines()
        assert client.get(f"/api/matches/{match}/record").text.splitlines() == lines[:-1]


def test_the_match_list_is_paged_and_filtered(tmp_path: Path):
    with TestClient(create_app(tmp_path / "t.db", settings=settings())) as client:
        made = [new_match(client)[0] for _ in range(13)]
        made += [new_match(client, {"game": "fuutei(players=2)", "seats": ["human", "human"]})[0] for _ in range(4)]
        seen, cursor = [], None
        while True:
            page = client.get("/api/matches", params={"limit": 5, **({"cursor": cursor} if cursor else {})}).json()
            assert len(page["matches"]) <= 5
            seen += [m["match"] for m in page["matches"]]
            cursor = page["next"]
            if cursor is None:
                break
        assert seen == made[::-1]
        fuutei = client.get("/api/matches", params={"game": "fuutei"}).json()["matches"]
        assert [m["match"] for m in fuutei] == made[-4:][::-1]
        assert client.get("/api/matches", params={"status": "finished"}).json()["matches"] == []
        for bad in ({"cursor": "not-a-cursor"}, {"limit": 0}, {"limit": 5000}, {"status": "waiting"},
                    {"game": "../etc"}):
            res = client.get("/api/matches", params=bad)
            assert res.status_code == 422 and "error" in res.json(), (bad, res.text)


def test_the_least_used_match_goes_first_when_both_wait():
    async def scenario() -> list[str]:
        order: list[str] = []
        release = threading.Event()
        pool = ThreadPoolExecutor(max_workers=1)
        scheduler = FairScheduler(pool, slots=1)

        def work(name: str, seconds: float) -> str:
            time.sleep(seconds)
            order.append(name)
            return name

        def blocking() -> str:  # holds the one worker until both jobs below are queued
            release.wait(30)
            order.append("other")
            return "other"
        await scheduler.run("heavy", work, "heavy-1", 0.2)     # heavy has used a worker for a while
        blocker = asyncio.create_task(scheduler.run("other", blocking))
        heavy = asyncio.create_task(scheduler.run("heavy", work, "heavy-2", 0.0))
        light = asyncio.create_task(scheduler.run("light", work, "light", 0.0))
        while scheduler.queued < 2:                             # both wait behind the blocker
            await asyncio.sleep(0.01)
        release.set()
        await asyncio.gather(blocker, heavy, light)
        pool.shutdown()
        return order
    assert asyncio.run(scenario()) == ["heavy-1", "other", "light", "heavy-2"]
