"""Two real `takujo serve` processes on one real PostgreSQL: two people connected to
different processes play a match with a bot to the end; the process that runs the bot is
killed with SIGKILL mid-game and the other carries on (its bots taken over); no
acknowledged action is lost, and the record replays and verifies."""
from __future__ import annotations

import json
import random
import time

import pytest
from websockets.sync.client import connect

from takujo.record import replay_states

from .server import LiveServer

GAME = {"game": "fuutei(players=3)", "seats": ["human", "human", "bot:random"], "seed": 11}


def _wait_for_version(ws, version: int, timeout: float = 60.0) -> dict:
    """The first state at `version` or later pushed to `ws`."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        msg = json.loads(ws.recv(timeout=max(0.1, deadline - time.time())))
        if msg["type"] == "state" and msg["version"] >= version:
            return msg
    raise AssertionError(f"no state at version {version} within {timeout} s")


@pytest.mark.slow
def test_two_processes_share_a_match_and_one_carries_on_when_the_other_is_killed(postgres_url):
    first, second = LiveServer(postgres_url).start(), LiveServer(postgres_url).start()
    try:
        status, created = first.call("POST", "/api/matches", GAME)
        assert status == 201, created
        match = created["match"]
        tokens = {s["seat"]: s["token"] for s in created["seats"] if "token" in s}
        people = {0: first, 1: second}     # each person talks to a different process
        ws_url = second.url.replace("http://", "ws://") + f"/ws/matches/{match}?token={tokens[1]}"
        rng = random.Random(5)
        acknowledged: list[tuple[int, int, str]] = []   # (version, seat, action) answered 200
        fanned_out = killed = False
        with connect(ws_url, max_size=2**24) as ws:
            assert json.loads(ws.recv(timeout=60))["type"] == "state"
            deadline = time.time() + 300
            while time.time() < deadline:
                status, summary = people[1].call("GET", f"/api/matches/{match}")
                assert status == 200, summary
                if summary["status"] == "finished":
                    break
                moved = False
                for seat, server in people.items():
                    status, state = server.call("GET", f"/api/matches/{match}/state", token=tokens[seat])
                    assert status == 200, state
                    if not state["legal"]:
                        continue
                    action = rng.choice(state["legal"])
                    status, res = server.call("POST", f"/api/matches/{match}/actions",
                                              {"action": action, "version": state["version"]}, token=tokens[seat])
                    if status == 200:
                        acknowledged.append((state["version"], seat, action))
                        moved = True
                        if seat == 0 and not killed and not fanned_out:
                            # an action applied through the first process reaches the second's socket
                            _wait_for_version(ws, state["version"] + 1)
                            fanned_out = True
                    else:
                        assert status in (403, 409), (status, res)  # a bot or the other person moved first
                if not killed and summary["version"] >= 40:
                    first.kill()  # it created the match: it runs the bot
                    people[0] = second
                    killed = True
                if not moved:
                    time.sleep(0.05)
            else:
                raise AssertionError("the match did not end within 300 s")
        assert fanned_out and killed
        status, record_text = second.call("GET", f"/api/matches/{match}/record")
        assert status == 200
        lines = [json.loads(line) for line in record_text.splitlines()]
        steps = {line["n"]: line for line in lines if line["type"] == "step"}
        for version, seat, action in acknowledged:
            assert steps[version]["player"] == seat and steps[version]["action"] == action, (version, seat, action)
        assert any(s["player"] == 2 for n, s in steps.items() if n > 40), "the bot played on after the kill"
        states = list(replay_states(lines, "record"))
        assert states[-1].outcome is not None and states[-1].version == len(steps)
    finally:
        first.stop()
        second.stop()
