"""The effect vocabulary of 戦国大戦 双 (`cards.EFFECTS`): every parameter it declares for a
verb is read by a rule, and a value the rules cannot carry out is refused at load."""
from __future__ import annotations

import pytest

import takujo
from takujo.core import cards as core_cards
from takujo.core.errors import CardDataError
from takujo.core.rng import Rng
from takujo.games.sengoku_taisen import cards as sgt_cards
from takujo.games.sengoku_taisen.cards import CARD_FILE, EFFECTS, build_pool


def _effects(card: sgt_cards.CardDef) -> list[sgt_cards.Effect]:
    spec = card.spec
    return [e for e in (spec.effect, spec.counter, *spec.abilities) if e is not None]


def test_every_declared_parameter_of_every_shipped_verb_is_read_in_random_play(monkeypatch):
    """A parameter the vocabulary allows but no rule reads would be accepted from card data
    and silently do nothing: during random games of every starter pairing, each parameter
    of each verb the shipped cards use is read by some rule."""
    read: set[tuple[str, str]] = set()
    get = core_cards.Effect.get

    def spy(self, key, default=None):
        read.add((self.do, key))
        return get(self, key, default)

    monkeypatch.setattr(core_cards.Effect, "get", spy)
    sgt_cards.pool.cache_clear()            # fresh cards: nothing read and cached before the spy
    try:
        starters = ("蒼", "紅", "翠", "黒")
        for i, d1 in enumerate(starters):
            for d2 in starters[i:]:
                game = takujo.load("sengoku_taisen", deck1=d1, deck2=d2)
                for seed in range(3):
                    s, rng = game.new_state(seed), Rng(seed)
                    while s.outcome is None and s.steps < 600:
                        p = s.pending.players[0]
                        options = s.legal_actions(p)
                        s.apply(options[rng.below(len(options))])
        used = {e.do for card in sgt_cards.pool().cards.values() for e in _effects(card)}
    finally:
        monkeypatch.undo()
        sgt_cards.pool.cache_clear()
    assert used >= {"strength", "damage", "draw", "summon", "aura", "bounce", "destroy"}
    missing = sorted((do, k) for do in used for k in EFFECTS[do] if (do, k) not in read)
    assert not missing, f"declared but never read: {missing}"


@pytest.mark.parametrize("effect, why", [
    ('{ do = "exhaust", target = "all_enemies" }', "target 'all_enemies'"),
    ('{ do = "draw", n = "two" }', "whole number"),
    ('{ do = "draw", n = 0 }', "at least 1"),
    ('{ do = "summon", strength = 1000, unit = "騎兵" }', "unit '騎兵'"),
    ('{ do = "draw", amount = 2 }', "takes no parameter"),
    ('{ do = "cannot_attack", target = "self" }', "takes no parameter"),
])
def test_a_parameter_or_value_no_rule_carries_out_is_refused(tmp_path, effect, why):
    text = CARD_FILE.read_text(encoding="utf-8").replace(
        'effect = { do = "draw", n = 2 }', f"effect = {effect}", 1)
    assert text != CARD_FILE.read_text(encoding="utf-8")
    bad = tmp_path / "cards.toml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(CardDataError, match=why):
        build_pool(bad)
