"""The terminal's text for 戦国大戦 双: units in play with their keywords, abilities, 兵力 and
攻城力; the used okugi; log lines as sentences for every event kind, in Japanese and English
(messages.toml); `card_info`."""
from __future__ import annotations

import re

import takujo
from takujo.core.rng import Rng
from takujo.present import Renderer
from takujo.games.sengoku_taisen import render
from takujo.games.sengoku_taisen.cards import EFFECTS

from .helpers import act, give_koku, pass_battle, put, table

INTERNAL = re.compile(r"\b(" + "|".join(sorted(EFFECTS, key=len, reverse=True)) + r")\b")


def plain(text: str) -> str:
    return re.sub(r"\[/?[a-z ]*\]", "", text)


def say(game, lang: str = "ja"):
    return Renderer(game, lang, markup=False)


def test_warlords_in_play_show_keywords_abilities_current_strength_and_siege():
    s = table("紅", "蒼")
    spear = put(s, "AO-04", 1, "camp")                 # 【長槍】 {戦闘確定時} +500, 4000
    hide = put(s, "AK-08", 0, "camp")                  # {攻撃宣言時} 攻城力+1, 2500
    s.damage[spear] = 1000
    text = say(s.game).view(s.view(0))
    line = next(ln for ln in text.splitlines() if "本多忠勝" in ln)
    assert "【長槍】" in line and "{戦闘確定時}" in line and "兵力+500" in line
    assert "兵力 3000 (4000)" in line and "攻城力 1" in line
    line = next(ln for ln in say(s.game, "en").view(s.view(0)).splitlines() if "Honda" in ln)
    assert "[Long Spear]" in line and "{Battle confirmed}" in line and "strength 3000 (4000)" in line
    put(s, "AO-09", 1, "walls")
    act(s, f"attack {hide} castle")                    # its 攻城力 rises to 2 at declaration
    line = next(ln for ln in say(s.game).view(s.view(1)).splitlines() if "羽柴秀吉" in ln)
    assert "{攻撃宣言時}" in line and "攻城力 2" in line and "疲弊" in line


def test_a_used_okugi_says_what_it_did():
    s = table("紅", "蒼")
    a = put(s, "AK-07", 0, "camp")
    give_koku(s, 0, "紅", 5)
    og = s.ougi[0][0]
    act(s, "ougi")
    text = say(s.game).view(s.view(1))
    line = next(ln for ln in text.splitlines() if "奥義" in ln and "使用済み" in ln)
    assert s.inst[og].name in line and "兵力+1000" in line
    events = [say(s.game).event(e) or "" for e in s.log if e["to"] is None]
    assert any("奥義" in e and "兵力+1000" in e for e in events)
    assert any("奥義: 味方すべて の兵力 +1000" in e for e in events) and s.strength(a) == 3500
    english = [say(s.game, "en").event(e) or "" for e in s.log if e["to"] is None]
    assert any("ōgi" in e and "all allies get +1000 strength" in e for e in english)


def test_log_lines_are_sentences_for_every_event_kind_not_internal_verbs():
    """Every kind met in random games of every starter pairing renders in both languages
    (none is a fallback naming the message or the kind) and no Japanese line names an effect
    verb (``exhaust`` …)."""
    kinds: dict[str, str] = {}
    for d1, d2 in (("紅", "蒼"), ("翠", "黒"), ("黒", "紅"), ("蒼", "翠")):
        g = takujo.load("sengoku_taisen", deck1=d1, deck2=d2)
        for seed in range(4):
            s, rng = g.new_state(seed), Rng(seed)
            while s.outcome is None:
                p = s.pending.players[0]
                options = s.legal_actions(p)
                s.apply(options[rng.below(len(options))])
            for e in s.log:
                if e["to"] == [] or e["e"] in g.silent_events():
                    continue
                text = say(g).event(dict(e))
                assert text and not text.startswith((f"{e['e']}:", "event.")), e
                assert not INTERNAL.search(text), text
                en = say(g, "en").event(dict(e))
                assert en and not en.startswith((f"{e['e']}:", "event.")) and "(" not in en.split()[0], e
                kinds.setdefault(e["e"], text)
    assert {"attack_result", "draw_count", "end_turn", "effect", "combat", "game_over"} <= set(kinds)
    assert "random" in render.SILENT_EVENTS


def test_an_exhaust_effect_reads_as_a_sentence():
    """Not ``効果 exhaust → 池田恒興``: who did what to whom, by which card type."""
    s = table("蒼", "紅")
    t = put(s, "AO-13", 0, "hand")                     # 牽制 {戦闘}: exhaust a ready enemy
    a = put(s, "AO-05", 0, "camp")
    foe = put(s, "AK-17", 1, "camp")                   # 池田恒興, ready
    put(s, "AK-02", 1, "walls")
    give_koku(s, 0, "蒼", 3)
    act(s, f"attack {a} castle")
    act(s, "nointercept")
    act(s, f"stratagem {t} {foe}")
    (e,) = [e for e in s.log if e["e"] == "effect"]
    assert say(s.game).event(e) == f"プレイヤー0 の計略: {s.inst[foe].name} を疲弊させた"
    assert say(s.game, "en").event(e) == "Player 0's stratagem: Ikeda Tsuneoki (池田恒興) is exhausted."
    assert say(s.game, "en").event(e, 0) == "Your stratagem: Ikeda Tsuneoki (池田恒興) is exhausted."
    assert say(s.game).event(e, 0) == f"あなた の計略: {s.inst[foe].name} を疲弊させた"
    pass_battle(s)


def test_actions_name_abilities_by_their_timing_not_their_verb():
    s = table("紅", "蒼")
    u = put(s, "AK-05", 0, "camp")                     # {メイン}{待機⇒疲弊}{1回制限} 1000 damage
    foe = put(s, "AO-05", 1, "camp")
    text = say(s.game).action(f"ability {u} 0 {foe}", s.view(0))
    assert "{メイン}{待機⇒疲弊}{1回制限}" in text and "1000ダメージ" in text and "damage" not in text
    assert "1000 damage to an enemy" in say(s.game, "en").action(f"ability {u} 0 {foe}", s.view(0))
    w = put(s, "AK-04", 0, "camp", placed_turn=s.turn)
    c = put(s, "AK-04", 0, "hand")
    text = say(s.game).action(f"attack {w} castle shippu {c}", s.view(0))
    assert "疾風怒濤" in text and "捨てる" in text
    assert "Shippū Dotō" in say(s.game, "en").action(f"attack {w} castle shippu {c}", s.view(0))


def test_card_info_gives_a_cards_full_text_by_number_or_either_name():
    g = takujo.load("sengoku_taisen")
    (en,) = say(g, "en").card_info("AO-04")
    for part in ("Honda Tadakatsu", "strength 4000", "[Long Spear] {Battle confirmed}", "cost 2 blue + 2"):
        assert part in en, (part, en)
    for query in ("AO-04", "本多", "honda tadakatsu", "HONDA"):
        (text,) = say(g).card_info(query)
        for part in ("AO-04", "本多忠勝", "Honda Tadakatsu", "蒼蒼2", "色 蒼", "槍兵", "兵力 4000",
                     "攻城力 1", "【長槍】", "{戦闘確定時}", "+500"):
            assert part in text, (query, part, text)
    strat = say(g).card_info("AO-11")[0]
    assert "反撃計略" in strat and "{メイン}" in strat and "計略" in strat
    assert len(say(g).card_info("織田信長")) == 2                 # AK-01 and AK-15
    assert say(g).card_info("no such card") == [] and say(g).card_info("  ") == []
    by_id = say(g).card_info(str(g.deck_ids[0][0]))
    assert by_id and g.instances[g.deck_ids[0][0]].number in plain(by_id[0])
    vanilla = say(g).card_info("AK-04")[0]                 # prints no text: its rules in words
    assert "前田利家" in vanilla and "兵力 2000" in vanilla
