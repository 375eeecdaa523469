"""The four games as OpenSpiel Python games: OpenSpiel's own random_sim_test and the checks of
its Python game tests (open_spiel/python/tests/games_sim_test.py), for every game with its
defaults and with options on; plus loading, parameters, chance, hidden information,
serialisation, resampling, the step cap, takujo's bots and the example."""
from __future__ import annotations

import json
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from takujo.adapters import IllegalIndexError  # noqa: E402
from takujo.adapters import openspiel as tos  # noqa: E402
from takujo.adapters.driver import Seat  # noqa: E402
from takujo.core import Rng  # noqa: E402
from takujo.core.registry import load as load_engine  # noqa: E402
from takujo.core.visibility import shuffle_unseen  # noqa: E402

from tests.adapters.configs import SPECS  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]

#: games short enough for a few simulations each
SHORT = ("sengoku_taisen", "draft_daimyo")
#: one configuration per game for the slower checks (the sub-turn among them)
ONE_EACH = ["fuutei(players=2)", "sengoku_taisen", "ibara(players=3,multi_card_combat=true,gaiblitz_buff=true)",
            "draft_daimyo(expansion=true,tactics=true)"]


def random_state(game, seed: int, steps: int):
    """The state after `steps` uniformly random player actions from engine seed `seed` (or
    the end)."""
    rng = np.random.RandomState(seed)
    state = game.state_for_seed(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


# ----- registration, types and parameters -------------------------------------------------------
def test_every_game_is_registered_with_its_type():
    names = set(pyspiel.registered_names())
    for name in tos.GAMES:
        assert "takujo_" + name in names
        game = pyspiel.load_game("takujo_" + name)
        gt = game.get_type()
        assert gt.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
        assert gt.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        assert gt.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        assert gt.utility == pyspiel.GameType.Utility.GENERAL_SUM
        assert gt.reward_model == pyspiel.GameType.RewardModel.TERMINAL
        assert gt.provides_information_state_string and gt.provides_information_state_tensor
        assert gt.provides_observation_string and gt.provides_observation_tensor
        engine = load_engine(name)
        lo = engine.Options.model_fields["players"].metadata
        assert (gt.min_num_players, gt.max_num_players) == (
            min(m.ge for m in lo if hasattr(m, "ge")), max(m.le for m in lo if hasattr(m, "le")))
        table = game.table
        assert game.num_distinct_actions() == table.num_actions
        assert game.observation_tensor_shape() == [table.obs_size]
        code = game.history_code
        assert game.information_state_tensor_size() == table.obs_size + game.max_game_length() * code.width
        assert code.width == table.players + (table.num_actions - 1).bit_length()
        assert (game.min_utility(), game.max_utility()) == (0.0, 1.0)
        assert game.max_chance_outcomes() == 256
        assert game.max_game_length() == tos.MAX_GAME_LENGTHS[name]
        # every option is a parameter typed as its default
        params = game.get_parameters()
        for key, info in engine.Options.model_fields.items():
            assert type(params[key]) is type(info.default) and params[key] == info.default


def test_load_game_with_a_parameter_string():
    game = pyspiel.load_game("takujo_ibara(players=4,mode=short)")
    assert game.num_players() == 4
    assert str(game.takujo_game()) == "ibara(players=4,mode=short)"
    params = game.get_parameters()
    assert params["mode"] == "short" and params["multi_card_combat"] is False and params["players"] == 4
    game = pyspiel.load_game("takujo_ibara", {"players": 3, "multi_card_combat": True})
    assert str(game.takujo_game()) == "ibara(players=3,multi_card_combat=true)"
    assert str(tos.load("fuutei(players=3)").takujo_game()) == "fuutei(players=3)"
    assert str(tos.load(" takujo_fuutei(players=5) ").takujo_game()) == "fuutei(players=5)"
    deck = tos.load("sengoku_taisen(deck1=翠,deck2=黒)")
    assert str(deck.takujo_game()) == "sengoku_taisen(players=2,deck1=翠,deck2=黒)"
    # the game's string loads the same game again
    again = pyspiel.load_game(str(deck))
    assert str(again) == str(deck) and again.num_distinct_actions() == deck.num_distinct_actions()


@pytest.mark.parametrize("spec, error, words", [
    ("takujo_fuutei(players=7)", ValueError, "players"),
    ("takujo_ibara(mode=long)", ValueError, "mode"),
    ("takujo_fuutei(foo=1)", pyspiel.SpielError, "foo"),
    ("takujo_fuutei(players=abc)", pyspiel.SpielError, "players"),
    ("takujo_ibara(multi_card_combat=1)", pyspiel.SpielError, "multi_card_combat"),
    ("takujo_fuutei(max_game_length=0)", ValueError, "max_game_length"),
    ("takujo_fuutei(cards=/nonexistent/cards.toml)", ValueError, "/nonexistent/cards.toml"),
])
def test_bad_parameters_are_refused_naming_them(spec, error, words):
    with pytest.raises(error) as info:
        pyspiel.load_game(spec)
    assert words in str(info.value)


def test_pickling_the_game_and_its_type():
    game = tos.load("ibara(players=3,mode=short)")
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game) and type(again) is type(game)
    assert pickle.loads(pickle.dumps(game.get_type())) == game.get_type()


# ----- OpenSpiel's own tests -----------------------------------------------------------------------
@pytest.mark.parametrize("spec", SPECS)
def test_random_sim_test(spec):
    game = tos.load(spec)
    sims = 3 if spec.startswith(SHORT) else 1
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


def sim_game(game, rng: np.random.RandomState) -> int:
    """games_sim_test.sim_game: pickling, clone consistency, serialisation at powers of two,
    no simultaneous node, and at the end no legal actions and returns within bounds."""
    assert game.min_utility() < game.max_utility()
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    state = game.new_initial_state()
    total, next_check = 0, 1
    while not state.is_terminal():
        total += 1
        if total >= next_check:
            text = pyspiel.serialize_game_and_state(game, state)
            new_game, new_state = pyspiel.deserialize_game_and_state(text)
            assert str(new_game) == str(game) and str(new_state) == str(state)
            assert new_state.history() == state.history()
            assert str(pickle.loads(pickle.dumps(state))) == str(state)
            next_check *= 2
        assert not state.is_simultaneous_node()        # sequential: no turn-based conversion needed
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            assert abs(sum(probs) - 1) < 1e-9
            state.apply_action(rng.choice(actions, p=probs))
            continue
        assert state.is_player_node()
        action = rng.choice(state.legal_actions(state.current_player()))
        clone = state.clone()
        assert str(clone) == str(state) and clone.history() == state.history()
        state.apply_action(action)
        clone.apply_action(action)
        assert str(clone) == str(state) and clone.history() == state.history()
    assert state.legal_actions() == []
    for p in range(game.num_players()):
        assert state.legal_actions(p) == []
    returns = state.returns()
    for p in range(game.num_players()):
        assert state.player_return(p) == returns[p]
        assert game.min_utility() <= returns[p] <= game.max_utility()
    assert sum(returns) in (0.0, 1.0) or abs(sum(returns) - 1.0) < 1e-9
    return total


@pytest.mark.parametrize("spec", ONE_EACH)
def test_python_game_checks(spec):
    game = tos.load(spec)
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert sim_game(game, np.random.RandomState(len(spec))) > tos.SEED_BYTES
    # the turn-based conversion is for simultaneous games: OpenSpiel refuses a sequential one
    with pytest.raises(pyspiel.SpielError, match="Simultaneous"):
        pyspiel.convert_to_turn_based(game)


# ----- chance ------------------------------------------------------------------------------------
def test_the_seed_is_drawn_at_chance_nodes_and_deals_the_engines_game():
    game = tos.load("draft_daimyo")
    state = game.new_initial_state()
    for k in range(tos.SEED_BYTES):
        assert state.is_chance_node() and state.current_player() == pyspiel.PlayerId.CHANCE
        outcomes = state.chance_outcomes()
        assert [a for a, _ in outcomes] == list(range(256)) and all(p == 1 / 256 for _, p in outcomes)
        assert state.legal_actions() == list(range(256))
        assert state.observation_tensor(0) == [0.0] * game.observation_tensor_size()
        assert state.action_to_string(pyspiel.PlayerId.CHANCE, 7) == "seed byte 7"
        state.apply_action([0, 0, 0, 0, 0, 0, 0x30, 0x39][k])
    assert not state.is_chance_node() and state.chance_outcomes() == []
    seed = 0x3039
    assert state.seat.state.to_json() == load_engine("draft_daimyo").new_state(seed).to_json()
    assert str(game.state_for_seed(seed)) == str(state)
    assert game.state_for_seed(seed).history() == state.history()
    with pytest.raises(ValueError):
        game.state_for_seed(-1)
    with pytest.raises(TypeError):
        game.new_initial_state({"seed": 3})
    with pytest.raises(ValueError, match="not dealt"):
        game.new_initial_state().seat


def test_replaying_a_history_reproduces_the_state():
    game = tos.load("fuutei(players=3)")
    state = random_state(game, 5, 200)
    replay = game.new_initial_state()
    for a in state.history():
        replay.apply_action(a)
    assert str(replay) == str(state)
    assert replay.information_state_string(1) == state.information_state_string(1)


# ----- actions and errors --------------------------------------------------------------------------
def test_an_illegal_action_is_refused_and_changes_nothing():
    game = tos.load("fuutei(players=2)")
    state = random_state(game, 3, 40)
    before, history = str(state), state.history()
    legal = set(state.legal_actions())
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in legal)
    for bad in (illegal, game.num_distinct_actions(), -2):
        with pytest.raises(IllegalIndexError) as info:
            state.apply_action(bad)
        assert str(bad) in str(info.value)
        assert str(state) == before and state.history() == history
    with pytest.raises(pyspiel.SpielError):            # OpenSpiel's own check of kInvalidAction
        state.apply_action(-1)
    assert str(state) == before and state.history() == history
    with pytest.raises(pyspiel.SpielError):
        state.apply_action_with_legality_check(illegal)
    assert str(state) == before
    # the legal ones are named by the engine's notation
    names = [state.action_to_string(state.current_player(), a) for a in state.legal_actions()]
    assert len(set(names)) == len(names) and all(names)
    assert state.string_to_action(names[0]) == state.legal_actions()[0]


def test_no_legal_actions_and_no_action_once_over():
    game = tos.load("sengoku_taisen")
    state = random_state(game, 2, 10_000)
    assert state.is_terminal() and state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.legal_actions() == [] and state.legal_actions(0) == []
    assert sorted(state.returns()) == [0.0, 1.0]
    with pytest.raises(ValueError, match="over"):
        state.apply_action(0)


def test_the_step_cap_ends_the_game_with_no_winner():
    game = tos.load("fuutei(players=2,max_game_length=25)")
    assert game.max_game_length() == 25
    assert game.information_state_tensor_size() == game.observation_tensor_size() + 25 * game.history_code.width
    state = random_state(game, 1, 10_000)
    assert state.is_terminal() and state.is_truncated()
    assert len(state.history()) == tos.SEED_BYTES + 25
    assert state.returns() == [0.0, 0.0] and state.legal_actions() == []
    assert "step cap" in str(state)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


# ----- what players see ------------------------------------------------------------------------------
def test_observations_come_from_the_view_alone():
    """Twin states that differ only in cards hidden from a player give that player the same
    strings and tensors; a step changes them."""
    rng = Rng(11)
    for spec in ONE_EACH:
        game = tos.load(spec)
        state = random_state(game, 4, 0)
        checked = 0
        np_rng = np.random.RandomState(4)
        while not state.is_terminal() and checked < 12:
            seat = state.seat
            for p in range(game.num_players()):
                twin_engine = shuffle_unseen(seat.state, [p], rng)
                twin = game.state_of(Seat(seat.table, twin_engine, seat.selection), state.player_actions())
                twin._e.acts = list(state._e.acts)             # the same actions, other hidden cards
                assert twin.observation_string(p) == state.observation_string(p)
                assert twin.information_state_string(p) == state.information_state_string(p)
                assert twin.observation_tensor(p) == state.observation_tensor(p)
                assert twin.information_state_tensor(p) == state.information_state_tensor(p)
            checked += 1
            for _ in range(int(np_rng.randint(1, 30))):
                if state.is_terminal():
                    break
                p = state.current_player()
                before = state.information_state_string(p)
                state.apply_action(np_rng.choice(state.legal_actions()))
                if not state.is_terminal() and state.current_player() == p:
                    assert state.information_state_string(p) != before
        assert checked >= 5


def test_the_selection_sub_turn_is_seen_by_its_maker_only():
    game = tos.load("ibara(players=3,multi_card_combat=true)")
    rng = np.random.RandomState(0)
    seen = 0
    for seed in range(6):
        state = game.state_for_seed(seed)
        while not state.is_terminal() and seen < 8:
            p = state.current_player()
            before = {q: (state.observation_string(q), state.information_state_string(q), state.observation_tensor(q))
                      for q in range(3) if q != p}
            own = state.observation_string(p)
            state.apply_action(rng.choice(state.legal_actions()))
            sel = state.seat.selection
            if sel is not None and sel[0] == p and state.current_player() == p:
                seen += 1
                view = json.loads(state.observation_string(p))["view"]
                assert view["selection"]["cards"] == list(sel[2])
                assert state.observation_string(p) != own
                for q, (obs, info, tensor) in before.items():
                    assert "selection" not in json.loads(state.observation_string(q))["view"]
                    assert (state.observation_string(q), state.information_state_string(q),
                            state.observation_tensor(q)) == (obs, info, tensor)
    assert seen >= 8


def decode_history(game, tensor, player):
    """The (maker, index) rows of an information-state tensor's history part."""
    code = game.history_code
    rows = np.asarray(tensor[game.observation_tensor_size():]).reshape(game.max_game_length(), code.width)
    used = rows[:, :code.n].any(axis=1)
    assert not rows[~used].any() and used[:used.sum()].all()       # the rows fill from the top
    makers = (np.argmax(rows[used, :code.n], axis=1) + player) % code.n
    index = (rows[used, code.n:].astype(np.int64) << np.arange(code.bits)).sum(axis=1)
    return list(zip(makers.tolist(), index.tolist()))


@pytest.mark.parametrize("spec", ONE_EACH + ["ibara(mode=short)"])
def test_the_information_state_has_perfect_recall_of_actions(spec):
    """In random play the information-state tensor of a player is their observation followed
    by every action they know of: their own (a selection's card steps too) and the others'
    public ones, never another's hidden choice. Two different information-state strings never
    share a tensor, nor one string two tensors; each own action makes a new one. (A cap of
    300 actions keeps the tensors small here.)"""
    game = tos.load(spec[:-1] + ",max_game_length=300)" if "(" in spec else spec + "(max_game_length=300)")
    by_string: dict[str, bytes] = {}
    by_tensor: dict[bytes, str] = {}
    rng = np.random.RandomState(3)
    hidden = 0
    for seed in range(2):
        state = game.state_for_seed(seed)
        mine: dict[int, list] = {p: [] for p in range(game.num_players())}
        while not state.is_terminal():
            p = state.current_player()
            for q in range(game.num_players()):
                text, tensor = state.information_state_string(q), state.information_state_tensor(q)
                key = np.asarray(tensor, np.float32).tobytes()
                assert by_string.setdefault(text, key) == key
                assert by_tensor.setdefault(key, text) == text
                assert tensor[:game.observation_tensor_size()] == state.observation_tensor(q)
                assert decode_history(game, tensor, q) == mine[q]
            before = state.information_state_tensor(p)
            action = int(rng.choice(state.legal_actions()))
            state.apply_action(action)
            public = state._e.acts[-1].public
            hidden += not public
            for q in mine:
                if q == p or public:
                    mine[q].append((p, action))
            if not state.is_terminal():
                assert state.information_state_tensor(p) != before
    assert hidden > 0 and len(by_string) > 300


def test_the_information_state_tensor_runs_through_openspiel_learners():
    """OpenSpiel's DQN (PyTorch) reads the information-state tensor from rl_environment and
    learns on it for a few episodes."""
    torch = pytest.importorskip("torch")
    pytest.importorskip("tree")
    from open_spiel.python import rl_environment
    from open_spiel.python.pytorch import dqn

    torch.manual_seed(0)
    torch.set_num_threads(1)
    game = tos.load("sengoku_taisen(max_game_length=200)")
    env = rl_environment.Environment(game, seed=1)
    size = env.observation_spec()["info_state"][0]
    assert size == game.information_state_tensor_size()
    agents = [dqn.DQN(p, size, env.action_spec()["num_actions"], hidden_layers_sizes=[32],
                      replay_buffer_capacity=500, batch_size=16, min_buffer_size_to_learn=32,
                      learn_every=8) for p in range(2)]
    for _ in range(1):
        step = env.reset()
        while not step.last():
            p = step.observations["current_player"]
            out = agents[p].step(step)
            assert out.action in step.observations["legal_actions"][p]
            step = env.step([out.action])
        for agent in agents:
            agent.step(step)
    assert agents[0].loss is not None


def test_game_lengths_stay_under_the_declared_length():
    """Random games of each game's configurations end well before its max_game_length (the
    docs give the measurement over 2,000 seeds per configuration)."""
    for spec in SPECS:
        game = tos.load(spec)
        lengths = tos.game_lengths(spec, range(3))
        assert max(lengths) * 1.5 < game.max_game_length(), (spec, lengths)


def test_observers_offer_the_players_view_types():
    from open_spiel.python.observation import make_observation

    game = tos.load("draft_daimyo")
    state = random_state(game, 2, 30)
    obs = make_observation(game)
    obs.set_from(state, 1)
    assert list(obs.dict) == ["observation"]
    assert obs.tensor.tolist() == state.observation_tensor(1)
    assert obs.string_from(state, 1) == state.observation_string(1)
    info = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    assert info.string_from(state, 1) == state.information_state_string(1)
    info.set_from(state, 1)
    assert list(info.dict) == ["observation", "history"]
    assert info.dict["history"].shape == (game.max_game_length(), game.history_code.width)
    assert info.tensor.tolist() == state.information_state_tensor(1)
    assert json.loads(state.observation_string(1)).keys() == {"recent", "view"}
    assert json.loads(state.information_state_string(1)).keys() == {"actions", "observation"}
    public = pyspiel.IIGObservationType(perfect_recall=False, public_info=True,
                                        private_info=pyspiel.PrivateInfoType.NONE)
    with pytest.raises(ValueError, match="SINGLE_PLAYER"):
        make_observation(game, public)
    with pytest.raises(ValueError, match="parameters"):
        make_observation(game, None, {"x": 1})


# ----- saving ----------------------------------------------------------------------------------------
def test_serialisation_round_trip_and_clear_errors():
    game = tos.load("ibara(players=3,multi_card_combat=true)")
    state = random_state(game, 8, 150)
    for mid in (state, game.new_initial_state()):
        back = game.deserialize_state(mid.serialize())
        assert str(back) == str(mid) and back.history() == mid.history()
    back = game.deserialize_state(state.serialize())
    assert back.seat.state.to_json() == state.seat.state.to_json()
    assert back.seat.selection == state.seat.selection
    other = tos.load("ibara(players=3)")
    for text, words in [("nonsense", "history="), ("history=\nmove_number=0\n__dict__=***", "__dict__"),
                        (other.new_initial_state().serialize(), "plays ibara(players=3)")]:
        with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)")):
            game.deserialize_state(text)
    with pytest.raises(TypeError):
        game.deserialize_state(3)


def test_a_clone_plays_the_same_future():
    game = tos.load("fuutei(players=3)")
    state = random_state(game, 9, 100)
    clone = state.clone()
    rng = np.random.RandomState(1)
    while not state.is_terminal():
        a = rng.choice(state.legal_actions())
        state.apply_action(a)
        clone.apply_action(a)
        assert str(state) == str(clone)
    assert clone.returns() == state.returns()


# ----- search --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("spec", ["fuutei(players=3)", "sengoku_taisen", "ibara(mode=short)", "draft_daimyo(expansion=true,tactics=true)"])
def test_resampling_from_the_information_state(spec):
    game = tos.load(spec)
    rng = np.random.RandomState(2)
    checked = 0
    for seed in range(2):
        state = game.state_for_seed(seed)
        while not state.is_terminal():
            p = state.current_player()
            if rng.random_sample() < 0.05:
                world = state.resample_from_infostate(p, rng.random_sample)
                assert world.current_player() == p and world.legal_actions() == state.legal_actions()
                assert world.observation_string(p) == state.observation_string(p)
                assert world.information_state_string(p) == state.information_state_string(p)
                assert world.observation_tensor(p) == state.observation_tensor(p)
                again = state.resample_from_infostate(p)           # fixed by the history
                assert str(again) == str(state.resample_from_infostate(p))
                while not world.is_terminal():                     # the world plays on
                    world.apply_action(rng.choice(world.legal_actions()))
                checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked >= 3
    with pytest.raises(ValueError):
        state.resample_from_infostate(game.num_players())


def test_openspiel_algorithms_run_on_the_games():
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import mcts
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

    game = tos.load("draft_daimyo")
    env = rl_environment.Environment(game, seed=3)
    step = env.reset()
    n = 0
    while not step.last():
        p = step.observations["current_player"]
        assert len(step.observations["info_state"][p]) == game.information_state_tensor_size()
        step = env.step([step.observations["legal_actions"][p][0]])
        n += 1
    assert n > 100 and sum(step.rewards) in (0.0, 1.0) or abs(sum(step.rewards) - 1) < 1e-9
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, 1.4, 4, mcts.RandomRolloutEvaluator(1, rng), random_state=rng, solve=False)
    state = game.state_for_seed(1)
    assert bot.step(state) in state.legal_actions()
    # takujo's bots through OpenSpiel's evaluate_bots, card-by-card choices included
    for spec in ("draft_daimyo", "ibara(players=3,multi_card_combat=true,mode=short)"):
        game = tos.load(spec)
        bots = [tos.TakujoBot(game, p, "heuristic", seed=p) for p in range(game.num_players())]
        returns = evaluate_bots(game.state_for_seed(4), bots, rng)
        assert abs(sum(returns) - 1) < 1e-9 or sum(returns) == 0


def test_the_example_runs_tiny():
    script = ROOT / "examples" / "openspiel_agent.py"
    if not script.exists():                            # the compiled build's copy of the tree
        pytest.skip("examples/ is not in this tree")
    out = subprocess.run([sys.executable, str(script), "--game", "draft_daimyo",
                          "--games", "1", "--simulations", "2", "--worlds", "1", "--bot", "random"],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert "win rate" in out.stdout and "uniform random" in out.stdout
    bad = subprocess.run([sys.executable, str(script), "--game", "nogame"],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert bad.returncode == 2 and "nogame" in bad.stderr


def test_a_forged_serialised_state_is_refused_without_running_code(tmp_path):
    """deserialize_state reads OpenSpiel's pickle with an unpickler that builds only a takujo
    state: a payload naming any other callable is refused, and never runs."""
    import base64
    import os
    import pickle

    import pyspiel

    marker = tmp_path / "ran"

    class Exploit:
        def __reduce__(self):
            return (os.system, (f"touch {marker}",))

    game = pyspiel.load_game("takujo_fuutei(players=2)")
    text = game.new_initial_state().serialize()
    head = text.split("\n", 2)[:2]
    forged = "\n".join(head + ["__dict__=" + base64.b64encode(pickle.dumps({"_e": Exploit()})).decode()])
    with pytest.raises(ValueError, match="not a saved state"):
        game.deserialize_state(forged)
    assert not marker.exists()
    assert game.deserialize_state(text).serialize() == text
