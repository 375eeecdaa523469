"""What the routers share: the app's objects (kept on ``app.state`` by `create_app`) as
FastAPI dependencies, the player key, seat tokens, rate limits and the documented errors."""
from __future__ import annotations

from functools import lru_cache
from typing import Annotated, Any, Callable

from fastapi import Depends, Header, Request
from pydantic import BaseModel
from starlette.requests import HTTPConnection

from ...core.errors import OptionError
from ..checks import client_player
from ..lab import Lab
from ..metrics import Metrics
from ..ratelimit import RateLimiter
from ..replays import ReplayShelf
from ..service import MatchService
from ..settings import Settings
from ..sockets import SocketCounts


# ----- the app's objects ----------------------------------------------------------------------
def _service(conn: HTTPConnection) -> MatchService:
    service: MatchService = conn.app.state.service
    return service


def _settings(conn: HTTPConnection) -> Settings:
    settings: Settings = conn.app.state.settings
    return settings


def _limiter(conn: HTTPConnection) -> RateLimiter:
    limiter: RateLimiter = conn.app.state.limiter
    return limiter


def _shelf(conn: HTTPConnection) -> ReplayShelf:
    shelf: ReplayShelf = conn.app.state.shelf
    return shelf


def _lab(conn: HTTPConnection) -> Lab:
    lab: Lab = conn.app.state.lab
    return lab


def _sockets(conn: HTTPConnection) -> SocketCounts:
    sockets: SocketCounts = conn.app.state.sockets
    return sockets


def _metrics(conn: HTTPConnection) -> Metrics:
    metrics: Metrics = conn.app.state.metrics
    return metrics


Service = Annotated[MatchService, Depends(_service)]
AppSettings = Annotated[Settings, Depends(_settings)]
Limiter = Annotated[RateLimiter, Depends(_limiter)]
Shelf = Annotated[ReplayShelf, Depends(_shelf)]
TheLab = Annotated[Lab, Depends(_lab)]
Sockets = Annotated[SocketCounts, Depends(_sockets)]
AppMetrics = Annotated[Metrics, Depends(_metrics)]


# ----- who asks -------------------------------------------------------------------------------
#: A browser's player key (a random secret it keeps, linking its seats: "Your games").
PlayerKey = Annotated[str | None, Header(alias="X-Takujo-Player", max_length=200)]
#: A seat's (or the operator's) token as ``Authorization: Bearer …``.
Authorization = Annotated[str | None, Header()]


def need_player(key: str | None) -> str:
    """The hash of a required player key."""
    player = client_player(key)
    if player is None:
        raise OptionError("web.no_player_key")
    return player


def token_of(authorization: str | None, token: str | None) -> str | None:
    """The token of a bearer header, else of the ``token`` query parameter."""
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return token or None


def address(conn: HTTPConnection) -> str:
    """The client's address, which the rate limits count by."""
    return conn.client.host if conn.client else "?"


def limited(kind: str) -> Callable[[Request], None]:
    """A route dependency counting the request against the limit `kind` (429 past it)."""
    def check(request: Request) -> None:
        _limiter(request).hit(kind, address(request))
    return check


# ----- documented errors and shared answers ---------------------------------------------------
class ErrorBody(BaseModel):
    error: dict[str, Any]


ERRORS: dict[int | str, dict[str, Any]] = {
    403: {"model": ErrorBody, "description": "missing or wrong token, or a seat that may not do this"},
    404: {"model": ErrorBody, "description": "no such match"},
    409: {"model": ErrorBody, "description": "stale version: someone acted in between"},
    422: {"model": ErrorBody, "description": "an illegal or unreadable action, or bad options"},
    429: {"model": ErrorBody, "description": "too many requests from this address (see Retry-After)"},
}


@lru_cache(maxsize=64)
def catalogue_of(game: Any) -> Any:
    """The card catalogue of a game the server holds (games are immutable and hash by their
    game string; one with an uploaded card set is not loaded again from its name)."""
    return game.export_catalogue()
