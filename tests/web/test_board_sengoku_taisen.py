"""The 戦国大戦 双 board in real browsers: two people, each in their own browser context, play
one match against each other by clicking the board (cards, units, the castle, the
kokuryoku zone, the okugi, the buttons on the table) for several turns.

Each page must show its own hand as named cards (the names of this match's decks, in the
page's language), the other player's hand only as backs whose count is the other seat's
real hand size (from the API with that seat's token), the walls and face-down kokuryoku as
counts, and every legal action bound to something on the board. Both pages end at the
version the server has.
"""
from __future__ import annotations

import random
import time
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .browser import create_match, join, version, wait_my_turn_or_end

GAME = "sengoku_taisen(deck1=翠,deck2=黒)"   # not the catalogue's default decks (蒼 and 紅)


def _state(server: Any, match: str, token: str | None = None) -> dict[str, Any]:
    status, body = server.call("GET", f"/api/matches/{match}/state", token=token)
    assert status == 200, body
    return body


def _names(server: Any, match: str, lang: str) -> dict[int, str]:
    """Instance id -> card name in `lang`, from the catalogue of this match's decks."""
    status, cat = server.call("GET", f"/api/matches/{match}/catalogue")
    assert status == 200, cat
    by_id = {c["id"]: c for c in cat["cards"]}
    return {i: by_id[number][f"name_{lang}"] for i, number in enumerate(cat["instances"])}


def _check_page(page: Any, seat: int, lang: str, names: dict[int, str], states: list[dict[str, Any]]) -> None:
    """What `page` (seat `seat`) shows against what each seat really holds."""
    mine, other = states[seat]["view"]["zones"], states[1 - seat]["view"]["zones"]
    # my hand: named cards, in hand order, the names of this match's decks
    hand = page.locator("#board .sgt-hand.mine .sgt-hand-card")
    assert hand.count() == len(mine["hand"][seat])
    shown = [hand.nth(i).locator(".card-name").inner_text() for i in range(hand.count())]
    assert shown == [names[c] for c in mine["hand"][seat]]
    assert [int(hand.nth(i).get_attribute("data-ref")) for i in range(hand.count())] == mine["hand"][seat]
    # the other hand: backs only, as many as the other seat really holds
    theirs = len(other["hand"][1 - seat])
    assert isinstance(mine["hand"][1 - seat], int) and mine["hand"][1 - seat] == theirs
    backs = page.locator("#board .sgt-side.far .sgt-hand-backs")
    assert backs.get_attribute("data-count") == str(theirs)
    assert backs.locator(".card.back").count() == min(theirs, 10)
    assert backs.locator("[data-ref]").count() == 0
    # their face-down kokuryoku: backs, as many as they have; walls: counts for both
    far = page.locator("#board .sgt-side.far")
    assert far.locator(".sgt-koku-down .card.back").count() == len(other["koku_down"][1 - seat])
    assert far.locator(".sgt-koku-down [data-ref]").count() == 0
    assert far.locator(".sgt-walls").get_attribute("data-count") == str(mine["walls"][1 - seat])
    assert page.locator("#board .sgt-side.near .sgt-walls").get_attribute("data-count") == str(mine["walls"][seat])
    # units in play are on the table with their current 兵力
    for u, strength in states[seat]["view"]["public"]["strength"].items():
        assert page.locator(f'#board [data-unit="{u}"]').get_attribute("data-strength") == str(strength)
    if lang == "ja":
        assert "国力" in page.locator("#board").inner_text()
    else:
        assert "Kokuryoku" in page.locator("#board").inner_text()


def _click_on_board(page: Any, rng: random.Random, legal: list[str]) -> tuple[str, bool]:
    """Play one legal action by clicking the board: a bound element, then (when it carries
    several) one of the targets it lights up, or an item of its menu. Returns what was
    chosen, as far as the page tells, and whether a target was clicked."""
    before = version(page)
    nodes = page.locator("#board [data-actions]")
    bound = set()
    for i in range(nodes.count()):
        bound.update(nodes.nth(i).get_attribute("data-actions").split("|"))
    assert bound == set(legal), f"not bound on the board: {set(legal) - bound}"
    assert page.locator("#board .sgt-others").count() == 0
    # end the turn now and then, else play something else on the table
    picks = [i for i in range(nodes.count()) if nodes.nth(i).get_attribute("data-actions") != "end"]
    ends = [i for i in range(nodes.count()) if nodes.nth(i).get_attribute("data-actions") == "end"]
    index = rng.choice(ends) if ends and (not picks or rng.random() < 0.15) else rng.choice(picks)
    node = nodes.nth(index)
    notations = node.get_attribute("data-actions").split("|")
    node.click()
    targeted = False
    if len(notations) > 1:
        page.locator(".popover.menu .menu-item").first.wait_for()
        targets = page.locator("#board .target")
        if targets.count() and rng.random() < 0.75:
            target = targets.nth(rng.randrange(targets.count()))
            target.click()
            targeted = True
            try:
                page.wait_for_function(f"Number(document.body.dataset.version) > {before}", timeout=3_000)
            except PlaywrightTimeout:
                # the target matches several of the actions: its own menu is open
                page.locator(".popover.menu .menu-item").first.click()
        else:
            items = page.locator(".popover.menu .menu-item")
            items.nth(rng.randrange(items.count())).click()
    page.wait_for_function(f"Number(document.body.dataset.version) > {before} || document.body.dataset.status === 'finished'",
                           timeout=15_000)
    return notations[0] if len(notations) == 1 else "?", targeted


def test_two_people_play_a_match_by_clicking_the_board(module_server, browser):
    started = time.time()
    match = create_match(module_server, GAME, ["human", "human"], seed=11)
    mid = match["match"]
    tokens = [match["seats"][0]["token"], match["seats"][1]["token"]]
    langs = ["en", "ja"]
    contexts, pages, errors = [], [], []
    for seat in (0, 1):
        context = browser.new_context(viewport={"width": 1280, "height": 900} if seat == 0 else {"width": 390, "height": 844})
        page = context.new_page()
        page.on("pageerror", lambda exc, seat=seat: errors.append(f"seat {seat}: {exc}"))
        contexts.append(context)
        pages.append(page)
    try:
        for seat in (0, 1):
            join(pages[seat], match["seats"][seat]["join_url"], lang=langs[seat])
            pages[seat].wait_for_selector("#board .sgt-table")
        game_string = _state(module_server, mid)["game_string"]
        assert "deck1=翠" in game_string and "deck2=黒" in game_string
        names = [_names(module_server, mid, lang) for lang in langs]

        rng = random.Random(3)
        actions = targeted = 0
        turns_seen = set()
        while actions < 60 and time.time() - started < 45:
            spectator = _state(module_server, mid)
            if spectator["status"] == "finished":
                break
            turns_seen.add(spectator["view"]["public"]["turn"])
            if actions >= 30 and len(turns_seen) >= 4:
                break
            seat = spectator["pending"]["players"][0]
            page = pages[seat]
            assert wait_my_turn_or_end(page) == "me"
            states = [_state(module_server, mid, tokens[s]) for s in (0, 1)]
            page.wait_for_function(f"Number(document.body.dataset.version) === {states[seat]['version']}")
            if actions % 4 == 0:
                _check_page(page, seat, langs[seat], names[seat], states)
            # the other page waits, drawing the same position: nothing to click on it
            other = pages[1 - seat]
            other.wait_for_function(f"Number(document.body.dataset.version) === {states[seat]['version']}")
            assert other.locator("#board [data-actions]").count() == 0
            _, hit = _click_on_board(page, rng, states[seat]["legal"])
            targeted += hit
            actions += 1

        assert actions >= 20 or _state(module_server, mid)["status"] == "finished"
        assert len(turns_seen) >= 3, turns_seen
        assert targeted >= 1, "no action was played by clicking a target"
        final = _state(module_server, mid)
        for seat in (0, 1):
            pages[seat].wait_for_function(f"Number(document.body.dataset.version) === {final['version']}")
        assert version(pages[0]) == version(pages[1]) == final["version"]
        states = [_state(module_server, mid, tokens[s]) for s in (0, 1)]
        for seat in (0, 1):
            _check_page(pages[seat], seat, langs[seat], names[seat], states)
    finally:
        for context in contexts:
            context.close()
    assert not errors, f"JavaScript errors on the pages: {errors}"
