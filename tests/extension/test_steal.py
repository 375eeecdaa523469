"""A new effect verb that targets a player, added with nothing but its verb entry and its
messages (tests/extension/steal.py: 風帝伝説FIGHTER's 盗賊, ``steal``): the engine offers it
with typed arguments, the terminal describes it, the research adapters encode and decode it
exactly (a player as a seat, never as the card of that id), the heuristic chooses it, and the
conformance kit passes on a card set that carries it. The board's side is in
tests/web/test_extension_board.py."""
from __future__ import annotations

import inspect
from collections.abc import Iterator

import pytest

import takujo
from takujo.core import sources
from takujo.core.rng import Rng
from takujo.core.targets import Kind, Target
from takujo.present.render import Renderer
from tests.conformance import test_conformance as kit
from tests.extension import steal


@pytest.fixture(scope="module")
def spec() -> Iterator[str]:
    steal.install()
    name = sources.register(steal.card_text())
    try:
        yield f"fuutei(cards={name})"
    finally:
        steal.uninstall()


def thief_ids(game) -> set[int]:
    return {c.iid for c in game.catalogue.cards if c.effect is not None and c.effect.do == "steal"}


def states_offering_steal(game, seeds: range) -> list:
    """Clones of states, from seeded random games, in which the player to act may use 盗賊."""
    thieves = thief_ids(game)
    out = []
    for seed in seeds:
        s = game.new_state(seed)
        rng = Rng(seed)
        while s.outcome is None and s.steps < 4000:
            legal = s.legal_actions()
            if any(a.verb == "hold" and a.args[0] in thieves for a in legal):
                out.append(s.clone())
                if len(out) % 3 == 0:
                    break
            s.apply(legal[rng.below(len(legal))])
    return out


def test_the_engine_offers_steal_with_a_player_target(spec) -> None:
    game = takujo.load(spec)
    assert len(thief_ids(game)) == 2
    states = states_offering_steal(game, range(8))
    assert states, "no random game met a turn with 盗賊 in hand"
    for s in states:
        me = s.pending.players[0]
        steals = [a for a in s.legal_actions(me) if a.verb == "hold" and a.args[0] in thief_ids(game)]
        assert {a.args[1] for a in steals} == {q for q in range(s.n) if q != me and s.hands[q]}
        for a in steals:
            assert game.arg_kinds(a) == (Target.card("hand"), Target.player())
            assert game.arg_problems(a) == []


def test_the_terminal_names_the_target_player_and_logs_the_theft(spec) -> None:
    game = takujo.load(spec)
    s = states_offering_steal(game, range(8))[0]
    me = s.pending.players[0]
    a = next(a for a in s.legal_actions(me) if a.verb == "hold" and a.args[0] in thief_ids(game))
    victim = a.args[1]
    en, ja = Renderer(game, "en", markup=False), Renderer(game, "ja", markup=False)
    assert en.action(a) == f"hold card: Thief (盗賊) → player {victim}"
    assert ja.action(a) == f"ホールド: 盗賊 → {ja.player(victim)}"
    before = (len(s.hands[me]), len(s.hands[victim]))
    s.apply(a)
    while s.windows:                                   # everyone lets it through (たわけ！ window)
        s.apply(next(x for x in s.legal_actions() if x.verb == "allow"))
    stolen = [e for e in s.log if e["e"] == "steal"]
    assert stolen and stolen[-1]["victim"] == victim
    assert (len(s.hands[me]), len(s.hands[victim])) == (before[0], before[1] - 1)  # 盗賊 left, 1 came
    assert en.event(stolen[-1]) == f"Player {me} took 1 card(s) from player {victim}'s hand"
    assert en.card_info("盗賊")                          # the card reference finds it


def test_the_adapters_encode_and_decode_steal_exactly(spec) -> None:
    from takujo.adapters.driver import Table
    table = Table(spec)
    game = table.game
    states = states_offering_steal(game, range(8))
    seen = 0
    for s in states:
        for a in s.legal_actions():
            i = table.index.index(a)
            assert table.index.action(i, a.player) == a
            if a.verb == "hold" and a.args[0] in thief_ids(game):
                seen += 1
                # the slot after 盗賊 is a seat: the next player is the next number
                other = next(b for b in range(game.players) if b != a.args[1])
                assert table.index.index(a._replace(args=(a.args[0], other))) - i == other - a.args[1]
    assert seen
    shape = next(sh for sh in table.index.shapes if sh.verb == "hold")
    case = next(tail for head, tail in shape.cases if set(head.values) == thief_ids(game))
    assert [slot.dom.values for slot in case] == [tuple(range(game.players))]


def test_the_heuristic_plays_steal_on_an_opponent(spec) -> None:
    game = takujo.load(spec)
    bot = game.heuristic_bot()
    chosen = []
    for s in states_offering_steal(game, range(20)):
        me = s.pending.players[0]
        a = bot.act(s.view(me), s.legal_actions(me), Rng(1))
        if a.verb == "hold" and a.args[0] in thief_ids(game):
            chosen.append((me, a))
    assert chosen, "the heuristic never used 盗賊"
    assert all(a.args[1] != me for me, a in chosen)


KIT = [name for name in dir(kit) if name.startswith("test_")
       and list(inspect.signature(getattr(kit, name)).parameters) == ["name"]]


@pytest.mark.parametrize("check", KIT)
def test_the_conformance_kit_passes_with_steal(spec, check) -> None:
    getattr(kit, check)(name=spec)


@pytest.mark.slow
def test_random_playouts_with_steal_end_with_conserved_cards(spec) -> None:
    """The kit's random playouts, fewer of them: the game without the new card has its own."""
    kit.test_random_playouts_end_with_conserved_cards(spec, games=kit.EXTENSION_PLAYOUTS)


def test_every_argument_of_every_legal_action_is_declared(spec) -> None:
    game = takujo.load(spec)
    for s in states_offering_steal(game, range(4)):
        for a in s.legal_actions():
            assert game.arg_problems(a) == []
            assert all(k.kind is not Kind.ANY for k in game.arg_kinds(a))
