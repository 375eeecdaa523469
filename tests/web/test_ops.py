"""What an operator runs the server with: Prometheus metrics, the health check and the offline
API docs, each installed on a small app of its own (FastAPI's TestClient)."""
from __future__ import annotations

import asyncio
import re
from typing import Any
from urllib.parse import urlsplit

import pytest
from fastapi import FastAPI, WebSocket
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from takujo.web.docs_page import install_docs
from takujo.web.health import install_health
from takujo.web.metrics import Metrics, install_metrics

NAMES = ["takujo_live_matches", "takujo_actions_total", "takujo_bot_queue", "takujo_bot_seconds_total",
         "takujo_rate_limited_total", "takujo_http_request_duration_seconds", "takujo_websockets",
         "takujo_ws_messages_total"]


def small_app(metrics: Metrics) -> FastAPI:
    app = FastAPI(title="ops", docs_url=None, redoc_url=None)

    @app.get("/api/matches/{match_id}/state")
    def state(match_id: str) -> dict[str, str]:
        return {"match": match_id}

    @app.get("/boom")
    def boom() -> None:
        raise RuntimeError("boom")

    @app.websocket("/ws/{match_id}")
    async def ws(sock: WebSocket, match_id: str) -> None:
        await sock.accept()
        await sock.send_text("hello " + await sock.receive_text())
        await sock.close()

    install_metrics(app, metrics)
    return app


def samples(text: str) -> list[tuple[str, dict[str, str], float]]:
    return [(s.name, s.labels, s.value) for f in text_string_to_metric_families(text) for s in f.samples]


def count(text: str, route: str, **labels: str) -> float:
    return sum(v for name, ls, v in samples(text) if name == "takujo_http_request_duration_seconds_count"
               and ls["route"] == route and all(ls[k] == want for k, want in labels.items()))


# ----- metrics ------------------------------------------------------------------------------
def test_metrics_are_prometheus_text_with_every_metric():
    metrics = Metrics()
    with TestClient(small_app(metrics)) as client:
        metrics.actions.labels(by="bot").inc()
        metrics.rate_limited.labels(limit="actions").inc()
        client.get("/api/matches/abc/state")
        res = client.get("/metrics")
    assert res.status_code == 200
    assert res.headers["content-type"].startswith("text/plain")
    assert "version=" in res.headers["content-type"]
    for name in NAMES:
        assert f"# TYPE {name} " in res.text, name
    got = samples(res.text)  # parses as Prometheus' text format
    assert ("takujo_actions_total", {"by": "bot"}, 1.0) in got
    assert ("takujo_actions_total", {"by": "person"}, 0.0) in got


def test_requests_are_labelled_with_the_route_template_not_the_path():
    metrics = Metrics()
    secret = "sEcReT-tOkEn-1234"
    with TestClient(small_app(metrics), raise_server_exceptions=False) as client:
        for match in ("m1", "m2", secret):
            assert client.get(f"/api/matches/{match}/state?token={secret}").status_code == 200
        assert client.get(f"/no/such/{secret}").status_code == 404
        assert client.post("/api/matches/m1/state").status_code == 405
        assert client.get("/boom").status_code == 500
        assert client.request("BREW", "/api/matches/m1/state").status_code == 405
        text = client.get("/metrics").text
    assert secret not in text and "m1" not in text and "m2" not in text
    assert count(text, "/api/matches/{match_id}/state", method="GET", status="200") == 3
    assert count(text, "other", method="GET", status="404") == 1
    assert count(text, "/api/matches/{match_id}/state", method="POST", status="405") == 1
    assert count(text, "/boom", status="500") == 1
    assert count(text, "/api/matches/{match_id}/state", method="other") == 1  # no label from a client's word


def test_websockets_pass_through_untimed():
    metrics = Metrics()  # the WebSocket endpoint keeps takujo_websockets and takujo_ws_messages_total
    with TestClient(small_app(metrics)) as client:
        with client.websocket_connect("/ws/m1") as sock:
            sock.send_text("there")
            assert sock.receive_text() == "hello there"
        text = client.get("/metrics").text
    assert count(text, "/ws/{match_id}") == 0
    assert ("takujo_websockets", {}, 0.0) in samples(text)


def test_each_app_counts_its_own():
    one, two = Metrics(), Metrics()  # no "Duplicated timeseries" from a shared registry
    with TestClient(small_app(one)) as a, TestClient(small_app(two)) as b:
        a.get("/api/matches/x/state")
        assert count(a.get("/metrics").text, "/api/matches/{match_id}/state") == 1
        assert count(b.get("/metrics").text, "/api/matches/{match_id}/state") == 0


# ----- the health check ---------------------------------------------------------------------
def health_client(check: Any, timeout: float = 5.0) -> TestClient:
    app = FastAPI(docs_url=None, redoc_url=None)
    install_health(app, check, timeout=timeout)
    return TestClient(app)


def test_healthz_ok():
    async def check() -> dict[str, Any]:
        return {"store": "ok", "matches": 3}
    res = health_client(check).get("/healthz")
    assert res.status_code == 200
    assert res.json() == {"status": "ok", "store": "ok", "matches": 3}
    assert res.headers["cache-control"] == "no-store"


@pytest.mark.parametrize("report", [{"store": "failing"}, {"store": False}, {"store": "ok", "bots": "stuck"}])
def test_healthz_a_failing_part(report: dict[str, Any]):
    async def check() -> dict[str, Any]:
        return report
    res = health_client(check).get("/healthz")
    assert res.status_code == 503
    assert res.json() == {"status": "failing", **report}


def test_healthz_a_check_that_raises_names_no_details():
    async def check() -> dict[str, Any]:
        raise OSError("disk I/O error at /srv/secret/takujo.db")
    res = health_client(check).get("/healthz")
    assert res.status_code == 503
    assert res.json() == {"status": "failing", "error": "OSError"}


def test_healthz_a_check_that_hangs():
    async def check() -> dict[str, Any]:
        await asyncio.sleep(10)
        return {"store": "ok"}
    res = health_client(check, timeout=0.05).get("/healthz")
    assert res.status_code == 503
    assert res.json() == {"status": "failing", "error": "timeout"}


def test_ops_routes_stay_out_of_the_schema():
    app = small_app(Metrics())

    async def check() -> dict[str, Any]:
        return {}
    install_health(app, check)
    install_docs(app)
    paths = TestClient(app).get("/openapi.json").json()["paths"]
    assert set(paths) == {"/api/matches/{match_id}/state", "/boom"}


# ----- the docs, offline --------------------------------------------------------------------
URL = re.compile(r"""(?:src|href)\s*=\s*["']([^"']+)["']|(https?://[^\s"'<>)]+)|url:\s*['"]([^'"]+)['"]""")


def local_urls(client: TestClient, page: str) -> list[str]:
    res = client.get(page)
    assert res.status_code == 200 and res.headers["content-type"].startswith("text/html")
    urls = [next(u for u in m.groups() if u) for m in URL.finditer(res.text)]
    for url in urls:
        assert urlsplit(url).netloc in ("", "testserver"), f"{page} loads {url} from elsewhere"
    return urls


def docs_client() -> TestClient:
    app = FastAPI(title="ops", docs_url=None, redoc_url=None)

    @app.get("/api/ping")
    def ping() -> str:
        return "pong"
    install_docs(app)
    return TestClient(app)


def test_swagger_ui_loads_only_from_this_server():
    client = docs_client()
    urls = local_urls(client, "/docs")
    assert "/openapi.json" in urls
    kinds = {}
    for url in urls:
        res = client.get(url)
        assert res.status_code == 200, url
        kinds[url.rsplit(".", 1)[-1]] = res.headers["content-type"]
    assert "javascript" in kinds["js"] and kinds["css"].startswith("text/css")
    assert kinds["png"] == "image/png"  # the favicon
    assert "SwaggerUIBundle" in client.get(next(u for u in urls if u.endswith(".js"))).text
    assert '"validatorUrl": null' in client.get("/docs").text  # no badge fetched from swagger.io
    assert client.get("/docs/oauth2-redirect").status_code == 200


def test_redoc_loads_only_from_this_server():
    client = docs_client()
    urls = local_urls(client, "/redoc")
    assert "fonts.googleapis" not in client.get("/redoc").text
    scripts = [u for u in urls if u.endswith(".js")]
    assert scripts
    for url in scripts:
        res = client.get(url)
        assert res.status_code == 200 and "javascript" in res.headers["content-type"]


def test_docs_behind_a_root_path():
    app = FastAPI(title="ops", docs_url=None, redoc_url=None)
    install_docs(app)
    urls = local_urls(TestClient(app, root_path="/takujo"), "/docs")
    assert all(u.startswith("/takujo/") for u in urls), urls
