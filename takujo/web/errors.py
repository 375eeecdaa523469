"""Every error the server answers with is one JSON body, in the client's language::

    {"error": {"status": 422, "code": "illegal", "message": "...", "id": "action.not_legal"}}

whatever went wrong: an engine error, a request FastAPI could not read (bad JSON, too deep,
too long a number, invalid UTF-8), an unknown address, a body over the limit (413, chunked or
not), a rate limit (429 with ``Retry-After``), the store out of reach (503). No body carries a
stack trace, a file's contents or a server path.
"""
from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..core.errors import IllegalActionError, OptionError, StaleActionError, TakujoError
from ..present.catalogue import ui_text
from ..present.language import parse_language
from .ratelimit import RateLimited

log = logging.getLogger("takujo.web")


def client_lang(request_lang: str | None, accept: str | None = None) -> str:
    """The client's language: ``?lang=``, else its Accept-Language, else English."""
    if request_lang:
        try:
            return parse_language(request_lang)
        except OptionError:
            return "en"
    if accept and accept.strip().lower().startswith("ja"):
        return "ja"
    return "en"


def request_lang(request: Request) -> str:
    return client_lang(request.query_params.get("lang"), request.headers.get("accept-language"))


def error_response(status: int, code: str, message: str, msg_id: str | None = None,
                   headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": {"status": status, "code": code, "message": message, "id": msg_id}},
                        status_code=status, headers=headers)


def status_of(exc: TakujoError) -> tuple[int, str]:
    """The HTTP status and code of an engine or server error."""
    from .match import NotYourTurn
    from .service import Forbidden, NotFound
    if isinstance(exc, RateLimited):
        return 429, "rate_limited"
    if isinstance(exc, Forbidden):
        return 403, "forbidden"
    if isinstance(exc, NotFound):
        return 404, "not_found"
    if isinstance(exc, StaleActionError):
        return 409, "stale"
    if isinstance(exc, NotYourTurn):
        return 403, "not_your_turn"
    if isinstance(exc, IllegalActionError):
        return 422, "illegal"
    return 422, "bad_request"  # options, records, unsupported requests, bad messages


def engine_error_body(exc: TakujoError, lang: str) -> dict[str, Any]:
    """An engine error as the ``error`` object (also sent over the WebSocket)."""
    status, code = status_of(exc)
    return {"status": status, "code": code, "message": exc.text(lang), "id": exc.message_id}


class BodyTooLarge(HTTPException):
    """A request body over the limit: raised while it is read, so FastAPI passes it on."""

    def __init__(self, limit: int) -> None:
        super().__init__(413)
        self.limit = limit


class BodyLimit:
    """Refuses request bodies larger than `limit` bytes (413) before they are read whole,
    whether they announce their length or come in chunks."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None and (not length.isdigit() or len(length) > 12 or int(length) > self.limit):
            await self._refuse(scope, receive, send)
            return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit:
                raise BodyTooLarge(self.limit)
            return message

        try:
            await self.app(scope, limited, send)
        except BodyTooLarge:  # read outside a route (no handler saw it)
            await self._refuse(scope, receive, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        lang = client_lang(None, dict(scope.get("headers") or []).get(b"accept-language", b"").decode("latin-1"))
        text = TakujoError("web.too_large", limit=self.limit).text(lang)
        await error_response(413, "too_large", text, "web.too_large")(scope, receive, send)


def install_error_handlers(app: FastAPI) -> None:
    """Answer every error with the JSON error body."""

    @app.exception_handler(TakujoError)
    async def engine_error(request: Request, exc: TakujoError) -> JSONResponse:
        body = engine_error_body(exc, request_lang(request))
        headers = {"Retry-After": str(exc.retry_after)} if isinstance(exc, RateLimited) else None
        if isinstance(exc, RateLimited) and hasattr(request.app.state, "metrics"):
            request.app.state.metrics.rate_limited.labels(limit=exc.limit).inc()
        return error_response(body["status"], body["code"], body["message"], body["id"], headers)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        from ..core.validation import field_name, problem
        lang = request_lang(request)
        problems = [f"{field_name(e, 'body')}: {problem(e).text(lang)}" for e in exc.errors()]
        return error_response(422, "bad_request", "; ".join(problems))

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        lang = request_lang(request)
        if isinstance(exc, BodyTooLarge):
            return error_response(413, "too_large", TakujoError("web.too_large", limit=exc.limit).text(lang),
                                  "web.too_large")
        path = request.url.path[:80]
        if exc.status_code == 404:
            return error_response(404, "not_found", TakujoError("web.no_route", path=path).text(lang), "web.no_route")
        if exc.status_code == 405:
            return error_response(405, "method", TakujoError("web.method", path=path, method=request.method)
                                  .text(lang), "web.method", headers=dict(exc.headers or {}))
        if exc.status_code == 400:  # FastAPI could not read the body (JSON too deep, a huge number, bad bytes)
            cause = exc.__cause__
            detail = "too deeply nested" if isinstance(cause, RecursionError) else \
                "a number over 4300 digits" if isinstance(cause, ValueError) and "digits" in str(cause) else \
                "not valid JSON or text"
            return error_response(400, "bad_request", TakujoError("web.bad_body", detail=detail).text(lang),
                                  "web.bad_body")
        return error_response(exc.status_code, "error", str(exc.detail)[:200])

    @app.exception_handler(Exception)
    async def crashed(request: Request, exc: Exception) -> JSONResponse:
        if _store_down(exc):
            log.warning("the store cannot be reached: %s", type(exc).__name__)
            return error_response(503, "unavailable", TakujoError("web.store_down").text(request_lang(request)),
                                  "web.store_down", {"Retry-After": "5"})
        log.exception("internal error on %s", request.url.path)
        return error_response(500, "internal", ui_text("ui.web.internal", request_lang(request)))


def _store_down(exc: Exception) -> bool:
    """Whether `exc` says the database is out of reach (PostgreSQL down, SQLite locked)."""
    from .store import StoreError
    return isinstance(exc, StoreError)
