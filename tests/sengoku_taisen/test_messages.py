"""戦国大戦 双 in Japanese and English through the message catalogue: events and actions (with
the viewer's own form, "You draw …"), prompts and phases, the board picture, card texts, the
card catalogue, the documented view schema, and a whole game in the terminal in English."""
from __future__ import annotations

import json
import re
import string

import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

import takujo
from takujo.cli import app
from takujo.core.rng import Rng
from takujo.core.schema import view_model
from takujo.games.sengoku_taisen import render
from takujo.games.sengoku_taisen.schema import BattleView, SengokuPublicView, WindowView
from takujo.present import Renderer

from .helpers import act, events, give_koku, pass_battle, put, table

JAPANESE = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]")
DECKS = ("蒼", "紅", "翠", "黒")

#: "1" twenty times, then the next numbers: menu numbers stay while a decision goes on, so 1 may be gone
ANY_NUMBER = "1\n" * 20 + "".join(f"{n}\n" for n in range(2, 21)) + "1\n"


def plain(game, lang: str) -> Renderer:
    return Renderer(game, lang, markup=False)


def japanese_left(game, text: str, also: tuple[str, ...] = ()) -> list[str]:
    """Lines of `text` with Japanese in them once every Japanese card name (and `also`) is
    removed."""
    names = sorted({c.spec.name_ja for c in game.pool.cards.values()} | set(also), key=len, reverse=True)
    for name in names:
        text = text.replace(name, "")
    return [line for line in text.splitlines() if JAPANESE.search(line)]


# ----- events ----------------------------------------------------------------------------------
def test_a_draw_in_both_languages_and_in_the_viewers_own_form():
    s = table()
    g = s.game
    c = s.deck[0][-1]
    s.draw(0, 1)
    draw, count = events(s, "draw")[0], events(s, "draw_count")[0]
    ja, en = plain(g, "ja"), plain(g, "en")
    name_ja, name_en = g.card_names(c)
    assert en.event(draw, 0) == f"You draw {name_en} ({name_ja})."
    assert en.event(count, 0) == "You draw a card." and en.event(count, 1) == "Player 0 draws a card."
    assert ja.event(draw, 0) == f"あなた は {name_ja} を引いた"
    assert ja.event(count, 1) == "プレイヤー0 はカードを 1 枚引いた"
    many = {**count, "n": 3}
    assert en.event(many, 0) == "You draw 3 cards." and en.event(many, None) == "Player 0 draws 3 cards."


def test_an_attack_by_shippu_doto_names_the_rule_and_the_discard_in_both_languages():
    """SGT-WARLORD-09: a warlord placed this turn may attack by 疾風怒濤, discarding a card."""
    s = table("紅", "蒼")
    w = put(s, "AK-04", 0, "camp", placed_turn=s.turn)        # 前田利家, placed this turn
    c = put(s, "AK-04", 0, "hand", nth=1)                     # a second 前田利家, the discard
    put(s, "AO-05", 1, "walls")
    act(s, f"attack {w} castle shippu {c}")
    (kw,), (atk,) = events(s, "keyword"), events(s, "attack")
    en, ja = plain(s.game, "en"), plain(s.game, "ja")
    assert en.event(kw, 0) == "Your Maeda Toshiie (前田利家) attacks by Shippū Dotō, discarding Maeda Toshiie (前田利家)."
    assert en.event(kw, 1) == ("Player 0's Maeda Toshiie (前田利家) attacks by Shippū Dotō, "
                               "discarding Maeda Toshiie (前田利家).")
    assert ja.event(kw, 1) == "プレイヤー0: 前田利家 が疾風怒濤で攻撃 (前田利家 を捨てた)"
    assert en.event(atk, 0) == "Your Maeda Toshiie (前田利家) attacks the castle."
    assert ja.event(atk, 1) == "プレイヤー0: 前田利家 が 城 に攻撃"


def test_a_lost_wall_and_the_turn_line_in_the_viewers_own_form():
    s = table("紅", "蒼")
    a = put(s, "AK-02", 0, "camp")                            # 柴田勝家, 攻城力 1
    wall = put(s, "AO-05", 1, "walls")
    act(s, f"attack {a} castle")
    pass_battle(s)
    (lost,) = events(s, "wall_destroyed")
    en = plain(s.game, "en")
    assert en.event(lost, 1) == "You lose a wall: Sakai Tadatsugu (酒井忠次)."
    assert en.event(lost, 0) == "Player 1 loses a wall: Sakai Tadatsugu (酒井忠次)."
    assert plain(s.game, "ja").event(lost, 1) == "あなた の城壁が破壊された: 酒井忠次"
    assert s.inst[wall].name == "酒井忠次"
    turn = {"e": "turn", "to": None, "seq": 0, "player": 1, "turn": 4}
    assert en.event(turn, 1) == "— Turn 4: your turn —" and en.event(turn, 0) == "— Turn 4: player 1 —"


def test_the_japanese_viewer_forms_say_the_plain_form_with_anata():
    """Every ``<id>.you`` message in Japanese reads as the plain message with the viewer's
    name (あなた) for {player}; in English it does not start with "you " (a verb for "he")."""
    g = takujo.load("sengoku_taisen")
    r = Renderer(g, "ja")
    forms = [m for m in r.catalogue.ids() if m.endswith(".you") and m != "ui.you"]
    assert len(forms) >= 30
    for form in forms:
        base = r.catalogue.template(form.removesuffix(".you"), "ja")
        assert base is not None, form
        assert r.catalogue.template(form, "ja") == base.replace("{player}", "あなた"), form
        en = r.catalogue.template(form, "en")
        assert "{player}" not in en and not en.startswith("you "), form


# ----- actions, prompts and phases ---------------------------------------------------------------
def test_action_labels_in_both_languages_with_english_costs():
    s = table("紅", "蒼")
    c = put(s, "AK-01", 0, "hand")                            # 織田信長, 紅紅2
    give_koku(s, 0, "紅", 4)
    view = s.view(0)
    assert plain(s.game, "en").action(f"deploy {c}", view) == "deploy Oda Nobunaga (織田信長) (cost 2 red + 2)"
    assert plain(s.game, "ja").action(f"deploy {c}", view) == "武将を配置: 織田信長 (コスト紅紅2)"
    w = put(s, "AK-04", 0, "camp", placed_turn=s.turn)
    d = put(s, "AK-04", 0, "hand", nth=1)
    label = plain(s.game, "en").action(f"attack {w} castle muso {d}", view)
    assert label == "attack: Maeda Toshiie (前田利家) at the castle (Musō Rengeki: discard Maeda Toshiie (前田利家))"
    assert plain(s.game, "en").action("end", view) == "end the main phase"


def test_every_prompt_is_a_short_id_with_a_message_and_every_phase_a_name():
    g = takujo.load("sengoku_taisen", deck1="翠", deck2="黒")
    r = Renderer(g, "en")
    seen: set[str] = set()
    for seed in range(3):
        s, rng = g.new_state(seed), Rng(seed)
        while s.outcome is None:
            prompt = s.pending.prompt
            seen.add(prompt)
            assert re.fullmatch(r"[a-z_]+", prompt) and r.has(f"prompt.{prompt}"), prompt
            assert r.has(f"phase.{s.phase}")
            options = s.legal_actions(s.pending.players[0])
            s.apply(options[rng.below(len(options))])
    assert {"mulligan", "koku", "main", "battle_stratagem"} <= seen
    for prompt in ("intercept", "counter_target", "discard"):
        assert r.has(f"prompt.{prompt}")
    for phase in ("mulligan", "koku", "main", "intercept", "counter", "discard", "over"):
        assert r.has(f"phase.{phase}")


# ----- the board and card texts ------------------------------------------------------------------
def test_the_board_in_english_has_no_japanese_but_names():
    s = table("紅", "蒼")
    u = put(s, "AO-04", 1, "camp")                            # 本多忠勝
    s.exhausted.add(u)
    put(s, "AK-01", 0, "hand")
    give_koku(s, 0, "紅", 2)
    text = plain(s.game, "en").view(s.view(0))
    assert japanese_left(s.game, text, also=DECKS) == [], text
    assert "Turn 3 — your main phase  (first player: you)" in text
    assert "You — Red (紅): walls 0" in text and "player 1 — Blue (蒼): walls 0" in text
    assert "kokuryoku 2/10: face up red 2 (2 ready)" in text
    assert "Oda Nobunaga (織田信長) [AK-01 Warlord, red, cost 2 red + 2, cavalry, strength 3500, siege 2]" in text
    assert "camp: Honda Tadakatsu (本多忠勝), spearman, strength 4000, siege 1 (exhausted)" in text
    ja = plain(s.game, "ja").view(s.view(0))
    assert "あなた (紅): 城壁 0 枚" in ja and "織田信長 [AK-01 武将 紅 コスト紅紅2] 騎兵 兵力3500 攻城2" in ja
    assert "陣: 本多忠勝 槍兵 兵力 4000 攻城力 1 (疲弊)" in ja


def test_the_exhausted_state_is_markup_not_escaped_text():
    """Fix: the exhausted state was passed as a word, so its markup ([dim]) was escaped and
    printed as text in the terminal."""
    s = table("紅", "蒼")
    u = put(s, "AO-04", 1, "camp")
    s.exhausted.add(u)
    for lang, word in (("ja", "疲弊"), ("en", "exhausted")):
        text = Renderer(s.game, lang).view(s.view(0))
        assert f"([dim]{word}[/])" in text and "\\[dim]" not in text


def test_card_info_in_english_gives_the_english_text_with_the_japanese_name():
    g = takujo.load("sengoku_taisen")
    (text,) = plain(g, "en").card_info("Subversion")
    assert text.splitlines()[0] == "Subversion (調略)  AO-12  Stratagem  colour blue  cost 2 blue + 1"
    assert "{Main} Return an enemy warlord with 3000 strength or less to its owner's hand." in text
    assert japanese_left(g, text) == []
    (ougi,) = plain(g, "en").card_info("AK-OG")
    assert "usable with 5+ kokuryoku (once a game)" in ougi and "Ōgi (5+ kokuryoku)" in ougi
    assert plain(g, "en").card_info("調略") == [text]
    (ja,) = plain(g, "ja").card_info("AO-12")
    assert ja.splitlines()[0] == "調略 (Subversion)  AO-12  計略  色 蒼  コスト 蒼蒼1"
    assert "兵力3000以下の敵武将1体を持ち主の手札に戻す" in ja and "Return" not in ja


# ----- names, the catalogue and the schema -------------------------------------------------------
def test_card_names_of_instances_and_numbers_and_unknown_ids():
    g = takujo.load("sengoku_taisen", deck1="紅", deck2="蒼")
    assert g.card_names("AO-12") == ("調略", "Subversion")
    assert g.card_names(g.ougi_ids[0]) == ("圧切長谷部", "Heshikiri Hasebe")
    for bad in (-1, len(g.instances), "XX-99", None):
        with pytest.raises(KeyError):
            g.card_names(bad)
    assert Renderer(g, "en").card(10_000) == "10000"


def test_the_catalogue_exports_every_card_in_both_languages_as_stand_ins():
    g = takujo.load("sengoku_taisen", deck1="翠", deck2="黒")
    data = g.export_catalogue()
    json.dumps(data, ensure_ascii=False)
    assert data["game"] == "sengoku_taisen" and data["stand_in"] is True
    assert data["note_en"] and data["note_ja"]
    assert [c["id"] for c in data["cards"]] == list(g.pool.cards)
    for entry in data["cards"]:
        spec = g.pool[entry["id"]].spec
        assert (entry["name_ja"], entry["name_en"], entry["text_ja"], entry["text_en"]) == \
            (spec.name_ja, spec.name_en, spec.text_ja, spec.text_en)
        assert entry["name_en"] and entry["name_en"] != entry["name_ja"] and entry["stand_in"] is True
        if entry["text_ja"]:
            assert entry["text_en"] and not JAPANESE.search(entry["text_en"]), entry
    assert data["instances"] == [card.number for card in g.instances]


def test_the_schema_documents_a_battle_in_progress_and_refuses_unknown_keys():
    s = table("紅", "蒼")
    a = put(s, "AK-02", 0, "camp")
    put(s, "AO-05", 1, "walls")
    act(s, f"attack {a} castle")
    view = s.view(1)
    view_model(type(s.game)).model_validate(view)
    public = SengokuPublicView.model_validate(view["public"])
    assert public.battle == BattleView(attacker=a, player=0, target="castle", interceptor=-1)
    assert public.windows and isinstance(public.windows[0], WindowView)
    assert view["pending"]["prompt"] == "battle_stratagem"
    with pytest.raises(ValidationError):
        SengokuPublicView.model_validate({**view["public"], "turn_": 1})
    with pytest.raises(ValidationError):
        SengokuPublicView.model_validate({**view["public"], "battle": {**view["public"]["battle"], "x": 1}})
    for model in (SengokuPublicView, BattleView, WindowView):
        assert all(f.description for f in model.model_fields.values()), model
    assert takujo.game_class("sengoku_taisen").PublicView is SengokuPublicView


# ----- the terminal -----------------------------------------------------------------------------
def test_a_whole_game_in_the_terminal_in_english_shows_no_japanese_but_names():
    """`takujo play sengoku_taisen --lang en` to the end: only card names, the starter decks'
    names (in English beside their own) and the game's title and string are Japanese."""
    game = takujo.load("sengoku_taisen")
    result = CliRunner().invoke(app, ["play", "sengoku_taisen", "--lang", "en", "--seed", "1", "--bots", "random"],
                                input="? subversion\n" + ANY_NUMBER * 150, env={"COLUMNS": "1000"})
    assert result.exit_code == 0, result.output
    out = result.output
    header, _, rest = out.partition("\n")
    assert "Game over at step" in out and "Your decision: place a card as kokuryoku (0 or 1)" in out
    assert "Subversion (調略)  AO-12  Stratagem" in out
    assert japanese_left(game, rest, also=DECKS) == []
    assert "you go first" in out.lower() or "player 1 goes first" in out.lower()
    assert "You draw" in out and "you draws" not in out and "you places" not in out
    assert re.search(r"\byou [a-z]+s\b", out.replace("you may pass", "")) is None


def test_the_legacy_describe_functions_are_gone():
    assert not hasattr(render, "describe_event") and not hasattr(render, "describe_action")


def test_every_message_formats_with_the_arguments_it_names():
    """Each template's fields are plain names (no attribute or index lookups) so that the
    presenter's arguments fill them."""
    r = Renderer(takujo.load("sengoku_taisen"), "en")
    for msg_id in r.catalogue.ids():
        for lang in ("ja", "en"):
            for _, field, _, _ in string.Formatter().parse(r.catalogue.template(msg_id, lang)):
                assert field is None or re.fullmatch(r"[a-z_0-9]+", field), (msg_id, field)


def test_a_card_without_text_in_the_viewers_language_shows_its_rules_in_words(tmp_path):
    """A pool card with Japanese text only (cards=…): English card_info and the hand say what
    it does from its effect, never the Japanese text."""
    from takujo.games.sengoku_taisen.cards import CARD_FILE
    text = CARD_FILE.read_text(encoding="utf-8")
    line = 'text_en = "{Main} Return an enemy warlord with 3000 strength or less to its owner\'s hand. Counter: build 1 wall."\n'
    assert line in text
    path = tmp_path / "cards.toml"
    path.write_text(text.replace(line, ""), encoding="utf-8")
    g = takujo.load("sengoku_taisen", cards=str(path))
    (info,) = plain(g, "en").card_info("AO-12")
    assert info.splitlines()[1] == ("  {Main} return an enemy warlord of strength 3000 or less to its owner's "
                                    "hand counter-stratagem: build a wall from the top of your deck")
    assert japanese_left(g, info) == []
    (ja,) = plain(g, "ja").card_info("AO-12")
    assert "兵力3000以下の敵武将1体を持ち主の手札に戻す。" in ja


def test_a_summoned_soldier_is_numbered_from_one_in_texts() -> None:
    """SGT-SUMMON-01: summoned soldiers are tokens; people read the first one as soldier #1,
    not by its internal id (10000)."""
    from takujo.games.sengoku_taisen.render import _unit
    from takujo.games.sengoku_taisen.state import TOKEN_BASE
    from takujo.present import Renderer
    from takujo.core.registry import make_game
    game = make_game("sengoku_taisen", None, {})
    r = Renderer(game, "en", markup=False)
    first, third = _unit(game, TOKEN_BASE), _unit(game, TOKEN_BASE + 2)
    assert r.arg("unit", first) == "soldier #1" and r.arg("unit", third) == "soldier #3"
    assert Renderer(game, "ja", markup=False).arg("unit", first) == "召喚兵#1"


def test_copies_of_a_card_in_hand_have_menu_entries_of_their_own() -> None:
    """Two copies of one card in hand are two actions (their notations differ): their labels
    must differ too ("(copy 2)"), or a person cannot tell which one a menu entry plays."""
    from takujo.present import Renderer
    from takujo.core.registry import make_game
    game = make_game("sengoku_taisen", None, {})
    r = Renderer(game, "en", markup=False)
    for seed in range(300):
        state = game.new_state(seed)
        while state.outcome is None and state.pending is not None and state.pending.prompt == "mulligan":
            p = state.pending.players[0]
            state.apply("keep", p)
        p = state.pending.players[0]
        hand = state.view(p)["zones"]["hand"][p]
        numbers = [game.instances[c].number for c in hand]
        if len(set(numbers)) == len(numbers):
            continue
        view = state.view(p)
        legal = state.legal_actions(p)
        labels = [r.action(a, view) for a in legal]
        assert len(set(labels)) == len(labels), sorted(x for x in labels if labels.count(x) > 1)
        assert any("(copy 2)" in x for x in labels)
        assert not any("(copy" in r.action(a, view) for a in legal if a.args and
                       numbers.count(game.instances[a.args[0]].number) == 1 and a.args[0] in hand)
        return
    raise AssertionError("no hand with two copies in 300 seeds")
