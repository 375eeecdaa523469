"""`takujo serve` on a port another socket already listens on: one clear error, exit code 2."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

from takujo.web.port import port_free


def listening() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    return sock


def test_port_free():
    with listening() as sock:
        port = sock.getsockname()[1]
        assert not port_free("127.0.0.1", port)
        assert not port_free("0.0.0.0", port)  # a wildcard bind collides with it too
    assert port_free("127.0.0.1", port)
    assert port_free("127.0.0.1", 0)
    assert port_free("no-such-host.invalid", port)  # left for the server to report


def test_serve_on_a_busy_port(tmp_path: Path):
    env = {**os.environ, "TAKUJO_LANG": "en"}
    with listening() as sock:
        port = sock.getsockname()[1]
        run = subprocess.run([sys.executable, "-m", "takujo", "serve", "--no-browser", "--port", str(port),
                              "--db", str(tmp_path / "x.db")], capture_output=True, text=True, timeout=60,
                             env=env, stdin=subprocess.DEVNULL)
    assert run.returncode == 2, (run.stdout, run.stderr)
    lines = [line for line in (run.stdout + run.stderr).splitlines() if line.strip()]
    assert len(lines) == 1, lines
    assert f"port {port} on 127.0.0.1 is in use" in lines[0] and "--port" in lines[0]
    assert "Traceback" not in run.stderr and "lobby" not in run.stdout
    assert not (tmp_path / "x.db").exists()  # the server never started


def test_serve_on_a_busy_port_in_japanese(tmp_path: Path):
    env = {**os.environ, "TAKUJO_LANG": "ja"}
    with listening() as sock:
        port = sock.getsockname()[1]
        run = subprocess.run([sys.executable, "-m", "takujo", "serve", "--no-browser", "--port", str(port),
                              "--db", str(tmp_path / "x.db")], capture_output=True, text=True, timeout=60,
                             env=env, stdin=subprocess.DEVNULL)
    assert run.returncode == 2
    assert f"ポート {port} は使用中" in run.stderr and "ロビー" not in run.stdout
