"""The board of 風帝伝説FIGHTER in a real browser: one whole game played by clicking the board —
cards in hand, a card and then its target (equipment → character, character → region),
regions, the battle's buttons — until the outcome panel shows; the hand shows as named cards,
the other player's as backs with the count the API gives a spectator."""
from __future__ import annotations

from typing import Any

import pytest

from .browser import create_match, join, version, wait_my_turn_or_end

GAME = "fuutei(players=3)"
SEED = 21                 # a short game against two heuristic bots: 56 decisions of seat 0, with
                          # equipment, defenders, invasions, attacks, supports and persuasions
PRIORITY = ["attack", "persuade", "support", "invade", "play", "equip", "guard", "discard", "done",
            "tawake", "allow", "end", "pass", "nosupport", "decline", "hold", "unguard"]


def choose(state: dict[str, Any]) -> dict[str, Any]:
    """A plain, deterministic way to play: fight, fill the party, guard undefended regions while
    keeping a character free to invade, never loop over defenders."""
    by: dict[str, list[dict[str, Any]]] = {}
    for a in state["actions"]:
        by.setdefault(a["verb"], []).append(a)
    view = state["view"]
    pub = view["public"]
    me = state["seat"]
    guard = {int(r): c for r, c in pub["guard"].items()}
    if "guard" in by:
        guarding = set(guard.values())
        free = [c for c in view["zones"]["party"][me] if c not in guarding]
        fresh = [a for a in by["guard"] if a["args"][0] not in guard and a["args"][1] not in guarding]
        if not fresh or (pub["phase"] == "main" and len(free) < 2):
            del by["guard"]
        else:
            by["guard"] = fresh
    if "tawake" in by:
        del by["tawake"]           # keep it: let every card take effect
    for verb in PRIORITY:
        if verb in by:
            return by[verb][0]
    return state["actions"][0]


def click_on_board(page: Any, action: dict[str, Any]) -> str:
    """Play `action` by clicking the board: the element that carries it (a card in hand, a
    character, a region, a button), then — when it carries several — the lit target or the
    menu item. Returns how: "board", "target" or "list" (the fallback)."""
    notation = action["notation"]
    found = page.evaluate("""(n) => {
        const nodes = [...document.querySelectorAll('#board [data-actions]')]
          .filter((e) => e.dataset.actions.split('|').includes(n));
        const rank = (e) => e.dataset.hand !== undefined ? 0 : e.dataset.char !== undefined ? 1 : e.dataset.region !== undefined ? 2 : 3;
        nodes.sort((a, b) => rank(a) - rank(b));
        if (!nodes.length) return null;
        nodes.forEach((e, i) => { e.dataset.testPick = i === 0 ? 'yes' : ''; });
        return { count: nodes[0].dataset.actions.split('|').length, self: nodes[0].dataset.self ?? null };
    }""", notation)
    if found is None:
        page.click(f'#decision button.action[data-notation="{notation}"]')
        return "list"
    page.click('#board [data-test-pick="yes"]')
    if found["count"] == 1:
        return "board"
    # several actions: the targets light up; click the one this action names, else the menu
    others = [str(x) for x in action["args"] if str(x) != found["self"]]
    for value in others:
        target = page.locator(f'#board .target[data-ref="{value}"]')
        if target.count():
            target.first.click()
            item = page.locator(f'.popover.menu .menu-item[data-notation="{notation}"]')
            if item.count():
                item.click()
            return "target"
    page.click(f'.popover.menu .menu-item[data-notation="{notation}"]')
    return "board"


def check_hands(server: Any, page: Any, match: str, token: str) -> None:
    """Your hand as named cards in your language; the other hand as backs and its count."""
    _, mine = server.call("GET", f"/api/matches/{match}/state", token=token)
    _, spectator = server.call("GET", f"/api/matches/{match}/state")
    _, catalogue = server.call("GET", "/api/games/fuutei/catalogue")
    by_instance = {i: c for c in catalogue["cards"] for i in c["instances"]}
    hand = mine["view"]["zones"]["hand"][0]
    shown = page.locator("#board .ft-hand .card .card-name").all_inner_texts()
    assert shown == [by_instance[c]["name_en"] for c in hand]
    assert page.locator("#board .ft-hand .card.back").count() == 0
    for seat in (1, 2):
        other = spectator["view"]["zones"]["hand"][seat]
        assert isinstance(other, int) and other == mine["view"]["zones"]["hand"][seat]
        area = page.locator(f'#board .ft-area[data-seat="{seat}"]')
        assert area.locator(".ft-hand-count").get_attribute("data-count") == str(other)
        assert area.locator(".ft-hand-count .card.back").count() == min(other, 6)
        assert area.locator(".ft-hand-count .card:not(.back)").count() == 0
        regions = spectator["view"]["zones"]["regions"][seat]
        assert area.locator(".ft-regions .card").count() == len(regions)
    deck = spectator["view"]["zones"]["deck"]
    assert page.locator("#board .ft-deck .count").get_attribute("data-count") == str(deck)


@pytest.mark.slow
def test_a_whole_game_of_fuutei_is_played_on_the_board(module_server, page):
    match = create_match(module_server, GAME, ["human", "bot:heuristic", "bot:heuristic"], seed=SEED)
    url = match["seats"][0]["join_url"]
    token = url.split("token=")[1].split("&")[0]
    join(page, url)
    page.wait_for_selector("#board .ft-area.mine")
    assert page.locator("#board .ft-area").count() == 3
    ways: dict[str, int] = {"board": 0, "target": 0, "list": 0}
    checked = False
    for _ in range(400):
        if wait_my_turn_or_end(page, timeout=60_000) == "over":
            break
        _, state = module_server.call("GET", f"/api/matches/{match['match']}/state", token=token)
        if not state["actions"]:
            page.wait_for_timeout(30)
            continue
        page.wait_for_function(f"Number(document.body.dataset.version) >= {state['version']}")
        if not checked and state["view"]["public"]["phase"] == "main":
            check_hands(module_server, page, match["match"], token)
            checked = True
        before = version(page)
        ways[click_on_board(page, choose(state))] += 1
        page.wait_for_function(f"Number(document.body.dataset.version) > {before} || document.body.dataset.status === 'finished'",
                               timeout=60_000)
    else:
        raise AssertionError("the game did not end")
    assert checked
    # every decision was made on the board (none from the list), some as a card and then its target
    assert ways["list"] == 0 and ways["board"] > 0 and ways["target"] >= 1, ways
    outcome = page.locator("#outcome")
    outcome.wait_for(state="visible")
    assert page.locator("#outcome .outcome-text").inner_text().strip()
    link = page.locator('#outcome a[download]')
    assert "/record" in link.get_attribute("href")
    _, summary = module_server.call("GET", f"/api/matches/{match['match']}")
    assert summary["status"] == "finished"
    assert page.locator("#board .ft-area.winner").count() >= 1
    page.set_viewport_size({"width": 390, "height": 844})   # a phone: the board fits its width
    page.wait_for_timeout(100)
    assert page.evaluate("(() => { const b = document.querySelector('#board'); return b.scrollWidth <= b.clientWidth + 1; })()")
