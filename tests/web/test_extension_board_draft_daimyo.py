"""The board offers a new place-targeting verb with no code of its own: a server started with
the extension of tests/draft_daimyo/raid.py (ドラフト戦国大名's 焼き討ち, ``raid``) serves a card
set holding it; clicking 焼き討ち as the card chosen this turn lights the provinces it may
burn — never the cards whose ids equal their indices — and clicking a province plays it."""
from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from tests.draft_daimyo import raid

from .browser import act_api, create_match, join, wait_turn_api
from .server import LiveServer


@pytest.fixture(scope="module")
def raid_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("ext") / "takujo.db",
                        env={"TAKUJO_PLUGINS": "tests.draft_daimyo.raid_plugin"}).start()
    try:
        yield server
    finally:
        server.stop()


def raids(state: dict) -> list[dict]:
    return [a for a in state["actions"] if a["verb"] == "play" and "Burning Raid" in a["label"]]


def toward_raid(state: dict, rng: random.Random) -> str:
    """Draft and choose 焼き討ち whenever it is offered; anything else at random."""
    wanted = [a for a in state["actions"] if a["verb"] in ("pick", "choose") and "Burning Raid" in a["label"]]
    return (wanted[0] if wanted else rng.choice(state["actions"]))["notation"]


def test_choosing_the_raid_lights_provinces_and_a_province_plays_it(raid_server, page) -> None:
    status, made = raid_server.call("POST", "/api/cardsets", {"game": "draft_daimyo", "option": "cards",
                                                             "title": "raid", "text": raid.card_text()})
    assert status in (200, 201), made
    rng = random.Random(5)
    for seed in range(1, 20):
        match = create_match(raid_server, f"draft_daimyo(cards={made['set']})",
                             ["human", "bot:random", "bot:random", "bot:random"], seed=seed)
        url = match["seats"][0]["join_url"]
        token = url.split("token=")[1].split("&")[0]
        for _ in range(120):
            state = wait_turn_api(raid_server, match["match"], token)
            if state["status"] == "finished" or raids(state):
                break
            act_api(raid_server, match["match"], token, state, toward_raid(state, rng))
        if state["status"] != "finished" and raids(state):
            break
    else:
        pytest.fail("no match offered 焼き討ち to seat 0")
    offered = raids(state)
    assert all(a["kinds"] == ["card", "place"] for a in offered)
    provinces = {str(a["args"][1]) for a in offered}
    card = str(offered[0]["args"][0])
    join(page, url)
    page.click(f'#board .dd-mine .dd-chosen .card[data-ref="{card}"]')
    lit = page.locator("#board .target")
    lit.first.wait_for()
    named = set(page.eval_on_selector_all("#board .target", "(ns) => ns.map((n) => n.dataset.province ?? 'card:' + (n.dataset.ref ?? n.dataset.player ?? ''))"))
    assert named == provinces, named                   # the provinces, and no card or name at all
    before = int(page.evaluate("document.body.dataset.version"))
    where = sorted(provinces)[0]
    page.click(f'#board .dd-prov.target[data-province="{where}"]')
    page.wait_for_function(f"Number(document.body.dataset.version) > {before}")
    assert not page.js_errors
