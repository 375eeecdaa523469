"""The lab's worker processes die with it, however it is killed (Linux: read from /proc)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc (Linux)")


def _die_with_test() -> None:
    """In the lab's process: be killed if this test process dies, so nothing outlives it."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _stat(pid: int) -> tuple[str, int] | None:
    """(state, parent) of a process, None when it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    fields = text[text.rindex(")") + 2:].split()
    return fields[0], int(fields[1])


def _descendants(root: int) -> set[int]:
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (st := _stat(int(entry))) is not None:
            parents[int(entry)] = st[1]
    found, grew = set(), True
    while grew:
        grew = False
        for pid, parent in parents.items():
            if pid not in found and (parent == root or parent in found):
                found.add(pid)
                grew = True
    return found


def _alive(pid: int) -> bool:
    st = _stat(pid)
    return st is not None and st[0] not in ("Z", "X")   # a zombie is dead, only not reaped yet


def _lab_with_workers(tmp_path: Path) -> tuple[subprocess.Popen, set[int]]:
    lab = subprocess.Popen(
        [sys.executable, "-m", "takujo", "sim", "ibara", "--players", "4", "--compare", "ryan_last=false,true",
         "--games", "5000", "--workers", "2", "--no-leads", "--out", str(tmp_path / "exp"), "--json"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=_die_with_test)
    deadline = time.monotonic() + 60
    workers: set[int] = set()
    while time.monotonic() < deadline and len(workers) < 2:
        assert lab.poll() is None, lab.stderr.read().decode() if lab.stderr else ""
        workers = {pid for pid in _descendants(lab.pid) if _alive(pid)}
        time.sleep(0.1)
    assert len(workers) >= 2, "the lab started no workers"
    # into their first games: each has thought for a second (past its start-up), however loaded the machine
    while time.monotonic() < deadline + 60 and not all(_cpu_seconds(pid) >= 1.0 for pid in workers if _alive(pid)):
        assert lab.poll() is None, lab.stderr.read().decode() if lab.stderr else ""
        time.sleep(0.1)
    return lab, workers


def _cpu_seconds(pid: int) -> float:
    """The CPU time process `pid` has used (0 once it is gone)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    fields = text[text.rindex(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")   # utime + stime


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_killing_the_lab_kills_its_workers(tmp_path, sig):
    lab, workers = _lab_with_workers(tmp_path)
    try:
        lab.send_signal(sig)
        lab.wait(30)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and any(_alive(pid) for pid in workers):
            time.sleep(0.1)
        assert not [pid for pid in workers if _alive(pid)], "workers outlived the lab"
    finally:
        for pid in workers:   # never leave one behind, whatever happened above
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
        if lab.poll() is None:
            lab.kill()
            lab.wait(10)
