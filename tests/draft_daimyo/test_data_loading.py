"""Bad input to ドラフト戦国大名's data files (``cards=``, ``board=``): an effect parameter no rule
can read, a table or key the loader does not know, or a tactics rule without tactics cards is
refused at load, in English and Japanese, naming the file and the card."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import takujo
from takujo.core.errors import CardDataError
from takujo.games.draft_daimyo.board import MAP_FILE
from takujo.games.draft_daimyo.cards import CARD_FILE, PARAMS
from takujo.games.draft_daimyo.effects import VERBS

CARDS = CARD_FILE.read_text(encoding="utf-8")
MAP = MAP_FILE.read_text(encoding="utf-8")
KANA = re.compile(r"[\u3040-\u30ff]")
ALL = {"expansion": True, "tactics": True}


def refused(tmp_path: Path, option: str, text: str, **options) -> tuple[str, str]:
    path = tmp_path / f"{option}.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CardDataError) as err:
        takujo.load("draft_daimyo", **{option: str(path)}, **options)
    en, ja = err.value.text("en"), err.value.text("ja")
    assert str(path) in en and str(path) in ja and en != ja and KANA.search(ja)
    return en, ja


def test_every_parameter_has_a_range():
    assert {p for verb in VERBS.values() for p in verb.params} == set(PARAMS)


@pytest.mark.parametrize("old, new, words", [
    # read with int() in play: "two" raised ValueError mid-game
    ('play = {do = "gold", n = 2}', 'play = {do = "gold", n = "two"}', ["'gold'", "n", "'two'"]),
    # a march table of every soldier count up to the bonus was to be built
    ('do = "march_bonus", n = 1', 'do = "march_bonus", n = 100000000', ["'march_bonus'", "100000000"]),
    ('play = {do = "gold", n = 2}', 'play = {do = "gold", n = -2}', ["'gold'", "-2"]),
    ('play = {do = "subvert", min_defection = 3}', 'play = {do = "subvert", min_defection = 7}', ["'subvert'", "7"]),
], ids=["text", "huge", "negative", "defection"])
def test_an_effect_parameter_out_of_range_is_refused_naming_the_card(tmp_path, old, new, words):
    assert old in CARDS
    en, ja = refused(tmp_path, "cards", CARDS.replace(old, new, 1), **ALL)
    found = re.search(r"card #(\d+) \(([a-z_]+)\)", en)
    assert found is not None, en
    assert f"{found.group(1)}番目の [[card]] ({found.group(2)})" in ja   # the same card, named in Japanese
    assert all(w in en and w in ja for w in words)
    assert "must be a whole number from" in en and "以上" in ja and "以下の整数" in ja


@pytest.mark.parametrize("option, text, words", [
    ("cards", CARDS + '\n[[crad]]\nid = "x"\n', ["crad", "meta, card"]),
    ("cards", CARDS.replace("stand_in = true", "stand_inn = true", 1), ["[meta]", "stand_inn"]),
    ("board", MAP + '\n[[provinces]]\nid = "x"\n', ["provinces", "meta, province"]),
    ("board", MAP.replace("stand_in = true", "standin = true", 1), ["[meta]", "standin"]),
], ids=["card table", "card meta", "map table", "map meta"])
def test_an_unknown_table_or_key_is_refused(tmp_path, option, text, words):
    en, ja = refused(tmp_path, option, text)
    assert all(w in en and w in ja for w in words)


def test_the_tactics_rule_without_tactics_cards_is_refused(tmp_path):
    """DSD-TACTICS-GAIN-01: with tactics=true players draw tactics cards; a card list without
    any made the option do nothing. The list still plays without the option."""
    head, *blocks = CARDS.split("\n[[card]]\n")
    text = head + "".join("\n[[card]]\n" + b for b in blocks if 'type = "tactics"' not in b)
    en, ja = refused(tmp_path, "cards", text, **ALL)
    assert "no tactics card" in en and "戦術カード" in ja and "'tactics'=true" in ja
    takujo.load("draft_daimyo", cards=str(tmp_path / "cards.toml"), expansion=True)
