"""``GET /healthz``: whether the server can serve, for a load balancer or a process supervisor.

    async def check() -> dict[str, Any]:
        store.ping()
        return {"store": "ok", "matches": len(service.matches)}

    install_health(app, check)

200 ``{"status": "ok", ...the check's report}`` when the check returns a report with no failing
part; 503 ``{"status": "failing", ...}`` when a part fails (its value is ``False`` or a string
other than ``"ok"``; other values, such as counts, are only reported), when the check raises
(the body names the exception's class, never its message) or when it takes longer than
`timeout` seconds.
"""
from __future__ import annotations

import asyncio
import logging
from typing import Any, Awaitable, Callable, Mapping

from fastapi import FastAPI
from fastapi.responses import JSONResponse

#: The check: an async callable reporting each part's state, e.g. ``{"store": "ok"}``.
HealthCheck = Callable[[], Awaitable[Mapping[str, Any]]]
log = logging.getLogger("takujo.web")


def failing(report: Mapping[str, Any]) -> list[str]:
    """The parts of `report` that fail: those whose value is False or a string other than "ok"."""
    return [k for k, v in report.items() if v is False or (isinstance(v, str) and v != "ok")]


def install_health(app: FastAPI, check: HealthCheck, *, path: str = "/healthz", timeout: float = 5.0) -> None:
    """Add ``GET /healthz`` (outside the OpenAPI schema), answering from `check`."""

    async def healthz() -> JSONResponse:
        try:
            report = dict(await asyncio.wait_for(check(), timeout))
        except asyncio.TimeoutError:
            log.warning("health check took over %s s", timeout)
            report, bad = {"error": "timeout"}, True
        except Exception as exc:  # any failure of the check is the server's failure
            log.exception("health check failed")
            report, bad = {"error": type(exc).__name__}, True
        else:
            bad = bool(failing(report))
        report.pop("status", None)
        return JSONResponse({"status": "failing" if bad else "ok", **report}, status_code=503 if bad else 200,
                            headers={"cache-control": "no-store"})

    app.add_api_route(path, healthz, methods=["GET"], include_in_schema=False)
