"""Matches in SQLite: a match is its header (game, seed, seats) and its list of actions.

The record is the source of truth: on start the server rebuilds every match by replaying its
actions. Each accepted action is committed before it is acknowledged (WAL mode, so readers
never wait for the writer). Seat tokens are stored only as SHA-256 hashes.
"""
from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    seed INTEGER NOT NULL,
    seats TEXT NOT NULL,            -- JSON: [{"kind": "human"|"bot", "bot": name|null, "token_hash": hex|null, "stand_in": name|null}]
    idle_limit REAL,                -- seconds a human seat may stay idle before others may hand it to a bot
    created REAL NOT NULL,
    finished REAL,
    outcome TEXT,                   -- JSON of the outcome once over
    rematch_of TEXT
);
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS actions (
    match TEXT NOT NULL REFERENCES matches(id),
    n INTEGER NOT NULL,             -- step number (the version the action was applied at)
    player INTEGER NOT NULL,
    action TEXT NOT NULL,           -- notation
    at REAL NOT NULL,
    PRIMARY KEY (match, n)
);
"""


@dataclass
class StoredMatch:
    """One match as stored: enough to rebuild it."""

    id: str
    game: str
    seed: int
    seats: list[dict[str, Any]]
    idle_limit: float | None
    created: float
    finished: float | None = None
    outcome: dict[str, Any] | None = None
    rematch_of: str | None = None
    actions: list[tuple[int, str]] = field(default_factory=list)  # (player, notation)


class Store:
    """The server's SQLite database (one connection, used from one thread at a time)."""

    def __init__(self, path: Path | str) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")  # durable across a killed process
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _write(self, sql: str, args: tuple[Any, ...]) -> None:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute(sql, args)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def meta(self, key: str, default: Callable[[], str]) -> str:
        """A server setting, made with `default` (and stored) the first time it is asked for."""
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        if row is not None:
            return str(row[0])
        value = default()
        self._write("INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)", (key, value))
        return self.meta(key, default)

    def add_match(self, m: StoredMatch) -> None:
        self._write("INSERT INTO matches (id, game, seed, seats, idle_limit, created, rematch_of) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (m.id, m.game, m.seed, json.dumps(m.seats), m.idle_limit, m.created, m.rematch_of))

    def add_action(self, match: str, n: int, player: int, action: str) -> None:
        """Commit one accepted action (before the server acknowledges it)."""
        self._write("INSERT INTO actions (match, n, player, action, at) VALUES (?, ?, ?, ?, ?)",
                    (match, n, player, action, time.time()))

    def remove_actions_from(self, match: str, n: int) -> None:
        """Undo: forget the actions from step `n` on."""
        self._write("DELETE FROM actions WHERE match = ? AND n >= ?", (match, n))

    def set_seats(self, match: str, seats: list[dict[str, Any]]) -> None:
        self._write("UPDATE matches SET seats = ? WHERE id = ?", (json.dumps(seats), match))

    def finish(self, match: str, outcome: dict[str, Any]) -> None:
        self._write("UPDATE matches SET finished = ?, outcome = ? WHERE id = ?",
                    (time.time(), json.dumps(outcome), match))

    def matches(self) -> Iterator[StoredMatch]:
        """Every stored match with its actions, oldest first."""
        with self._lock:
            rows = self._db.execute("SELECT id, game, seed, seats, idle_limit, created, finished, outcome, "
                                    "rematch_of FROM matches ORDER BY created").fetchall()
            acts = self._db.execute("SELECT match, player, action FROM actions ORDER BY match, n").fetchall()
        by_match: dict[str, list[tuple[int, str]]] = {}
        for match, player, action in acts:
            by_match.setdefault(match, []).append((player, action))
        for row in rows:
            yield StoredMatch(id=row[0], game=row[1], seed=row[2], seats=json.loads(row[3]), idle_limit=row[4],
                              created=row[5], finished=row[6], outcome=json.loads(row[7]) if row[7] else None,
                              rematch_of=row[8], actions=by_match.get(row[0], []))
