"""The server's storage: `open_store` picks SQLite for a file path and PostgreSQL for a
``postgresql://`` address (`takujo serve --db`)."""
from __future__ import annotations

from pathlib import Path

from .base import SNAPSHOT_EVERY, CardSet, ChatLine, Conflict, MatchHead, Store, StoredMatch, StoreError
from .sqlite import SQLiteStore

__all__ = ["SNAPSHOT_EVERY", "CardSet", "ChatLine", "Conflict", "StoreError", "MatchHead", "Store", "StoredMatch", "SQLiteStore", "open_store",
           "is_postgres"]


def is_postgres(db: str | Path) -> bool:
    """Whether `db` names a PostgreSQL database rather than a SQLite file."""
    return isinstance(db, str) and db.startswith(("postgresql://", "postgres://"))


def open_store(db: str | Path) -> Store:
    """The store that `db` names (not yet opened: ``await store.open()``)."""
    if is_postgres(db):
        from .postgres import PostgresStore
        return PostgresStore(str(db))
    return SQLiteStore(db)
