"""Bad input gets a clear error of the engine's own kinds, never a traceback; nothing changes."""
from __future__ import annotations

import json

import pytest

import takujo
from takujo.bots import make_bot
from takujo.core import Dice, IllegalActionError, OptionError, RecordError, Rng
from takujo.core.cards import read_data_text, read_toml
from takujo.core.errors import CardDataError
from takujo.record import iter_record, read_record, record_lines, replay
from takujo.sim import run_games


@pytest.mark.parametrize("spec", [None, 123, 4.5, b"fuutei", ["fuutei"]])
def test_a_game_is_named_by_a_string(spec):
    with pytest.raises(OptionError, match="a game is named by a string"):
        takujo.load(spec)


def test_an_option_given_twice_in_a_game_string_is_refused():
    with pytest.raises(OptionError, match="'players' is given twice"):
        takujo.load("fuutei(players=3,players=4)")


@pytest.mark.parametrize("seed", ["x", 1.5, None, True, [1]])
def test_a_seed_is_an_integer(seed):
    with pytest.raises(OptionError, match="a seed is an integer"):
        takujo.load("fuutei").new_state(seed=seed)


def test_integer_like_seeds_are_accepted_as_their_value():
    class Seven:
        def __index__(self) -> int:
            return 7
    game = takujo.load("fuutei")
    assert game.new_state(Seven()).to_json() == game.new_state(7).to_json()


@pytest.mark.parametrize("bad", [None, 5, b"end", ["end"], {"verb": "end"}, ("end",)])
def test_apply_refuses_what_is_not_an_action_and_changes_nothing(bad):
    state = takujo.load("fuutei").new_state(1)
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="an action is an Action or its notation"):
        state.apply(bad)
    assert state.to_json() == before


@pytest.mark.parametrize("text", ["1D+99999999999999999999", "99999D", "1000", "1D-1000", 10**30])
def test_dice_with_absurd_numbers_are_refused(text):
    with pytest.raises(ValueError, match="out of range|allowed 1..|not a dice expression"):
        Dice.parse(text)


def test_ordinary_dice_still_parse():
    assert Dice.parse("2D+3") == Dice(2, 3) and Dice.parse("999") == Dice(0, 999)


@pytest.mark.parametrize("name,why", [("ismcts:-5", "iterations must be"), ("ismcts:0", "iterations must be"),
                                      ("ismcts:0s", "more than 0"), ("ismcts:-1s", "more than 0"),
                                      ("ismcts:nans", "more than 0"), ("ismcts:abc", "use ismcts"),
                                      (None, "named by a string")])
def test_bad_bot_budgets_are_refused(name, why):
    with pytest.raises(OptionError, match=why):
        make_bot(name, takujo.load("fuutei"))


@pytest.mark.parametrize("kwargs,why", [({"workers": 0}, "workers"), ({"workers": -3}, "workers"),
                                        ({"max_steps": 0}, "max_steps"), ({"max_steps": -1}, "max_steps")])
def test_simulation_refuses_nonsense_counts(kwargs, why):
    with pytest.raises(OptionError, match=why):
        run_games("fuutei", 2, 1, ["random"], **kwargs)


# ----- data files --------------------------------------------------------------------------
def test_data_files_that_are_not_utf8_folders_or_missing_are_named_not_quoted(tmp_path):
    binary = tmp_path / "cards.toml"
    binary.write_bytes(b"secret = 1\n\xff\xfe\x00")
    with pytest.raises(CardDataError, match="not UTF-8") as err:
        read_toml(binary)
    assert "secret" not in str(err.value) and str(binary) in str(err.value)
    with pytest.raises(CardDataError, match="is a folder"):
        read_toml(tmp_path)
    with pytest.raises(CardDataError, match="file not found"):
        read_data_text(tmp_path / "nope.toml")


def test_a_file_that_is_not_toml_is_refused_without_its_contents(tmp_path):
    text = tmp_path / "passwd"
    text.write_text("root:x:0:0:root:/root:/bin/bash\n", encoding="utf-8")
    with pytest.raises(CardDataError) as err:
        read_toml(text)
    assert "root:x" not in str(err.value) and "/bin/bash" not in str(err.value)


@pytest.mark.parametrize("game,option", [("fuutei", "cards"), ("ibara", "content"),
                                         ("draft_daimyo", "cards"), ("draft_daimyo", "board"),
                                         ("sengoku_taisen", "cards")])
def test_every_data_option_refuses_a_folder_and_a_binary_file(tmp_path, game, option):
    binary = tmp_path / "data.toml"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xff")
    for path, why in ((tmp_path, "folder"), (binary, "not UTF-8")):
        with pytest.raises(CardDataError, match=why):
            takujo.load(game, **{option: str(path)})


# ----- records -----------------------------------------------------------------------------
def _record(tmp_path, lines):
    path = tmp_path / "game.jsonl"
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    return path


def _lines():
    game = takujo.load("fuutei", players=3)
    state = game.new_state(4)
    rng = Rng(4)
    for _ in range(30):
        legal = state.legal_actions(state.pending.players[0])
        state.apply(legal[rng.below(len(legal))])
    return json.loads(json.dumps(record_lines(state, 4)))


@pytest.mark.parametrize("damage,why", [
    (lambda ls: ls[3].pop("action"), "has no action"),
    (lambda ls: ls[3].update(action=None), "has no action"),
    (lambda ls: ls[3].pop("player"), "has no player"),
    (lambda ls: ls[3].update(chance="dice"), "malformed 'chance'"),
    (lambda ls: ls[3].update(chance=[1, 2]), "malformed 'chance'"),
    (lambda ls: ls[0].update(chance={"e": "roll"}), "malformed 'chance'"),
    (lambda ls: ls[0].update(seed="seven"), "bad header: seed"),
    (lambda ls: ls[0].pop("game"), "no 'game' field"),
    (lambda ls: ls[0].update(game="fuutei(players=3,players=3)"), "given twice"),
])
def test_damaged_records_are_refused_naming_the_line(tmp_path, damage, why):
    lines = _lines()
    damage(lines)
    with pytest.raises(RecordError, match=why):
        replay(read_record(_record(tmp_path, lines)))


def test_record_files_that_are_not_records(tmp_path):
    binary = tmp_path / "bin.jsonl"
    binary.write_bytes(b'{"type": "header"}\n\xff\xfe\n')
    with pytest.raises(RecordError, match="line 2: not UTF-8"):
        read_record(binary)
    with pytest.raises(RecordError, match="is a folder"):
        read_record(tmp_path)
    with pytest.raises(RecordError, match="file not found"):
        read_record(tmp_path / "missing.jsonl")


def test_records_are_read_line_by_line(tmp_path):
    """A reader that stops early never reads the rest: a bad line far down is not met."""
    lines = _lines()
    path = _record(tmp_path, lines)
    with open(path, "a", encoding="utf-8") as fh:
        fh.write("this is not json\n")
    it = iter_record(path)
    assert next(it)["type"] == "header"
    with pytest.raises(RecordError, match=f"line {len(lines) + 1}: not JSON"):
        list(it)


def test_a_stale_action_is_refused_and_changes_nothing():
    state = takujo.load("fuutei").new_state(3)
    assert state.version == 0 and state.view(0)["version"] == 0
    action = state.legal_actions(state.pending.players[0])[0]
    before = state.to_json()
    from takujo.core import StaleActionError
    with pytest.raises(StaleActionError, match="version 5"):
        state.apply(action, expect_version=5)
    assert state.to_json() == before
    state.apply(action, expect_version=0)
    assert state.version == 1 and state.view(None)["version"] == 1


def test_a_card_stat_with_an_absurd_number_is_refused_naming_the_card(tmp_path):
    import re
    from pathlib import Path
    src = (Path(takujo.__file__).parent / "games" / "fuutei" / "cards.toml").read_text(encoding="utf-8")
    bad = tmp_path / "cards.toml"
    bad.write_text(re.sub(r'stats = \["[^"]*"', 'stats = ["1D+99999999999999999999"', src, count=1), encoding="utf-8")
    with pytest.raises(CardDataError, match=r"card #1 \(aoi_kaze\): field 'stats'.*out of range"):
        takujo.load("fuutei", cards=str(bad))
