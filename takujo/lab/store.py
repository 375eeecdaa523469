"""An experiment's results in SQLite (``DIR/results.db``): the experiment's description and
one row per game. Running the same experiment again on the same folder plays only the games
that are missing; asking for more games extends it."""
from __future__ import annotations

import csv
import json
import sqlite3
from pathlib import Path
from typing import Any, Iterable, Iterator

from ..core.errors import OptionError
from .metrics import metric_value

SCHEMA = """
CREATE TABLE IF NOT EXISTS experiment (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    variant TEXT NOT NULL,
    seed INTEGER NOT NULL,
    rotation INTEGER NOT NULL,
    game TEXT NOT NULL,
    seats TEXT NOT NULL,
    winners TEXT NOT NULL,
    reason TEXT NOT NULL,
    steps INTEGER NOT NULL,
    turns INTEGER NOT NULL,
    labels TEXT NOT NULL,
    metrics TEXT NOT NULL,
    PRIMARY KEY (variant, seed, rotation)
);
"""
#: What must match for a folder's stored games to belong to the same experiment.
IDENTITY = ("game", "options", "variants", "bots", "rotations", "max_steps", "first_seed", "leads")


class ResultStore:
    def __init__(self, folder: Path | str) -> None:
        self.folder = Path(folder)
        if self.folder.exists() and not self.folder.is_dir():
            raise OptionError("lab.out_not_folder", path=str(self.folder))
        self.folder.mkdir(parents=True, exist_ok=True)
        self.path = self.folder / "results.db"
        self.db = sqlite3.connect(self.path)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        self.db.close()

    def description(self) -> dict[str, Any] | None:
        row = self.db.execute("SELECT value FROM experiment WHERE key = 'description'").fetchone()
        return json.loads(row[0]) if row else None

    def claim(self, description: dict[str, Any]) -> None:
        """Record the experiment, or check that the folder holds this same experiment."""
        stored = self.description()
        if stored is not None:
            mismatch = [k for k in IDENTITY if stored.get(k) != description.get(k)]
            if mismatch:
                raise OptionError("lab.other_experiment", path=str(self.folder), fields=mismatch)
        merged = {**(stored or {}), **description}
        if stored is not None:
            merged["games"] = max(int(stored.get("games", 0)), int(description.get("games", 0)))
        with self.db:
            self.db.execute("INSERT OR REPLACE INTO experiment (key, value) VALUES ('description', ?)",
                            (json.dumps(merged, ensure_ascii=False),))

    def done(self) -> set[tuple[str, int, int]]:
        return {(v, s, r) for v, s, r in self.db.execute("SELECT variant, seed, rotation FROM games")}

    def add(self, rows: list[dict[str, Any]]) -> None:
        with self.db:
            self.db.executemany(
                "INSERT OR REPLACE INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(r["variant"], r["seed"], r["rotation"], r["game"], json.dumps(r["seats"]),
                  json.dumps(r["winners"]), r["reason"], r["steps"], r["turns"],
                  json.dumps(r["labels"], ensure_ascii=False), json.dumps(r["metrics"], ensure_ascii=False))
                 for r in rows])

    def rows(self) -> Iterator[dict[str, Any]]:
        for row in self.db.execute("SELECT variant, seed, rotation, game, seats, winners, reason, steps, turns, "
                                   "labels, metrics FROM games ORDER BY seed, rotation, variant"):
            yield {"variant": row[0], "seed": row[1], "rotation": row[2], "game": row[3],
                   "seats": json.loads(row[4]), "winners": json.loads(row[5]), "reason": row[6],
                   "steps": row[7], "turns": row[8], "labels": json.loads(row[9]), "metrics": json.loads(row[10])}


#: games.csv's first columns, one a game (docs/balance.md describes every column).
CSV_COLUMNS = ("variant", "seed", "rotation", "game", "seats", "winners", "reason", "steps", "turns")


def write_games_csv(path: Path | str, rows: Iterable[dict[str, Any]]) -> Path:
    """``games.csv``: one row a game, the columns of `CSV_COLUMNS` and then every metric
    once, by name (steps and turns are among the first). A metric's cell is its value as the
    lab counts it: an explicit 0 for an ending the game did not have, a blank only where the
    metric does not apply (``won:<side>`` of a side not in the game) — so a reader's defaults
    (pandas: a blank is missing, means skip it) give the lab's own figures."""
    rows = list(rows)
    keys = sorted({k for r in rows for k in r["metrics"]} - set(CSV_COLUMNS))
    path = Path(path)
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow([*CSV_COLUMNS, *keys])
        for r in rows:
            values = (metric_value(k, r["metrics"]) for k in keys)
            w.writerow([r["variant"], r["seed"], r["rotation"], r["game"], " ".join(r["seats"]),
                        " ".join(map(str, r["winners"])), r["reason"], r["steps"], r["turns"],
                        *("" if v is None else repr(float(v)) for v in values)])
    return path
