"""State.check_invariants for 戦国大戦 双: the facts two fast paths rely on, recomputed the
full way from the cards' printed data.

- ``game.auras_only_add`` says that no printed aura lowers 兵力; `_defeated` then looks for
  units at 兵力 0 or less among those at 0 or less without their auras (SGT-WARLORD-12, with
  auras from formations face up in kokuryoku, SGT-FORMATION-03 / SGT-KOKU-09, permanent
  stratagems, SGT-STRAT-04, and {常時} abilities of warlords).
- ``game.has_conditions`` says that some card prints a victory or defeat condition; without
  it `check_card_conditions` looks at nothing (SGT-WIN-03, SGT-WIN-05).

No card of the stand-in pool lowers 兵力 or prints a condition, so these tests add cards that
do to a copy of the pool (option ``cards``) and to both starter decks, play random games
checking the invariants after every step, then break each flag and see it caught.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Iterator

import pytest

import takujo
from takujo.core import Rng
from takujo.games.sengoku_taisen import cards as cards_module
from takujo.games.sengoku_taisen import decks
from takujo.games.sengoku_taisen.cards import CARD_FILE
from takujo.games.sengoku_taisen.game import SengokuGame
from takujo.games.sengoku_taisen.state import SengokuState

from tests.conformance.test_conformance import random_step

# Two cards with an aura lowering 兵力 (one in each zone an aura works from that a deck can
# fill early) and two printing a condition (one victory, one defeat).
EXTRA_CARDS = '''
[[card]]
number = "IV-01"
name_ja = "悪政の城"
name_en = "Castle of Misrule"
type = "formation"
color = "無"
cost = 0
effect = { do = "aura", amount = -1000 }
text_ja = "国力として表向きに置かれている間、自軍の部隊の兵力-1000。"
text_en = "While face up as kokuryoku: your units get -1000 strength."

[[card]]
number = "IV-02"
name_ja = "暴君"
name_en = "Tyrant"
type = "warlord"
color = "無"
cost = 2
unit = "cavalry"
strength = 4000
siege = 1
abilities = [{ timing = "常時", do = "aura", amount = -500 }]
text_ja = "{常時}：自軍の部隊の兵力-500。"
text_en = "{Always}: your units get -500 strength."

[[card]]
number = "IV-03"
name_ja = "天下人の証"
name_en = "Proof of the Realm"
type = "stratagem"
color = "無"
cost = 1
timing = "メイン"
permanent = true
effect = { do = "win_if", koku = 5, camp = 2 }
counter = { do = "draw", n = 1 }
text_ja = "{メイン}永続：国力5以上、自軍の武将2体以上で勝利する。"
text_en = "{Main} Permanent: you win with 5 or more kokuryoku and 2 or more warlords."

[[card]]
number = "IV-04"
name_ja = "兵糧断ち"
name_en = "Cutting the Supply"
type = "warlord"
color = "無"
cost = 1
unit = "infantry"
strength = 1000
siege = 0
abilities = [{ timing = "常時", do = "lose_if", hand_at_most = 1 }]
text_ja = "{常時}：敵の手札が1枚以下のとき、敵は敗北する。"
text_en = "{Always}: your opponent loses while their hand holds 1 card or fewer."
'''
EXTRA_LINES = "\n4 IV-01\n4 IV-02\n2 IV-03\n2 IV-04\n"


def _write(folder: Path) -> dict[str, str]:
    """Options for a game between the 紅 and 蒼 starters with the extra cards, from a copy of
    the built-in pool with those cards added."""
    pool = folder / "cards.toml"
    pool.write_text(CARD_FILE.read_text(encoding="utf-8") + EXTRA_CARDS, encoding="utf-8")
    out = {"cards": str(pool)}
    for key, starter in (("deck1", "aka.txt"), ("deck2", "ao.txt")):
        deck = folder / f"plus_{starter}"
        deck.write_text((decks.DECK_DIR / starter).read_text(encoding="utf-8") + EXTRA_LINES, encoding="utf-8")
        out[key] = str(deck)
    return out


@pytest.fixture
def options(tmp_path: Path) -> dict[str, str]:
    return _write(tmp_path)


def _states(game: SengokuGame, seeds: range) -> Iterator[SengokuState]:
    """Every state met along random games, after each step."""
    for seed in seeds:
        state = game.new_state(seed)
        rng = Rng(seed ^ 0x5EED)
        while state.outcome is None:
            random_step(state, rng)
            assert state.steps < 5000
            yield state


def _lowered_only_by_auras(s: SengokuState) -> list[int]:
    """Units at 兵力 0 or less that would be above 0 without their auras."""
    return [u for p in (0, 1) for u in s.units(p) if s.strength(u) <= 0 < s.strength(u, ())]


def _problems(game: SengokuGame, seeds: range) -> list[str]:
    return [p for s in _states(game, seeds) for p in s.check_invariants()]


def test_random_games_with_lowering_auras_and_printed_conditions_keep_the_invariants(options):
    """SGT-WARLORD-12, SGT-FORMATION-03, SGT-KOKU-09, SGT-STRAT-04, SGT-WIN-03, SGT-WIN-05:
    with cards lowering 兵力 and printing conditions in both decks, every invariant holds
    after every step; the games do meet what the flags guard (a unit at 兵力 0 or less only
    through an aura, a game won by a printed condition)."""
    game = takujo.load("sengoku_taisen", **options)
    assert not game.auras_only_add and game.has_conditions
    seen: Counter[str] = Counter()
    for state in _states(game, range(40)):
        assert state.check_invariants() == [], f"seed step {state.steps}"
        if _lowered_only_by_auras(state):
            seen["lowered"] += 1
        if state.outcome is not None:
            seen[state.outcome.reason] += 1
    assert seen["lowered"] and seen["card_condition"], seen


def test_the_stand_in_pool_keeps_both_fast_paths_and_its_invariants():
    """The built-in pool has no lowering aura and no printed condition: both fast paths are
    on, and the invariants hold."""
    game = takujo.load("sengoku_taisen", deck1="紅", deck2="蒼")
    assert game.auras_only_add and not game.has_conditions
    assert _problems(game, range(3)) == []


def test_a_wrong_auras_only_add_is_caught(options, monkeypatch):
    """SGT-WARLORD-12: the flag computed as "only raising auras" although IV-01 and IV-02
    lower 兵力: check_invariants names the flag, and the fast path of `_defeated` missing a
    unit at 兵力 0 or less through an aura."""
    monkeypatch.setattr(SengokuGame, "auras_only_add", True)
    problems = _problems(takujo.load("sengoku_taisen", **options), range(40))
    assert any(p.startswith("SGT-WARLORD-12: auras_only_add is True") for p in problems)
    assert any("the fast path (auras_only_add) finds" in p for p in problems)


def test_a_wrong_has_conditions_is_caught(options, monkeypatch):
    """SGT-WIN-03, SGT-WIN-05: the flag computed as "no printed condition" although IV-03 and
    IV-04 print one: no game ends by them any more, and check_invariants names the flag and a
    condition that holds while the game goes on."""
    monkeypatch.setattr(SengokuGame, "has_conditions", False)
    game = takujo.load("sengoku_taisen", **options)
    problems = []
    for state in _states(game, range(40)):
        problems += state.check_invariants()
        assert state.outcome is None or state.outcome.reason != "card_condition"
    assert any(p.startswith("SGT-WIN-03: has_conditions is False") for p in problems)
    assert any("but the game goes on" in p for p in problems)


def test_a_card_whose_precomputed_auras_drop_a_lowering_one_is_caught(options, monkeypatch):
    """SGT-KOKU-09, SGT-WARLORD-12: the auras precomputed on each card (read by the state's
    `auras` and by the flag) dropping lowering ones make the flag agree with them, but not
    with the printed data check_invariants reads."""
    real = cards_module._auras
    monkeypatch.setattr(cards_module, "_auras", lambda effs: tuple(a for a in real(effs) if a[1] >= 0))
    game = takujo.load("sengoku_taisen", **options)
    assert game.auras_only_add          # the flag follows the broken cards
    problems = game.new_state(0).check_invariants()
    assert "SGT-KOKU-09: IV-01's auras differ from its printed ones" in problems
    assert "SGT-KOKU-09: IV-02's auras differ from its printed ones" in problems
    assert any(p.startswith("SGT-WARLORD-12: auras_only_add is True") for p in problems)
