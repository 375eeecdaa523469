"""Message catalogues and the renderer (takujo.present), with the toy game's catalogue."""
from __future__ import annotations

import pytest

import takujo
from takujo.core.errors import CardDataError, OptionError
from takujo.present import Markup, Msg, Renderer, default_language, load_catalogue, parse_language


@pytest.fixture(autouse=True, scope="module")
def _toy_registered():
    takujo.register("toy", "tests.toy:ToyGame")


def _write(tmp_path, text):
    path = tmp_path / "messages.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_message_needs_both_languages_with_the_same_placeholders(tmp_path):
    with pytest.raises(CardDataError, match="no en text"):
        load_catalogue(_write(tmp_path, '[event]\nroll = { ja = "{player}" }\n'))
    with pytest.raises(CardDataError, match="different arguments"):
        load_catalogue(_write(tmp_path, '[event]\nroll = { ja = "{player}", en = "{who}" }\n'))
    with pytest.raises(CardDataError, match="argument kind"):
        load_catalogue(_write(tmp_path, '[args]\nplayer = "wizard"\n'))
    with pytest.raises(CardDataError, match="bad template"):
        load_catalogue(_write(tmp_path, '[event]\nroll = { ja = "{player", en = "{player" }\n'))
    ok = load_catalogue(_write(tmp_path, '[event.roll]\nja = "{player} が振る"\nen = "{player} rolls"\n'))
    assert ok.template("event.roll", "en") == "{player} rolls"


def test_arguments_render_by_kind_in_the_viewers_language():
    game = takujo.load("toy", players=3)
    en, ja = Renderer(game, "en"), Renderer(game, "ja")
    assert en.text("event.roll", None, player=1, face=4) == "player 1 rolls 4."
    assert en.text("event.roll", 1, player=1, face=4) == "you rolls 4." or en.has("event.roll.you")
    assert ja.text("event.roll", None, player=1, face=4) == "プレイヤー1 が 4 を出した。"
    gain = Msg("event.gain", gainer=2)
    assert en.text("event.bids", 2, bids=[Msg("event.bid_of", player=0, bid=1)], gain=gain) == \
        "Bids revealed: player 0 1; you gains 4."


def test_the_viewer_form_of_a_message_is_used_for_the_viewer(tmp_path, monkeypatch):
    from takujo.present import catalogue as cat
    base = cat.catalogue_for(takujo.load("toy"))
    extra = load_catalogue(_write(tmp_path, '[event.roll]\nja = "{player} が {face}"\nen = "{player} rolls {face}."\n'
                                            'you = { ja = "あなたが {face}", en = "You roll {face}." }\n'))
    monkeypatch.setattr("takujo.present.render.catalogue_for", lambda g: base.merged(extra))
    r = Renderer(takujo.load("toy"), "en")
    assert r.text("event.roll", 0, player=0, face=3) == "You roll 3."
    assert r.text("event.roll", 0, player=1, face=3) == "player 1 rolls 3."


def test_plain_output_drops_markup_and_arguments_are_escaped():
    game = takujo.load("toy")
    rich, plain = Renderer(game, "en"), Renderer(game, "en", markup=False)
    assert rich.text("board.pot", pot=5) == " pot: [yellow]5[/yellow]"
    assert plain.text("board.pot", pot=5) == " pot: 5"
    assert rich.text("board.pot", pot="[red]x") == " pot: [yellow]\\[red]x[/yellow]"
    assert rich.text("ui.your_decision", prompt=Markup("[b]go[/b]")).endswith("[b]go[/b]")


def test_an_unknown_message_shows_its_id_rather_than_failing():
    r = Renderer(takujo.load("toy"), "en")
    assert r.text("event.nothing_like_this", x=1) == "event.nothing_like_this(x=1)"


def test_language_choice(monkeypatch):
    assert parse_language("ja_JP.UTF-8") == "ja" and parse_language("EN") == "en"
    with pytest.raises(OptionError, match="unknown language 'fr'"):
        parse_language("fr")
    monkeypatch.setenv("TAKUJO_LANG", "ja")
    assert default_language() == "ja"
    monkeypatch.delenv("TAKUJO_LANG")
    monkeypatch.setenv("LC_ALL", "ja_JP.UTF-8")
    assert default_language() == "ja"
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    assert default_language() == "en"


def test_plain_text_is_made_once_so_nested_brackets_survive(tmp_path, monkeypatch):
    from takujo.present import catalogue as cat
    base = cat.catalogue_for(takujo.load("toy"))
    extra = load_catalogue(_write(tmp_path, '[x]\nouter = { ja = "[b]{inner}[/b]", en = "[b]{inner}[/b]" }\n'
                                            'inner = { ja = "[warlord]", en = "\\\\[warlord]" }\n'))
    monkeypatch.setattr("takujo.present.render.catalogue_for", lambda g: base.merged(extra))
    plain = Renderer(takujo.load("toy"), "en", markup=False)
    assert plain.text("x.outer", inner=Msg("x.inner")) == "[warlord]"


def test_english_log_lines_start_with_a_capital_letter():
    r = Renderer(takujo.load("toy", players=2), "en")
    assert r.event({"e": "roll", "to": None, "player": 1, "faces": [4]}, viewer=1) == "You rolls 4."
    assert r.event({"e": "bank", "to": None, "player": 0, "points": 3, "score": 9}, viewer=1) == \
        "Player 0 banks 3 (score 9)."
    ja = Renderer(takujo.load("toy", players=2), "ja")
    assert ja.event({"e": "roll", "to": None, "player": 1, "faces": [4]}, viewer=1) == "あなた が 4 を出した。"
