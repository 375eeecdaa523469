"""Rules help in the app: "How to play" for a game and for a match (its chosen options in
words), the lobby's options in words, and the searchable card reference on the match page."""
from __future__ import annotations

import pytest

from .browser import create_match, join

GAMES = ["fuutei", "sengoku_taisen", "ibara", "draft_daimyo"]


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_game_has_how_to_play_with_setup_turn_and_winning(client, lang) -> None:
    for name in GAMES:
        res = client.get(f"/api/games/{name}/howto?lang={lang}")
        assert res.status_code == 200, res.text
        body = res.json()
        ids = [s["id"] for s in body["sections"]]
        assert {"setup", "turn", "winning"} <= set(ids), (name, ids)
        assert all(s["paragraphs"] and all(p.strip() for p in s["paragraphs"]) for s in body["sections"])
        assert body["lang"] == lang
    assert client.get("/api/games/nope/howto").status_code == 404


def test_a_match_explains_the_options_chosen_for_it_in_words(client) -> None:
    made = client.post("/api/matches", json={"game": "fuutei(center_regions=effects_only)",
                                             "seats": ["human", "bot:random", "bot:random"]}).json()
    body = client.get(f"/api/matches/{made['match']}/howto?lang=en").json()
    changed = {o["key"]: o for o in body["options"] if o["changed"]}
    assert changed["center_regions"]["value_label"] == "Card effects only"
    assert changed["center_regions"]["default_label"] == "Can be invaded"
    assert "center_regions" not in changed["center_regions"]["description"]
    assert not any(o["changed"] for o in body["options"] if o["key"] == "old_region_rule")


def test_the_lobby_gets_every_option_in_words(client) -> None:
    # Only the package's games: another test may have registered the toy game.
    for lang in ("ja", "en"):
        listed = [g for g in client.get(f"/api/games?lang={lang}").json() if g["name"] in GAMES]
        assert sorted(g["name"] for g in listed) == sorted(GAMES)
        for game in listed:
            for key, spec in game["options"].items():
                assert spec.get("label") and spec["label"] != key, (game["name"], key)
                for value in spec.get("enum", []):
                    if value != "":
                        assert str(value) in spec["value_labels"], (game["name"], key, value)


def test_the_match_page_shows_how_to_play_and_finds_cards(module_server, page) -> None:
    match = create_match(module_server, "fuutei(players=3)", ["human", "bot:random", "bot:random"], seed=3)
    join(page, match["seats"][0]["join_url"])
    page.click("#help-open")
    dialog = page.locator("dialog#help")
    dialog.wait_for()
    assert dialog.locator(".help-section[data-section=setup] p").count() > 0
    assert dialog.locator(".help-options dt").count() > 0
    page.click("#help-tab-cards")
    entries = dialog.locator(".card-entry")
    total = entries.count()
    assert total > 10
    name = entries.first.locator("strong").inner_text()
    page.fill("#card-search", name)
    page.wait_for_function(f"document.querySelectorAll('#help .card-entry').length < {total}")
    assert all(name.lower() in t.lower() for t in dialog.locator(".card-entry").all_inner_texts())
    page.fill("#card-search", "zzzz-no-such-card")
    dialog.locator(".card-reference .none").wait_for()
    page.keyboard.press("Escape")      # the first clears the search field (the browser's own)
    page.keyboard.press("Escape")      # the next closes the dialog
    page.wait_for_function("!document.querySelector('dialog#help').open")


def test_the_card_reference_names_card_types_in_words(module_server, page) -> None:
    match = create_match(module_server, "fuutei(players=3)", ["human", "bot:random", "bot:random"], seed=3)
    join(page, match["seats"][0]["join_url"], lang="ja")
    page.click("#help-open")
    page.click("#help-tab-cards")
    types = set(page.locator("dialog#help .card-entry .card-type").all_inner_texts())
    assert any("戦闘補助" in t for t in types) and any("キャラクター" in t for t in types), types
    assert not any(raw in t for t in types for raw in ("battle_support", "character", "tawake")), types
    page.fill("#card-search", "戦闘補助")                         # found by the word shown
    page.wait_for_function("[...document.querySelectorAll('#help .card-entry')].every("
                           "e => e.innerText.includes('戦闘補助'))")


def test_a_card_box_names_its_fields_in_the_viewers_language(module_server, page) -> None:
    match = create_match(module_server, "fuutei(players=3)", ["human", "bot:random", "bot:random"], seed=3)
    join(page, match["seats"][0]["join_url"], lang="ja")
    card = page.locator("#board .card[data-type]:not(.actionable):not(.back)").first
    card.wait_for()
    card.click()
    stats = page.locator(".popover .info-stats").first
    stats.wait_for()
    text = stats.inner_text()
    assert "種類" in text and "type:" not in text and "battle_support" not in text, text
