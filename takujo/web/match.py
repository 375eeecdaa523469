"""One match on the server: its game state, its seats and where it stands in the store.

A match is loaded from the store (its latest snapshot and the actions after it, so loading
costs at most `SNAPSHOT_EVERY` steps whatever the game's length); everything a seat may
learn of it goes through `takujo.web.payload`. Seat tokens are random (192 bits), kept only
as SHA-256 hashes and compared in constant time.

Each version's legal actions and views are computed once and shared by the check of an
action, its application and every watcher's payload.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from ..core import sources
from ..core.action import Action
from ..core.errors import IllegalActionError, StaleActionError
from ..core.game import Game
from ..core.registry import load
from ..core.state import State
from ..present import Renderer
from ..record import record_lines, redact
from .clocks import Clocks
from .store import MatchHead, StoredMatch

def new_token() -> str:
    """A seat token: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


class NotYourTurn(IllegalActionError):
    """An action from a seat that is not to act (or from no seat)."""


@dataclass
class Seat:
    """One seat: a person (with a token) or a bot; a person's seat may be played by a
    stand-in bot while they are away."""

    kind: str                      # "human" | "bot"
    bot: str | None = None         # the bot of a bot seat
    token_hash: str | None = None
    stand_in: str | None = None    # the bot playing a person's seat while they are away
    name: str | None = None        # the person's display name, once someone took the seat
    owner: str | None = None       # the hash of the player key of the browser that took it
    generation: int = 0            # how many times its token was replaced (a seat joined from the lobby)
    connections: int = 0           # open WebSockets with this seat's token (not stored)
    opened_at: float | None = None # when this process first saw someone open the seat (not stored)
    waiting_since: float = field(default_factory=time.time)  # when the seat last became to act

    def stored(self) -> dict[str, Any]:
        return {"kind": self.kind, "bot": self.bot, "token_hash": self.token_hash, "stand_in": self.stand_in,
                "name": self.name, "owner": self.owner, "generation": self.generation}

    @property
    def open(self) -> bool:
        """A person's seat that nobody has taken yet."""
        return self.kind == "human" and not self.name

    @property
    def player(self) -> str | None:
        """The bot that plays this seat now, if any."""
        return self.bot if self.kind == "bot" else self.stand_in


def seats_of(stored: list[dict[str, Any]]) -> list[Seat]:
    return [Seat(kind=s["kind"], bot=s.get("bot"), token_hash=s.get("token_hash"), stand_in=s.get("stand_in"),
                 name=s.get("name"), owner=s.get("owner"), generation=int(s.get("generation") or 0))
            for s in stored]


#: Configured games by game string, the least recently used first (building one can cost
#: tens of milliseconds: 戦国大戦 双 prebuilds its action tables).
_GAMES: OrderedDict[str, Game] = OrderedDict()
GAMES_KEPT = 64


def game_of(spec: str) -> Game:
    """The configured game of a stored game string (checked when the match was created)."""
    game = _GAMES.get(spec)
    if game is None:
        game = remember(load(spec), spec)
    else:
        _GAMES.move_to_end(spec)
    return game


def remember(game: Game, spec: str | None = None) -> Game:
    """Keep `game` for `game_of` (by its game string, or `spec`)."""
    _GAMES[spec or str(game)] = game
    while len(_GAMES) > GAMES_KEPT:
        _GAMES.popitem(last=False)
    return game


class Match:
    """A game in progress (or over) with its seats."""

    def __init__(self, stored: StoredMatch) -> None:
        self.id = stored.id
        self.seed = stored.seed
        self.created = stored.created
        self.idle_limit = stored.idle_limit
        self.rematch_of = stored.rematch_of
        self.rematch = stored.rematch
        self.listed = stored.listed
        self.revision = stored.revision
        self.undos = stored.undos
        self.game = game_of(stored.game)
        self.seats = seats_of(stored.seats)
        self.clocks = Clocks.from_json(stored.clocks, len(self.seats))
        if stored.snapshot is not None:
            self.state: State = self.game.state_from_json(stored.snapshot[1])
        else:
            self.state = self.game.new_state(self.seed)
        for player, notation in stored.actions:
            self.state.apply(notation, player)
        self.last_player: int | None = self._last_player()
        self.touched = time.monotonic()   # last use, for evicting idle matches
        self.unsent = False               # committed changes the watchers have not been told of
        self.offered: frozenset[int] = frozenset()  # seats the others were last told they may hand over
        self.handing: set[int] = set()               # seats being handed to a bot for running out of time
        self._renderers: dict[str, Renderer] = {}
        self._legal: dict[int, list[Action]] = {}
        self._views: dict[int | None, dict[str, Any]] = {}
        self._set_texts: dict[str, str] | None = None
        self.run_clocks()

    def reset(self, stored: StoredMatch) -> None:
        """Become the match as stored (another process undid an action, or this copy fell
        behind), keeping who is connected to it here."""
        kept = [(seat.connections, seat.opened_at) for seat in self.seats]
        self.__init__(stored)  # type: ignore[misc]
        for seat, (count, opened) in zip(self.seats, kept):
            seat.connections, seat.opened_at = count, opened

    def _last_player(self) -> int | None:
        for e in reversed(self.state.log):
            if e["e"] == "act":
                return int(e["player"])
        return None

    # ----- who is who -------------------------------------------------------------------
    def seat_of(self, token: str | None) -> int | None:
        """The seat whose token this is (None: no token, or not a token of this match)."""
        if not token:
            return None
        digest = token_hash(token)
        found = None
        for i, seat in enumerate(self.seats):  # no early exit: the time says nothing
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                found = i
        return found

    @property
    def status(self) -> str:
        return "finished" if self.state.outcome is not None else "running"

    def to_act(self) -> list[int]:
        pend = self.state.pending
        return [] if pend is None or self.state.outcome is not None else list(pend.players)

    def bot_turn(self) -> bool:
        """Whether a bot is to act (stored, so that another process can take the bots over)."""
        return any(self.seats[p].player for p in self.to_act())

    def public_seats(self) -> list[dict[str, Any]]:
        """What anyone may know of the seats: kinds, bots, who is connected and who is idle."""
        now = time.time()
        acting = set(self.to_act())
        out = []
        for i, seat in enumerate(self.seats):
            out.append({"seat": i, "kind": seat.kind, "bot": seat.bot, "stand_in": seat.stand_in,
                        "name": seat.name, "open": seat.open,
                        "opened": seat.kind == "human" and (seat.opened_at is not None or bool(seat.name)),
                        "connected": seat.connections > 0 or seat.kind == "bot",
                        "to_act": i in acting, "idle_seconds": round(self.idle_for(i, now), 1),
                        "clock": self.clocks.public(i, now),
                        "may_take_over": self.may_take_over(i, now)})
        return out

    def may_take_over(self, seat: int, now: float | None = None) -> bool:
        """Whether the others may hand this person's seat to a bot: idle past the match's
        limit, or out of time on its clock."""
        s = self.seats[seat]
        if s.kind != "human" or s.stand_in or seat not in self.to_act():
            return False
        if self.clocks.out_of_time(seat, now if now is not None else time.time()):
            return True
        if self.idle_limit is None:
            return False
        # from when they were asked, or opened the seat if later: a no-show can be replaced too
        since = max(s.waiting_since, s.opened_at or 0.0)
        return (now if now is not None else time.time()) - since >= self.idle_limit

    def idle_for(self, seat: int, now: float) -> float:
        """How long a person to act has kept the others waiting: since they were asked, or
        since they opened the seat if that was later (0 for a seat nobody opened yet, or not to act)."""
        s = self.seats[seat]
        if s.kind != "human" or s.stand_in or seat not in self.to_act() or (s.opened_at is None and not s.name):
            return 0.0
        return max(0.0, now - max(s.waiting_since, s.opened_at or 0.0))

    def summary(self) -> dict[str, Any]:
        return {"match": self.id, "game": self.game.name, "game_string": str(self.game), "seed": self.seed,
                "status": self.status, "version": self.state.version, "created": self.created,
                "seats": self.public_seats(), "outcome": self.state.outcome.to_json() if self.state.outcome else None,
                "idle_limit": self.idle_limit, "rematch": self.rematch, "rematch_of": self.rematch_of,
                "clock": self.clocks.rules.to_json() if self.clocks.on else None}

    def renderer(self, lang: str) -> Renderer:
        """Plain texts in `lang`, with the players' names."""
        if lang not in self._renderers:
            self._renderers[lang] = Renderer(self.game, lang, markup=False, names=self.names())
        return self._renderers[lang]

    def set_texts(self) -> dict[str, str]:
        """The texts of the uploaded card sets this match's game names (held in memory since it
        loaded; found once, since the game never changes)."""
        if self._set_texts is None:
            found = {name: sources.text_of(name) for name in sources.names_in(self.game.options.model_dump())}
            self._set_texts = {name: text for name, text in found.items() if text is not None}
        return self._set_texts

    def names(self) -> list[str | None]:
        """Each seat's display name (None: nobody named it; a bot's seat has none)."""
        return [s.name for s in self.seats]

    def seats_changed(self) -> None:
        """A seat was taken, named or handed over: texts name the players anew."""
        self._renderers.clear()

    # ----- this version's legal actions and views, computed once ----------------------------
    def legal(self, seat: int) -> list[Action]:
        """The seat's legal actions now (shared: do not change the list)."""
        found = self._legal.get(seat)
        if found is None:
            found = self._legal[seat] = self.state.legal_actions(seat)
        return found

    def view(self, seat: int | None) -> dict[str, Any]:
        """The seat's view now (shared by every payload of this version: do not change it)."""
        found = self._views.get(seat)
        if found is None:
            legal = self.legal(seat) if seat is not None and seat in self.to_act() else None
            found = self._views[seat] = self.state.view(seat, legal)
        return found

    def _changed(self) -> None:
        self._legal.clear()
        self._views.clear()

    # ----- acting -----------------------------------------------------------------------
    def check_action(self, seat: int | None, notation: str, version: int | None = None) -> Action:
        """The action `seat` plays with `notation`, if it may play it now (and `version` is
        the current one); a stale version is told first, since someone else's action is why
        the seat may no longer act. Changes nothing."""
        if version is not None and version != self.state.version:
            raise StaleActionError("action.stale", chosen=version, current=self.state.version)
        if seat is None:
            raise NotYourTurn("web.not_your_turn")
        anytime = next((a for a in self.always(seat) if str(a) == notation), None)
        if anytime is not None:
            return anytime                    # open to the seat at any time (conceding)
        if seat not in self.to_act():
            raise NotYourTurn("web.not_your_turn")
        action = self.state.parse_action(notation, seat)
        if action not in self.legal(seat):
            self.state.clone().apply(action)  # raises the engine's own explanation
        return action

    def always(self, seat: int | None) -> list[Action]:
        """The actions open to `seat` at any time while the game goes on (conceding)."""
        if seat is None or self.state.outcome is not None:
            return []
        return self.state.always_actions(seat)

    def apply(self, seat: int, action: Action) -> None:
        """Apply an action `check_action` returned (if the store then refuses it, the match
        is `reset` from the store)."""
        before = set(self.to_act())
        self.state.apply_unchecked(action)
        self.last_player = seat
        self.clocks.moved(seat, time.time())
        self._changed()
        self._started_waiting(before - {seat})

    def _started_waiting(self, already: set[int]) -> None:
        """The seats to act now that were not (`already` were) start their idle clocks."""
        now = time.time()
        for p in set(self.to_act()) - already:
            self.seats[p].waiting_since = now
        self.run_clocks(now)

    def run_clocks(self, now: float | None = None) -> None:
        """Run the clocks of exactly the seats a person plays, someone opened, and that are to act."""
        if self.clocks.on:
            self.clocks.run({p for p in self.to_act() if self.seats[p].kind == "human" and not self.seats[p].stand_in
                             and (self.seats[p].opened_at is not None or self.seats[p].name)},
                            now if now is not None else time.time())

    def committed(self, revision: int) -> None:
        self.revision = revision

    def can_undo(self, seat: int) -> bool:
        """A seat may take back its last action while it is still the one to act, nobody has
        acted since, and the action revealed nothing: no chance outcome, no hidden event."""
        if self.last_player != seat or self.state.outcome is not None or self.to_act() != [seat]:
            return False
        for event in reversed(self.state.log):  # the events since the last action, newest first
            if event.get("chance") or event.get("to") is not None:
                return False
            if event["e"] == "act":
                return True
        return True

    def undo_to(self, state: State) -> None:
        """Take back the last action: `state` is the state before it."""
        self.state = state
        self.last_player = self._last_player()
        self.undos += 1
        self._changed()

    def catch_up(self, head: MatchHead, actions: list[tuple[int, str]]) -> None:
        """Apply the actions another process committed (from this version on) and its header."""
        before = set(self.to_act())
        for player, notation in actions:
            self.state.apply(notation, player)
        if actions:
            self.last_player = actions[-1][0]
        old = self.seats
        self.seats = seats_of(head.seats)
        for mine, theirs in zip(self.seats, old):
            mine.connections, mine.waiting_since, mine.opened_at = theirs.connections, theirs.waiting_since, theirs.opened_at
        self.rematch, self.revision = head.rematch, head.revision
        if head.clocks is not None:
            self.clocks = Clocks.from_json(head.clocks, len(self.seats))
        self.seats_changed()
        self._changed()
        self._started_waiting(before)

    def catch_up_action(self, player: int, notation: str, revision: int) -> None:
        """Apply the one action another process committed at `revision` (as it announced it);
        the engine's error if it does not apply here (this copy then reads the store)."""
        self.apply(player, self.check_action(player, notation))
        self.revision = revision

    # ----- records ----------------------------------------------------------------------
    def seat_names(self) -> list[str]:
        return [s.bot if s.kind == "bot" and s.bot else "human" for s in self.seats]

    def record(self, seat: int | None) -> list[dict[str, Any]]:
        """The record for `seat` (None: a spectator): redacted while the game runs and for
        spectators, whole once the game is over."""
        lines = record_lines(self.state, self.seed, self.seat_names(), self.names(), self.set_texts())
        if self.state.outcome is not None:
            return lines
        return redact(lines, seat)
