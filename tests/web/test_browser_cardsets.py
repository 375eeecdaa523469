"""A designer's card set in a real browser: start from the built-in file, edit it with live
checking, keep it, and play a match with it."""
from __future__ import annotations

import pytest


def test_edit_check_keep_and_play_a_card_set(module_server, page):
    page.goto(module_server.url + "/?lang=en")
    page.locator("#set-game").wait_for()
    page.select_option("#set-game", "fuutei")
    page.click("#set-builtin")
    page.wait_for_function("document.querySelector('#set-text').value.includes('name_ja = \"蒼い風\"')")
    page.locator("#set-status .ok").wait_for()                       # the built-in file is usable
    text = page.input_value("#set-text")
    page.fill("#set-text", text.replace('type = "character"', 'type = "charactr"', 1))
    problem = page.locator("#set-status .problems li").first
    problem.wait_for()                                               # checked as it is typed
    assert "type" in problem.inner_text() and "card #" in problem.inner_text()
    page.fill("#set-text", text.replace('name_ja = "蒼い風"', 'name_ja = "青い風"', 1))
    page.locator("#set-status .ok").wait_for()
    page.fill("#set-title", "blue wind")
    page.click("#set-keep")
    page.locator("#set-list li.set-entry").first.wait_for()
    assert "blue wind" in page.locator("#set-list").inner_text()
    # the kept set is a choice of the new match form's option
    page.select_option("#game", "fuutei")
    page.select_option("#players", "2")
    page.select_option("#seat1", "bot:random")
    page.locator("details.options summary").click()
    choices = page.evaluate("[...document.querySelectorAll('#opt-cards option')].map(o => [o.value, o.textContent])")
    kept = [value for value, label in choices if "blue wind" in label]
    assert len(kept) == 1 and kept[0].startswith("set:"), choices
    page.select_option("#opt-cards", kept[0])
    page.fill("#name", "Designer")
    page.click("#create")
    page.locator("#mine .match-row a.button").first.wait_for()
    page.locator("#mine .match-row a.button").first.click()
    page.wait_for_function("document.body.dataset.version !== undefined")
    page.click("#help-open")
    page.click("#help-tab-cards")
    page.fill("#card-search", "青い風")
    page.locator("#help .card-entry").first.wait_for()
    assert "青い風" in page.locator("#help .card-entry").first.inner_text()


@pytest.mark.slow
def test_an_experiment_compares_a_kept_set_with_the_built_in_one_and_reports(module_server, page):
    """Upload → experiment → report, from the browser (the test's browser is on the server's
    machine, so it is the operator)."""
    import urllib.request

    text = urllib.request.urlopen(module_server.url + "/api/games/fuutei/builtin/cards").read().decode()
    patched = text.replace('name_ja = "蒼い風"', 'name_ja = "青い風"', 1)
    page.goto(module_server.url + "/?lang=en")
    page.locator("#set-game").wait_for()
    page.select_option("#set-game", "fuutei")
    page.fill("#set-text", patched)
    page.fill("#set-title", "lab variant")
    page.locator("#set-status .ok").wait_for()
    page.click("#set-keep")
    page.locator("#set-list li.set-entry", has_text="lab variant").wait_for()
    page.goto(module_server.url + "/lab?lang=en")
    page.locator("#lab-start").wait_for()
    page.wait_for_function("!document.querySelector('#lab-start').disabled")   # the operator
    page.select_option("#lab-game", "fuutei")
    page.select_option("#lab-kind", "cards")
    page.select_option("#lab-value0", "")
    labels = page.evaluate("[...document.querySelectorAll('#lab-value1 option')].map(o => [o.value, o.textContent])")
    kept = [v for v, label in labels if label == "lab variant"]
    assert kept, labels
    page.select_option("#lab-value1", kept[0])
    page.fill("#lab-games", "10")
    page.click("#lab-start")
    row = page.locator("#experiments li.match-row").first
    row.wait_for()
    page.wait_for_function("['done', 'failed'].includes(document.querySelector('#experiments li.match-row').dataset.status)",
                           timeout=180_000)
    assert row.get_attribute("data-status") == "done", row.inner_text()
    href = row.locator("a.report").get_attribute("href")
    report = urllib.request.urlopen(module_server.url + href).read().decode()
    assert "<html" in report.lower() and kept[0][4:16] in report          # the report names the set it compared
