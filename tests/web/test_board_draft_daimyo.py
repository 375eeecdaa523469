"""The board of ドラフト戦国大名 in a real browser: a person in seat 0 against three bots
drafts, chooses, plays and marches by clicking the board (packet cards, hand cards, the
chosen card, a province and then its destination), and what the board shows is checked
against the seat's state from the API: the sixteen provinces of the catalogue, the packet's
named cards, the other daimyo's packets and hands as backs with their counts, and the
soldiers and holders of every province."""
from __future__ import annotations

import random
from typing import Any

import pytest

from .browser import create_match, join, version, wait_my_turn_or_end

BOTS = ["human", "bot:random", "bot:random", "bot:random"]


def api_state(server: Any, match: str, token: str) -> dict[str, Any]:
    status, body = server.call("GET", f"/api/matches/{match}/state", token=token)
    assert status == 200, body
    return body


def synced(page: Any, server: Any, match: str, token: str) -> dict[str, Any]:
    """The seat's state from the API at the version the page shows (bots keep playing, so
    fetch until the two agree)."""
    for _ in range(50):
        st = api_state(server, match, token)
        page.wait_for_function(f"Number(document.body.dataset.version) >= {st['version']}", timeout=60_000)
        if version(page) == st["version"]:
            return st
    raise AssertionError("the page and the API never showed the same version")


def check_table(page: Any, st: dict[str, Any], catalogue: dict[str, Any]) -> None:
    view, pub, z = st["view"], st["view"]["public"], st["view"]["zones"]
    names = {c["id"]: c["name_en"] for c in catalogue["cards"]}
    # the provinces: soldiers and holders as the view has them
    shown = page.locator("#board .dd-map .dd-prov").evaluate_all(
        "ns => ns.map(n => ({i: +n.dataset.province, owner: +n.dataset.owner, soldiers: +n.dataset.soldiers,"
        " token: n.querySelector('.dd-soldiers') && n.querySelector('.dd-soldiers').textContent}))")
    assert [p["i"] for p in shown] == list(range(16))
    for p in shown:
        i = p["i"]
        assert p["soldiers"] == pub["soldiers"][i] and p["owner"] == pub["owner"][i], (i, p, pub)
        if pub["owner"][i] == -2:          # an empty province has no soldiers and no token
            assert pub["soldiers"][i] == 0 and p["token"] is None
        else:
            assert p["token"] == str(pub["soldiers"][i]), (i, p)
    # my packet and hand: named cards, the very ones of the view
    for zone, cls in (("packets", "dd-packet"), ("hand", "dd-hand")):
        mine = z[zone][0]
        refs = page.locator(f"#board .dd-mine .{cls} .card").evaluate_all(
            "ns => ns.map(n => [n.dataset.ref, n.querySelector('.card-name') && n.querySelector('.card-name').textContent])")
        assert [int(r) for r, _ in refs] == mine, (zone, refs, mine)
        assert [n for _, n in refs] == [names[c] for c in mine]
    # the others: packets, hands and chosen cards only as backs, with the view's counts
    for q in (1, 2, 3):
        seat = page.locator(f"#board .dd-others .dd-seat[data-seat='{q}']")
        assert seat.locator(".card:not(.back)").count() == len(z["domain"][q])   # only the public domain is named
        for zone, cls in (("packets", "dd-packet"), ("hand", "dd-hand"), ("chosen", "dd-chosen")):
            count = z[zone][q]
            assert isinstance(count, int)
            box = seat.locator(f".{cls} .dd-backs")
            if box.count():
                assert int(box.get_attribute("data-count")) == count, (q, zone)
                assert box.locator(".card.back").count() == min(count, 6)
            else:
                assert count == 0 and zone != "hand", (q, zone)
    # gold and VP of every daimyo
    for q in range(4):
        seat = page.locator(f"#board .dd-seat[data-seat='{q}']").first
        assert seat.locator(".dd-gold").inner_text() == f"{pub['gold'][q]} gold"
        assert seat.locator(".dd-vp").inner_text() == f"{pub['vp'][q]} VP"
    assert view["player"] == 0


def click_and_wait(page: Any, node: Any) -> None:
    before = version(page)
    node.click()
    page.wait_for_function(f"Number(document.body.dataset.version) > {before} || document.body.dataset.status === 'finished'",
                           timeout=60_000)


def play_basic(page: Any, rng: random.Random, catalogue: dict[str, Any], st: dict[str, Any]) -> str:
    """March by clicking a province of mine, then a highlighted neighbour (or hire, or rest)."""
    sources = page.locator("#board .dd-prov[data-actions*='march']")
    if sources.count():
        src = sources.nth(rng.randrange(sources.count()))
        i = int(src.get_attribute("data-province"))
        src.click()
        targets = page.locator("#board .dd-prov.target")
        targets.first.wait_for()
        dests = [int(t) for t in targets.evaluate_all("ns => ns.map(n => n.dataset.province)")]
        assert dests and set(dests) <= set(catalogue["board"][i]["adjacent"]), (i, dests)
        expected = {a["args"][1] for a in st["actions"] if a["verb"] == "march" and a["args"][0] == i}
        assert set(dests) == expected
        before = version(page)
        dest = targets.nth(rng.randrange(targets.count()))
        dest.click()
        menu = page.locator(".popover.menu .menu-item")
        page.wait_for_function(f"document.querySelector('.popover.menu') || Number(document.body.dataset.version) > {before}")
        if version(page) == before and menu.count():
            assert all(n.startswith(f"march {i} ") for n in menu.evaluate_all("ns => ns.map(n => n.dataset.notation)"))
            click_and_wait(page, menu.first)
        else:
            page.wait_for_function(f"Number(document.body.dataset.version) > {before}")
        return "march"
    rest = page.locator("#board .dd-button[data-verb='rest']")
    assert rest.count() == 1
    click_and_wait(page, rest)
    return "rest"


def play_card(page: Any, rng: random.Random) -> str:
    """The chosen card: play it (then its target, if it has one) or discard it for 1 gold."""
    card = page.locator("#board .dd-mine .dd-chosen .card[data-actions]")
    assert card.count() == 1
    notations = card.get_attribute("data-actions").split("|")
    if len(notations) == 1:
        click_and_wait(page, card)
        return notations[0]
    card.click()
    targets = page.locator("#board .target")
    items = page.locator(".popover.menu .menu-item")
    items.first.wait_for()
    if targets.count() and rng.random() < 0.7:
        click_and_wait(page, targets.nth(rng.randrange(targets.count())))
        return "play (target)"
    pick = items.nth(rng.randrange(items.count()))
    notation = pick.get_attribute("data-notation")
    click_and_wait(page, pick)
    return notation


@pytest.mark.slow
def test_a_person_drafts_and_marches_on_the_map(module_server, page):
    match = create_match(module_server, "draft_daimyo(players=4)", BOTS, seed=11)
    mid, token = match["match"], match["seats"][0]["token"]
    _, catalogue = module_server.call("GET", "/api/games/draft_daimyo/catalogue")
    join(page, match["seats"][0]["join_url"])

    provinces = page.locator("#board .dd-map .dd-prov")
    assert provinces.count() == len(catalogue["board"]) == 16
    drawn = provinces.evaluate_all("ns => ns.map(n => [n.dataset.key, n.querySelector('.dd-prov-name').textContent])")
    assert drawn == [[p["key"], p["name_en"]] for p in catalogue["board"]]
    assert page.locator("#board .dd-prov.dd-home").count() == 4
    assert page.locator("#board .dd-others .dd-seat").count() == 3

    rng = random.Random(2)
    done: list[str] = []
    phases: set[str] = set()
    while len(done) < 12:
        if wait_my_turn_or_end(page, timeout=60_000) == "over":
            break
        st = synced(page, module_server, mid, token)
        if not st["actions"]:
            continue
        check_table(page, st, catalogue)
        phase = st["view"]["public"]["phase"]
        phases.add(phase)
        if phase == "draft":
            cards = page.locator("#board .dd-mine .dd-packet .card[data-actions]")
            assert cards.count() == len(st["view"]["zones"]["packets"][0])
            click_and_wait(page, cards.nth(rng.randrange(cards.count())))
            done.append("pick")
        elif phase == "choose":
            cards = page.locator("#board .dd-mine .dd-hand .card[data-actions]")
            assert cards.count() == len(st["view"]["zones"]["hand"][0])
            click_and_wait(page, cards.nth(rng.randrange(cards.count())))
            done.append("choose")
        elif phase == "card":
            done.append(play_card(page, rng))
        elif phase == "basic":
            done.append(play_basic(page, rng, catalogue, st))
        else:
            node = page.locator("#board [data-actions]").first
            click_and_wait(page, node)
            done.append(phase)
    assert len(done) >= 8, done
    assert {"draft", "choose", "card", "basic"} <= phases, (phases, done)
    assert done.count("pick") == 5
    st = synced(page, module_server, mid, token)
    check_table(page, st, catalogue)


def test_the_expansion_names_its_own_cards_and_fits_a_phone(module_server, page):
    """With the expansion the cards are numbered differently from the default catalogue: the
    board names them from the catalogue of the match's game string."""
    page.set_viewport_size({"width": 390, "height": 844})
    game = "draft_daimyo(players=4,expansion=true,tactics=true)"
    match = create_match(module_server, game, BOTS, seed=5)
    mid, token = match["match"], match["seats"][0]["token"]
    _, catalogue = module_server.call("GET", f"/api/matches/{mid}/catalogue")
    names = {c["id"]: (c["name_ja"], c["name_en"]) for c in catalogue["cards"]}
    join(page, match["seats"][0]["join_url"], lang="ja")
    st = synced(page, module_server, mid, token)
    packet = st["view"]["zones"]["packets"][0]
    # named in Japanese with the English beside: from the catalogue, not just the action labels
    page.wait_for_function("document.querySelectorAll('#board .dd-mine .dd-packet .card[data-actions] .card-other').length > 0")
    shown = page.locator("#board .dd-mine .dd-packet .card").evaluate_all(
        "ns => ns.map(n => [+n.dataset.ref, n.querySelector('.card-name').textContent, n.querySelector('.card-other').textContent])")
    assert shown == [[c, *names[c]] for c in packet]
    assert page.locator("#board .dd-tactics-pile .dd-backs").get_attribute("data-count") == str(st["view"]["zones"]["tactics_deck"])
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    box = page.locator("#board .dd-map").bounding_box()
    assert box["width"] <= 390
    # no two provinces overlap on the phone's map
    rects = page.locator("#board .dd-prov").evaluate_all(
        "ns => ns.map(n => { const r = n.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })")
    for a in range(len(rects)):
        for b in range(a + 1, len(rects)):
            l1, t1, r1, b1 = rects[a]
            l2, t2, r2, b2 = rects[b]
            assert r1 <= l2 or r2 <= l1 or b1 <= t2 or b2 <= t1, (a, b, rects[a], rects[b])
    click_and_wait(page, page.locator("#board .dd-mine .dd-packet .card[data-actions]").first)


def _in_view(page: Any, verb: str) -> list[Any]:
    """The elements carrying `verb` actions, each with whether it lies wholly in the viewport
    as the page opens (not scrolled)."""
    return page.evaluate("""(verb) => [...document.querySelectorAll('#board [data-actions]')]
        .filter((n) => n.dataset.actions.split('|').some((a) => a.split(' ')[0] === verb))
        .map((n) => { const r = n.getBoundingClientRect();
            return [n.dataset.ref, r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth]; })""", verb)


def test_what_you_pick_from_is_in_view_at_1280_by_800(module_server, page):
    from .browser import act_api, wait_api
    page.set_viewport_size({"width": 1280, "height": 800})
    match = create_match(module_server, "draft_daimyo(players=4)", BOTS, seed=13)
    mid, token = match["match"], match["seats"][0]["token"]
    join(page, match["seats"][0]["join_url"])
    page.wait_for_function("document.body.dataset.toAct === 'me'")
    assert page.evaluate("scrollY") == 0
    picks = _in_view(page, "pick")
    assert len(picks) >= 2 and all(ok for _, ok in picks), picks
    # the draft over the API, then the hand to choose from
    for _ in range(40):
        st = wait_api(module_server, mid, token, lambda s: bool(s["actions"]))
        if st["view"]["public"]["phase"] != "draft":
            break
        act_api(module_server, mid, token, st, st["actions"][0]["notation"])
    assert any(a["verb"] == "choose" for a in st["actions"]), st["view"]["public"]["phase"]
    page.reload()
    page.wait_for_function(f"Number(document.body.dataset.version) >= {st['version']} && document.body.dataset.toAct === 'me'")
    chooses = _in_view(page, "choose")
    assert len(chooses) >= 2 and all(ok for _, ok in chooses), chooses
