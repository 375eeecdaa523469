"""What a hostile client may send: every value checked at the edge, every error the JSON
body, no server file opened or revealed, and nothing changed by a refused request."""
from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from takujo.web.app import MAX_BODY, create_app
from takujo.web.settings import Limits, Settings

from .client import TWO_PEOPLE, bearer, new_match
from .limits import GENEROUS, RATES





def error_of(res) -> dict:
    body = res.json()
    assert set(body) == {"error"}, body
    assert {"status", "code", "message"} <= set(body["error"]), body
    return body["error"]


# ----- server files through an uploaded record ----------------------------------------------
SECRET = "TOP-SECRET-LINE"


@pytest.mark.parametrize("template", [
    "fuutei(players=3,cards={path})",
    "sengoku_taisen(deck1={path})",
    "sengoku_taisen(deck2={path})",
    "sengoku_taisen(cards={path})",
    "ibara(players=3,content={path})",
    "draft_daimyo(board={path})",
    "draft_daimyo(cards={path})",
])
@pytest.mark.parametrize("kind", ["exists", "missing"])
def test_an_uploaded_record_never_opens_a_file_its_header_names(client, tmp_path, template, kind):
    path = tmp_path / "server-side.toml"
    if kind == "exists":  # TOML- and decklist-shaped, so a parse error would quote it
        path.write_text(f'[[card]]\nname = "{SECRET}"\n4 {SECRET}\n')
    option = template.split("(")[1].split(",")[-1].split("=")[0]
    header = {"type": "header", "takujo": "0", "game": template.format(path=path), "seed": 1, "seats": [], "chance": []}
    res = client.post("/api/replays", content=json.dumps(header) + "\n", headers={"content-type": "text/plain"})
    assert res.status_code == 422
    error = error_of(res)
    assert option in error["message"] and "server" in error["message"]
    for leak in (SECRET, str(path), "exist", "No such file", "line", "column", "card"):
        assert leak not in error["message"].replace(option, ""), error
    assert client.get("/api/matches").json()["matches"] == []


def test_the_check_is_the_same_for_every_route_that_takes_a_game_string(client, tmp_path):
    path = tmp_path / "x.toml"
    spec = f"fuutei(players=3,cards={path})"
    created = client.post("/api/matches", json={"game": spec, "seats": ["human"] * 3})
    header = {"type": "header", "game": spec, "seed": 1, "seats": [], "chance": []}
    uploaded = client.post("/api/replays", content=json.dumps(header), headers={"content-type": "text/plain"})
    assert error_of(created)["id"] == error_of(uploaded)["id"] == "web.file_only"
    catalogue = client.get(f"/api/games/{spec}/catalogue")
    assert catalogue.status_code == 404 and str(path) not in catalogue.text


# ----- bot levels ---------------------------------------------------------------------------
@pytest.mark.parametrize("level", ["ismcts:3600s", "ismcts:10000000", "ismcts:5000", "ismcts:200:h", "nosuch"])
def test_only_the_bot_levels_the_server_offers_may_be_asked_for(client, level):
    res = client.post("/api/matches", json={"game": "sengoku_taisen", "seats": ["human", f"bot:{level}"]})
    assert res.status_code == 422 and error_of(res)["id"] == "web.bot_level"
    assert client.get("/api/matches").json()["matches"] == []


def test_the_games_list_names_exactly_the_levels_offered(tmp_path):
    settings = Settings(bot_levels=("random", "ismcts:50"), limits=GENEROUS.limits)
    with TestClient(create_app(tmp_path / "t.db", settings=settings)) as client:
        for game in client.get("/api/games").json():
            assert game["bots"] == ["random", "ismcts:50"]
        assert client.post("/api/matches", json={"game": "sengoku_taisen",
                                                 "seats": ["human", "bot:ismcts:50"]}).status_code == 201
        refused = client.post("/api/matches", json={"game": "sengoku_taisen", "seats": ["human", "bot:heuristic"]})
        assert refused.status_code == 422 and "ismcts:50" in error_of(refused)["message"]


@pytest.mark.parametrize("level", ["ismcts:20001", "ismcts:11s", "ismcts:0", "ismcts:nans", "minimax"])
def test_an_operator_cannot_offer_a_level_over_the_hard_cap(level):
    from takujo.core.errors import OptionError
    with pytest.raises(OptionError):
        Settings(bot_levels=("random", level))


# ----- versions -----------------------------------------------------------------------------
@pytest.mark.parametrize("version", ['"0"', "1.0", "0.0", "1e999", "true", "false", "[0]", "{}"])
def test_a_version_that_is_not_an_integer_is_refused_over_both_transports(client, version):
    match, tokens = new_match(client)
    state = client.get(f"/api/matches/{match}/state", headers=bearer(tokens[0])).json()
    legal = state["legal"][0]
    raw = '{"action": %s, "version": %s}' % (json.dumps(legal), version)
    res = client.post(f"/api/matches/{match}/actions", content=raw, headers={**bearer(tokens[0]),
                                                                            "content-type": "application/json"})
    assert res.status_code == 422, res.text
    error_of(res)
    with client.websocket_connect(f"/ws/matches/{match}?token={tokens[0]}") as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_text('{"type": "act", "action": %s, "version": %s}' % (json.dumps(legal), version))
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["status"] == 422, msg
    assert client.get(f"/api/matches/{match}").json()["version"] == 0


# ----- messages that crashed the handler ----------------------------------------------------
def test_malformed_websocket_messages_get_an_error_and_the_socket_stays(client, caplog):
    match, tokens = new_match(client)
    caplog.set_level(logging.DEBUG)
    with client.websocket_connect(f"/ws/matches/{match}?token={tokens[0]}") as ws:
        assert ws.receive_json()["type"] == "state"
        for raw in ["[" * 5000 + "]" * 5000, "{" * 3000, "[1, 2", "7", '"act"', '{"type": "fly"}',
                    '{"type": "act", "action": 5}', '{"type": "act", "action": {"x": 1}}',
                    '{"type": "act", "version": ' + "9" * 5000 + "}", "x" * 20000]:
            ws.send_text(raw)
            msg = ws.receive_json()
            assert msg["type"] == "error" and msg["status"] in (403, 413, 422) and msg["message"], (raw[:40], msg)
        ws.send_json({"type": "refresh"})
        assert ws.receive_json()["type"] == "state"  # still open and serving
    assert not [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]
    assert client.get(f"/api/matches/{match}").json()["version"] == 0


def test_a_binary_frame_gets_an_error_and_a_proper_close(client, caplog):
    match, tokens = new_match(client)
    with client.websocket_connect(f"/ws/matches/{match}?token={tokens[0]}") as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_bytes(b"\x00\x01binary")
        msg = ws.receive_json()
        assert msg["type"] == "error" and "binary" in msg["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1003
    assert not [r for r in caplog.records if r.exc_info]


# ----- the error body for requests FastAPI could not read ----------------------------------
@pytest.mark.parametrize("raw, status", [
    ("[" * 20000 + "]" * 20000, 400),                     # nested past the parser's recursion limit
    ('{"game": "fuutei", "seats": ["human"], "seed": ' + "9" * 5000 + "}", 400),  # a 5,000-digit integer
    (b'{"game": "\xff\xfe", "seats": ["human"]}', 400),   # invalid UTF-8
    ("{not json", 422),
])
def test_unreadable_bodies_get_the_json_error_body(client, raw, status):
    res = client.post("/api/matches", content=raw, headers={"content-type": "application/json",
                                                            "accept-language": "ja"})
    assert res.status_code == status, res.text
    error = error_of(res)
    assert "detail" not in res.json() and error["message"]
    assert client.get("/api/matches").json()["matches"] == []


def test_an_unreadable_body_is_told_in_the_language_asked_for(client):
    raw = "[" * 20000 + "]" * 20000
    ja = error_of(client.post("/api/matches?lang=ja", content=raw, headers={"content-type": "application/json"}))
    en = error_of(client.post("/api/matches?lang=en", content=raw, headers={"content-type": "application/json"}))
    assert ja["message"] != en["message"] and "本文" in ja["message"] and "body" in en["message"]


def test_over_size_bodies_get_413_chunked_or_not(client):
    big = b"x" * (MAX_BODY + 10)
    plain = client.post("/api/replays", content=big, headers={"content-type": "text/plain"})
    assert plain.status_code == 413 and error_of(plain)["code"] == "too_large"

    def chunks():
        for _ in range(MAX_BODY // 65536 + 2):
            yield b"y" * 65536
    chunked = client.post("/api/replays", content=chunks(), headers={"content-type": "text/plain"})
    assert chunked.status_code == 413 and error_of(chunked)["code"] == "too_large"
    chunked_json = client.post("/api/matches", content=chunks(), headers={"content-type": "application/json"})
    assert chunked_json.status_code == 413 and error_of(chunked_json)["code"] == "too_large"


def test_unknown_addresses_and_methods_get_the_json_error_body(client):
    missing = client.get("/api/nothing-here")
    assert missing.status_code == 404 and error_of(missing)["code"] == "not_found"
    wrong = client.delete("/api/matches")
    assert wrong.status_code == 405 and error_of(wrong)
    for bad_id in ("../../etc/passwd", "x" * 300, "ZZZZZZZZZZZZ"):
        res = client.get(f"/api/matches/{bad_id}")
        assert res.status_code == 404 and error_of(res)["code"] == "not_found"


# ----- rate limits --------------------------------------------------------------------------
def limited(**changes: object) -> Settings:
    return Settings(limits=Limits(**{**RATES, **changes}))  # type: ignore[arg-type]


def test_creating_matches_is_rate_limited_per_address(tmp_path):
    with TestClient(create_app(tmp_path / "t.db", settings=limited(create="2/minute"))) as client:
        assert [client.post("/api/matches", json=TWO_PEOPLE).status_code for _ in range(2)] == [201, 201]
        res = client.post("/api/matches", json=TWO_PEOPLE, headers={"accept-language": "ja"})
        assert res.status_code == 429 and 1 <= int(res.headers["retry-after"]) <= 60
        assert error_of(res)["code"] == "rate_limited" and "create" in error_of(res)["message"]
        assert len(client.get("/api/matches").json()["matches"]) == 2
        metrics = client.get("/metrics").text
        assert 'takujo_rate_limited_total{limit="create"} 1.0' in metrics


def test_actions_are_rate_limited_over_http_and_the_websocket(tmp_path):
    with TestClient(create_app(tmp_path / "t.db", settings=limited(actions="3/minute"))) as client:
        match, tokens = new_match(client)
        codes = []
        for _ in range(3):
            res = client.post(f"/api/matches/{match}/actions", json={"action": "nonsense"}, headers=bearer(tokens[0]))
            codes.append(res.status_code)
        assert 429 not in codes
        res = client.post(f"/api/matches/{match}/actions", json={"action": "nonsense"}, headers=bearer(tokens[0]))
        assert res.status_code == 429 and "retry-after" in res.headers
        with client.websocket_connect(f"/ws/matches/{match}?token={tokens[0]}") as ws:
            ws.receive_json()
            ws.send_json({"type": "act", "action": "nonsense"})
            msg = ws.receive_json()
            assert msg["status"] == 429 and msg["retry_after"] >= 1


def test_websocket_messages_and_sockets_per_seat_are_bounded(tmp_path):
    settings = limited(ws_messages="5/minute", sockets_per_seat=2)
    with TestClient(create_app(tmp_path / "t.db", settings=settings)) as client:
        match, tokens = new_match(client)
        url = f"/ws/matches/{match}?token={tokens[0]}"
        with client.websocket_connect(url) as a, client.websocket_connect(url) as b:
            a.receive_json(), b.receive_json()
            with client.websocket_connect(url) as third:
                msg = third.receive_json()
                assert msg["type"] == "error" and msg["status"] == 422 and "2" in msg["message"]
                with pytest.raises(WebSocketDisconnect) as closed:
                    third.receive_json()
                assert closed.value.code == 1008
            for _ in range(6):  # five are allowed a minute: the sixth is refused
                a.send_json({"type": "refresh"})
            seen = []
            while not any(m["type"] == "error" for m in seen) and len(seen) < 12:
                seen.append(a.receive_json())
            errors = [m for m in seen if m["type"] == "error"]
            assert errors and errors[0]["status"] == 429 and errors[0]["code"] == "rate_limited", seen
        with client.websocket_connect(url) as again:  # the closed sockets no longer count
            assert again.receive_json()["type"] == "state"


def test_rate_limits_are_set_from_the_command_line():
    from typer.testing import CliRunner

    from takujo.cli import _serve_settings
    settings = _serve_settings("random,ismcts:200", 3, ["create=5/minute", "sockets_per_seat=2", "idle_seconds=60"])
    assert settings.limits.create == "5/minute" and settings.limits.sockets_per_seat == 2
    assert settings.limits.idle_seconds == 60.0 and settings.bot_levels == ("random", "ismcts:200")
    from takujo.cli import app
    for bad in (["--limit", "create=lots"], ["--limit", "nosuch=1"], ["--limit", "sockets=-1"],
                ["--bot-levels", "ismcts:99999999"]):
        res = CliRunner().invoke(app, ["serve", "--no-browser", "--port", "1", *bad])
        assert res.exit_code == 2 and "Traceback" not in res.output, (bad, res.output)


def test_sockets_from_one_address_are_bounded_across_matches(tmp_path):
    with TestClient(create_app(tmp_path / "t.db", settings=limited(sockets_per_address=3))) as client:
        matches = [new_match(client)[0] for _ in range(2)]
        urls = [f"/ws/matches/{m}" for m in matches for _ in range(2)]
        opened = [client.websocket_connect(url).__enter__() for url in urls[:3]]
        try:
            for ws in opened:
                assert ws.receive_json()["type"] == "state"
            with client.websocket_connect(urls[3]) as fourth:
                msg = fourth.receive_json()
                assert msg["type"] == "error" and msg["status"] == 429, msg
                with pytest.raises(WebSocketDisconnect) as closed:
                    fourth.receive_json()
                assert closed.value.code == 1008
        finally:
            for ws in opened:
                ws.__exit__(None, None, None)
