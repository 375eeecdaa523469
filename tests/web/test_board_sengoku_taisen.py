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
from typing import Any

import pytest

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
            page.evaluate("document.querySelectorAll('.popover.menu').forEach((n) => { n.dataset.testOld = 'yes'; })")
            target.click()
            targeted = True
            # a target of one action plays it; of several, it opens its own menu (at once, in the click)
            own = page.locator(".popover.menu:not([data-test-old]) .menu-item")
            if own.count():
                own.first.click()
        else:
            items = page.locator(".popover.menu .menu-item")
            items.nth(rng.randrange(items.count())).click()
    page.wait_for_function(f"Number(document.body.dataset.version) > {before} || document.body.dataset.status === 'finished'",
                           timeout=60_000)
    return notations[0] if len(notations) == 1 else "?", targeted


@pytest.mark.slow
def test_two_people_play_a_match_by_clicking_the_board(module_server, browser):
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
        while actions < 60:
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


# ----- readable exhaustion, whole texts, copies told apart, soldiers numbered from 1 ----------------
def _drive(server: Any, mid: str, tokens: list[str], until: Any, prefer: list[str]) -> dict[str, Any]:
    """Play both seats over the API (the first legal action of the first verb of `prefer`)
    until `until(spectator's state)` holds; returns that state."""
    from .browser import act_api
    for _ in range(200):
        spectator = _state(server, mid)
        if until(spectator):
            return spectator
        seat = spectator["pending"]["players"][0]
        st = _state(server, mid, tokens[seat])
        acts = st["actions"]
        pick = next((a for verb in prefer for a in acts if a["notation"].startswith(verb)), acts[0])
        act_api(server, mid, tokens[seat], st, pick["notation"])
    raise AssertionError("the match never reached the state the test needs")


def _angle(page: Any, selector: str) -> list[float]:
    """How far each element is turned (its `transform` and `rotate` together), in degrees."""
    return page.locator(selector).evaluate_all("""ns => ns.map((n) => {
        const s = getComputedStyle(n);
        const m = new DOMMatrix(s.transform === 'none' ? undefined : s.transform);
        const r = s.rotate && s.rotate !== 'none' ? parseFloat(s.rotate) : 0;
        return Math.atan2(m.b, m.a) * 180 / Math.PI + r;
    })""")


def test_exhausted_cards_lean_a_little_with_a_badge_and_upright_text(module_server, page):
    match = create_match(module_server, GAME, ["human", "human"], seed=11)
    mid = match["match"]
    tokens = [match["seats"][0]["token"], match["seats"][1]["token"]]
    _drive(module_server, mid, tokens, lambda st: len(st["view"]["public"]["exhausted"]) > 0,
           ["keep", "koku", "deploy", "end", "skip"])
    join(page, match["seats"][0]["join_url"])
    tired = page.locator('#board [data-state="exhausted"]')
    tired.first.wait_for()
    assert tired.count() >= 1
    page.evaluate("Promise.all(document.getElementById('board').getAnimations({ subtree: true }).map((a) => a.finished))")   # at rest
    for angle in _angle(page, '#board [data-state="exhausted"]'):
        assert 0 < abs(angle) <= 10, angle          # a tilt, not a quarter turn
    for i in range(tired.count()):
        card = tired.nth(i)
        badge = card.locator(".sgt-tired-badge")
        assert badge.is_visible() and badge.inner_text().strip()
        box = card.bounding_box()
        if "sgt-koku-card" in card.get_attribute("class"):
            assert box["width"] > box["height"]    # as wide as ever: not lying on its side
        # dimmed, next to a ready card of the same kind
        assert card.evaluate("(n) => getComputedStyle(n).filter") != "none"
    for angle in _angle(page, '#board [data-state="ready"]'):
        assert abs(angle) < 0.5


def test_hand_cards_show_their_whole_text(module_server, page):
    match = create_match(module_server, GAME, ["human", "human"], seed=11)
    mid = match["match"]
    _, catalogue = module_server.call("GET", f"/api/matches/{mid}/catalogue")
    texts = {c["id"]: c.get("text_en") or "" for c in catalogue["cards"]}
    join(page, match["seats"][0]["join_url"])
    page.wait_for_selector("#board .sgt-hand-card")
    hand = _state(module_server, mid, match["seats"][0]["token"])["view"]["zones"]["hand"][0]
    cards = page.locator("#board .sgt-hand-card")
    assert cards.count() == len(hand)
    long_texts = 0
    for i, c in enumerate(hand):
        full = texts[catalogue["instances"][c]]
        if not full:
            continue
        rules = cards.nth(i).locator(".sgt-rules")
        assert rules.inner_text().split() == full.split()
        # nothing of it is cut: neither the text box nor the card overflows
        cut = rules.evaluate("(n) => [n.scrollHeight - n.clientHeight, n.closest('.card').scrollHeight - n.closest('.card').clientHeight]")
        assert cut[0] <= 1 and cut[1] <= 1, (c, cut)
        long_texts += len(full) > 60
    assert long_texts >= 1


def test_copies_of_a_card_in_hand_have_labels_of_their_own(module_server, page):
    match = create_match(module_server, GAME, ["human", "human"], seed=1)   # seat 0 holds two of a card
    mid = match["match"]
    tokens = [match["seats"][0]["token"], match["seats"][1]["token"]]
    _, catalogue = module_server.call("GET", f"/api/matches/{mid}/catalogue")
    st = _drive(module_server, mid, tokens, lambda s: s["view"]["public"]["phase"] == "koku" and s["pending"]["players"] == [0],
                ["keep", "koku", "end", "skip"])
    join(page, match["seats"][0]["join_url"])
    page.wait_for_function(f"Number(document.body.dataset.version) >= {st['version']} && document.body.dataset.toAct === 'me'")
    hand = _state(module_server, mid, tokens[0])["view"]["zones"]["hand"][0]
    by_card: dict[int, list[int]] = {}
    for c in hand:
        by_card.setdefault(catalogue["instances"][c], []).append(c)
    twins = next(v for v in by_card.values() if len(v) > 1)
    labels: dict[int, dict[str, str]] = {}
    for c in twins:
        page.keyboard.press("Escape")
        page.click(f'#board .sgt-hand-card[data-ref="{c}"]')
        items = page.locator(".popover.menu .menu-item")
        items.first.wait_for()
        labels[c] = {items.nth(i).get_attribute("data-notation"): items.nth(i).inner_text() for i in range(items.count())}
    a, b = twins[:2]
    assert set(labels[a]) and set(labels[a]).isdisjoint(labels[b])                # their notations differ ...
    assert set(labels[a].values()).isdisjoint(labels[b].values()), labels          # ... and so do their labels
    for c in twins:                                                                # and the cards say which copy they are
        assert page.locator(f'#board .sgt-hand-card[data-ref="{c}"] .sgt-copy').count() == 1


def test_a_summoned_soldier_is_numbered_from_one(module_server, page):
    match = create_match(module_server, GAME, ["human", "human"], seed=11)
    mid = match["match"]
    join(page, match["seats"][0]["join_url"])
    page.wait_for_selector("#board .sgt-table")
    st = _state(module_server, mid, match["seats"][0]["token"])
    # the first soldier of a match is token 10000 (state.TOKEN_BASE); draw the board with one in play
    pub, z = st["view"]["public"], st["view"]["zones"]
    z["summons"][0] = [10000]
    pub["tokens"]["10000"] = {"owner": 0, "strength": 1000, "siege": 1, "unit": "infantry"}
    pub["strength"]["10000"] = 1000
    pub["siege"]["10000"] = 1
    page.evaluate("""async ([st, mid]) => {
        const kit = await import('/static/board-kit.js');
        const common = await import('/static/common.js');
        const board = await import('/static/boards/sengoku_taisen.js');
        const book = new common.CardBook(await common.api(`/api/matches/${mid}/catalogue`));
        board.render(document.getElementById('board'), st, new kit.BoardContext({ lang: 'en', book, state: st, act: () => {} }));
    }""", [st, mid])
    name = page.locator('#board [data-unit="10000"] .card-name').inner_text()
    assert name == "Soldier #1", name


def test_a_player_concedes_from_the_page_after_confirming(module_server, page):
    """SGT-WIN-04: a player may concede at any time — here while the other is to act. The
    page offers it as a button beside the decision; it asks first, and a refusal changes
    nothing; confirmed, the match is over and the other player has won."""
    match = create_match(module_server, GAME, ["human", "human"], seed=12)
    mid = match["match"]
    states = [_state(module_server, mid, s["token"]) for s in match["seats"]]
    idle = 0 if not states[0]["legal"] else 1
    join(page, match["seats"][idle]["join_url"])
    button = page.locator('#decision button.always[data-notation="concede"]')
    button.wait_for()
    asked: list[str] = []

    def answer(dialog: Any, accept: bool) -> None:
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    page.once("dialog", lambda d: answer(d, False))
    button.click()
    page.wait_for_function("true")
    assert asked and "concede" in asked[0].lower()
    assert _state(module_server, mid)["version"] == states[idle]["version"]
    page.once("dialog", lambda d: answer(d, True))
    button.click()
    page.wait_for_function("document.body.dataset.status === 'finished'", timeout=60_000)
    assert _state(module_server, mid)["outcome"]["winners"] == [1 - idle]
    assert page.locator("#decision button.always").count() == 0
