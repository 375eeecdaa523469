"""Paired experiments: the same deal in every variant, results independent of the number of
workers, resuming, extending, sequential stopping, the report and the command line."""
from __future__ import annotations

import json
import sqlite3

import pytest
from typer.testing import CliRunner

import takujo
from takujo.cli import app
from takujo.core.errors import OptionError
from takujo.lab.experiment import Experiment, parse_compare
from takujo.lab.runner import Stop, run
from takujo.lab.stats import Sprt
from takujo.lab.store import ResultStore

runner = CliRunner()


def experiment(games=8, compare=("ryan_last=false,true",), bots=("heuristic",), seed=1):
    return Experiment.make("ibara", {"players": "4"}, list(compare), list(bots), games, seed, 5000)


def test_every_variant_deals_the_same_cards_from_a_seed():
    a = takujo.load("ibara(players=4,gaiblitz_buff=false)").new_state(7)
    b = takujo.load("ibara(players=4,gaiblitz_buff=true)").new_state(7)
    assert a.to_json() == {**b.to_json(), "_base": {**b.to_json()["_base"], "game": str(a.game)}}
    c = takujo.load("ibara(players=4)").new_state(8)
    assert c.hands != a.hands  # (another seed deals other cards)
    # dice do not move the deal: a variant that rolls more leaves the shuffles alone
    x, y = takujo.load("draft_daimyo").new_state(3), takujo.load("draft_daimyo").new_state(3)
    y.rng.next64()
    x.shuffle(list(range(10)), "test"), y.shuffle(list(range(10)), "test")
    assert x.log[-1]["order"] == y.log[-1]["order"]


def test_compare_is_parsed_and_checked():
    assert parse_compare(["mode=standard,short"]) == [[("mode", "standard"), ("mode", "short")]]
    for bad in (["mode"], ["mode=short"], ["=a,b"], ["mode=a,"], ["mode=a,a"], ["mode=a,b", "mode=b,c"]):
        with pytest.raises(OptionError):
            parse_compare(bad)
    with pytest.raises(OptionError, match="nosuch"):
        Experiment.make("ibara", {}, ["mode=standard,nosuch"], ["heuristic"], 4, 1, 100)
    with pytest.raises(OptionError, match="both fixed"):
        Experiment.make("ibara", {"mode": "short"}, ["mode=standard,short"], ["heuristic"], 4, 1, 100)
    two = Experiment.make("ibara", {}, ["mode=standard,short", "ryan_last=false,true"], ["heuristic"], 4, 1, 100)
    assert len(two.variants) == 4 and two.variants[0].label == "mode=standard,ryan_last=false"
    mixed = Experiment.make("ibara", {"players": "3"}, ["mode=standard,short"], ["heuristic", "random"], 7, 1, 100)
    assert mixed.rotations == 3 and len(mixed.seeds) == 3   # 7 games a variant: 3 seeds × 3 rotations


def test_results_do_not_depend_on_the_number_of_workers(tmp_path):
    exp = experiment(games=6)
    rows = []
    for workers, folder in ((1, tmp_path / "one"), (2, tmp_path / "two")):
        store = ResultStore(folder)
        run(exp, store, workers=workers)
        rows.append(sorted(json.dumps(r, sort_keys=True) for r in store.rows()))
        store.close()
    assert rows[0] == rows[1] and len(rows[0]) == 12


def test_an_interrupted_experiment_plays_only_what_is_missing_and_grows_on_demand(tmp_path):
    exp = experiment(games=6)
    store = ResultStore(tmp_path)
    jobs = list(exp.jobs())
    from takujo.lab.runner import play_job
    store.add([play_job(exp, j) for j in jobs[:5]])  # as if interrupted after five games
    played = []
    import takujo.lab.runner as r
    original = r._play_many
    r._play_many = lambda e, js, leads: (played.extend(js), original(e, js, leads))[1]
    try:
        run(exp, store, workers=1)
        assert len(played) == len(jobs) - 5 and len(store.done()) == len(jobs)
        played.clear()
        run(experiment(games=9), store, workers=1)
        assert len(played) == 6 and {j.seed for j in played} == {7, 8, 9}
    finally:
        r._play_many = original
        store.close()


def test_a_folder_refuses_another_experiment(tmp_path):
    store = ResultStore(tmp_path)
    store.claim({"game": "ibara", "variants": ["a"], "games": 4})
    with pytest.raises(OptionError, match="another experiment"):
        store.claim({"game": "ibara", "variants": ["b"], "games": 4})
    store.close()


def test_until_decided_stops_once_the_sequential_test_decides(tmp_path):
    # short mode is about 20 turns shorter: the test decides "lower" long before the 400-game limit
    exp = experiment(games=400, compare=("mode=standard,short",))
    store = ResultStore(tmp_path)
    verdict, n = run(exp, store, workers=1, stop=Stop("turns", Sprt(delta=5.0), exp.variants[0].label,
                                                      exp.variants[1].label), with_leads=False)
    played = len(store.done()) // 2
    store.close()
    assert verdict == "H1-" and 10 <= n <= played < 400


def test_a_comparison_of_two_spellings_of_one_value_is_refused(tmp_path):
    for compare, spellings in ((["old_region_rule=false,0"], ("'false'", "'0'")),
                               (["old_region_rule=true,1", "center_regions=invadable,effects_only"], ("'true'", "'1'"))):
        with pytest.raises(OptionError) as caught:
            Experiment.make("fuutei", {"players": "4"}, compare, ["heuristic"], 8, 1, 5000)
        for text in (str(caught.value), caught.value.text("ja")):
            assert "old_region_rule" in text and all(s in text for s in spellings)
    assert len(Experiment.make("fuutei", {"players": "4"}, ["old_region_rule=false,1"], ["heuristic"], 8, 1,
                               5000).variants) == 2
    result = runner.invoke(app, ["sim", "fuutei", "--players", "4", "--compare", "old_region_rule=false,0",
                                 "--until-decided", "--games", "8", "--out", str(tmp_path / "x")])
    assert result.exit_code == 2 and "'false' and '0' are the same setting" in result.output
    assert not (tmp_path / "x" / "results.db").exists()


def test_the_command_prints_paired_differences_and_writes_a_report(tmp_path):
    out = tmp_path / "exp"
    args = ["sim", "ibara", "--players", "4", "--compare", "ryan_last=false,true", "--games", "6", "--out", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "ryan_last=true − ryan_last=false" in result.output and "p (Holm)" in result.output
    html = (out / "report.html").read_text(encoding="utf-8")
    assert html.count("<img") >= 3 and "data:image/png;base64," in html and "http" not in html.split("<body>")[1]
    assert (out / "games.csv").read_text(encoding="utf-8").count("\n") == 13
    with sqlite3.connect(out / "results.db") as db:
        assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 12
    again = runner.invoke(app, args)
    assert again.exit_code == 0 and "ryan_last=true" in again.output
    (out / "report.html").unlink()
    rebuilt = runner.invoke(app, ["report", str(out)])
    assert rebuilt.exit_code == 0 and (out / "report.html").is_file()
    assert runner.invoke(app, ["report", str(tmp_path / "none")]).exit_code == 2
    js = runner.invoke(app, [*args, "--json"])
    data = json.loads(js.output)
    assert data["comparisons"][0]["variant"] == "ryan_last=true"
    assert "p_holm" in data["comparisons"][0]["metrics"]["seat0_won"]


def test_bad_compares_are_usage_errors(tmp_path):
    result = runner.invoke(app, ["sim", "ibara", "--compare", "mode", "--games", "2"])
    assert result.exit_code == 2 and "KEY=A,B" in result.output
    result = runner.invoke(app, ["sim", "ibara", "--compare", "mode=standard,nosuch", "--games", "2"])
    assert result.exit_code == 2 and "nosuch" in result.output


@pytest.mark.slow
def test_the_ray_backend_gives_the_same_results_as_one_process(tmp_path):
    import ray  # a test dependency (pyproject [test]): the Ray backend is tested, never skipped
    from takujo.lab.runner import connect_ray
    exp = experiment(games=4)
    rows = []
    try:
        connect_ray("local")
        for backend, folder in ((None, tmp_path / "one"), (ray, tmp_path / "ray")):
            store = ResultStore(folder)
            run(exp, store, workers=2, ray=backend)
            rows.append(sorted(json.dumps(r, sort_keys=True) for r in store.rows()))
            store.close()
    finally:
        ray.shutdown()
    assert rows[0] == rows[1] and len(rows[0]) == 8


def test_skill_measures_the_stronger_bot_against_the_fair_share():
    from takujo.lab.skill import measure
    rows = measure("ibara", {"players": "3"}, [("base", {})], ["random", "heuristic"], 6, 1, 1, 5000)
    (row,) = rows
    assert (row.weaker, row.stronger, row.games, row.fair) == ("random", "heuristic", 6, pytest.approx(1 / 3))
    assert row.rate > row.fair and row.ci95[0] <= row.rate <= row.ci95[1] + 1e-9
    result = runner.invoke(app, ["sim", "ibara", "--players", "3", "--skill", "--skill-levels", "random,heuristic",
                                 "--games", "3", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)[0]["stronger"] == "heuristic"
    bad = runner.invoke(app, ["sim", "ibara", "--skill", "--skill-levels", "random", "--games", "3"])
    assert bad.exit_code == 2 and "two or more" in bad.output


def test_a_side_on_both_seats_of_a_mirror_match_wins_half_a_game():
    from takujo.lab.metrics import game_metrics
    from takujo.sim import play_game
    game = takujo.load("sengoku_taisen(deck1=蒼,deck2=蒼)")
    state, result = play_game(game, ["heuristic", "heuristic"], 3)
    m = game_metrics(game, 3, state, result, with_leads=False)
    assert m["won:蒼"] == 0.5 and m["seat0_won"] + m["seat1_won"] == 1.0
    other = takujo.load("sengoku_taisen(deck1=蒼,deck2=紅)")
    state, result = play_game(other, ["heuristic", "heuristic"], 3)
    m = game_metrics(other, 3, state, result, with_leads=False)
    assert m["won:蒼"] + m["won:紅"] == 1.0 and {m["won:蒼"], m["won:紅"]} == {0.0, 1.0}
    assert m["mulligan"] in (0.0, 1.0) and m["walls_left_winner"] >= 0
