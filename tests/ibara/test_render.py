"""The terminal presentation of いばらの姫と4人の騎士: every event kind renders as a sentence,
and `card_info` gives the full text of cards, chips, whims, events and knights."""
from __future__ import annotations

import re

import pytest

import takujo
from takujo.core import Rng
from takujo.games.ibara import render

SPECS = ["ibara", "ibara(multi_card_combat=true,sp_cards_to_hand=true,gaiblitz_buff=true)",
         "ibara(players=3,mode=short,anger_penalty=discard_all)", "ibara(anger_penalty=hybrid_event_one,ryan_last=true)"]


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


def test_every_event_kind_renders_as_a_sentence():
    """Every kind Ibara logs, with the options on and off, renders from `describe_event` as a
    sentence (not the generic `kind: k=v`); only the deliberately silent kinds are left out."""
    kinds = _events_met()
    silent = takujo.load("ibara").silent_events()
    assert {"committed", "declare", "ring", "tie", "won_combat", "draw_count", "no_item",
            "princess_left", "sp", "sp_to_hand", "gaiblitz", "discard", "choose"} <= set(kinds)
    missing = []
    for kind, (spec, e) in sorted(kinds.items()):
        if kind in silent:
            continue
        text = takujo.load(spec).describe_event(dict(e), None)
        if not text or text.startswith(f"{kind}:") or "=" in text:
            missing.append(kind)
    assert not missing
    assert silent == {"random", "act"}


@pytest.mark.parametrize("event, words", [
    ({"e": "no_item", "to": None, "player": 2}, "得られなかった"),
    ({"e": "whims_lost", "to": None, "player": 1, "cards": []}, "失うワガママカードがない"),
    ({"e": "draw_count", "to": None, "player": 0, "n": 0}, "引けなかった"),
    ({"e": "explore", "to": None, "player": 0, "card": 3, "flipped": 2, "total": 4, "success": False}, "何も得ない"),
    ({"e": "reveal", "to": None, "player": 1, "cards": []}, "カードなし"),
    ({"e": "dropped", "to": None, "player": 1, "n": 1, "remaining": [5]}, "1 枚を伏せて捨てた"),
    ({"e": "combat_result", "to": None, "attacker": ["剣", 8], "defender": [], "result": 1}, "攻撃 剣8 対 防御 カードなし"),
])
def test_events_that_give_nothing_say_so(event, words):
    assert words in takujo.load("ibara").describe_event(event, None)


def _plain(text: str) -> str:
    return re.sub(r"\[/?[a-z ]*\]", "", text)


@pytest.mark.parametrize("query, names", [
    ("指輪", ["悪運の指輪 (Ring of Devil's Luck)"]),
    ("devil", ["悪運の指輪 (Ring of Devil's Luck)"]),
    ("GAIBLITZ", ["ゲイブリッツ (Gaiblitz)"]),
    ("teleport", ["瞬間移動 (Teleport)"]),
    ("剣8", ["剣8 (Sword 8)"]),
    ("shield 3", ["盾3 (Shield 3)"]),
    ("pitfall", ["落とし穴 (Pitfall)"]),
    ("thirsty", ["喉が渇いたわ (I'm thirsty)"]),
])
def test_card_info_gives_full_text_with_both_names(query, names):
    """`card_info`: every action card, item chip, whim, event and knight whose id or Japanese
    or English name contains the query (case-insensitive): Japanese name, English beside it,
    and the full text."""
    game = takujo.load("ibara")
    found = [_plain(x) for x in game.card_info(query)]
    assert [x.split(" — ")[0] for x in found] == names
    assert game.card_info(query) == render.card_info(game, query)


def test_card_info_texts():
    game = takujo.load("ibara")
    [ring] = game.card_info("akuun")
    assert "出したカードを捨て、もう1回" in ring and "play again" in ring
    [gabe] = game.card_info("ゲイブリッツ")
    assert "+2" in gabe and "counts 2 more" in gabe
    [whim] = game.card_info("ochakai")
    assert "水" in whim and "食料" in whim and "イライラ上限 5" in whim
    [shield] = game.card_info("盾1")
    assert "defender only" in shield and "移動 2" in shield
    assert len(game.card_info("sword")) == 12             # 剣1..剣12, one entry per kind
    assert game.card_info("no such card") == [] and game.card_info("  ") == []


def test_card_names_and_the_catalogue_in_both_languages():
    """Clients get every action card, chip, whim, event, knight and square with Japanese and
    English names (and texts); the catalogue is a copy (editing it changes no content)."""
    game = takujo.load("ibara")
    assert game.card_names(0) == ("剣1", "Sword 1")
    assert game.card_names(83) == ("呼び寄せ", "Summons")
    assert game.card_names("item:0") == ("水", "Water")
    assert game.card_names("knight:3") == ("ライアン", "Ryan")
    data = game.export_catalogue()
    assert len(data["cards"]) == 84 and data["stand_in"] is True
    for part in ("cards", "knights", "items", "whims", "events", "squares"):
        for entry in data[part]:
            assert entry["name_ja"] and entry["name_en"], entry
            assert bool(entry.get("text_ja")) == bool(entry.get("text_en")), entry
    data["whims"][0]["items"].append("x")
    assert game.content.whims[0].items == ["water"]


def test_messages_speak_both_languages():
    """The catalogue (messages.toml) renders events and actions in Japanese and English:
    squares, suits, results and card names in the viewer's language."""
    from takujo.core.action import Action
    from takujo.present import Renderer
    game = takujo.load("ibara")
    ja, en = Renderer(game, "ja", markup=False), Renderer(game, "en", markup=False)
    result = {"e": "combat_result", "to": None, "attacker": ["剣", 8], "defender": [], "result": 1}
    assert ja.event(result) == "攻撃 剣8 対 防御 カードなし: 攻撃側の勝ち。"
    assert en.event(result) == "Attack Sword 8 against defence no card: the attacker wins."
    move = {"e": "move", "to": None, "player": 1, "card": 0, "square": 0}
    assert en.event(move) == "player 1 moves to the keep (城)." and ja.event(move) == "プレイヤー1 が 城 へ移動。"
    assert en.action(Action(0, "nofight", (83,)), None).startswith("no card that can fight: lay Summons (呼び寄せ)")
    assert ja.action(Action(0, "choose", ("巻物",)), None) == "スート 巻物 を選ぶ"
    assert en.action(Action(0, "choose", ("巻物",)), None) == "choose the Scroll suit"
    assert en.event({"e": "random", "to": None, "why": "discard_random", "n": 3, "index": 1}) is None


def test_the_board_in_both_languages_shows_only_the_viewer_s_hand():
    from takujo.present import Renderer
    from .helpers import card, escort, give, show_whim, table
    s = table()
    escort(s, 1)
    show_whim(s, "ochakai")
    give(s, 0, card(s, "剣", 8))
    give(s, 1, card(s, "拳", 4))
    ja = Renderer(s.game, "ja", markup=False).view(s.view(0))
    en = Renderer(s.game, "en", markup=False).view(s.view(0))
    assert "姫を連れている" in ja and "escorting the princess" in en
    assert "必要: 水、食料" in ja and "needs Water (水), Food (食料)" in en
    assert "Hand: Sword 8 (剣8) (move 2)" in en and "拳4" not in en
    spectator = Renderer(s.game, "ja", markup=False).view(s.view(None))
    assert not any(line.startswith("手札") for line in spectator.split("\n")) and "剣8" not in spectator
