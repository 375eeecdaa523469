"""The WebSocket of a match: ``/ws/matches/{id}?token=…&lang=…``.

The server sends ``{"type": "state", …}`` after every change and ``{"type": "error", …}``
when a message cannot be taken; the client sends JSON objects ``{"type": "act", "action":
…, "version": N}``, ``undo``, ``lang`` and ``refresh``. Every malformed message (not JSON,
too deep, not an object, a version that is not an integer, a binary frame) gets an error, and
where the socket must close, a close code: 1003 for binary data, 1008 for too many sockets
or messages, 4403/4404 for a wrong token or match, 1011 if the server fails.
"""
from __future__ import annotations

import asyncio
import functools
import json
import logging
from collections import Counter
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect

from ..core.errors import TakujoError
from .checks import client_version
from .errors import client_lang, engine_error_body
from .ratelimit import RateLimited, RateLimiter
from .service import Forbidden, MatchService, NotFound, Watcher, viewer_seat
from .settings import Limits
from .payload import HISTORY_PAGE
from .wire import send

log = logging.getLogger("takujo.web")

#: The largest WebSocket message a client may send.
MAX_WS_MESSAGE = 16 * 1024


class SocketCounts:
    """Open sockets, in all and by address (for the limits on both)."""

    def __init__(self) -> None:
        self.total = 0
        self.by_address: Counter[str] = Counter()

    def open(self, address: str) -> None:
        self.total += 1
        self.by_address[address] += 1

    def close(self, address: str) -> None:
        self.total -= 1
        self.by_address[address] -= 1
        if self.by_address[address] <= 0:
            del self.by_address[address]


async def _refuse(ws: WebSocket, exc: TakujoError, lang: str, code: int) -> None:
    await send(ws, {"type": "error", **engine_error_body(exc, lang)})
    await ws.close(code=code)


async def serve_socket(ws: WebSocket, service: MatchService, limiter: RateLimiter, limits: Limits,
                       counts: SocketCounts, match_id: str, token: str | None, lang: str | None,
                       metrics: Any = None) -> None:
    """Serve one WebSocket until it closes."""
    address = ws.client.host if ws.client else "?"
    language = client_lang(lang)
    await ws.accept()
    try:
        limiter.hit("ws_connects", address)
        if counts.total >= limits.sockets or counts.by_address[address] >= limits.sockets_per_address:
            raise RateLimited("web.server_full", limit="sockets", retry=5)
        match = await service.get(match_id)
        seat = viewer_seat(match, token)
    except NotFound as exc:
        await _refuse(ws, exc, language, 4404)
        return
    except Forbidden as exc:
        await _refuse(ws, exc, language, 4403)
        return
    except RateLimited as exc:
        await _refuse(ws, exc, language, 1008)
        return
    if seat is not None and service.seat_sockets(match, seat) >= limits.sockets_per_seat:
        await _refuse(ws, TakujoError("web.too_many_sockets", limit=limits.sockets_per_seat), language, 1008)
        return
    watcher = Watcher(seat=seat, lang=language, send=functools.partial(send, ws), token=token if seat is not None else None,
                      address=address)
    service.watch(match, watcher)
    counts.open(address)
    if metrics is not None:
        metrics.websockets.inc()
    sender = asyncio.get_running_loop().create_task(service.send_changes(match, watcher))
    try:
        service.notify(match)  # everyone sees who is connected (this watcher its first state)
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            if metrics is not None:
                metrics.ws_messages.inc()
            if message.get("text") is None:
                await _refuse(ws, TakujoError("web.binary_frame"), watcher.lang, 1003)
                break
            await _message(ws, service, limiter, watcher, match.id, message["text"])
    except WebSocketDisconnect:
        pass
    except Exception as exc:  # never a traceback for what a client sent: one line, and close
        log.warning("WebSocket of match %s closed on %s", match.id, type(exc).__name__)
        try:
            await ws.close(code=1011)
        except Exception:
            pass
    finally:
        sender.cancel()
        service.unwatch(match, watcher)
        counts.close(address)
        if metrics is not None:
            metrics.websockets.dec()


def _read(raw: str) -> dict[str, Any]:
    if len(raw) > MAX_WS_MESSAGE:
        raise TakujoError("web.message_too_large", limit=MAX_WS_MESSAGE)
    try:
        msg = json.loads(raw)
    except RecursionError:
        raise TakujoError("web.bad_message", detail="too deeply nested") from None
    except ValueError as exc:
        detail = "a number over 4300 digits" if "digits" in str(exc) else "not JSON"
        raise TakujoError("web.bad_message", detail=detail) from None
    if not isinstance(msg, dict):
        raise TakujoError("web.bad_message", detail="not a JSON object")
    return msg


async def _message(ws: WebSocket, service: MatchService, limiter: RateLimiter, watcher: Watcher,
                   match_id: str, raw: str) -> None:
    """Take one message; answer an error if it cannot be taken."""
    try:
        limiter.hit("ws_messages", watcher.address)
        msg = _read(raw)
        kind = msg.get("type")
        if kind == "lang":
            watcher.lang = client_lang(str(msg.get("lang", ""))[:10])
            watcher.cursor = None
            watcher.state_due = True
            watcher.wake.set()
        elif kind == "act":
            limiter.hit("actions", watcher.address)
            await service.act(match_id, watcher.token, msg.get("action", ""), client_version(msg.get("version")))
        elif kind == "undo":
            limiter.hit("actions", watcher.address)
            await service.undo(match_id, watcher.token)
        elif kind == "refresh":
            watcher.cursor = None
            watcher.state_due = True
            watcher.wake.set()
        elif kind == "history":
            match = await service.get(match_id)
            before = client_version(msg.get("before"))
            await send(ws, {"type": "history", **service.history(match, watcher.seat, watcher.lang,
                                                                  before if before is not None else 0, HISTORY_PAGE)})
        elif kind == "chat":
            limiter.hit("chat", watcher.address)
            await service.chat.say(match_id, watcher.seat, msg.get("name"), msg.get("text"))
        else:
            raise TakujoError("web.unknown_message", kind=str(kind)[:40])
    except TakujoError as exc:
        body = engine_error_body(exc, watcher.lang)
        if isinstance(exc, RateLimited):
            body["retry_after"] = exc.retry_after
        await send(ws, {"type": "error", **body})
