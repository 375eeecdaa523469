"""Deck options of 戦国大戦 双: what a deck option shows when it names a file that is not a
decklist (never its contents), and what its declared default says (a random starter)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import takujo
from takujo.cli import app
from takujo.core.errors import OptionError
from takujo.core.rng import Rng
from takujo.games.sengoku_taisen import decks
from takujo.games.sengoku_taisen.game import SengokuGame

SECRET = "root:x:0:0:hunter2:/root:/bin/bash\nservice:x:1:1:swordfish:/usr/sbin:/sbin/nologin\n"
runner = CliRunner()


def secret_words(text: str) -> list[str]:
    return [w for line in text.splitlines() for w in line.replace(":", " ").split() if len(w) > 5]


@pytest.fixture
def passwd(tmp_path: Path) -> Path:
    path = tmp_path / "passwd"
    path.write_text(SECRET, encoding="utf-8")
    return path


def test_deck_01_a_deck_option_naming_a_non_decklist_names_the_file_and_its_first_bad_line(passwd):
    """SGT-DECK-01..04 are checked on decklists; a file that is no decklist gets one clear
    `OptionError` naming the file and the first bad line by number, never its text."""
    for path in (passwd, Path("/etc/passwd")):
        if not path.is_file():
            continue
        with pytest.raises(OptionError) as err:
            takujo.load("sengoku_taisen", deck1=str(path))
        msg = str(err.value)
        assert str(path) in msg and "not a decklist" in msg and "line 1 " in msg
        assert msg.count("\n") == 0
        for word in secret_words(path.read_text(encoding="utf-8")):
            assert word not in msg.replace(str(path), ""), word


def test_deck_01_a_folder_or_non_utf8_deck_option_is_a_clear_error(tmp_path):
    binary = tmp_path / "deck.txt"
    binary.write_bytes(b"4 AO-01\n\xff\xfe secret\n")
    for path, why in ((tmp_path, "is a folder"), (binary, "not UTF-8")):
        with pytest.raises(OptionError, match=why) as err:
            takujo.load("sengoku_taisen", deck2=str(path))
        assert str(path) in str(err.value) and "secret" not in str(err.value)


def test_deck_01_count_lines_of_zero_or_five_thousand_digits(tmp_path):
    """A count line lists at least one copy; a huge count is a problem, not a crash."""
    base = (decks.DECK_DIR / "ao.txt").read_text(encoding="utf-8")
    for extra, part in (("0 AO-02", "count of 0"), ("9" * 5000 + " AO-02", "count of 5000 digits")):
        path = tmp_path / "deck.txt"
        path.write_text(base + extra + "\n", encoding="utf-8")
        with pytest.raises(OptionError, match=part) as err:
            takujo.load("sengoku_taisen", deck1=str(path))
        assert "9" * 50 not in str(err.value)
        assert any(part in p for p in SengokuGame.check_deck(path))


def test_a_record_whose_header_names_a_non_decklist_never_prints_it(tmp_path, passwd):
    """`takujo replay` of a record whose header's game string names such a deck fails with
    the same clear error and shows nothing of the file."""
    rec = tmp_path / "rec"
    rec.mkdir()
    assert runner.invoke(app, ["sim", "sengoku_taisen", "--games", "1", "--seed", "4", "--record", str(rec)]).exit_code == 0
    (path,) = rec.iterdir()
    lines = path.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    head["game"] = f"sengoku_taisen(deck1={passwd})"
    path.write_text("\n".join([json.dumps(head, ensure_ascii=False), *lines[1:]]) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path), "--quiet"])
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert "not a decklist" in result.output, result.output
    for word in secret_words(SECRET):
        assert word not in result.output, word


def test_the_deck_options_default_says_random_and_play_deals_random_starters():
    """`takujo games` shows deck1 and deck2 defaulting to random, which is what play and sim
    deal; the drawn decks are written into the game string, so records replay; a game string
    naming no deck (older records) still deals 蒼 and 紅."""
    fields = SengokuGame.Options.model_fields
    assert fields["deck1"].default == "random" and fields["deck2"].default == "random"
    out = runner.invoke(app, ["games"]).output
    row = next(line for line in out.splitlines() if line.strip().startswith("deck1"))
    assert "= random" in row
    drawn = {tuple(SengokuGame.choose_options({}, Rng(seed)).values()) for seed in range(40)}
    assert len(drawn) > 8 and all(d in decks.STARTERS for pair in drawn for d in pair)
    for pair in list(drawn)[:4]:
        g = takujo.load("sengoku_taisen", deck1=pair[0], deck2=pair[1])
        assert f"deck1={pair[0]}" in str(g) and takujo.load(str(g)).deck_names == pair
    assert takujo.load("sengoku_taisen").deck_names == ("蒼", "紅")
    assert takujo.load("sengoku_taisen(players=2,deck2=黒)").deck_names == ("蒼", "黒")
    assert takujo.load("sengoku_taisen", deck1="random").deck_names == ("蒼", "紅")
    rec = runner.invoke(app, ["sim", "sengoku_taisen", "--games", "3", "--seed", "1"])
    assert rec.exit_code == 0, rec.output
