"""Matches in PostgreSQL: the store that several server processes share.

The tables are SQLite's (`sqlite.py`), and so are the semantics: every change is one
transaction, and a change names the revision it was made on (``UPDATE … WHERE id = %s AND
revision = %s``: no row updated is `Conflict`, and the transaction writes nothing). JSON is
kept as text, exactly as it was written (``jsonb`` would reorder the keys of a state's dicts),
and match ids sort bytewise (``COLLATE "C"``) whatever the database's locale, as in SQLite.

What only several processes need:

- **Claims** are session advisory locks (``pg_try_advisory_lock``) held on one connection of
  this store's own, outside the pool: when the process dies, its connection ends and
  PostgreSQL frees its claims at once, so another process can take over its bots.
- **Announcements** are ``NOTIFY takujo_matches`` with a small JSON payload (the match, the
  revision and the announcing store's random instance id); one ``LISTEN`` connection per
  store hands the other instances' announcements to the listeners, reconnecting if it drops.

Errors of the driver or the server reach callers as `StoreError`, whose message names neither
SQL nor anything of the server (the driver's error stays its ``__cause__``, for the log).
"""
from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import secrets
import time
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator, Callable, ClassVar, Sequence

import psycopg
from psycopg_pool import AsyncConnectionPool

from ..wire import dumps
from .base import (CHAT_KEPT, SNAPSHOT_EVERY, Announced, CardSet, ChatLine, Conflict, Listener, MatchHead,
                   Status, Store, StoreError, StoredMatch, card_set_of, match_list_sql, open_seats)

log = logging.getLogger("takujo.web")

#: The version of the tables below, in ``meta`` as ``schema_version``.
SCHEMA_VERSION = 1
#: The channel of the announcements.
CHANNEL = "takujo_matches"
#: PostgreSQL refuses a NOTIFY payload of 8000 bytes or more.
MAX_PAYLOAD = 7999

SCHEMA = [
    """CREATE TABLE IF NOT EXISTS matches (
        id TEXT COLLATE "C" PRIMARY KEY,
        game TEXT NOT NULL,
        seed BIGINT NOT NULL,
        seats TEXT NOT NULL,                -- JSON, as in sqlite.py
        idle_limit DOUBLE PRECISION,
        created DOUBLE PRECISION NOT NULL,
        finished DOUBLE PRECISION,
        outcome TEXT,                       -- JSON of the outcome once over
        rematch_of TEXT COLLATE "C",
        rematch TEXT COLLATE "C",
        steps INTEGER NOT NULL DEFAULT 0,
        revision BIGINT NOT NULL DEFAULT 0,
        undos INTEGER NOT NULL DEFAULT 0,
        bot_turn BOOLEAN NOT NULL DEFAULT FALSE
    )""",
    """CREATE TABLE IF NOT EXISTS meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS actions (
        match TEXT COLLATE "C" NOT NULL REFERENCES matches(id),
        n INTEGER NOT NULL,
        player INTEGER NOT NULL,
        action TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (match, n)
    )""",
    """CREATE TABLE IF NOT EXISTS snapshots (
        match TEXT COLLATE "C" NOT NULL REFERENCES matches(id),
        n INTEGER NOT NULL,
        state TEXT NOT NULL,
        PRIMARY KEY (match, n)
    )""",
    "ALTER TABLE matches ADD COLUMN IF NOT EXISTS updated DOUBLE PRECISION NOT NULL DEFAULT 0",  # last change
    "ALTER TABLE matches ADD COLUMN IF NOT EXISTS listed BOOLEAN NOT NULL DEFAULT TRUE",   # open seats in the lobby
    "ALTER TABLE matches ADD COLUMN IF NOT EXISTS open_seats INTEGER NOT NULL DEFAULT 0",  # seats nobody took yet
    "ALTER TABLE matches ADD COLUMN IF NOT EXISTS clocks TEXT",                            # JSON of the clocks
    """CREATE TABLE IF NOT EXISTS members (
        player TEXT COLLATE "C" NOT NULL,
        match TEXT COLLATE "C" NOT NULL REFERENCES matches(id),
        seat INTEGER NOT NULL,
        PRIMARY KEY (player, match, seat)
    )""",
    "CREATE INDEX IF NOT EXISTS members_match ON members (match)",
    """CREATE TABLE IF NOT EXISTS card_sets (
        name TEXT COLLATE "C" NOT NULL,
        game TEXT NOT NULL,
        option TEXT NOT NULL,
        title TEXT NOT NULL,
        text TEXT NOT NULL,
        size INTEGER NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        owner TEXT COLLATE "C" NOT NULL,
        PRIMARY KEY (name, owner)
    )""",
    """CREATE TABLE IF NOT EXISTS chat (
        match TEXT COLLATE "C" NOT NULL REFERENCES matches(id),
        n INTEGER NOT NULL,
        channel TEXT NOT NULL,
        seat INTEGER,
        name TEXT NOT NULL,
        text TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (match, n)
    )""",
    "CREATE INDEX IF NOT EXISTS matches_created ON matches (created DESC, id DESC)",
    "CREATE INDEX IF NOT EXISTS matches_bot_turn ON matches (created, id) WHERE finished IS NULL AND bot_turn",
]
HEAD = ("id, game, seed, seats, idle_limit, created, finished, outcome, rematch_of, rematch, steps, "
        "revision, undos, bot_turn, listed, clocks")

#: Settings of this store's own connections (keepalives: a vanished peer is noticed, and its
#: claims freed, within about half a minute rather than hours).
CONNECT: dict[str, Any] = {"client_encoding": "utf8", "connect_timeout": 10,
                           "keepalives": 1, "keepalives_idle": 10, "keepalives_interval": 5, "keepalives_count": 3}
SERVER_KEEPALIVES = ("SET tcp_keepalives_idle = 10", "SET tcp_keepalives_interval = 5",
                     "SET tcp_keepalives_count = 3")


def lock_key(match_id: str) -> int:
    """The advisory lock of a match: a stable 63-bit hash of its id (a positive bigint)."""
    digest = hashlib.blake2b(f"takujo:match:{match_id}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


#: The transaction-level advisory lock under which the tables are made.
SCHEMA_LOCK = lock_key("\0schema")


def clean(exc: BaseException) -> StoreError:
    """The error to give callers for a driver error."""
    if isinstance(exc, psycopg.OperationalError):
        return StoreError("the PostgreSQL database could not be used (no connection, or it was lost)")
    if isinstance(exc, psycopg.IntegrityError):
        return StoreError("the PostgreSQL database refused the change")
    return StoreError(f"the PostgreSQL database failed ({type(exc).__name__})")


def head_of(row: Sequence[Any]) -> MatchHead:
    """A header from a row of the `HEAD` columns."""
    return MatchHead(id=row[0], game=row[1], seed=int(row[2]), seats=json.loads(row[3]), idle_limit=row[4],
                     created=row[5], finished=row[6], outcome=json.loads(row[7]) if row[7] else None,
                     rematch_of=row[8], rematch=row[9], steps=int(row[10]), revision=int(row[11]),
                     undos=int(row[12]), bot_turn=bool(row[13]), listed=bool(row[14]),
                     clocks=json.loads(row[15]) if row[15] else None)


class PostgresStore(Store):
    """A PostgreSQL database (``postgresql://user@host:port/db``) shared by server processes."""

    shared: ClassVar[bool] = True

    def __init__(self, url: str, *, max_connections: int = 8) -> None:
        self.url = url
        self.instance = secrets.token_hex(8)     # tells this store's announcements from others'
        self._pool: AsyncConnectionPool | None = None
        self._max = max_connections
        self._locks: psycopg.AsyncConnection[Any] | None = None   # holds the claims
        self._claimed: set[str] = set()
        self._claiming = asyncio.Lock()
        self._listeners: list[Listener] = []
        self._listen_task: asyncio.Task[None] | None = None
        self._closed = False

    # ----- connections ----------------------------------------------------------------------
    async def open(self) -> None:
        try:     # one connection first: a wrong address fails at once, not when the pool gives up
            async with await psycopg.AsyncConnection.connect(self.url, **CONNECT) as conn:
                await self._create_tables(conn)
        except psycopg.Error as exc:
            raise clean(exc) from exc
        pool: AsyncConnectionPool = AsyncConnectionPool(
            self.url, min_size=1, max_size=self._max, open=False, timeout=10.0, name="takujo",
            kwargs={**CONNECT, "autocommit": False}, check=AsyncConnectionPool.check_connection)
        try:
            await pool.open(wait=True, timeout=15.0)
        except psycopg.Error as exc:
            await pool.close()
            raise clean(exc) from exc
        self._pool = pool
        if self._listeners:
            self._start_listening()

    @staticmethod
    async def _create_tables(conn: psycopg.AsyncConnection[Any]) -> None:
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))   # one process at a time
            for statement in SCHEMA:
                await conn.execute(statement)
            await conn.execute("INSERT INTO meta (key, value) VALUES ('schema_version', %s) "
                               "ON CONFLICT (key) DO NOTHING", (str(SCHEMA_VERSION),))
            row = await (await conn.execute("SELECT value FROM meta WHERE key = 'schema_version'")).fetchone()
        version = int(row[0]) if row and str(row[0]).isdigit() else 0
        if version > SCHEMA_VERSION:
            raise StoreError(f"the database was made by a newer takujo (schema version {version}, "
                             f"this one knows {SCHEMA_VERSION})")

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._listen_task is not None:
            self._listen_task.cancel()
            try:
                await self._listen_task
            except (asyncio.CancelledError, Exception):
                pass
            self._listen_task = None
        async with self._claiming:
            if self._locks is not None:
                try:
                    if not self._locks.closed and not self._locks.broken:
                        await self._locks.execute("SELECT pg_advisory_unlock_all()")
                except psycopg.Error:
                    pass     # closing the connection frees them as well
                await self._locks.close()
                self._locks = None
            self._claimed.clear()
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

    async def ping(self) -> None:
        async with self._connection(timeout=5.0) as conn:
            await conn.execute("SELECT 1")

    @asynccontextmanager
    async def _connection(self, timeout: float | None = None) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
        """A connection of the pool (what it did is committed when the block ends without error)."""
        if self._pool is None:
            raise StoreError("the PostgreSQL store is not open")
        try:
            async with self._pool.connection(timeout=timeout) as conn:
                yield conn
        except psycopg.Error as exc:
            raise clean(exc) from exc

    @asynccontextmanager
    async def _transaction(self, *, read_only: bool = False) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
        """One transaction; a read-only one sees one consistent state of every table."""
        async with self._connection() as conn:
            async with conn.transaction():
                if read_only:
                    await conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                yield conn

    async def _rows(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        async with self._connection() as conn:
            cur = await conn.execute(sql, args)
            return list(await cur.fetchall())

    async def _bump(self, conn: psycopg.AsyncConnection[Any], match_id: str, revision: int, sets: str,
                    args: tuple[Any, ...], action: Announced | None = None) -> int:
        """Raise the match's revision from `revision` (else `Conflict`), setting `sets` too,
        and announce the change (PostgreSQL delivers it when the transaction commits)."""
        cur = await conn.execute(
            f"UPDATE matches SET revision = revision + 1, updated = %s, {sets} WHERE id = %s AND revision = %s",
            (time.time(), *args, match_id, revision))
        if cur.rowcount != 1:
            raise Conflict(match_id)
        await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, self._announcement(match_id, revision + 1, action)))
        return revision + 1

    # ----- settings -------------------------------------------------------------------------
    async def meta(self, key: str, default: Callable[[], str]) -> str:
        rows = await self._rows("SELECT value FROM meta WHERE key = %s", (key,))
        if rows:
            return str(rows[0][0])
        value = default()
        async with self._transaction() as conn:
            await conn.execute("INSERT INTO meta (key, value) VALUES (%s, %s) ON CONFLICT (key) DO NOTHING",
                               (key, value))
            row = await (await conn.execute("SELECT value FROM meta WHERE key = %s", (key,))).fetchone()
        assert row is not None
        return str(row[0])

    # ----- matches --------------------------------------------------------------------------
    @staticmethod
    async def _insert(conn: psycopg.AsyncConnection[Any], m: MatchHead) -> None:
        await conn.execute("INSERT INTO matches (id, game, seed, seats, idle_limit, created, rematch_of, bot_turn, "
                           "listed, open_seats, clocks) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                           (m.id, m.game, m.seed, json.dumps(m.seats), m.idle_limit, m.created, m.rematch_of,
                            bool(m.bot_turn), bool(m.listed), open_seats(m.seats),
                            json.dumps(m.clocks) if m.clocks else None))

    async def add_match(self, head: MatchHead) -> None:
        async with self._transaction() as conn:
            await self._insert(conn, head)

    async def add_rematch(self, head: MatchHead) -> str:
        async with self._transaction() as conn:
            # the old match's row stays locked until this commits: a second rematch waits, then sees the first
            cur = await conn.execute("SELECT rematch FROM matches WHERE id = %s FOR UPDATE", (head.rematch_of,))
            row = await cur.fetchone()
            if row is None:
                raise Conflict(str(head.rematch_of))
            if row[0] is not None:
                return str(row[0])
            await self._insert(conn, head)
            await conn.execute("UPDATE matches SET rematch = %s WHERE id = %s", (head.id, head.rematch_of))
            return head.id

    async def head(self, match_id: str) -> MatchHead | None:
        rows = await self._rows(f"SELECT {HEAD} FROM matches WHERE id = %s", (match_id,))
        return head_of(rows[0]) if rows else None

    async def load(self, match_id: str) -> StoredMatch | None:
        async with self._transaction(read_only=True) as conn:
            row = await (await conn.execute(f"SELECT {HEAD} FROM matches WHERE id = %s",
                                            (match_id,))).fetchone()
            if row is None:
                return None
            head = head_of(row)
            snap = await (await conn.execute("SELECT n, state FROM snapshots WHERE match = %s AND n <= %s "
                                             "ORDER BY n DESC LIMIT 1", (match_id, head.steps))).fetchone()
            start = snap[0] if snap else 0
            acts = await (await conn.execute("SELECT player, action FROM actions WHERE match = %s AND n >= %s "
                                             "ORDER BY n", (match_id, start))).fetchall()
        return StoredMatch(**vars(head), snapshot=(int(snap[0]), json.loads(snap[1])) if snap else None,
                           actions=[(int(p), str(a)) for p, a in acts])

    async def actions(self, match_id: str, start: int, end: int | None = None) -> list[tuple[int, str]]:
        if end is None:
            rows = await self._rows("SELECT player, action FROM actions WHERE match = %s AND n >= %s ORDER BY n",
                                    (match_id, start))
        else:
            rows = await self._rows("SELECT player, action FROM actions WHERE match = %s AND n >= %s AND n < %s "
                                    "ORDER BY n", (match_id, start, end))
        return [(int(p), str(a)) for p, a in rows]

    async def snapshot(self, match_id: str, at_most: int) -> tuple[int, dict[str, Any]] | None:
        rows = await self._rows("SELECT n, state FROM snapshots WHERE match = %s AND n <= %s "
                                "ORDER BY n DESC LIMIT 1", (match_id, at_most))
        return (int(rows[0][0]), json.loads(rows[0][1])) if rows else None

    async def add_action(self, match_id: str, revision: int, n: int, player: int, notation: str, *,
                         bot_turn: bool, outcome: dict[str, Any] | None = None,
                         snapshot: dict[str, Any] | None = None, clocks: dict[str, Any] | None = None) -> int:
        timed: tuple[str, tuple[Any, ...]] = (", clocks = %s", (json.dumps(clocks),)) if clocks is not None else ("", ())
        async with self._transaction() as conn:
            if outcome is not None:
                new = await self._bump(conn, match_id, revision,
                                       "steps = %s, bot_turn = %s, finished = %s, outcome = %s" + timed[0],
                                       (n + 1, bool(bot_turn), time.time(), json.dumps(outcome), *timed[1]),
                                       (n, player, notation))
            else:
                new = await self._bump(conn, match_id, revision, "steps = %s, bot_turn = %s" + timed[0],
                                       (n + 1, bool(bot_turn), *timed[1]), (n, player, notation))
            await conn.execute("INSERT INTO actions (match, n, player, action, at) VALUES (%s, %s, %s, %s, %s)",
                               (match_id, n, player, notation, time.time()))
            if snapshot is not None:
                await conn.execute("INSERT INTO snapshots (match, n, state) VALUES (%s, %s, %s) "
                                   "ON CONFLICT (match, n) DO UPDATE SET state = EXCLUDED.state",
                                   (match_id, n + 1, dumps(snapshot)))
                await conn.execute("DELETE FROM snapshots WHERE match = %s AND n < %s",
                                   (match_id, n + 1 - SNAPSHOT_EVERY))
            return new

    async def remove_last_action(self, match_id: str, revision: int, n: int, *, bot_turn: bool) -> int:
        async with self._transaction() as conn:
            new = await self._bump(conn, match_id, revision, "steps = %s, undos = undos + 1, bot_turn = %s",
                                   (n, bool(bot_turn)))
            await conn.execute("DELETE FROM actions WHERE match = %s AND n >= %s", (match_id, n))
            await conn.execute("DELETE FROM snapshots WHERE match = %s AND n > %s", (match_id, n))
            return new

    async def set_seats(self, match_id: str, revision: int, seats: list[dict[str, Any]], *, bot_turn: bool,
                        clocks: dict[str, Any] | None = None) -> int:
        timed: tuple[str, tuple[Any, ...]] = (", clocks = %s", (json.dumps(clocks),)) if clocks is not None else ("", ())
        async with self._transaction() as conn:
            return await self._bump(conn, match_id, revision, "seats = %s, bot_turn = %s, open_seats = %s" + timed[0],
                                    (json.dumps(seats), bool(bot_turn), open_seats(seats), *timed[1]))

    async def add_member(self, player: str, match_id: str, seat: int) -> None:
        async with self._transaction() as conn:
            await conn.execute("INSERT INTO members (player, match, seat) VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                               (player, match_id, seat))

    async def member_seats(self, player: str, match_id: str) -> set[int]:
        return {int(r[0]) for r in await self._rows("SELECT seat FROM members WHERE player = %s AND match = %s",
                                                    (player, match_id))}

    async def player_matches(self, player: str, limit: int = 50) -> list[MatchHead]:
        rows = await self._rows(f"SELECT {HEAD} FROM matches WHERE id IN (SELECT match FROM members WHERE player = %s) "
                                "ORDER BY created DESC, id DESC LIMIT %s", (player, limit))
        return [head_of(r) for r in rows]

    async def add_chat(self, match_id: str, channel: str, seat: int | None, name: str, text: str) -> ChatLine:
        async with self._transaction() as conn:
            # the match's row is locked until this commits: two writers number their lines in turn
            cur = await conn.execute("SELECT revision FROM matches WHERE id = %s FOR UPDATE", (match_id,))
            head = await cur.fetchone()
            if head is None:
                raise Conflict(match_id)
            row = await (await conn.execute("SELECT COALESCE(MAX(n), 0) FROM chat WHERE match = %s",
                                            (match_id,))).fetchone()
            n = int(row[0]) + 1 if row else 1
            line = ChatLine(n=n, channel=channel, seat=seat, name=name, text=text, at=time.time())
            await conn.execute("INSERT INTO chat (match, n, channel, seat, name, text, at) "
                               "VALUES (%s, %s, %s, %s, %s, %s, %s)", (match_id, n, channel, seat, name, text, line.at))
            await conn.execute("DELETE FROM chat WHERE match = %s AND n <= %s", (match_id, n - CHAT_KEPT))
            # announced at the match's revision: the others read the chat, the game is unchanged
            await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, self._announcement(match_id, int(head[0]))))
            return line

    async def chat(self, match_id: str, after: int = 0, limit: int = CHAT_KEPT) -> list[ChatLine]:
        rows = await self._rows("SELECT n, channel, seat, name, text, at FROM chat WHERE match = %s AND n > %s "
                                "ORDER BY n LIMIT %s", (match_id, after, limit))
        return [ChatLine(int(n), c, seat, name, text, at) for n, c, seat, name, text, at in rows]

    async def list_matches(self, *, status: Status | None = None, game: str | None = None, limit: int = 50,
                           before: tuple[float, str] | None = None) -> list[MatchHead]:
        sql, args = match_list_sql(HEAD, "%s", status=status, game=game, limit=limit, before=before)
        return [head_of(r) for r in await self._rows(sql, args)]

    async def add_card_set(self, card_set: CardSet) -> None:
        c = card_set
        async with self._transaction() as conn:
            await conn.execute("INSERT INTO card_sets (name, game, option, title, text, size, created, owner) "
                               "VALUES (%s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (name, owner) DO NOTHING",
                               (c.name, c.game, c.option, c.title, c.text, c.size, c.created, c.owner or ""))

    async def card_set(self, name: str) -> CardSet | None:
        rows = await self._rows("SELECT name, game, option, title, text, size, created, owner FROM card_sets "
                                "WHERE name = %s LIMIT 1", (name,))
        return card_set_of(rows[0]) if rows else None

    async def card_sets(self, owner: str | None = None, limit: int = 100) -> list[CardSet]:
        where, args = ("WHERE owner = %s", (owner,)) if owner is not None else ("", ())
        rows = await self._rows(f"SELECT name, game, option, title, '', size, created, owner FROM card_sets {where} "
                                "ORDER BY created DESC LIMIT %s", (*args, limit))
        return [card_set_of(r) for r in rows]

    async def count_card_sets(self) -> int:
        rows = await self._rows("SELECT COUNT(DISTINCT name) FROM card_sets")
        return int(rows[0][0])

    async def count_matches(self) -> dict[str, int]:
        rows = await self._rows("SELECT finished IS NULL, COUNT(*) FROM matches GROUP BY finished IS NULL")
        counts = {"running": 0, "finished": 0}
        for running, n in rows:
            counts["running" if running else "finished"] = int(n)
        return counts

    async def bot_turn_matches(self, limit: int = 1000, quiet_for: float = 0.0) -> list[str]:
        rows = await self._rows("SELECT id FROM matches WHERE finished IS NULL AND bot_turn AND updated <= %s "
                                "ORDER BY created, id LIMIT %s", (time.time() - quiet_for, limit))
        return [str(r[0]) for r in rows]

    async def revisions(self, match_ids: list[str]) -> dict[str, int]:
        rows = await self._rows("SELECT id, revision FROM matches WHERE id = ANY(%s)", (list(match_ids),))
        return {str(i): int(r) for i, r in rows}

    # ----- several processes: claims -----------------------------------------------------
    async def _lock_connection(self) -> psycopg.AsyncConnection[Any]:
        """The connection that holds this store's claims, connected again if it was lost (and
        with it every claim: PostgreSQL freed them when it ended)."""
        if self._locks is not None and (self._locks.closed or self._locks.broken):
            log.warning("the connection holding this server's claims was lost; its claims are gone")
            await self._locks.close()
            self._locks = None
            self._claimed.clear()
        if self._locks is None:
            conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True, **CONNECT)
            try:
                for statement in SERVER_KEEPALIVES:
                    await conn.execute(statement)
            except BaseException:
                await conn.close()
                raise
            self._locks = conn
        return self._locks

    async def claim(self, match_id: str) -> bool:
        if self._closed:
            raise StoreError("the PostgreSQL store is closed")
        async with self._claiming:
            for attempt in range(2):
                try:
                    conn = await self._lock_connection()
                    if match_id in self._claimed:
                        await conn.execute("SELECT 1")   # still connected, so still held
                        return True                      # (a session lock taken twice needs two unlocks)
                    cur = await conn.execute("SELECT pg_try_advisory_lock(%s)", (lock_key(match_id),))
                    row = await cur.fetchone()
                except psycopg.OperationalError as exc:
                    if attempt == 0 and self._locks is not None and (self._locks.closed or self._locks.broken):
                        continue                         # lost with every claim: connect again and try
                    raise clean(exc) from exc
                except psycopg.Error as exc:
                    raise clean(exc) from exc
                if row is not None and row[0]:
                    self._claimed.add(match_id)
                    return True
                return False
            raise AssertionError("unreachable")

    async def release(self, match_id: str) -> None:
        async with self._claiming:
            if match_id not in self._claimed:
                return
            self._claimed.discard(match_id)
            conn = self._locks
            if conn is None or conn.closed or conn.broken:
                return        # the lock went with its connection
            try:
                await conn.execute("SELECT pg_advisory_unlock(%s)", (lock_key(match_id),))
            except psycopg.Error as exc:
                raise clean(exc) from exc

    # ----- several processes: announcements ----------------------------------------------
    def _announcement(self, match_id: str, revision: int, action: Announced | None = None) -> str:
        """The payload announcing a change: the match, its revision, this store, the action."""
        note: dict[str, Any] = {"m": match_id, "r": revision, "i": self.instance}
        if action is not None:
            note["a"] = list(action)
        payload = json.dumps(note, ensure_ascii=False, separators=(",", ":"))
        if len(payload.encode()) > MAX_PAYLOAD:
            if action is None:
                raise ValueError("match id too long to announce")
            return self._announcement(match_id, revision)  # the others read the action instead
        return payload

    async def publish(self, match_id: str, revision: int, action: Announced | None = None) -> None:
        async with self._transaction() as conn:
            await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, self._announcement(match_id, revision, action)))

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)
        if self._pool is not None and not self._closed:
            self._start_listening()

    def _start_listening(self) -> None:
        if self._listen_task is None or self._listen_task.done():
            self._listen_task = asyncio.get_running_loop().create_task(self._listen(), name="takujo-listen")

    def _parse(self, payload: str) -> tuple[str, int, Announced | None] | None:
        """The (match, revision, action) of another instance's announcement; None for this
        store's own or anything malformed."""
        try:
            note = json.loads(payload)
        except ValueError:
            return None
        if not isinstance(note, dict):
            return None
        match_id, revision, instance = note.get("m"), note.get("r"), note.get("i")
        if not isinstance(match_id, str) or type(revision) is not int or instance == self.instance:
            return None
        action = note.get("a")
        if not (isinstance(action, list) and len(action) == 3 and type(action[0]) is int
                and type(action[1]) is int and isinstance(action[2], str)):
            return match_id, revision, None
        return match_id, revision, (action[0], action[1], action[2])

    async def _listen(self) -> None:
        """LISTEN on a connection of its own and hand each announcement to the listeners; on a
        lost connection, connect again after a short back-off."""
        delay = 0.2
        while not self._closed:
            try:
                conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True, **CONNECT)
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    delay = 0.2
                    async for note in conn.notifies():
                        parsed = self._parse(note.payload)
                        if parsed is None:
                            continue
                        for listener in list(self._listeners):
                            try:
                                await listener(*parsed)
                            except Exception:
                                log.exception("a listener of match announcements failed")
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("listening for match announcements: %s; connecting again in %.1f s",
                            clean(exc) if isinstance(exc, psycopg.Error) else type(exc).__name__, delay)
            if self._closed:
                return
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)
