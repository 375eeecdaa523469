"""Terminal play: several people at one terminal, resuming a saved game, card text, menus."""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import takujo
from takujo.cli import app
from takujo.core import Action
from takujo.terminal import MENU_LIMIT, build_menu

runner = CliRunner()


@pytest.fixture(autouse=True, scope="module")
def _toy_registered():
    takujo.register("toy", "tests.toy:ToyGame")


def run(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


# ----- menus ------------------------------------------------------------------------------------
def _labels(a: Action) -> str:
    return f"play card {a.args[0]} → square {a.args[1]}" if a.verb == "play" else a.verb


def test_a_long_menu_is_grouped_by_card_then_target():
    legal = [Action(0, "play", (c, t)) for c in (3, 7, 9) for t in range(10)] + [Action(0, "end")]
    menu = build_menu(legal, _labels)
    assert [len(e.actions) for e in menu] == [10, 10, 10, 1]
    assert menu[0].label.startswith("play card 3") and "… 10" in menu[0].label
    assert menu[3].label == "end"
    assert [a for e in menu for a in e.actions] == legal          # nothing lost, order kept
    again = build_menu(list(legal), _labels)
    assert [e.label for e in again] == [e.label for e in menu]    # the same numbers next time


def test_a_short_menu_lists_every_action():
    legal = [Action(0, "play", (c, 1)) for c in range(MENU_LIMIT)]
    assert [e.actions for e in build_menu(legal, _labels)] == [[a] for a in legal]


def test_a_menu_without_shared_cards_stays_flat():
    legal = [Action(0, "play", (c, 1)) for c in range(MENU_LIMIT + 5)]
    assert len(build_menu(legal, _labels)) == len(legal)


# ----- several people at one terminal -----------------------------------------------------------
def test_two_people_share_the_terminal_with_a_hand_over_screen():
    result = run("play", "toy", "--players", "3", "--humans", "0,2", "--bots", "random", "--seed", "2",
                 "-o", "target=40", input="\n1\n2\n" * 3000)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Seats: player 0: a person, player 1: random, player 2: a person." in out
    assert "Player 0's turn." in out and "Player 2's turn." in out
    # each decision of a person comes after a hand-over to that person
    blocks = out.split("Hand the terminal to player ")
    assert len(blocks) > 4
    for block in blocks[1:]:
        seat = block[0]
        assert f"Player {seat}\n" in block or "Game over" in block or "Goodbye" in block
    assert "Game over" in out


def test_private_choices_of_one_person_are_not_shown_to_the_next():
    """The toy's bids are secret: after the hand-over, the other person's screen never shows
    what the previous person bid."""
    result = run("play", "toy", "--players", "2", "--humans", "0,1", "--seed", "2", "-o", "target=80",
                 input="\n1\n\n2\n" * 3000)
    assert result.exit_code == 0, result.output
    for block in result.output.split("Hand the terminal to player ")[1:]:
        seat = int(block[0])
        other = 1 - seat
        assert f"Player {other} secretly chose" not in block
        assert "You secretly chose" in result.output


@pytest.mark.parametrize("humans,why", [("0,5", "not a seat"), ("0,0", "given twice"), ("x", "not a seat")])
def test_bad_human_seats_are_refused(humans, why):
    result = run("play", "toy", "--players", "2", "--humans", humans)
    assert result.exit_code == 2 and why in result.output


# ----- save and resume --------------------------------------------------------------------------
def test_quitting_saves_and_resume_continues_the_same_game(tmp_path):
    record = tmp_path / "game.jsonl"
    first = run("play", "toy", "--players", "2", "--seed", "5", "--record", str(record), input="1\n1\n1\nq\n")
    assert first.exit_code == 0 and "takujo play --resume" in first.output
    steps = sum(1 for line in record.read_text(encoding="utf-8").splitlines() if '"step"' in line)
    assert steps >= 3
    second = run("play", "--resume", str(record), input="1\n" * 2000)
    assert second.exit_code == 0, second.output
    assert f"resumed at step {steps}" in second.output and "Game over" in second.output
    lines = [json.loads(x) for x in record.read_text(encoding="utf-8").splitlines()]
    assert lines[-1]["type"] == "end"
    assert run("replay", str(record), "--quiet").exit_code == 0
    again = run("play", "--resume", str(record))
    assert again.exit_code == 1 and "nothing to resume" in again.output


def test_resume_refuses_a_record_that_does_not_replay(tmp_path):
    record = tmp_path / "game.jsonl"
    run("play", "toy", "--players", "2", "--seed", "5", "--record", str(record), input="1\n1\nq\n")
    lines = record.read_text(encoding="utf-8").splitlines()
    step = json.loads(lines[1])
    step["action"] = "fly 3"
    lines[1] = json.dumps(step)
    record.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run("play", "--resume", str(record))
    assert result.exit_code == 1 and "line 2" in result.output


def test_resume_takes_no_other_game_settings(tmp_path):
    result = run("play", "toy", "--resume", str(tmp_path / "x.jsonl"))
    assert result.exit_code == 2 and "--resume continues" in result.output


# ----- card text during play --------------------------------------------------------------------
def test_question_mark_and_a_name_show_a_cards_text():
    result = run("play", "toy", "--players", "2", "--seed", "5", input="? die\n? dragon\nq\n")
    assert result.exit_code == 0, result.output
    assert "six sides, 1 busts" in result.output
    assert "No card matches 'dragon'" in result.output


def test_the_unreadable_message_names_the_parentheses_the_menu_shows():
    en = run("play", "toy", "--players", "2", "--seed", "1", "--lang", "en", input=")(\nq\n")
    assert en.exit_code == 0, en.output
    assert "(roll)" in en.output or "(hold)" in en.output                # the notation, in parentheses
    assert "type a number or the notation shown in parentheses ()" in " ".join(en.output.split())
    assert "brackets" not in en.output
    ja = run("play", "toy", "--players", "2", "--seed", "1", "--lang", "ja", input=")(\nq\n")
    assert "一覧の丸かっこ () 内の表記を入力してください" in ja.output.replace(" \n", " ").replace("\n", "")


def test_refusals_speak_the_tables_language():
    result = run("play", "toy", "--players", "2", "--seed", "1", "--lang", "ja", input="fly 3\n)(\n99\nq\n")
    assert result.exit_code == 0, result.output
    assert "「fly 3」は今はできません" in result.output
    assert "「)(」は行動として読めません" in result.output
    assert "選択肢 99 はありません" in result.output
