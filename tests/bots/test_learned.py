"""The shipped ``learned`` bot: whole legal games in every game it ships for, no peeking at
hidden cards, clear errors for games and files it has no weights for."""
from __future__ import annotations

import numpy as np
import pytest

import takujo
from takujo.bots import make_bot
from takujo.bots.learned import LearnedBot, Net, save_net, shipped_weights
from takujo.core import OptionError, Rng, shuffle_unseen
from takujo.sim import play_game

SHIPPED = [n for n in takujo.names() if shipped_weights(takujo.load(n)) is not None]


@pytest.mark.skipif(not SHIPPED, reason="no learned weights ship")
@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_bot_plays_whole_games_legally(name):
    game = takujo.load(name)
    bot = make_bot("learned", game)
    assert bot.name == "learned"
    for seed in (1, 2):
        seats = ["learned" if p % 2 == seed % 2 else "heuristic" for p in range(game.players)]
        state, result = play_game(game, seats, seed, {"learned": bot}, checked=True)
        assert state.outcome is not None, (name, seed, result.reason)


@pytest.mark.skipif(not SHIPPED, reason="no learned weights ship")
@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_bot_cannot_peek_at_hidden_cards(name):
    """Twin states whose cards hidden from the player differ give the same choice, at
    points all through a game."""
    game = takujo.load(name)
    bot = make_bot("learned", game)
    heuristic = game.heuristic_bot()
    state = game.new_state(4)
    rng = Rng(5)
    checked = 0
    while state.outcome is None:
        p = state.pending.players[0]
        legal = state.legal_actions(p)
        if state.steps % 7 == 0 and len(legal) > 1:
            other = shuffle_unseen(state, p, Rng(state.steps))
            if other.to_json() != state.to_json():
                assert bot.act(state.view(p), legal, Rng(1)) == bot.act(other.view(p), other.legal_actions(p), Rng(2))
                checked += 1
        state.apply(heuristic.act(state.view(p), legal, rng))
    assert checked >= 5


def test_no_weights_names_the_game_and_configuration(tmp_path):
    for name in takujo.names():
        if name not in SHIPPED:
            with pytest.raises(OptionError, match=name):
                make_bot("learned", takujo.load(name))
    for name in SHIPPED:
        other = "draft_daimyo(players=3)" if name == "draft_daimyo" else f"{name}(players=3)"
        try:
            game = takujo.load(other)
        except OptionError:
            continue
        with pytest.raises(OptionError, match=r"players=3"):
            make_bot("learned", game)


def test_bad_weight_files_are_refused_clearly(tmp_path):
    game = takujo.load("draft_daimyo(players=3)")
    with pytest.raises(OptionError, match="does not exist"):
        make_bot(f"learned:{tmp_path / 'none.npz'}", game)
    (tmp_path / "junk.npz").write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(OptionError, match="junk.npz"):
        make_bot(f"learned:{tmp_path / 'junk.npz'}", game)
    with pytest.raises(OptionError, match="learned:FILE"):
        make_bot("learned:", game)
    w = np.zeros((3, 4), np.float32)
    save_net(tmp_path / "other.npz", [(w, np.zeros(4, np.float32))], "fuutei(players=4)")
    with pytest.raises(OptionError, match="fuutei"):
        make_bot(f"learned:{tmp_path / 'other.npz'}", game)


def test_ties_go_to_the_lowest_index_and_the_choice_is_legal():
    from takujo.adapters.driver import Table
    table = Table("draft_daimyo(players=3)")
    zeros = [(np.zeros((table.obs_size, table.num_actions), np.float32), np.zeros(table.num_actions, np.float32))]
    bot = LearnedBot(table.game, Net(zeros, table.spec), table)
    state = table.game.new_state(3)
    p = state.pending.players[0]
    legal = state.legal_actions(p)
    idx = bot.indices(state.view(p), legal)
    assert bot.act(state.view(p), legal, Rng(0)) == legal[idx.index(min(idx))]
    # the network's values, not the order given, decide
    bias = np.zeros(table.num_actions, np.float32)
    bias[max(idx)] = 1.0
    bot = LearnedBot(table.game, Net([(zeros[0][0], bias)], table.spec), table)
    assert bot.act(state.view(p), list(reversed(legal)), Rng(0)) == legal[idx.index(max(idx))]
