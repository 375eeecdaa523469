"""A real `takujo serve` process for the web tests, on 127.0.0.1 and a free port, with its
own SQLite file; stopped (and waited for) when the test is done."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from .limits import cli_args


def _die_with_parent() -> None:
    """In the child: be sent SIGTERM when the test process dies, even if it is killed (Linux),
    so that a server never outlives its test."""
    try:
        import ctypes
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    """``takujo serve --no-browser`` in a child process."""

    def __init__(self, db: Path | str, port: int | None = None, extra: list[str] | None = None,
                 env: dict[str, str] | None = None) -> None:
        self.db = db
        self.env = env or {}
        self.extra = extra if extra is not None else cli_args()
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None

    def start(self) -> "LiveServer":
        env = {**os.environ, "TAKUJO_LANG": "en", "PYTHONUNBUFFERED": "1", **self.env}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "takujo", "serve", "--no-browser", "--host", "127.0.0.1",
             "--port", str(self.port), "--db", str(self.db), *self.extra],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, preexec_fn=_die_with_parent)
        deadline = time.time() + 30
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"takujo serve exited: {self.proc.stdout.read() if self.proc.stdout else ''}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/ui", timeout=1):
                    return self
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("takujo serve did not start within 30 s")

    def kill(self) -> None:
        """Kill the server at once (SIGKILL), as a crash would."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        if self.proc is not None and self.proc.stdout is not None:
            self.proc.stdout.close()

    # ----- a tiny HTTP client -------------------------------------------------------------
    def call(self, method: str, path: str, body: Any = None, token: str | None = None,
             headers: dict[str, str] | None = None) -> tuple[int, Any]:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.url + path, data=data, method=method, headers=headers or {})
        if data is not None:
            req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(req, timeout=30) as res:
                raw = res.read().decode()
                return res.status, (json.loads(raw) if res.headers.get_content_type() == "application/json" else raw)
        except urllib.error.HTTPError as err:
            raw = err.read().decode()
            return err.code, json.loads(raw) if raw.startswith("{") else raw
