"""Bad input to 風帝伝説FIGHTER's card file (``cards=``): a table or key the loader does not know,
or a number no card prints, is refused in English and Japanese, naming the file and the card,
quoting no more of the file than that."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import takujo
from takujo.core.errors import CardDataError
from takujo.games.fuutei.cards import CARD_FILE

BASE = CARD_FILE.read_text(encoding="utf-8")
KANA = re.compile(r"[\u3040-\u30ff]")


def refused(tmp_path: Path, text: str) -> tuple[str, str]:
    assert text != BASE
    path = tmp_path / "cards.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CardDataError) as err:
        takujo.load("fuutei", cards=str(path))
    en, ja = err.value.text("en"), err.value.text("ja")
    assert str(path) in en and str(path) in ja and en != ja and KANA.search(ja)
    return en, ja


@pytest.mark.parametrize("text, words", [
    (BASE + '\n[[cards]]\nid = "extra"\n', ["cards", "meta, card"]),   # a misspelt table: its cards ignored
    ("version = 2\n" + BASE, ["version"]),
], ids=["misspelt table", "top-level key"])
def test_an_unknown_table_or_key_is_refused(tmp_path, text, words):
    en, ja = refused(tmp_path, text)
    assert all(w in en and w in ja for w in words)
    assert "unknown table" in en and "知らない表" in ja


def test_an_unknown_meta_key_is_refused(tmp_path):
    en, ja = refused(tmp_path, BASE.replace("stand_in = true", "stand_inn = true", 1))
    assert all("stand_inn" in t and "[meta]" in t and "note_en" in t for t in (en, ja))


def test_an_equipment_bonus_no_card_prints_is_refused(tmp_path):
    """An equipment bonus was any whole number (a 19-digit one was accepted); it is a modifier
    of -20 to 20, like a hold's."""
    m = re.search(r"\nbonus = \[(\d+), ", BASE)
    en, ja = refused(tmp_path, BASE.replace(m.group(0), "\nbonus = [9223372036854775807, ", 1))
    assert "'bonus.0'" in en and "20" in en and "20 以下" in ja


def test_a_long_unknown_hook_is_quoted_short(tmp_path):
    en, ja = refused(tmp_path, BASE.replace('hook = "yamiomaru_victory"', 'hook = "' + "h" * 5000 + '"', 1))
    assert "yamiomaru" in en and "h" * 50 not in en + ja and len(en) < 300


def test_a_long_unknown_excluded_by_is_quoted_short(tmp_path):
    text = re.sub(r'excluded_by = "[a-z_]+"', 'excluded_by = "' + "z" * 5000 + '"', BASE, count=1)
    en, ja = refused(tmp_path, text)
    assert "excluded_by" in en and "z" * 50 not in en + ja and len(en) < 300
