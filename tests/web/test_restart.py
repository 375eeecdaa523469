"""A real server process killed (SIGKILL) and started again on its SQLite file: every match
resumes exactly where it was, bots continue, and nothing acknowledged is lost."""
from __future__ import annotations

import random
import time

from .server import LiveServer


def _state(server: LiveServer, match: str, token: str | None = None) -> dict:
    status, body = server.call("GET", f"/api/matches/{match}/state", token=token)
    assert status == 200, body
    return body


def test_a_killed_server_resumes_every_match_exactly(tmp_path):
    db = tmp_path / "takujo.db"
    server = LiveServer(db).start()
    try:
        status, human = server.call("POST", "/api/matches", {"game": "fuutei(players=2)",
                                                               "seats": ["human", "bot:random"], "seed": 21})
        assert status == 201
        status, bots = server.call("POST", "/api/matches", {"game": "sengoku_taisen",
                                                              "seats": ["bot:ismcts:200", "bot:ismcts:200"], "seed": 3})
        assert status == 201
        match, token = human["match"], human["seats"][0]["token"]
        rng = random.Random(5)
        acknowledged = 0
        while acknowledged < 12:
            state = _state(server, match, token)
            if state["status"] == "finished":
                break
            if not state["legal"]:
                time.sleep(0.02)
                continue
            status, after = server.call("POST", f"/api/matches/{match}/actions",
                                        {"version": state["version"], "action": rng.choice(state["legal"])}, token)
            assert status == 200, after
            acknowledged += 1
        time.sleep(1.0)  # the bots' match is under way
        before = _state(server, match, token)
        _, record_before = server.call("GET", f"/api/matches/{match}/record", token=token)
        _, bots_before = server.call("GET", f"/api/matches/{bots['match']}")
        assert bots_before["version"] > 0 and bots_before["status"] == "running"
        server.kill()
    finally:
        server.stop()

    again = LiveServer(db).start()
    try:
        after = _state(again, match, token)
        assert after["version"] == before["version"] >= acknowledged
        assert after["view"] == before["view"] and after["legal"] == before["legal"]
        _, record_after = again.call("GET", f"/api/matches/{match}/record", token=token)
        assert record_after == record_before
        _, resumed = again.call("GET", f"/api/matches/{bots['match']}")
        assert resumed["version"] >= bots_before["version"]   # every committed bot move kept
        deadline = time.time() + 30
        while time.time() < deadline and again.call("GET", f"/api/matches/{bots['match']}")[1]["version"] <= bots_before["version"]:
            time.sleep(0.1)
        assert again.call("GET", f"/api/matches/{bots['match']}")[1]["version"] > bots_before["version"], "bots did not continue"
        if after["legal"]:  # the person plays on with the same token
            status, _ = again.call("POST", f"/api/matches/{match}/actions",
                                   {"version": after["version"], "action": after["legal"][0]}, token)
            assert status == 200
    finally:
        again.stop()


def _children(pid: int) -> list[int]:
    import subprocess
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True).stdout
    return [int(x) for x in out.split()]


def test_no_bot_worker_outlives_a_killed_server(tmp_path):
    import os
    server = LiveServer(tmp_path / "takujo.db").start()
    try:
        status, _ = server.call("POST", "/api/matches", {"game": "sengoku_taisen",
                                                          "seats": ["bot:ismcts:200", "bot:ismcts:200"], "seed": 1})
        assert status == 201
        assert server.proc is not None
        deadline = time.time() + 20
        workers: list[int] = []
        while time.time() < deadline and not workers:
            workers = [p for p in _children(server.proc.pid)
                       if "spawn" in open(f"/proc/{p}/cmdline", "rb").read().decode(errors="replace")]
            time.sleep(0.1)
        assert workers, "IS-MCTS thinks in worker processes"
        server.kill()
        deadline = time.time() + 10
        while time.time() < deadline and any(os.path.exists(f"/proc/{p}") for p in workers):
            time.sleep(0.1)
        alive = [p for p in workers if os.path.exists(f"/proc/{p}")
                 and open(f"/proc/{p}/stat").read().split()[2] != "Z"]
        assert not alive, f"bot workers {alive} outlived the server"
    finally:
        server.stop()
