"""No payload the server sends a seat (or a spectator) depends on a card hidden from it.

Every game is played to its end by random "human" clients over the WebSocket and the API,
with bots in the other seats. Every message each socket received is then checked against
the game: recomputed from a twin state in which the cards hidden from that seat are
shuffled (the conformance kit's non-interference machinery), it must come out identical —
a payload that carried, or depended on, a hidden card would differ. No message ever holds
another seat's token.
"""
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import takujo
from takujo.core import Rng, shuffle_unseen
from takujo.present import Renderer
from takujo.web.app import create_app

from .limits import GENEROUS
from takujo.web.payload import view_payload

from tests.conformance.test_contracts import _committed_by_others

SEATS = {
    "fuutei": ("fuutei(players=3)", ["human", "human", "bot:random"]),
    "sengoku_taisen": ("sengoku_taisen", ["human", "human"]),
    "ibara": ("ibara(players=3)", ["human", "bot:random", "human"]),
    "draft_daimyo": ("draft_daimyo", ["human", "bot:random", "human", "bot:random"]),
}
COMPARED = ("version", "view", "legal", "actions", "prompt", "pending", "events", "cursor", "outcome", "outcome_text")


def _drain(ws: Any, log: list[dict[str, Any]], version: int) -> dict[str, Any]:
    """Receive until the socket has the state at `version` (or later); keep every message."""
    while not log or log[-1]["version"] < version:
        msg = ws.receive_json()
        if msg["type"] == "error":  # a bot moved first: the action was stale, or no longer ours
            assert msg["status"] in (403, 409), msg
            continue
        assert msg["type"] == "state", msg
        log.append(msg)
    return log[-1]


@pytest.mark.parametrize("name", sorted(SEATS))
def test_no_payload_depends_on_a_card_hidden_from_its_seat(name, tmp_path: Path):
    spec, seats = SEATS[name]
    rng = random.Random(17)
    with TestClient(create_app(tmp_path / "leak.db", settings=GENEROUS)) as client:
        body = client.post("/api/matches", json={"game": spec, "seats": seats, "seed": 5}).json()
        match_id = body["match"]
        tokens = {s["seat"]: s["token"] for s in body["seats"] if "token" in s}
        service = client.app.state.service
        received: dict[int | None, list[dict[str, Any]]] = {seat: [] for seat in [*tokens, None]}
        api_states: list[tuple[int, dict[str, Any]]] = []
        sockets = {}
        try:
            for seat in received:
                query = f"?token={tokens[seat]}&lang={'ja' if seat == 0 else 'en'}" if seat is not None else "?lang=en"
                sockets[seat] = client.websocket_connect(f"/ws/matches/{match_id}{query}").__enter__()
            for _ in range(5000):
                match = service.matches[match_id]
                version = match.state.version
                latest = {seat: _drain(ws, received[seat], version) for seat, ws in sockets.items()}
                if match.state.outcome is not None:
                    break
                if not set(match.to_act()) & set(tokens):  # a bot is to act: wait for its move
                    _drain(sockets[None], received[None], version + 1)
                    continue
                actors = [s for s in tokens if latest[s]["legal"] and latest[s]["version"] == match.state.version]
                if not actors:
                    continue
                seat = rng.choice(actors)
                if rng.random() < 0.25:  # now and then through the API
                    state = client.get(f"/api/matches/{match_id}/state",
                                       headers={"Authorization": f"Bearer {tokens[seat]}"}).json()
                    api_states.append((seat, state))
                    if not state["legal"]:
                        continue
                    client.post(f"/api/matches/{match_id}/actions", json={"version": state["version"],
                                "action": rng.choice(state["legal"])}, headers={"Authorization": f"Bearer {tokens[seat]}"})
                else:
                    sockets[seat].send_json({"type": "act", "version": latest[seat]["version"],
                                             "action": rng.choice(latest[seat]["legal"])})
            else:
                pytest.fail("the game did not end")
        finally:
            for ws in sockets.values():
                ws.__exit__(None, None, None)
        match = service.matches[match_id]
        game = match.game
        actions = [(line["player"], line["action"]) for line in match.record(None) if line["type"] == "step"]

    # every state of the game, by version
    states = [game.new_state(5)]
    for player, notation in actions:
        nxt = states[-1].clone()
        nxt.apply(notation, player)
        states.append(nxt)
    assert states[-1].outcome is not None
    renderers = {lang: Renderer(game, lang, markup=False) for lang in ("ja", "en")}
    check = Rng(99)
    compared = 0
    messages = [(seat, m, prev["cursor"] if prev else None)
                for seat, log in received.items() for prev, m in zip([None, *log[:-1]], log)]
    messages += [(seat, m, None) for seat, m in api_states]
    for seat, msg, since in messages:
        text = json.dumps(msg, ensure_ascii=False)
        for other, token in tokens.items():
            assert token not in text, f"seat {seat} was sent the token of seat {other}"
        assert "token_hash" not in text
        state = states[msg["version"]]
        truth = view_payload(state, seat, renderers[msg["lang"]], since)
        assert {k: msg[k] for k in COMPARED} == {k: truth[k] for k in COMPARED}, \
            f"message to seat {seat} at version {msg['version']} is not its view"
        if _committed_by_others(state, {seat}):
            continue
        for _ in range(2):
            twin = shuffle_unseen(state, {seat}, check)
            shown = view_payload(twin, seat, renderers[msg["lang"]], since)
            assert {k: msg[k] for k in COMPARED} == {k: shown[k] for k in COMPARED}, \
                f"{name}: the message to seat {seat} at version {msg['version']} changes with cards hidden from it"
            compared += 1
    assert compared > 50
