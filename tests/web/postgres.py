"""A real, throw-away PostgreSQL server for the tests: its own data folder in a temporary
directory, 127.0.0.1 and a free port, trust authentication for the user ``takujo``, no fsync.
As root the server runs as the ``postgres`` user (PostgreSQL refuses to run as root). A
watchdog stops it and removes its folder if the test process dies without stopping it."""
from __future__ import annotations

import atexit
import os
import re
import shutil
import subprocess
import shlex
import stat
import tempfile
import uuid
from pathlib import Path

from .server import free_port

DEBIAN = Path("/usr/lib/postgresql")
USER = "takujo"


def find_bin() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl``: on the PATH, else Debian's newest version."""
    initdb, pg_ctl = shutil.which("initdb"), shutil.which("pg_ctl")
    if initdb and pg_ctl:
        folder = Path(initdb).resolve().parent
        if (folder / "pg_ctl").exists():
            return folder
    versions = []
    for candidate in DEBIAN.glob("*/bin"):
        if (candidate / "initdb").exists() and (candidate / "pg_ctl").exists():
            numbers = [int(n) for n in re.findall(r"\d+", candidate.parent.name)]
            versions.append((numbers, candidate))
    return max(versions)[1] if versions else None


def _reachable_by_all(folder: Path) -> bool:
    """Whether every user may enter `folder` (and each folder above it)."""
    return all(p.stat().st_mode & stat.S_IXOTH for p in [folder.resolve(), *folder.resolve().parents])


class PostgresServer:
    """``initdb`` then ``pg_ctl start``; `stop` stops it and removes everything."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin = bin_dir
        self.root = os.geteuid() == 0
        parent = tempfile.gettempdir()
        if self.root and not _reachable_by_all(Path(parent)):
            parent = "/tmp"      # the postgres user must reach its folder
        self.dir = Path(tempfile.mkdtemp(prefix="takujo-pg-", dir=parent))
        self.data = self.dir / "data"
        self.port = 0
        self._watchdog: subprocess.Popen[bytes] | None = None

    # ----- running PostgreSQL's programs ------------------------------------------------
    def _run(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        cmd = [str(self.bin / args[0]), *args[1:]]
        if self.root:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout,
                             cwd=self.dir, stdin=subprocess.DEVNULL)
        if out.returncode != 0:
            log = self.dir / "log"
            tail = log.read_text(errors="replace")[-3000:] if log.exists() else ""
            raise RuntimeError(f"{args[0]} failed ({out.returncode}):\n{out.stdout}\n{tail}")
        return out

    def start(self) -> "PostgresServer":
        try:
            if self.root:
                shutil.chown(self.dir, "postgres", "postgres")
            self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", USER, "--no-sync",
                      "-E", "UTF8", "--no-locale")
            self._watch()
            for attempt in range(3):     # the free port may be taken meanwhile (another test worker)
                self.port = free_port()
                try:
                    self._run("pg_ctl", "start", "-w", "-t", "60", "-D", str(self.data), "-l", str(self.dir / "log"),
                              "-o", f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.dir} -c fsync=off "
                                    "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
                    break
                except RuntimeError:
                    if attempt == 2:
                        raise
            atexit.register(self.stop)
            self._sql("postgres", f'CREATE DATABASE "{USER}"')
            return self
        except BaseException:
            self.stop()
            raise

    def _watch(self) -> None:
        """A watchdog that stops the server and removes its folder once this process is gone."""
        data, folder = shlex.quote(str(self.data)), shlex.quote(str(self.dir))
        stop = f"{shlex.quote(str(self.bin / 'pg_ctl'))} stop -m immediate -D {data}"
        if self.root:
            stop = f"runuser -u postgres -- {stop}"
        script = (f"while kill -0 {os.getpid()} 2>/dev/null; do sleep 1; done; "
                  f"[ -f {data}/postmaster.pid ] && {stop}; rm -rf {folder}")
        self._watchdog = subprocess.Popen(["sh", "-c", script], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                          stderr=subprocess.DEVNULL, start_new_session=True)

    def _sql(self, database: str, statement: str) -> None:
        import psycopg
        with psycopg.connect(self.url_of(database), autocommit=True) as conn:
            conn.execute(statement.encode())

    # ----- what the tests use ------------------------------------------------------------
    def url_of(self, database: str) -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    @property
    def url(self) -> str:
        return self.url_of(USER)

    def fresh_database(self, name: str | None = None) -> str:
        """The URL of a new, empty database."""
        name = name or f"t_{uuid.uuid4().hex[:16]}"
        if not re.fullmatch(r"[a-z_][a-z0-9_]{0,62}", name):
            raise ValueError(f"not a plain database name: {name!r}")
        self._sql("postgres", f'CREATE DATABASE "{name}"')
        return self.url_of(name)

    def drop_database(self, url: str) -> None:
        """Remove a database that `fresh_database` made (closing whatever is still connected)."""
        name = url.rsplit("/", 1)[1]
        if re.fullmatch(r"[a-z_][a-z0-9_]{0,62}", name) and name != USER:
            self._sql("postgres", f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def stop(self) -> None:
        try:
            if (self.data / "postmaster.pid").exists():
                try:
                    self._run("pg_ctl", "stop", "-m", "fast", "-w", "-D", str(self.data), timeout=60)
                except (RuntimeError, subprocess.TimeoutExpired):
                    self._run("pg_ctl", "stop", "-m", "immediate", "-w", "-D", str(self.data), timeout=60)
        finally:
            if self._watchdog is not None:
                self._watchdog.kill()
                self._watchdog.wait()
                self._watchdog = None
            shutil.rmtree(self.dir, ignore_errors=True)
            atexit.unregister(self.stop)


