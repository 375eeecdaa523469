"""The 戦国大戦 双 board lights an effect's targets by the kind its verb declares, in a real
browser: a stratagem aimed at a *player* (破城, ``raze``, registered for the test only:
tests/sengoku_taisen/verb_kit.py) lights the players' names, never the unit whose id is the
same number, and a click on a name plays it. The state and the card catalogue are this
process's (where the verb is registered), drawn by the board module the server serves."""
from __future__ import annotations

import json
from typing import Any

from takujo.present import Renderer
from takujo.web.payload import view_payload

from ..sengoku_taisen.verb_kit import raze_registered, ready_to_raze

DRAW = """async ([state, catalogue]) => {
  const common = await import("/static/common.js");
  const kit = await import("/static/board-kit.js");
  const board = await import("/static/boards/sengoku_taisen.js");
  await common.loadTexts("en");
  window.acted = null;
  const ctx = new kit.BoardContext({ lang: "en", book: new common.CardBook(catalogue), state,
                                     act: (notation) => { window.acted = notation; } });
  const root = document.createElement("div");
  root.id = "board";
  document.body.replaceChildren(root);
  board.render(root, state, ctx);
}"""


def _payload(tmp_path: Any) -> tuple[dict[str, Any], dict[str, Any], int]:
    with raze_registered():
        s, card = ready_to_raze(tmp_path)
        game = s.game
        state = view_payload(s, 0, Renderer(game, "en", markup=False))
        return json.loads(json.dumps(state)), game.export_catalogue(), card


def test_a_stratagem_aimed_at_a_player_lights_the_players_not_a_unit(module_server, page, tmp_path):
    state, catalogue, card = _payload(tmp_path)
    rows = [a for a in state["actions"] if a["verb"] == "stratagem"]
    assert {tuple(a["kinds"]) for a in rows} == {("card", "player")}
    page.goto(module_server.url + "/api/ui?lang=en")       # the server's origin, and no page script
    page.evaluate(DRAW, [state, catalogue])
    hand = page.locator(f'#board .sgt-hand-card[data-ref="{card}"]')
    unit = page.locator('#board [data-unit="1"]')
    assert unit.count() == 1                       # a unit whose id is a seat's number too
    hand.click()
    for seat in (0, 1):
        assert "target" in page.locator(f'#board .sgt-who[data-seat="{seat}"]').get_attribute("class")
    assert "target" not in (unit.get_attribute("class") or "")
    page.locator('#board .sgt-who[data-seat="1"]').click()
    assert page.evaluate("window.acted") == f"stratagem {card} 1"
