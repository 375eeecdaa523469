"""The board of いばらの姫と4人の騎士 lights an SP card's targets by the kind its verb declares:
a player-targeting card of a verb registered only in the test (tests/ibara/test_vocabulary.py)
lights the seats' names, never the squares of the same numbers; 瞬間移動 lights squares."""
from __future__ import annotations

from typing import Any

from takujo.present import Renderer
from takujo.web.payload import view_payload
from tests.ibara.helpers import card, give, table
from tests.ibara.test_vocabulary import content  # noqa: F401 (the fixture: the verb and its card)

from .browser import create_match, join
from .test_board_ibara import GAME, RENDER


def _payload(s: Any) -> dict[str, Any]:
    return {**view_payload(s, 0, Renderer(s.game, "en", markup=False)),
            "seats": [], "undo": False, "status": "running", "match": "probe"}


def _lit(probe: Any) -> tuple[set[int], set[int]]:
    """The seats whose names are lit, and the squares."""
    seats = probe.locator(".ibr-seat-head.target").evaluate_all("ns => ns.map(n => n.closest('.ibr-seat').dataset.seat)")
    squares = probe.locator(".ibr-square.target").evaluate_all("ns => ns.map(n => n.dataset.square)")
    return {int(x) for x in seats}, {int(x) for x in squares}


def test_an_sp_card_lights_its_targets_by_kind(module_server, page, content):  # noqa: F811
    s = table(players=3, content=str(content))
    curse, teleport = card(s, None, sp="curse"), card(s, None, sp="teleport")
    give(s, 0, curse, teleport)
    match = create_match(module_server, GAME, ["human"] * 3, seed=2)      # a still page to render probes on
    join(page, match["spectate_url"], lang="en")
    page.evaluate(RENDER, _payload(s))
    probe = page.locator("#ibr-probe")
    hand = probe.locator(".ibr-seat.mine .ibr-hand-cards")
    hand.locator(f".card[data-ref='{curse}']").click()     # 呪い: another player
    assert _lit(probe) == ({1, 2}, set())
    probe.locator(".ibr-seat[data-seat='2'] .ibr-seat-head").click()
    assert page.evaluate("window.__acted") == [f"sp {curse} 2"]
    hand.locator(f".card[data-ref='{teleport}']").click()  # 瞬間移動: a free numbered square
    seats, squares = _lit(probe)
    wanted = {a.args[1] for a in s.legal_actions(0) if a.verb == "sp" and a.args[0] == teleport}
    assert seats == set() and squares == wanted
