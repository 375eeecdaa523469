"""A real server process killed (SIGKILL) and started again on its SQLite file: every match
resumes exactly where it was, bots continue, and nothing acknowledged is lost."""
from __future__ import annotations

import random
import time

from .server import LiveServer

PATIENCE = 120.0    # seconds to wait for what must happen, however loaded the machine


def _eventually(condition, timeout: float = PATIENCE):
    """Poll `condition` until it gives something true or `timeout` seconds have passed; its
    last value (the caller asserts it)."""
    deadline = time.monotonic() + timeout
    while not (value := condition()) and time.monotonic() < deadline:
        time.sleep(0.05)
    return value


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
        # the bots' match is under way: some of their moves are committed
        assert _eventually(lambda: server.call("GET", f"/api/matches/{bots['match']}")[1]["version"] > 0), \
            f"the IS-MCTS bots made no move in {PATIENCE:.0f} s"
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
        assert _eventually(lambda: again.call("GET", f"/api/matches/{bots['match']}")[1]["version"] > bots_before["version"]), \
            f"the bots did not continue within {PATIENCE:.0f} s of the restart"
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


def _read(path: str) -> str:
    """A /proc file's text ("" once the process is gone)."""
    try:
        with open(path, "rb") as f:
            return f.read().decode(errors="replace")
    except OSError:
        return ""


def _alive(pid: int) -> bool:
    """Whether process `pid` runs (a zombie is dead, only not reaped yet)."""
    stat = _read(f"/proc/{pid}/stat")
    return bool(stat) and stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def test_no_bot_worker_outlives_a_killed_server(tmp_path):
    server = LiveServer(tmp_path / "takujo.db").start()
    try:
        status, _ = server.call("POST", "/api/matches", {"game": "sengoku_taisen",
                                                          "seats": ["bot:ismcts:200", "bot:ismcts:200"], "seed": 1})
        assert status == 201
        assert server.proc is not None
        pid = server.proc.pid
        workers: list[int] = _eventually(lambda: [p for p in _children(pid) if "spawn" in _read(f"/proc/{p}/cmdline")])
        assert workers, f"IS-MCTS thinks in worker processes: none was started in {PATIENCE:.0f} s"
        server.kill()
        _eventually(lambda: not any(_alive(p) for p in workers))
        alive = [p for p in workers if _alive(p)]
        assert not alive, f"bot workers {alive} outlived the server by {PATIENCE:.0f} s"
    finally:
        server.stop()
