"""The takujo command line (takujo.cli), driven with the toy dice race of tests/toy.py."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import takujo
from takujo.cli import app
from takujo.core import registry
from tests.toy import ToyGame


@pytest.fixture(autouse=True, scope="module")
def _toy_registered():
    # Registered when the tests run, not when they are collected, so that the conformance kit
    # (parametrized over takujo.names() at collection) never sees the toy, in any test order.
    takujo.register("toy", "tests.toy:ToyGame")


ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def run(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


# ----- help and games -------------------------------------------------------------------
def test_help_lists_every_command():
    result = run("--help")
    assert result.exit_code == 0
    for command in ("games", "play", "sim", "replay"):
        assert command in result.output
    for command in ("games", "play", "sim", "replay"):
        sub = run(command, "--help")
        assert sub.exit_code == 0 and "Usage" in sub.output


def test_help_examples_name_real_games_and_options():
    out = run("--help").output + run("play", "--help").output + run("sim", "--help").output
    named = re.findall(r"takujo (?:play|sim) ([a-z_]+)", out)
    assert named and set(named) <= set(takujo.names()) - {"toy"}, named
    for key in re.findall(r"-o ([a-z_]+)=", out):
        assert any(key in takujo.game_class(n).Options.model_fields for n in takujo.names()), key


@pytest.mark.parametrize("lang,words", [("ja", ["端末でゲームを遊ぶ", "あなたの席", "─ オプション ", "[既定: 0]"]),
                                        ("en", ["Play a game in the terminal", "Your seat", "─ Options ",
                                                "[default: 0]"])])
def test_help_speaks_the_interface_language(lang, words):
    proc = subprocess.run([sys.executable, "-m", "takujo", "play", "--help"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin",
                                                      "TAKUJO_LANG": lang, "COLUMNS": "200"})
    assert proc.returncode == 0, proc.stderr
    for word in words:
        assert word in proc.stdout


def test_python_dash_m_takujo_works():
    proc = subprocess.run([sys.executable, "-m", "takujo", "--help"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stderr
    assert "sim" in proc.stdout and "replay" in proc.stdout


def test_games_lists_toy_with_its_options():
    result = run("games")
    assert result.exit_code == 0, result.output
    assert "toy" in result.output and "Dice race" in result.output
    assert "target" in result.output and re.search(r"players\s+int = 4", result.output)


def test_games_fits_80_columns():
    result = runner.invoke(app, ["games"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    from rich.cells import cell_len
    widths = [cell_len(line.rstrip()) for line in result.output.splitlines()]   # CJK: 2 cells
    assert max(widths) <= 80, max(widths)
    assert "fuutei" in result.output and "center_regions" in result.output


# ----- sim ------------------------------------------------------------------------------
def test_sim_prints_tables():
    result = run("sim", "toy", "--games", "20", "--players", "3")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Win rate by seat" in out and "95% CI" in out
    assert "Game length" in out and "How games ended" in out and "target" in out
    assert "Win rate by bot" not in out  # one bot kind only
    for seat in range(3):  # a row per seat: seat, wins, rate
        assert re.search(rf"^\W*{seat}\W+[\d.]+\W+[\d.]+%", out, re.M), out


def test_sim_with_two_bot_kinds_shows_bot_rates():
    result = run("sim", "toy", "--games", "10", "--bots", "heuristic,random", "-o", "target=15")
    assert result.exit_code == 0, result.output
    assert "Win rate by bot" in result.output and "random" in result.output


def test_sim_json_parses():
    result = run("sim", "toy", "--games", "20", "--seed", "7", "--bots", "heuristic,random", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 20 and data["seed"] == 7 and data["game"] == "toy(players=4)"
    assert len(data["seats"]) == 4
    assert sum(s["wins"] for s in data["seats"]) == pytest.approx(20)
    assert set(data["per_bot"]) == {"heuristic", "random"}
    assert data["reasons"] == {"target": 20}


def test_sim_records_replay(tmp_path):
    result = run("sim", "toy", "--games", "20", "--players", "2", "--record", str(tmp_path / "recs"), "--json")
    assert result.exit_code == 0, result.output
    files = sorted((tmp_path / "recs").glob("game-*.jsonl"))
    assert len(files) == 20
    for path in files:
        replayed = run("replay", str(path), "--quiet")
        assert replayed.exit_code == 0, replayed.output
        assert "verified" in replayed.output and "Winner" in replayed.output


def test_replay_prints_the_spectator_log(tmp_path):
    run("sim", "toy", "--games", "1", "--seed", "3", "--record", str(tmp_path), "--json")
    result = run("replay", str(tmp_path / "game-3.jsonl"))
    assert result.exit_code == 0, result.output
    assert "rolls" in result.output and "wins" in result.output
    assert "secretly" not in result.output  # the bids are hidden from spectators until revealed
    assert "verified" in result.output


def test_tampered_record_is_refused(tmp_path):
    run("sim", "toy", "--games", "1", "--seed", "4", "--record", str(tmp_path), "--json")
    path = tmp_path / "game-4.jsonl"
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    step = next(line for line in lines if line["type"] == "step" and line["chance"])
    roll = step["chance"][0]
    roll["faces"] = [roll["faces"][0] % 6 + 1]
    roll["total"] = roll["faces"][0]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    result = run("replay", str(path))
    assert result.exit_code == 1
    assert "error:" in result.output and f"step {step['n']}" in result.output
    assert "Traceback" not in result.output


def test_replay_of_a_missing_or_broken_file_exits_1(tmp_path):
    missing = run("replay", str(tmp_path / "nope.jsonl"))
    assert missing.exit_code == 1 and "error:" in missing.output
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n")
    result = run("replay", str(bad))
    assert result.exit_code == 1 and "not JSON" in result.output


BAD_RECORDS = {
    "malformed": ('{"type": "header", "game": "toy"\n', "not JSON"),
    "empty": ("", "the first line must be the header"),
    "json_list": ("[1, 2, 3]\n", "expected an object with a 'type'"),
    "json_object": ('{"name": "a game", "seed": 3}\n', "expected an object with a 'type'"),
    "json_step_first": ('{"type": "step", "n": 0}\n', "the first line must be the header"),
    "header_only_type": ('{"type": "header"}\n', "no 'game' field"),
    "header_without_seed": ('{"type": "header", "game": "toy(players=2)"}\n', "no 'seed' field"),
}


@pytest.mark.parametrize("name", BAD_RECORDS)
def test_replay_of_a_file_that_is_not_a_record_prints_only_the_error(tmp_path, name):
    text, words = BAD_RECORDS[name]
    path = tmp_path / f"{name}.jsonl"
    path.write_text(text, encoding="utf-8")
    result = run("replay", str(path), "--lang", "en")
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert len(result.output.strip().splitlines()) == 1, result.output    # no header line before it
    assert result.output.startswith("error: ") and words in result.output, result.output
    assert "None" not in result.output and "Traceback" not in result.output


def test_replay_of_a_good_record_still_names_its_game_and_seed(tmp_path):
    run("sim", "toy", "--games", "1", "--seed", "3", "--record", str(tmp_path), "--json")
    result = run("replay", str(tmp_path / "game-3.jsonl"), "--lang", "en")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0].startswith("toy(players=4") and " seed 3" in result.output


@pytest.mark.parametrize("args,name", [
    (["sim", "toy", "--option", "colour=red"], "colour"),
    (["sim", "toy", "-o", "target=lots"], "target"),
    (["sim", "toy", "-o", "target"], "target"),
    (["sim", "nosuchgame"], "nosuchgame"),
    (["sim", "toy", "--bots", "heuristic,cleverbot"], "cleverbot"),
    (["sim", "toy", "--players", "9"], "players"),
    (["play", "nosuchgame"], "nosuchgame"),
    (["play", "toy", "--bots", "cleverbot"], "cleverbot"),
    (["play", "toy", "--seat", "7"], "seat"),
])
def test_usage_errors_exit_2_naming_the_culprit(args, name):
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert "error:" in result.output and name in result.output
    assert "Traceback" not in result.output


# ----- play -----------------------------------------------------------------------------
def test_play_to_the_end_with_piped_input(tmp_path):
    record = tmp_path / "game.jsonl"
    result = run("play", "toy", "--players", "2", "--seed", "5", "--record", str(record),
                 input="1\n" * 2000)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "seed 5" in out and "Your decision" in out and "1. roll a die" in out
    assert "Game over" in out and "winner:" in out
    assert record.exists()
    replayed = run("replay", str(record), "--quiet")
    assert replayed.exit_code == 0 and "verified" in replayed.output


def test_play_refuses_illegal_input_and_asks_again():
    result = run("play", "toy", "--players", "2", "--seed", "1",
                 input="fly 3\n99\nbid 9\n?\nroll\n" + "1\n" * 2000)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "fly 3 is not legal" in out
    assert "there is no choice 99" in out
    assert "bid 9 is not legal" in out
    assert out.count("Your decision: roll or hold") >= 2  # re-prompted, and ? reprinted the table
    assert "Game over" in out


def test_play_simultaneous_bids_with_the_person():
    # A high target makes the game reach the bidding rounds (every 3rd round).
    result = run("play", "toy", "--players", "3", "--seat", "2", "--seed", "2", "-o", "target=80",
                 "--bots", "random,heuristic", input="1\n2\n" * 3000)
    assert result.exit_code == 0, result.output
    assert "everyone bids in secret" in result.output
    assert "Bids revealed" in result.output
    assert "You secretly chose: bid" in result.output
    assert "Game over" in result.output


@pytest.mark.parametrize("stdin,word", [("1\nq\n", "you quit"), ("1\n1\n", "input ended"), ("", "input ended")])
def test_play_quit_and_end_of_input_end_politely(stdin, word):
    result = run("play", "toy", "--players", "2", "--seed", "9", input=stdin)
    assert result.exit_code == 0, result.output
    assert "Goodbye" in result.output and word in result.output


# ----- games that break -------------------------------------------------------------------
class _CrashBot:
    name = "heuristic"

    def act(self, view, legal, rng):
        if view["public"]["turn"] >= 3:
            raise ValueError("boom")
        return legal[0]


class CrashGame(ToyGame):
    """The toy, with a heuristic bot that crashes on turn 3."""

    def heuristic_bot(self):
        return _CrashBot()


def test_a_crashing_game_names_the_seed_to_reproduce(monkeypatch):
    monkeypatch.setitem(registry._GAMES, "toy", "tests.test_cli:CrashGame")
    result = run("sim", "toy", "--games", "3", "--seed", "40")
    assert result.exit_code == 1
    assert "a game crashed" in result.output and "seed 40" in result.output and "boom" in result.output
    assert "--games 1 --seed 40" in result.output


def test_a_game_that_does_not_import_is_reported(monkeypatch):
    monkeypatch.setitem(registry._GAMES, "ghost", "tests.no_such_module:GhostGame")
    listed = run("games")
    assert listed.exit_code == 0 and "ghost" in listed.output and "unavailable" in listed.output
    result = run("sim", "ghost", "--games", "1")
    assert result.exit_code == 1
    assert "cannot import" in result.output and "no_such_module" in result.output


# ----- bench/steps.py ---------------------------------------------------------------------
def test_bench_script_prints_one_json_object_per_game():
    proc = subprocess.run([sys.executable, "bench/steps.py", "--seconds", "0.05", "--json",
                           "--register", "toy=tests.toy:ToyGame", "--games", "toy"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(rows) == 1
    row = rows[0]
    assert list(row)[:6] == ["engine", "game", "games_per_s", "steps_per_s", "clone_us", "view_us"]
    assert row["engine"] == "takujo" and row["game"] == "toy" and row["steps_per_s"] > row["games_per_s"] > 0
    assert row["clone_us"] > 0 and row["view_us"] > 0


def test_bench_script_splits_a_step_into_its_parts():
    proc = subprocess.run([sys.executable, "bench/steps.py", "--parts", "--json",
                           "--register", "toy=tests.toy:ToyGame", "--games", "toy"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    row = json.loads(proc.stdout)
    assert list(row["step_us"]) == ["pending", "legal", "draw", "log", "apply"]
    assert all(us > 0 for us in row["step_us"].values())
    table = subprocess.run([sys.executable, "bench/steps.py", "--parts",
                            "--register", "toy=tests.toy:ToyGame", "--games", "toy"],
                           cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert table.returncode == 0 and "total µs" in table.stdout and "toy" in table.stdout


# ----- schema and catalogue ---------------------------------------------------------------
def test_schema_prints_the_view_schema_as_json():
    result = run("schema", "toy")
    assert result.exit_code == 0, result.output
    schema = json.loads(result.stdout)
    assert {"zones", "public", "pending", "legal", "log", "cursor", "version"} <= set(schema["properties"])
    assert set(schema["$defs"]["ToyZones"]["properties"]) == {"tokens", "committed"}


def test_catalogue_of_a_game_without_cards_is_a_clear_error():
    result = run("catalogue", "toy")
    assert result.exit_code == 2 and "has no card catalogue" in result.output


@pytest.mark.parametrize("game", ["fuutei", "sengoku_taisen", "ibara", "draft_daimyo"])
def test_catalogue_prints_every_card_in_both_languages(game):
    result = run("catalogue", game)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["game"] == game and all(c["name_ja"] and c["name_en"] for c in data["cards"])


def test_sim_tables_in_japanese():
    result = run("sim", "toy", "--games", "6", "--players", "2", "--lang", "ja")
    assert result.exit_code == 0, result.output
    assert "席ごとの勝率" in result.output and "ゲームの終わり方" in result.output
    assert "Win rate" not in result.output


# ----- errors in the interface language -------------------------------------------------
JA_ERRORS = [
    # (command line, words the Japanese error must carry)
    (["play", "nosuch"], ["知らないゲーム", "'nosuch'"]),
    (["play", "toy", "-o", "colour=red"], ["知らないオプション", "'colour'"]),
    (["play", "toy", "-o", "colour"], ["KEY=VALUE の形"]),
    (["play", "toy", "--bots", "ismcts:0"], ["反復回数は 1..10000000"]),
    (["sim", "toy", "--games", "0"], ["--games は1以上"]),
    (["replay", "/"], ["フォルダです"]),
    (["play", "toy", "--bogus"], ["そのオプションはありません", "--bogus"]),
    (["sim", "toy", "--workers", "0"], ["--workers", "1 以上"]),
    (["sim"], ["game を指定してください"]),
    (["nosuch"], ["そのコマンドはありません", "nosuch"]),
]


@pytest.mark.parametrize("args,words", JA_ERRORS, ids=[" ".join(a) for a, _ in JA_ERRORS])
def test_errors_are_in_japanese_when_the_interface_is(monkeypatch, args, words):
    monkeypatch.setenv("TAKUJO_LANG", "ja")
    result = run(*args)
    assert result.exit_code in (1, 2), result.output
    assert "Traceback" not in result.output
    assert "エラー:" in result.output, result.output
    for word in words:
        assert word in result.output, result.output
    monkeypatch.setenv("TAKUJO_LANG", "en")
    english = run(*args)
    assert english.exit_code == result.exit_code
    assert "エラー" not in english.output and not re.search(r"[\u3040-\u30ff]", english.output.replace("toy", ""))


def test_a_bad_record_is_reported_in_the_language_of_lang(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "header"}\n', encoding="utf-8")
    result = run("replay", str(bad), "--lang", "ja")
    assert result.exit_code == 1
    assert "1 行目" in result.output and "'game' 項目がありません" in result.output, result.output


def test_an_option_given_twice_is_refused_by_name():
    """`-o players=3 -o players=4` names the option given twice (it once crashed instead)."""
    result = run("sim", "fuutei", "--games", "1", "-o", "players=3", "-o", "players=4")
    assert result.exit_code == 2
    assert "--option players is given twice" in result.output
    assert "Traceback" not in result.output


# ----- the README's quick start ---------------------------------------------------------
def _quick_start() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return text.split("## Quick start", 1)[1].split("\n## ", 1)[0]


def test_the_quick_start_makes_a_virtual_environment_before_installing():
    quick = _quick_start()
    venv = quick.index("python3 -m venv .venv && . .venv/bin/activate")
    assert venv < quick.index("python3 -m pip install -e . && takujo serve")


def test_the_quick_start_says_the_browser_needs_a_japanese_font():
    quick = _quick_start()
    assert "Japanese" in quick and "font" in quick
    assert "apt-get install fonts-noto-cjk" in quick and "headless" in quick


def test_the_quick_start_test_command_is_the_one_ci_runs():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    command = ci[ci.index("# the README's test command:") + 1]
    assert f"```\n{command}\n```" in _quick_start()
