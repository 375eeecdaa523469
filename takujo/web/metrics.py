"""Prometheus metrics of one server, at ``GET /metrics``.

    metrics = Metrics()
    install_metrics(app, metrics)            # the middleware and GET /metrics
    metrics.actions.labels(by="bot").inc()   # the app and its service count the rest

Each `Metrics` has its own registry (never prometheus_client's global one), so that many apps
in one process (the tests make one a test) each count their own. The middleware times every
HTTP request and labels it with the matched route's path template
(``/api/matches/{match_id}/actions``), never the path itself: match ids and tokens never
become label values. The other metrics are the app's to keep (the WebSocket endpoint counts
its sockets and their messages); ``live_matches.set_function(...)`` would read a gauge at
scrape time.
"""
from __future__ import annotations

import time

from fastapi import FastAPI
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: Methods kept as label values; any other (a client may send any token) is labelled "other".
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


class Metrics:
    """The server's metrics, in a registry of their own."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.live_matches = Gauge("takujo_live_matches", "Matches held in memory", registry=r)
        self.actions = Counter("takujo_actions_total", "Actions played, by a person or a bot", ["by"], registry=r)
        for by in ("person", "bot"):
            self.actions.labels(by=by)  # both series exist (at 0) before the first action
        self.bot_queue = Gauge("takujo_bot_queue", "Bot moves waiting for a worker", registry=r)
        self.bot_seconds = Counter("takujo_bot_seconds_total", "Seconds bot workers spent choosing moves",
                                   registry=r)
        self.rate_limited = Counter("takujo_rate_limited_total", "Requests or messages refused by a rate limit",
                                    ["limit"], registry=r)
        self.http_duration = Histogram("takujo_http_request_duration_seconds",
                                       "HTTP requests: seconds from the request to the end of the response",
                                       ["method", "route", "status"], registry=r)
        self.websockets = Gauge("takujo_websockets", "Open WebSockets", registry=r)
        self.ws_messages = Counter("takujo_ws_messages_total", "WebSocket messages received from clients",
                                   registry=r)

    def exposition(self) -> bytes:
        """Every metric in Prometheus' text format."""
        return generate_latest(self.registry)


def route_label(scope: Scope) -> str:
    """The path template of the route that handled `scope` (set by the router), else "other"."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    return path if isinstance(path, str) and path else "other"


class MetricsMiddleware:
    """Times HTTP requests by method, route template and status. Pure ASGI: the router sets
    ``scope["route"]`` on the scope it was given, so the label is read once the request has
    been handled. WebSockets and lifespan pass through untouched."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app, self.metrics = app, metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        status = 500  # what the server sends if the app raises or never starts a response
        start = time.perf_counter()

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            method = str(scope.get("method", "")).upper()
            self.metrics.http_duration.labels(
                method=method if method in METHODS else "other", route=route_label(scope),
                status=str(status)).observe(time.perf_counter() - start)


def install_metrics(app: FastAPI, metrics: Metrics, *, path: str = "/metrics") -> None:
    """Add the middleware and ``GET /metrics`` (outside the OpenAPI schema) to `app`, which
    must not have started yet; `metrics` is also ``app.state.metrics``."""
    app.state.metrics = metrics
    app.add_middleware(MetricsMiddleware, metrics=metrics)

    async def scrape(request: Request) -> Response:
        return Response(metrics.exposition(), media_type=CONTENT_TYPE_LATEST,
                        headers={"cache-control": "no-store"})

    app.add_api_route(path, scrape, methods=["GET"], include_in_schema=False)
