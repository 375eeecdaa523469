"""いばらの姫と4人の騎士 in Japanese and English: every event kind renders as a sentence in both
languages (events that give nothing say so), actions, prompts and phases have labels, the board
and `card_info` speak the viewer's language, and the English table shows no Japanese but card
names."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import takujo
from takujo.cli import app
from takujo.core import Rng
from takujo.core.action import Action
from takujo.games.ibara import render
from takujo.games.ibara.phases import (ACT, COMBAT_CHOOSE, COMBAT_DECLARE, COMBAT_DROP, COMBAT_PLAY,
                                       COMBAT_RING, DISCARD, GABE_DISCARD, OVER, PENALTY)
from takujo.present import Renderer

SPECS = ["ibara", "ibara(multi_card_combat=true,sp_cards_to_hand=true,gaiblitz_buff=true)",
         "ibara(players=3,mode=short,anger_penalty=discard_all)", "ibara(anger_penalty=hybrid_event_one,ryan_last=true)"]
LANGS = ("ja", "en")
JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff01-\uff60]")

#: "1" twenty times, then the next numbers: menu numbers stay while a decision goes on, so 1 may be gone
ANY_NUMBER = "1\n" * 20 + "".join(f"{n}\n" for n in range(2, 21)) + "1\n"


def say(lang: str) -> Renderer:
    return Renderer(takujo.load("ibara"), lang, markup=False)


def _events_met() -> dict[str, tuple[str, dict]]:
    kinds: dict[str, tuple[str, dict]] = {}
    for spec in SPECS:
        game = takujo.load(spec)
        for seed in range(8):
            s = game.new_state(seed)
            rng = Rng(seed)
            while s.outcome is None:
                pend, legal = s.first_choice()
                s.apply_unchecked(legal[rng.below(len(legal))], pend)
            for e in s.log:
                kinds.setdefault(e["e"], (spec, e))
    return kinds


def without_names(game, text: str) -> str:
    """`text` with every card, chip, whim, event and knight name (both languages) and the
    game's title taken out."""
    c = game.content
    names = {game.title} | {n for x in (*c.knights, *c.items, *c.whims, *c.events, *c.sps)
                            for n in (x.name_ja, x.name_en)}
    names |= {n for i in range(len(c.cards)) for n in game.card_names(i)}
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, "")
    return text


@pytest.mark.parametrize("lang", LANGS)
def test_every_event_kind_renders_as_a_sentence(lang):
    """Every kind Ibara logs, with the options on and off, renders from the catalogue as a
    sentence (not a bare message ID); only the deliberately silent kinds are left out."""
    kinds = _events_met()
    silent = takujo.load("ibara").silent_events()
    assert {"committed", "declare", "ring", "tie", "won_combat", "draw_count", "no_item",
            "princess_left", "sp", "sp_to_hand", "gaiblitz", "discard", "choose"} <= set(kinds)
    missing = []
    for kind, (spec, e) in sorted(kinds.items()):
        game = takujo.load(spec)
        text = Renderer(game, lang, markup=False).event(dict(e), None)
        if kind in silent:
            assert text is None
            continue
        if not text or "event." in text or "=" in text:
            missing.append((kind, text))
    assert not missing
    assert silent == {"random", "act"}


@pytest.mark.parametrize("event, ja, en", [
    ({"e": "no_item", "to": None, "player": 2}, "得られなかった", "gained no item (none was left)"),
    ({"e": "whims_lost", "to": None, "player": 1, "cards": []}, "失うワガママカードがない", "had no whim card to lose"),
    ({"e": "draw_count", "to": None, "player": 0, "n": 0}, "引けなかった", "drew nothing"),
    ({"e": "explore", "to": None, "player": 0, "card": 3, "flipped": 2, "total": 4, "success": False},
     "何も得ない", "failure (nothing gained)"),
    ({"e": "reveal", "to": None, "player": 1, "cards": []}, "カードなし", "revealed no card"),
    ({"e": "dropped", "to": None, "player": 1, "n": 1, "remaining": [5]}, "1 枚を伏せて捨てた",
     "dropped a card face down; left in play: Sword 3 (剣3)"),
    ({"e": "combat_result", "to": None, "attacker": ["剣", 8], "defender": [], "result": 1},
     "攻撃 剣8 対 防御 カードなし", "Attack Sword 8 against defence no card: the attacker won."),
])
def test_events_that_give_nothing_say_so(event, ja, en):
    assert ja in say("ja").event(event, None)
    assert en in say("en").event(event, None)


def test_english_counts_agree_and_you_take_the_same_verb():
    """One card is "a card", more are "N cards"; the viewer is "you", with the verb every
    player gets (the past tense)."""
    en = say("en")
    assert en.event({"e": "draw_count", "to": None, "player": 0, "n": 1}, 0) == "You drew a card."
    assert en.event({"e": "draw_count", "to": None, "player": 0, "n": 3}, 1) == "Player 0 drew 3 cards."
    assert en.event({"e": "committed", "to": None, "player": 2, "n": 1}, 2) == "You laid a card face down."
    assert en.event({"e": "whims_lost", "to": None, "player": 1, "cards": [0, 3]}) == "Player 1 lost 2 whim cards."
    assert en.event({"e": "declare", "to": None, "player": 1, "cards": 1}) == "Player 1 declared 1 card."
    placed = {"e": "placed", "to": None, "player": 3, "square": 7, "why": "combat"}
    assert en.event(placed, 3) == "Random placement after a lost combat: you went to square 7."
    assert say("ja").event(placed, 3) == "あなた はマス7にランダム配置 (戦闘)。"
    assert en.action(Action(0, "declare", (1,)), None) == "declare 1 card"
    assert en.action(Action(0, "declare", (2,)), None) == "declare 2 cards"


def test_events_and_actions_in_both_languages():
    """Squares, suits, results, reasons and card, chip, whim, event and knight names in the
    viewer's language; English shows the Japanese card name beside."""
    ja, en = say("ja"), say("en")
    result = {"e": "combat_result", "to": None, "attacker": ["剣", 8], "defender": ["拳", 3], "result": -1}
    assert ja.event(result) == "攻撃 剣8 対 防御 拳3: 防御側の勝ち。"
    assert en.event(result) == "Attack Sword 8 against defence Fist 3: the defender won."
    move = {"e": "move", "to": None, "player": 1, "card": 0, "square": 0}
    assert en.event(move) == "Player 1 moved to the keep." and ja.event(move) == "プレイヤー1 が城へ移動。"
    draw = {"e": "draw", "to": [0], "player": 0, "card": 83}
    assert en.event(draw, 0) == "You drew Summons (呼び寄せ)." and ja.event(draw, 0) == "あなた は 呼び寄せ を引いた。"
    whim = {"e": "whim_taken", "to": None, "player": 2, "card": 0}
    assert en.event(whim) == "Player 2 satisfied the whim I'm thirsty (喉が渇いたわ)."
    item = {"e": "item", "to": None, "player": 2, "item": 0}
    assert en.event(item) == "Player 2 gained the item Water (水)." and ja.event(item) == "プレイヤー2 はアイテム 水 を得た。"
    ring = {"e": "ring", "to": None, "player": 0, "cards": [0, 30]}
    assert en.event(ring, 1) == "Player 0 used the Ring of Devil's Luck (悪運の指輪) and played again: Sword 1 (剣1), Scroll 4 (巻物4)."
    gabe = {"e": "gaiblitz", "to": None, "player": 0, "target": 1, "mode": "discard"}
    assert en.event(gabe, 1) == "Player 0 used the ability of Gaiblitz (ゲイブリッツ): you had to discard 3 cards."
    assert ja.event(gabe, 1) == "プレイヤー0 (ゲイブリッツ) の能力: あなた が 3 枚捨てる。"
    shuffle = {"e": "shuffle", "to": [], "what": "action deck", "order": [3, 1]}
    assert ja.event(shuffle) == "山札を切り直した。" and en.event(shuffle) == "The action deck was shuffled."
    over = {"e": "game_over", "to": None, "winners": [2], "reason": "escape"}
    assert en.event(over, 2) == "Game over: won by you (escaped through the gate with the princess)."
    assert en.action(Action(0, "nofight", (83,)), None).startswith("no card can fight: lay Summons (呼び寄せ)")
    assert ja.action(Action(0, "choose", ("巻物",)), None) == "スート 巻物 を選ぶ"
    assert en.action(Action(0, "choose", ("巻物",)), None) == "choose the Scroll suit"
    assert en.action(Action(0, "move", (5, 13)), None) == "move: Sword 3 (剣3) → the gate"
    assert ja.action(Action(0, "move", (5, 13)), None) == "移動: 剣3 → 門"
    assert en.action(Action(0, "noring", ()), None) == "keep the Ring of Devil's Luck (悪運の指輪)"
    assert en.action(Action(0, "gaiblitz", (2, "draw")), None) == "ability of Gaiblitz (ゲイブリッツ): player 2 must draw 3 cards"
    assert en.event({"e": "random", "to": None, "why": "discard_random", "n": 3, "index": 1}) is None


@pytest.mark.parametrize("lang", LANGS)
def test_every_prompt_and_phase_has_a_message(lang):
    """Decision prompts are the phases' IDs; each prompt and each phase has a message."""
    r = say(lang)
    phases = (ACT, DISCARD, PENALTY, GABE_DISCARD, COMBAT_DECLARE, COMBAT_PLAY, COMBAT_RING, COMBAT_CHOOSE,
              COMBAT_DROP)
    for ph in phases:
        assert r.has(f"prompt.{ph}") and r.has(f"phase.{ph}"), ph
    assert r.has(f"phase.{OVER}")
    assert say("en").text("prompt.combat_ring") == "play again with the Ring of Devil's Luck (悪運の指輪)?"


def test_the_board_in_both_languages_shows_only_the_viewer_s_hand():
    from .helpers import card, escort, give, place, show_whim, table
    s = table()
    place(s, 1, 0)
    escort(s, 1)
    show_whim(s, "ochakai")
    give(s, 0, card(s, "剣", 8))
    give(s, 1, card(s, "拳", 4))
    give(s, 0, card(s, None, sp="draw"))
    ja = Renderer(s.game, "ja", markup=False).view(s.view(0))
    en = Renderer(s.game, "en", markup=False).view(s.view(0))
    assert "ラウンド 2 ターン 5" in ja and "(行動)" in ja and "Round 2, turn 5 — you (actions)" in en
    assert "姫を連れている" in ja and "escorting the princess" in en
    assert "必要: 水、食料" in ja and "needs Water (水), Food (食料)" in en
    assert "手札: 剣8 (移動2)、千里眼 (SP)" in ja
    assert "Your hand: Sword 8 (剣8) (move 2), Foresight (千里眼) (SP)" in en and "拳4" not in en
    assert "K0 you: Gaiblitz (ゲイブリッツ) at square 2 — whims 0/3, 2 cards in hand, items: none" in en
    assert "K1 player 1: Sion (シオン) at the keep escorting the princess — whims 0/3, 1 card in hand" in en
    assert "[Keep:K1P]" in en and "[城:K1姫]" in ja
    leftover = [line for line in en.split("\n") if JAPANESE.search(without_names(s.game, line))]
    assert leftover == []
    spectator = Renderer(s.game, "ja", markup=False).view(s.view(None))
    assert not any(line.startswith("手札") for line in spectator.split("\n")) and "剣8" not in spectator


def test_the_board_keeps_its_markup_for_a_markup_renderer():
    from .helpers import escort, place, table
    s = table()
    place(s, 0, 0)
    escort(s, 0)
    text = Renderer(s.game, "en").view(s.view(0))
    assert "[magenta]escorting the princess[/magenta]" in text and "[Keep:K0P]" in text


# ----- card_info ----------------------------------------------------------------------------------
def _plain(text: str) -> str:
    return re.sub(r"\[/?[a-z ]*\]", "", text)


@pytest.mark.parametrize("query, ja, en", [
    ("指輪", "悪運の指輪 (Ring of Devil's Luck)", "Ring of Devil's Luck (悪運の指輪)"),
    ("devil", "悪運の指輪 (Ring of Devil's Luck)", "Ring of Devil's Luck (悪運の指輪)"),
    ("GAIBLITZ", "ゲイブリッツ (Gaiblitz)", "Gaiblitz (ゲイブリッツ)"),
    ("teleport", "瞬間移動 (Teleport)", "Teleport (瞬間移動)"),
    ("剣8", "剣8 (Sword 8)", "Sword 8 (剣8)"),
    ("shield 3", "盾3 (Shield 3)", "Shield 3 (盾3)"),
    ("pitfall", "落とし穴 (Pitfall)", "Pitfall (落とし穴)"),
    ("thirsty", "喉が渇いたわ (I'm thirsty)", "I'm thirsty (喉が渇いたわ)"),
])
def test_card_info_finds_by_id_or_either_name(query, ja, en):
    """`card_info`: every action card, SP card, item chip, whim, event and knight whose id or
    Japanese or English name contains the query (case-insensitive): the name in the viewer's
    language, the other beside it."""
    assert [x.split(" — ")[0] for x in say("ja").card_info(query)] == [ja]
    assert [x.split(" — ")[0] for x in say("en").card_info(query)] == [en]
    assert [_plain(x) for x in Renderer(takujo.load("ibara"), "en").card_info(query)] == say("en").card_info(query)


def test_card_info_texts_in_japanese():
    ja = say("ja")
    [ring] = ja.card_info("akuun")
    assert "アイテム ×1" in ring and "出したカードを捨て、もう1回" in ring and "play again" not in ring
    [gabe] = ja.card_info("ゲイブリッツ")
    assert "騎士 (戦闘)" in gabe and "+2" in gabe
    [whim] = ja.card_info("ochakai")
    assert "必要なアイテム: 水、食料" in whim and "イライラ上限 5" in whim
    [shield] = ja.card_info("盾1")
    assert "防御側だけ" in shield and "移動 2" in shield
    [spring] = ja.card_info("わき水")
    assert "「水」のアイテムチップを1枚得る" in spring
    assert len(ja.card_info("sword")) == 12             # 剣1..剣12, one entry per kind
    assert ja.card_info("no such card") == [] and ja.card_info("  ") == []


def test_card_info_in_english():
    """The full text in English, from the card data's English text or, for cards without
    one, from what the card does; nothing Japanese but the names beside."""
    en = say("en")
    game = takujo.load("ibara")
    [ring] = en.card_info("akuun")
    assert ring == ("Ring of Devil's Luck (悪運の指輪) — item chip ×1\n  In combat, once the cards are revealed, "
                    "discard yours and play again. Discarded after use.")
    [gabe] = en.card_info("ゲイブリッツ")
    assert gabe == "Gaiblitz (ゲイブリッツ) — knight (combat)\n  In combat, his card's number counts 2 more."
    [whim] = en.card_info("ochakai")
    assert whim == "Let's have a tea party (お茶会がしたいの) — whim ×1, irritation limit 5\n  Needs Water (水), Food (食料)."
    [visit] = en.card_info("north tower")
    assert visit.endswith("Bring her to square 1.")
    [shield] = en.card_info("盾1")
    assert shield == ("Shield 1 (盾1) — action card ×1, move 2\n  The defender only: it forces a tie "
                      "(broken by an attack worth 13 or more).")
    [sword] = en.card_info("sword_8")
    assert sword.endswith("Sword beats Scroll.")
    [whirl] = en.card_info("tsumujikaze")
    assert whirl == "Whirlwind (つむじ風) — event card ×1\n  Discard 2 cards from your hand at random."
    for text in en.card_info("a"):
        assert not JAPANESE.search(without_names(game, text)), text


def test_the_presenter_holds_no_text_of_its_own():
    """Every sentence comes from messages.toml: no Japanese and no English phrase in the
    presenter's string literals (docstrings aside), and the old describe functions are gone."""
    tree = ast.parse(Path(render.__file__).read_text(encoding="utf-8"))
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef)) and n.body
            and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    found = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
             and id(n) not in docs and (JAPANESE.search(n.value)
                                        or len([w for w in n.value.split() if w.isalpha() and len(w) > 2]) >= 2)]
    assert found == []
    assert not hasattr(render, "describe_event") and not hasattr(render, "describe_action")


# ----- card names and the catalogue -------------------------------------------------------------
def test_card_names_and_the_catalogue_in_both_languages():
    """Clients get every action card, chip, whim, event, knight and square with Japanese and
    English names and texts; the catalogue is a copy (editing it changes no content)."""
    game = takujo.load("ibara")
    assert game.card_names(0) == ("剣1", "Sword 1")
    assert game.card_names(83) == ("呼び寄せ", "Summons")
    assert game.card_names("item:0") == ("水", "Water")
    assert game.card_names("knight:3") == ("ライアン", "Ryan")
    data = game.export_catalogue()
    assert len(data["cards"]) == 84 and data["stand_in"] is True and data["note_en"].startswith("Stand-in")
    for part in ("cards", "knights", "items", "whims", "events", "board"):
        for entry in data[part]:
            assert entry["name_ja"] and entry["name_en"], entry
            assert bool(entry.get("text_ja")) == bool(entry.get("text_en")), entry
    cards = {c["id"]: c for c in data["cards"]}
    assert cards[0]["type"] == "action" and cards[0]["text_en"] == "Sword beats Scroll."
    assert cards[83]["type"] == "sp" and cards[83]["text_en"] == "Move the event marker to any numbered square."
    spring = next(e for e in data["events"] if e["key"] == "izumi")
    assert spring["text_ja"] == "「水」のアイテムチップを1枚得る。" and spring["text_en"] == "Gain a Water (水) item chip."
    assert data["board"][0] == {"id": 0, "name_ja": "城", "name_en": "the keep", "links": [3, 6, 9, 12],
                                "explore": False}
    data["whims"][0]["items"].append("x")
    assert game.content.whims[0].items == ["water"]


# ----- the terminal -------------------------------------------------------------------------------
def test_the_english_table_shows_no_japanese_but_card_names():
    """``takujo play ibara --lang en``: the log, the board, the menus, a card's text and the
    outcome in English; Japanese only in card names (beside the English) and the title."""
    game = takujo.load("ibara")
    result = CliRunner().invoke(app, ["play", "ibara", "--lang", "en", "--bots", "random", "--seed", "1"],
                                input="? ring\n" + ANY_NUMBER * 60 + "q\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Your decision:" in out and "Round 1, turn 1" in out and "Your hand:" in out
    assert "Ring of Devil's Luck (悪運の指輪) — item chip ×1" in out and "Game over" in out
    leftover = [line for line in out.splitlines() if JAPANESE.search(without_names(game, line))]
    assert leftover == []


def test_the_japanese_table_speaks_japanese():
    result = CliRunner().invoke(app, ["play", "ibara", "--lang", "ja", "--bots", "random", "--seed", "1"],
                                input="1\n" * 30 + "q\n")
    assert result.exit_code == 0, result.output
    assert "あなたの番" in result.output and "ラウンド 1 ターン 1" in result.output
    assert "Your decision" not in result.output and "moved to" not in result.output
