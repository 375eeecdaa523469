"""What every board shares (static/board-kit.js), in a real browser: menus that never cover
the targets they light, a first tap that shows before a second plays (and "confirm moves" for
a mouse), the keyboard, seat names drawn as text, SVG icons instead of emoji, the moves'
animations (none under prefers-reduced-motion) and an axe-core scan of every board and the
replay viewer."""
from __future__ import annotations

import json
from typing import Any, Callable

import pytest

from .browser import act_api, create_match, join, state_of, version, wait_finished, wait_turn_api

EMOJI = r"/[\p{Extended_Pictographic}\u{2680}-\u{2685}\u{FE0F}\u{1F1E6}-\u{1F1FF}]/u"
FUUTEI = "fuutei(players=3)"
DRAFT = "draft_daimyo(players=4)"
BOARDS = [
    (FUUTEI, ["human", "bot:heuristic", "bot:heuristic"], 30),
    ("sengoku_taisen(deck1=翠,deck2=黒)", ["human", "bot:heuristic"], 11),
    ("ibara(players=3)", ["human", "bot:random", "bot:random"], 12),
    (DRAFT, ["human", "bot:random", "bot:random", "bot:random"], 11),
]


def new_page(browser: Any, **options: Any) -> Any:
    """A page in a context of its own (touch, reduced motion, a viewport), its script errors
    kept in ``page.js_errors``."""
    context = browser.new_context(**{"viewport": {"width": 1280, "height": 800}, **options})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.js_errors = errors  # type: ignore[attr-defined]
    return pg


def close(pg: Any) -> None:
    errors = pg.js_errors
    pg.context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def seated(server: Any, pg: Any, game: str, seats: list[str], seed: int,
           until: Callable[[dict[str, Any]], bool] | None = None) -> tuple[str, str]:
    """A new match, seat 0 opened in `pg` at a turn of its own (played on over the API until
    `until(state)` holds, if given). Returns the match id and the seat's token."""
    match = create_match(server, game, seats, seed=seed)
    mid, token = match["match"], match["seats"][0]["token"]
    for _ in range(300):
        st = state_of(server, mid, token)
        if st["actions"] and (until is None or until(st)):
            break
        if st["actions"]:
            act_api(server, mid, token, st, first_of(st))
        else:
            wait_turn_api(server, mid, token)
    else:
        raise AssertionError("never reached the state the test needs")
    join(pg, match["seats"][0]["join_url"])
    pg.wait_for_function(f"Number(document.body.dataset.version) >= {st['version']} && document.body.dataset.toAct === 'me'")
    return mid, token


PRIORITY = ["pick", "choose", "play", "equip", "invade", "koku", "deploy", "guard", "end", "pass", "keep"]


def first_of(st: dict[str, Any]) -> str:
    for verb in PRIORITY:
        for a in st["actions"]:
            if a["verb"] == verb:
                return a["notation"]
    return st["actions"][0]["notation"]


def fuutei_choice(st: dict[str, Any]) -> bool:
    """A main phase where something of yours carries several actions with targets."""
    if st["view"]["public"]["phase"] != "main":
        return False
    by: dict[str, int] = {}
    for a in st["actions"]:
        if a["verb"] in ("equip", "invade") and len(a["args"]) > 1:
            by[f"{a['verb']}:{a['args'][0]}"] = by.get(f"{a['verb']}:{a['args'][0]}", 0) + 1
    return any(n > 1 for n in by.values())


def boxes_overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"] and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]


# ----- 1. a menu never covers its anchor or the targets it lights ---------------------------------
def test_the_menu_covers_none_of_the_targets_it_lights(module_server, browser):
    pg = new_page(browser)
    try:
        seated(module_server, pg, FUUTEI, BOARDS[0][1], BOARDS[0][2], until=fuutei_choice)
        anchors = pg.locator("#board [data-actions*='|']")
        assert anchors.count() >= 1
        checked = 0
        for i in range(min(anchors.count(), 6)):
            pg.keyboard.press("Escape")
            anchor = anchors.nth(i)
            anchor.click()                      # Playwright's own click: nothing covers it
            menu = pg.locator(".popover.menu")
            menu.wait_for()
            targets = pg.locator("#board .target")
            box = menu.bounding_box()
            assert not boxes_overlap(box, anchor.bounding_box())
            for k in range(targets.count()):
                target = targets.nth(k)
                assert not boxes_overlap(box, target.bounding_box()), (i, k)
                target.click(trial=True, timeout=3_000)   # clickable as it is: no force
                checked += 1
        assert checked >= 2
        # and a lit target is really played by a normal click
        pg.keyboard.press("Escape")
        before = version(pg)
        anchors.first.click()
        pg.locator("#board .target").first.click()
        item = pg.locator(".popover.menu .menu-item")
        if version(pg) == before and item.count():
            item.first.click()
        pg.wait_for_function(f"Number(document.body.dataset.version) > {before}")
    finally:
        close(pg)


# ----- 2. touch: a first tap shows, a second plays; "confirm moves" for a mouse -------------------
def test_a_first_tap_shows_the_card_and_a_second_plays_it(module_server, browser):
    pg = new_page(browser, has_touch=True)
    try:
        mid, token = seated(module_server, pg, DRAFT, BOARDS[3][1], 11)
        _, catalogue = module_server.call("GET", f"/api/matches/{mid}/catalogue")
        texts = {str(c["id"]): c.get("text_en", "") for c in catalogue["cards"]}
        card = pg.locator("#board .dd-mine .dd-packet .card[data-actions]").first
        ref = card.get_attribute("data-ref")
        before = version(pg)
        card.tap()
        preview = pg.locator(".popover.kit-preview")
        preview.wait_for()
        assert version(pg) == before and "selected" in card.get_attribute("class")
        # the card's full text and the action it offers
        assert texts[ref] and texts[ref] in preview.inner_text()
        assert preview.locator(".menu-item").get_attribute("data-notation") == f"pick {ref}"
        pg.wait_for_timeout(150)        # nothing is sent by the first tap
        assert version(pg) == before
        card.tap()                      # the second tap plays
        pg.wait_for_function(f"Number(document.body.dataset.version) > {before}")
    finally:
        close(pg)


def test_confirm_moves_makes_a_click_select_first(module_server, browser):
    pg = new_page(browser)
    try:
        seated(module_server, pg, DRAFT, BOARDS[3][1], 12)
        box = pg.locator("#board .kit-setting input[type=checkbox]")
        assert not box.is_checked()
        box.check()
        assert pg.evaluate("localStorage.getItem('takujo.confirm')") == "1"
        card = pg.locator("#board .dd-mine .dd-packet .card[data-actions]").first
        before = version(pg)
        card.click()
        play = pg.locator(".popover.kit-preview .menu-item")
        play.wait_for()
        assert version(pg) == before
        play.click()                    # the confirm button plays
        pg.wait_for_function(f"Number(document.body.dataset.version) > {before}")
        # the setting is kept; unset, a click plays at once again
        pg.wait_for_function("document.body.dataset.toAct === 'me'")
        assert pg.locator("#board .kit-setting input").is_checked()
        pg.locator("#board .kit-setting input").uncheck()
        assert pg.evaluate("localStorage.getItem('takujo.confirm')") is None
        before = version(pg)
        pg.locator("#board .dd-mine .dd-packet .card[data-actions]").first.click()
        pg.wait_for_function(f"Number(document.body.dataset.version) > {before}")
    finally:
        close(pg)


# ----- 7. the keyboard ---------------------------------------------------------------------------
def test_the_board_is_played_with_the_keyboard(module_server, browser):
    pg = new_page(browser)
    try:
        seated(module_server, pg, FUUTEI, BOARDS[0][1], BOARDS[0][2], until=fuutei_choice)
        # everything that offers actions is focusable
        assert pg.evaluate("[...document.querySelectorAll('#board [data-actions]')].every((n) => n.tabIndex >= 0)")
        anchor = pg.locator("#board [data-actions*='|']").first
        anchor.focus()
        pg.keyboard.press("Enter")
        items = pg.locator(".popover.menu .menu-item")
        items.first.wait_for()
        assert pg.evaluate("document.activeElement.classList.contains('menu-item')")
        if items.count() > 1:
            pg.keyboard.press("ArrowDown")
            assert pg.evaluate("document.activeElement") is not None
            assert items.nth(1).evaluate("(n) => n === document.activeElement")
            pg.keyboard.press("ArrowUp")
            assert items.nth(0).evaluate("(n) => n === document.activeElement")
        # the lit targets are focusable too
        assert pg.evaluate("[...document.querySelectorAll('#board .target')].every((n) => n.tabIndex >= 0)")
        pg.keyboard.press("Escape")
        assert pg.locator(".popover").count() == 0 and pg.locator("#board .target").count() == 0
        assert anchor.evaluate("(n) => n === document.activeElement")
        # Space opens it again; Enter on a menu item plays
        pg.keyboard.press(" ")
        items.first.wait_for()
        before = version(pg)
        pg.keyboard.press("Enter")
        pg.wait_for_function(f"Number(document.body.dataset.version) > {before}")
    finally:
        close(pg)


# ----- seat names: inserted as text ------------------------------------------------------------------
NASTY = '<img src=x onerror="window.__owned=1">Mallory'


def test_seat_names_are_shown_as_text(module_server, browser):
    pg = new_page(browser)
    try:
        def named(ws: Any) -> None:
            server = ws.connect_to_server()

            def down(message: Any) -> None:
                try:
                    msg = json.loads(message)
                except (TypeError, ValueError):
                    ws.send(message)
                    return
                for s in msg.get("seats") or []:
                    s["name"] = {1: NASTY, 2: None}.get(s["seat"], "Me myself")
                ws.send(json.dumps(msg))
            server.on_message(down)
            ws.on_message(lambda m: server.send(m))
        pg.route_web_socket("**/ws/matches/**", named)
        seated(module_server, pg, FUUTEI, BOARDS[0][1], BOARDS[0][2])
        area = pg.locator('#board .ft-area[data-seat="1"] .ft-who')
        assert area.inner_text() == NASTY                       # the name, as text
        assert pg.locator("#board img").count() == 0 and pg.evaluate("window.__owned") is None
        assert pg.locator('#board .ft-area[data-seat="2"] .ft-who').inner_text() == "player 2"   # no name
        mine = pg.locator('#board .ft-area[data-seat="0"] .ft-who').inner_text()
        assert "Me myself" not in mine                          # you are "you"
    finally:
        close(pg)


# ----- 5. no emoji anywhere on a board, its menus or the replay viewer -------------------------------
def emoji_in(pg: Any, selector: str) -> list[str]:
    return pg.evaluate(f"""(sel) => {{
        const text = [...document.querySelectorAll(sel)].map((n) => n.innerText).join("\\n");
        return [...text.matchAll(new RegExp({EMOJI}.source, "gu"))].map((m) => m[0]);
    }}""", selector)


@pytest.mark.parametrize("game,seats,seed", BOARDS, ids=[g.split("(")[0] for g, _, _ in BOARDS])
def test_no_emoji_on_the_boards(module_server, browser, game, seats, seed):
    pg = new_page(browser)
    try:
        seated(module_server, pg, game, seats, seed)
        assert emoji_in(pg, "body") == []          # the board, the action list and the log
        anchor = pg.locator("#board [data-actions]:not(button)").first
        pg.evaluate("localStorage.setItem('takujo.confirm', '1')")   # the preview shows text and labels
        anchor.click()
        pg.locator(".popover").first.wait_for()
        assert emoji_in(pg, "body") == []
    finally:
        close(pg)


def finished_match(server: Any) -> str:
    """A short finished match of bots (fuutei, two players) for the replay viewer."""
    match = create_match(server, "fuutei(players=2)", ["bot:random", "bot:random"], seed=4)
    wait_finished(server, match["match"])
    return match["match"]


def test_no_emoji_in_the_replay_viewer(module_server, browser):
    pg = new_page(browser)
    try:
        mid = finished_match(module_server)
        pg.goto(f"{module_server.url}/replay/{mid}?lang=en")
        pg.wait_for_function("document.body.dataset.step !== undefined")
        pg.click("#last")
        pg.wait_for_function("document.body.dataset.step !== '0'")
        assert emoji_in(pg, "body") == []
        # its buttons are named, their icons hidden from assistive technology
        for b in ("#first", "#back", "#forward", "#last"):
            assert pg.locator(b).inner_text().strip()
            assert pg.locator(f"{b} svg[aria-hidden='true']").count() == 1
        assert pg.locator("#log svg.kit-icon").count() >= 1      # the dice of the log's rolls
    finally:
        close(pg)


# ----- 6. the moves are animated; not under prefers-reduced-motion --------------------------------
DURATIONS = """(sel) => [...document.querySelectorAll(sel)].map((n) => {
    const s = getComputedStyle(n);
    const secs = (v) => Math.max(...v.split(",").map((x) => parseFloat(x) * (x.trim().endsWith("ms") ? 0.001 : 1)));
    return { name: s.animationName, animation: secs(s.animationDuration), transition: secs(s.transitionDuration) };
})"""


def picked_and_animated(server: Any, pg: Any, seed: int) -> list[dict[str, Any]]:
    """Pick a card of the draft by clicking it; the durations of what the next drawing
    animates (the card arriving in the hand, ...)."""
    seated(server, pg, DRAFT, BOARDS[3][1], seed)
    # the bots' picks are drawn soon after: catch the drawing in which the card arrives
    pg.evaluate(f"""() => {{
        window.__moving = [];
        const durations = {DURATIONS};
        new MutationObserver(() => {{
            if (document.querySelector('#board .dd-mine .dd-hand .card.kit-enter'))
                window.__moving.push(durations('#board .kit-enter, #board .kit-flip, #board .kit-roll, #board .die'));
        }}).observe(document.getElementById('board'), {{ childList: true }});
    }}""")
    before = version(pg)
    pg.locator("#board .dd-mine .dd-packet .card[data-actions]").first.click()
    pg.wait_for_function(f"Number(document.body.dataset.version) > {before}")
    pg.wait_for_function("window.__moving.length > 0")
    return pg.evaluate("window.__moving[0]")


def test_moves_are_animated_and_still_with_reduced_motion(module_server, browser):
    pg = new_page(browser)
    try:
        moving = picked_and_animated(module_server, pg, 21)
        assert moving and all(m["name"] != "none" and 0.15 <= m["animation"] <= 0.4 for m in moving), moving
    finally:
        close(pg)
    pg = new_page(browser, reduced_motion="reduce")
    try:
        still = picked_and_animated(module_server, pg, 22)
        assert still and all((m["name"] == "none" or m["animation"] == 0) and m["transition"] == 0 for m in still), still
        # nothing on the board moves, menus included
        pg.evaluate("localStorage.setItem('takujo.confirm', '1')")
        pg.wait_for_function("document.body.dataset.toAct === 'me'")
        pg.locator("#board [data-actions]:not(button)").first.click()
        pg.locator(".popover").first.wait_for()
        everything = pg.evaluate(DURATIONS, "#board *, .popover, .popover *")
        assert all((m["name"] == "none" or m["animation"] == 0) and m["transition"] == 0 for m in everything)
    finally:
        close(pg)


# ----- 7. axe-core: no serious or critical violation ---------------------------------------------
def axe_problems(pg: Any, include: list[str] | None = None) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe
    # colours are judged once nothing is fading in (a popover's first frames are translucent)
    pg.wait_for_function("document.getAnimations().every((a) => a.playState !== 'running'"
                         " || (a.effect && a.effect.getTiming().iterations === Infinity))", timeout=10_000)
    context = {"include": [[s] for s in include]} if include else None
    result = Axe().run(pg, context=context)
    return [f"{v['impact']} {v['id']}: {[n['target'] for n in v['nodes']][:5]}"
            for v in result.response["violations"] if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("game,seats,seed", BOARDS, ids=[g.split("(")[0] for g, _, _ in BOARDS])
def test_axe_finds_nothing_serious_on_the_boards(module_server, browser, game, seats, seed):
    pg = new_page(browser)
    try:
        seated(module_server, pg, game, seats, seed)
        assert axe_problems(pg) == []              # the whole match page
        pg.locator("#board [data-actions]").first.focus()
        pg.evaluate("localStorage.setItem('takujo.confirm', '1')")
        pg.locator("#board [data-actions]:not(button)").first.click()
        pg.locator(".popover").first.wait_for()
        assert axe_problems(pg) == []
    finally:
        close(pg)


def test_axe_finds_nothing_serious_in_the_lobby(module_server, browser):
    pg = new_page(browser)
    try:
        pg.goto(f"{module_server.url}/?lang=ja")
        pg.locator("#create").wait_for()
        pg.locator("details.options summary").click()
        assert axe_problems(pg) == []
    finally:
        close(pg)


def test_axe_finds_nothing_serious_in_the_replay_viewer(module_server, browser):
    pg = new_page(browser)
    try:
        mid = finished_match(module_server)
        pg.goto(f"{module_server.url}/replay/{mid}?lang=en")
        pg.wait_for_function("document.body.dataset.step !== undefined")
        pg.click("#forward")
        pg.wait_for_function("document.body.dataset.step === '1'")
        assert axe_problems(pg, ["#board", "#controls", "#log"]) == []
    finally:
        close(pg)


@pytest.mark.parametrize("game,players", [("fuutei", 2), ("ibara", 3), ("sengoku_taisen", 2), ("draft_daimyo", 3)])
def test_at_game_over_the_header_names_nobody_to_play(module_server, browser, game, players):
    match = create_match(module_server, f"{game}(players={players})", ["bot:random"] * players, seed=4)
    wait_finished(module_server, match["match"])
    pg = new_page(browser)
    try:
        pg.goto(f"{module_server.url}/match/{match['match']}?lang=en")
        pg.wait_for_function("document.body.dataset.status === 'finished'")
        board = pg.locator("#board").inner_text()
        assert "to play" not in board and "'s turn" not in board, board[:400]
    finally:
        close(pg)
