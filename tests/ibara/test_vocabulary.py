"""いばらの姫と4人の騎士's effect vocabulary: one registry entry a verb (`effects.EVENTS`, `effects.SP`).

A content file adds an SP card of a new verb aimed at a player (呪い: another player discards a
card at random) and an event of a new verb (a windfall: every player draws). With nothing but
the verbs' entries, registered here, and their messages, added here, the loader takes the
cards; the game offers the SP card on each player its verb names; the terminal and the web
rows name the target by its kind; the adapters encode and decode it; the heuristic plays it at
the leader; and the conformance kit passes. The loader refuses an unknown verb, an unknown
parameter and a missing one with a clear error in both languages.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

import takujo
from takujo.adapters import Table
from takujo.core import Rng
from takujo.core.action import Action
from takujo.core.errors import CardDataError
from takujo.core.piles import discard_card
from takujo.core.targets import Kind, Target
from takujo.games.ibara import render
from takujo.games.ibara.content import CONTENT_FILE, build_content
from takujo.games.ibara.effects import EVENTS, SP
from takujo.games.ibara.heuristic import IbaraHeuristic
from takujo.present import Renderer
from takujo.present.catalogue import add_messages, remove_messages
from takujo.web.payload import view_payload
from tests.adapters.test_encoding import check_step
from tests.conformance import test_conformance as kit

from .helpers import card, give, table

BASE = CONTENT_FILE.read_text(encoding="utf-8")
CURSE = """
[[sp]]
id = "curse"
name_ja = "呪い"
name_en = "Curse"
effect = "curse"
count = 2
"""
WINDFALL = """
[[event]]
id = "windfall"
name_ja = "天の恵み"
name_en = "Windfall"
count = 2
effect = { do = "windfall", n = 2 }
"""
MESSAGES = """
[sp_effect]
curse = { ja = "ほかのプレイヤー1人を選ぶ。そのプレイヤーは手札をランダムに1枚捨てる。", en = "Choose another player: they discard a card at random." }

[effect]
windfall = { ja = "全員がカードを{n}枚引く。", en = "Every player draws {n} cards." }
"""


def _others(s: Any, p: int, card: int) -> list[tuple[int, ...]]:
    return [(q,) for q in range(s.n) if q != p]


def _curse(s: Any, p: int, eff: Any, targets: tuple[int, ...]) -> bool:
    q = targets[0]
    hand = s.hands[q]
    if not hand:
        return False
    discard_card(s, q, hand[s.pick(len(hand), "curse", player=q)], hand, s.discard)
    return True


def _windfall(s: Any, p: int, eff: Any, targets: tuple[int, ...]) -> bool:
    for q in range(s.n):
        s.draw(q, int(eff.get("n", 1)))
    return True


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def content(tmp_path: Path) -> Iterator[Path]:
    """A content file with 呪い and the windfall, their verbs registered and their messages
    added; removed again afterwards."""
    messages = _write(tmp_path / "messages.toml", MESSAGES)
    SP.verb("curse", types={"sp"}, targets=_others, target=(Target.player(),), aim="foe", worth=4)(_curse)
    EVENTS.verb("windfall", types={"event"}, params={"n"}, aim="own", worth=1)(_windfall)
    add_messages("ibara", messages)
    try:
        yield _write(tmp_path / "content.toml", BASE + CURSE + WINDFALL)
    finally:
        del SP["curse"], EVENTS["windfall"]
        remove_messages("ibara", messages)


def _holding_the_curse(path: Path) -> tuple[Any, int]:
    """Seat 0 in its action step with only 呪い in hand; every other seat holds two cards."""
    s = table(content=str(path))
    c = card(s, None, sp="curse")
    give(s, 0, c)
    for q in (1, 2, 3):
        give(s, q, card(s, "剣", q), card(s, "拳", q))
    return s, c


# ----- the loader ------------------------------------------------------------------------------
def test_the_loader_takes_its_vocabulary_from_the_registries(content):
    c = build_content(content)
    assert [x.effect for x in c.sps if x.id == "curse"] == ["curse"]
    assert sum(1 for x in c.cards if x.sp == "curse") == 2
    assert {e.effect["do"] for e in c.events} >= {"windfall"}


def _refusal(tmp_path: Path, text: str) -> tuple[str, str]:
    with pytest.raises(CardDataError) as err:
        build_content(_write(tmp_path / "bad.toml", text))
    return err.value.text("en"), err.value.text("ja")


@pytest.mark.parametrize("old, new, en_words, ja_words", [
    ('effect = "curse"', 'effect = "hex"', ["unknown SP effect 'hex'; known: curse, draw, move_event, teleport"], ["'hex'", "SP"]),
    ('do = "windfall", n = 2', 'do = "rain"', ["unknown event effect 'rain'", "windfall"], ["'rain'", "イベント効果"]),
    ('do = "windfall", n = 2', 'do = "windfall", n = 2, who = "all"',
     ["event #13 (windfall)", "event effect 'windfall' takes no parameter(s) who"], ["'windfall' は引数 who を取りません"]),
    ('do = "gain_item", item = "water"', 'do = "gain_item"',
     ["(izumi)", "event effect 'gain_item' needs the parameter(s) item"], ["'gain_item' には引数 item が必要です"]),
    ('do = "windfall", n = 2', 'do = "windfall", n = 0', ["'n' must be a whole number 1..12, not 0"], ["'n'"]),
], ids=["unknown SP verb", "unknown event verb", "unknown parameter", "missing parameter", "bad value"])
def test_the_loader_refuses_what_no_verb_declares(content, tmp_path, old, new, en_words, ja_words):
    text = content.read_text(encoding="utf-8")
    assert old in text
    en, ja = _refusal(tmp_path, text.replace(old, new, 1))
    assert all(w in en for w in en_words), en
    assert all(w in ja for w in ja_words), ja


def test_a_verb_no_registry_holds_is_refused(tmp_path):
    """The vocabulary is the registry itself, read when a file is loaded: without the entries
    the same file is refused."""
    assert "curse" not in SP and "windfall" not in EVENTS
    en, _ = _refusal(tmp_path, BASE + CURSE)
    assert "unknown SP effect 'curse'" in en
    en, _ = _refusal(tmp_path, BASE + WINDFALL)
    assert "unknown event effect 'windfall'" in en


# ----- play, the terminal and the web rows ------------------------------------------------------
def test_the_game_offers_it_on_each_player_its_verb_names(content):
    s, c = _holding_the_curse(content)
    game = s.game
    offered = [a for a in s.legal_actions(0) if a.verb == "sp"]
    assert offered == [Action(0, "sp", (c, q)) for q in (1, 2, 3)]
    for a in offered:
        assert game.arg_kinds(a) == (Target.card("hand"), Target.player())
        assert game.arg_problems(a) == []
    s.apply(offered[1])
    assert len(s.hands[2]) == 1 and len(s.hands[1]) == len(s.hands[3]) == 2
    assert [e["e"] for e in s.log if e["e"] in ("sp", "discard")] == ["sp", "discard"]


def test_the_terminal_names_the_target_by_its_kind(content):
    s, c = _holding_the_curse(content)
    game = s.game
    a = Action(0, "sp", (c, 2))
    en, ja = Renderer(game, "en", markup=False), Renderer(game, "ja", markup=False)
    assert en.action(a, s.view(0)) == "SP card: Curse (呪い) → player 2"
    assert ja.action(a, s.view(0)) == "SPカード: 呪い → プレイヤー2"
    s.apply(a)
    line = next(e for e in s.log if e["e"] == "sp")
    assert en.event(dict(line), 1) == "Player 0 played the SP card Curse (呪い) on player 2."
    assert ja.event(dict(line), 1) == "プレイヤー0 の SPカード 呪い → プレイヤー2。"
    # its card text, from its verb's message (the card has no text of its own)
    info = render.card_info(game, "curse", en)
    assert len(info) == 1 and "Choose another player: they discard a card at random." in info[0]


def test_the_web_rows_carry_the_kinds(content):
    s, c = _holding_the_curse(content)
    rows = view_payload(s, 0, Renderer(s.game, "en", markup=False))["actions"]
    curse = [r for r in rows if r["verb"] == "sp"]
    assert [r["args"] for r in curse] == [[c, 1], [c, 2], [c, 3]]
    assert all(r["kinds"] == ["card", "player"] for r in curse)
    assert all(r["kinds"] == ["card", "place"] for r in rows if r["verb"] == "move")
    assert curse[0]["label"] == "SP card: Curse (呪い) → player 1"


def test_the_event_of_a_new_verb_resolves_and_is_described(content):
    s, _ = _holding_the_curse(content)
    e = next(i for i, x in enumerate(s.content.events) if x.id == "windfall")
    s.event_deck.remove(e)
    s.event_deck.append(e)
    before = [len(h) for h in s.hands]
    s.trigger_event(0)
    assert [len(h) for h in s.hands] == [n + 2 for n in before]
    r = Renderer(s.game, "en", markup=False)
    assert render.rules_text(s.game, "event", s.content.events[e], r) == ["Every player draws 2 cards."]
    assert render.rules_text(s.game, "event", s.content.events[e], Renderer(s.game, "ja")) == ["全員がカードを2枚引く。"]


# ----- the adapters, the heuristic, the conformance kit -----------------------------------------
def test_the_adapters_encode_and_decode_it_exactly(content):
    s, c = _holding_the_curse(content)
    t = Table(s.game)
    seat = t.seat(s)
    legal = s.legal_actions(0)
    codes = [t.index_of(a, s) for a in legal]
    assert len(set(codes)) == len(codes) and sorted(codes) == seat.legal()
    assert [seat.action_of(i) for i in codes] == legal
    sp = next(shape for shape in t.index.shapes if shape.verb == "sp")
    tails = [tuple(slot.dom.name for slot in slots) for _, slots in sp.cases]
    assert ("player",) in tails and ("square",) in tails and () in tails
    # random games through the seat: every index exact, the mask the legal set
    hidden: list[int] = []
    for seed in range(2):
        seat = t.new(seed)
        rng = Rng(seed * 7919 + 1)
        while seat.current_player() is not None:
            check_step(t, seat, rng, hidden)
            legal_codes = seat.legal()
            seat.step(legal_codes[rng.below(len(legal_codes))])


def test_the_heuristic_plays_it_at_the_leader(content):
    """A "foe" verb with no branch of its own: aimed at the opponent nearest to winning."""
    s, c = _holding_the_curse(content)
    s.whims[3] = [0]
    s.whims[2] = [1, 2]
    bot = IbaraHeuristic(s.game)
    assert bot.act(s.view(0), s.legal_actions(0), Rng(0)) == Action(0, "sp", (c, 2))
    s.whims[2] = []
    assert bot.act(s.view(0), s.legal_actions(0), Rng(0)) == Action(0, "sp", (c, 3))


def test_the_conformance_kit_passes_with_it(content):
    name = f"ibara(content={content})"
    for check in (kit.test_clone_is_equal_and_independent, kit.test_json_round_trip_is_exact,
                  kit.test_replay_rebuilds_the_same_game, kit.test_every_enumerated_action_applies,
                  kit.test_illegal_actions_raise_and_change_nothing, kit.test_views_do_not_leak_hidden_information):
        check(name)
    game = takujo.load(name, players=3)
    cursed = 0
    r = Renderer(game, "en", markup=False)
    for seed in range(6):
        state = game.new_state(seed)
        rng = Rng(seed)
        while state.outcome is None:
            p = state.pending.players[0]
            legal = state.legal_actions(p)
            for a in legal:
                assert game.arg_problems(a) == [], a
            a = legal[rng.below(len(legal))]
            if a.verb == "sp" and game.card_sp[a.args[0]] == "curse":
                cursed += 1
                assert game.arg_kinds(a)[1].kind is Kind.PLAYER and "→ player" in r.action(a, state.view(p))
            state.apply(a)
        assert not [e for e in state.log if (r.event(dict(e), None) or "").startswith("event.")]
    assert cursed >= 3
