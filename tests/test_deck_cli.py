"""`takujo deck list|show|check` (takujo.cli), over the deck protocol of Game, with 戦国大戦 双."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from takujo.cli import app
from takujo.core.errors import NotSupportedError
from takujo.games.fuutei.game import FuuteiGame
from takujo.games.sengoku_taisen.game import SengokuGame

GAME = "sengoku_taisen"
runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


@pytest.fixture(scope="module")
def ao_text() -> str:
    result = run("deck", "show", GAME, "蒼")
    assert result.exit_code == 0, result.output
    return result.output


def write(tmp_path: Path, text: str, name: str = "deck.txt") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def edit(text: str, drop: str | None = None, add: str = "") -> str:
    """The decklist without the line starting with `drop`, plus the lines `add`."""
    lines = [line for line in text.splitlines() if drop is None or not line.startswith(drop)]
    return "\n".join(lines) + "\n" + add


def refused(tmp_path: Path, text: str, *expected: str) -> str:
    """Check `text`: it must be refused (exit 1) with exactly one problem, naming `expected`."""
    result = run("deck", "check", GAME, str(write(tmp_path, text)))
    assert result.exit_code == 1, result.output
    assert "(1 problem)" in result.output, result.output
    for part in expected:
        assert part in result.output, result.output
    return result.output


# ----- list and show --------------------------------------------------------------------
def test_deck_is_a_command_group():
    result = run("--help")
    assert result.exit_code == 0 and "deck" in result.output
    for sub in ("list", "show", "check"):
        assert sub in run("deck", "--help").output
        assert run("deck", sub, "--help").exit_code == 0


def test_list_shows_the_starters_with_counts_and_okugi():
    result = run("deck", "list", GAME)
    assert result.exit_code == 0, result.output
    for name, okugi in (("蒼", "AO-OG"), ("紅", "AK-OG"), ("翠", "MD-OG"), ("黒", "KR-OG")):
        row = next(line for line in result.output.splitlines() if f" {name} " in line)
        assert okugi in row and re.search(r"\b52\b", row), row


def test_show_prints_the_plain_format_with_card_names(ao_text):
    lines = ao_text.splitlines()
    assert "name: 蒼" in lines
    assert re.search(r"^okugi: AO-OG\s+# \S", ao_text, re.M)
    counted = [line for line in lines if re.match(r"^\d+ [A-Z]+-\d+\s+# \S", line)]
    assert sum(int(line.split()[0]) for line in counted) == 52
    assert any(line.startswith("2 AO-01") and "今川義元" in line for line in lines)


def test_show_round_trips_through_check(tmp_path, ao_text):
    result = run("deck", "check", GAME, str(write(tmp_path, ao_text)))
    assert result.exit_code == 0, result.output
    assert "legal sengoku_taisen deck" in result.output and "not a legal" not in result.output


@pytest.mark.parametrize("name", ["紅", "翠", "黒"])
def test_every_starter_round_trips(tmp_path, name):
    shown = run("deck", "show", GAME, name)
    assert shown.exit_code == 0 and f"name: {name}" in shown.output
    assert run("deck", "check", GAME, str(write(tmp_path, shown.output))).exit_code == 0


def test_show_an_unknown_deck_exits_2():
    result = run("deck", "show", GAME, "白")
    assert result.exit_code == 2
    assert "'白'" in result.output and "蒼" in result.output
    assert "Traceback" not in result.output


# ----- check refuses, naming the problem --------------------------------------------------
def test_fewer_than_50_cards(tmp_path, ao_text):
    refused(tmp_path, edit(ao_text, drop="4 AO-16"), "48 cards", "at least 50")


def test_more_than_4_of_one_number(tmp_path, ao_text):
    refused(tmp_path, edit(ao_text, add="1 AO-05\n"), "5 copies of AO-05", "at most 4")


def test_an_okugi_card_on_a_count_line(tmp_path, ao_text):
    refused(tmp_path, edit(ao_text, add="1 AK-OG\n"), "AK-OG", "okugi", "may not be in the deck")


def test_a_summon_card(tmp_path, ao_text):
    refused(tmp_path, edit(ao_text, add="1 TK-01\n"), "TK-01", "summoned-soldier")


def test_no_okugi_line(tmp_path, ao_text):
    refused(tmp_path, edit(ao_text, drop="okugi:"), "exactly one okugi", "found 0")


def test_two_okugi_lines(tmp_path, ao_text):
    refused(tmp_path, edit(ao_text, add="okugi: AK-OG\n"), "exactly one okugi", "found 2")


def test_an_unknown_card_number(tmp_path, ao_text):
    refused(tmp_path, edit(ao_text, add="1 ZZ-99\n"), "unknown card number 'ZZ-99'")


def test_every_problem_is_printed_one_per_line(tmp_path):
    text = "name: bad\n5 AO-01\n1 TK-01\n1 ZZ-99\nnot a card line\n"
    result = run("deck", "check", GAME, str(write(tmp_path, text)))
    assert result.exit_code == 1
    assert "(6 problems)" in result.output
    lines = result.output.splitlines()
    for part in ("5 copies of AO-01", "TK-01", "'ZZ-99'", "line 5", "5 cards", "found 0"):
        assert sum(part in line for line in lines) == 1, (part, result.output)


def test_a_missing_or_unreadable_file_exits_2(tmp_path):
    binary = tmp_path / "deck.bin"
    binary.write_bytes(b"\xff\xfe\x00\x81 not utf-8")
    for path, why in ((tmp_path / "nope.txt", "file not found"), (tmp_path, "is a folder"),
                      (binary, "not UTF-8")):
        result = run("deck", "check", GAME, str(path))
        assert result.exit_code == 2, result.output
        assert str(path) in result.output and why in result.output, result.output
        assert "Traceback" not in result.output and "not utf-8" not in result.output


def test_a_count_of_zero_is_refused(tmp_path, ao_text):
    out = refused(tmp_path, edit(ao_text, add="0 AO-02\n"), "line", "count of 0")
    assert "at least 1 copy" in out


def test_a_count_of_five_thousand_digits_is_one_clear_problem(tmp_path, ao_text):
    result = run("deck", "check", GAME, str(write(tmp_path, edit(ao_text, add="9" * 5000 + " AO-02\n"))))
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    assert "(1 problem)" in result.output and "count of 5000 digits" in result.output
    assert "9" * 50 not in result.output


def test_a_file_that_is_not_a_decklist_is_never_shown(tmp_path):
    secret = "root:x:0:0:hunter2:/root:/bin/bash\ndaemon:x:1:1:swordfish:/usr/sbin\n4 AO-01\n"
    for text in (secret, Path("/etc/passwd").read_text(encoding="utf-8") if Path("/etc/passwd").is_file() else secret):
        path = write(tmp_path, text, "passwd")
        result = run("deck", "check", GAME, str(path))
        assert result.exit_code == 1 and "(1 problem)" in result.output, result.output
        assert "not a decklist" in result.output and "line 1" in result.output
        for line in text.splitlines():
            for word in line.replace(":", " ").split():
                if len(word) > 5:
                    assert word not in result.output.replace(str(path), ""), word


def test_every_problem_of_a_real_decklist_is_still_listed(tmp_path, ao_text):
    text = edit(ao_text, add="0 AO-02\n5 AO-03\nnot a card line\n")
    result = run("deck", "check", GAME, str(write(tmp_path, text)))
    assert result.exit_code == 1 and "(3 problems)" in result.output, result.output
    assert "'not a card line'" in result.output and "count of 0" in result.output


# ----- games without decks, unknown games ------------------------------------------------
def test_a_game_without_decks_exits_2(tmp_path, ao_text):
    for args in (("list", "fuutei"), ("show", "fuutei", "蒼"),
                 ("check", "fuutei", str(write(tmp_path, ao_text)))):
        result = run("deck", *args)
        assert result.exit_code == 2, result.output
        assert "fuutei has no decks" in result.output and "Traceback" not in result.output


def test_an_unknown_game_exits_2():
    result = run("deck", "list", "nogame")
    assert result.exit_code == 2
    assert "unknown game 'nogame'" in result.output


def test_the_protocol_defaults_to_not_supported(tmp_path):
    with pytest.raises(NotSupportedError, match="fuutei has no decks"):
        FuuteiGame.starter_deck_names()
    with pytest.raises(NotSupportedError):
        FuuteiGame.deck_text("x")
    with pytest.raises(NotSupportedError):
        FuuteiGame.check_deck(tmp_path / "x.txt")
    assert SengokuGame.starter_deck_names() == ["蒼", "紅", "翠", "黒"]
    assert SengokuGame.check_deck(write(tmp_path, SengokuGame.deck_text("黒"))) == []


def test_a_checked_user_deck_plays(tmp_path, ao_text):
    import takujo
    path = write(tmp_path, edit(ao_text, drop="2 AO-15"), "mine.txt")  # 50 cards: legal
    assert run("deck", "check", GAME, str(path)).exit_code == 0
    game = takujo.load(GAME, deck1=str(path))
    assert len(game.deck_ids[0]) == 50 and game.deck_names == ("蒼", "紅")
