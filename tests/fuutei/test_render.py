"""Fuutei in the terminal: every event kind renders as a sentence, events that give nothing
say so, and `card_info` gives a card's full text."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import takujo
from takujo.core import Rng
from takujo.games.fuutei import render

from .helpers import act, events, put, table, to_battle, weak

SOURCES = Path(render.__file__).parent
SPECS = ["fuutei", "fuutei(players=5,old_region_rule=true)", "fuutei(players=2)",
         "fuutei(center_regions=effects_only,deck_out=failed_draw)"]


def _logged_kinds() -> dict[str, dict]:
    """One example of every event kind met in random games, options on and off."""
    kinds: dict[str, dict] = {}
    for spec in SPECS:
        game = takujo.load(spec)
        for seed in range(8):
            s = game.new_state(seed)
            rng = Rng(seed)
            while s.outcome is None:
                options = s.legal_actions(s.pending.players[0])
                s.apply(options[rng.below(len(options))])
            for e in s.log:
                kinds.setdefault(e["e"], e)
    return kinds


def _is_sentence(game, kind: str, e: dict) -> bool:
    text = game.describe_event(dict(e), None)
    return bool(text) and not text.startswith(f"{kind}:") and text.strip() != kind


def test_every_event_kind_met_in_random_play_renders_as_a_sentence():
    game = takujo.load("fuutei")
    kinds = _logged_kinds()
    silent = game.silent_events()
    assert {"shuffle", "act"} <= silent
    missing = [k for k, e in sorted(kinds.items()) if k not in silent and not _is_sentence(game, k, e)]
    assert missing == []
    # the nine kinds that used to print nothing
    for k in ("battle_over", "dealt", "draw_count", "random", "region_setup", "setup_event_returned",
              "setup_region", "support_committed", "support_effect"):
        assert k in kinds and _is_sentence(game, k, kinds[k])


def test_every_event_kind_in_the_code_has_a_rendering():
    """Kinds rare in random play too: every ``say("kind"`` of the Fuutei modules renders."""
    code = "".join(p.read_text(encoding="utf-8") for p in SOURCES.glob("*.py"))
    said = set(re.findall(r'say\("([a-z_]+)"', code)) - render.SILENT_EVENTS
    game = takujo.load("fuutei")
    sample = {"player": 0, "card": 0, "region": 90, "target": 1, "targets": [1], "negates": 0,
              "cards": [0, 1], "dest": "center", "turn": 3, "missed": 1, "placed": True, "side": 0,
              "changes": [[0, "phys_atk", 3]], "first": 0, "rolls": [3, 4], "attack": "phys",
              "total": 7, "defence": 8, "critical": False, "defeated": 1, "from_player": -1,
              "why": "event", "roll": 5, "need": 5, "success": True, "against": "phys_def",
              "owner": 1}
    bad = [k for k in sorted(said) if not _is_sentence(game, k, {"e": k, "to": None, **sample})]
    assert bad == []


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
    assert "引けなかった" in s.game.describe_event(empty)


def test_a_support_and_a_hold_that_change_nothing_say_so():
    game = takujo.load("fuutei")
    nothing = {"e": "support_effect", "to": None, "player": 0, "card": 0, "changes": []}
    assert "何も変わらなかった" in game.describe_event(nothing)
    void = {"e": "no_effect", "to": None, "player": 1, "card": 0}
    assert "効果がなかった" in game.describe_event(void)


def test_support_events_say_who_placed_what_and_the_effect():
    s = table(3)
    r1 = put(s, "teito", region=1)
    a = put(s, "teikoku_hei", party=0)
    put(s, "teikoku_hei", nth=1, party=1, guards=[r1])
    x = put(s, "chikara_no_gofu", hand=0)
    to_battle(s, a, r1, dice=[5, 1], support=(x, None))
    committed = [s.game.describe_event(e) for e in events(s, "support_committed")]
    assert "裏向きに出した" in committed[0] and "出さなかった" in committed[1]
    effect = s.game.describe_event(events(s, "support_effect")[-1])
    assert "力の護符" in effect and "物攻 +3" in effect


def test_terminal_log_never_prints_the_generic_fallback():
    """What `takujo play` prints for a whole random game: sentences only."""
    game = takujo.load("fuutei", players=3)
    s = game.new_state(2)
    rng = Rng(2)
    while s.outcome is None:
        options = s.legal_actions(s.pending.players[0])
        s.apply(options[rng.below(len(options))])
    for p in (0, 1, 2, None):
        for e in s.events_for(p, 0):
            text = game.describe_event(e, None)
            if e["e"] in game.silent_events():
                assert text is None
            else:
                assert text and not text.startswith(e["e"] + ":")


# ----- card_info ----------------------------------------------------------------------------------
def test_card_info_gives_the_full_text_of_matching_cards():
    game = takujo.load("fuutei")
    [hei] = game.card_info("teikoku_hei")
    assert "帝国兵" in hei and "Imperial Soldier" in hei and "キャラ" in hei and "character" in hei
    assert "物攻 2D" in hei and "物防 8" in hei and "魔防 7" in hei and "3 枚" in hei and "male" in hei
    [shikaku] = game.card_info("刺客")
    assert "Assassin" in shikaku and "ホールド" in shikaku and "2D+1" in shikaku
    assert "physical defence" in shikaku and "1 枚" in shikaku
    [orion] = game.card_info("ORION")                       # English, any case
    assert "オリオン七神器" in orion and "装備品" in orion and "物攻 +5" in orion
    [teito] = game.card_info("Imperial Capital")
    assert "9 点" in teito and "地域" in teito
    [val_gear] = game.card_info("soshi_val")
    assert "ヴァル" in val_gear and "使えない" in val_gear
    assert game.card_info("no such card") == []
    assert len(game.card_info("")) == len({c.id for c in game.catalogue.cards})


def test_card_info_escapes_markup(tmp_path):
    from takujo.games.fuutei.cards import CARD_FILE
    text = CARD_FILE.read_text(encoding="utf-8").replace('name_en = "Imperial Capital"',
                                                         'name_en = "Imperial [bold]Capital"')
    path = tmp_path / "cards.toml"
    path.write_text(text, encoding="utf-8")
    [info] = takujo.load("fuutei", cards=str(path)).card_info("capital")
    assert "\\[bold]Capital" in info


@pytest.mark.parametrize("spec", SPECS)
def test_render_view_shows_windows_and_face_down_supports(spec):
    game = takujo.load(spec)
    s = game.new_state(3)
    rng = Rng(3)
    seen = set()
    while s.outcome is None and len(seen) < 2:
        options = s.legal_actions(s.pending.players[0])
        s.apply(options[rng.below(len(options))])
        text = game.render_view(s.view(0))
        if s.windows:
            assert "確認中" in text
            seen.add("window")
        if s.commits is not None and s.commits.choices and any(s.supports):
            assert "裏向きの戦闘補助" in text
            seen.add("support")
