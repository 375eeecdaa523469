"""The social layer in a real browser: names, "Your games", joining an open seat from the
lobby, several seats of one match in one browser, chat, the turn signal and the whole log
after a reload."""
from __future__ import annotations

import re
import time
from typing import Any, Iterator

import pytest

from .browser import create_match, join


@pytest.fixture
def other(browser: Any) -> Iterator[Any]:
    """A second person: a browser context of its own (its own player key and storage)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    try:
        yield pg
    finally:
        context.close()


def seat_names(page: Any) -> list[str]:
    return page.locator("#seats .seat-name").all_inner_texts()


def test_a_named_creator_finds_the_match_in_your_games_and_a_stranger_joins_its_open_seat(module_server, page, other):
    page.goto(module_server.url + "/?lang=en")
    page.fill("#name", "Hanako")
    page.select_option("#game", "sengoku_taisen")
    page.select_option("#seat1", "human")
    page.click("#create")
    page.locator("#created a.join").first.wait_for()
    row = page.locator("#mine .match-row").first
    row.wait_for()
    assert "Hanako" in row.inner_text()
    match_id = row.get_attribute("data-match")

    other.goto(module_server.url + "/?lang=en")
    other.fill("#name", "<b>Jiro</b>")
    button = other.locator(f"#open .match-row[data-match='{match_id}'] button.join")
    button.wait_for()
    button.click()
    other.wait_for_url(f"**/match/{match_id}?seat=1*")
    other.wait_for_function("document.body.dataset.version !== undefined")
    other.wait_for_function("[...document.querySelectorAll('#seats .seat-name')].some(n => n.textContent === 'Hanako')")
    assert any("<b>Jiro</b>" in n for n in seat_names(other))          # a name is text, never markup
    assert other.locator("#seats b").count() == 0
    # the creator's own page names the joiner, and the lobby no longer offers the seat
    page.goto(f"{module_server.url}/match/{match_id}?seat=0&lang=en")
    page.wait_for_function("[...document.querySelectorAll('#seats .seat-name')].some(n => n.textContent === '<b>Jiro</b>')")
    other.goto(module_server.url + "/?lang=en")
    other.locator(f"#mine .match-row[data-match='{match_id}']").wait_for()
    assert other.locator(f"#open .match-row[data-match='{match_id}']").count() == 0


def test_two_seats_in_one_browser_stay_themselves_after_a_reload(module_server, page):
    match = create_match(module_server, "sengoku_taisen", ["human", "human"], seed=4)
    join(page, match["seats"][0]["join_url"])
    second = page.context.new_page()
    join(second, match["seats"][1]["join_url"])
    for tab, seat in ((page, 0), (second, 1)):
        tab.reload()
        tab.wait_for_function("document.body.dataset.version !== undefined")
        assert f"player {seat}" in tab.locator("#whoami").inner_text()
        assert f"seat={seat}" in tab.url and "token=" not in tab.url
    second.close()


def test_taking_a_seat_asks_a_name_and_chat_reaches_the_other_seat(module_server, page, other):
    match = create_match(module_server, "sengoku_taisen", ["human", "human"], seed=6)
    join(page, match["seats"][0]["join_url"])
    page.locator("#name-form").wait_for()
    page.fill("#seat-name", "Hanako")
    page.click("#name-form button")
    page.wait_for_function("document.querySelector('#name-form').hidden")
    assert page.locator("#name-form").is_hidden()                    # not drawn as an empty box either
    join(other, match["seats"][1]["join_url"])
    other.wait_for_function("[...document.querySelectorAll('#seats .seat-name')].some(n => n.textContent === 'Hanako')")
    page.fill("#chat-text", "よろしく <i>お願いします</i>")
    page.click("#chat-send")
    line = other.locator("#chat-lines .chat-line").last
    line.wait_for()
    assert line.inner_text().startswith("Hanako") and "よろしく <i>お願いします</i>" in line.inner_text()
    assert other.locator("#chat-lines i").count() == 0


def test_the_title_signals_your_turn_and_the_whole_log_survives_a_reload(module_server, page):
    match = create_match(module_server, "fuutei(players=3)", ["human", "bot:random", "bot:random"], seed=2)
    join(page, match["seats"][0]["join_url"])
    rounds = 0
    while rounds < 40:
        page.wait_for_function("document.body.dataset.status === 'finished' || document.body.dataset.toAct === 'me'")
        if page.evaluate("document.body.dataset.status") == "finished":
            break
        assert page.title().startswith("● Your turn")
        assert page.evaluate("document.body.dataset.turnSignal") == "on"
        before = int(page.evaluate("document.body.dataset.version"))
        page.locator("#decision button.action").last.click()
        page.wait_for_function(f"Number(document.body.dataset.version) > {before} || document.body.dataset.status === 'finished'")
        rounds += 1
        if page.locator("#log li.event").count() > 40:
            break
    page.wait_for_timeout(300)
    count = page.locator("#log li.event").count()
    first = page.locator("#log li.event").first.get_attribute("data-seq")
    token = match["seats"][0]["token"]
    whole = page.evaluate(f"fetch('/api/matches/{match['match']}/state?since=0', {{headers: {{Authorization: 'Bearer {token}'}}}})"
                          ".then(r => r.json()).then(s => s.events.map(e => e.seq))")
    assert count > 16 and first == str(whole[0])          # the page holds the seat's log from its first event
    page.reload()
    page.wait_for_function(f"document.querySelectorAll('#log li.event').length >= {count}")
    assert page.locator("#log li.event").first.get_attribute("data-seq") == str(whole[0])


def test_a_clock_chosen_in_the_lobby_counts_down_beside_the_name(module_server, page):
    page.goto(module_server.url + "/?lang=en")
    page.fill("#name", "Hanako")
    page.select_option("#game", "sengoku_taisen")
    page.select_option("#seat1", "bot:random")
    page.select_option("#clock", "blitz")
    created = time.monotonic()
    page.click("#create")
    page.locator("#mine .match-row a.button").first.wait_for()
    page.locator("#mine .match-row a.button").first.click()
    page.wait_for_function("document.body.dataset.version !== undefined")
    page.goto(module_server.url + "/?lang=en")                          # Your games shows your clock
    page.locator("#mine .match-row .my-clock").first.wait_for()
    _counts_down_from_five_minutes(page.locator("#mine .match-row .my-clock").first.inner_text(), created)
    page.locator("#mine .match-row a.button").first.click()
    page.wait_for_function("document.body.dataset.version !== undefined")
    clock = page.locator("#seats .seat-chip[data-seat='0'] .clock")
    clock.wait_for()
    _counts_down_from_five_minutes(clock.inner_text(), created)
    if page.locator("#seats .seat-chip[data-seat='0'] .clock.running").count():
        first = clock.inner_text()
        page.wait_for_function(f"document.querySelector(\"#seats .seat-chip[data-seat='0'] .clock\").textContent !== '{first}'",
                               timeout=60_000)


def _counts_down_from_five_minutes(text: str, created: float) -> None:
    """A blitz clock shown `text` ("m:ss"): started at 5:00 and counted down by no more than
    the time since the match was created (however long the machine took to get here)."""
    shown = re.fullmatch(r"(\d+):(\d\d)", text.strip())
    assert shown, text
    left = int(shown[1]) * 60 + int(shown[2])
    assert 300 - (time.monotonic() - created) - 2 <= left <= 300, (text, time.monotonic() - created)


def test_the_lobby_fits_a_phone_and_follows_a_language_switch(module_server, browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    try:
        page.goto(module_server.url + "/?lang=en")
        page.locator("#create").wait_for()
        for game in ("fuutei", "sengoku_taisen", "ibara", "draft_daimyo"):
            page.select_option("#game", game)
            page.locator("details.options summary").click()
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 392, (game, width)                       # no sideways scrolling
        page.click("#create")
        page.locator("#created a.join").first.wait_for()
        assert "Match created" in page.locator("#created").inner_text()
        page.click(".lang-switch button[data-lang=ja]")
        page.wait_for_function("document.querySelector('#created').textContent.includes('対局を作りました')")
    finally:
        context.close()


FAKE_NOTIFICATIONS = """
window.__notes = []; window.__asked = 0; window.__beeps = 0;
class FakeNotification { constructor(title, opts) { window.__notes.push([title, (opts || {}).body]); } }
FakeNotification.permission = "default";
FakeNotification.requestPermission = async () => { window.__asked += 1; FakeNotification.permission = "granted"; return "granted"; };
window.Notification = FakeNotification;
Object.defineProperty(document, "hidden", { get: () => true });
class FakeAudio { constructor() { window.__beeps += 1; this.currentTime = 0; this.destination = {}; }
  createOscillator() { return { frequency: {}, connect: (g) => g, start() {}, stop() {} }; }
  createGain() { return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (d) => d }; } }
window.AudioContext = FakeAudio;
"""


def test_your_turn_is_told_by_icon_sound_and_notification_asked_for_from_a_button(module_server, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(FAKE_NOTIFICATIONS)
    page = context.new_page()
    try:
        match = create_match(module_server, "sengoku_taisen", ["human", "bot:random"], seed=8)
        join(page, match["seats"][0]["join_url"])
        assert page.evaluate("window.__asked") == 0                     # never asked on load
        page.click("#notify")
        page.wait_for_function("window.__asked === 1")
        page.check("#sound")
        page.wait_for_function("document.body.dataset.toAct === 'me'")
        assert page.evaluate("document.querySelector('link[rel=icon]').href").startswith("data:image/svg+xml")
        for _ in range(30):      # play on until the turn comes back to us after the bot's
            if page.evaluate("window.__notes.length") or page.evaluate("document.body.dataset.status") == "finished":
                break
            page.wait_for_function("document.body.dataset.toAct === 'me' || document.body.dataset.status === 'finished'")
            before = int(page.evaluate("document.body.dataset.version"))
            page.locator("#decision button.action").first.click()
            page.wait_for_function(f"Number(document.body.dataset.version) > {before}")
        assert page.evaluate("window.__notes.length") > 0 and page.evaluate("window.__beeps") > 0
        assert page.evaluate("window.__notes[window.__notes.length - 1][0]") == "Your turn"
    finally:
        context.close()


def test_your_games_tell_whose_turn_it_is_and_name_bots_with_their_level_in_a_tooltip(module_server, page):
    page.goto(module_server.url + "/?lang=en")
    page.fill("#name", "Hanako")
    page.select_option("#game", "sengoku_taisen")
    page.select_option("#seat1", "bot:heuristic")
    page.click("#create")
    row = page.locator("#mine .match-row").first
    row.wait_for()
    bot = row.locator(".bot-level")
    assert bot.inner_text() == "Bot: Easy" and bot.get_attribute("title") == "heuristic"
    assert "heuristic" not in row.locator(".match-seats").inner_text()
    assert row.locator(".seat-turn").count() >= 1 and "(to act)" in row.inner_text()   # someone is to act: told
    page.locator("#mine .match-row a.button").first.click()
    chip = page.locator("#seats .seat-chip[data-seat='1'] .seat-kind .bot-level")
    chip.wait_for()
    assert chip.inner_text() == "Bot: Easy" and chip.get_attribute("title") == "heuristic"
