"""Matches in SQLite: the embedded store of one server process.

Each accepted action is committed before it is acknowledged (WAL mode, so readers never wait
for the writer; ``synchronous=NORMAL`` keeps every commit across a killed process). Seat
tokens are stored only as SHA-256 hashes. One connection serves the process; its calls take
well under a millisecond, so they run on the event loop.
"""
from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Callable

from ..wire import dumps
from .base import (CHAT_KEPT, SNAPSHOT_EVERY, CardSet, ChatLine, Conflict, MatchHead, Status, Store,
                   StoredMatch, card_set_of, match_list_sql, open_seats)

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
CREATE TABLE IF NOT EXISTS members (
    player TEXT NOT NULL,           -- SHA-256 of a browser's player key
    match TEXT NOT NULL REFERENCES matches(id),
    seat INTEGER NOT NULL,          -- a seat it took, or -1: it created the match
    PRIMARY KEY (player, match, seat)
);
CREATE TABLE IF NOT EXISTS chat (
    match TEXT NOT NULL REFERENCES matches(id),
    n INTEGER NOT NULL,
    channel TEXT NOT NULL,          -- players | spectators
    seat INTEGER,                   -- the writer's seat (NULL: a spectator)
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (match, n)
);
CREATE TABLE IF NOT EXISTS card_sets (
    name TEXT NOT NULL,             -- set: and the SHA-256 of the text
    game TEXT NOT NULL,
    option TEXT NOT NULL,
    title TEXT NOT NULL,
    text TEXT NOT NULL,
    size INTEGER NOT NULL,
    created REAL NOT NULL,
    owner TEXT NOT NULL,            -- the uploader's player key hash ('' for none): one row each who kept it
    PRIMARY KEY (name, owner)
);
CREATE TABLE IF NOT EXISTS snapshots (
    match TEXT NOT NULL REFERENCES matches(id),
    n INTEGER NOT NULL,             -- the state after n actions
    state TEXT NOT NULL,            -- its JSON
    PRIMARY KEY (match, n)
);
"""
#: Columns added since the first schema, with what an older database's rows get.
ADDED = [
    ("rematch", "TEXT", "(SELECT r.id FROM matches r WHERE r.rematch_of = matches.id LIMIT 1)"),
    ("steps", "INTEGER NOT NULL DEFAULT 0", "(SELECT COUNT(*) FROM actions a WHERE a.match = matches.id)"),
    ("revision", "INTEGER NOT NULL DEFAULT 0", "steps"),
    ("undos", "INTEGER NOT NULL DEFAULT 0", None),
    ("bot_turn", "INTEGER NOT NULL DEFAULT 0", None),
    ("updated", "REAL NOT NULL DEFAULT 0", "created"),   # when it last changed
    ("listed", "INTEGER NOT NULL DEFAULT 1", None),      # open seats offered in the lobby
    ("open_seats", "INTEGER NOT NULL DEFAULT 0", None),  # people's seats nobody took yet
    ("clocks", "TEXT", None),                            # JSON of the seats' clocks, if any
]
INDEXES = """
CREATE INDEX IF NOT EXISTS matches_created ON matches (created DESC, id DESC);
CREATE INDEX IF NOT EXISTS matches_bot_turn ON matches (bot_turn) WHERE finished IS NULL;
CREATE INDEX IF NOT EXISTS members_match ON members (match);
"""
HEAD = ("id, game, seed, seats, idle_limit, created, finished, outcome, rematch_of, rematch, steps, "
        "revision, undos, bot_turn, listed, clocks")


def head_of(row: tuple[Any, ...]) -> MatchHead:
    """A header from a row of the `HEAD` columns (JSON columns as text)."""
    return MatchHead(id=row[0], game=row[1], seed=row[2], seats=json.loads(row[3]), idle_limit=row[4],
                     created=row[5], finished=row[6], outcome=json.loads(row[7]) if row[7] else None,
                     rematch_of=row[8], rematch=row[9], steps=row[10], revision=row[11], undos=row[12],
                     bot_turn=bool(row[13]), listed=bool(row[14]), clocks=json.loads(row[15]) if row[15] else None)


class SQLiteStore(Store):
    """The server's SQLite database (one connection, one writer at a time)."""

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
        self._migrate()
        self._db.executescript(INDEXES)

    def _migrate(self) -> None:
        have = {row[1] for row in self._db.execute("PRAGMA table_info(matches)")}
        for name, decl, fill in ADDED:
            if name not in have:
                self._db.execute(f"ALTER TABLE matches ADD COLUMN {name} {decl}")
                if fill:
                    self._db.execute(f"UPDATE matches SET {name} = {fill}")

    async def close(self) -> None:
        with self._lock:
            self._db.close()

    async def ping(self) -> None:
        self._read("SELECT 1", ())

    # ----- plumbing -------------------------------------------------------------------------
    def _read(self, sql: str, args: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    def _transaction(self, body: Callable[[sqlite3.Connection], Any]) -> Any:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                out = body(self._db)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
            return out

    @staticmethod
    def _bump(db: sqlite3.Connection, match_id: str, revision: int, sets: str, args: tuple[Any, ...]) -> int:
        """Raise the match's revision from `revision` (else `Conflict`), setting `sets` too."""
        cur = db.execute(f"UPDATE matches SET revision = revision + 1, updated = ?, {sets} "
                         "WHERE id = ? AND revision = ?", (time.time(), *args, match_id, revision))
        if cur.rowcount != 1:
            raise Conflict(match_id)
        return revision + 1

    # ----- settings -------------------------------------------------------------------------
    async def meta(self, key: str, default: Callable[[], str]) -> str:
        rows = self._read("SELECT value FROM meta WHERE key = ?", (key,))
        if rows:
            return str(rows[0][0])
        value = default()
        self._transaction(lambda db: db.execute("INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)",
                                                (key, value)))
        return str(self._read("SELECT value FROM meta WHERE key = ?", (key,))[0][0])

    # ----- matches --------------------------------------------------------------------------
    @staticmethod
    def _insert(db: sqlite3.Connection, m: MatchHead) -> None:
        db.execute("INSERT INTO matches (id, game, seed, seats, idle_limit, created, rematch_of, bot_turn, listed, "
                   "open_seats, clocks) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   (m.id, m.game, m.seed, json.dumps(m.seats), m.idle_limit, m.created, m.rematch_of,
                    int(m.bot_turn), int(m.listed), open_seats(m.seats),
                    json.dumps(m.clocks) if m.clocks else None))

    async def add_match(self, head: MatchHead) -> None:
        self._transaction(lambda db: self._insert(db, head))

    async def add_rematch(self, head: MatchHead) -> str:
        def body(db: sqlite3.Connection) -> str:
            row = db.execute("SELECT rematch FROM matches WHERE id = ?", (head.rematch_of,)).fetchone()
            if row is None:
                raise Conflict(str(head.rematch_of))
            if row[0] is not None:
                return str(row[0])
            self._insert(db, head)
            db.execute("UPDATE matches SET rematch = ? WHERE id = ?", (head.id, head.rematch_of))
            return head.id
        return str(self._transaction(body))

    async def head(self, match_id: str) -> MatchHead | None:
        rows = self._read(f"SELECT {HEAD} FROM matches WHERE id = ?", (match_id,))
        return head_of(rows[0]) if rows else None

    async def load(self, match_id: str) -> StoredMatch | None:
        with self._lock:
            row = self._db.execute(f"SELECT {HEAD} FROM matches WHERE id = ?", (match_id,)).fetchone()
            if row is None:
                return None
            head = head_of(row)
            snap = self._db.execute("SELECT n, state FROM snapshots WHERE match = ? AND n <= ? "
                                    "ORDER BY n DESC LIMIT 1", (match_id, head.steps)).fetchone()
            start = snap[0] if snap else 0
            acts = self._db.execute("SELECT player, action FROM actions WHERE match = ? AND n >= ? ORDER BY n",
                                    (match_id, start)).fetchall()
        return StoredMatch(**vars(head), snapshot=(snap[0], json.loads(snap[1])) if snap else None,
                           actions=[(p, a) for p, a in acts])

    async def actions(self, match_id: str, start: int, end: int | None = None) -> list[tuple[int, str]]:
        rows = self._read("SELECT player, action FROM actions WHERE match = ? AND n >= ? AND n < ? ORDER BY n",
                          (match_id, start, end if end is not None else 2**62))
        return [(p, a) for p, a in rows]

    async def snapshot(self, match_id: str, at_most: int) -> tuple[int, dict[str, Any]] | None:
        rows = self._read("SELECT n, state FROM snapshots WHERE match = ? AND n <= ? ORDER BY n DESC LIMIT 1",
                          (match_id, at_most))
        return (rows[0][0], json.loads(rows[0][1])) if rows else None

    async def add_action(self, match_id: str, revision: int, n: int, player: int, notation: str, *,
                         bot_turn: bool, outcome: dict[str, Any] | None = None,
                         snapshot: dict[str, Any] | None = None, clocks: dict[str, Any] | None = None) -> int:
        timed: tuple[str, tuple[Any, ...]] = (", clocks = ?", (json.dumps(clocks),)) if clocks is not None else ("", ())
        def body(db: sqlite3.Connection) -> int:
            if outcome is not None:
                new = self._bump(db, match_id, revision, "steps = ?, bot_turn = ?, finished = ?, outcome = ?" + timed[0],
                                 (n + 1, int(bot_turn), time.time(), json.dumps(outcome), *timed[1]))
            else:
                new = self._bump(db, match_id, revision, "steps = ?, bot_turn = ?" + timed[0],
                                 (n + 1, int(bot_turn), *timed[1]))
            db.execute("INSERT INTO actions (match, n, player, action, at) VALUES (?, ?, ?, ?, ?)",
                       (match_id, n, player, notation, time.time()))
            if snapshot is not None:
                db.execute("INSERT OR REPLACE INTO snapshots (match, n, state) VALUES (?, ?, ?)",
                           (match_id, n + 1, dumps(snapshot)))
                db.execute("DELETE FROM snapshots WHERE match = ? AND n < ?", (match_id, n + 1 - SNAPSHOT_EVERY))
            return new
        return int(self._transaction(body))

    async def remove_last_action(self, match_id: str, revision: int, n: int, *, bot_turn: bool) -> int:
        def body(db: sqlite3.Connection) -> int:
            new = self._bump(db, match_id, revision, "steps = ?, undos = undos + 1, bot_turn = ?",
                             (n, int(bot_turn)))
            db.execute("DELETE FROM actions WHERE match = ? AND n >= ?", (match_id, n))
            db.execute("DELETE FROM snapshots WHERE match = ? AND n > ?", (match_id, n))
            return new
        return int(self._transaction(body))

    async def set_seats(self, match_id: str, revision: int, seats: list[dict[str, Any]], *, bot_turn: bool,
                        clocks: dict[str, Any] | None = None) -> int:
        timed: tuple[str, tuple[Any, ...]] = (", clocks = ?", (json.dumps(clocks),)) if clocks is not None else ("", ())
        return int(self._transaction(lambda db: self._bump(db, match_id, revision,
                                                           "seats = ?, bot_turn = ?, open_seats = ?" + timed[0],
                                                           (json.dumps(seats), int(bot_turn), open_seats(seats),
                                                            *timed[1]))))

    async def add_member(self, player: str, match_id: str, seat: int) -> None:
        self._transaction(lambda db: db.execute("INSERT OR IGNORE INTO members (player, match, seat) VALUES (?, ?, ?)",
                                                (player, match_id, seat)))

    async def member_seats(self, player: str, match_id: str) -> set[int]:
        return {int(r[0]) for r in self._read("SELECT seat FROM members WHERE player = ? AND match = ?",
                                              (player, match_id))}

    async def player_matches(self, player: str, limit: int = 50) -> list[MatchHead]:
        rows = self._read(f"SELECT {HEAD} FROM matches WHERE id IN (SELECT match FROM members WHERE player = ?) "
                          "ORDER BY created DESC, id DESC LIMIT ?", (player, limit))
        return [head_of(r) for r in rows]

    async def add_chat(self, match_id: str, channel: str, seat: int | None, name: str, text: str) -> ChatLine:
        def body(db: sqlite3.Connection) -> ChatLine:
            n = int(db.execute("SELECT COALESCE(MAX(n), 0) FROM chat WHERE match = ?", (match_id,)).fetchone()[0]) + 1
            line = ChatLine(n=n, channel=channel, seat=seat, name=name, text=text, at=time.time())
            db.execute("INSERT INTO chat (match, n, channel, seat, name, text, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (match_id, n, channel, seat, name, text, line.at))
            db.execute("DELETE FROM chat WHERE match = ? AND n <= ?", (match_id, n - CHAT_KEPT))
            return line
        return self._transaction(body)  # type: ignore[no-any-return]

    async def chat(self, match_id: str, after: int = 0, limit: int = CHAT_KEPT) -> list[ChatLine]:
        rows = self._read("SELECT n, channel, seat, name, text, at FROM chat WHERE match = ? AND n > ? "
                          "ORDER BY n LIMIT ?", (match_id, after, limit))
        return [ChatLine(*r) for r in rows]

    async def list_matches(self, *, status: Status | None = None, game: str | None = None, limit: int = 50,
                           before: tuple[float, str] | None = None) -> list[MatchHead]:
        sql, args = match_list_sql(HEAD, "?", status=status, game=game, limit=limit, before=before)
        return [head_of(r) for r in self._read(sql, args)]

    async def add_card_set(self, card_set: CardSet) -> None:
        c = card_set
        self._transaction(lambda db: db.execute(
            "INSERT OR IGNORE INTO card_sets (name, game, option, title, text, size, created, owner) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (c.name, c.game, c.option, c.title, c.text, c.size, c.created, c.owner or "")))

    async def card_set(self, name: str) -> CardSet | None:
        rows = self._read("SELECT name, game, option, title, text, size, created, owner FROM card_sets WHERE name = ? LIMIT 1",
                          (name,))
        return card_set_of(rows[0]) if rows else None

    async def card_sets(self, owner: str | None = None, limit: int = 100) -> list[CardSet]:
        where, args = ("WHERE owner = ?", (owner,)) if owner is not None else ("", ())
        rows = self._read(f"SELECT name, game, option, title, '', size, created, owner FROM card_sets {where} "
                          "ORDER BY created DESC LIMIT ?", (*args, limit))
        return [card_set_of(r) for r in rows]

    async def count_card_sets(self) -> int:
        return int(self._read("SELECT COUNT(DISTINCT name) FROM card_sets", ())[0][0])

    async def count_matches(self) -> dict[str, int]:
        rows = self._read("SELECT finished IS NULL, COUNT(*) FROM matches GROUP BY finished IS NULL", ())
        counts = {"running": 0, "finished": 0}
        for running, n in rows:
            counts["running" if running else "finished"] = int(n)
        return counts

    async def bot_turn_matches(self, limit: int = 1000, quiet_for: float = 0.0) -> list[str]:
        rows = self._read("SELECT id FROM matches WHERE finished IS NULL AND bot_turn = 1 AND updated <= ? "
                          "ORDER BY created LIMIT ?", (time.time() - quiet_for, limit))
        return [str(r[0]) for r in rows]

    async def revisions(self, match_ids: list[str]) -> dict[str, int]:
        out: dict[str, int] = {}
        for start in range(0, len(match_ids), 500):
            part = match_ids[start:start + 500]
            rows = self._read(f"SELECT id, revision FROM matches WHERE id IN ({','.join('?' * len(part))})",
                              tuple(part))
            out.update((str(i), int(r)) for i, r in rows)
        return out
