"""Who sits where: display names, the browser's player key that links a person's seats, seats
taken through an invite link or joined from the lobby, invite links shown again to a match's
creator, and the matches of one player ("Your games").

A seat's token is derived from the server's secret, the match, the seat and the seat's token
generation (an HMAC), so the server can give a link out again without storing it; it is
still stored only as a hash and checked as before. Joining an open seat from the lobby moves
the seat to the next generation: the old invite link of that seat stops working.

A player key is a random secret a browser makes and keeps (not an account); the server keeps
only its hash, in the members table, beside the seats it took and the matches it created.
"""
from __future__ import annotations

import hashlib
import hmac
from typing import TYPE_CHECKING, Any

from ..core.errors import OptionError
from .match import Match, token_hash
from .store import Conflict

if TYPE_CHECKING:
    from .service import MatchService

#: The member row's seat for the player who created a match.
CREATOR = -1


def seat_token(secret: bytes, match_id: str, seat: int, generation: int = 0) -> str:
    """The token of a seat in its `generation` (48 hex digits: 192 bits)."""
    tag = f"{match_id}:{seat}" if generation == 0 else f"{match_id}:{seat}:{generation}"
    return hmac.new(secret, tag.encode(), hashlib.sha256).digest()[:24].hex()


class People:
    """The seats' people of a `MatchService`."""

    def __init__(self, service: "MatchService") -> None:
        self.service = service

    def token(self, match: Match, seat: int) -> str:
        return seat_token(self.service.secret, match.id, seat, match.seats[seat].generation)

    def holds(self, match: Match, seat: int) -> bool:
        """Whether the seat's stored token is the derived one (links can be shown again)."""
        s = match.seats[seat]
        return s.token_hash is not None and hmac.compare_digest(s.token_hash, token_hash(self.token(match, seat)))

    async def name_seat(self, match_id: str, token: str | None, name: str, player: str | None) -> Match:
        """The person holding a seat's token gives their name (and links the seat to their
        browser's player key)."""
        from .service import player_seat
        service = self.service
        match = await service.get(match_id)
        seat = player_seat(match, token)
        async with service.locks[match.id]:
            s = match.seats[seat]
            first = s.name is None
            if s.name == name and (player is None or s.owner == player):
                return match
            old = (s.name, s.owner)
            s.name, s.owner = name, player or s.owner
            try:
                await service.save_seats(match)
            except Conflict:
                s.name, s.owner = old
                await service.catch_up(match)
                raise
            match.seats_changed()
            if first:
                service.add_notice(match, "joined", seat)
        if player is not None:
            await service.store.add_member(player, match.id, seat)
        service.notify(match)
        return match

    async def join(self, match_id: str, seat: int, name: str, player: str | None) -> tuple[Match, str]:
        """Take an open seat of a listed match from the lobby: the seat gets a new token
        (the old invite link no longer works) and this person's name."""
        service = self.service
        match = await service.get(match_id)
        if not 0 <= seat < len(match.seats):
            raise OptionError("web.no_seat", seat=seat)
        if not match.listed:
            raise OptionError("web.not_listed")
        async with service.locks[match.id]:
            s = match.seats[seat]
            if not s.open or match.status != "running":
                raise OptionError("web.seat_taken", seat=seat)
            old = (s.name, s.owner, s.generation, s.token_hash)
            s.name, s.owner, s.generation = name, player, s.generation + 1
            token = self.token(match, seat)
            s.token_hash = token_hash(token)
            try:
                await service.save_seats(match)
            except Conflict:
                s.name, s.owner, s.generation, s.token_hash = old
                await service.catch_up(match)
                raise OptionError("web.seat_taken", seat=seat) from None
            match.seats_changed()
            service.add_notice(match, "joined", seat)
        if player is not None:
            await service.store.add_member(player, match.id, seat)
        service.notify(match)
        return match, token

    async def invites(self, match_id: str, player: str | None) -> tuple[Match, dict[int, str]]:
        """The invite links' tokens of a match, for the player who created it: every person's
        seat that nobody else took from the lobby."""
        service = self.service
        match = await service.get(match_id)
        if player is None or CREATOR not in await service.store.member_seats(player, match.id):
            raise OptionError("web.not_creator")
        tokens = {i: self.token(match, i) for i, s in enumerate(match.seats)
                  if s.kind == "human" and (s.owner is None or s.owner == player) and self.holds(match, i)}
        return match, tokens

    async def matches_of(self, player: str, limit: int = 50) -> list[dict[str, Any]]:
        """A player's matches, newest first: each match's summary with the player's own seats
        (their tokens, whether they are to act) and whether they created it."""
        service = self.service
        out = []
        for head in await service.store.player_matches(player, limit):
            seats = await service.store.member_seats(player, head.id)
            try:
                match = await service.get(head.id)
            except Exception:  # a match that cannot be loaded is left out, not the list
                continue
            acting = set(match.to_act())
            mine = [{"seat": i, "token": self.token(match, i), "to_act": i in acting}
                    for i in sorted(x for x in seats if x >= 0)
                    if 0 <= i < len(match.seats) and match.seats[i].owner == player and self.holds(match, i)]
            out.append({**match.summary(), "mine": mine, "created_by_you": CREATOR in seats,
                        "your_turn": any(m["to_act"] for m in mine)})
        return out
