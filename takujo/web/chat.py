"""A match's chat: the players' channel (seated players write, everyone reads) and the
spectators' (spectators write and read; players never see it, so that onlookers cannot
prompt them). Lines are checked (`client_chat`, `client_name`), rate-limited per address by
the socket, kept in the store (the latest `CHAT_KEPT` of a match) and pushed to each watcher
that may read them; other processes hear of a line through the store's announcement."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .checks import client_chat, client_name
from .store import ChatLine
from .store.base import CHAT_KEPT

if TYPE_CHECKING:
    from .service import MatchService, Watcher


def readable(line: ChatLine, seat: int | None) -> bool:
    """Whether a watcher at `seat` (None: a spectator) may read the line."""
    return line.channel == "players" or seat is None


class Chat:
    """The chats of the matches a `MatchService` holds in memory."""

    def __init__(self, service: "MatchService") -> None:
        self.service = service
        self.lines: dict[str, list[ChatLine]] = {}

    async def load(self, match_id: str) -> list[ChatLine]:
        """The match's kept lines (read from the store the first time)."""
        lines = self.lines.get(match_id)
        if lines is None:
            lines = self.lines[match_id] = await self.service.store.chat(match_id)
        return lines

    async def refresh(self, match_id: str) -> None:
        """Read the lines another process added."""
        lines = self.lines.get(match_id)
        if lines is None:
            return
        newer = await self.service.store.chat(match_id, lines[-1].n if lines else 0)
        if newer:
            lines.extend(newer)
            del lines[:-CHAT_KEPT]
            self.service.notify_chat(match_id)

    async def say(self, match_id: str, seat: int | None, name: object, text: object) -> ChatLine:
        """Keep a line from a watcher at `seat` and push it to those who may read it. A seated
        player writes under their seat's name; a spectator under the name they give."""
        service = self.service
        match = await service.get(match_id)
        said = client_chat(text)
        if seat is None:
            channel, shown = "spectators", client_name(name) if name else ""
        else:
            channel, shown = "players", match.seats[seat].name or ""
        await self.load(match.id)
        line = await service.store.add_chat(match.id, channel, seat, shown, said)
        lines = self.lines.setdefault(match.id, [])
        if not lines or lines[-1].n < line.n:
            lines.append(line)
            del lines[:-CHAT_KEPT]
        service.notify_chat(match.id)
        return line

    def unseen(self, match_id: str, watcher: "Watcher") -> list[ChatLine]:
        """The lines the watcher may read and has not been sent."""
        return [line for line in self.lines.get(match_id, ()) if line.n > watcher.chat_seen
                and readable(line, watcher.seat)]

    def forget(self, match_id: str) -> None:
        self.lines.pop(match_id, None)
