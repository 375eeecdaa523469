"""The two stores behind one interface (takujo/web/store/base.py): SQLite on a file and
PostgreSQL on a fresh database of a real server, held to the same semantics; then what only
PostgreSQL does, with two stores on one database as two server processes would be: claims,
announcements, concurrent changes, and a killed process's claims freed."""
from __future__ import annotations

import asyncio
import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Awaitable, Callable, TypeVar

import pytest

from takujo.web.store import SNAPSHOT_EVERY, Conflict, MatchHead, Store, open_store

from .server import _die_with_parent

T = TypeVar("T")
ROOT = Path(__file__).resolve().parents[2]
#: Seconds to wait for what another connection or process must do, however loaded the machine.
PATIENCE = 60.0


@pytest.fixture(params=["sqlite", "postgres"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a store is: a SQLite file, or the URL of a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "takujo.db")
    return str(request.getfixturevalue("postgres_url"))


def run(db: str, body: Callable[[Store], Awaitable[T]], timeout: float = 3 * PATIENCE) -> T:
    """`body` with an opened store on `db`, on an event loop of its own; the store is closed after."""
    async def main() -> T:
        store = open_store(db)
        await store.open()
        try:
            return await asyncio.wait_for(body(store), timeout)
        finally:
            await store.close()
    return asyncio.run(main())


def stores(db: str, count: int, body: Callable[..., Awaitable[T]], timeout: float = 3 * PATIENCE) -> T:
    """`body` with `count` opened stores on one database (as `count` server processes)."""
    async def main() -> T:
        opened: list[Store] = []
        try:
            for _ in range(count):
                store = open_store(db)
                await store.open()
                opened.append(store)
            return await asyncio.wait_for(body(*opened), timeout)
        finally:
            for store in opened:
                await store.close()
    return asyncio.run(main())


def make(match_id: str, created: float = 1000.0, game: str = "fuutei(players=3)", **kw: Any) -> MatchHead:
    seats = kw.pop("seats", [{"kind": "human", "bot": None, "token_hash": "ab" * 32, "stand_in": None},
                             {"kind": "bot", "bot": "ismcts:200", "token_hash": None, "stand_in": None},
                             {"kind": "human", "bot": None, "token_hash": "cd" * 32, "stand_in": "heuristic"}])
    return MatchHead(id=match_id, game=game, seed=kw.pop("seed", 7), seats=seats, idle_limit=kw.pop("idle_limit", None),
                     created=created, **kw)


# ----- both stores ------------------------------------------------------------------------
def test_a_match_is_stored_and_read_back_as_it_was(db: str) -> None:
    head = make("m-Ab_1", created=1712345678.123456, seed=2**53 - 1, idle_limit=90.5,
                game="sengoku_taisen(deck1=code:甲乙)")

    async def body(store: Store) -> None:
        await store.add_match(head)
        got = await store.head("m-Ab_1")
        assert got == head
        assert got.status == "running" and got.steps == 0 and got.revision == 0 and got.undos == 0
        loaded = await store.load("m-Ab_1")
        assert loaded is not None
        assert loaded.seats == head.seats and loaded.seed == 2**53 - 1 and loaded.created == head.created
        assert loaded.idle_limit == 90.5 and loaded.game == head.game
        assert loaded.snapshot is None and loaded.actions == [] and loaded.first_step == 0
        assert await store.head("nope") is None and await store.load("nope") is None
        assert await store.actions("m-Ab_1", 0) == [] and await store.snapshot("m-Ab_1", 10) is None
        await store.ping()
    run(db, body)


def test_an_action_on_the_current_revision_commits_and_a_stale_one_writes_nothing(db: str) -> None:
    async def body(store: Store) -> None:
        await store.add_match(make("m1"))
        assert await store.add_action("m1", 0, 0, 0, "play 23", bot_turn=True) == 1
        head = await store.head("m1")
        assert head is not None and (head.steps, head.revision, head.bot_turn) == (1, 1, True)
        assert await store.actions("m1", 0) == [(0, "play 23")]

        for stale in (
            store.add_action("m1", 0, 1, 1, "pass", bot_turn=False, outcome={"winners": [1]}, snapshot={"x": 1}),
            store.remove_last_action("m1", 0, 0, bot_turn=False),
            store.set_seats("m1", 0, [], bot_turn=False),
            store.add_action("m1", 2, 1, 1, "pass", bot_turn=False),       # a revision not reached yet
            store.add_action("unknown", 0, 0, 0, "pass", bot_turn=False),
        ):
            with pytest.raises(Conflict):
                await stale
        after = await store.head("m1")
        assert after == head                                               # nothing written
        assert await store.actions("m1", 0) == [(0, "play 23")]
        assert await store.snapshot("m1", 100) is None

        assert await store.add_action("m1", 1, 1, 1, "選ぶ 3", bot_turn=False) == 2
        assert await store.actions("m1", 0) == [(0, "play 23"), (1, "選ぶ 3")]
        assert await store.actions("m1", 1) == [(1, "選ぶ 3")]
        assert await store.actions("m1", 0, 1) == [(0, "play 23")]
    run(db, body)


def test_the_action_that_ends_the_game_stores_its_outcome(db: str) -> None:
    outcome = {"winners": [2], "scores": {"2": 31, "0": 12, "1": 5}, "reason": "最後の一枚"}

    async def body(store: Store) -> None:
        await store.add_match(make("m1", bot_turn=True))
        before = time.time()
        assert await store.add_action("m1", 0, 0, 2, "claim", bot_turn=False, outcome=outcome) == 1
        head = await store.head("m1")
        assert head is not None and head.status == "finished"
        assert head.finished is not None and before - 1 <= head.finished <= time.time() + 1
        assert head.outcome == outcome and list(head.outcome["scores"]) == ["2", "0", "1"]   # as written
        assert head.bot_turn is False
        assert await store.bot_turn_matches() == []
    run(db, body)


def _state(step: int) -> dict[str, Any]:
    return {"step": step, "hands": {"2": [5, 1], "0": [], "1": [9]}, "名前": "状態"}


def test_load_gives_the_latest_snapshot_and_only_the_actions_after_it_and_two_are_kept(db: str) -> None:
    async def body(store: Store) -> None:
        await store.add_match(make("m1"))
        revision = 0
        for n in range(3 * SNAPSHOT_EVERY + 20):
            snap = _state(n + 1) if (n + 1) % SNAPSHOT_EVERY == 0 else None
            revision = await store.add_action("m1", revision, n, n % 3, f"act {n}", bot_turn=False, snapshot=snap)
        loaded = await store.load("m1")
        assert loaded is not None and loaded.steps == 3 * SNAPSHOT_EVERY + 20 and loaded.revision == revision
        assert loaded.snapshot == (3 * SNAPSHOT_EVERY, _state(3 * SNAPSHOT_EVERY))
        assert list(loaded.snapshot[1]["hands"]) == ["2", "0", "1"]               # keys in their order
        assert loaded.first_step == 3 * SNAPSHOT_EVERY
        assert loaded.actions == [(n % 3, f"act {n}") for n in range(3 * SNAPSHOT_EVERY, 3 * SNAPSHOT_EVERY + 20)]
        assert await store.snapshot("m1", 3 * SNAPSHOT_EVERY - 1) == (2 * SNAPSHOT_EVERY, _state(2 * SNAPSHOT_EVERY))
        assert await store.snapshot("m1", 2 * SNAPSHOT_EVERY - 1) is None  # only the latest two are kept
        assert await store.actions("m1", 10, 12) == [(1, "act 10"), (2, "act 11")]
        assert len(await store.actions("m1", 0)) == 3 * SNAPSHOT_EVERY + 20
    run(db, body)


def test_undo_removes_the_last_action_and_the_snapshots_after_it(db: str) -> None:
    async def body(store: Store) -> None:
        await store.add_match(make("m1"))
        revision = 0
        for n in range(SNAPSHOT_EVERY + 1):       # snapshots after SNAPSHOT_EVERY and after every action
            revision = await store.add_action("m1", revision, n, 0, f"act {n}", bot_turn=False,
                                              snapshot=_state(n + 1) if n + 1 >= SNAPSHOT_EVERY else None)
        last = SNAPSHOT_EVERY
        assert (await store.snapshot("m1", 10**6)) == (last + 1, _state(last + 1))

        revision = await store.remove_last_action("m1", revision, last, bot_turn=True)
        head = await store.head("m1")
        assert head is not None and (head.steps, head.undos, head.revision, head.bot_turn) == (last, 1, revision, True)
        assert len(await store.actions("m1", 0)) == last
        assert await store.snapshot("m1", 10**6) == (last, _state(last))
        loaded = await store.load("m1")
        assert loaded is not None and loaded.snapshot == (last, _state(last)) and loaded.actions == []

        revision = await store.remove_last_action("m1", revision, last - 1, bot_turn=False)
        loaded = await store.load("m1")
        assert loaded is not None and loaded.undos == 2 and loaded.steps == last - 1 and loaded.revision == revision
        assert loaded.snapshot is None and len(loaded.actions) == last - 1
        assert await store.add_action("m1", revision, last - 1, 0, "again", bot_turn=False) == revision + 1
        assert (await store.actions("m1", last - 1)) == [(0, "again")]
    run(db, body)


def test_set_seats_stores_who_plays_each_seat(db: str) -> None:
    seats = [{"kind": "bot", "bot": "heuristic", "token_hash": None, "stand_in": None},
             {"kind": "human", "bot": None, "token_hash": "ef" * 32, "stand_in": "heuristic"}]

    async def body(store: Store) -> None:
        await store.add_match(make("m1"))
        assert await store.set_seats("m1", 0, seats, bot_turn=True) == 1
        head = await store.head("m1")
        assert head is not None and head.seats == seats and head.bot_turn and head.revision == 1 and head.steps == 0
        assert await store.bot_turn_matches() == ["m1"]
    run(db, body)


def test_list_matches_newest_first_with_filters_and_counts(db: str) -> None:
    games = {"a": "fuutei(players=3)", "b": "fuutei", "c": "sengoku_taisen", "d": "fuuteiX", "e": "ibara(players=4)",
             "f": "fuutei(players=2)"}

    async def body(store: Store) -> None:
        for i, (match_id, game) in enumerate(games.items()):
            await store.add_match(make(match_id, created=100.0 + i, game=game))
        await store.add_action("c", 0, 0, 0, "x", bot_turn=False, outcome={"winners": [0]})
        await store.add_action("f", 0, 0, 0, "x", bot_turn=False, outcome={"winners": [1]})

        assert [m.id for m in await store.list_matches()] == ["f", "e", "d", "c", "b", "a"]
        assert [m.id for m in await store.list_matches(limit=2)] == ["f", "e"]
        assert [m.id for m in await store.list_matches(status="running")] == ["e", "d", "b", "a"]
        assert [m.id for m in await store.list_matches(status="finished")] == ["f", "c"]
        assert [m.id for m in await store.list_matches(game="fuutei")] == ["f", "b", "a"]
        assert [m.id for m in await store.list_matches(game="fuutei", status="running")] == ["b", "a"]
        assert [m.id for m in await store.list_matches(game="fuutei(players=3)")] == ["a"]
        assert [m.id for m in await store.list_matches(game="ibara")] == ["e"]
        assert await store.list_matches(game="draft_daimyo") == []
        assert [m.id for m in await store.list_matches(before=(103.0, "d"))] == ["c", "b", "a"]
        listed = (await store.list_matches(status="finished"))[0]
        assert listed == await store.head("f") and listed.outcome == {"winners": [1]}
        assert await store.count_matches() == {"running": 4, "finished": 2}
    run(db, body)


def test_paging_through_25_matches_10_at_a_time_misses_and_repeats_none(db: str) -> None:
    async def body(store: Store) -> None:
        ids = []
        for i in range(25):
            match_id = f"m{i:02d}{'xYz'[i % 3]}"
            ids.append(match_id)
            await store.add_match(make(match_id, created=500.0 + i // 4))   # four at a time share a creation time
        everything = [m.id for m in await store.list_matches(limit=100)]
        assert everything == [m for _, m in sorted(((500.0 + i // 4, m) for i, m in enumerate(ids)), reverse=True)]
        pages: list[list[str]] = []
        before: tuple[float, str] | None = None
        while True:
            page = await store.list_matches(limit=10, before=before)
            if not page:
                break
            pages.append([m.id for m in page])
            before = (page[-1].created, page[-1].id)
        assert [len(p) for p in pages] == [10, 10, 5]
        assert [m for p in pages for m in p] == everything
    run(db, body)


def test_bot_turn_matches_lists_running_matches_a_bot_is_to_act_in(db: str) -> None:
    async def body(store: Store) -> None:
        await store.add_match(make("late", created=30.0, bot_turn=True))
        await store.add_match(make("early", created=10.0, bot_turn=True))
        await store.add_match(make("human", created=20.0))
        await store.add_match(make("over", created=5.0, bot_turn=True))
        await store.add_action("over", 0, 0, 0, "x", bot_turn=True, outcome={"winners": []})
        assert await store.bot_turn_matches() == ["early", "late"]
        assert await store.bot_turn_matches(limit=1) == ["early"]
        await store.add_action("early", 0, 0, 1, "x", bot_turn=False)
        assert await store.bot_turn_matches() == ["late"]
    run(db, body)


def test_only_matches_quiet_for_a_while_are_offered_for_a_take_over(db: str) -> None:
    async def body(store: Store) -> None:
        await store.add_match(make("quiet", created=10.0, bot_turn=True))  # never changed since 1970+10 s
        await store.add_match(make("busy", created=20.0, bot_turn=False))
        await store.add_action("busy", 0, 0, 0, "x", bot_turn=True)        # changed just now
        assert await store.bot_turn_matches(quiet_for=60.0) == ["quiet"]
        assert await store.bot_turn_matches() == ["quiet", "busy"]
    run(db, body)


def test_revisions_of_many_matches_in_one_call(db: str) -> None:
    async def body(store: Store) -> None:
        for i in range(3):
            await store.add_match(make(f"m{i}", created=float(i)))
        await store.add_action("m1", 0, 0, 0, "x", bot_turn=False)
        await store.set_seats("m1", 1, [], bot_turn=False)
        assert await store.revisions(["m0", "m1", "m2", "nosuch"]) == {"m0": 0, "m1": 2, "m2": 0}
        assert await store.revisions([]) == {}
    run(db, body)


def test_the_first_rematch_stands(db: str) -> None:
    async def body(store: Store) -> None:
        await store.add_match(make("old", created=1.0))
        await store.add_action("old", 0, 0, 0, "x", bot_turn=False, outcome={"winners": [0]})
        assert await store.add_rematch(make("new1", created=2.0, rematch_of="old")) == "new1"
        assert await store.add_rematch(make("new2", created=3.0, rematch_of="old")) == "new1"
        assert await store.head("new2") is None
        old, new = await store.head("old"), await store.head("new1")
        assert old is not None and old.rematch == "new1"
        assert new is not None and new.rematch_of == "old" and new.rematch is None
        assert await store.count_matches() == {"running": 1, "finished": 1}
        with pytest.raises(Conflict):
            await store.add_rematch(make("new3", rematch_of="unknown"))
        assert await store.head("new3") is None
    run(db, body)


def test_a_setting_is_made_once(db: str) -> None:
    made: list[str] = []

    def default(value: str) -> Callable[[], str]:
        def make_it() -> str:
            made.append(value)
            return value
        return make_it

    async def body(store: Store) -> None:
        assert await store.meta("secret", default("first")) == "first"
        assert await store.meta("secret", default("second")) == "first"
        assert await store.meta("other", default("x")) == "x"
    run(db, body)
    assert made == ["first", "x"]
    assert run(db, lambda store: store.meta("secret", default("third"))) == "first"   # kept across a restart
    assert made == ["first", "x"]


def test_one_process_stores_claim_everything(tmp_path: Path) -> None:
    async def body(store: Store) -> None:
        assert not store.shared
        assert await store.claim("m1") and await store.claim("m1")
        await store.release("m1")
        await store.publish("m1", 3)
    run(str(tmp_path / "takujo.db"), body)


# ----- PostgreSQL: several processes on one database ---------------------------------------
def test_postgres_claims_are_exclusive_until_released_or_closed(postgres_url: str) -> None:
    async def body(a: Store, b: Store) -> None:
        assert a.shared and b.shared
        assert await a.claim("m1")
        assert await a.claim("m1")              # again: still one claim
        assert not await b.claim("m1")
        assert await b.claim("m2") and not await a.claim("m2")
        await a.release("m1")                   # once is enough after claiming twice
        assert await b.claim("m1")
        assert not await a.claim("m1")
        await a.release("m1")                   # not held: nothing happens
        assert not await a.claim("m1")
        await b.release("m1")
        await b.release("m2")
        assert await a.claim("m1") and await a.claim("m2")
        await a.close()                         # closing frees every claim at once
        assert await b.claim("m1") and await b.claim("m2")
    stores(postgres_url, 2, body)


def test_postgres_announcements_reach_the_other_stores_only(postgres_url: str) -> None:
    async def body(a: Store, b: Store, c: Store) -> None:
        heard: dict[str, list[tuple[str, int]]] = {"a": [], "b": [], "c": []}
        for name, store in (("a", a), ("b", b), ("c", c)):
            async def listener(match_id: str, revision: int, action: object = None, name: str = name) -> None:
                heard[name].append((match_id, revision))
            store.subscribe(listener)
        deadline = time.monotonic() + PATIENCE
        revision = 0
        while not heard["b"] or not heard["c"]:          # until both listen (they start in the background)
            assert time.monotonic() < deadline, heard
            revision += 1
            await a.publish("m-1", revision)
            await asyncio.sleep(0.05)
        await a.publish("m-1", 1000)
        await b.publish("m-2", 7)
        await c.publish("m-3", 1)    # last: whoever hears it has heard all that was announced before
        while not all(("m-3", 1) in heard[name] for name in "ab"):
            assert time.monotonic() < deadline, heard
            await asyncio.sleep(0.05)
        assert heard["a"] == [("m-2", 7), ("m-3", 1)]
        assert ("m-1", 1000) in heard["b"] and ("m-1", 1000) in heard["c"] and ("m-2", 7) in heard["c"]
        assert ("m-2", 7) not in heard["b"] and ("m-3", 1) not in heard["c"]
        assert all(m == "m-1" for m, _ in heard["b"][:-1]) and heard["b"][-1] == ("m-3", 1)
    stores(postgres_url, 3, body)


def test_postgres_listening_ignores_malformed_announcements_and_survives_a_lost_connection(postgres_url: str) -> None:
    import psycopg

    async def body(a: Store, b: Store) -> None:
        heard: list[tuple[str, int]] = []

        async def listener(match_id: str, revision: int, action: object = None) -> None:
            if revision == 13:
                raise RuntimeError("a failing listener does not stop the others' announcements")
            heard.append((match_id, revision))
        b.subscribe(listener)

        async def until_heard(item: tuple[str, int]) -> None:
            deadline = time.monotonic() + PATIENCE
            while item not in heard:
                assert time.monotonic() < deadline, heard
                await a.publish(*item)
                await asyncio.sleep(0.1)

        await until_heard(("m", 1))
        async with await psycopg.AsyncConnection.connect(postgres_url, autocommit=True) as conn:
            for payload in ("not json", "[1, 2]", '{"m": 3, "r": 1, "i": "x"}', '{"m": "m", "r": "2", "i": "x"}',
                            '{"m": "m", "r": 13, "i": "x"}', '{"m": "m", "r": 2.5}'):
                await conn.execute("SELECT pg_notify('takujo_matches', %s)", (payload,))
            await conn.execute("SELECT pg_notify('takujo_matches', %s)", ('{"m": "m", "r": 4, "i": "x"}',))
            await until_heard(("m", 4))
            assert [h for h in heard if h != ("m", 1)][:1] == [("m", 4)]   # (the first may be heard twice)
            # the listening connection is cut: the store connects again and hears what comes after
            await conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                               "WHERE query LIKE 'LISTEN %%' AND pid <> pg_backend_pid()")
        await until_heard(("m", 5))
    stores(postgres_url, 2, body)


def test_postgres_concurrent_changes_on_one_revision_one_wins(postgres_url: str) -> None:
    async def body(a: Store, b: Store) -> None:
        await a.add_match(make("m1"))
        for revision in range(3):
            attempts = [store.add_action("m1", revision, revision, i, f"act {revision} by {i}", bot_turn=False)
                        for i, store in enumerate([a, b] * 8)]
            results = await asyncio.gather(*attempts, return_exceptions=True)
            won = [r for r in results if not isinstance(r, BaseException)]
            assert won == [revision + 1], results
            assert all(isinstance(r, Conflict) for r in results if isinstance(r, BaseException)), results
        acts = await b.actions("m1", 0)
        assert len(acts) == 3
        head = await b.head("m1")
        assert head is not None and head.revision == 3 and head.steps == 3

        seats = [[{"kind": "bot", "bot": f"b{i}", "token_hash": None, "stand_in": None}] for i in range(10)]
        results = await asyncio.gather(*[(a, b)[i % 2].set_seats("m1", 3, s, bot_turn=True)
                                         for i, s in enumerate(seats)], return_exceptions=True)
        assert sum(1 for r in results if r == 4) == 1
        head = await a.head("m1")
        assert head is not None and head.seats == seats[results.index(4)]
    stores(postgres_url, 2, body)


def test_postgres_concurrent_rematches_and_settings_agree(postgres_url: str) -> None:
    async def body(a: Store, b: Store) -> None:
        await a.add_match(make("old"))
        ids = await asyncio.gather(*[(a, b)[i % 2].add_rematch(make(f"new{i}", rematch_of="old")) for i in range(8)])
        assert len(set(ids)) == 1
        assert await a.count_matches() == {"running": 2, "finished": 0}
        values = await asyncio.gather(*[(a, b)[i % 2].meta("secret", lambda i=i: f"v{i}") for i in range(8)])
        assert len(set(values)) == 1
    stores(postgres_url, 2, body)


def test_postgres_errors_name_no_sql(postgres_url: str) -> None:
    from takujo.web.store.postgres import PostgresStore, StoreError

    async def body(store: Store) -> None:
        await store.add_match(make("m1"))
        with pytest.raises(StoreError) as duplicate:
            await store.add_match(make("m1"))
        assert "INSERT" not in str(duplicate.value) and "m1" not in str(duplicate.value)

    run(postgres_url, body)

    async def unreachable() -> None:
        store = PostgresStore(postgres_url.rsplit("/", 1)[0] + "/no_such_database")
        with pytest.raises(StoreError) as missing:
            await store.open()
        assert "no_such_database" not in str(missing.value) and "FATAL" not in str(missing.value)
    asyncio.run(unreachable())


def test_postgres_a_lost_claims_connection_frees_the_claims_and_is_made_again(postgres_url: str) -> None:
    import psycopg

    async def body(a: Store, b: Store) -> None:
        assert await a.claim("m1")
        async with await psycopg.AsyncConnection.connect(postgres_url, autocommit=True) as conn:
            await conn.execute("SELECT pg_terminate_backend(pid) FROM pg_locks "
                               "WHERE locktype = 'advisory' AND pid <> pg_backend_pid()")
        deadline = time.monotonic() + PATIENCE
        while not await b.claim("m1"):
            assert time.monotonic() < deadline, f"the claim of a lost connection was not freed in {PATIENCE:.0f} s"
            await asyncio.sleep(0.05)
        assert not await a.claim("m1")          # connected again, and the match is b's now
        await b.release("m1")
        assert await a.claim("m1")
    stores(postgres_url, 2, body)


CLAIMER = """
import asyncio, sys
from takujo.web.store.postgres import PostgresStore

async def main() -> None:
    store = PostgresStore(sys.argv[1])
    await store.open()
    assert await store.claim(sys.argv[2])
    print("claimed", flush=True)
    await asyncio.sleep(120)

asyncio.run(main())
"""


def test_postgres_a_killed_process_frees_its_claims_at_once(postgres_url: str) -> None:
    proc = subprocess.Popen([sys.executable, "-c", CLAIMER, postgres_url, "m1"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT, preexec_fn=_die_with_parent,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], PATIENCE)
        line = proc.stdout.readline() if ready else ""
        assert line.strip() == "claimed", (line, proc.poll(), proc.stderr.read() if proc.poll() is not None else "")

        async def body(store: Store) -> None:
            assert not await store.claim("m1")
            proc.send_signal(signal.SIGKILL)
            # at once: the server sees the connection close (a dead peer's keepalive would take hours)
            deadline = time.monotonic() + PATIENCE
            while not await store.claim("m1"):
                assert time.monotonic() < deadline, f"the killed process's claim was not freed in {PATIENCE:.0f} s"
                await asyncio.sleep(0.05)
        run(postgres_url, body)
    finally:
        proc.kill()
        proc.wait(10)
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


def test_postgres_store_runs_on_uvloop(postgres_url: str) -> None:
    """uvicorn[standard] serves on uvloop: the store's connections, claims and announcements work there."""
    uvloop = pytest.importorskip("uvloop")

    async def main() -> None:
        a, b = open_store(postgres_url), open_store(postgres_url)
        await a.open()
        await b.open()
        try:
            assert isinstance(asyncio.get_running_loop(), uvloop.Loop)
            heard: list[tuple[str, int]] = []

            async def listener(match_id: str, revision: int, action: object = None) -> None:
                heard.append((match_id, revision))
            b.subscribe(listener)
            await a.add_match(make("m1"))
            assert await a.add_action("m1", 0, 0, 0, "x", bot_turn=False, snapshot={"s": 1}) == 1
            loaded = await b.load("m1")
            assert loaded is not None and loaded.snapshot == (1, {"s": 1})
            assert await a.claim("m1") and not await b.claim("m1")
            deadline = time.monotonic() + PATIENCE
            while ("m1", 1) not in heard:
                assert time.monotonic() < deadline, heard
                await a.publish("m1", 1)
                await asyncio.sleep(0.05)
        finally:
            await a.close()
            await b.close()
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        runner.run(asyncio.wait_for(main(), 3 * PATIENCE))


def test_postgres_tables_are_made_once_by_concurrent_processes(postgres_url: str) -> None:
    import psycopg

    async def main() -> None:
        opened = [open_store(postgres_url) for _ in range(4)]
        await asyncio.gather(*[s.open() for s in opened])
        for s in opened:
            await s.close()
        async with await psycopg.AsyncConnection.connect(postgres_url) as conn:
            row = await (await conn.execute("SELECT value FROM meta WHERE key = 'schema_version'")).fetchone()
            assert row is not None and json.loads(row[0]) == 1
    asyncio.run(main())


# ----- the social layer and card sets, in both stores --------------------------------------------
def test_members_chat_open_seats_clocks_and_card_sets_are_kept(db: str) -> None:
    from takujo.web.store import CardSet
    from takujo.web.store.base import CHAT_KEPT

    async def body(store: Store) -> None:
        seats = [{"kind": "human", "bot": None, "token_hash": "ab" * 32, "stand_in": None, "name": "Hanako"},
                 {"kind": "human", "bot": None, "token_hash": "cd" * 32, "stand_in": None, "name": None}]
        await store.add_match(make("m1", created=10.0, seats=seats, listed=True,
                                   clocks={"rules": {"kind": "realtime"}, "left": [300.0, 300.0], "since": [None, None]}))
        await store.add_match(make("m2", created=11.0, seats=seats, listed=False))
        assert [h.id for h in await store.list_matches(status="open")] == ["m1"]      # listed, a seat nobody took
        head = await store.head("m1")
        assert head is not None and head.listed and head.clocks["left"] == [300.0, 300.0]
        taken = [dict(s, name="Jiro") for s in seats]
        await store.set_seats("m1", head.revision, taken, bot_turn=False,
                              clocks={"rules": {"kind": "realtime"}, "left": [290.0, 300.0], "since": [None, 5.0]})
        assert await store.list_matches(status="open") == []
        assert (await store.head("m1")).clocks["since"] == [None, 5.0]
        await store.add_member("p1", "m1", -1)
        await store.add_member("p1", "m1", 0)
        await store.add_member("p1", "m1", 0)                                            # twice: once
        await store.add_member("p1", "m2", 1)
        assert [h.id for h in await store.player_matches("p1")] == ["m2", "m1"]
        assert await store.member_seats("p1", "m1") == {-1, 0} and await store.player_matches("p2") == []
        first = await store.add_chat("m1", "players", 0, "Hanako", "hello")
        second = await store.add_chat("m1", "spectators", None, "", "psst")
        assert (first.n, second.n) == (1, 2)
        assert [(c.n, c.channel, c.seat, c.text) for c in await store.chat("m1")] == \
            [(1, "players", 0, "hello"), (2, "spectators", None, "psst")]
        assert [c.n for c in await store.chat("m1", after=1)] == [2]
        for i in range(CHAT_KEPT + 3):
            await store.add_chat("m2", "players", 0, "x", str(i))
        kept = await store.chat("m2")
        assert len(kept) == CHAT_KEPT and kept[-1].text == str(CHAT_KEPT + 2)           # the latest only
        name = "set:" + "e" * 64
        for owner, title in (("p1", "mine"), ("p2", "theirs"), ("p1", "again")):
            await store.add_card_set(CardSet(name, "fuutei", "cards", title, "text", 4, 1.0, owner))
        assert (await store.card_set(name)).text == "text" and await store.count_card_sets() == 1
        assert [c.title for c in await store.card_sets("p1")] == ["mine"]                 # once an owner
        assert [c.title for c in await store.card_sets("p2")] == ["theirs"]
        assert await store.card_set("set:" + "f" * 64) is None
    run(db, body)
