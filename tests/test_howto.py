"""Rules help (takujo.present.howto): how to play every game and words for every option, in
Japanese and English, each paragraph citing clauses that docs/rules/<game>.md holds."""
from __future__ import annotations

import fnmatch
import json
import re
import tomllib
from pathlib import Path

import pytest

import takujo
from takujo.core.errors import CardDataError
from takujo.present import howto
from takujo.present.catalogue import LANGS, option_help
from takujo.present.howto import (REQUIRED_SECTIONS, TAGS, help_data, how_to_play, howto_path, load_howto,
                                  option_choices, option_words, value_key)

ROOT = Path(__file__).resolve().parent.parent
#: The clause prefix of each game's rules catalogue.
PREFIX = {"fuutei": "FTR", "sengoku_taisen": "SGT", "ibara": "IBR", "draft_daimyo": "DSD"}
#: The games of this package (a test may register others, such as the toy game).
GAMES = sorted(n for n in takujo.names() if takujo.game_class(n).__module__.startswith("takujo.games."))
KANA = re.compile(r"[\u3040-\u30ff]")
CLAUSE = re.compile(r"\b[A-Z]{3}-[A-Z]")
#: A clause ID in a rules document, and a range of them ("SGT-WALL-03..05").
DOC_ID = re.compile(r"\b([A-Z]{3}(?:-[A-Z0-9]+)+)(?:\.\.(\d+))?")


def clause_ids(game: str) -> set[str]:
    """Every clause ID docs/rules/<game>.md names, ranges spelt out."""
    text = (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")
    found: set[str] = set()
    for m in DOC_ID.finditer(text):
        first, last = m.group(1), m.group(2)
        found.add(first)
        head, _, number = first.rpartition("-")
        if last and number.isdigit():
            found.update(f"{head}-{n:0{len(number)}d}" for n in range(int(number), int(last) + 1))
    return found


def test_the_games_of_the_package_are_the_four():
    assert GAMES == sorted(PREFIX)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", GAMES)
def test_every_game_has_every_section_in_both_languages(name, lang):
    h = how_to_play(takujo.load(name), lang)
    assert h["game"] == name and h["lang"] == lang and h["title"] and h["game_title"]
    ids = [s["id"] for s in h["sections"]]
    assert set(REQUIRED_SECTIONS) <= set(ids) and len(ids) == len(set(ids))
    for s in h["sections"]:
        assert s["heading"].strip() and s["paragraphs"], s["id"]
        assert all(isinstance(p, str) and p.strip() for p in s["paragraphs"]), s["id"]
        assert len(s["sources"]) == len(s["paragraphs"])
        assert s["rules"] == list(dict.fromkeys(r for src in s["sources"] for r in src["rules"]))
    json.dumps(h, ensure_ascii=False)  # plain data, for the web API


@pytest.mark.parametrize("name", GAMES)
def test_each_language_has_its_own_text(name):
    """No text empty, none left untranslated: the Japanese has kana, the English none (card and
    knight names in kanji or katakana may stand in English, but never a whole sentence)."""
    data = help_data(name)
    texts = [data.title] + [s.heading for s in data.sections] + [p.text for s in data.sections for p in s.paragraphs]
    for words in data.options.values():
        texts += [words.label, words.description, *words.values.values()]
    for t in texts:
        assert t is not None and all(t[lang].strip() for lang in LANGS)
        assert t["ja"] != t["en"] or not KANA.search(t["en"]), t
    for t in [data.title] + [p.text for s in data.sections for p in s.paragraphs]:
        assert t is not None and KANA.search(t["ja"]), t["ja"]
        english = KANA.sub("", t["en"])
        assert len(english) > 0.7 * len(t["en"]), t["en"]


@pytest.mark.parametrize("name", GAMES)
def test_every_cited_clause_is_in_the_rules_document(name):
    known = clause_ids(name)
    assert known, name
    cited = 0
    for s in help_data(name).sections:
        for p in s.paragraphs:
            assert p.rules or p.tags, (s.id, p.text["en"])   # every paragraph says where it comes from
            assert set(p.tags) <= TAGS
            for rule in p.rules:
                assert rule.startswith(PREFIX[name] + "-"), rule
                assert rule in known, f"{rule} is not in docs/rules/{name}.md"
                cited += 1
    assert cited >= 10


def _expected_values(cls, key) -> set[str]:
    return {value_key(v) for v in option_choices(cls, key) or []}


@pytest.mark.parametrize("name", GAMES)
def test_every_option_and_every_value_is_labelled_in_both_languages(name):
    cls = takujo.game_class(name)
    data = help_data(name)
    fields = cls.Options.model_fields
    assert set(data.options) == set(fields), "a help file names every option, and only those"
    keys = [k for k in fields if "_" in k]
    for key, info in fields.items():
        words = data.options[key]
        for lang in LANGS:
            label, description = words.label[lang], words.description[lang]
            assert label.strip() and label.lower() not in (key.lower(), key.replace("_", " ").lower())
            assert description.strip() and not CLAUSE.search(description), (key, description)
            assert "=" not in description and not any(k in description for k in keys), (key, description)
        expected = _expected_values(cls, key)
        missing = expected - set(words.values)
        assert not missing, f"{name}: option {key} has no label for {sorted(missing)}"
        extra = set(words.values) - expected - ({""} if info.get_default() == "" else set())
        assert not extra, f"{name}: option {key} labels values it does not take: {sorted(extra)}"
        for lang in LANGS:
            labels = [words.values[v][lang] for v in expected]
            assert all(t.strip() for t in labels) and len(set(labels)) == len(labels), (key, lang)


def test_enum_and_bool_options_list_their_values():
    fuutei = takujo.game_class("fuutei")
    assert option_choices(fuutei, "center_regions") == ["invadable", "effects_only"]
    assert option_choices(fuutei, "old_region_rule") == [False, True]
    assert option_choices(fuutei, "players") is None and option_choices(fuutei, "cards") is None
    assert option_choices(takujo.game_class("sengoku_taisen"), "deck1") == ["random", "蒼", "紅", "翠", "黒"]


def test_option_words_for_the_lobby_by_name_class_or_game():
    by_name = option_words("fuutei", "en")
    assert by_name == option_words(takujo.game_class("fuutei"), "en") == option_words(takujo.load("fuutei"), "en")
    assert list(by_name) == list(takujo.game_class("fuutei").Options.model_fields)
    centre = by_name["center_regions"]
    assert centre["label"] == "Centre regions" and centre["default"] == "invadable"
    assert [v["value"] for v in centre["values"]] == ["invadable", "effects_only"]
    assert "card effects" in centre["description"]
    ja = option_words("fuutei", "ja")
    assert ja["center_regions"]["label"] == "中央の地域"
    assert ja["old_region_rule"]["values"] == [{"value": False, "label": "15周年版: 中央に置く"},
                                              {"value": True, "label": "旧ルール: 引いた人の場に置く"}]
    assert {"value": "", "label": "内蔵の代替カードセット"} in ja["cards"]["values"]
    decks = option_words("sengoku_taisen", "en")["deck1"]["values"]
    assert decks[0] == {"value": "random", "label": "Random starter"} and {"value": "紅", "label": "Red (紅)"} in decks
    json.dumps(option_words("draft_daimyo", "ja"), ensure_ascii=False)


def _options(h):
    return {o["key"]: o for o in h["options"]}


def test_how_to_play_marks_the_options_that_differ_from_their_defaults():
    plain = _options(how_to_play(takujo.load("fuutei"), "en"))
    assert not any(o["changed"] for o in plain.values())
    h = _options(how_to_play(takujo.load("fuutei", center_regions="effects_only", players=3), "en"))
    assert list(h) == list(plain)
    centre = h["center_regions"]
    assert centre["changed"] and centre["value"] == "effects_only" and centre["default"] == "invadable"
    assert centre["value_label"] == "Card effects only" and centre["default_label"] == "Can be invaded"
    assert h["players"]["changed"] and h["players"]["value_label"] == "3"
    assert [k for k, o in h.items() if o["changed"]] == ["players", "center_regions"]
    assert h["cards"]["value_label"] == "Built-in stand-in set" and not h["cards"]["changed"]

    daimyo = _options(how_to_play(takujo.load("draft_daimyo", expansion=True, tactics=True), "ja"))
    assert daimyo["expansion"]["changed"] and daimyo["expansion"]["value"] is True
    assert daimyo["expansion"]["value_label"] == "拡張あり" and daimyo["tactics"]["value_label"] == "使う"
    assert not daimyo["turn_order_choice"]["changed"] and daimyo["turn_order_choice"]["value_label"] == "左隣へ回る"

    ibara = _options(how_to_play(takujo.load("ibara", mode="short"), "en"))
    assert ibara["mode"]["changed"] and ibara["mode"]["value_label"] == "Short"
    sengoku = _options(how_to_play(takujo.load("sengoku_taisen", deck1="紅"), "en"))
    assert sengoku["deck1"]["changed"] and sengoku["deck1"]["value_label"] == "Red (紅)"
    assert not sengoku["deck2"]["changed"] and sengoku["deck2"]["value_label"] == "Random starter"


@pytest.mark.parametrize("lang", ["fr", "", "de_DE.UTF-8", "klingon"])
def test_an_unknown_language_falls_back_to_english(lang):
    game = takujo.load("ibara")
    assert how_to_play(game, lang) == how_to_play(game, "en")
    assert option_words("ibara", lang) == option_words("ibara", "en")


def test_a_locale_names_its_language():
    game = takujo.load("draft_daimyo")
    assert how_to_play(game, "ja_JP.UTF-8") == how_to_play(game, "ja")
    assert how_to_play(game, "EN")["lang"] == "en"


def test_the_titles_are_in_the_language_asked_for():
    ibara = takujo.load("ibara")
    assert how_to_play(ibara, "en")["game_title"] == "The Thorn Princess and the Four Knights"
    assert how_to_play(ibara, "ja")["game_title"] == "いばらの姫と4人の騎士"
    assert how_to_play(ibara, "en")["title"].startswith("How to play")


def test_a_help_file_is_read_once():
    help_data("fuutei")
    before = howto._load.cache_info()
    for _ in range(3):
        how_to_play(takujo.load("fuutei"), "ja")
        option_words("fuutei", "en")
    after = howto._load.cache_info()
    assert after.misses == before.misses and after.hits > before.hits
    assert help_data("fuutei") is help_data(takujo.game_class("fuutei"))


def test_a_game_without_a_help_file_still_describes_its_options():
    from tests.toy import ToyGame
    game = ToyGame(players=3)
    assert not howto_path(ToyGame).exists()
    h = how_to_play(game, "en")
    assert h["sections"] == [] and h["title"] == h["game_title"]
    players = _options(h)["players"]
    assert players["label"] == "players" and players["description"] == option_help(ToyGame, "players", "en")
    assert players["changed"] and players["value"] == 3 and players["default"] == 4


def _write(tmp_path, text):
    path = tmp_path / "howto.toml"
    path.write_text(text, encoding="utf-8")
    return path


GOOD = '''title = { ja = "遊び方", en = "How to play" }
[[sections]]
id = "setup"
heading = { ja = "準備", en = "Setup" }
[[sections.paragraphs]]
rules = ["TOY-01"]
ja = "配る。"
en = "Deal."
[options.players]
label = { ja = "人数", en = "Players" }
description = { ja = "遊ぶ人数。", en = "How many play." }
'''


def test_a_help_file_is_checked_when_read(tmp_path):
    data = load_howto(_write(tmp_path, GOOD))
    assert data.sections[0].paragraphs[0].rules == ("TOY-01",) and data.options["players"].label["en"] == "Players"
    with pytest.raises(CardDataError, match="no en text"):
        load_howto(_write(tmp_path, GOOD.replace('en = "Deal."', "")))
    with pytest.raises(CardDataError, match="cites its rules"):
        load_howto(_write(tmp_path, GOOD.replace('rules = ["TOY-01"]', "")))
    with pytest.raises(CardDataError, match="tags are"):
        load_howto(_write(tmp_path, GOOD.replace('rules = ["TOY-01"]', 'tags = ["invented"]')))
    with pytest.raises(CardDataError, match="used twice"):
        load_howto(_write(tmp_path, GOOD + GOOD[GOOD.index("[[sections]]"):GOOD.index("[options")]))
    with pytest.raises(CardDataError, match="no ja text"):
        load_howto(_write(tmp_path, GOOD.replace('label = { ja = "人数", ', "label = { ")))
    with pytest.raises(CardDataError, match="not a TOML|TOML"):
        load_howto(_write(tmp_path, "title = {"))


def test_the_help_files_are_shipped_with_the_package():
    """pyproject.toml's package data takes every game's howto.toml."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    package_data = config["tool"]["setuptools"]["package-data"]
    for name in GAMES:
        path = howto_path(takujo.game_class(name))
        assert path.is_file()
        package = takujo.game_class(name).__module__.rpartition(".")[0]
        assert any(fnmatch.fnmatch(path.name, pattern) for pattern in package_data.get(package, [])), package
