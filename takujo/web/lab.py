"""The Lab page's experiments: a designer picks a game, two variants (an option's values, or
card set A against card set B), bots and a number of games (or "until decided"); the server
runs the balance lab (`takujo sim --compare … --out DIR`) in a process of its own, one
experiment at a time by default, and serves its progress and report.

Running one uses the server's CPU for minutes, so only the operator may start one: a request
from the server's own machine (a loopback address, as the server sees it after `--proxy`),
or one carrying the operator token (`takujo serve --operator-token`, else the environment's
TAKUJO_OPERATOR_TOKEN). Anyone may read the list and the reports (statistics only). The
experiments' folders are chosen by the server (an id it made); nothing a client sends names
a path. Uploaded card sets reach the experiment's process as texts (`takujo.core.sources`),
never as files.
"""
from __future__ import annotations

import hmac
import json
import multiprocessing
import os
import re
import sqlite3
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..core import sources
from ..core.errors import OptionError, TakujoError
from ..core.registry import names

EXPERIMENT_ID = re.compile(r"[0-9a-f]{12}")
#: An option value the Lab accepts: letters, digits and ``_.:-``, up to the length of a deck
#: code (``code:…``, at most 2,000 characters), so that two decks can be compared.
LAB_VALUE = re.compile(r"[A-Za-z0-9_.:\-]{1,2000}")
#: Experiments kept (the oldest finished ones are listed no more beyond this).
LISTED = 50


class ExperimentRequest(BaseModel):
    """An experiment from the Lab page: two variants of one game, paired over the same seeds."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=40, examples=["ibara"])
    players: int | None = Field(None, ge=2, le=8)
    kind: Literal["option", "cards"] = Field("option", description="compare an option's values, or two card sets")
    key: str = Field(max_length=40, examples=["ryan_last"], description="the option compared (kind option), or the card option (kind cards)")
    values: list[str] = Field(min_length=2, max_length=2, examples=[["false", "true"]],
                              description="the two values; for card sets, set names or \"\" for the built-in file")
    bots: str = Field("heuristic", max_length=80)
    games: int = Field(100, ge=10, le=2000)
    until_decided: bool = False


@dataclass
class Experiment:
    """One experiment's folder and what is known of it."""

    id: str
    folder: Path
    spec: dict[str, Any]
    created: float
    process: Any = None

    @property
    def status(self) -> str:
        """running, done (its report is written) or failed (or cut short by a restart)."""
        if self.process is not None and self.process.is_alive():
            return "running"
        return "done" if (self.folder / "out" / "report.html").is_file() else "failed"

    def games_done(self) -> int:
        db = self.folder / "out" / "results.db"
        if not db.is_file():
            return 0
        try:
            with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1) as conn:
                tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
                table = "games" if "games" in tables else (tables[0] if tables else None)
                return int(conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]) if table else 0
        except sqlite3.Error:
            return 0

    def games_planned(self) -> int:
        """The games the run plays (at most, until decided): its seeds × seat rotations ×
        variants as the lab recorded them (a seed plays every rotation when the bots differ),
        else the games asked for each variant."""
        db = self.folder / "out" / "results.db"
        try:
            with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1) as conn:
                row = conn.execute("SELECT value FROM experiment WHERE key = 'description'").fetchone()
            plan = json.loads(row[0])
            first, last = plan["seeds"]
            return (int(last) - int(first) + 1) * int(plan["rotations"]) * len(plan["variants"])
        except (sqlite3.Error, TypeError, ValueError, KeyError):
            return int(self.spec["games"]) * 2

    def report_path(self) -> Path | None:
        path = self.folder / "out" / "report.html"
        return path if path.is_file() else None

    def log_tail(self, lines: int = 12) -> list[str]:
        try:
            return (self.folder / "log.txt").read_text(encoding="utf-8", errors="replace").splitlines()[-lines:]
        except OSError:
            return []

    def to_json(self) -> dict[str, Any]:
        status = self.status
        out: dict[str, Any] = {"id": self.id, "spec": self.spec, "created": self.created, "status": status,
                               "games_done": self.games_done(),
                               "games_planned": self.games_planned()}
        if status == "done":
            out["report_url"] = f"/api/lab/experiments/{self.id}/report"
        if status == "failed":
            out["log"] = self.log_tail()
        return out


def _run(argv: list[str], texts: list[str], folder: str, server: int) -> None:
    """In the experiment's process: die with the server's process (`server`) however it dies,
    hold the card sets, then run `takujo sim` with its output in the folder's log."""
    import sys

    from ..lab.runner import die_with_parent
    die_with_parent(server)
    for text in texts:
        sources.register(text)
    log = open(os.path.join(folder, "log.txt"), "w", encoding="utf-8")
    sys.stdout = sys.stderr = log
    os.environ["TAKUJO_LANG"] = os.environ.get("TAKUJO_LANG", "en")
    from ..cli import app
    try:
        app(argv, prog_name="takujo", standalone_mode=False)
    except SystemExit as exc:
        log.flush()
        os._exit(int(exc.code or 0))
    except BaseException as exc:  # noqa: BLE001 - the log says what failed; the exit code too
        print(f"error: {exc}", file=log)
        log.flush()
        os._exit(1)
    log.flush()
    os._exit(0)


class Lab:
    """The experiments of one server process."""

    def __init__(self, folder: Path, operator_token: str | None, slots: int = 1, levels: tuple[str, ...] = ()) -> None:
        self.folder = folder
        self.token = operator_token or os.environ.get("TAKUJO_OPERATOR_TOKEN") or None
        self.slots = slots
        self.levels = set(levels)
        self.running: dict[str, Experiment] = {}

    def operator(self, client_host: str | None, token: str | None) -> bool:
        """Whether a request may start an experiment: from this machine, or with the operator token."""
        if self.token and token and hmac.compare_digest(self.token.encode(), token.encode()):
            return True
        return client_host in ("127.0.0.1", "::1", "localhost")

    def _argv(self, req: ExperimentRequest, out: Path) -> tuple[list[str], list[str]]:
        if req.game not in names():
            raise OptionError("web.no_game", name=req.game[:40])
        bots = [b.strip() for b in req.bots.split(",") if b.strip()]
        if not bots or any(b not in self.levels for b in bots):
            raise OptionError("web.bot_level", level=req.bots[:40], levels=sorted(self.levels))
        texts: list[str] = []
        values = list(req.values)
        if req.kind == "cards":
            from .cardsets import builtin_text, set_options
            if req.key not in set_options(req.game):
                raise OptionError("web.set_option", option=req.key[:40], options=", ".join(set_options(req.game)))
            for i, value in enumerate(values):
                if value == "":
                    text = builtin_text(req.game, req.key)
                    values[i] = sources.register(text)
                else:
                    text = sources.text_of(value) or ""
                    if not sources.NAME.fullmatch(value) or not text:
                        raise OptionError("web.no_card_set", name=value[:20])
                texts.append(text)
        for value in values:
            if not LAB_VALUE.fullmatch(value):
                raise OptionError("web.lab_value", value=value[:40])
        if not re.fullmatch(r"[a-z_][a-z0-9_]{0,39}", req.key):
            raise OptionError("web.lab_value", value=req.key[:40])
        argv = ["sim", req.game, "--compare", f"{req.key}={','.join(values)}", "--games", str(req.games),
                "--bots", ",".join(bots), "--out", str(out), "--workers", "1"]
        if req.players:
            argv += ["--players", str(req.players)]
        if req.until_decided:
            argv.append("--until-decided")
        return argv, texts

    def start(self, req: ExperimentRequest) -> Experiment:
        busy = [e for e in self.running.values() if e.status == "running"]
        if len(busy) >= self.slots:
            raise OptionError("web.lab_busy", slots=self.slots)
        exp_id = uuid.uuid4().hex[:12]
        folder = self.folder / exp_id
        argv, texts = self._argv(req, folder / "out")
        folder.mkdir(parents=True)
        spec = req.model_dump()
        (folder / "experiment.json").write_text(json.dumps({"id": exp_id, "spec": spec, "created": time.time()}),
                                                encoding="utf-8")
        process = multiprocessing.get_context("spawn").Process(target=_run, args=(argv, texts, str(folder), os.getpid()),
                                                                name=f"takujo-lab-{exp_id}", daemon=True)
        exp = Experiment(exp_id, folder, spec, time.time(), process)
        process.start()
        self.running[exp_id] = exp
        return exp

    def get(self, exp_id: str) -> Experiment:
        from .service import NotFound
        if not EXPERIMENT_ID.fullmatch(str(exp_id)):
            raise NotFound("web.no_experiment", id=str(exp_id)[:20])
        if exp_id in self.running:
            return self.running[exp_id]
        meta = self.folder / exp_id / "experiment.json"
        if not meta.is_file():
            raise NotFound("web.no_experiment", id=exp_id)
        data = json.loads(meta.read_text(encoding="utf-8"))
        return Experiment(exp_id, self.folder / exp_id, data["spec"], data["created"])

    def list(self) -> list[Experiment]:
        if not self.folder.is_dir():
            return []
        ids = sorted((p.name for p in self.folder.iterdir() if EXPERIMENT_ID.fullmatch(p.name)),
                     key=lambda i: (self.folder / i).stat().st_mtime, reverse=True)[:LISTED]
        out = []
        for exp_id in ids:
            try:
                out.append(self.get(exp_id))
            except (TakujoError, OSError, ValueError, KeyError):
                continue
        return out

    def close(self) -> None:
        for exp in self.running.values():
            if exp.process is not None and exp.process.is_alive():
                exp.process.terminate()
