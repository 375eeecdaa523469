"""The board offers a new player-targeting verb with no code of its own: a server started with
the extension of tests/extension/steal.py (風帝伝説FIGHTER's 盗賊, ``steal``) serves a card
set holding it; choosing 盗賊 in hand lights the names of the players it may target — never
the cards whose ids equal their seats — and clicking a name plays it."""
from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from tests.extension import steal

from .browser import act_api, create_match, join, wait_turn_api
from .server import LiveServer


@pytest.fixture(scope="module")
def thief_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("ext") / "takujo.db",
                        env={"TAKUJO_PLUGINS": "tests.extension.steal_plugin"}).start()
    try:
        yield server
    finally:
        server.stop()


def steals(state: dict) -> list[dict]:
    return [a for a in state["actions"] if a["verb"] == "hold" and "Thief" in a["label"]]


def test_choosing_the_thief_lights_players_and_a_name_plays_it(thief_server, page) -> None:
    status, made = thief_server.call("POST", "/api/cardsets", {"game": "fuutei", "option": "cards",
                                                              "title": "thief", "text": steal.card_text()})
    assert status in (200, 201), made
    rng = random.Random(5)
    for seed in range(1, 40):
        match = create_match(thief_server, f"fuutei(players=3,cards={made['set']})",
                             ["human", "bot:random", "bot:random"], seed=seed)
        url = match["seats"][0]["join_url"]
        token = url.split("token=")[1].split("&")[0]
        for _ in range(60):
            state = wait_turn_api(thief_server, match["match"], token)
            if state["status"] == "finished" or steals(state):
                break
            act_api(thief_server, match["match"], token, state, rng.choice(state["actions"])["notation"])
        if state["status"] != "finished" and steals(state):
            break
    else:
        pytest.fail("no match offered 盗賊 to seat 0")
    offered = steals(state)
    assert all(a["kinds"] == ["card", "player"] for a in offered)
    victims = {str(a["args"][1]) for a in offered}
    card = str(offered[0]["args"][0])
    join(page, url)
    page.click(f'#board [data-hand="{card}"]')
    lit = page.locator("#board .target")
    lit.first.wait_for()
    named = set(page.eval_on_selector_all("#board .target", "(ns) => ns.map((n) => n.dataset.player ?? 'card:' + (n.dataset.ref ?? ''))"))
    assert named == victims, named                     # the players' names, and no card at all
    before = int(page.evaluate("document.body.dataset.version"))
    victim = sorted(victims)[0]
    page.click(f'#board .target[data-player="{victim}"]')
    page.wait_for_function(f"Number(document.body.dataset.version) > {before}")
    assert not page.js_errors
