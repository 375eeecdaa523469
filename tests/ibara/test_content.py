"""Loading Ibara content: every problem the game would meet in play is a `CardDataError` at
load naming the file and the problem (never an IndexError mid-setup, never a traceback)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import takujo
from takujo.core.errors import CardDataError
from takujo.games.ibara.content import CONTENT_FILE, build_content

BASE = CONTENT_FILE.read_text(encoding="utf-8")


def _write(tmp_path: Path, text: str, name: str = "content.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _without_knights(text: str, *ids: str) -> str:
    for kid in ids:
        text = re.sub(r'\[\[knight\]\]\nid = "' + kid + r'".*?(?=\n\[\[|\n# -----)', "", text, flags=re.S)
    return text


def _load_error(path: Path, **options) -> str:
    with pytest.raises(CardDataError) as err:
        takujo.load("ibara", content=str(path), **options)
    assert str(path) in str(err.value)
    return str(err.value)


def test_fewer_knights_than_players_is_refused_at_load(tmp_path):
    """Three knights for four players: refused when the game is loaded (it raised IndexError
    while setting up), naming the file and the counts; three players still play."""
    path = _write(tmp_path, _without_knights(BASE, "ryan"))
    msg = _load_error(path, players=4)
    assert "3 knight(s) for 4 players" in msg
    game = takujo.load("ibara", content=str(path), players=3)
    assert game.new_state(1).outcome is None


def test_too_few_knights_for_any_game_is_refused(tmp_path):
    path = _write(tmp_path, _without_knights(BASE, "ryan", "sion"))
    with pytest.raises(CardDataError, match=r"2 knight\(s\); the game needs at least 3"):
        build_content(path)


def test_too_few_whims_to_win_is_refused(tmp_path):
    """Short mode needs 2 whim cards in play, the standard game 3 (IBR-WIN-01, IBR-SHORT-03):
    a content file whose whims all leave in short mode cannot be won there."""
    text = re.sub(r"(\[\[whim\]\]\n)", r"\1short_remove = true\n", BASE.replace("short_remove = true\n", ""))
    path = _write(tmp_path, text)
    msg = _load_error(path, mode="short")
    assert "0 whim card(s) in play" in msg
    takujo.load("ibara", content=str(path))                 # the standard game keeps them


@pytest.mark.parametrize("edit, problem", [
    (lambda t: t.replace('move = { "1-4" = 3,', 'move = { "1-x" = 3,'), "not a number range"),
    (lambda t: t.replace('"9-12" = 1, ', ""), "no movement value for number(s) 9, 10, 11, 12"),
    (lambda t: t.replace('"9-12" = 1', '"9-12" = 0'), "greater than or equal to 1"),
    (lambda t: t.replace("effect = { do = \"draw\", n = 2 }", "effect = { do = \"draw\", n = \"two\" }"),
     "'n' must be a whole number"),
    (lambda t: t.replace('id = "food"', 'id = "water"'), "id(s) water used more than once"),
    (lambda t: t + '\n[[knights]]\nid = "x"\n', "unknown table(s) knights;"),
    (lambda t: t.replace("[meta]\n", "meta = 3\n[other_meta]\n"), "unknown table(s)"),
    (lambda t: t.replace('items = ["water"]', 'items = ["wine"]', 1), "no item 'wine'"),
    (lambda t: t.replace("[deck]\nnumbers = 12", "[deck]\nnumbers = 0"), "[deck]"),
])
def test_bad_content_names_the_file_and_the_problem(tmp_path, edit, problem):
    path = _write(tmp_path, edit(BASE))
    msg = _load_error(path)
    assert problem in msg
    assert "Traceback" not in msg


def test_a_folder_or_a_non_utf8_file_gives_a_clear_error(tmp_path):
    """Data files are read with `read_toml`: a folder, a missing file and a file that is not
    UTF-8 each give a CardDataError naming the path, quoting nothing of the file."""
    msg = _load_error(tmp_path)
    assert "folder" in msg
    missing = tmp_path / "nope.toml"
    assert "not found" in _load_error(missing)
    latin = tmp_path / "latin.toml"
    latin.write_bytes(BASE.encode("utf-8").replace("ゲイブリッツ".encode(), "Gaïblitz".encode("latin-1")))
    assert "not UTF-8" in _load_error(latin)


def test_the_built_in_content_loads_and_lists_its_sp_cards():
    c = build_content(CONTENT_FILE)
    assert len(c.knights) == 4 and len(c.cards) == 84
    assert [s.id for s in c.sps] == ["teleport", "foresight", "summons"]


# ----- sizes, counts and numbers the game cannot play with -----------------------------------
KANA = re.compile(r"[\u3040-\u30ff]")
DECK = "numbers = 12\ncopies = 2\nshields = [1, 2, 3, 4, 5, 6]"


def _refused(tmp_path: Path, text: str) -> tuple[str, str]:
    """The error's English and Japanese texts, each naming the file."""
    path = _write(tmp_path, text)
    with pytest.raises(CardDataError) as err:
        takujo.load("ibara", content=str(path))
    en, ja = err.value.text("en"), err.value.text("ja")
    assert str(path) in en and str(path) in ja and en != ja and KANA.search(ja)
    return en, ja


def test_the_least_action_deck_is_every_players_full_hand_and_a_draw():
    """The minimum comes from the turn: at the most players (4) each may keep a hand of 7
    between turns, and the turn player draws 3 more — 31 cards."""
    from takujo.games.ibara.content import MAX_PLAYERS
    from takujo.games.ibara.game import IbaraOptions
    from takujo.games.ibara.state import DRAW, HAND_LIMIT
    assert IbaraOptions(players=MAX_PLAYERS).players == MAX_PLAYERS
    with pytest.raises(ValueError):
        IbaraOptions(players=MAX_PLAYERS + 1)
    assert (MAX_PLAYERS, HAND_LIMIT, DRAW) == (4, 7, 3)


@pytest.mark.parametrize("deck, count", [
    ("numbers = 1\ncopies = 1\nshields = []", 9),         # 3 numbered cards and the 6 SP cards
    ("numbers = 4\ncopies = 2\nshields = []", 30),        # one short
])
def test_an_action_deck_too_small_to_play_is_refused_naming_the_minimum(tmp_path, deck, count):
    """A deck of a few cards loaded, and every game ran until the round limit: the cards sat in
    hands, the deck and its discard pile empty. Fewer than 31 is refused, saying how many
    there are and why 31."""
    assert DECK in BASE
    en, ja = _refused(tmp_path, BASE.replace(DECK, deck))
    assert f"{count} action card(s); the game needs at least 31" in en
    assert "4 players may each keep a hand of 7, and the turn player draws 3 more" in en
    assert f"行動カードが {count} 枚しかありません。少なくとも 31 枚必要です" in ja


def test_an_action_deck_of_the_minimum_plays(tmp_path):
    path = _write(tmp_path, BASE.replace(DECK, "numbers = 4\ncopies = 2\nshields = [1]"))
    game = takujo.load("ibara", content=str(path))
    assert len(game.content.cards) == 31 and game.new_state(3).outcome is None


@pytest.mark.parametrize("edit, en_words, ja_words", [
    # short mode removes more copies than there are
    (lambda t: t.replace("count = 4\nshort_remove = 2", "count = 4\nshort_remove = 5", 1),
     ["hoseki", "short_remove (5)", "count (4)"], ["hoseki", "short_remove (5)", "count (4)"]),
    (lambda t: t.replace("count = 2\nshort_remove = 2", "count = 2\nshort_remove = 9", 1),
     ["fushigi_na_hoseki", "short_remove (9)"], ["fushigi_na_hoseki", "を超えています"]),
    # a square on a whim that is not a visit: never read
    (lambda t: t.replace('deed = "win_combat"\nshort_remove = true', 'deed = "win_combat"\nsquare = 3\nshort_remove = true', 1),
     ["ibarahime_no_koi", "only a visit whim has a square"], ["ibarahime_no_koi", "visit"]),
    # a whim asking for more chips than the content holds: it could never be satisfied
    (lambda t: t.replace('items = ["hoseki", "hoseki"]', 'items = ["book", "book", "book"]', 1),
     ["densetsu_no_ruby", "wants 3 'book' chip(s), the content has 2"], ["densetsu_no_ruby", "'book' を 3 個"]),
    # a misspelt [meta] key
    (lambda t: t.replace("stand_in = true", "standin = true", 1),
     ["[meta]", "standin", "stand_in"], ["[meta]", "standin", "知らない項目"]),
    # a number range of 5000 digits was read with int(): Python's own error was the message
    (lambda t: t.replace('"1-4" = 3', '"' + "9" * 5000 + '-4" = 3', 1),
     ["not a number range"], ["数の範囲"]),
    (lambda t: t.replace('"1-4" = 3', '"²-4" = 3', 1), ["'²-4' is not a number range"], ["'²-4'"]),
], ids=["item short_remove", "event short_remove", "square", "chips", "meta", "5000 digits", "superscript"])
def test_content_the_game_cannot_use_is_refused_in_both_languages(tmp_path, edit, en_words, ja_words):
    text = edit(BASE)
    assert text != BASE
    en, ja = _refused(tmp_path, text)
    assert all(w in en for w in en_words), en
    assert all(w in ja for w in ja_words), ja
    assert "9" * 50 not in en + ja and "int_max_str_digits" not in en and "invalid literal" not in en
