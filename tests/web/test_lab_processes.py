"""A Lab page experiment runs in a process of its own: it dies with the server, however the
server dies (a SIGKILL gives it no chance to stop its children), so that no experiment goes
on using the machine's CPU for a server that is gone (Linux: read from /proc)."""
from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from tests.lab.test_workers import _alive, _descendants

from .limits import cli_args
from .server import LiveServer

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc (Linux)")


def _holding(pids: set[int], folder: Path) -> set[int]:
    """The processes among `pids` with a file of `folder` open (the experiment writes its log there)."""
    found = set()
    for pid in pids:
        try:
            links = [os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")]
        except OSError:
            continue
        if any(link.startswith(str(folder)) for link in links):
            found.add(pid)
    return found


def _wait(condition, seconds: float = 60.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return condition()


def test_an_experiment_dies_with_a_killed_server(tmp_path: Path) -> None:
    lab_dir = tmp_path / "lab"
    server = LiveServer(tmp_path / "t.db", extra=[*cli_args(), "--lab-dir", str(lab_dir)])
    server.start()
    try:
        status, exp = server.call("POST", "/api/lab/experiments",      # from this machine: the operator
                                  {"game": "ibara", "kind": "option", "key": "ryan_last",
                                   "values": ["false", "true"], "games": 2000})
        assert status == 201, exp
        folder = (lab_dir / exp["id"]).resolve()
        assert server.proc is not None
        running: set[int] = set()

        def started() -> bool:
            running.update(_holding({p for p in _descendants(server.proc.pid) if _alive(p)}, folder))
            return bool(running)
        assert _wait(started), "the experiment's process never opened its folder"
        assert server.call("GET", f"/api/lab/experiments/{exp['id']}")[1]["status"] == "running"
        server.kill()
        assert _wait(lambda: not any(_alive(p) for p in running)), \
            f"the experiment outlived the server: {sorted(p for p in running if _alive(p))}"
    finally:
        server.stop()
        for pid in _holding({int(e) for e in os.listdir("/proc") if e.isdigit()}, lab_dir.resolve()):
            os.kill(pid, signal.SIGKILL)               # only if the test failed: nothing it started outlives it


def test_the_progress_counts_every_seat_rotation_the_lab_plays(tmp_path: Path) -> None:
    """Differing bots play each seed in every rotation of the seats: 10 games asked of each
    variant among 4 players are 3 seeds × 4 rotations, 24 games for the two variants."""
    import subprocess
    import sys

    from takujo.web.lab import Experiment
    out = tmp_path / "exp" / "out"
    subprocess.run([sys.executable, "-m", "takujo", "sim", "ibara", "--players", "4", "--compare", "ryan_last=false,true",
                    "--bots", "heuristic,random", "--games", "10", "--out", str(out), "--workers", "1"],
                   check=True, capture_output=True, timeout=600)
    exp = Experiment("0" * 12, tmp_path / "exp", {"games": 10}, time.time())
    assert exp.games_planned() == 24
    assert exp.games_done() == 24
    assert Experiment("1" * 12, tmp_path / "none", {"games": 10}, time.time()).games_planned() == 20   # not begun: as asked


def test_the_lab_page_compares_two_decks_by_their_codes(tmp_path: Path) -> None:
    """A 戦国大戦 双 deck code (about 150 characters for a starter) is a value the Lab page
    accepts; the lab itself builds both variants from the argument the page gives it; a value
    longer than any deck code, or one naming a path, is refused."""
    from takujo.core.errors import OptionError
    from takujo.core.registry import make_game
    from takujo.lab.experiment import Experiment as LabExperiment
    from takujo.web.lab import ExperimentRequest, Lab
    game = type(make_game("sengoku_taisen"))
    codes = [game.deck_from_text(game.deck_text(name)) for name in game.starter_deck_names()[:2]]
    assert min(map(len, codes)) > 80
    lab = Lab(tmp_path, None, levels=("heuristic",))
    argv, _ = lab._argv(ExperimentRequest(game="sengoku_taisen", key="deck1", values=codes, games=10), tmp_path / "out")
    compare = argv[argv.index("--compare") + 1]
    assert compare == f"deck1={codes[0]},{codes[1]}"
    exp = LabExperiment.make("sengoku_taisen", {}, [compare], ["heuristic"], 10, 1, 2000)
    assert [v.options for v in exp.variants] == [(("deck1", codes[0]),), (("deck1", codes[1]),)]
    for bad in ("code:" + "x" * 2000, "../../etc/passwd", "a,b"):
        with pytest.raises(OptionError):
            lab._argv(ExperimentRequest(game="sengoku_taisen", key="deck1", values=[codes[0], bad], games=10), tmp_path / "out")


def test_one_experiment_runs_at_a_time(tmp_path: Path) -> None:
    from takujo.core.errors import OptionError
    from takujo.web.lab import ExperimentRequest, Lab
    lab = Lab(tmp_path, None, slots=1, levels=("heuristic",))
    req = ExperimentRequest(game="ibara", key="ryan_last", values=["false", "true"], games=2000)
    try:
        first = lab.start(req)
        assert first.status == "running"
        with pytest.raises(OptionError) as busy:
            lab.start(req)
        assert busy.value.message_id == "web.lab_busy"
        assert [e.id for e in lab.list()] == [first.id]          # the refused one left nothing behind
    finally:
        lab.close()
        for exp in lab.running.values():
            exp.process.join(30)
