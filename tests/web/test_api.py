"""The web API: every endpoint and error code, in-process (FastAPI's TestClient) on a
temporary SQLite file."""
from __future__ import annotations

import json
import time

import pytest
from fastapi.testclient import TestClient

from takujo.web.app import MAX_BODY


HUMAN_VS_BOTS = {"game": "fuutei(players=3)", "seats": ["human", "bot:heuristic", "bot:random"], "seed": 7}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_match(client: TestClient, body=HUMAN_VS_BOTS) -> dict:
    res = client.post("/api/matches", json=body)
    assert res.status_code == 201, res.text
    return res.json()


def wait_for(client: TestClient, match: str, pred, timeout: float = 60.0) -> dict:
    deadline = time.time() + timeout
    while time.time() < deadline:
        summary = client.get(f"/api/matches/{match}").json()
        if pred(summary):
            return summary
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting on match {match}: {summary}")


# ----- creating and listing -----------------------------------------------------------------
def test_create_gives_human_seats_tokens_and_links_and_bot_seats_none(client):
    body = new_match(client)
    assert body["seats"][0]["kind"] == "human" and len(body["seats"][0]["token"]) >= 32  # ≥ 192 bits
    assert body["seats"][0]["join_url"].endswith(f"/match/{body['match']}?token={body['seats'][0]['token']}")
    assert all("token" not in s for s in body["seats"][1:]) and body["seats"][1]["bot"] == "heuristic"
    assert body["spectate_url"].endswith(f"/match/{body['match']}")
    assert body["seed"] == 7


def test_two_matches_never_share_a_token(client):
    a, b = new_match(client), new_match(client)
    assert a["seats"][0]["token"] != b["seats"][0]["token"]


def test_list_and_summary_are_public_and_carry_no_token(client):
    body = new_match(client)
    listed = client.get("/api/matches").json()["matches"]
    assert [m["match"] for m in listed] == [body["match"]]
    summary = client.get(f"/api/matches/{body['match']}").json()
    assert summary["game"] == "fuutei" and summary["status"] == "running" and len(summary["seats"]) == 3
    assert body["seats"][0]["token"] not in json.dumps(listed) + json.dumps(summary)
    assert "token_hash" not in json.dumps(summary)
    assert client.get("/api/matches", params={"status": "finished"}).json()["matches"] == []


@pytest.mark.parametrize("body,words", [
    ({"game": "nosuch", "seats": ["human"]}, "unknown game"),
    ({"game": "fuutei(players=3,cards=/etc/passwd)", "seats": ["human"] * 3}, "names a file on the server"),
    ({"game": "sengoku_taisen(deck1=/etc/passwd)", "seats": ["human"] * 2}, "names a file on the server"),
    ({"game": "fuutei(players=3)", "seats": ["human", "bot:nosuch", "human"]}, "not offered by this server"),
    ({"game": "fuutei(players=3)", "seats": ["human", "bot:ismcts:3600s", "human"]}, "not offered by this server"),
    ({"game": "fuutei(players=3)", "seats": ["human", "bot:ismcts:10000000", "human"]}, "not offered by this server"),
    ({"game": "fuutei(players=3)", "seats": ["human", "robot", "human"]}, "neither 'human' nor 'bot:NAME'"),
    ({"game": "fuutei(players=3)", "seats": ["human", "human"]}, "2 seats given for a game of 3 players"),
    ({"game": "fuutei(colour=red)", "seats": ["human"] * 4}, "unknown option 'colour'"),
    ({"game": "fuutei", "seats": []}, "seats"),
    ({"game": "fuutei", "seats": ["human"] * 4, "extra": 1}, "extra"),
])
def test_bad_matches_are_refused_with_a_message_and_create_nothing(client, body, words):
    res = client.post("/api/matches", json=body)
    assert res.status_code == 422
    error = res.json()["error"]
    assert words.lower() in error["message"].lower(), error
    assert "Traceback" not in res.text and "root:" not in res.text
    assert client.get("/api/matches").json() == {"matches": [], "next": None}


def test_errors_come_in_the_language_asked_for(client):
    res = client.post("/api/matches", params={"lang": "ja"}, json={"game": "nosuch", "seats": ["human"]})
    assert res.status_code == 422 and "知らないゲーム" in res.json()["error"]["message"]
    res = client.post("/api/matches", headers={"Accept-Language": "ja-JP"}, json={"game": "nosuch", "seats": ["human"]})
    assert "知らないゲーム" in res.json()["error"]["message"]


def test_malformed_and_oversized_bodies(client):
    res = client.post("/api/matches", content=b"{not json", headers={"Content-Type": "application/json"})
    assert res.status_code == 422 and "error" in res.json()
    res = client.post("/api/matches", content=b"x" * (MAX_BODY + 10), headers={"Content-Type": "application/json"})
    assert res.status_code == 413 and res.json()["error"]["code"] == "too_large"


# ----- state and actions --------------------------------------------------------------------
def test_a_seat_sees_its_hand_and_a_spectator_does_not(client):
    body = new_match(client)
    token = body["seats"][0]["token"]
    mine = client.get(f"/api/matches/{body['match']}/state", headers=bearer(token)).json()
    spectator = client.get(f"/api/matches/{body['match']}/state").json()
    assert mine["seat"] == 0 and isinstance(mine["view"]["zones"]["hand"][0], list)
    assert spectator["seat"] is None and isinstance(spectator["view"]["zones"]["hand"][0], int)
    assert mine["legal"] and spectator["legal"] == [] and spectator["actions"] == []
    assert [a["notation"] for a in mine["actions"]] == mine["legal"]
    assert all(a["label"] for a in mine["actions"]) and mine["prompt"]
    via_query = client.get(f"/api/matches/{body['match']}/state", params={"token": token}).json()
    assert via_query["view"] == mine["view"]


def test_a_wrong_token_is_refused_not_treated_as_a_spectator(client):
    body = new_match(client)
    res = client.get(f"/api/matches/{body['match']}/state", headers=bearer("x" * 32))
    assert res.status_code == 403 and res.json()["error"]["code"] == "forbidden"
    assert client.get("/api/matches/nosuch/state").status_code == 404


def test_actions_apply_and_every_refusal_changes_nothing(client):
    body = new_match(client)
    match, token = body["match"], body["seats"][0]["token"]
    state = client.get(f"/api/matches/{match}/state", headers=bearer(token)).json()
    v, legal = state["version"], state["legal"]
    path = f"/api/matches/{match}/actions"
    refusals = [
        (client.post(path, json={"version": v + 5, "action": legal[0]}, headers=bearer(token)), 409, "stale"),
        (client.post(path, json={"version": v, "action": legal[0]}), 403, "forbidden"),
        (client.post(path, json={"version": v, "action": legal[0]}, headers=bearer("bad" * 11)), 403, "forbidden"),
        (client.post(path, json={"version": v, "action": "fly 3"}, headers=bearer(token)), 422, "illegal"),
        (client.post(path, json={"version": v, "action": "play 99999"}, headers=bearer(token)), 422, "illegal"),
        (client.post(path, json={"version": v, "action": ""}, headers=bearer(token)), 422, "illegal"),
        (client.post(path, json={"version": "x", "action": legal[0]}, headers=bearer(token)), 422, "bad_request"),
    ]
    for res, status, code in refusals:
        assert res.status_code == status, res.text
        assert res.json()["error"]["code"] == code and res.json()["error"]["message"]
    after = client.get(f"/api/matches/{match}/state", headers=bearer(token)).json()
    assert after["version"] == v and after["view"] == state["view"]
    ok = client.post(path, json={"version": v, "action": legal[0]}, headers=bearer(token))
    assert ok.status_code == 200 and ok.json()["version"] == v + 1


def test_a_seat_that_is_not_to_act_gets_403(client):
    body = new_match(client, {"game": "sengoku_taisen", "seats": ["human", "human"], "seed": 3})
    state = [client.get(f"/api/matches/{body['match']}/state", headers=bearer(s["token"])).json() for s in body["seats"]]
    idle = 0 if not state[0]["legal"] else 1
    other_legal = state[1 - idle]["legal"]
    res = client.post(f"/api/matches/{body['match']}/actions", json={"version": 0, "action": other_legal[0]},
                      headers=bearer(body["seats"][idle]["token"]))
    assert res.status_code == 403 and res.json()["error"]["code"] == "not_your_turn"


def test_a_seat_may_concede_whoever_is_to_act_and_a_spectator_may_not(client):
    """SGT-WIN-04: a player may concede at any time, and the other player wins. The state
    object lists it under ``always`` for each seat (not a spectator), over the seat's own
    decisions; after the game is over nothing is listed."""
    body = new_match(client, {"game": "sengoku_taisen", "seats": ["human", "human"], "seed": 3})
    match = body["match"]
    state = [client.get(f"/api/matches/{match}/state", headers=bearer(s["token"])).json() for s in body["seats"]]
    idle = 0 if not state[0]["legal"] else 1
    assert [a["notation"] for a in state[idle]["always"]] == ["concede"] and state[idle]["always"][0]["label"]
    assert "concede" not in state[idle]["legal"]
    spectator = client.get(f"/api/matches/{match}/state").json()
    assert spectator["always"] == []
    path = f"/api/matches/{match}/actions"
    refused = client.post(path, json={"version": 0, "action": "concede"})
    assert refused.status_code == 403
    res = client.post(path, json={"version": 0, "action": "concede"}, headers=bearer(body["seats"][idle]["token"]))
    assert res.status_code == 200, res.text
    over = client.get(f"/api/matches/{match}/state", headers=bearer(body["seats"][1 - idle]["token"])).json()
    assert over["outcome"]["winners"] == [1 - idle] and over["always"] == []
    again = client.post(path, json={"version": over["version"], "action": "concede"},
                        headers=bearer(body["seats"][1 - idle]["token"]))
    assert again.status_code in (403, 409, 422)


def test_bots_play_their_seats_until_a_person_is_to_act(client):
    body = new_match(client, {"game": "fuutei(players=3)", "seats": ["bot:random", "human", "bot:random"], "seed": 2})
    summary = wait_for(client, body["match"], lambda s: s["seats"][1]["to_act"] or s["status"] == "finished")
    assert summary["version"] > 0


# ----- records, undo, rematch, replays ------------------------------------------------------
def play_to_the_end(client, body, limit=3000, patience: float = 120.0):
    """Play the people's seats (their last legal action) until the match ends: at most `limit`
    of their actions, waiting on the bots at most `patience` seconds at a time."""
    match = body["match"]
    tokens = [s.get("token") for s in body["seats"]]
    acted, waiting_since = 0, time.monotonic()
    while acted < limit:
        summary = client.get(f"/api/matches/{match}").json()
        if summary["status"] == "finished":
            return summary
        actors = [s["seat"] for s in summary["seats"] if s["to_act"] and tokens[s["seat"]]]
        if not actors:
            assert time.monotonic() - waiting_since < patience, f"the bots did not move in {patience:.0f} s: {summary}"
            time.sleep(0.01)
            continue
        acted += 1
        waiting_since = time.monotonic()
        token = tokens[actors[0]]
        state = client.get(f"/api/matches/{match}/state", headers=bearer(token)).json()
        if state["legal"]:
            client.post(f"/api/matches/{match}/actions", json={"version": state["version"], "action": state["legal"][-1]},
                        headers=bearer(token))
    raise AssertionError("the game did not end")


def test_the_record_is_redacted_while_running_and_whole_when_over(client):
    body = new_match(client, {"game": "sengoku_taisen", "seats": ["human", "bot:random"], "seed": 4})
    match, token = body["match"], body["seats"][0]["token"]
    spectator = client.get(f"/api/matches/{match}/record").text.splitlines()
    head = json.loads(spectator[0])
    assert head["type"] == "header" and head["seed"] == 4
    assert all(e.get("to") is None for line in map(json.loads, spectator) for e in line.get("chance", []))
    play_to_the_end(client, body)
    whole = [json.loads(x) for x in client.get(f"/api/matches/{match}/record").text.splitlines()]
    assert whole[-1]["type"] == "end"
    assert any(e.get("to") is not None for line in whole for e in line.get("chance", []))  # shuffles: now shown
    from takujo.record import replay_states
    *_, last = replay_states(whole)
    assert last.outcome is not None


def test_undo_takes_back_a_quiet_action_and_refuses_one_that_revealed_something(client):
    body = new_match(client, {"game": "fuutei(players=2)", "seats": ["human", "bot:random"], "seed": 11})
    match, token = body["match"], body["seats"][0]["token"]
    state = client.get(f"/api/matches/{match}/state", headers=bearer(token)).json()
    assert state["undo"] is False
    plays = [n for n in state["legal"] if n.startswith("play ")]
    after = client.post(f"/api/matches/{match}/actions", json={"version": state["version"], "action": plays[0]},
                        headers=bearer(token)).json()
    assert after["undo"] is True
    undone = client.post(f"/api/matches/{match}/undo", headers=bearer(token))
    assert undone.status_code == 200 and undone.json()["version"] == state["version"]
    assert undone.json()["view"] == state["view"]
    assert any(n["kind"] == "undo" for n in undone.json()["notices"])
    records = client.get(f"/api/matches/{match}/record").text.splitlines()
    assert not any(json.loads(x).get("type") == "step" for x in records)
    refused = client.post(f"/api/matches/{match}/undo", headers=bearer(token))
    assert refused.status_code == 422 and refused.json()["error"]["id"] == "web.no_undo"


def test_rematch_gives_each_player_their_own_seat_in_one_new_match(client):
    body = new_match(client, {"game": "sengoku_taisen", "seats": ["human", "human"], "seed": 5})
    play_to_the_end(client, body)
    a = client.post(f"/api/matches/{body['match']}/rematch", headers=bearer(body["seats"][0]["token"])).json()
    b = client.post(f"/api/matches/{body['match']}/rematch", headers=bearer(body["seats"][1]["token"])).json()
    assert a["match"] == b["match"] != body["match"] and (a["seat"], b["seat"]) == (0, 1)
    assert a["token"] != b["token"]
    mine = client.get(f"/api/matches/{a['match']}/state", headers=bearer(a["token"])).json()
    assert mine["seat"] == 0
    assert client.post(f"/api/matches/{body['match']}/rematch").status_code == 403


def test_replays_of_a_finished_match_step_back_and_forth_from_any_seat(client):
    body = new_match(client, {"game": "sengoku_taisen", "seats": ["human", "bot:random"], "seed": 6})
    assert client.get(f"/api/replays/{body['match']}").status_code == 403  # still running
    summary = play_to_the_end(client, body)
    first = client.get(f"/api/replays/{body['match']}", params={"step": 0, "seat": 1}).json()
    last = client.get(f"/api/replays/{body['match']}", params={"step": 10**6}).json()
    assert first["step"] == 0 and first["seat"] == 1 and last["step"] == summary["version"] == last["steps"]
    assert last["outcome"] is not None
    assert client.get(f"/api/replays/{body['match']}", params={"seat": 9}).status_code == 404


def test_an_uploaded_record_opens_in_the_replay_viewer_and_a_bad_one_is_refused(client):
    body = new_match(client, {"game": "sengoku_taisen", "seats": ["human", "bot:random"], "seed": 8})
    play_to_the_end(client, body)
    text = client.get(f"/api/matches/{body['match']}/record").text
    res = client.post("/api/replays", content=text, headers={"Content-Type": "text/plain"})
    assert res.status_code == 201 and res.json()["steps"] > 0
    step = client.get(f"/api/replays/{res.json()['replay']}", params={"step": 3}).json()
    assert step["step"] == 3
    lines = text.splitlines()
    broken = "\n".join([lines[0], lines[1].replace('"action": "', '"action": "x')] + lines[2:])
    res = client.post("/api/replays", content=broken, headers={"Content-Type": "text/plain"})
    assert res.status_code == 422 and "line 2" in res.json()["error"]["message"]
    res = client.post("/api/replays", content="not json\n", headers={"Content-Type": "text/plain"})
    assert res.status_code == 422


# ----- idle seats ---------------------------------------------------------------------------
def test_an_idle_seat_can_be_handed_to_a_bot_and_taken_back(client, monkeypatch):
    import takujo.web.match as match_module
    clock = [time.time()]
    monkeypatch.setattr(match_module.time, "time", lambda: clock[0])
    body = new_match(client, {"game": "sengoku_taisen", "seats": ["human", "human"], "seed": 9, "idle_limit": 60})
    match = body["match"]
    tokens = [s["token"] for s in body["seats"]]
    summary = client.get(f"/api/matches/{match}").json()
    idle = next(s["seat"] for s in summary["seats"] if s["to_act"])
    other = 1 - idle
    path = f"/api/matches/{match}/seats/{idle}/stand-in"
    assert client.post(path, headers=bearer(tokens[other])).status_code == 422  # not idle yet
    clock[0] += 3600  # well past the limit (the seat started waiting by the real clock)
    assert client.post(path).status_code == 403
    assert client.post(path, headers=bearer(tokens[idle])).status_code == 403  # not one's own seat
    res = client.post(path, headers=bearer(tokens[other]))
    assert res.status_code == 200 and res.json()["seats"][idle]["stand_in"] == "heuristic"
    wait_for(client, match, lambda s: s["version"] > summary["version"])  # the bot played for them
    back = client.post(f"/api/matches/{match}/seats/return", headers=bearer(tokens[idle]))
    assert back.status_code == 200 and back.json()["seats"][idle]["stand_in"] is None


# ----- the WebSocket ------------------------------------------------------------------------
def test_the_websocket_pushes_each_seat_its_own_state_after_every_change(client):
    body = new_match(client, {"game": "sengoku_taisen", "seats": ["human", "human"], "seed": 3})
    match, tokens = body["match"], [s["token"] for s in body["seats"]]
    with client.websocket_connect(f"/ws/matches/{match}?token={tokens[0]}&lang=en") as ws0, \
         client.websocket_connect(f"/ws/matches/{match}?token={tokens[1]}&lang=ja") as ws1, \
         client.websocket_connect(f"/ws/matches/{match}") as spectator:
        first = [ws0.receive_json(), ws1.receive_json(), spectator.receive_json()]
        assert [m["seat"] for m in first] == [0, 1, None] and first[1]["lang"] == "ja"
        # each connection announced itself: drain until everyone sees both seats connected
        def latest(ws):
            msg = ws.receive_json()
            while not all(s["connected"] for s in msg["seats"]):
                msg = ws.receive_json()
            return msg
        states = [latest(ws0), latest(ws1)]
        actor = 0 if states[0]["legal"] else 1
        ws = (ws0, ws1)[actor]
        ws.send_json({"type": "act", "version": states[actor]["version"], "action": states[actor]["legal"][0]})
        for sock in (ws0, ws1, spectator):
            msg = sock.receive_json()
            while msg["version"] == states[0]["version"]:
                msg = sock.receive_json()
            assert msg["type"] == "state" and msg["version"] == states[0]["version"] + 1
        ws.send_json({"type": "act", "version": 0, "action": "nonsense"})
        error = ws.receive_json()
        assert error["type"] == "error" and error["status"] in (409, 422)
        ws.send_text("{oops")
        assert ws.receive_json()["type"] == "error"


def test_a_websocket_with_a_wrong_token_is_refused(client):
    body = new_match(client)
    with client.websocket_connect(f"/ws/matches/{body['match']}?token=forged") as ws:
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["status"] == 403


def _held_think(*args):
    """The server's `think`, in its worker process, once the test lets it go: it says it has
    started (a file `thinking`), then waits for a file `go`, both in the folder named by
    TAKUJO_TEST_GATE (at most two minutes, so that a broken server cannot hang the test)."""
    import os
    from pathlib import Path

    from takujo.web.thinking import think
    gate = Path(os.environ["TAKUJO_TEST_GATE"])
    (gate / "thinking").touch()
    deadline = time.monotonic() + 120
    while not (gate / "go").exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    return think(*args)


def test_an_ismcts_bot_thinking_in_one_match_never_delays_another(tmp_path, monkeypatch):
    """An IS-MCTS decision is held in its worker process until five people's actions in
    another match have been handled; let go, the bot moves. (A bot thinking on the event
    loop would hold up those actions until the hold ends, and move first.)"""
    import takujo.web.service as service_module
    from takujo.web.app import create_app
    from takujo.web.settings import Limits, Settings

    from .limits import RATES
    monkeypatch.setenv("TAKUJO_TEST_GATE", str(tmp_path))      # worker processes are spawned with it
    monkeypatch.setattr(service_module, "think", _held_think)
    settings = Settings(bot_levels=("random", "ismcts:200"), limits=Limits(**RATES))
    with TestClient(create_app(tmp_path / "t.db", settings=settings)) as client:
        slow = new_match(client, {"game": "sengoku_taisen", "seats": ["bot:ismcts:200", "bot:ismcts:200"], "seed": 1})
        body = new_match(client, {"game": "sengoku_taisen", "seats": ["human", "human"], "seed": 2})
        deadline = time.monotonic() + 120
        while not (tmp_path / "thinking").exists():                  # the slow match's bot is thinking now
            assert time.monotonic() < deadline, "the IS-MCTS bot never started thinking"
            time.sleep(0.02)
        tokens = [s["token"] for s in body["seats"]]
        before = client.get(f"/api/matches/{slow['match']}").json()["version"]
        for _ in range(5):
            states = [client.get(f"/api/matches/{body['match']}/state", headers=bearer(t)).json() for t in tokens]
            actor = 0 if states[0]["legal"] else 1
            res = client.post(f"/api/matches/{body['match']}/actions",
                              json={"version": states[actor]["version"], "action": states[actor]["legal"][0]},
                              headers=bearer(tokens[actor]))
            assert res.status_code == 200
        # five human actions were handled while the first IS-MCTS decision was still being thought over
        assert client.get(f"/api/matches/{slow['match']}").json()["version"] == before
        (tmp_path / "go").touch()
        wait_for(client, slow["match"], lambda s: s["version"] > before)


def test_the_docs_and_pages_are_served(client):
    assert client.get("/docs").status_code == 200
    schema = client.get("/openapi.json").json()
    assert "/api/matches/{match_id}/actions" in schema["paths"]
    for page in ("/", "/match/abc", "/replay", "/static/match.js", "/static/boards/generic.js"):
        res = client.get(page)
        assert res.status_code == 200, page
        assert res.headers["referrer-policy"] == "no-referrer"
    ui = client.get("/api/ui", params={"lang": "ja"}).json()
    assert ui["undo"] == "取り消す"
    games = client.get("/api/games").json()
    assert {"fuutei", "sengoku_taisen", "ibara", "draft_daimyo"} <= {g["name"] for g in games}
    fuutei = next(g for g in games if g["name"] == "fuutei")
    # a card file option offers only the built-in set (and, in the lobby, sets kept on the server): no path
    assert fuutei["options"]["cards"]["enum"] == [""] and "heuristic" in fuutei["bots"]
    sengoku = next(g for g in games if g["name"] == "sengoku_taisen")
    assert "蒼" in sengoku["options"]["deck1"]["enum"]


def test_an_uploaded_decklist_becomes_a_deck_code_a_match_can_be_played_with(client):
    from takujo.core.registry import game_class
    text = game_class("sengoku_taisen").deck_text("翠")
    res = client.post("/api/decklists", json={"game": "sengoku_taisen", "text": text})
    assert res.status_code == 200 and res.json()["deck"].startswith("code:")
    code = res.json()["deck"]
    body = new_match(client, {"game": f"sengoku_taisen(deck1={code},deck2=紅)", "seats": ["human", "bot:random"], "seed": 1})
    state = client.get(f"/api/matches/{body['match']}/state", headers=bearer(body["seats"][0]["token"])).json()
    hand = state["view"]["zones"]["hand"][0]
    catalogue = client.get(f"/api/matches/{body['match']}/catalogue").json()
    numbers = {catalogue["instances"][i] for i in hand}
    assert all(n.startswith(("MD-", "NT-")) for n in numbers), numbers  # 翠's cards, not 蒼's
    short = "\n".join(line for line in text.splitlines() if not line.startswith(("4 ", "3 ")))
    res = client.post("/api/decklists", json={"game": "sengoku_taisen", "text": short})
    assert res.status_code == 422 and "at least 50" in res.json()["error"]["message"]
    res = client.post("/api/decklists", json={"game": "sengoku_taisen", "text": "root:x:0:0:root:/root:/bin/bash\n"})
    assert res.status_code == 422 and "/bin/bash" not in res.text
    assert client.post("/api/decklists", json={"game": "fuutei", "text": text}).status_code == 422
    bad = client.post("/api/matches", json={"game": "sengoku_taisen(deck1=code:x)", "seats": ["human", "human"]})
    assert bad.status_code == 422 and "deck code" in bad.json()["error"]["message"]


def test_the_game_catalogue_takes_a_game_name_never_a_game_string(client):
    assert client.get("/api/games/sengoku_taisen/catalogue").status_code == 200
    res = client.get("/api/games/sengoku_taisen(deck1=%2Fetc%2Fpasswd)/catalogue")
    assert res.status_code == 404 and "root" not in res.text
