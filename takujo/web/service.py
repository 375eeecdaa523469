"""The server's matches: creating them, acting in them, undo, stand-in bots, and pushing each
watcher its own state after every change.

Everything runs on the event loop except bot thinking (worker threads for the cheap bots,
worker processes for IS-MCTS) and nothing waits on a bot: a match's bots are driven by one
task of their own. Every accepted action is committed to the store before anyone hears of it.
"""
from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import multiprocessing
import os
import secrets
import time
import uuid
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable

from ..bots import make_bot
from ..core.errors import IllegalActionError, OptionError, TakujoError
from ..core.game import Game, parse_game_string
from ..core.registry import game_class
from ..core.rng import Rng
from ..sim import make_game
from .match import Match, NotYourTurn, new_token, token_hash
from .payload import state_payload
from .store import Store, StoredMatch
from .thinking import CHEAP_BOTS, bot_seed, think, worker_started

log = logging.getLogger("takujo.web")

#: Seats a match may have at most, and the longest game string accepted.
MAX_SEATS = 8
MAX_GAME_STRING = 400


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
    #: Set when the match changed: the watcher's sender sends one state for all changes
    #: since its last (a slow client never holds up the match, and gets fewer, fuller states).
    wake: asyncio.Event = field(default_factory=asyncio.Event)


def _extra(cls: type[Game], name: str) -> dict[str, Any]:
    info = cls.Options.model_fields[name]
    return info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}


def file_options(cls: type[Game]) -> dict[str, list[str]]:
    """The options of a game that name files on the server, each with the values a web
    client may give instead (e.g. a starter deck's name)."""
    out = {}
    for name in cls.Options.model_fields:
        extra = _extra(cls, name)
        choices = extra.get("choices")
        if extra.get("server_file"):
            out[name] = [str(v) for v in choices] if isinstance(choices, list) else []
    return out


def value_prefixes(cls: type[Game], name: str) -> list[str]:
    """Prefixes of the values a web client may give a file option beside its choices (a deck
    code made from an uploaded decklist: ``code:…``)."""
    prefixes = _extra(cls, name).get("prefixes")
    return [str(p) for p in prefixes] if isinstance(prefixes, list) else []


def check_web_game(spec: str) -> tuple[str, dict[str, str]]:
    """The game name and options of a game string from a web client; options that name
    server files are refused unless they take one of their named values."""
    if not isinstance(spec, str) or len(spec) > MAX_GAME_STRING:
        raise OptionError("web.game_string", limit=MAX_GAME_STRING)
    name, opts = parse_game_string(spec)
    cls = game_class(name)
    files = file_options(cls)
    for key, value in opts.items():
        if key in files and value not in ("", *files[key]) \
                and not any(value.startswith(p) for p in value_prefixes(cls, key)):
            if files[key]:
                raise OptionError("web.file_option", option=key, choices=files[key])
            raise OptionError("web.file_only", option=key)
    return name, opts


class MatchService:
    """Every match of one server, kept in memory and in the store."""

    def __init__(self, store: Store, *, bot_workers: int | None = None, bot_delay: float = 0.0) -> None:
        self.store = store
        self.matches: dict[str, Match] = {}
        self.watchers: dict[str, set[Watcher]] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.notices: dict[str, list[dict[str, Any]]] = {}
        self.bot_delay = bot_delay
        self._drivers: dict[str, asyncio.Task] = {}
        self._threads: Executor = ThreadPoolExecutor(max_workers=4, thread_name_prefix="takujo-bot")
        self._processes: Executor | None = None
        self._bot_workers = bot_workers or max(1, (os.cpu_count() or 2) - 1)
        self._secret = self._load_secret()
        self.closed = False

    # ----- start and stop ---------------------------------------------------------------
    def _load_secret(self) -> bytes:
        return bytes.fromhex(self.store.meta("secret", lambda: secrets.token_hex(32)))

    def resume(self) -> int:
        """Rebuild every stored match (replaying its actions) and restart its bots."""
        count = 0
        for stored in self.store.matches():
            try:
                match = Match(stored)
            except TakujoError as exc:  # a match this version cannot replay: leave it stored
                log.warning("match %s cannot be resumed: %s", stored.id, exc)
                continue
            self._add(match)
            count += 1
        return count

    def start_bots(self) -> None:
        for match in self.matches.values():
            self._drive(match)

    async def close(self) -> None:
        self.closed = True
        for task in list(self._drivers.values()):
            task.cancel()
        for task in list(self._drivers.values()):
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass
        self._threads.shutdown(wait=False, cancel_futures=True)
        if self._processes is not None:
            self._processes.shutdown(wait=False, cancel_futures=True)

    def _add(self, match: Match) -> None:
        self.matches[match.id] = match
        self.watchers.setdefault(match.id, set())
        self.locks.setdefault(match.id, asyncio.Lock())
        self.notices.setdefault(match.id, [])
        if match.rematch_of in self.matches:
            self.matches[match.rematch_of].rematch = match.id

    # ----- creating ---------------------------------------------------------------------
    def create(self, spec: str, seats: list[str], seed: int | None = None, idle_limit: float | None = None,
               rematch_of: str | None = None) -> tuple[Match, dict[int, str]]:
        """A new match and the tokens of its human seats (given out once, never stored)."""
        name, opts = check_web_game(spec)
        if not isinstance(seats, list) or not seats or len(seats) > MAX_SEATS:
            raise OptionError("web.seat_count", limit=MAX_SEATS)
        opts = {**opts, "players": str(len(seats))} if "players" not in opts else opts
        if seed is None:
            seed = secrets.randbelow(1_000_000)
        game = make_game(name, None, opts)
        if game.players != len(seats):
            raise OptionError("web.seats_players", seats=len(seats), players=game.players)
        game = make_game(name, game.players, type(game).choose_options({**opts, "players": game.players},
                                                                       Rng(seed).fork()))
        stored_seats, tokens = [], {}
        match_id = uuid.uuid4().hex[:12]
        for i, kind in enumerate(seats):
            if kind == "human":
                token = self._seat_token(match_id, i) if rematch_of else new_token()
                tokens[i] = token
                stored_seats.append({"kind": "human", "bot": None, "token_hash": token_hash(token), "stand_in": None})
            elif isinstance(kind, str) and kind.startswith("bot:"):
                bot = kind[4:]
                make_bot(bot, game)  # refuses unknown bots and budgets
                stored_seats.append({"kind": "bot", "bot": bot, "token_hash": None, "stand_in": None})
            else:
                raise OptionError("web.seat_kind", seat=i, kind=str(kind)[:40])
        if idle_limit is not None and not 10 <= idle_limit <= 7 * 24 * 3600:
            raise OptionError("web.idle_limit")
        stored = StoredMatch(id=match_id, game=str(game), seed=seed, seats=stored_seats, idle_limit=idle_limit,
                             created=time.time(), rematch_of=rematch_of)
        match = Match(stored)
        self.store.add_match(stored)
        self._add(match)
        self._drive(match)
        return match, tokens

    def _seat_token(self, match_id: str, seat: int) -> str:
        """The token of a seat of a rematch, which each player fetches with their old token."""
        digest = hmac.new(self._secret, f"{match_id}:{seat}".encode(), hashlib.sha256).digest()
        return digest[:24].hex()

    def rematch(self, old_id: str, token: str | None) -> tuple[Match, int, str]:
        """The rematch of a finished match (made by the first player who asks), with the
        caller's seat and new token."""
        old = self.get(old_id)
        seat = player_seat(old, token)
        if old.status != "finished":
            raise OptionError("web.rematch_running")
        if old.rematch is None or old.rematch not in self.matches:
            kinds = ["human" if s.kind == "human" else f"bot:{s.bot}" for s in old.seats]
            new, _ = self.create(str(old.game), kinds, rematch_of=old.id)
            old.rematch = new.id
        new = self.matches[old.rematch]
        return new, seat, self._seat_token(new.id, seat)

    # ----- reading ----------------------------------------------------------------------
    def get(self, match_id: str) -> Match:
        match = self.matches.get(match_id)
        if match is None:
            raise NotFound("web.no_match", match=str(match_id)[:40])
        return match

    def payload(self, match: Match, seat: int | None, lang: str, since: int | None = None) -> dict[str, Any]:
        out = state_payload(match, seat, lang, since)
        out["notices"] = [self._notice_text(match, n, lang) for n in self.notices.get(match.id, [])[-8:]]
        return out

    def _notice_text(self, match: Match, notice: dict[str, Any], lang: str) -> dict[str, Any]:
        r = match.renderer(lang)
        return {**notice, "text": r.text(f"ui.web.notice.{notice['kind']}", seat=notice["seat"])
                if r.has(f"ui.web.notice.{notice['kind']}") else notice["kind"]}

    # ----- acting -----------------------------------------------------------------------
    async def act(self, match_id: str, token: str | None, notation: str, version: int | None) -> tuple[Match, int]:
        """Check and apply a person's action; commit it; tell everyone. Raises `Forbidden`,
        `StaleActionError` or `IllegalActionError` and changes nothing."""
        match = self.get(match_id)
        seat = player_seat(match, token)
        if not isinstance(notation, str) or len(notation) > 200:
            raise IllegalActionError("web.bad_action")
        async with self.locks[match.id]:
            s = match.seats[seat]
            if s.stand_in:  # the player is back: they take the seat over from the bot
                await self._return_seat(match, seat)
            match.check_action(seat, notation, version)
            self._commit(match, seat, notation)
        self.notify(match)
        self._drive(match)
        return match, seat

    def _commit(self, match: Match, seat: int, notation: str) -> None:
        self.store.add_action(match.id, match.state.version, seat, notation)
        match.apply(seat, notation)
        if match.state.outcome is not None:
            self.store.finish(match.id, match.state.outcome.to_json())

    async def undo(self, match_id: str, token: str | None) -> Match:
        match = self.get(match_id)
        seat = player_seat(match, token)
        async with self.locks[match.id]:
            if not match.can_undo(seat):
                raise IllegalActionError("web.no_undo")
            self.store.remove_actions_from(match.id, match.state.version - 1)
            match.undo()
            self.notices[match.id].append({"kind": "undo", "seat": seat, "version": match.state.version,
                                           "at": time.time()})
        self.notify(match)
        return match

    async def stand_in(self, match_id: str, token: str | None, seat: int) -> Match:
        """Another player hands an idle person's seat to a bot."""
        match = self.get(match_id)
        asker = player_seat(match, token)
        if not 0 <= seat < len(match.seats) or asker == seat:
            raise Forbidden("web.bad_seat")
        async with self.locks[match.id]:
            if not match.may_take_over(seat):
                raise IllegalActionError("web.not_idle")
            try:
                match.game.heuristic_bot()
                bot = "heuristic"
            except NotImplementedError:
                bot = "random"
            match.seats[seat].stand_in = bot
            self.store.set_seats(match.id, [s.stored() for s in match.seats])
            self.notices[match.id].append({"kind": "stand_in", "seat": seat, "at": time.time()})
        self.notify(match)
        self._drive(match)
        return match

    async def take_back(self, match_id: str, token: str | None) -> Match:
        """A person takes their seat back from the stand-in bot."""
        match = self.get(match_id)
        seat = player_seat(match, token)
        async with self.locks[match.id]:
            if match.seats[seat].stand_in:
                await self._return_seat(match, seat)
        self.notify(match)
        return match

    async def _return_seat(self, match: Match, seat: int) -> None:
        match.seats[seat].stand_in = None
        match.seats[seat].waiting_since = time.time()
        self.store.set_seats(match.id, [s.stored() for s in match.seats])
        self.notices[match.id].append({"kind": "returned", "seat": seat, "at": time.time()})

    # ----- watchers ---------------------------------------------------------------------
    def watch(self, match: Match, watcher: Watcher) -> None:
        self.watchers[match.id].add(watcher)
        if watcher.seat is not None:
            match.seats[watcher.seat].connections += 1

    def unwatch(self, match: Match, watcher: Watcher) -> None:
        self.watchers[match.id].discard(watcher)
        if watcher.seat is not None:
            match.seats[watcher.seat].connections -= 1
        self.notify(match)

    async def send_changes(self, match: Match, watcher: Watcher) -> None:
        """Send `watcher` its state whenever the match changes, until its socket closes."""
        while True:
            await watcher.wake.wait()
            watcher.wake.clear()
            await self.push(match, watcher)

    async def push(self, match: Match, watcher: Watcher) -> None:
        """Send one watcher its state since its cursor."""
        payload = self.payload(match, watcher.seat, watcher.lang, watcher.cursor)
        watcher.cursor = payload["cursor"]
        await watcher.send({"type": "state", **payload})

    def notify(self, match: Match) -> None:
        """Tell every watcher of the match that there is something new to send."""
        for watcher in self.watchers.get(match.id, ()):
            watcher.wake.set()

    # ----- bots -------------------------------------------------------------------------
    def _bot_to_act(self, match: Match) -> tuple[int, str] | None:
        for p in match.to_act():
            bot = match.seats[p].player
            if bot:
                return p, bot
        return None

    def _drive(self, match: Match) -> None:
        """Make sure a task plays this match's bots while any bot is to act."""
        if self.closed or self._bot_to_act(match) is None:
            return
        task = self._drivers.get(match.id)
        if task is not None and not task.done():
            return
        self._drivers[match.id] = asyncio.get_running_loop().create_task(self._bots(match))

    def _executor(self, bot: str) -> Executor:
        if bot in CHEAP_BOTS:
            return self._threads
        if self._processes is None:
            # spawned, not forked: a fork of the server would inherit its event loop and signal handlers
            self._processes = ProcessPoolExecutor(max_workers=self._bot_workers,
                                                  mp_context=multiprocessing.get_context("spawn"),
                                                  initializer=worker_started, initargs=(os.getpid(),))
        return self._processes

    async def _bots(self, match: Match) -> None:
        loop = asyncio.get_running_loop()
        while not self.closed:
            turn = self._bot_to_act(match)
            if turn is None:
                return
            seat, bot = turn
            version = match.state.version
            view = match.state.view(seat)
            legal = match.state.legal_actions(seat)
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            try:
                notation = await loop.run_in_executor(self._executor(bot), think, str(match.game), bot, view,
                                                      legal, bot_seed(match.seed, seat, version))
            except Exception:
                log.exception("bot %s failed in match %s", bot, match.id)
                return
            async with self.locks[match.id]:
                if match.state.version != version or match.seats[seat].player != bot:
                    continue  # someone acted (or took the seat back) while it thought
                try:
                    match.check_action(seat, notation)
                except IllegalActionError:
                    log.error("bot %s chose an illegal action in match %s", bot, match.id)
                    return
                self._commit(match, seat, notation)
            self.notify(match)
