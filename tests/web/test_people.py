"""The social layer's server side: display names, player keys and "Your games", open seats
joined from the lobby, invite links shown again, chat, the whole log page by page, notices
in the second person."""
from __future__ import annotations

import json
import time

import pytest

from .client import bearer

KEY_A = "a" * 32
KEY_B = "b" * 32
TWO = {"game": "sengoku_taisen", "seats": ["human", "human"], "seed": 3}


def player(key: str) -> dict[str, str]:
    return {"X-Takujo-Player": key}


def create(client, key: str = KEY_A, **extra) -> dict:
    res = client.post("/api/matches", json={**TWO, **extra}, headers=player(key))
    assert res.status_code == 201, res.text
    return res.json()


def test_the_creator_takes_a_named_seat_and_finds_it_in_your_games(client) -> None:
    made = create(client, name="  Hanako  ", listed=True)
    assert made["your_seat"] == 0
    summary = client.get(f"/api/matches/{made['match']}").json()
    assert [s["name"] for s in summary["seats"]] == ["Hanako", None]   # trimmed; seat 1 still open
    assert [s["open"] for s in summary["seats"]] == [False, True]
    mine = client.get("/api/me/matches", headers=player(KEY_A)).json()["matches"]
    assert [m["match"] for m in mine] == [made["match"]]
    assert mine[0]["created_by_you"] and [s["seat"] for s in mine[0]["mine"]] == [0]
    token = mine[0]["mine"][0]["token"]
    assert token == made["seats"][0]["token"]          # the same link, given again
    assert client.get("/api/me/matches", headers=player(KEY_B)).json()["matches"] == []


def test_names_are_checked_and_escaped_nowhere_but_kept_as_text(client) -> None:
    for bad in ["", "   ", "x" * 25, "\u202eevil", 5]:
        res = client.post("/api/matches", json={**TWO, "name": bad}, headers=player(KEY_A))
        if bad == "\u202eevil":   # the bidi override is dropped, the rest kept
            assert res.status_code == 201 and client.get(f"/api/matches/{res.json()['match']}").json()["seats"][0]["name"] == "evil"
            continue
        assert res.status_code == 422, (bad, res.text)
        assert "name" in res.json()["error"]["message"]
    made = create(client, name="<b>花子</b>")
    assert client.get(f"/api/matches/{made['match']}").json()["seats"][0]["name"] == "<b>花子</b>"


def test_a_malformed_player_key_is_refused(client) -> None:
    for bad in ["short", "x" * 300, "not a key!" * 4]:
        res = client.post("/api/matches", json=TWO, headers=player(bad))
        assert res.status_code == 422, res.text
    res = client.get("/api/me/matches")
    assert res.status_code == 422 and "X-Takujo-Player" in res.json()["error"]["message"]


def test_an_open_seat_is_listed_and_joined_once(client) -> None:
    made = create(client, name="Hanako", listed=True)
    hidden = create(client, name="Taro")                       # not listed: invite links only
    listed = [m["match"] for m in client.get("/api/matches?status=open").json()["matches"]]
    assert made["match"] in listed and hidden["match"] not in listed
    res = client.post(f"/api/matches/{hidden['match']}/seats/1/join", json={"name": "Jiro"}, headers=player(KEY_B))
    assert res.status_code == 422
    res = client.post(f"/api/matches/{made['match']}/seats/1/join", json={"name": "Jiro"}, headers=player(KEY_B))
    assert res.status_code == 201, res.text
    token = res.json()["token"]
    again = client.post(f"/api/matches/{made['match']}/seats/1/join", json={"name": "Saburo"}, headers=player(KEY_A))
    assert again.status_code == 422 and "taken" in again.json()["error"]["message"]
    taken = client.post(f"/api/matches/{made['match']}/seats/0/join", json={"name": "Saburo"})
    assert taken.status_code == 422
    # the joiner's token plays seat 1; the invite link made at creation no longer does
    state = client.get(f"/api/matches/{made['match']}/state", headers=bearer(token)).json()
    assert state["seat"] == 1
    old = client.get(f"/api/matches/{made['match']}/state", headers=bearer(made["seats"][1]["token"]))
    assert old.status_code == 403
    assert made["match"] not in [m["match"] for m in client.get("/api/matches?status=open").json()["matches"]]
    theirs = client.get("/api/me/matches", headers=player(KEY_B)).json()["matches"]
    assert [(m["match"], [s["seat"] for s in m["mine"]], m["created_by_you"]) for m in theirs] == [(made["match"], [1], False)]


def test_only_the_creator_sees_the_invite_links_again(client) -> None:
    made = create(client, name="Hanako")
    res = client.get(f"/api/matches/{made['match']}/invites", headers=player(KEY_A))
    assert res.status_code == 200
    links = {s["seat"]: s.get("token") for s in res.json()["seats"]}
    assert links == {0: made["seats"][0]["token"], 1: made["seats"][1]["token"]}
    assert client.get(f"/api/matches/{made['match']}/invites", headers=player(KEY_B)).status_code == 422
    assert client.get(f"/api/matches/{made['match']}/invites").status_code == 422


def test_naming_your_seat_names_you_in_texts(client) -> None:
    made = create(client)
    t0, t1 = (s["token"] for s in made["seats"])
    res = client.post(f"/api/matches/{made['match']}/seats/name", json={"name": "Jiro"}, headers={**bearer(t1), **player(KEY_B)})
    assert res.status_code == 200, res.text
    assert res.json()["seats"][1]["name"] == "Jiro"
    assert client.post(f"/api/matches/{made['match']}/seats/name", json={"name": "Jiro"}).status_code == 403
    # seat 0 reads "Jiro" where it read "player 1"; seat 1 reads "You"
    state0 = client.get(f"/api/matches/{made['match']}/state?since=0", headers=bearer(t0)).json()
    joined = [n for n in state0["notices"] if n["kind"] == "joined"]
    assert joined and joined[0]["text"] == "Jiro took a seat"
    state1 = client.get(f"/api/matches/{made['match']}/state?since=0", headers=bearer(t1)).json()
    assert [n["text"] for n in state1["notices"] if n["kind"] == "joined"] == ["You took your seat"]
    texts0 = " ".join(e["text"] for e in state0["events"])
    assert "Jiro" in texts0 or "player 1" not in texts0
    assert [m["match"] for m in client.get("/api/me/matches", headers=player(KEY_B)).json()["matches"]] == [made["match"]]


def test_an_undo_notice_is_in_the_second_person_for_its_seat(client) -> None:
    made = create(client, name="Hanako")
    t0, t1 = (s["token"] for s in made["seats"])
    for _ in range(40):   # play until seat 0 has an action it may take back
        s0 = client.get(f"/api/matches/{made['match']}/state", headers=bearer(t0)).json()
        if s0["undo"]:
            break
        for tok in (t0, t1):
            s = client.get(f"/api/matches/{made['match']}/state", headers=bearer(tok)).json()
            if s["legal"]:
                client.post(f"/api/matches/{made['match']}/actions", headers=bearer(tok),
                            json={"action": s["legal"][0], "version": s["version"]})
    else:
        pytest.skip("no undoable action came up")
    assert client.post(f"/api/matches/{made['match']}/undo", headers=bearer(t0)).status_code == 200
    mine = client.get(f"/api/matches/{made['match']}/state", headers=bearer(t0)).json()["notices"]
    theirs = client.get(f"/api/matches/{made['match']}/state", headers=bearer(t1)).json()["notices"]
    assert mine[-1]["text"] == "You took back an action" and theirs[-1]["text"] == "Hanako took back an action"
    assert isinstance(mine[-1]["seq"], int)


def _receive(ws, kind: str, limit: int = 20) -> dict:
    for _ in range(limit):
        msg = ws.receive_json()
        if msg["type"] == kind:
            return msg
    raise AssertionError(f"no {kind} message")


def test_chat_channels_players_write_everyone_reads_spectators_among_themselves(client) -> None:
    made = create(client, name="Hanako")
    mid, t0 = made["match"], made["seats"][0]["token"]
    with client.websocket_connect(f"/ws/matches/{mid}?token={t0}") as seat0, \
            client.websocket_connect(f"/ws/matches/{mid}") as watcher:
        _receive(seat0, "state"), _receive(watcher, "state")
        seat0.send_json({"type": "chat", "text": "  hello <script>x</script>\n there "})
        line = _receive(seat0, "chat")["lines"][-1]
        assert (line["channel"], line["seat"], line["name"], line["text"]) == \
            ("players", 0, "Hanako", "hello <script>x</script> there")
        assert _receive(watcher, "chat")["lines"][-1]["text"] == line["text"]   # spectators read it
        watcher.send_json({"type": "chat", "text": "psst, seat 1 holds the ace", "name": "Onlooker"})
        theirs = _receive(watcher, "chat")["lines"][-1]
        assert (theirs["channel"], theirs["seat"], theirs["name"]) == ("spectators", None, "Onlooker")
        seat0.send_json({"type": "chat", "text": "again"})
        got = _receive(seat0, "chat")["lines"]
        assert [x["text"] for x in got] == ["again"]          # the spectators' line never reached seat 0
        for bad in ["", "x" * 401, 7]:
            seat0.send_json({"type": "chat", "text": bad})
            err = _receive(seat0, "error")
            assert err["status"] == 422 and "chat" in err["message"]
    # kept with the match: a new socket gets the players' lines
    with client.websocket_connect(f"/ws/matches/{mid}?token={t0}") as again:
        assert [x["text"] for x in _receive(again, "chat")["lines"]] == ["hello <script>x</script> there", "again"]


def test_chat_is_rate_limited(tmp_path) -> None:
    from fastapi.testclient import TestClient

    from takujo.web.app import create_app
    from takujo.web.settings import Limits, Settings

    from .limits import RATES
    app = create_app(tmp_path / "t.db", settings=Settings(limits=Limits(**{**RATES, "chat": "3/minute"})))
    with TestClient(app) as c:
        made = create(c)
        with c.websocket_connect(f"/ws/matches/{made['match']}?token={made['seats'][0]['token']}") as ws:
            _receive(ws, "state")
            for i in range(3):
                ws.send_json({"type": "chat", "text": f"line {i}"})
                _receive(ws, "chat")
            ws.send_json({"type": "chat", "text": "one too many"})
            err = _receive(ws, "error")
            assert err["status"] == 429 and err["retry_after"] >= 1


def test_the_whole_log_comes_page_by_page(client) -> None:
    made = client.post("/api/matches", json={"game": "fuutei", "seats": ["human", "bot:random", "bot:random"],
                                             "seed": 5}).json()
    mid, tok = made["match"], made["seats"][0]["token"]
    for _ in range(60):   # play a while so that the log outgrows a view's recent events
        s = client.get(f"/api/matches/{mid}/state", headers=bearer(tok)).json()
        if s["status"] == "finished" or s["cursor"] > 120:
            break
        if s["legal"]:
            client.post(f"/api/matches/{mid}/actions", headers=bearer(tok), json={"action": s["legal"][-1], "version": s["version"]})
    full = client.get(f"/api/matches/{mid}/state?since=0", headers=bearer(tok)).json()
    with client.websocket_connect(f"/ws/matches/{mid}?token={tok}") as ws:
        first = _receive(ws, "state")
        got = list(first["events"])
        assert got and got[0]["seq"] > 0                          # a fresh socket gets the recent events only
        before = got[0]["seq"]
        while before > 0:
            ws.send_json({"type": "history", "before": before})
            page = _receive(ws, "history")
            assert page["before"] == before and page["start"] < before
            got = page["events"] + got
            before = page["start"]
    # the bots may have played on since `full` was read: it is a prefix of what came page by page
    whole = [(e["seq"], e["text"]) for e in full["events"]]
    assert [(e["seq"], e["text"]) for e in got][:len(whole)] == whole


def test_idle_time_counts_from_when_the_seat_was_opened_and_the_offer_is_pushed(client, monkeypatch) -> None:
    import takujo.web.match as match_module
    import takujo.web.service as service_module
    clock = [time.time()]
    monkeypatch.setattr(match_module.time, "time", lambda: clock[0])
    monkeypatch.setattr(service_module.time, "time", lambda: clock[0])
    made = client.post("/api/matches", json={**TWO, "idle_limit": 60}).json()
    mid, tokens = made["match"], [s["token"] for s in made["seats"]]
    clock[0] += 240
    seats = client.get(f"/api/matches/{mid}").json()["seats"]
    assert [(s["opened"], s["idle_seconds"]) for s in seats] == [(False, 0.0), (False, 0.0)]  # nobody opened them
    service = client.app.state.service
    with client.websocket_connect(f"/ws/matches/{mid}?token={tokens[0]}") as ws0, \
            client.websocket_connect(f"/ws/matches/{mid}?token={tokens[1]}") as ws1:
        _receive(ws0, "state"), _receive(ws1, "state")
        clock[0] += 30
        seats = client.get(f"/api/matches/{mid}").json()["seats"]
        acting = [s for s in seats if s["to_act"]]
        assert acting and all(s["opened"] and 29 <= s["idle_seconds"] <= 31 for s in acting)   # not 270
        assert not any(s["may_take_over"] for s in seats)
        clock[0] += 40                                    # past the limit: the others are told at once
        _offer_is_pushed_once(service, ws0)


def _offer_is_pushed_once(service, ws) -> None:
    """The sweep tells the others at once that a seat may be handed over, and only once."""
    assert service.offer_take_overs() == 1
    for _ in range(5):     # states sent before (the other socket connecting) come first
        pushed = _receive(ws, "state")
        if any(s["may_take_over"] for s in pushed["seats"]):
            break
    else:
        raise AssertionError("the offer was not pushed")
    assert service.offer_take_overs() == 0


# ----- clocks ---------------------------------------------------------------------------------
def test_a_real_time_clock_runs_only_for_the_seat_to_act_and_gains_its_increment(client, monkeypatch) -> None:
    import takujo.web.match as match_module
    clock = [time.time()]
    monkeypatch.setattr(match_module.time, "time", lambda: clock[0])
    made = client.post("/api/matches", json={"game": "fuutei", "seats": ["human", "human"], "seed": 1,
                                             "clock": "blitz", "name": "Hanako"}).json()     # 300 s + 5 s a move
    mid, tokens = made["match"], [s["token"] for s in made["seats"]]
    summary = client.get(f"/api/matches/{mid}").json()
    assert summary["clock"]["kind"] == "realtime"
    acting = next(s["seat"] for s in summary["seats"] if s["to_act"])
    clock[0] += 20
    seats = client.get(f"/api/matches/{mid}").json()["seats"]
    assert seats[acting]["clock"]["running"] and 279 <= seats[acting]["clock"]["left"] <= 281
    assert not seats[1 - acting]["clock"]["running"] and seats[1 - acting]["clock"]["left"] == 300
    state = client.get(f"/api/matches/{mid}/state", headers=bearer(tokens[acting])).json()
    res = client.post(f"/api/matches/{mid}/actions", headers=bearer(tokens[acting]),
                      json={"action": state["legal"][0], "version": state["version"]})
    assert res.status_code == 200
    left = res.json()["seats"][acting]["clock"]["left"]
    if not res.json()["seats"][acting]["to_act"]:
        assert 284 <= left <= 286          # 300 − 20 + 5
    # kept in the store: a server that loads the match again has the same time left
    service = client.app.state.service
    service._drop(mid)
    again = client.get(f"/api/matches/{mid}").json()["seats"][acting]["clock"]["left"]
    assert abs(again - left) < 1.5


def test_out_of_time_a_seat_may_be_handed_over_and_past_the_grace_it_is(client, monkeypatch) -> None:
    import asyncio

    import takujo.web.match as match_module
    import takujo.web.service as service_module
    clock = [time.time()]
    monkeypatch.setattr(match_module.time, "time", lambda: clock[0])
    monkeypatch.setattr(service_module.time, "time", lambda: clock[0])
    made = client.post("/api/matches", json={"game": "sengoku_taisen", "seats": ["human", "human"], "seed": 3,
                                             "clock": "blitz", "clock_grace": 60, "name": "Hanako"}).json()
    mid = made["match"]
    clock[0] += 301
    seats = client.get(f"/api/matches/{mid}").json()["seats"]
    assert seats[0]["clock"]["out_of_time"] and seats[0]["may_take_over"]
    assert not seats[1]["clock"]["running"]           # nobody opened seat 1: its clock waits
    service = client.app.state.service
    clock[0] += 60
    client.portal.call(_offer, service)
    deadline = time.monotonic() + 30            # the hand-over is a task of the server's loop: wait for it
    while time.monotonic() < deadline and not client.get(f"/api/matches/{mid}").json()["seats"][0]["stand_in"]:
        time.sleep(0.05)
    assert client.get(f"/api/matches/{mid}").json()["seats"][0]["stand_in"] == "heuristic"


def test_out_of_time_the_offer_is_pushed_in_a_match_with_no_idle_limit(client, monkeypatch) -> None:
    """A clock alone (no idle limit) makes a seat one the others may hand over: the button
    reaches their page without a reload."""
    import takujo.web.match as match_module
    import takujo.web.service as service_module
    clock = [time.time()]
    monkeypatch.setattr(match_module.time, "time", lambda: clock[0])
    monkeypatch.setattr(service_module.time, "time", lambda: clock[0])
    made = client.post("/api/matches", json={"game": "fuutei", "seats": ["human", "human"], "seed": 1,
                                             "clock": "blitz", "name": "Hanako"}).json()
    mid, tokens = made["match"], [s["token"] for s in made["seats"]]
    assert client.get(f"/api/matches/{mid}").json()["idle_limit"] is None
    service = client.app.state.service
    with client.websocket_connect(f"/ws/matches/{mid}?token={tokens[0]}") as ws0, \
            client.websocket_connect(f"/ws/matches/{mid}?token={tokens[1]}") as ws1:
        _receive(ws0, "state"), _receive(ws1, "state")
        assert service.offer_take_overs() == 0
        clock[0] += 301                                   # the seat to act runs out of its 300 s
        _offer_is_pushed_once(service, ws0)


async def _offer(service) -> None:
    import asyncio
    service.offer_take_overs()
    await asyncio.sleep(0.2)


def test_a_clock_that_is_not_offered_is_refused(client) -> None:
    res = client.post("/api/matches", json={**TWO, "clock": "1 hour"})
    assert res.status_code == 422 and "blitz" in res.json()["error"]["message"]
    res = client.post("/api/matches", json={**TWO, "clock": "blitz", "clock_grace": -1})
    assert res.status_code == 422


def test_names_are_kept_in_the_record_and_told_in_its_replay(client) -> None:
    made = client.post("/api/matches", json={"game": "fuutei", "seats": ["human", "human"], "seed": 2,
                                             "name": "Hanako"}).json()
    mid, t0, t1 = made["match"], made["seats"][0]["token"], made["seats"][1]["token"]
    client.post(f"/api/matches/{mid}/seats/name", json={"name": "Jiro"}, headers=bearer(t1))
    lines = [json.loads(x) for x in client.get(f"/api/matches/{mid}/record", headers=bearer(t0)).text.splitlines()]
    assert lines[0]["names"] == ["Hanako", "Jiro"]
    # a whole record with names (a running match's is redacted): a game played here
    from takujo.record import record_lines
    from takujo.core.registry import make_game
    state = make_game("fuutei", 2, {}).new_state(2)
    for _ in range(30):
        if state.outcome is not None:
            break
        player = state.pending.players[0]
        state.apply(state.legal_actions(player)[0], player)
    lines = record_lines(state, 2, None, ["Hanako", "Jiro"])
    text = "\n".join(json.dumps(x) for x in lines)
    res = client.post("/api/replays", content=text, headers={"Content-Type": "text/plain"})
    assert res.status_code == 201, res.text
    key = res.json()["replay"]
    step = client.get(f"/api/replays/{key}?step=0&lang=en").json()
    assert step["names"] == ["Hanako", "Jiro"]
    assert [s["name"] for s in step["seats"]] == ["Hanako", "Jiro"]       # the boards name the players
    assert any("Hanako" in e["text"] or "Jiro" in e["text"] for e in step["events"])
    # a hostile name in an uploaded header is dropped, never shown
    lines[0]["names"] = ["\u0000" * 3, "x" * 500]
    res = client.post("/api/replays", content="\n".join(json.dumps(x) for x in lines),
                      headers={"Content-Type": "text/plain"})
    assert client.get(f"/api/replays/{res.json()['replay']}?step=0").json()["names"] == [None, None]
