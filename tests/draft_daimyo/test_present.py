"""ドラフト戦国大名 in Japanese and English: events, actions, prompts, the board picture and
card texts through the message catalogue; card and province names; the card catalogue; the
documented view schema; and a whole game in the terminal in English."""
from __future__ import annotations

import json
import re

import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

import takujo
from takujo.cli import app
from takujo.core.schema import view_model
from takujo.games.draft_daimyo import render
from takujo.games.draft_daimyo.board import Province
from takujo.games.draft_daimyo.schema import BattleView, DaimyoPublic
from takujo.present import Renderer

from .helpers import act, card, choose, events, hold, province, table, take, to_domain

JAPANESE = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]")


def plain(game, lang: str) -> Renderer:
    return Renderer(game, lang, markup=False)


def names_ja(game) -> list[str]:
    """Every Japanese card and province name of a game, longest first."""
    found = {c.spec.name_ja for c in game.cards.cards} | {p.name_ja for p in game.board.provinces}
    return sorted(found, key=len, reverse=True)


def japanese_left(game, text: str, also: tuple[str, ...] = ()) -> list[str]:
    """Lines of `text` with Japanese in them once every card and province name is removed."""
    for name in (*also, *names_ja(game)):
        text = text.replace(name, "")
    return [line for line in text.splitlines() if JAPANESE.search(line)]


# ----- events ----------------------------------------------------------------------------------
def test_a_march_and_its_battle_in_both_languages():
    s = table()
    mino, sm = hold(s, 0, "美濃", 4), hold(s, 1, "信濃南", 1)
    act(s, f"march {mino} {sm} 2")
    march, battle = events(s, "march")[-1], events(s, "battle")[-1]
    en, ja = plain(s.game, "en"), plain(s.game, "ja")
    assert ja.event(march, 1) == "プレイヤー0(織田) が 美濃 → 信濃南 へ2人行軍"
    assert en.event(march, 1) == "Player 0 (Oda) marched 2 soldiers from Mino (美濃) to South Shinano (信濃南)"
    assert en.event(march, 0) == "You (Oda) marched 2 soldiers from Mino (美濃) to South Shinano (信濃南)"
    assert ja.event(battle, 0) == "合戦: あなた(織田) の2人が 信濃南 (プレイヤー1(武田)) を攻める"
    assert en.event(battle, 1) == ("Battle: player 0 (Oda) attacked South Shinano (信濃南) "
                                   "(you (Takeda)) with 2 soldiers")
    for e in events(s, "exchange"):
        assert en.event(e).startswith("  Soldiers left: attacker ")


def test_one_soldier_is_singular_in_english():
    s = table()
    owari = province(s, "尾張")
    s.gold[0] = 5
    act(s, "hire 1")
    assert plain(s.game, "en").event(events(s, "hire")[-1], 2) == "Player 0 (Oda) hired 1 soldier in Owari (尾張)"
    assert plain(s.game, "ja").event(events(s, "hire")[-1], 2) == "プレイヤー0(織田) が 尾張 で兵士1人を雇った"
    assert s.owner[owari] == 0


def test_playing_a_castle_and_a_strategy_on_a_warlord_names_the_target():
    s = table(expansion=True)
    c = choose(s, 0, "城")
    owari = province(s, "尾張")
    act(s, f"play {c} {owari}")
    e = events(s, "play")[-1]
    assert plain(s.game, "en").event(e, 0) == "You (Oda) played Castle (城) (in Owari (尾張))"
    assert plain(s.game, "ja").event(e, 0) == "あなた(織田) が 城 を使った (尾張)"
    s = table(expansion=True)
    w = to_domain(s, 1, "柴田勝家")
    c = choose(s, 0, "謀反の兆し")
    act(s, f"play {c} {w}")
    en = plain(s.game, "en")
    assert en.event(events(s, "play")[-1], 2) == ("Player 0 (Oda) played Signs of Rebellion (謀反の兆し) "
                                                  "(on Shibata Katsuie (柴田勝家))")
    assert en.event(events(s, "effect")[-1], 2) == ("  Effect of Signs of Rebellion (謀反の兆し): "
                                                    "Shibata Katsuie (柴田勝家) now bears signs of rebellion")
    assert plain(s.game, "ja").event(events(s, "effect")[-1], 2) == "  謀反の兆し の効果: 柴田勝家 に謀反の兆し"


def test_an_event_card_shows_its_text_in_the_viewers_language_only():
    s = table()
    e = take(s, card(s, "天下布武"))
    s.say("event", card=e)
    line = events(s, "event")[-1]
    en, ja = plain(s.game, "en").event(line), plain(s.game, "ja").event(line)
    assert en == "Event: Rule the Realm by Force (天下布武) [Event, 0 gold] Each player gains 2 VP per province they own."
    assert ja == "イベント: 天下布武 [イベント 0金] 各大名は領地1つにつき勝利点2を得る。"


def test_effects_say_what_each_player_gained_in_both_languages():
    s = table()
    to_domain(s, 1, "柴田勝家")
    e = take(s, card(s, "御馬揃え"))
    from takujo.games.draft_daimyo import effects
    effects.resolve(s, -1, s.card(e).spec.play, (), source=e)
    line = events(s, "effect")[-1]
    assert plain(s.game, "en").event(line, 1) == "  Effect of Grand Cavalry Parade (御馬揃え): you (Takeda) +2 VP"
    assert plain(s.game, "ja").event(line, 0) == "  御馬揃え の効果: プレイヤー1(武田) +2勝利点"


def test_a_defection_names_the_warlord_and_both_lords():
    s = table()
    w = to_domain(s, 0, "松永久秀")
    e = {"e": "defected", "to": None, "player": 0, "card": w, "dest": 2}
    assert plain(s.game, "en").event(e, 2) == "Matsunaga Hisahide (松永久秀) defected from player 0 (Oda) to you (Uesugi)"
    assert plain(s.game, "ja").event(e, 2) == "松永久秀 が プレイヤー0(織田) から離反し、あなた(上杉)についた"
    gone = {**e, "dest": -1}
    assert plain(s.game, "en").event(gone) == "Matsunaga Hisahide (松永久秀) defected from player 0 (Oda) and left"


def test_the_retreat_and_plunder_lines_name_their_tactics_cards():
    s = table(expansion=True, tactics=True)
    e = {"e": "withdrew", "to": None, "player": 1, "province": province(s, "甲斐"), "soldiers": 3}
    assert plain(s.game, "en").event(e) == ("Player 1 (Takeda) withdrew 3 soldiers to Kai (甲斐) without loss "
                                            "(Retreat from Kanegasaki (金ヶ崎の退き口))")
    assert plain(s.game, "ja").event(e) == "プレイヤー1(武田) は金ヶ崎の退き口で3人を損害なく 甲斐 へ退かせた"
    p = {"e": "plundered", "to": None, "player": 0, "from_player": 1, "gold": 0}
    assert plain(s.game, "en").event(p, 1) == ("Player 0 (Oda) took 0 gold from you (Takeda) (Plunder (略奪)): "
                                               "there was no gold to take")


def test_the_neutral_forces_are_named_as_such():
    s = table()
    e = {"e": "roll", "to": None, "why": "battle", "player": None, "dice": "2D6", "faces": [6, 1], "total": 7}
    assert plain(s.game, "en").event(e) == "  🎲 the neutral forces rolled 2 dice: [6, 1] → 1 hit"
    assert plain(s.game, "ja").event(e) == "  🎲 中立勢力 がダイス2個 [6, 1] → 1ヒット"


def test_shuffles_and_action_records_are_silent():
    s = table()
    r = Renderer(s.game, "en")
    assert r.event({"e": "shuffle", "to": [], "what": "draft deck", "order": [1, 2]}) is None
    assert r.event({"e": "act", "to": [0], "player": 0, "action": "rest"}) is None


# ----- actions, prompts and phases ---------------------------------------------------------------
def test_action_labels_in_both_languages():
    s = table()
    mino = hold(s, 0, "美濃", 3)
    owari = province(s, "尾張")
    view = s.view(0)
    en, ja = plain(s.game, "en"), plain(s.game, "ja")
    assert en.action(f"march {owari} {mino} 1", view) == "march: Owari (尾張) → Mino (美濃) (1 soldier)"
    assert ja.action(f"march {owari} {mino} 2", view) == "行軍: 尾張 → 美濃 (2人)"
    assert en.action("hire 2", view) == "hire 2 soldiers (2 gold)"
    assert ja.action("hire 2", view) == "兵士を2人雇う (2金)"
    assert en.action("rest", view) == "take no basic action"
    c = card(s, "柴田勝家")
    assert en.action(f"pick {c}", view) == ("draft: Shibata Katsuie (柴田勝家) [Warlord, 4 gold, attack +3, defence +1, "
                                            "defection 0, Loyal] Attack +3, defence +1, Loyal. 'Demon Shibata'.")
    assert ja.action(f"pick {c}", view) == "ドラフト: 柴田勝家 [武将 4金 攻+3 防+1 離反0 【忠臣】] 攻撃+3・防御+1・【忠臣】。鬼柴田。"
    assert en.action("order 2", view) == "take turn-order position 2"


@pytest.mark.parametrize("spec", ["draft_daimyo", "draft_daimyo(expansion=true,tactics=true,turn_order_choice=true)"])
def test_every_prompt_is_a_short_id_with_a_message(spec):
    game = takujo.load(spec)
    r = Renderer(game, "en")
    seen = set()
    s = game.new_state(1)
    from takujo.core.rng import Rng
    rng = Rng(1)
    while s.outcome is None:
        prompt = s.pending.prompt
        seen.add(prompt)
        assert re.fullmatch(r"[a-z_]+", prompt) and r.has(f"prompt.{prompt}") and r.has(f"phase.{s.phase}")
        p = s.pending.players[rng.below(len(s.pending.players))]
        options = s.legal_actions(p)
        s.apply(options[rng.below(len(options))])
    assert {"draft", "choose", "card", "basic"} <= seen
    for phase in ("order", "draft", "choose", "card", "basic", "basic_done", "tactic", "over"):
        assert r.has(f"phase.{phase}")


# ----- the board and card texts ------------------------------------------------------------------
def test_the_board_in_english_has_no_japanese_but_names():
    s = table(expansion=True, tactics=True)
    choose(s, 0, "柴田勝家")
    s.hand[0] = [take(s, card(s, "城"))]
    s.tactics_hand[0] = [take(s, card(s, "伏兵"))]
    text = plain(s.game, "en").view(s.view(0))
    assert japanese_left(s.game, text) == []
    assert "you Oda: gold 5, VP 0, hand 1, tactics 1" in text and "Takeda: gold 5" in text
    assert "Round 2, turn 1 — basic action" in text or "Round 2, turn 1 — card" in text
    assert "Chosen card: Shibata Katsuie (柴田勝家) [Warlord" in text
    assert "Tactics cards: Ambush (伏兵) [Tactics, 0 gold] Defender:" in text
    assert "  Owari (尾張) (3) Oda, soldiers 3  → Mino, Mikawa" in text
    ja = plain(s.game, "ja").view(s.view(0))
    assert "あなた 織田: 金5 勝利点0 手札1 戦術1 — なし" in ja and "  尾張(3) 織田 兵3  → 美濃、三河" in ja
    assert "選んだカード: 柴田勝家 [武将 4金" in ja


def test_the_board_of_a_spectator_shows_no_hand():
    s = table()
    choose(s, 0, "柴田勝家")
    text = plain(s.game, "en").view(s.view(None))
    assert "you " not in text and "Chosen card" not in text and "Shibata" not in text


def test_card_info_in_english_gives_the_english_text_with_the_japanese_name():
    game = takujo.load("draft_daimyo", expansion=True, tactics=True)
    found = plain(game, "en").card_info("kanegasaki")
    assert len(found) == 1
    text = found[0]
    assert text.startswith("Retreat from Kanegasaki (金ヶ崎の退き口) — tactics (defender)")
    assert "id kanegasaki_no_nokiguchi / expansion / ×1 / stand-in card" in text
    assert "Defender: withdraw your soldiers to an adjacent province of yours without loss." in text
    assert japanese_left(game, text) == []
    warlord = plain(game, "en").card_info("Takenaka")[0]
    assert "cost 3 gold / attack +1, defence +1, defection 2" in warlord and japanese_left(game, warlord) == []
    assert plain(game, "en").card_info("竹中") == [warlord]


# ----- names, the catalogue and the schema -------------------------------------------------------
def test_card_names_give_both_names_of_cards_and_provinces():
    game = takujo.load("draft_daimyo")
    c = next(c.iid for c in game.cards.cards if c.spec.name_ja == "楽市楽座")
    assert game.card_names(c) == ("楽市楽座", "Free Markets, Free Guilds")
    mino = next(i for i, p in enumerate(game.board.provinces) if p.name_ja == "美濃")
    assert game.card_names(Province(mino)) == ("美濃", "Mino")
    for bad in (-1, len(game.cards.cards), "x", None):
        with pytest.raises(KeyError):
            game.card_names(bad)
    assert Renderer(game, "en").card(10_000) == "10000"
    assert all(p.name_en for p in game.board.provinces)


def test_a_map_without_english_names_shows_the_province_ids(tmp_path):
    from takujo.games.draft_daimyo.board import MAP_FILE
    path = tmp_path / "map.toml"
    path.write_text(re.sub(r'^name_en = .*$', "", MAP_FILE.read_text(encoding="utf-8"), flags=re.M), encoding="utf-8")
    game = takujo.load("draft_daimyo", board=str(path))
    mino = next(i for i, p in enumerate(game.board.provinces) if p.name_ja == "美濃")
    assert game.card_names(Province(mino)) == ("美濃", "mino")
    assert Renderer(game, "en").card(Province(mino)) == "mino (美濃)"
    assert game.export_catalogue()["board"][mino]["name_en"] == "mino"


@pytest.mark.parametrize("spec", ["draft_daimyo", "draft_daimyo(players=3,expansion=true,tactics=true)"])
def test_the_catalogue_has_every_card_a_view_can_name(spec):
    game = takujo.load(spec)
    data = game.export_catalogue()
    json.dumps(data, ensure_ascii=False)
    ids = [c["id"] for c in data["cards"]]
    assert ids == list(range(len(game.cards.cards)))
    assert data["stand_in"] is True and data["note_en"] and data["note_ja"]
    for entry in data["cards"]:
        spec_ = game.cards[entry["id"]].spec
        assert (entry["name_ja"], entry["name_en"], entry["text_en"]) == (spec_.name_ja, spec_.name_en, spec_.text_en)
        assert entry["text_en"] and entry["name_en"] != entry["name_ja"]
    assert [b["name_en"] for b in data["board"]][:3] == ["Owari", "Mino", "Omi"]
    assert [f["name_en"] for f in data["factions"]] == ["Oda", "Takeda", "Uesugi", "Imagawa"][:game.players]
    kai = data["board"][game.board.home("武田")]
    assert kai["home"] == "takeda" and kai["name_ja"] == "甲斐"


def test_the_schema_documents_a_battle_in_progress_and_refuses_unknown_keys():
    s = table(expansion=True, tactics=True)
    s.tactics_hand[1] = [take(s, card(s, "伏兵"))]
    mino, sm = hold(s, 0, "美濃", 4), hold(s, 1, "信濃南", 2)
    act(s, f"march {mino} {sm} 2")
    view = s.view(1)
    assert view["public"]["battle"]["from"] == mino
    model = view_model(type(s.game))
    model.model_validate(view)
    public = DaimyoPublic.model_validate(view["public"])
    assert public.battle == BattleView.model_validate({"attacker": 0, "defender": 1, "from": mino, "to": sm,
                                                       "k": 2, "cards": [0, 0]})
    with pytest.raises(ValidationError):
        DaimyoPublic.model_validate({**view["public"], "gold_": [1]})
    schema = DaimyoPublic.model_json_schema()
    assert "from" in schema["$defs"]["BattleView"]["properties"]
    assert all(field.description for field in DaimyoPublic.model_fields.values())


# ----- the terminal -----------------------------------------------------------------------------
def test_a_whole_game_in_the_terminal_in_english_shows_no_japanese_but_names():
    """`takujo play draft_daimyo --lang en` with every option on, to the end: only card and
    province names (and the game's title) are Japanese."""
    game = takujo.load("draft_daimyo(expansion=true,tactics=true,turn_order_choice=true)")
    result = CliRunner().invoke(app, ["play", "draft_daimyo", "--lang", "en", "--seed", "3", "--bots", "random",
                                      "-o", "expansion=true", "-o", "tactics=true", "-o", "turn_order_choice=true"],
                                input="? takenaka\n" + "1\n" * 4000, env={"COLUMNS": "1000"})
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Game over at step" in out and "Your decision: draft: take one card" in out
    assert "Takenaka Hanbei (竹中半兵衛) — warlord" in out
    assert japanese_left(game, out, also=(game.title,)) == []
    assert "player 1 (" in out and "you (Oda)" in out


def test_the_legacy_describe_functions_are_gone():
    assert not hasattr(render, "describe_event") and not hasattr(render, "describe_action")
