"""One typed vocabulary: a verb registered into `effects.VERBS` (here 破城, ``raze``, aimed at a
player: `verb_kit`) and used by a card of a card file flows through with no code but its entry
and its messages. The loader knows it, play offers it with its targets, every argument is
declared by kind, the terminal describes the action and its event lines by those kinds, the
web rows carry them, the research adapters encode and decode it exactly, the heuristic
chooses it by its aim, and the conformance kit's contracts hold (the board lights its targets
by kind: tests/web/test_board_sengoku_taisen_verbs.py). Removed, it is refused again;
an unknown verb or parameter is refused with a message naming it."""
from __future__ import annotations

import json

import pytest

from takujo.adapters import Table
from takujo.core import shuffle_unseen
from takujo.core.errors import CardDataError
from takujo.core.rng import Rng
from takujo.core.targets import Kind
from takujo.games.sengoku_taisen import effects
from takujo.games.sengoku_taisen.cards import Effect, build_pool
from takujo.games.sengoku_taisen.effects import VERBS
from takujo.games.sengoku_taisen.heuristic import SengokuHeuristic
from takujo.present import Renderer
from takujo.record import record_lines, replay
from takujo.web.payload import view_payload

from ..conformance.test_conformance import midgame_states, playout, random_step
from .verb_kit import CARD, VERB, raze_cards, raze_game, raze_registered, ready_to_raze


@pytest.fixture
def raze():
    """The verb registered for the test, removed after it."""
    with raze_registered():
        yield
    assert VERB not in VERBS and VERB not in VERBS.vocab


def test_the_loader_knows_a_registered_verb_and_refuses_it_once_removed(tmp_path):
    path = raze_cards(tmp_path)
    with pytest.raises(CardDataError, match=f"unknown effect '{VERB}'"):
        build_pool(path)
    with raze_registered():
        effect = build_pool(path)[CARD].effect
        assert effect is not None and effect.do == VERB and effect.get("n") == 2
    with pytest.raises(CardDataError, match=f"unknown effect '{VERB}'"):
        build_pool(path)


def test_an_unknown_verb_or_parameter_is_refused_naming_it(tmp_path, raze):
    unknown = tmp_path / "verb"
    unknown.mkdir()
    with pytest.raises(CardDataError, match=r"card #\d+ \(AO-11\): field 'effect': unknown effect 'flood'; known: .*\braze\b"):
        build_pool(raze_cards(unknown, '{ do = "flood", n = 2 }'))
    param = tmp_path / "param"
    param.mkdir()
    with pytest.raises(CardDataError, match=r"\(AO-11\): field 'effect': effect 'raze' takes no parameter\(s\) \W*power\W*; allowed: \W*n\b"):
        build_pool(raze_cards(param, '{ do = "raze", n = 2, power = 3 }'))


def test_play_offers_it_at_each_player_with_declared_kinds_and_carries_it_out(tmp_path, raze):
    s, card = ready_to_raze(tmp_path)
    game = s.game
    aimed = sorted(a for a in s.legal_actions(0) if a.verb == "stratagem" and a.args[0] == card)
    assert [str(a) for a in aimed] == [f"stratagem {card} 0", f"stratagem {card} 1"]
    for a in aimed:
        assert [k.kind for k in game.arg_kinds(a)] == [Kind.CARD, Kind.PLAYER]
        assert game.arg_problems(a) == []
    s.apply(aimed[1])
    assert len(s.walls[1]) == 1 and len(s.walls[0]) == 3
    assert card in s.discard[0]                     # SGT-ZONE-06: an instant stratagem, after use
    assert s.check_invariants() == []


def test_the_terminal_and_the_web_rows_describe_it_by_kind(tmp_path, raze):
    s, card = ready_to_raze(tmp_path)
    r = Renderer(s.game, "en", markup=False)
    view = s.view(0)
    name = r.card(card)
    label = r.action(f"stratagem {card} 1", view)
    assert label == f"stratagem: {name} on {r.player(1, 0)} — a player loses 2 castle walls"
    assert r.player(1, 0) != r.card(1)              # a seat, not the card of the same id
    assert r.action(f"stratagem {card} 0", view).endswith(f"on {r.player(0, 0)} — a player loses 2 castle walls")
    rows = {row["notation"]: row for row in view_payload(s, 0, r)["actions"]}
    assert rows[f"stratagem {card} 1"]["kinds"] == ["card", "player"]
    assert rows[f"stratagem {card} 1"]["label"] == label
    s.log = []
    s.apply(s.parse_action(f"stratagem {card} 1", 0))
    lines = [r.event(e, 0) for e in s.log]
    assert f"You play the stratagem {name} on {r.player(1, 0)}." in lines
    assert f"Your stratagem: {r.player(1, 0)} loses 2 castle walls." in lines
    assert all(line is None or "raze" not in line for line in lines)


def test_the_adapters_lay_it_out_by_its_kind_and_encode_it_exactly(tmp_path, raze):
    s, card = ready_to_raze(tmp_path)
    t = Table(s.game)
    shape = next(sh for sh in t.shapes if sh.verb == "stratagem")
    assert len(shape.cases) == 2                    # the units' case and the players' one
    heads = {head.name: head.values for head, _ in shape.cases}
    players = next(tail for head, tail in shape.cases if card in head.values)
    assert players[0].dom.values == (0, 1) and "player" in next(n for n, v in heads.items() if card in v)
    legal = s.legal_actions(0)
    codes = [t.index_of(a, s) for a in legal]
    assert len(set(codes)) == len(codes)
    for a, i in zip(legal, codes):
        assert t.index.action(i, 0, legal) == a
    seat = t.seat(s)
    assert sorted(seat.legal()) == sorted(codes)


def test_the_heuristic_chooses_it_by_its_aim(tmp_path, raze):
    s, card = ready_to_raze(tmp_path)
    bot = SengokuHeuristic(s.game)
    chosen = bot.act(s.view(0), s.legal_actions(0), Rng(0))
    assert str(chosen) == f"stratagem {card} 1"     # "foe": the opponent's castle, never its own


def test_the_conformance_kit_holds_with_it(tmp_path, raze):
    """The kit's contracts (tests/conformance) on the game whose 蒼 deck razes: random games
    to the end with conserved cards and invariants, every legal action's arguments declared,
    clones, exact JSON round trips, replays, views that leak nothing, every action applying."""
    game = raze_game(tmp_path)
    razed = 0

    def declared(state):
        nonlocal razed
        razed += sum(1 for e in state.log[-3:] if e["e"] == "effect" and e.get("do") == VERB)
        for p in state.pending.players if state.pending else ():
            for a in state.legal_actions(p):
                assert game.arg_problems(a) == [], a

    for seed in range(8):
        final = playout(game, seed, check=declared)
        if seed < 2:
            assert replay(json.loads(json.dumps(record_lines(final, seed)))).to_json() == final.to_json()
    assert razed, "no random game razed a castle"
    rng = Rng(77)
    for state in midgame_states(game, 3, every=9, limit=12):
        twin = state.clone()
        assert twin == state and twin.to_json() == state.to_json()
        back = game.state_from_json(json.loads(json.dumps(state.to_json())))
        assert back.to_json() == state.to_json() and back.legal_actions() == state.legal_actions()
        for player in (0, 1, None):
            assert shuffle_unseen(state, player, rng).view(player) == state.view(player)
        for player in state.pending.players:
            for action in state.legal_actions(player):
                state.clone().apply(action)
                assert game.parse_action(str(action), player) == action
        random_step(twin, Rng(9))


def test_heuristic_games_with_it_end(tmp_path, raze):
    game = raze_game(tmp_path)
    bot = SengokuHeuristic(game)
    s, rng = game.new_state(3), Rng(3)
    while s.outcome is None and s.steps < 3000:
        p = s.pending.players[0]
        s.apply(bot.act(s.view(p), s.legal_actions(p), rng))
    assert s.outcome is not None
    razed = [e for e in s.log if e["e"] == "effect" and e.get("do") == VERB]
    assert razed and all(e["target"] != e["player"] for e in razed)


def test_a_triggered_effect_aims_it_by_its_aim(tmp_path, raze):
    """A triggered ability chooses its own target [designed]: a "foe" verb aimed at players
    takes the other player, whoever uses it."""
    s, _ = ready_to_raze(tmp_path)
    eff = Effect(do=VERB, n=1)
    assert effects.auto_target(s, 0, eff, None) == (1,)
    assert effects.auto_target(s, 1, eff, None) == (0,)


def test_the_shipped_verbs_declare_unit_targets_and_an_aim():
    for verb in VERBS.values():
        if verb.passive:
            assert verb.target == () and verb.aim is None
        elif verb.target:
            assert [t.kind for t in verb.target] == [Kind.CARD] and verb.target[0].of == "unit"
            assert verb.aim in ("foe", "own") and verb.scopes
