"""What the server keeps of its matches, behind one interface with two implementations:
SQLite (embedded, one server process) and PostgreSQL (several server processes).

A match is its header (game string, seed, seats) and its list of actions: the record is the
source of truth. Snapshots of the state every `SNAPSHOT_EVERY` steps only make loading and
undo cheap; they are derived from the actions and may be dropped.

Every change of a match raises its *revision* by one, and every change names the revision it
was made on: a change made on a stale revision raises `Conflict` and writes nothing. This is
how several processes share one match without a lock held across a request: the process whose
copy is stale reads the match again. A shared store announces each change to the other
processes as it commits (an action with its notation, so that they apply it without reading
the store), and they catch up and tell their sockets.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, ClassVar, Literal, Sequence

#: A snapshot of the state is stored every this many steps; a match keeps its latest two
#: (undo right after a snapshot needs the one before), so its storage does not grow with them.
SNAPSHOT_EVERY = 50

Status = Literal["running", "finished", "open"]   # open: running, listed, with a seat nobody took

#: Chat lines kept per match (older ones are dropped as new ones come).
CHAT_KEPT = 500


class StoreError(Exception):
    """The database failed or could not be reached; the message is safe to show."""


class Conflict(Exception):
    """The match changed in the store since this copy of it was read (or is not there)."""


@dataclass
class MatchHead:
    """A match's header as stored: everything but its actions."""

    id: str
    game: str
    seed: int
    seats: list[dict[str, Any]]
    idle_limit: float | None
    created: float
    finished: float | None = None
    outcome: dict[str, Any] | None = None
    rematch_of: str | None = None
    rematch: str | None = None
    steps: int = 0            # how many actions it has (its state's version)
    revision: int = 0         # grows with every change: an action, an undo, a seat handed over
    undos: int = 0            # how many actions were taken back, ever
    bot_turn: bool = False    # a bot is to act (the bots' owner has work to do)
    listed: bool = True       # its open seats are offered in the lobby (else: invite links only)
    clocks: dict[str, Any] | None = None   # the seats' clocks (`takujo.web.clocks.Clocks`), if it has any

    @property
    def status(self) -> Status:
        return "finished" if self.finished is not None else "running"


def open_seats(seats: list[dict[str, Any]]) -> int:
    """How many of these stored seats are a person's that nobody has taken (given a name) yet."""
    return sum(1 for s in seats if s.get("kind") == "human" and not s.get("name"))


@dataclass
class ChatLine:
    """One chat message of a match: on the players' channel (seated players write, everyone
    reads) or the spectators' (only spectators write and read)."""

    n: int                    # its number in the match's chat (from 1)
    channel: str              # "players" | "spectators"
    seat: int | None          # the writer's seat (None: a spectator)
    name: str                 # the writer's name as shown
    text: str
    at: float

    def to_json(self) -> dict[str, Any]:
        return {"n": self.n, "channel": self.channel, "seat": self.seat, "name": self.name, "text": self.text,
                "at": self.at}


@dataclass
class StoredMatch(MatchHead):
    """A match as loaded: its header, the latest snapshot (if any) and the actions after it."""

    snapshot: tuple[int, dict[str, Any]] | None = None   # (step, state JSON)
    actions: list[tuple[int, str]] = field(default_factory=list)  # (player, notation) from the snapshot's step

    @property
    def first_step(self) -> int:
        """The step of the first action in `actions`."""
        return self.snapshot[0] if self.snapshot else 0


@dataclass
class CardSet:
    """A card set uploaded from a browser: a card file's text for one option of one game,
    kept by its name (``set:`` and the SHA-256 of the text)."""

    name: str
    game: str                 # the game's name
    option: str               # the option it is given to (cards, content, board)
    title: str                # what the uploader called it
    text: str                 # "" when listed without it
    size: int                 # bytes of the text
    created: float
    owner: str | None = None  # the uploader's player key hash

    def to_json(self, with_text: bool = False) -> dict[str, Any]:
        out = {"set": self.name, "game": self.game, "option": self.option, "title": self.title,
               "size": self.size, "created": self.created}
        if with_text:
            out["text"] = self.text
        return out


def card_set_of(row: Sequence[Any]) -> CardSet:
    """A card set from a row of (name, game, option, title, text, size, created, owner)."""
    return CardSet(name=str(row[0]), game=str(row[1]), option=str(row[2]), title=str(row[3]), text=str(row[4]),
                   size=int(row[5]), created=float(row[6]), owner=str(row[7]) if row[7] else None)


def match_list_sql(columns: str, mark: str, *, status: Status | None, game: str | None, limit: int,
                   before: tuple[float, str] | None) -> tuple[str, tuple[Any, ...]]:
    """The query of `Store.list_matches` in SQL both stores speak, with `mark` as the
    placeholder (``?`` or ``%s``), and its arguments."""
    where: list[str] = []
    args: list[Any] = []
    if status == "running":
        where.append("finished IS NULL")
    elif status == "open":
        where.append("finished IS NULL AND listed AND open_seats > 0")
    elif status == "finished":
        where.append("finished IS NOT NULL")
    if game:  # the game's name alone, or with options: fuutei, fuutei(players=3)
        where.append(f"(game = {mark} OR substr(game, 1, {mark}) = {mark})")
        args += [game, len(game) + 1, f"{game}("]
    if before is not None:
        where.append(f"(created < {mark} OR (created = {mark} AND id < {mark}))")
        args += [before[0], before[0], before[1]]
    sql = (f"SELECT {columns} FROM matches {'WHERE ' + ' AND '.join(where) if where else ''} "
           f"ORDER BY created DESC, id DESC LIMIT {mark}")
    return sql, (*args, limit)


#: An action as announced: (step, player, notation).
Announced = tuple[int, int, str]
#: Called with (match id, revision, the action if the change was one) when another process
#: changed a match.
Listener = Callable[[str, int, "Announced | None"], Awaitable[None]]


class Store(ABC):
    """The server's storage; every method is a coroutine of the server's event loop."""

    #: Whether other server processes may share this store (their changes are announced).
    shared: ClassVar[bool] = False

    async def open(self) -> None:
        """Connect and create the tables if they are missing."""

    @abstractmethod
    async def close(self) -> None:
        """Close every connection (after `open`, once)."""

    @abstractmethod
    async def ping(self) -> None:
        """Raise if the store cannot be reached (for /healthz)."""

    # ----- settings -----------------------------------------------------------------------
    @abstractmethod
    async def meta(self, key: str, default: Callable[[], str]) -> str:
        """A server setting, made with `default` (and stored) the first time any process asks."""

    # ----- matches --------------------------------------------------------------------------
    @abstractmethod
    async def add_match(self, head: MatchHead) -> None:
        """Store a new match (no actions yet)."""

    @abstractmethod
    async def add_rematch(self, head: MatchHead) -> str:
        """Store `head` as the rematch of ``head.rematch_of`` unless that match has one already;
        the id of the rematch that stands (this one, or the one made first)."""

    @abstractmethod
    async def load(self, match_id: str) -> StoredMatch | None:
        """The match with its latest snapshot and the actions after it; None if unknown."""

    @abstractmethod
    async def head(self, match_id: str) -> MatchHead | None:
        """The match's header only."""

    @abstractmethod
    async def actions(self, match_id: str, start: int, end: int | None = None) -> list[tuple[int, str]]:
        """The actions of steps `start` ≤ n < `end` (all from `start` without `end`)."""

    @abstractmethod
    async def snapshot(self, match_id: str, at_most: int) -> tuple[int, dict[str, Any]] | None:
        """The latest snapshot at a step ≤ `at_most`, if any."""

    @abstractmethod
    async def add_action(self, match_id: str, revision: int, n: int, player: int, notation: str, *,
                         bot_turn: bool, outcome: dict[str, Any] | None = None,
                         snapshot: dict[str, Any] | None = None, clocks: dict[str, Any] | None = None) -> int:
        """Commit action `n` on `revision` (with the outcome if it ended the game, the clocks
        after it when the match has clocks, and the
        state after it as a snapshot when given, dropping snapshots older than the one
        before it); the new revision. `Conflict` if the match is
        no longer at `revision`: nothing is written."""

    @abstractmethod
    async def remove_last_action(self, match_id: str, revision: int, n: int, *, bot_turn: bool) -> int:
        """Undo: forget action `n`, the last one (and any snapshot after it); the new revision."""

    @abstractmethod
    async def set_seats(self, match_id: str, revision: int, seats: list[dict[str, Any]], *, bot_turn: bool,
                        clocks: dict[str, Any] | None = None) -> int:
        """Store who plays each seat (and the clocks, when given); the new revision."""

    @abstractmethod
    async def list_matches(self, *, status: Status | None = None, game: str | None = None, limit: int = 50,
                           before: tuple[float, str] | None = None) -> list[MatchHead]:
        """Matches newest first, filtered, at most `limit`, starting after the (created, id)
        position `before`."""

    @abstractmethod
    async def add_member(self, player: str, match_id: str, seat: int) -> None:
        """Link a player (the hash of a browser's player key) to a match: a seat it took, or
        -1 for the match it created. Linking twice changes nothing."""

    @abstractmethod
    async def member_seats(self, player: str, match_id: str) -> set[int]:
        """The seats a player took in a match (-1 among them if it created the match)."""

    @abstractmethod
    async def player_matches(self, player: str, limit: int = 50) -> list[MatchHead]:
        """The matches a player is linked to, newest first."""

    @abstractmethod
    async def add_chat(self, match_id: str, channel: str, seat: int | None, name: str, text: str) -> ChatLine:
        """Keep a chat line (numbered after the match's last; only the latest `CHAT_KEPT` stay)."""

    @abstractmethod
    async def chat(self, match_id: str, after: int = 0, limit: int = CHAT_KEPT) -> list[ChatLine]:
        """The match's chat lines numbered above `after`, oldest first."""

    @abstractmethod
    async def add_card_set(self, card_set: "CardSet") -> None:
        """Keep an uploaded card set (by its name, the hash of its text; keeping it twice
        changes nothing)."""

    @abstractmethod
    async def card_set(self, name: str) -> "CardSet | None":
        """An uploaded card set by its name."""

    @abstractmethod
    async def card_sets(self, owner: str | None = None, limit: int = 100) -> list["CardSet"]:
        """Uploaded card sets, newest first (an owner's only, when given), without their texts."""

    @abstractmethod
    async def count_card_sets(self) -> int:
        """How many card sets are kept."""

    @abstractmethod
    async def count_matches(self) -> dict[str, int]:
        """How many matches are stored, by status."""

    @abstractmethod
    async def bot_turn_matches(self, limit: int = 1000, quiet_for: float = 0.0) -> list[str]:
        """Running matches where a bot is to act and nothing changed for `quiet_for` seconds
        (for taking over a dead process's bots)."""

    @abstractmethod
    async def revisions(self, match_ids: list[str]) -> dict[str, int]:
        """The current revision of each of these matches (those that exist)."""

    # ----- several processes ----------------------------------------------------------------
    async def claim(self, match_id: str) -> bool:
        """Whether this process may run the match's bots (it holds the match until `release`
        or until it dies). One process: always."""
        return True

    async def release(self, match_id: str) -> None:
        """Give up running the match's bots."""

    async def publish(self, match_id: str, revision: int, action: Announced | None = None) -> None:
        """Tell the other processes that the match is at `revision` now (a shared store
        announces every change it commits by itself, in the change's own transaction)."""

    def subscribe(self, listener: Listener) -> None:
        """Call `listener` for every change another process publishes."""
