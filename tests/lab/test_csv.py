"""games.csv read with a reader's defaults gives the lab's own figures: explicit zeros, a
blank only where a metric does not apply, every column once."""
from __future__ import annotations

import csv
import json
import math

import pandas as pd
import pytest
from typer.testing import CliRunner

from takujo.cli import app
from takujo.lab.analysis import analyse
from takujo.lab.store import CSV_COLUMNS, ResultStore, write_games_csv

runner = CliRunner()


@pytest.fixture(scope="module")
def experiment(tmp_path_factory):
    """A small experiment whose games end two ways (escape, the step limit) and in which each
    knight sits in some games only (3 players, 4 knights)."""
    out = tmp_path_factory.mktemp("csv") / "exp"
    args = ["sim", "ibara", "--players", "3", "--compare", "ryan_last=false,true", "--games", "10",
            "--max-steps", "200", "--no-leads", "--workers", "1", "--out", str(out), "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return out, json.loads(result.output)


def test_pandas_defaults_give_the_labs_means(experiment):
    out, data = experiment
    frame = pd.read_csv(out / "games.csv")
    assert set(frame["reason"]) == {"escape", "step_limit"}                 # both endings occur
    assert frame[[c for c in frame.columns if c.startswith("won:")]].isna().any().all()  # and absent knights
    checked = 0
    for variant in data["variants"]:
        rows = frame[frame["variant"] == variant["label"]]
        assert len(rows) == variant["games"] == 10
        for metric, (mean, _, _) in variant["means"].items():
            assert rows[metric].mean() == pytest.approx(mean, rel=1e-12, abs=1e-12), metric
            checked += 1
    assert checked >= 2 * 14
    for column in frame.columns:
        if column.startswith("ended:"):
            assert frame[column].notna().all() and set(frame[column]) <= {0.0, 1.0}


def test_every_column_once_and_a_blank_only_for_a_side_not_in_the_game(experiment):
    out, _ = experiment
    with open(out / "games.csv", newline="", encoding="utf-8") as fh:
        header, *rows = list(csv.reader(fh))
    assert len(header) == len(set(header)) and tuple(header[:len(CSV_COLUMNS)]) == CSV_COLUMNS
    store = ResultStore(out)
    stored = {(r["variant"], r["seed"], r["rotation"]): r for r in store.rows()}
    store.close()
    for row in rows:
        cells = dict(zip(header, row))
        game = stored[(cells["variant"], int(cells["seed"]), int(cells["rotation"]))]
        for column, cell in cells.items():
            if column in CSV_COLUMNS:
                continue
            if cell == "":
                assert column.startswith("won:") and column not in game["metrics"]
            else:
                assert float(cell) == game["metrics"].get(column, 0.0)
        assert int(cells["steps"]) == game["steps"] and int(cells["turns"]) == game["turns"]


def test_the_csv_of_made_up_rows_matches_the_analysis(tmp_path):
    rows = [{"variant": "a", "seed": i, "rotation": 0, "game": "g", "seats": ["x", "y"], "winners": [i % 2],
             "reason": "r1" if i % 3 else "r2", "steps": 10 + i, "turns": 3 + i, "labels": ["p", "q"],
             "metrics": {"steps": 10.0 + i, "turns": 3.0 + i, f"ended:{'r1' if i % 3 else 'r2'}": 1.0,
                         "seat0_won": float(i % 2 == 0), **({"won:p": 0.5} if i % 4 else {})}}
            for i in range(12)]
    write_games_csv(tmp_path / "games.csv", rows)
    frame = pd.read_csv(tmp_path / "games.csv")
    means = analyse(rows, ["a"]).variants[0].means
    assert sorted(frame.columns[len(CSV_COLUMNS):]) == sorted(set(means) - {"steps", "turns"})
    for metric, (mean, _, _) in means.items():
        assert frame[metric].mean() == pytest.approx(mean), metric
    assert frame["ended:r2"].mean() == pytest.approx(4 / 12) and not math.isnan(frame["ended:r1"][0])
