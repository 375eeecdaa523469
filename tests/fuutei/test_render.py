"""Fuutei's text in Japanese and English: every event kind renders as a sentence in both
languages (events that give nothing say so), actions and prompts have labels, the board and
`card_info` speak the viewer's language, and the English table shows no Japanese but card
names."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import takujo
from takujo.cli import app
from takujo.core import Rng
from takujo.core.action import Action
from takujo.games.fuutei import render
from takujo.present import Renderer

from .helpers import act, events, put, table, to_battle, weak

SOURCES = Path(render.__file__).parent
SPECS = ["fuutei", "fuutei(players=5,old_region_rule=true)", "fuutei(players=2)",
         "fuutei(center_regions=effects_only,deck_out=failed_draw)"]
LANGS = ("ja", "en")
JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff01-\uff60]")


def _random_game(game, seed: int):
    s = game.new_state(seed)
    rng = Rng(seed)
    while s.outcome is None:
        options = s.legal_actions(s.pending.players[0])
        s.apply(options[rng.below(len(options))])
    return s


def _logged_kinds() -> dict[str, dict]:
    """One example of every event kind met in random games, options on and off."""
    kinds: dict[str, dict] = {}
    for spec in SPECS:
        game = takujo.load(spec)
        for seed in range(8):
            for e in _random_game(game, seed).log:
                kinds.setdefault(e["e"], e)
    return kinds


def _is_sentence(game, kind: str, e: dict, lang: str) -> bool:
    text = Renderer(game, lang).event(dict(e), None)
    return bool(text) and not text.startswith((f"{kind}:", f"event.{kind}")) and text.strip() != kind


def without_names(game, text: str) -> str:
    """`text` with every card name (both languages) and the game's title taken out."""
    names = {game.title} | {x for c in game.catalogue.cards for x in (c.spec.name_ja, c.spec.name_en)}
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, "")
    return text


@pytest.mark.parametrize("lang", LANGS)
def test_every_event_kind_met_in_random_play_renders_as_a_sentence(lang):
    game = takujo.load("fuutei")
    kinds = _logged_kinds()
    silent = game.silent_events()
    assert {"shuffle", "act"} <= silent
    missing = [k for k, e in sorted(kinds.items()) if k not in silent and not _is_sentence(game, k, e, lang)]
    assert missing == []
    # kinds that once printed nothing
    for k in ("battle_over", "dealt", "draw_count", "random", "region_setup", "setup_event_returned",
              "setup_region", "support_committed", "support_effect"):
        assert k in kinds and _is_sentence(game, k, kinds[k], lang)


SAMPLE = {"player": 0, "card": 0, "region": 90, "target": 1, "targets": [1], "negates": 0,
          "cards": [0, 1], "dest": "center", "turn": 3, "missed": 1, "placed": True, "side": 0,
          "changes": [[0, "phys_atk", 3]], "first": 0, "rolls": [3, 4], "attack": "phys",
          "total": 7, "defence": 8, "critical": False, "defeated": 1, "from_player": -1,
          "why": "event", "roll": 5, "need": 5, "success": True, "against": "phys_def",
          "owner": 1, "winners": [0], "reason": "points"}
# Values that choose another message of the same kind, one set per variant.
VARIANTS = [{"missed": 2}, {"dest": "own"}, {"dest": "hand"}, {"placed": False}, {"side": 1},
            {"changes": []}, {"critical": True}, {"defeated": 0}, {"defeated": -1}, {"from_player": 2},
            {"why": "val_entered"}, {"why": "destroy_equipment"}, {"why": "destroy_region"},
            {"why": "unknown"}, {"success": False}, {"targets": []}, {"winners": []},
            {"reason": "deck_out"}]


@pytest.mark.parametrize("lang", LANGS)
def test_every_event_kind_in_the_code_has_a_rendering(lang):
    """Kinds rare in random play too: every ``say("kind"`` of the Fuutei modules renders, with
    each variant of its message (critical hits, failed proposals, gains from the centre …)."""
    code = "".join(p.read_text(encoding="utf-8") for p in SOURCES.glob("*.py"))
    said = set(re.findall(r'say\("([a-z_]+)"', code)) - render.SILENT_EVENTS
    game = takujo.load("fuutei")
    bad = [(k, extra) for k in sorted(said) for extra in [{}, *VARIANTS]
           if not _is_sentence(game, k, {"e": k, "to": None, **SAMPLE, **extra}, lang)]
    assert bad == []
    # the core's chance events and the end of the game too
    roll = {"e": "roll", "to": None, "why": "phys_attack", "player": 1, "dice": "2D", "faces": [6, 6], "total": 12}
    for extra in ({}, {"card": 3}, {"faces": []}, {"faces": [], "card": 3}):
        assert _is_sentence(game, "roll", {**roll, **extra}, lang)
    for why in ("random_discard", "other"):
        assert _is_sentence(game, "random", {"e": "random", "to": None, "why": why, "n": 3, "index": 1, "player": 2}, lang)


def test_typical_events_in_english_and_japanese():
    game = takujo.load("fuutei")
    en, ja = Renderer(game, "en", markup=False), Renderer(game, "ja", markup=False)
    blue = game.catalogue.by_id("aoi_kaze")[0]
    teito = game.catalogue.by_id("teito")[0]
    draw = {"e": "draw", "to": [0], "player": 0, "card": blue}
    assert en.event(draw, 0) == "You drew Blue Wind (蒼い風)"
    assert en.event(draw, 1) == "Player 0 drew Blue Wind (蒼い風)"
    assert ja.event(draw, 0) == "あなた は 蒼い風 を引いた"
    invade = {"e": "invade", "to": None, "player": 2, "card": blue, "region": teito, "owner": 1}
    assert en.event(invade, 0) == "Player 2 invaded Imperial Capital (帝都) with Blue Wind (蒼い風)"
    assert ja.event(invade, 2) == "あなた が 蒼い風 で 帝都 に侵攻"
    attack = {"e": "attack", "to": None, "player": 2, "card": blue, "target": teito, "attack": "mag",
              "total": 12, "defence": 11, "critical": True, "defeated": True}
    assert "Magic attack of Blue Wind (蒼い風) 12" in en.event(attack) and "Critical!" in en.event(attack)
    assert "魔法攻撃 12" in ja.event(attack) and "クリティカル！" in ja.event(attack)
    over = {"e": "game_over", "to": None, "winners": [1, 3], "reason": "deck_out"}
    assert en.event(over, 3) == "Game over: won by player 1, you (the pile ran out)"
    assert ja.event(over, None) == "ゲーム終了: 勝者 プレイヤー1、プレイヤー3 (山札切れ)"
    # the event card's effect is said from its effect verb, in the viewer's language
    kyosei = game.catalogue.by_id("kyosei")[0]
    drawn = {"e": "event", "to": None, "player": 1, "card": kyosei}
    assert en.event(drawn) == ("Player 1 drew the event Evil Star (凶星): Each player discards 1 card(s) "
                               "at random from their hand.")
    assert ja.event(drawn).endswith("各プレイヤーは手札から無作為にカードを1枚捨てる。")


def test_typical_actions_in_english_and_japanese():
    game = takujo.load("fuutei")
    en, ja = Renderer(game, "en", markup=False), Renderer(game, "ja", markup=False)
    blue = game.catalogue.by_id("aoi_kaze")[0]
    teito = game.catalogue.by_id("teito")[0]
    gofu = game.catalogue.by_id("chikara_no_gofu")[0]
    play = Action(0, "play", (blue,))
    assert en.action(play) == "play a character: Blue Wind (蒼い風) (♂) P.Atk 2D+3 P.Def 11 M.Atk 2D+2 M.Def 11"
    assert ja.action(play) == "キャラを出す: 蒼い風 (♂) 物攻 2D+3 物防 11 魔攻 2D+2 魔防 11"
    invade = Action(0, "invade", (blue, teito))
    assert en.action(invade) == "invade: Imperial Capital (帝都) (9 points) with Blue Wind (蒼い風)"
    assert ja.action(invade) == "侵攻: 蒼い風 で 帝都 [9点]"
    support = Action(1, "support", (gofu,))
    assert en.action(support) == ("battle support: Charm of Strength (力の護符) (battle support) "
                                  "Until the end of the battle: your side: P.Atk +3.")
    assert ja.action(support) == "戦闘補助: 力の護符 [戦闘補助] この戦闘の終わりまで: 自分の物攻 +3。"
    assert en.action(Action(0, "attack", ("phys",))) == "physical attack"
    assert ja.action(Action(0, "allow")) == "たわけ！を使わない"
    assert not JAPANESE.search(en.action(Action(0, "allow")))


def test_prompts_are_short_ids_with_messages():
    """Decision prompts are stable IDs (``battle_support``, ``tawake``), not sentences."""
    s = table(3)
    r1 = put(s, "teito", region=1)
    a = put(s, "teikoku_hei", party=0)
    put(s, "teikoku_hei", nth=1, party=1, guards=[r1])
    s.phase = "battle"
    act(s, f"invade {a} {r1}")
    assert s.pending.prompt == "battle_support"
    en = Renderer(s.game, "en")
    assert en.text("prompt.battle_support") == "battle support: place a card face down, or none"
    for prompt in ("main", "battle", "hand", "attack", "persuade", "reassign", "tawake"):
        assert en.has(f"prompt.{prompt}") and not JAPANESE.search(en.text(f"prompt.{prompt}"))


def test_a_draw_from_an_empty_pile_says_so():
    """A 補給 (draw 2) with one card left draws it, and the log says the second was not there."""
    s = table(2)
    h = put(s, "hokyu", hand=0)
    last = put(s, weak(s, 0), deck_top=True)
    s.discard.extend(c for c in s.deck if c != last)
    s.deck = [last]
    act(s, f"hold {h}")
    assert s.hands[0] == [last]
    empty = events(s, "empty_draw")[-1]
    assert (empty["player"], empty["missed"]) == (0, 1)
    assert "引けなかった" in Renderer(s.game, "ja").event(empty)
    assert "you drew nothing" in Renderer(s.game, "en").event(empty, 0)


def test_a_support_and_a_hold_that_change_nothing_say_so():
    game = takujo.load("fuutei")
    nothing = {"e": "support_effect", "to": None, "player": 0, "card": 0, "changes": []}
    assert "何も変わらなかった" in Renderer(game, "ja").event(nothing)
    assert "nothing changed" in Renderer(game, "en").event(nothing)
    void = {"e": "no_effect", "to": None, "player": 1, "card": 0}
    assert "効果がなかった" in Renderer(game, "ja").event(void)
    assert "had no effect" in Renderer(game, "en").event(void)


def test_support_events_say_who_placed_what_and_the_effect():
    s = table(3)
    r1 = put(s, "teito", region=1)
    a = put(s, "teikoku_hei", party=0)
    put(s, "teikoku_hei", nth=1, party=1, guards=[r1])
    x = put(s, "chikara_no_gofu", hand=0)
    to_battle(s, a, r1, dice=[5, 1], support=(x, None))
    ja, en = Renderer(s.game, "ja"), Renderer(s.game, "en")
    committed = [ja.event(e) for e in events(s, "support_committed")]
    assert "裏向きに出した" in committed[0] and "出さなかった" in committed[1]
    committed = [en.event(e) for e in events(s, "support_committed")]
    assert "(invader) placed a battle support card face down" in committed[0]
    assert "(defender) placed no battle support card" in committed[1]
    effect = events(s, "support_effect")[-1]
    assert "力の護符" in ja.event(effect) and "侵攻側の物攻 +3" in ja.event(effect)
    assert "Charm of Strength (力の護符)" in en.event(effect) and "invader: P.Atk +3" in en.event(effect)


@pytest.mark.parametrize("lang", LANGS)
def test_terminal_log_never_prints_the_generic_fallback(lang):
    """What `takujo play` prints for a whole random game: sentences only."""
    game = takujo.load("fuutei", players=3)
    s = _random_game(game, 2)
    r = Renderer(game, lang)
    for p in (0, 1, 2, None):
        for e in s.events_for(p, 0):
            text = r.event(e, p)
            if e["e"] in game.silent_events():
                assert text is None
            else:
                assert text and not text.startswith((e["e"] + ":", f"event.{e['e']}("))
                if lang == "en":
                    assert not JAPANESE.search(without_names(game, text)), text


# ----- card_info ----------------------------------------------------------------------------------
def test_card_info_gives_the_full_text_of_matching_cards():
    game = takujo.load("fuutei")
    ja = Renderer(game, "ja")
    [hei] = ja.card_info("teikoku_hei")
    assert "帝国兵" in hei and "Imperial Soldier" in hei and "キャラ" in hei and "男性 ♂" in hei
    assert "物攻 2D" in hei and "物防 8" in hei and "魔防 7" in hei and "3 枚" in hei
    [shikaku] = ja.card_info("刺客")
    assert "Assassin" in shikaku and "ホールド" in shikaku and "2D+1" in shikaku and "1 枚" in shikaku
    [orion] = ja.card_info("ORION")                       # English, any case
    assert "オリオン七神器" in orion and "装備品" in orion and "物攻 +5" in orion
    [teito] = ja.card_info("Imperial Capital")
    assert "9 点" in teito and "地域" in teito
    [val_gear] = ja.card_info("soshi_val")
    assert "ヴァル" in val_gear and "使えない" in val_gear
    assert ja.card_info("no such card") == []
    assert len(ja.card_info("")) == len({c.id for c in game.catalogue.cards})


def test_card_info_in_english():
    game = takujo.load("fuutei")
    en = Renderer(game, "en", markup=False)
    [hei] = en.card_info("帝国兵")
    assert hei.startswith("Imperial Soldier (帝国兵) — character · copies in the set: 3")
    assert "male ♂" in hei and "P.Atk 2D" in hei and "P.Def 8" in hei and "M.Def 7" in hei
    [shikaku] = en.card_info("shikaku")
    assert shikaku.startswith("Assassin (刺客) — hold")
    assert "Roll 2D+1: if the result is at least its physical defence, discard that character." in shikaku
    [orion] = en.card_info("orion")
    assert "equipment" in orion and "P.Atk +5" in orion and "Physical attack +5." in orion
    [teito] = en.card_info("teito")
    assert "9 points" in teito and "region" in teito
    [val_gear] = en.card_info("soshi_val")
    assert "cannot be used while Val (ヴァル) is in play" in val_gear
    for text in en.card_info(""):
        assert not JAPANESE.search(without_names(game, text)), text


def test_card_info_escapes_markup(tmp_path):
    from takujo.games.fuutei.cards import CARD_FILE
    text = CARD_FILE.read_text(encoding="utf-8").replace('name_en = "Imperial Capital"',
                                                         'name_en = "Imperial [bold]Capital"')
    path = tmp_path / "cards.toml"
    path.write_text(text, encoding="utf-8")
    game = takujo.load("fuutei", cards=str(path))
    [info] = Renderer(game, "ja").card_info("capital")
    assert "\\[bold]Capital" in info
    [info] = Renderer(game, "en", markup=False).card_info("capital")
    assert "Imperial [bold]Capital" in info


# ----- the board ----------------------------------------------------------------------------------
@pytest.mark.parametrize("spec", SPECS)
def test_render_view_shows_windows_and_face_down_supports(spec):
    game = takujo.load(spec)
    ja, en = Renderer(game, "ja"), Renderer(game, "en")
    s = game.new_state(3)
    rng = Rng(3)
    seen = set()
    while s.outcome is None and len(seen) < 2:
        options = s.legal_actions(s.pending.players[0])
        s.apply(options[rng.below(len(options))])
        view = s.view(0)
        text, english = ja.view(view), en.view(view)
        if s.windows:
            assert "確認中" in text and "You Fool! window" in english
            seen.add("window")
        if s.commits is not None and s.commits.choices and any(s.supports):
            assert "裏向きの戦闘補助" in text and "face-down battle support" in english
            seen.add("support")


def test_the_english_board_shows_no_japanese_but_card_names():
    game = takujo.load("fuutei", players=3)
    en = Renderer(game, "en", markup=False)
    s = game.new_state(5)
    rng = Rng(5)
    while s.outcome is None:
        for p in (0, None):
            text = en.view(s.view(p))
            assert not JAPANESE.search(without_names(game, text)), text
        options = s.legal_actions(s.pending.players[0])
        s.apply(options[rng.below(len(options))])


def test_the_board_names_the_viewer_you_and_shows_equipment_bonuses():
    s = table(2)
    a = put(s, "aoi_kaze", party=0)
    put(s, "hagane_no_tsurugi", equip_to=a)
    r = put(s, "teito", region=0)
    s.guard[r] = a
    text = Renderer(s.game, "en", markup=False).view(s.view(0))
    assert "you: 9 points, 0 in hand" in text
    assert "region Imperial Capital (帝都) (9 points) ← Blue Wind (蒼い風)" in text
    assert "P.Atk 2D+3+2" in text and "equipment: Steel Sword (鋼の剣)" in text
    text = Renderer(s.game, "ja").view(s.view(1))
    assert "プレイヤー0: 9点" in text and "物攻 2D+3[green]+2[/]" in text


def test_takujo_play_in_english_shows_no_japanese_but_card_names():
    """`takujo play fuutei --lang en` with piped input: menus, the board, prompts and the log."""
    game = takujo.load("fuutei")
    result = CliRunner().invoke(app, ["play", "fuutei", "--lang", "en", "--seed", "4", "--bots", "heuristic"],
                                input="1\n" * 400 + "q\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Your decision:" in out and "main phase" in out and "Turn " in out
    leftover = [line for line in out.splitlines() if JAPANESE.search(without_names(game, line))]
    assert leftover == []
