"""The lobby and the match page in a real browser: creating a match, joining, playing,
switching the language."""
from __future__ import annotations

import random

from .browser import click_some_action, create_match, join, version, wait_finished, wait_my_turn_or_end


def test_the_lobby_creates_a_match_and_hands_out_join_links(module_server, page):
    page.goto(module_server.url + "/?lang=en")
    page.select_option("#game", "ibara")
    page.select_option("#players", "3")
    page.select_option("#seat1", "bot:random")
    page.click("#create")
    link = page.locator("#created a.join").first
    link.wait_for()
    href = link.get_attribute("href")
    assert "/match/" in href and "token=" in href
    join(page, href)
    assert "token=" not in page.url  # the token leaves the address bar once kept
    assert page.locator("#seats .seat-chip").count() == 3


def test_switching_the_language_redraws_the_table_in_japanese(module_server, page):
    match = create_match(module_server, "draft_daimyo", ["human", "bot:random", "bot:random", "bot:random"], seed=3)
    join(page, match["seats"][0]["join_url"])
    assert page.locator("#whoami").inner_text() == "You are player 0"
    page.click(".lang-switch button[data-lang=ja]")
    page.wait_for_function("document.documentElement.lang === 'ja' && document.querySelector('#whoami').textContent.includes('あなた')")
    assert "あなたはプレイヤー0" in page.locator("#whoami").inner_text()
    page.wait_for_function("[...document.querySelectorAll('#log li')].some(li => /[\\u3040-\\u30ff]/.test(li.textContent))")
    page.click(".lang-switch button[data-lang=en]")
    page.wait_for_function("document.querySelector('#whoami').textContent === 'You are player 0'")


def test_a_person_plays_some_turns_by_clicking(module_server, page):
    match = create_match(module_server, "ibara(players=3)", ["human", "bot:random", "bot:random"], seed=5)
    join(page, match["seats"][0]["join_url"])
    rng = random.Random(1)
    for _ in range(6):
        if wait_my_turn_or_end(page) == "over":
            break
        click_some_action(page, rng)
    status, summary = module_server.call("GET", f"/api/matches/{match['match']}")
    assert summary["version"] >= 6


def test_undo_from_the_page_takes_back_a_quiet_action(module_server, page):
    match = create_match(module_server, "fuutei(players=2)", ["human", "bot:random"], seed=11)
    join(page, match["seats"][0]["join_url"])
    wait_my_turn_or_end(page)
    start = version(page)
    page.locator("#decision button.action[data-notation^='play ']").first.click()
    page.wait_for_function(f"Number(document.body.dataset.version) === {start + 1}")
    page.locator("#decision button.undo").click()
    page.wait_for_function(f"Number(document.body.dataset.version) === {start}")
    page.wait_for_selector("#log li.notice")
    _, summary = module_server.call("GET", f"/api/matches/{match['match']}")
    assert summary["version"] == start


def test_the_replay_viewer_steps_through_a_finished_match_from_any_seat(module_server, page):
    match = create_match(module_server, "sengoku_taisen", ["bot:random", "bot:random"], seed=2)
    wait_finished(module_server, match["match"])           # the bots play it to its end
    _, summary = module_server.call("GET", f"/api/matches/{match['match']}")
    page.goto(f"{module_server.url}/replay/{match['match']}?lang=en")
    page.wait_for_function("document.body.dataset.step === '0'")
    page.click("#forward")
    page.wait_for_function("document.body.dataset.step === '1'")
    page.click("#last")
    page.wait_for_function(f"document.body.dataset.step === '{summary['version']}'")
    assert page.locator("#outcome").is_visible()
    page.click("#back")
    page.wait_for_function(f"document.body.dataset.step === '{summary['version'] - 1}'")
    page.select_option("#pov", "1")
    page.wait_for_function("document.querySelector('#pov').value === '1'")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"document.body.dataset.step === '{summary['version'] - 2}'")
