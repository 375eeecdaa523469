"""Message catalogues and the renderer (takujo.present), with the toy game's catalogue."""
from __future__ import annotations

import re

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


# ----- the games' own messages: titles, and sentences said to the viewer -------------------------
GAMES = ("fuutei", "sengoku_taisen", "ibara", "draft_daimyo")
KANA = re.compile(r"[\u3040-\u30ff]")
#: Slips of a sentence said to "you": a third person's pronoun or verb.
SLIP = re.compile(r"\b(?:their|they|them|themselves)\b|\byou's\b|"
                  r"\byou(?: \([^)]*\))? (?:is|has|holds|draws|does|goes|plays|gains|takes|loses|wins|rolls|moves|"
                  r"discards|uses|puts|keeps)\b", re.I)


@pytest.mark.parametrize("name", GAMES)
def test_every_game_has_its_title_in_both_languages(name):
    game = takujo.load(name)
    ja, en = Renderer(game, "ja", markup=False), Renderer(game, "en", markup=False)
    assert ja.has("game.title") and ja.title() == type(game).title
    assert en.title() and not KANA.search(en.title()), en.title()


def test_ibara_has_an_english_title():
    game = takujo.load("ibara")
    assert Renderer(game, "en").title() == "The Thorn Princess and the Four Knights"
    assert Renderer(game, "ja").title() == "いばらの姫と4人の騎士"


def _viewer_arg(name: str, viewer: int):
    """A player argument that is the viewer, as the game's presenter passes it."""
    if name == "draft_daimyo":
        from takujo.games.draft_daimyo.render import who
        return who(viewer)
    return viewer


@pytest.mark.parametrize("name", GAMES)
def test_no_sentence_says_their_or_draws_to_the_viewer(name):
    """Every message of a game with a player argument, in English for that player: "your own
    area", "you hold", never "their own area" or "you holds"."""
    from takujo.present.catalogue import messages_path, placeholders
    game = takujo.load(name)
    en = Renderer(game, "en", markup=False)
    own = load_catalogue(messages_path(type(game)))
    checked = 0
    for msg_id in own.ids():
        if msg_id.endswith(".you"):
            continue
        names = placeholders(own.template(msg_id, "en"))
        for arg in sorted(n for n in names if en.catalogue.args.get(n) == "player"):
            args = {n: "X" for n in names}
            args[arg] = _viewer_arg(name, 0) if arg == "player" else 0
            line = en.text(msg_id, 0, **args)
            assert not SLIP.search(line), f"{name}: {msg_id} for the viewer reads {line!r}"
            checked += 1
    assert checked > 10


def test_fuutei_tells_the_viewer_of_your_own_area_hand_and_party():
    game = takujo.load("fuutei")
    en, ja = Renderer(game, "en", markup=False), Renderer(game, "ja", markup=False)
    region = game.catalogue.of_type("region")[0]
    setup = {"e": "setup_region", "to": None, "player": 0, "card": region}
    assert en.event(setup, 0).startswith("You put the region ") and en.event(setup, 0).endswith(
        "from your hand into your own area and drew again")
    assert en.event(setup, 1).endswith("from hand into their own area and drew again")
    assert ja.event(setup, 0).startswith("あなた の手札の地域")
    drawn = {"e": "region_drawn", "to": None, "player": 0, "card": region, "dest": "own"}
    assert en.event(drawn, 0).endswith("→ your own area") and en.event(drawn, 2).endswith("→ their own area")
    roll = {"e": "roll", "to": None, "player": 0, "why": "initiative", "dice": "1D", "faces": [4], "total": 4}
    assert "your first-strike roll: 1D = 4 → 4" in en.event(roll, 0)
    assert "roll of player 0" in en.event(roll, 1)
    pick = {"e": "random", "to": None, "player": 0, "why": "random_discard", "n": 5, "index": 2}
    assert "of the 5 in your hand" in en.event(pick, 0)


def test_ibara_sends_the_viewer_back_to_the_square_you_came_from():
    en = Renderer(takujo.load("ibara"), "en", markup=False)
    tie = {"e": "tie", "to": None, "player": 1}
    assert en.event(tie, 1) == "A tie: you went back to the square you came from."
    assert en.event(tie, 0) == "A tie: player 1 went back to the square they came from."


def test_draft_daimyo_says_the_same_sentence_to_you_and_to_others():
    """A player there is a nested message ("you (Oda)"), so its English reads for both."""
    game = takujo.load("draft_daimyo")
    en = Renderer(game, "en", markup=False)
    from takujo.games.draft_daimyo.render import who
    line = en.text("event.uprising_nowhere", 0, player=who(0))
    assert line == "Ikko uprising: you (Oda) held no province besides the home, so nothing happened"
    assert en.text("event.income", 0, player=who(0), gold=2, vp=2) == "Income for you (Oda): +2 gold, +2 VP"
    assert en.text("event.roll.order_tie", 1, player=who(1), faces="5").strip() == \
        "🎲 you (Takeda) rolled for turn order: 5"
    assert en.text("event.tactic_revealed", 0, player=who(2), card="X") == "Tactics card revealed by player 2 (Uesugi): X"
