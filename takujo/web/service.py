"""The server's matches: creating them, acting in them, undo, stand-in bots, and pushing each
watcher its own state after every change.

Matches live in the store; a process holds in memory only those in use (`MatchCache`) and
loads the others on demand. Every accepted action is committed to the store before anyone
hears of it, on the revision this process last saw: if another process changed the match in
between, the store refuses it, this process catches up and the client hears the action is
stale. Changes made by other processes are announced by the store (`Store.subscribe`) and
pushed to this process's sockets.

Everything runs on the event loop except bot thinking (worker threads for the cheap bots,
worker processes for IS-MCTS, both shared fairly among matches by `FairScheduler`). One
process at a time runs a match's bots (`Store.claim`); when it dies another takes them over.
"""
from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import secrets
import time
import uuid
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable

from ..core.errors import IllegalActionError, OptionError, StaleActionError, TakujoError
from ..core.game import Game, parse_game_string
from ..core.registry import make_game
from ..core.rng import Rng
from ..core.state import State
from .checks import MATCH_ID, client_game
from .cardsets import CardSets
from .chat import Chat
from .clocks import ClockRules, Clocks
from .match import Match, remember, token_hash
from .payload import history_payload, state_payload
from .people import People, seat_token
from .scheduler import FairScheduler
from .settings import Settings
from .store import SNAPSHOT_EVERY, Conflict, MatchHead, Store, StoredMatch
from .store.base import Announced
from .thinking import CHEAP_BOTS, INLINE_BOTS, bot_seed, think, worker_started

log = logging.getLogger("takujo.web")

#: Seats a match may have at most.
MAX_SEATS = 8
#: How often idle matches are looked for (seconds).
SWEEP_EVERY = 5.0
#: How often seats that just passed their idle limit are offered to the others (seconds).
OFFER_EVERY = 1.0
#: With several processes, a match where a bot is to act and nothing changed for this many
#: seconds is tried for a take-over (its owner may have died).
STALLED_AFTER = 3.0


class Forbidden(TakujoError):
    """A missing or wrong token, or a seat that may not do this."""


class NotFound(TakujoError):
    """No such match (or seat)."""


def player_seat(match: Match, token: str | None) -> int:
    """The seat whose token this is; `Forbidden` without one or with a wrong one."""
    seat = match.seat_of(token)
    if seat is None:
        raise Forbidden("web.bad_token")
    return seat


def viewer_seat(match: Match, token: str | None) -> int | None:
    """The token's seat, or None (a spectator) without a token; `Forbidden` for a wrong one."""
    return player_seat(match, token) if token else None


@dataclass(eq=False)
class Watcher:
    """One open WebSocket: its seat (None: a spectator), language and event cursor."""

    seat: int | None
    lang: str
    send: Callable[[dict[str, Any]], Awaitable[None]]
    token: str | None = None
    cursor: int | None = None
    address: str = ""
    chat_seen: int = 0                 # the last chat line sent
    state_due: bool = True             # the match changed since the last state sent
    #: Set when the match changed: the watcher's sender sends one state for all changes
    #: since its last (a slow client never holds up the match, and gets fewer, fuller states).
    wake: asyncio.Event = field(default_factory=asyncio.Event)


class MatchService:
    """The matches of one server process: those in use in memory, all of them in the store."""

    def __init__(self, store: Store, settings: Settings | None = None, metrics: Any = None) -> None:
        self.store = store
        self.settings = settings or Settings()
        self.metrics = metrics
        self.matches: dict[str, Match] = {}           # in memory, least recently used first
        self.watchers: dict[str, set[Watcher]] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.notices: dict[str, list[dict[str, Any]]] = {}
        self.claimed: set[str] = set()                 # matches whose bots this process runs
        self._drivers: dict[str, asyncio.Task[None]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        workers = self.settings.bot_workers or max(2, (os.cpu_count() or 2) - 1)
        self._threads = FairScheduler(ThreadPoolExecutor(max_workers=4, thread_name_prefix="takujo-bot"), 4)
        self._workers = workers
        self._processes: FairScheduler | None = None
        self._secret = b""
        self._levels: dict[str, list[str]] = {}
        self._counters: dict[str, Any] = {}
        self._configurations: dict[str, Game] = {}
        self.people = People(self)
        self.cardsets = CardSets(self)
        self.chat = Chat(self)
        self.closed = False

    # ----- start and stop ---------------------------------------------------------------
    async def start(self) -> None:
        """Open the store, start the bots of the matches where a bot is to act, and the
        background sweeps."""
        await self.store.open()
        self._secret = bytes.fromhex(await self.store.meta("secret", lambda: secrets.token_hex(32)))
        self.store.subscribe(self._changed_elsewhere)
        loop = asyncio.get_running_loop()
        self._tasks.append(loop.create_task(self._sweep_idle()))
        resumed = await self._take_over()
        if resumed:
            log.warning("resumed the bots of %d matches", resumed)
        if self.store.shared:
            self._tasks.append(loop.create_task(self._sweep_stalled()))

    async def close(self) -> None:
        self.closed = True
        tasks = [*self._drivers.values(), *self._tasks]
        for task in tasks:
            task.cancel()
        for task in tasks:
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass
        self._threads.executor.shutdown(wait=False, cancel_futures=True)
        if self._processes is not None:
            self._processes.executor.shutdown(wait=False, cancel_futures=True)
        await self.store.close()

    # ----- the matches in memory ----------------------------------------------------------
    async def get(self, match_id: str) -> Match:
        """The match, from memory or loaded from the store; `NotFound` if there is none."""
        if not isinstance(match_id, str) or not MATCH_ID.fullmatch(match_id):
            raise NotFound("web.no_match", match=str(match_id)[:40])
        match = self.matches.get(match_id)
        if match is None:
            lock = self.locks.setdefault(match_id, asyncio.Lock())
            async with lock:
                match = self.matches.get(match_id)
                if match is None:
                    stored = await self.store.load(match_id)
                    if stored is None:
                        self.locks.pop(match_id, None)
                        raise NotFound("web.no_match", match=match_id)
                    await self.cardsets.ensure(parse_game_string(stored.game)[1])   # its uploaded card sets
                    match = Match(stored)
                    self._hold(match)
        else:
            self.matches[match_id] = self.matches.pop(match_id)  # most recently used last
        match.touched = time.monotonic()
        return match

    def _hold(self, match: Match) -> None:
        self.matches[match.id] = match
        self.watchers.setdefault(match.id, set())
        self.locks.setdefault(match.id, asyncio.Lock())
        self.notices.setdefault(match.id, [])
        self._gauge()
        if len(self.matches) > self.settings.limits.live_matches:
            for old in list(self.matches.values()):
                if len(self.matches) <= self.settings.limits.live_matches:
                    break
                if old is not match and self._idle(old):
                    self._drop(old.id)

    def _idle(self, match: Match) -> bool:
        """Nobody watches it and no bot of this process is thinking for it."""
        driver = self._drivers.get(match.id)
        lock = self.locks.get(match.id)
        return not self.watchers.get(match.id) and (driver is None or driver.done()) \
            and not (lock is not None and lock.locked())

    def _drop(self, match_id: str) -> None:
        """Forget a match in memory (the store keeps it)."""
        self.matches.pop(match_id, None)
        self.watchers.pop(match_id, None)
        self.locks.pop(match_id, None)
        self.notices.pop(match_id, None)
        self.chat.forget(match_id)
        self._drivers.pop(match_id, None)
        self._threads.forget(match_id)
        if self._processes is not None:
            self._processes.forget(match_id)
        if match_id in self.claimed:
            self.claimed.discard(match_id)
            asyncio.get_running_loop().create_task(self.store.release(match_id))
        self._gauge()

    def _gauge(self) -> None:
        if self.metrics is not None:
            self.metrics.live_matches.set(len(self.matches))

    def drop_idle(self) -> int:
        """Let the matches nobody used for a while leave memory (finished ones sooner); how many left."""
        limits = self.settings.limits
        now = time.monotonic()
        dropped = 0
        for match in list(self.matches.values()):
            wait = limits.finished_seconds if match.status == "finished" else limits.idle_seconds
            if now - match.touched >= wait and self._idle(match):
                self._drop(match.id)
                dropped += 1
        return dropped

    async def _sweep_idle(self) -> None:
        while not self.closed:
            for _ in range(int(SWEEP_EVERY / OFFER_EVERY)):
                await asyncio.sleep(OFFER_EVERY)
                self.offer_take_overs()
            self.drop_idle()

    def offer_take_overs(self) -> int:
        """Push a new state to the watchers of every match where a seat has just become one
        the others may hand to a bot (so that the button appears without a reload)."""
        now, pushed = time.time(), 0
        for match_id, watchers in self.watchers.items():
            match = self.matches.get(match_id)
            if match is None or (match.idle_limit is None and not match.clocks.on) or not watchers:
                continue
            offered = frozenset(i for i in match.to_act() if match.may_take_over(i, now))
            if offered != match.offered:
                match.offered = offered
                self.notify(match)
                pushed += 1
        for match in list(self.matches.values()):   # out of time past the grace period: a bot takes over
            if match.clocks.on and match.status == "running" and not (self.store.shared and match.id not in self.claimed):
                for seat in match.to_act():
                    if match.may_take_over(seat, now) and match.clocks.past_grace(seat, now) and seat not in match.handing:
                        match.handing.add(seat)
                        asyncio.get_running_loop().create_task(self._time_out(match, seat))
        return pushed

    async def _time_out(self, match: Match, seat: int) -> None:
        """Hand a seat that ran out of time past the grace period to a bot."""
        try:
            async with self.locks[match.id]:
                if match.may_take_over(seat) and match.clocks.past_grace(seat, time.time()):
                    await self._hand_to_bot(match, seat)
            self.notify(match)
            self._drive(match)
        except (Conflict, TakujoError) as exc:
            log.info("match %s: seat %d out of time, not handed over (%s)", match.id, seat, type(exc).__name__)
        finally:
            match.handing.discard(seat)

    # ----- creating ---------------------------------------------------------------------
    def check_seats(self, game_name: str, seats: object) -> list[str]:
        """The seats of a new match: each 'human' or 'bot:LEVEL' with a level this server offers."""
        if not isinstance(seats, list) or not seats or len(seats) > MAX_SEATS:
            raise OptionError("web.seat_count", limit=MAX_SEATS)
        levels = self.bot_levels(game_name)
        for i, kind in enumerate(seats):
            if kind == "human":
                continue
            if not isinstance(kind, str) or not kind.startswith("bot:"):
                raise OptionError("web.seat_kind", seat=i, kind=str(kind)[:40])
            if kind[4:] not in levels:
                raise OptionError("web.bot_level", level=kind[4:40], levels=levels)
        return seats

    def bot_levels(self, game_name: str) -> list[str]:
        """The bot levels this server offers for a game (those the game has)."""
        known = self._levels.get(game_name)
        if known is None:
            known = list(self.settings.bot_levels)
            if "heuristic" in known:
                try:
                    make_game(game_name, None, {}).heuristic_bot()
                except (NotImplementedError, TakujoError):
                    known.remove("heuristic")
            self._levels[game_name] = known
        return list(known)

    async def create(self, spec: str, seats: list[str], seed: int | None = None, idle_limit: float | None = None,
                     rematch_of: str | None = None, *, listed: bool = False, creator: str | None = None,
                     names: dict[int, str] | None = None, clock: ClockRules | None = None) -> tuple[Match, dict[int, str]]:
        """A new match and the tokens of its human seats (derived, never stored). `listed`:
        its open seats are offered in the lobby; `creator`: the creator's player key hash;
        `names`: seats already taken (by the creator, or the same people in a rematch);
        `clock`: how the seats' clocks run (default: no clocks)."""
        name, opts = client_game(spec)
        await self.cardsets.ensure(opts)
        seats = self.check_seats(name, seats)
        opts = {**opts, "players": str(len(seats))} if "players" not in opts else opts
        if seed is None:
            seed = secrets.randbelow(1_000_000)
        game = self._configured(name, None, opts)
        if game.players != len(seats):
            raise OptionError("web.seats_players", seats=len(seats), players=game.players)
        game = self._configured(name, game.players, type(game).choose_options({**opts, "players": game.players},
                                                                             Rng(seed).fork()))
        if idle_limit is not None and not 10 <= idle_limit <= 7 * 24 * 3600:
            raise OptionError("web.idle_limit")
        stored_seats, tokens = [], {}
        match_id = uuid.uuid4().hex[:12]
        names = names or {}
        for i, kind in enumerate(seats):
            if kind == "human":
                token = tokens[i] = seat_token(self._secret, match_id, i)
                stored_seats.append({"kind": "human", "bot": None, "token_hash": token_hash(token), "stand_in": None,
                                     "name": names.get(i), "owner": creator if i in names and creator else None})
            else:
                stored_seats.append({"kind": "bot", "bot": kind[4:], "token_hash": None, "stand_in": None})
        stored = StoredMatch(id=match_id, game=str(game), seed=seed, seats=stored_seats,
                             idle_limit=idle_limit, created=time.time(), rematch_of=rematch_of, listed=listed,
                             clocks=Clocks.start(clock, len(seats)).to_json() if clock is not None else None)
        match = Match(stored)
        stored.bot_turn = match.bot_turn()
        if rematch_of is not None:
            winner = await self.store.add_rematch(stored)
            if winner != match_id:
                return await self.get(winner), {}
        else:
            await self.store.add_match(stored)
        if creator is not None:
            await self.store.add_member(creator, match_id, -1)
            for i in names:
                await self.store.add_member(creator, match_id, i)
        self._hold(match)
        self._drive(match)
        return match, tokens

    def default_game(self, name: str) -> Game:
        """A game with its default options (kept)."""
        return self._configured(name, None, {})

    def _configured(self, name: str, players: int | None, options: dict[str, Any]) -> Game:
        """`make_game`, once for each configuration (kept for `game_of` too)."""
        key = f"{name}|{players}|{sorted((k, str(v)) for k, v in options.items())!r}"
        game = self._configurations.get(key)
        if game is None:
            game = self._configurations[key] = remember(make_game(name, players, options))
            while len(self._configurations) > 64:
                self._configurations.pop(next(iter(self._configurations)))
        return game

    @property
    def secret(self) -> bytes:
        """The server's secret (the seats' tokens are derived from it)."""
        return self._secret

    async def rematch(self, old_id: str, token: str | None) -> tuple[Match, int, str]:
        """The rematch of a finished match (made by the first player who asks, in any
        process), with the caller's seat and new token."""
        old = await self.get(old_id)
        seat = player_seat(old, token)
        if old.status != "finished":
            raise OptionError("web.rematch_running")
        if old.rematch is None:
            kinds = ["human" if s.kind == "human" else f"bot:{s.bot}" for s in old.seats]
            new, _ = await self.create(str(old.game), kinds, rematch_of=old.id, listed=old.listed,
                                       names={i: s.name for i, s in enumerate(old.seats) if s.name},
                                       clock=old.clocks.rules if old.clocks.on else None)
            old.rematch = new.id
        new = await self.get(old.rematch)
        for i, s in enumerate(old.seats):  # the same people hold the same seats
            if s.owner is not None and s.kind == "human":
                await self.store.add_member(s.owner, new.id, i)
        return new, seat, seat_token(self._secret, new.id, seat)

    # ----- reading ----------------------------------------------------------------------
    def payload(self, match: Match, seat: int | None, lang: str, since: int | None = None) -> dict[str, Any]:
        out = state_payload(match, seat, lang, since)
        out["notices"] = [self._notice_text(match, n, lang, seat) for n in self.notices.get(match.id, [])[-8:]]
        return out

    def history(self, match: Match, seat: int | None, lang: str, before: int, limit: int) -> dict[str, Any]:
        """A page of the seat's older events (for a client filling in the whole log)."""
        return history_payload(match, seat, lang, before, limit)

    def _notice_text(self, match: Match, notice: dict[str, Any], lang: str, viewer: int | None) -> dict[str, Any]:
        """A notice for `viewer`: "You took back an action" for the one it is about."""
        r = match.renderer(lang)
        msg_id = f"ui.web.notice.{notice['kind']}"
        return {**notice, "text": r.text(msg_id, viewer, player=notice["seat"]) if r.has(msg_id) else notice["kind"]}

    def add_notice(self, match: Match, kind: str, seat: int, **extra: Any) -> None:
        """Something happened to a seat outside the game (shown among the events, at `seq`:
        the number of events logged before it)."""
        notices = self.notices.setdefault(match.id, [])
        notices.append({"kind": kind, "seat": seat, "at": time.time(), "seq": len(match.state.log), **extra})
        del notices[:-16]

    # ----- acting -----------------------------------------------------------------------
    async def act(self, match_id: str, token: str | None, notation: str, version: int | None) -> tuple[Match, int]:
        """Check and apply a person's action; commit it; tell everyone. Raises `Forbidden`,
        `StaleActionError` or `IllegalActionError` and changes nothing."""
        match = await self.get(match_id)
        seat = player_seat(match, token)
        if not isinstance(notation, str) or len(notation) > 200:
            raise IllegalActionError("web.bad_action")
        async with self.locks[match.id]:
            for attempt in range(3):
                s = match.seats[seat]
                if s.stand_in:  # the player is back: they take the seat over from the bot
                    await self._return_seat(match, seat)
                action = match.check_action(seat, notation, version)
                try:
                    await self._commit(match, seat, action)
                    break
                except Conflict:  # another process changed the match: catch up, check again
                    await self.catch_up(match)
                    if version is not None:
                        raise StaleActionError("action.stale", chosen=version, current=match.state.version) from None
            else:
                raise StaleActionError("action.stale", chosen=match.state.version, current=match.state.version)
        self._count_action("person")
        self.notify(match)     # at once: the person sees their action taken, and the turn pass
        self._drive(match)
        return match, seat

    async def _commit(self, match: Match, seat: int, action: Any) -> None:
        """Apply a checked action and commit it (on the revision this process saw); the
        match is as before if the store refuses it."""
        n = match.state.version
        match.apply(seat, action)
        outcome = match.state.outcome.to_json() if match.state.outcome is not None else None
        snapshot = match.state.to_json(copy_log=False) if (n + 1) % SNAPSHOT_EVERY == 0 else None
        try:
            revision = await self.store.add_action(match.id, match.revision, n, seat, str(action),
                                                   bot_turn=match.bot_turn(), outcome=outcome, snapshot=snapshot,
                                                   clocks=match.clocks.to_json())
        except BaseException:
            await self._reload(match)  # the store is the truth: this copy applied an uncommitted action
            raise
        match.committed(revision)
        if outcome is not None and match.id in self.claimed:
            self.claimed.discard(match.id)
            await self.store.release(match.id)

    def _count_action(self, by: str) -> None:
        if self.metrics is not None:
            counter = self._counters.get(by)
            if counter is None:
                counter = self._counters[by] = self.metrics.actions.labels(by=by)
            counter.inc()

    async def undo(self, match_id: str, token: str | None) -> Match:
        match = await self.get(match_id)
        seat = player_seat(match, token)
        async with self.locks[match.id]:
            if not match.can_undo(seat):
                raise IllegalActionError("web.no_undo")
            before = await self._state_before_last(match)
            bot_turn = any(match.seats[p].player for p in (before.pending.players if before.pending else ()))
            try:
                revision = await self.store.remove_last_action(match.id, match.revision, match.state.version - 1,
                                                               bot_turn=bot_turn)
            except Conflict:
                await self.catch_up(match)
                raise IllegalActionError("web.no_undo") from None
            match.undo_to(before)
            match.committed(revision)
            self.add_notice(match, "undo", seat, version=match.state.version)
        self.notify(match)
        return match

    async def _reload(self, match: Match) -> None:
        """Read the match again from the store; if even that fails, forget it here (the next
        request loads it)."""
        try:
            stored = await self.store.load(match.id)
        except Exception:
            stored = None
        if stored is None:
            self._drop(match.id)
        else:
            match.reset(stored)

    async def _state_before_last(self, match: Match) -> State:
        """The state before the match's last action, from the latest snapshot before it and
        the actions after (at most `SNAPSHOT_EVERY`)."""
        target = match.state.version - 1
        snap = await self.store.snapshot(match.id, target)
        state = match.game.state_from_json(snap[1]) if snap else match.game.new_state(match.seed)
        for player, notation in await self.store.actions(match.id, state.version, target):
            state.apply(notation, player)
        return state

    async def stand_in(self, match_id: str, token: str | None, seat: int) -> Match:
        """Another player hands an idle person's seat to a bot."""
        match = await self.get(match_id)
        asker = player_seat(match, token)
        if not 0 <= seat < len(match.seats) or asker == seat:
            raise Forbidden("web.bad_seat")
        async with self.locks[match.id]:
            if not match.may_take_over(seat):
                raise IllegalActionError("web.not_idle")
            await self._hand_to_bot(match, seat)
        self.notify(match)
        self._drive(match)
        return match

    async def _hand_to_bot(self, match: Match, seat: int) -> None:
        """A stand-in bot (the game's heuristic, else random) plays a person's seat (under the match's lock)."""
        try:
            match.game.heuristic_bot()
            bot = "heuristic"
        except NotImplementedError:
            bot = "random"
        match.seats[seat].stand_in = bot
        try:
            await self.save_seats(match)
        except Conflict:
            match.seats[seat].stand_in = None
            await self.catch_up(match)
            raise
        self.add_notice(match, "stand_in", seat)

    async def take_back(self, match_id: str, token: str | None) -> Match:
        """A person takes their seat back from the stand-in bot."""
        match = await self.get(match_id)
        seat = player_seat(match, token)
        async with self.locks[match.id]:
            if match.seats[seat].stand_in:
                await self._return_seat(match, seat)
        self.notify(match)
        return match

    async def _return_seat(self, match: Match, seat: int) -> None:
        bot = match.seats[seat].stand_in
        match.seats[seat].stand_in = None
        try:
            await self.save_seats(match)
        except Conflict:
            match.seats[seat].stand_in = bot
            await self.catch_up(match)
            raise StaleActionError("action.stale", chosen=match.state.version, current=match.state.version) from None
        match.seats[seat].waiting_since = time.time()
        self.add_notice(match, "returned", seat)

    async def save_seats(self, match: Match) -> None:
        match.run_clocks()   # a stand-in's moves cost the person no time
        revision = await self.store.set_seats(match.id, match.revision, [s.stored() for s in match.seats],
                                              bot_turn=match.bot_turn(), clocks=match.clocks.to_json())
        match.committed(revision)

    # ----- other processes' changes ---------------------------------------------------------
    async def catch_up(self, match: Match) -> None:
        """Bring this process's copy of the match up to the store's (under its lock)."""
        head = await self.store.head(match.id)
        if head is None:
            return
        if head.undos != match.undos or head.steps < match.state.version:
            await self._reload(match)
            return
        match.catch_up(head, await self.store.actions(match.id, match.state.version, head.steps))

    async def _changed_elsewhere(self, match_id: str, revision: int, action: Announced | None = None) -> None:
        """Another process changed a match: catch up if it is in memory here (with the
        announced action alone when it is the one change missing), tell its watchers, and run
        its bots if this process owns them."""
        match = self.matches.get(match_id)
        if match is None:
            return
        if match.revision >= revision:
            if action is None:   # a change besides the game's (a chat line)
                await self.chat.refresh(match_id)
            return
        lock = self.locks.get(match_id)
        if lock is None:
            return
        async with lock:
            if match.revision == revision - 1 and action is not None and action[0] == match.state.version:
                try:
                    match.catch_up_action(action[1], action[2], revision)
                except TakujoError:
                    await self.catch_up(match)
            elif match.revision < revision:
                await self.catch_up(match)
        self.notify(match)
        self._drive(match)

    # ----- watchers ---------------------------------------------------------------------
    def watch(self, match: Match, watcher: Watcher) -> None:
        self.watchers.setdefault(match.id, set()).add(watcher)
        if watcher.seat is not None:
            seat = match.seats[watcher.seat]
            seat.connections += 1
            if seat.opened_at is None:
                seat.opened_at = time.time()
                match.run_clocks()

    def unwatch(self, match: Match, watcher: Watcher) -> None:
        watchers = self.watchers.get(match.id)
        if watchers is not None and watcher in watchers:
            watchers.discard(watcher)
            if watcher.seat is not None:
                match.seats[watcher.seat].connections -= 1
        match.touched = time.monotonic()
        self.notify(match)

    def seat_sockets(self, match: Match, seat: int) -> int:
        return match.seats[seat].connections

    async def send_changes(self, match: Match, watcher: Watcher) -> None:
        """Send `watcher` its state whenever the match changes, until its socket closes."""
        await self.chat.load(match.id)
        while True:
            await watcher.wake.wait()
            watcher.wake.clear()
            await self.push(match, watcher)

    async def push(self, match: Match, watcher: Watcher) -> None:
        """Send one watcher its state since its cursor (if the match changed) and the chat
        lines it may read and has not had."""
        if watcher.state_due:
            watcher.state_due = False
            payload = self.payload(match, watcher.seat, watcher.lang, watcher.cursor)
            watcher.cursor = payload["cursor"]
            await watcher.send({"type": "state", **payload})
        lines = self.chat.unseen(match.id, watcher)
        if lines:
            watcher.chat_seen = lines[-1].n
            await watcher.send({"type": "chat", "lines": [line.to_json() for line in lines]})

    def notify(self, match: Match) -> None:
        """Tell every watcher of the match that there is something new to send."""
        match.unsent = False
        match.touched = time.monotonic()
        for watcher in self.watchers.get(match.id, ()):
            watcher.state_due = True
            watcher.wake.set()

    def notify_chat(self, match_id: str) -> None:
        """Tell every watcher of the match that the chat has new lines."""
        for watcher in self.watchers.get(match_id, ()):
            watcher.wake.set()

    # ----- bots -------------------------------------------------------------------------
    def _bot_to_act(self, match: Match) -> tuple[int, str] | None:
        for p in match.to_act():
            bot = match.seats[p].player
            if bot:
                return p, bot
        return None

    def _drive(self, match: Match) -> None:
        """Make sure a task plays this match's bots while any bot is to act (if this
        process may run them)."""
        if self.closed or self._bot_to_act(match) is None:
            return
        task = self._drivers.get(match.id)
        if task is not None and not task.done():
            return
        self._drivers[match.id] = asyncio.get_running_loop().create_task(self._bots(match))

    def _scheduler(self, bot: str) -> FairScheduler:
        if bot in CHEAP_BOTS:
            return self._threads
        if self._processes is None:
            # spawned, not forked: a fork of the server would inherit its event loop and signal handlers
            pool = ProcessPoolExecutor(max_workers=self._workers, mp_context=multiprocessing.get_context("spawn"),
                                       initializer=worker_started, initargs=(os.getpid(),))
            self._processes = FairScheduler(pool, self._workers)
        return self._processes

    def bot_queue(self) -> int:
        """Bot moves waiting for a worker."""
        return self._threads.queued + (self._processes.queued if self._processes else 0)

    async def _bots(self, match: Match) -> None:
        try:
            await self._play_bots(match)
        finally:
            if match.unsent:      # the loop ended in the middle of a run (an error, closing)
                self.notify(match)

    async def _play_bots(self, match: Match) -> None:
        if match.id not in self.claimed:
            if not await self.store.claim(match.id):
                return  # another process runs this match's bots
            self.claimed.add(match.id)
            async with self.locks[match.id]:
                await self.catch_up(match)
        while not self.closed:
            turn = self._bot_to_act(match)
            if match.unsent and (turn is None or turn[1] not in INLINE_BOTS or self.settings.bot_delay):
                # a run of instant bot moves (random, no delay) ends: one state for all of
                # them, not one a move (every move reaches the watchers, as the state's events)
                self.notify(match)
            if turn is None:
                return
            seat, bot = turn
            version = match.state.version
            view = match.view(seat)
            legal = match.legal(seat)
            if self.settings.bot_delay:
                await asyncio.sleep(self.settings.bot_delay)
            started = time.monotonic()
            try:
                args = (str(match.game), bot, view, legal, bot_seed(match.seed, seat, version), match.set_texts())
                if bot in INLINE_BOTS:  # a few microseconds: a worker's hand-over would cost more
                    await asyncio.sleep(0)
                    notation = think(*args)
                else:
                    notation = await self._scheduler(bot).run(match.id, think, *args)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("bot %s failed in match %s", bot, match.id)
                return
            if self.metrics is not None:
                self.metrics.bot_seconds.inc(time.monotonic() - started)
            async with self.locks[match.id]:
                if match.state.version != version or match.seats[seat].player != bot:
                    continue  # someone acted (or took the seat back) while it thought
                try:
                    action = match.check_action(seat, notation)
                except IllegalActionError:
                    log.error("bot %s chose an illegal action in match %s", bot, match.id)
                    return
                try:
                    await self._commit(match, seat, action)
                except Conflict:
                    await self.catch_up(match)
                    continue
            self._count_action("bot")
            match.unsent = True          # told at the loop's next turn, or when it ends

    async def _take_over(self, quiet_for: float = 0.0) -> int:
        """Run the bots of stored matches where a bot is to act and no process runs them
        (with `quiet_for`, only of those where nothing changed for that long); how many."""
        taken = 0
        for match_id in await self.store.bot_turn_matches(quiet_for=quiet_for):
            if self.closed:
                break
            if match_id in self.claimed or (match_id in self._drivers and not self._drivers[match_id].done()):
                continue
            if not await self.store.claim(match_id):
                continue
            self.claimed.add(match_id)
            try:
                match = await self.get(match_id)
            except TakujoError as exc:  # a match this version cannot replay: leave it stored
                log.warning("match %s cannot be resumed: %s", match_id, exc)
                self.claimed.discard(match_id)
                await self.store.release(match_id)
                continue
            self._drive(match)
            taken += 1
        return taken

    async def _refresh_watched(self) -> None:
        """Catch up the watched matches another process changed without this one hearing of
        it (an announcement lost while the store's listening connection was down)."""
        watched = [m for m, ws in self.watchers.items() if ws and m in self.matches]
        if not watched:
            return
        for match_id, revision in (await self.store.revisions(watched)).items():
            match = self.matches.get(match_id)
            if match is not None and match.revision < revision:
                await self._changed_elsewhere(match_id, revision)

    async def _sweep_stalled(self) -> None:
        """With several processes: take over the bots of matches whose process died."""
        while not self.closed:
            await asyncio.sleep(self.settings.takeover_seconds)
            try:
                # a live owner's bots move within seconds: only quieter matches are tried
                if await self._take_over(quiet_for=STALLED_AFTER):
                    log.warning("took over the bots of matches whose process stopped running them")
                await self._refresh_watched()
            except Exception as exc:
                log.warning("looking for stalled bots failed: %s", type(exc).__name__)

    async def summaries(self, heads: list[MatchHead]) -> list[dict[str, Any]]:
        """Public summaries of stored matches (live figures for those in memory here)."""
        out = []
        for head in heads:
            match = self.matches.get(head.id)
            if match is not None:
                out.append(match.summary())
                continue
            out.append({"match": head.id, "game": head.game.split("(")[0], "game_string": head.game,
                        "seed": head.seed, "status": head.status, "version": head.steps, "created": head.created,
                        "seats": [{"seat": i, "kind": s["kind"], "bot": s.get("bot"), "stand_in": s.get("stand_in"),
                                   "connected": s["kind"] == "bot", "to_act": False, "idle_seconds": 0.0,
                                   "may_take_over": False} for i, s in enumerate(head.seats)],
                        "outcome": head.outcome, "idle_limit": head.idle_limit, "rematch": head.rematch,
                        "rematch_of": head.rematch_of})
        return out
