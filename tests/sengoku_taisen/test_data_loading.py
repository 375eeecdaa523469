"""Bad input to 戦国大戦 双's loaders: a card file (``cards=``) and a decklist (a file, an upload)
are refused with an error that names, in English and in Japanese, the file, the card and what
is wrong — never a Python error, never more of the file than the card or line it names."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import takujo
from takujo.core.errors import CardDataError, OptionError, TakujoError
from takujo.games.sengoku_taisen import decks
from takujo.games.sengoku_taisen.cards import CARD_FILE, KEYWORDS, MAX_COST, build_pool
from takujo.games.sengoku_taisen.game import SengokuGame

BASE = CARD_FILE.read_text(encoding="utf-8")
AO = (decks.DECK_DIR / "ao.txt").read_text(encoding="utf-8")
KANA = re.compile(r"[\u3040-\u30ff]")


def texts(err: TakujoError) -> tuple[str, str]:
    """The error's English and Japanese texts (the Japanese one is Japanese)."""
    en, ja = err.text("en"), err.text("ja")
    assert en != ja and KANA.search(ja), ja
    return en, ja


def refused(tmp_path: Path, text: str) -> tuple[str, str]:
    path = tmp_path / "cards.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CardDataError) as err:
        build_pool(path)
    en, ja = texts(err.value)
    assert str(path) in en and str(path) in ja
    assert "Traceback" not in en
    return en, ja


def _card(number: str) -> str:
    """The [[card]] table of card `number` in the built-in pool."""
    return re.search(r'\[\[card\]\]\nnumber = "' + number + r'".*?(?=\n\[\[card\]\]|\Z)', BASE, re.S).group(0)


def edit_card(number: str, old: str, new: str) -> str:
    card = _card(number)
    assert old in card, (number, old)
    return BASE.replace(card, card.replace(old, new, 1), 1)


# ----- the card file ---------------------------------------------------------------------------
def test_an_unknown_keyword_is_refused_naming_the_file_the_card_and_the_keywords_known(tmp_path):
    """A misspelt keyword (貫痛 for 貫通) names the card by its number, the keyword, and the
    keywords the engine knows, in both languages."""
    assert 'keywords = ["貫通"]' in _card("AK-02")
    en, ja = refused(tmp_path, edit_card("AK-02", 'keywords = ["貫通"]', 'keywords = ["貫痛"]'))
    for text in (en, ja):
        assert "AK-02" in text and "'貫痛'" in text and "keywords" in text
        assert all(k in text for k in KEYWORDS)
    assert "unknown keyword" in en and "知らないキーワード" in ja


def test_a_bad_field_names_the_card_by_its_number(tmp_path):
    """Every problem of a card names it by its number, the pool's key (cards have no id)."""
    en, ja = refused(tmp_path, edit_card("AK-03", 'type = "warlord"', 'type = "warlord"\nkeyword = ["奇襲"]'))
    assert "(AK-03)" in en and "(AK-03)" in ja and "'keyword'" in en


@pytest.mark.parametrize("extra, names", [
    ('\n[[crad]]\nnumber = "AK-99"\n', ["crad", "card", "meta"]),      # a misspelt table
    ("", ["version"]),                                                 # a key outside any table
], ids=["misspelt table", "top-level key"])
def test_an_unknown_table_or_key_is_refused(tmp_path, extra, names):
    text = BASE + extra if extra else "version = 2\n" + BASE
    en, ja = refused(tmp_path, text)
    for name in names:
        assert name in en and name in ja
    assert "unknown table" in en and "知らない表" in ja


def test_an_unknown_meta_key_is_refused(tmp_path):
    """A misspelt ``stand_in`` would mark the pool as the real one without a word."""
    en, ja = refused(tmp_path, BASE.replace("stand_in = true", "stand_inn = true", 1))
    for text in (en, ja):
        assert "stand_inn" in text and "stand_in," in text and "[meta]" in text


@pytest.mark.parametrize("cost", ['"紅紅' + "9" * 5000 + '"', '"' + "紅" * 100 + '"', "100", "-3",
                                  "9223372036854775807"],
                         ids=["5000 digits", "100 symbols", "100", "negative", "int64"])
def test_a_cost_out_of_range_is_refused_without_a_python_error(tmp_path, cost):
    """A cost of 5000 digits was read with int() (Python refuses over 4300 digits: its error
    was the message); a negative or huge cost was accepted. Each is refused, quoting at most
    40 characters of it."""
    en, ja = refused(tmp_path, edit_card("AK-01", 'cost = "紅紅2"', f"cost = {cost}"))
    for text in (en, ja):
        assert "AK-01" in text and "'cost'" in text and str(MAX_COST) in text
        assert "9" * 50 not in text and "紅" * 50 not in text
    assert "out of range" in en and "範囲外" in ja
    assert "int_max_str_digits" not in en and "4300" not in en


@pytest.mark.parametrize("old, new, field", [
    ("strength = 3500", "strength = 9223372036854775807", "strength"),
    ("siege = 2", "siege = 1000", "siege"),
])
def test_a_huge_stat_is_refused(tmp_path, old, new, field):
    en, ja = refused(tmp_path, edit_card("AK-01", old, new))
    assert f"'{field}'" in en and "AK-01" in ja


@pytest.mark.parametrize("param, value", [("n", "9223372036854775807"), ("n", '"' + "x" * 5000 + '"')],
                         ids=["int64", "long text"])
def test_a_huge_effect_number_is_refused_and_quoted_short(tmp_path, param, value):
    text = BASE.replace('effect = { do = "draw", n = 2 }', f'effect = {{ do = "draw", {param} = {value} }}', 1)
    en, ja = refused(tmp_path, text)
    for text in (en, ja):
        assert "'draw'" in text and "99" in text and "x" * 50 not in text
    assert "at most 99" in en


def test_a_card_number_is_one_a_deck_code_can_carry(tmp_path):
    """A deck code carries card numbers of up to 16 characters, "_" included: a longer number
    is refused by the pool, and one with "_" goes through a code and back."""
    refused(tmp_path, edit_card("AK-01", 'number = "AK-01"', 'number = "AK-0123456789012345"'))
    deck = decks.Decklist(name="x", source="x", okugi=["X_OG"], entries=[(2, "AB_01", 3)])
    back = decks.decode(decks.encode(deck))
    assert back.okugi == ["X_OG"] and back.entries[0][:2] == (2, "AB_01")


# ----- decklists -------------------------------------------------------------------------------
def _load_error(tmp_path: Path, text: str) -> tuple[str, str]:
    path = tmp_path / "deck.txt"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(OptionError) as err:
        takujo.load("sengoku_taisen", deck1=str(path))
    return texts(err.value)


def _upload_error(text: str) -> tuple[str, str]:
    with pytest.raises(OptionError) as err:
        SengokuGame.deck_from_text(text)
    return texts(err.value)


def test_a_count_of_five_thousand_digits_names_the_line_and_the_card(tmp_path):
    """SGT-DECK-03 allows 4 copies; a count of 5000 digits (past what int() reads) is one
    problem naming the line and the card and saying the count is too large, in both
    languages, from a file, an upload and `takujo deck check`."""
    line = "9" * 5000 + " AO-02"
    no = len(AO.splitlines()) + 1
    for en, ja in (_load_error(tmp_path, AO + line + "\n"), _upload_error(AO + line + "\n")):
        assert f"line {no}: AO-02: a count of 5000 digits is too large" in en
        assert f"{no} 行目: AO-02:" in ja and "大きすぎます" in ja
        assert "at most 4" in en and "4 枚まで" in ja
        assert "9" * 50 not in en + ja and len(en) < 400
    path = tmp_path / "deck.txt"
    path.write_text(AO + line + "\n", encoding="utf-8")
    (problem,) = SengokuGame.check_deck(path)
    assert problem.startswith(f"line {no}: AO-02:") and "too large" in problem


@pytest.mark.parametrize("text", ["", "# nothing yet\n", "name: mine\n", "name: mine\nokugi: AO-OG\n"])
def test_an_empty_decklist_says_it_has_0_cards_and_needs_50(tmp_path, text):
    """SGT-DECK-01: a decklist with no count line has 0 cards, not "not a decklist": the error
    says so and names the minimum, in both languages."""
    for en, ja in (_load_error(tmp_path, text), _upload_error(text)):
        assert "the deck has 0 cards; at least 50 are needed" in en
        assert "デッキは 0 枚です。少なくとも 50 枚必要です" in ja
        assert "not a decklist" not in en
    path = tmp_path / "deck.txt"
    path.write_text(text, encoding="utf-8")
    assert "the deck has 0 cards; at least 50 are needed" in SengokuGame.check_deck(path)


def test_every_decklist_problem_reads_in_japanese(tmp_path):
    """Each kind of problem a decklist can have is a message of the catalogue: the Japanese
    error holds no English problem."""
    text = "\n".join(["name: broken", "okugi: AK-01", "okugi: ZZ-OG", "5 AK-03", "1 MD-OG", "1 TK-01",
                      "2 ZZ-99", "four AK-01", "0 AK-02"]) + "\n"
    en, ja = _load_error(tmp_path, text)
    problems = en.splitlines()[1:]
    assert len(problems) == len(ja.splitlines()) - 1 == 10, en
    for line in ja.splitlines()[1:]:
        words = re.sub(r"'[^']*'|\([^)]*\)|[A-Z]+-[A-Z0-9]+", "", line)
        assert KANA.search(line) and not re.search(r"\b(line|the|deck|copies|count)\b", words), line


def test_an_error_lists_at_most_twenty_problems(tmp_path):
    """A decklist of thousands of bad lines is one error of 20 problems and a count of the rest
    (`takujo deck check` still prints every one)."""
    text = "name: many\nokugi: AO-OG\n" + "".join(f"1 ZZ-{i:04d}\n" for i in range(1000))
    en, ja = _load_error(tmp_path, text)
    assert len(en.splitlines()) == 1 + decks.MAX_LISTED + 1
    assert "and 981 more problem(s)" in en and "981 件" in ja
    path = tmp_path / "deck.txt"
    assert len(SengokuGame.check_deck(path)) == 1001
