"""The simulator (takujo.sim), driven with the toy dice race of tests/toy.py."""
from __future__ import annotations

import inspect
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import takujo
from takujo.core import Action, DecisionKind, OptionError, Rng
from takujo.core.registry import make_game
from takujo.record import read_record, replay
from takujo.sim import STEP_LIMIT, GameCrash, GameResult, Summary, play_game, run_games, seat_bots, wilson


@pytest.fixture(autouse=True, scope="module")
def _toy_registered():
    # Registered when the tests run, not when they are collected, so that the conformance kit
    # (parametrized over takujo.names() at collection) never sees the toy, in any test order.
    takujo.register("toy", "tests.toy:ToyGame")


# ----- Wilson intervals -----------------------------------------------------------------
@pytest.mark.parametrize("wins,n,lo,hi", [
    (50, 100, 0.4038, 0.5962),
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (1, 2, 0.0945, 0.9055),
    (700, 1000, 0.6707, 0.7276),
])
def test_wilson_known_values(wins, n, lo, hi):
    got = wilson(wins, n)
    assert got == pytest.approx((lo, hi), abs=5e-4)


def test_wilson_no_games_is_uninformative():
    assert wilson(0, 0) == (0.0, 1.0)


# ----- seats, games, options ------------------------------------------------------------
def test_seats_rotate_so_every_bot_visits_every_seat():
    bots = ["heuristic", "random"]
    seen = {(seat, name) for i in range(4) for seat, name in enumerate(seat_bots(bots, 4, i))}
    assert seen == {(s, b) for s in range(4) for b in bots}
    assert seat_bots(["a", "b", "c"], 2, 0) == ["a", "b"]
    assert seat_bots(["a", "b", "c"], 2, 2) == ["c", "a"]


def test_unknown_bot_is_refused_before_playing():
    with pytest.raises(OptionError, match="smart"):
        run_games("toy", 3, 1, ["heuristic", "smart"])


# ----- playing ----------------------------------------------------------------------------
def test_runs_are_reproducible_and_independent_of_workers():
    opts = {"players": 3}
    one = run_games("toy", 24, 5, ["heuristic", "random"], options=opts)
    again = run_games("toy", 24, 5, ["heuristic", "random"], options=opts)
    pooled = run_games("toy", 24, 5, ["heuristic", "random"], options=opts, workers=2)
    assert one.results == again.results == pooled.results
    assert [r.seed for r in one.results] == list(range(5, 29))
    assert one.to_json() == pooled.to_json()


def test_summary_counts():
    summary = run_games("toy", 40, 1, ["heuristic", "random"], options={"players": 4})
    assert summary.games == 40
    assert sum(rate.wins for rate in summary.seats) == pytest.approx(40)
    assert {name: rate.games for name, rate in summary.bots.items()} == {"heuristic": 80, "random": 80}
    assert summary.reasons == {"target": 40}
    assert summary.turns.min >= 1 and summary.steps.mean >= summary.turns.mean
    data = summary.to_json()
    assert data["seats"][0]["ci95"][0] <= data["seats"][0]["rate"] <= data["seats"][0]["ci95"][1]
    assert data["length"]["steps"]["mean"] == pytest.approx(summary.steps.mean, abs=1e-3)


def test_shared_wins_count_a_fraction_each():
    results = [
        GameResult(1, ["a", "b"], [0, 1], "tie", 10, 5),
        GameResult(2, ["b", "a"], [0], "target", 12, 6),
        GameResult(3, ["a", "b"], [], STEP_LIMIT, 99, 50),
    ]
    s = Summary.of("toy(players=2)", 2, 1, ["a", "b"], results)
    assert [r.wins for r in s.seats] == [1.5, 0.5]
    assert s.bots["a"].wins == 0.5 and s.bots["b"].wins == 1.5
    assert s.bots["a"].games == 3
    assert s.reasons == {"tie": 1, "target": 1, STEP_LIMIT: 1}
    assert s.steps.mean == pytest.approx(121 / 3)


def test_step_limit_ends_runaway_games():
    summary = run_games("toy", 5, 1, ["random"], options={"players": 2}, max_steps=3)
    assert summary.reasons == {STEP_LIMIT: 5}
    assert all(r.winners == [] and r.steps == 3 for r in summary.results)


class Spy:
    """Checks what a bot is given, and plays the first legal action."""

    name = "spy"

    def __init__(self) -> None:
        self.kinds: Counter = Counter()

    def act(self, view, legal, rng):
        assert isinstance(view, dict) and isinstance(rng, Rng)
        me = view["player"]
        assert legal and all(isinstance(a, Action) and a.player == me for a in legal)
        assert [str(a) for a in legal] == view["legal"]
        assert "scores" in view["public"]
        # The others' bids are hidden: a count, never the card.
        for zone in ("tokens", "committed"):
            for p, cards in enumerate(view["zones"][zone]):
                assert isinstance(cards, list) if p == me else isinstance(cards, int)
        self.kinds[view["pending"]["kind"]] += 1
        return legal[0]


def test_bots_get_views_and_every_simultaneous_player_acts():
    spy = Spy()
    game = make_game("toy", players=3, options={"target": 60})
    state, result = play_game(game, ["spy"] * 3, seed=3, bots={"spy": spy})
    assert result.reason == "target"
    assert spy.kinds[DecisionKind.SIMULTANEOUS.value] > 0
    bids = [e for e in state.log if e["e"] == "act" and e["action"].startswith("bid")]
    assert len(bids) % 3 == 0 and {e["player"] for e in bids} == {0, 1, 2}
    assert all(e["to"] == [e["player"]] for e in bids)  # hidden from the others


def test_records_replay_to_the_same_outcome(tmp_path):
    summary = run_games("toy", 6, 100, ["heuristic", "random"], options={"players": 2}, record_dir=tmp_path)
    files = sorted(tmp_path.glob("game-*.jsonl"))
    assert [f.name for f in files] == [f"game-{s}.jsonl" for s in range(100, 106)]
    for result, path in zip(summary.results, files):
        lines = read_record(path)
        assert lines[0]["seats"] == result.seats
        final = replay(lines, str(path))
        assert list(final.outcome.winners) == result.winners
        assert final.steps == result.steps


# ----- the toy game itself ----------------------------------------------------------------
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4), picks=st.lists(st.integers(0, 5), max_size=80))
def test_toy_clone_and_json_round_trip(seed, players, picks):
    game = make_game("toy", players=players, options={"bid_every": 2})
    state = game.new_state(seed)
    for pick in picks:
        if state.outcome is not None:
            break
        legal = state.legal_actions()
        state.apply(legal[pick % len(legal)])
        copy = state.clone()
        assert copy == state
        assert game.state_from_json(state.to_json()) == state
    copy = state.clone()
    if copy.outcome is None:
        copy.apply(copy.legal_actions()[0])
        assert copy != state  # the clone is independent


def _conformance_checks():
    """The shared conformance kit's checks (tests/conformance), if present, to run on the toy."""
    try:
        from tests.conformance import test_conformance as kit
    except ImportError:
        return []
    return [name for name in dir(kit) if name.startswith("test_")
            and list(inspect.signature(getattr(kit, name)).parameters) == ["name"]]


@pytest.mark.parametrize("check", _conformance_checks())
def test_toy_keeps_the_conformance_contracts(check):
    from tests.conformance import test_conformance as kit
    getattr(kit, check)(name="toy")


def test_a_crash_names_game_seed_and_step():
    class Boom:
        name = "boom"

        def act(self, view, legal, rng):
            raise ValueError("no idea")

    game = make_game("toy", players=2)
    with pytest.raises(GameCrash, match=r"toy\(players=2\) seed 12 \(seats boom, boom\), step 0: ValueError: no idea"):
        play_game(game, ["boom", "boom"], seed=12, bots={"boom": Boom()})


def test_checked_runs_catch_bots_that_play_illegal_actions():
    class Cheat:
        name = "cheat"

        def act(self, view, legal, rng):
            return Action(view["player"], "roll", (6,))

    game = make_game("toy", players=2)
    with pytest.raises(GameCrash, match="IllegalActionError"):
        play_game(game, ["cheat", "cheat"], seed=1, bots={"cheat": Cheat()}, checked=True)
    same = run_games("toy", 5, 3, ["heuristic", "random"], options={"players": 2}, checked=True)
    assert same.results == run_games("toy", 5, 3, ["heuristic", "random"], options={"players": 2}).results
