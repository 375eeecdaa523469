"""The web app: the public API (documented at /docs), the WebSocket, and the pages.

    uvicorn "takujo.web.app:create_app" --factory     # or: takujo serve

`create_app` assembles the app: the routers of `takujo.web.routes` (one a resource), the
middleware, the limits and the lifespan; the objects the routes share (the match service,
the rate limiter, the settings, the replay shelf, the Lab, the socket counts, the metrics)
are kept on ``app.state`` and reach the routes as FastAPI dependencies.

Every payload sent to a seat is built from that seat's view and event stream only
(`takujo.web.payload`); errors are JSON bodies that say what was wrong, in the client's
language, and never carry a stack trace or a file's contents (`takujo.web.errors`). Every
value from a client is typed and checked at the edge (`takujo.web.checks`), and every route
counts against a rate limit per client address (`takujo.web.ratelimit`).
"""
from __future__ import annotations

import asyncio
import logging
import re
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator

from fastapi import Depends, FastAPI
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import __version__
from .docs_page import install_docs
from .errors import BodyLimit, install_error_handlers
from .health import install_health
from .lab import Lab
from .metrics import Metrics, install_metrics
from .ratelimit import RateLimiter
from .replays import MAX_RECORD_BYTES, ReplayShelf
from .routes import ROUTERS
from .routes.common import address
from .routes.pages import static_files
from .service import MatchService
from .settings import Settings
from .sockets import MAX_WS_MESSAGE, SocketCounts
from .store import Store, open_store

#: The largest request body (a decklist or a record upload is the largest thing sent).
MAX_BODY = MAX_RECORD_BYTES + 4096
log = logging.getLogger("takujo.web")
__all__ = ["create_app", "MAX_BODY", "MAX_WS_MESSAGE"]


class _NoReferrer:
    """Pages carry seat tokens in their address: never pass them on as a referrer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers.append((b"referrer-policy", b"no-referrer"))
                headers.append((b"x-content-type-options", b"nosniff"))
                message["headers"] = headers
            await send(message)
        await self.app(scope, receive, sending if scope["type"] == "http" else send)


class RedactTokens(logging.Filter):
    """Access logs never show a token: ``token=...`` in a logged address becomes ``token=***``."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.args and isinstance(record.args, tuple):
            record.args = tuple(_redact(a) if isinstance(a, str) else a for a in record.args)
        if isinstance(record.msg, str):
            record.msg = _redact(record.msg)
        return True


def _redact(text: str) -> str:
    return re.sub(r"(token=)[^&\s\"']+", r"\1***", text)


# ----- the app ------------------------------------------------------------------------------
def create_app(db: Path | str = ":memory:", *, settings: Settings | None = None, bot_delay: float | None = None,
               bot_workers: int | None = None, store: Store | None = None) -> FastAPI:
    """The web app on the database `db`: a SQLite file, or a ``postgresql://`` address that
    several server processes may share. Matches are loaded from it as they are used."""
    settings = settings or Settings()
    if bot_delay is not None or bot_workers is not None:
        from dataclasses import replace
        settings = replace(settings, bot_delay=bot_delay if bot_delay is not None else settings.bot_delay,
                           bot_workers=bot_workers if bot_workers is not None else settings.bot_workers)
    metrics = Metrics()
    service = MatchService(store or open_store(db), settings, metrics)
    limiter = RateLimiter(settings.limits)
    lab = Lab(lab_folder(settings, db), settings.operator_token, settings.lab_slots, settings.bot_levels)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        for name in ("uvicorn.access", "uvicorn.error"):
            logging.getLogger(name).addFilter(RedactTokens())
        await service.start()

        async def expire_counts() -> None:
            while True:
                await asyncio.sleep(10)
                limiter.expire()
        expiring = asyncio.get_running_loop().create_task(expire_counts())
        yield
        expiring.cancel()
        lab.close()
        await service.close()

    async def count_request(request: HTTPConnection) -> None:
        if request.scope["type"] == "http":  # sockets count against their own limits
            limiter.hit("requests", address(request))
        metrics.bot_queue.set(service.bot_queue())

    app = FastAPI(title="takujo", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None,
                  dependencies=[Depends(count_request)],
                  description="Play takujo's games over HTTP and WebSockets: create a match, act with "
                              "your seat's token, watch its state. Every payload holds only what the "
                              "seat may see. Errors are `{\"error\": {status, code, message, id}}`; "
                              "requests are rate-limited per address (429 with Retry-After).")
    app.state.service = service
    app.state.metrics = metrics
    app.state.settings = settings
    app.state.limiter = limiter
    app.state.sockets = SocketCounts()
    app.state.shelf = ReplayShelf()
    app.state.lab = lab
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    app.add_middleware(_NoReferrer)
    install_error_handlers(app)
    install_metrics(app, metrics)
    install_docs(app)

    async def health() -> dict[str, Any]:
        await service.store.ping()
        return {"store": "ok", "live_matches": len(service.matches)}
    install_health(app, health)

    for router in ROUTERS:
        app.include_router(router)
    app.mount("/static", static_files(), name="static")
    return app


def lab_folder(settings: Settings, db: Path | str) -> Path:
    """Where the Lab's experiments are kept: the setting, else beside a SQLite database,
    else in the user's data folder."""
    if settings.lab_dir:
        return Path(settings.lab_dir)
    if isinstance(db, Path) or (isinstance(db, str) and db != ":memory:" and "://" not in db):
        return Path(db).parent / "lab"
    import platformdirs
    return Path(platformdirs.user_data_dir("takujo")) / "lab"
