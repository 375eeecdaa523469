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
