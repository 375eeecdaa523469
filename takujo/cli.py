"""The ``takujo`` command: list games, play against bots, simulate bot games, replay records.

    takujo games
    takujo play fuutei --players 3 --seat 1 --bots heuristic,random
    takujo play ibara --players 4 --humans 0,2
    takujo play --resume game.jsonl
    takujo sim fuutei --players 4 --games 1000 --seed 1 --bots heuristic,random --workers 4
    takujo replay game-7.jsonl
    takujo deck list sengoku_taisen
    takujo deck show sengoku_taisen 蒼 > my-deck.txt
    takujo deck check sengoku_taisen my-deck.txt

Usage errors (an unknown game, option or bot) print one red line and exit with code 2; a bad
record given to ``replay`` exits with code 1; an illegal deck given to ``deck check`` exits
with code 1.

Every text for people comes from the message catalogues through `takujo.present.Renderer`, in
the language of ``--lang`` (default TAKUJO_LANG, else the locale); it is printed as rich markup
(a string that is not valid markup is printed as it is).
"""
from __future__ import annotations

import itertools
import json
import re
import sys
import time
import traceback
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, Iterator, NoReturn, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from . import __version__
from .core.errors import IllegalActionError, RecordError, TakujoError
from .core.game import Game, parse_game_string
from .core.events import visible_to
from .core.registry import game_class, make_game, names
from .core.rng import Rng
from .record import iter_record, read_record, replay_states, write_record
from .cli_usage import LocalizedGroup, localize_help_screens
from .sim import MAX_STEPS, GameCrash, Summary, bot_rng, checked_bot, run_games
from .present import Markup, Renderer, default_language, help_text, outcome_text, parse_language
from .present.catalogue import option_help, ui_text
from .terminal import Quit, TerminalTable, print_markup

localize_help_screens()


def _h(key: str, **args: Any) -> str:
    """A help text in the language of TAKUJO_LANG (else the locale), from present/help.toml."""
    return help_text(key, **args)


app = typer.Typer(
    name="takujo",
    cls=LocalizedGroup,
    help=_h("app", version=__version__),
    epilog=_h("epilog"),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

OptionArg = Annotated[list[str], typer.Option(
    "--option", "-o", metavar="KEY=VALUE",
    help=_h("option"))]


# ----- helpers --------------------------------------------------------------------------
def _out() -> Console:
    return Console(highlight=False)


#: The language of this command's messages: set from --lang by the commands that take it.
_lang: str | None = None


def _language() -> str:
    global _lang
    if _lang is None:
        try:
            _lang = default_language()
        except TakujoError:  # TAKUJO_LANG names a language we do not have
            _lang = "en"
    return _lang


def _set_language(lang: str | None) -> str:
    """The language --lang names (else the default); messages from here on use it."""
    global _lang
    with _usage_errors():
        _lang = parse_language(lang) if lang is not None else _language()
    return _lang


def _say(key: str, **args: Any) -> str:
    """One of the command line's messages (``ui.cli.<key>`` in present/ui.toml)."""
    return ui_text(f"ui.cli.{key}", _language(), **args)


def _fail_text(message: str, code: int = 2) -> NoReturn:
    text = ui_text("ui.cli.error", _language(), message=escape(message))
    Console(stderr=True, highlight=False).print(f"[red]{text}[/red]", soft_wrap=True)
    raise typer.Exit(code)


def _fail(key: str, code: int = 2, **args: Any) -> NoReturn:
    """Print the command line's message `key` as one red line and exit with `code`."""
    _fail_text(_say(key, **args), code)


def _error(exc: TakujoError, code: int = 2) -> NoReturn:
    """An engine error, in the command's language, as one red line."""
    _fail_text(exc.text(_language()), code)


@contextmanager
def _usage_errors(code: int = 2) -> Iterator[None]:
    """Engine errors become one red line and an exit code, never a traceback."""
    try:
        yield
    except TakujoError as exc:
        _error(exc, code)
    except OSError as exc:  # e.g. a record file or folder that cannot be written
        _fail_text(_say("os_error", file=exc.filename or "", reason=exc.strerror or exc).lstrip(": "), 1)
    except ImportError as exc:  # a game (or its bot) whose code does not import
        _fail("import_error", 1, detail=exc)
    except GameCrash as exc:
        cause = exc.__cause__
        if cause is not None:
            err = Console(stderr=True, highlight=False)
            err.print("".join(traceback.format_exception(cause)).rstrip(), markup=False, style="dim")
        _fail("crashed", 1, detail=exc, seed=exc.seed)


@app.callback()
def _start() -> None:
    """Each command starts in the default language, until its --lang says otherwise."""
    global _lang
    _lang = None


def _parse_options(items: list[str]) -> dict[str, str]:
    opts: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            _fail("bad_option_item", item=item)
        if key.strip() in opts:
            _fail("option_twice", option=key.strip())
        opts[key.strip()] = value.strip()
    return opts


def _parse_bots(text: str) -> list[str]:
    bots = [b.strip() for b in text.split(",") if b.strip()]
    if not bots:
        _fail("no_bots", text=text)
    return bots




# ----- takujo games ---------------------------------------------------------------------
@app.command("games", help=_h("games.doc"))
def games_cmd() -> None:
    """List every registered game with its options, their types and defaults."""
    from pydantic_core import PydanticUndefined

    console = _out()
    for name in names():
        try:
            cls = game_class(name)
            title, rows = cls.title, cls.option_table()
        except Exception as exc:  # a game being written may not import yet: list it anyway
            console.print(f"[bold]{escape(name)}[/bold]  {_say('unavailable')}: {escape(f'{type(exc).__name__}: {exc}')}")
            continue
        console.print(f"[bold cyan]{escape(name)}[/bold cyan]  {escape(title)}")
        table = Table(box=None, show_header=True, header_style="dim", padding=(0, 1), pad_edge=False)
        table.add_column(_say("col_option"), no_wrap=True, style="bold")
        table.add_column(_say("col_type"), overflow="fold", max_width=30)
        table.add_column(_say("col_meaning"), ratio=1)
        for key, typ, default, help_text in rows:
            if default is PydanticUndefined:
                shown = _say("required")
            elif isinstance(default, bool):
                shown = str(default).lower()
            elif default in ("", None):
                shown = _say("no_default")
            else:
                shown = str(default)
            table.add_row(f"  {escape(key)}", f"{escape(str(typ))} = {escape(shown)}",
                          escape(option_help(cls, key, _language()) or help_text))
        console.print(table)
        console.print()
    console.print(_say("options_hint"))


# ----- takujo schema / catalogue -----------------------------------------------------------
@app.command(help=_h("schema.doc"))
def schema(
    game: Annotated[str, typer.Argument(help=_h("schema.game"))],
) -> None:
    """Print the JSON Schema of the game's views (what every client receives)."""
    from .core.schema import view_schema
    with _usage_errors():
        cls = game_class(parse_game_string(game)[0])
    typer.echo(json.dumps(view_schema(cls), ensure_ascii=False, indent=2))


@app.command(help=_h("catalogue.doc"))
def catalogue(
    game: Annotated[str, typer.Argument(help=_h("catalogue.game"))],
) -> None:
    """Print every card (and board square or province) with names and texts in Japanese and English, as JSON."""
    with _usage_errors():
        data = make_game(game, None, {}).export_catalogue()
    typer.echo(json.dumps(data, ensure_ascii=False, indent=2))


# ----- takujo play ----------------------------------------------------------------------
def _parse_seats(text: str, players: int) -> list[int]:
    seats: list[int] = []
    for part in (p.strip() for p in text.split(",")):
        if not part.isdigit() or int(part) >= players:
            _fail("humans_not_seat", text=text, part=part, last=players - 1)
        if int(part) in seats:
            _fail("humans_twice", text=text, part=part)
        seats.append(int(part))
    return seats


def _resume(file: Path) -> tuple[Any, int, list[str]]:
    """The state, seed and seats of an unfinished game's record, verified step by step."""
    state = None
    try:
        lines = iter_record(file)
        head = next(lines, {})
        for state in replay_states(itertools.chain([head], lines), str(file)):
            pass
    except RecordError as exc:
        _error(exc, 1)
    except TakujoError as exc:
        _fail("in_file", 1, file=file, error=exc.text(_language()))
    assert state is not None
    if state.outcome is not None:
        outcome = outcome_text(Renderer(state.game, _language(), markup=False), state.outcome.to_json())
        _fail("resume_over", 1, file=file, outcome=outcome)
    seats = head.get("seats")
    if not isinstance(seats, list) or len(seats) != state.game.players or not all(isinstance(x, str) for x in seats):
        _fail("resume_no_seats", 1, file=file)
    return state, head["seed"], seats


@app.command(help=_h("play.doc"))
def play(
    game: Annotated[Optional[str], typer.Argument(help=_h("play.game"))] = None,
    players: Annotated[Optional[int], typer.Option("--players", "-p", help=_h("players"))] = None,
    seat: Annotated[int, typer.Option(help=_h("play.seat"))] = 0,
    humans: Annotated[Optional[str], typer.Option(help=_h("play.humans"))] = None,
    bots: Annotated[Optional[str], typer.Option(help=_h("play.bots"))] = None,
    seed: Annotated[Optional[int], typer.Option(help=_h("play.seed"))] = None,
    option: OptionArg = [],
    record: Annotated[Optional[Path], typer.Option(help=_h("play.record"))] = None,
    resume: Annotated[Optional[Path], typer.Option(help=_h("play.resume"), metavar="FILE")] = None,
    lang: Annotated[Optional[str], typer.Option(help=_h("play.lang"))] = None,
) -> None:
    """Play a game in the terminal against bots, alone or with others at the same terminal.

    Type an action's number or its notation (numbers stay while the same person goes on
    choosing in the same decision; a new choice takes the next number after the highest);
    ? reprints the table; ? NAME shows a card's full text; q (or Ctrl-D) quits and keeps the
    record, to continue with --resume.
    """
    console = _out()
    language = _set_language(lang)
    if resume is not None:
        if game is not None or option or players is not None or seed is not None or bots is not None or humans is not None:
            _fail("resume_with_args")
        state, seed, seats = _resume(resume)
        g = state.game
        people = [p for p, kind in enumerate(seats) if kind == "human"]
        if not people:
            _fail("resume_no_person", file=resume)
        with _usage_errors():
            agents = {p: checked_bot(seats[p], g) for p in range(g.players) if p not in people}
        record = record if record is not None else resume
        r = Renderer(g, language)
        print_markup(console, r.text("ui.play.resumed", title=Markup(r.title()), game=str(g), seed=seed,
                                     step=state.steps, file=str(resume)))
    else:
        if game is None:
            _fail("no_game")
        opts = _parse_options(option)
        if bots is None:
            with _usage_errors():
                bots = game_class(parse_game_string(game)[0]).play_bot
        bot_names = _parse_bots(bots)
        if seed is None:
            seed = int(time.time() * 1000) % 1_000_000
        with _usage_errors():
            g = make_game(game, players, opts)
            g = make_game(game, g.players, type(g).choose_options({**opts, "players": g.players}, Rng(seed).fork()))
            people = _parse_seats(humans, g.players) if humans is not None else [seat]
            if humans is None and not 0 <= seat < g.players:
                _fail("seat_range", seat=seat, game=g, last=g.players - 1)
            others = [p for p in range(g.players) if p not in people]
            seats = ["human"] * g.players
            for k, p in enumerate(others):
                seats[p] = bot_names[k % len(bot_names)]
            agents = {p: checked_bot(seats[p], g) for p in others}
            state = g.new_state(seed)
        r = Renderer(g, language)
        print_markup(console, r.text("ui.play.title", title=Markup(r.title()), game=str(g), seed=seed))
    if record is not None and not record.resolve().parent.is_dir():
        _fail("record_folder", record=record, folder=record.resolve().parent)
    who = [r.text("ui.play.seat_you" if len(people) == 1 else "ui.play.seat_person", seat=p)
           if p in people else r.text("ui.play.seat_bot", seat=p, bot=seats[p]) for p in range(g.players)]
    print_markup(console, r.text("ui.play.seats", seats=Markup(r.join(who))))
    table = TerminalTable(state, seed, seats, people, agents, {p: bot_rng(seed, p) for p in agents},
                          console, r, record)
    try:
        table.run()
    except Quit as why:
        if len(people) == 1:
            table.show_log(people[0])
        print_markup(console, r.text("ui.play.goodbye", why=Markup(r.text(f"ui.play.{why}")),
                                     steps=state.steps, seed=seed))
        if record is not None:
            with _usage_errors():
                table.save()
            print_markup(console, r.text("ui.play.saved", file=str(record)))
        raise typer.Exit(0)
    viewer = people[0] if len(people) == 1 else None
    view = table.show_log(viewer) if viewer is not None else state.view(None)
    print_markup(console, r.view(view))
    print_markup(console, r.text("ui.play.game_over", steps=state.steps,
                                 outcome=Markup(outcome_text(r, view["outcome"], viewer))))
    if record is not None:
        with _usage_errors():
            table.save()
        print_markup(console, r.text("ui.play.written", file=str(record)))


# ----- takujo sim -----------------------------------------------------------------------
def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _ci(rate: Any) -> str:
    lo, hi = rate.ci95
    return f"{_pct(lo)} – {_pct(hi)}"


def _print_summary(console: Console, summary: Summary, lang: str = "en") -> None:
    def t(key: str, **args: Any) -> str:
        return ui_text(f"ui.sim.{key}", lang, **args)

    n = summary.games
    console.print(t("heading", game=escape(summary.game), n=n, first=summary.seed, last=summary.seed + n - 1,
                    bots=escape(", ".join(summary.bot_list))))
    rate_cols = (t("wins"), t("rate"), t("ci"))
    seats = Table(title=t("by_seat"))
    for col in (t("seat"), *rate_cols):
        seats.add_column(col, justify="right")
    for j, rate in enumerate(summary.seats):
        seats.add_row(str(j), f"{rate.wins:g}", _pct(rate.rate), _ci(rate))
    seats.caption = t("even", share=_pct(1 / summary.players))
    console.print(seats)
    if len(summary.bots) > 1:
        bots = Table(title=t("by_bot"))
        bots.add_column(t("bot"))
        for col in (t("seats_played"), *rate_cols):
            bots.add_column(col, justify="right")
        for name, rate in summary.bots.items():
            bots.add_row(escape(name), str(rate.games), f"{rate.wins:g}", _pct(rate.rate), _ci(rate))
        console.print(bots)
    if summary.first is not None:
        first = Table(title=t("first"))
        for col in (t("games"), *rate_cols):
            first.add_column(col, justify="right")
        f = summary.first
        first.add_row(str(f.games), f"{f.wins:g}", _pct(f.rate), _ci(f))
        console.print(first)
    if summary.labels:
        labels = Table(title=t("by_side"))
        labels.add_column(t("side"))
        for col in (t("seats_played"), *rate_cols):
            labels.add_column(col, justify="right")
        for name, rate in summary.labels.items():
            labels.add_row(escape(name), str(rate.games), f"{rate.wins:g}", _pct(rate.rate), _ci(rate))
        console.print(labels)
    length = Table(title=t("length_stats") if summary.stats else t("length"))
    length.add_column("")
    for col in ("mean", "sd", "min", "max"):
        length.add_column(t(col), justify="right")
    for label, spread in ((t("turns"), summary.turns), (t("steps"), summary.steps), *summary.stats.items()):
        length.add_row(escape(label), f"{spread.mean:.2f}" if label in summary.stats else f"{spread.mean:.1f}",
                       f"{spread.sd:.1f}", f"{spread.min:g}", f"{spread.max:g}")
    console.print(length)
    ends = Table(title=t("ends"))
    ends.add_column(t("reason"))
    ends.add_column(t("games"), justify="right")
    ends.add_column(t("share"), justify="right")
    try:
        words = Renderer(make_game(summary.game, None, {}), lang)
    except TakujoError:
        words = None
    for reason, count in summary.reasons.items():
        shown = words.word(reason) if words is not None else reason
        label = reason if shown == reason else f"{shown} ({reason})"
        ends.add_row(escape(label), str(count), _pct(count / n) if n else "-")
    console.print(ends)


@app.command(help=_h("sim.doc"))
def sim(
    game: Annotated[str, typer.Argument(help=_h("sim.game"))],
    players: Annotated[Optional[int], typer.Option("--players", "-p", help=_h("players"))] = None,
    games: Annotated[int, typer.Option(help=_h("sim.games"))] = 1000,
    seed: Annotated[int, typer.Option(help=_h("sim.seed"))] = 1,
    bots: Annotated[str, typer.Option(help=_h("sim.bots"))] = "heuristic",
    workers: Annotated[Optional[int], typer.Option(min=1, max=256, help=_h("sim.workers"))] = None,
    option: OptionArg = [],
    record: Annotated[Optional[Path], typer.Option(help=_h("sim.record"), metavar="DIR")] = None,
    json_out: Annotated[bool, typer.Option("--json", help=_h("sim.json"))] = False,
    max_steps: Annotated[int, typer.Option(min=1, help=_h("sim.max_steps"))] = MAX_STEPS,
    check: Annotated[bool, typer.Option("--check", help=_h("sim.check"))] = False,
    lang: Annotated[Optional[str], typer.Option(help=_h("sim.lang"))] = None,
    compare: Annotated[list[str], typer.Option("--compare", metavar="KEY=A,B", help=_h("sim.compare"))] = [],
    out: Annotated[Optional[Path], typer.Option(help=_h("sim.out"), metavar="DIR")] = None,
    until_decided: Annotated[bool, typer.Option("--until-decided", help=_h("sim.until_decided"))] = False,
    metric: Annotated[str, typer.Option(help=_h("sim.metric"))] = "seat0_won",
    delta: Annotated[float, typer.Option(min=0.0001, help=_h("sim.delta"))] = 0.05,
    leads: Annotated[bool, typer.Option("--leads/--no-leads", help=_h("sim.leads"))] = True,
    skill: Annotated[bool, typer.Option("--skill", help=_h("sim.skill"))] = False,
    skill_levels: Annotated[str, typer.Option(help=_h("sim.skill_levels"))] = "random,heuristic,ismcts:200",
    ray: Annotated[Optional[str], typer.Option("--ray", metavar="local|ADDRESS", help=_h("sim.ray"))] = None,
) -> None:
    """Simulate bot games and report win rates (with 95% Wilson intervals), lengths and endings."""
    language = _set_language(lang)
    opts = _parse_options(option)
    bot_names = _parse_bots(bots)
    if games < 1:
        _fail("games_min", games=games)
    lab = skill or bool(compare) or out is not None or until_decided or ray is not None
    if workers is None:  # an experiment uses every core; a plain simulation one process
        from .lab.runner import default_workers
        workers = default_workers() if lab else 1
    if skill:
        from .lab.cli import run_skill
        with _usage_errors():
            run_skill(_out(), language, game, players, opts, compare, _parse_bots(skill_levels), games, seed,
                      workers, max_steps, json_out, ray)
        return
    if lab:
        from .lab.cli import run_lab
        with _usage_errors():
            run_lab(_out(), language, game, players, opts, compare, bot_names, games, seed, workers, out,
                    max_steps, until_decided, metric, delta, leads, json_out, ray)
        return
    with _usage_errors():
        g = make_game(game, players, opts)
        for name in dict.fromkeys(bot_names):
            checked_bot(name, g)
    spec_opts = {**opts, "players": g.players}
    with _usage_errors():
        if json_out:
            summary = run_games(game, games, seed, bot_names, workers=workers, record_dir=record,
                                options=spec_opts, max_steps=max_steps, checked=check)
        else:
            with Progress(TextColumn("simulating {task.description}"), BarColumn(), MofNCompleteColumn(),
                          TimeRemainingColumn(), console=Console(stderr=True), transient=True) as bar:
                task = bar.add_task(str(g), total=games)
                summary = run_games(game, games, seed, bot_names, workers=workers, record_dir=record,
                                    options=spec_opts, max_steps=max_steps, checked=check,
                                    progress=lambda done, total: bar.update(task, completed=done))
    if json_out:
        typer.echo(json.dumps(summary.to_json(), ensure_ascii=False))
        return
    console = _out()
    _print_summary(console, summary, language)
    if record is not None:
        console.print(ui_text("ui.sim.records", language, dir=escape(str(record))))


# ----- takujo report --------------------------------------------------------------------
@app.command(help=_h("report.doc"))
def report(
    folder: Annotated[Path, typer.Argument(help=_h("report.folder"))],
    lang: Annotated[Optional[str], typer.Option(help=_h("report.lang"))] = None,
) -> None:
    """Rebuild an experiment's report from its stored results."""
    from .lab.report import write_report
    language = _set_language(lang)
    with _usage_errors():
        if not (folder / "results.db").is_file():
            raise TakujoError("lab.no_results", path=str(folder))
        path = write_report(folder, language)
    _out().print(_say("report_written", path=escape(str(path))))


# ----- takujo replay --------------------------------------------------------------------
@app.command(help=_h("replay.doc"))
def replay(
    file: Annotated[Path, typer.Argument(help=_h("replay.file"))],
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help=_h("replay.quiet"))] = False,
    lang: Annotated[Optional[str], typer.Option(help=_h("replay.lang"))] = None,
) -> None:
    """Replay a game record, checking every step and chance outcome; print what a spectator sees."""
    console = _out()
    language = _set_language(lang)
    lines = iter_record(file)
    state = None
    r = None
    shown = 0
    try:
        head = next(lines, {})
        for state in replay_states(itertools.chain([head], lines), str(file)):
            if quiet:
                continue
            if r is None:               # the header is known good only once the setup replayed
                seats = head.get("seats")
                seats = ", ".join(f"{p}: {s}" for p, s in enumerate(seats)) if isinstance(seats, list) else ""
                console.print(_say("replay_head", game=escape(str(head["game"])), seed=escape(str(head["seed"])))
                              + (_say("replay_seats", seats=escape(seats)) if seats else ""))
            r = r or Renderer(state.game, language)
            new = state.events_for(None, shown)
            shown = len(state.log)
            if new:
                view = state.view(None)
                for event in new:
                    text = r.event(event, None, view)
                    if text is not None:
                        print_markup(console, f"  {text}")
    except RecordError as exc:
        _error(exc, 1)
    except TakujoError as exc:
        _fail("in_file", 1, file=file, error=exc.text(language))
    assert state is not None
    outcome = state.outcome.to_json() if state.outcome else None
    r = r or Renderer(state.game, language)
    text = outcome_text(r, outcome) if outcome else escape(_say("not_over"))
    print_markup(console, text[:1].upper() + text[1:])
    console.print(_say("verified", steps=state.steps))


# ----- takujo serve ---------------------------------------------------------------------
@app.command(help=_h("serve.doc"))
def serve(
    host: Annotated[str, typer.Option(help=_h("serve.host"))] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help=_h("serve.port"))] = 8000,
    db: Annotated[Optional[str], typer.Option(help=_h("serve.db"), metavar="PATH|URL")] = None,
    no_browser: Annotated[bool, typer.Option("--no-browser", help=_h("serve.no_browser"))] = False,
    bot_levels: Annotated[Optional[str], typer.Option(help=_h("serve.bot_levels"), metavar="LEVELS")] = None,
    bot_workers: Annotated[Optional[int], typer.Option(min=1, max=64, help=_h("serve.bot_workers"))] = None,
    limit: Annotated[Optional[list[str]], typer.Option("--limit", help=_h("serve.limit"), metavar="NAME=VALUE")] = None,
    proxy: Annotated[Optional[str], typer.Option(help=_h("serve.proxy"), metavar="ADDRESSES")] = None,
    operator_token: Annotated[Optional[str], typer.Option(help=_h("serve.operator_token"), metavar="TOKEN",
                                                          envvar="TAKUJO_OPERATOR_TOKEN", show_envvar=False)] = None,
    lab_dir: Annotated[Optional[Path], typer.Option(help=_h("serve.lab_dir"), metavar="DIR")] = None,
) -> None:
    """Start the web server and open its lobby in the browser."""
    try:
        import uvicorn
        from .web.app import MAX_WS_MESSAGE, create_app
        from .web.store import is_postgres
    except ImportError as exc:
        _fail("web_missing", 1, detail=exc.name or exc)
    from dataclasses import replace
    settings = replace(_serve_settings(bot_levels, bot_workers, limit or []), operator_token=operator_token or None,
                       lab_dir=str(lab_dir) if lab_dir else None)
    target: Path | str
    if db is not None and is_postgres(db):
        try:
            import psycopg  # noqa: F401
        except ImportError:
            _fail("postgres_missing", 1)
        target = shown = db
        if "@" in db:  # never print a password
            shown = db.split("://", 1)[0] + "://…@" + db.rsplit("@", 1)[1]
    else:
        path = Path(db) if db is not None else default_database()
        if not path.parent.is_dir():
            with _usage_errors():
                path.parent.mkdir(parents=True, exist_ok=True)
        target, shown = path, str(path)
    from .web.port import port_free
    if not port_free(host, port):
        _fail("port_busy", port=port, host=host)
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/"
    console = _out()
    console.print(_say("serving", url=escape(url), db=escape(shown)))
    if not no_browser:
        import threading
        import webbrowser
        threading.Timer(1.0, lambda: webbrowser.open(url)).start()
    # Payloads are a few kB: compressing each costs more CPU than it saves on a table's network.
    uvicorn.run(create_app(target, settings=settings), host=host, port=port, ws_max_size=MAX_WS_MESSAGE,
                ws_per_message_deflate=False, log_level="warning", proxy_headers=proxy is not None,
                forwarded_allow_ips=proxy, limit_concurrency=settings.limits.sockets + 256,
                timeout_keep_alive=5)


def _serve_settings(bot_levels: str | None, bot_workers: int | None, limits: list[str]) -> Any:
    """The server's settings from `takujo serve`'s options (a clear error for a bad one)."""
    from dataclasses import fields, replace

    from .web.ratelimit import RATES, parse_rate
    from .web.settings import Limits, Settings
    known = {f.name: f for f in fields(Limits)}
    changes: dict[str, Any] = {}
    for item in limits:
        name, sep, value = item.partition("=")
        name = name.strip()
        if not sep or name not in known:
            _fail("bad_limit", item=item[:60], detail=", ".join(known))
        with _usage_errors():
            if name in RATES:
                parse_rate(name, value)
                changes[name] = value.strip()
                continue
            try:
                number = float(value) if name.endswith("seconds") else int(value)
            except ValueError:
                _fail("bad_limit", item=item[:60], detail="a number")
            if number <= 0:
                _fail("bad_limit", item=item[:60], detail="> 0")
            changes[name] = number
    with _usage_errors():
        levels = tuple(x.strip() for x in bot_levels.split(",") if x.strip()) if bot_levels else None
        base = Settings()
        return Settings(bot_levels=levels or base.bot_levels, bot_workers=bot_workers,
                        limits=replace(base.limits, **changes))


def default_database() -> Path:
    """The server's database in the user's data directory (e.g. ~/.local/share/takujo)."""
    from platformdirs import user_data_path
    return user_data_path("takujo") / "takujo.db"


# ----- takujo deck ----------------------------------------------------------------------
deck_app = typer.Typer(
    name="deck",
    help=_h("deck.doc"),
    no_args_is_help=True,
)
app.add_typer(deck_app, name="deck")

GameNameArg = Annotated[str, typer.Argument(help=_h("deck.game"))]
_COUNT_LINE = re.compile(r"^(\d+)\s*[xX×]?\s+\S+$")


def _has_decks(cls: type[Game]) -> bool:
    return getattr(cls.starter_deck_names, "__func__", None) is not getattr(Game.starter_deck_names, "__func__", None)


def _deck_game(name: str) -> type[Game]:
    """The class of a game that supports decks; a clear error (exit 2) otherwise."""
    with _usage_errors():
        cls = game_class(name)
    if not _has_decks(cls):
        with_decks = []
        for other in names():
            try:
                if _has_decks(game_class(other)):
                    with_decks.append(other)
            except Exception:  # a game that does not import is simply not listed
                pass
        if with_decks:
            _fail("no_decks_hint", game=name, games=", ".join(with_decks))
        _fail("no_decks", game=name)
    return cls


def _deck_summary(text: str) -> tuple[int, dict[str, list[str]]]:
    """Cards counted over the `COUNT CARD` lines, and the other `key: value` lines (not name),
    each value followed by its `#` comment in parentheses."""
    cards = 0
    fields: dict[str, list[str]] = {}
    for raw in text.splitlines():
        body, _, comment = raw.partition("#")
        body, comment = body.strip(), comment.strip()
        if not body:
            continue
        m = _COUNT_LINE.match(body)
        if m:
            cards += int(m.group(1))
            continue
        key, sep, value = body.partition(":")
        if sep and key.strip().lower() != "name":
            fields.setdefault(key.strip(), []).append(value.strip() + (f" ({comment})" if comment else ""))
    return cards, fields


@deck_app.command("list", help=_h("deck.list"))
def deck_list(game: GameNameArg) -> None:
    """List a game's starter decks with their card counts (and okugi)."""
    cls = _deck_game(game)
    with _usage_errors():
        rows = [(name, *_deck_summary(cls.deck_text(name))) for name in cls.starter_deck_names()]
    keys = list(dict.fromkeys(k for _, _, fields in rows for k in fields))
    table = Table(title=escape(_say("starter_decks", game=cls.name)))
    table.add_column(_say("col_deck"), style="bold")
    table.add_column(_say("col_cards"), justify="right")
    for key in keys:
        table.add_column(key)
    for name, cards, fields in rows:
        table.add_row(escape(name), str(cards), *(escape(", ".join(fields.get(k, []))) for k in keys))
    _out().print(table)


@deck_app.command("show", help=_h("deck.show"))
def deck_show(
    game: GameNameArg,
    name: Annotated[str, typer.Argument(help=_h("deck.starter"))],
) -> None:
    """Print a starter's decklist in the plain format, to save and edit."""
    cls = _deck_game(game)
    with _usage_errors():
        text = cls.deck_text(name)
    typer.echo(text, nl=not text.endswith("\n"))


@deck_app.command("check", help=_h("deck.check"))
def deck_check(
    game: GameNameArg,
    file: Annotated[Path, typer.Argument(help=_h("deck.file"))],
) -> None:
    """Check a decklist file against the game's construction rules; exit 1 naming every problem."""
    cls = _deck_game(game)
    with _usage_errors():
        try:
            problems = cls.check_deck(file)
        except OSError as exc:
            _fail("cannot_read", file=file, reason=exc.strerror or exc)
        except UnicodeDecodeError:
            _fail("not_utf8", file=file)
    console = _out()
    if not problems:
        console.print(_say("deck_legal", file=escape(str(file)), game=escape(cls.name)), soft_wrap=True)
        return
    if len(problems) == 1:
        console.print(_say("deck_illegal_one", file=escape(str(file)), game=escape(cls.name)), soft_wrap=True)
    else:
        console.print(_say("deck_illegal", file=escape(str(file)), game=escape(cls.name), n=len(problems)),
                      soft_wrap=True)
    for problem in problems:
        console.print(f"  {problem}", markup=False, soft_wrap=True)
    raise typer.Exit(1)


# ----- takujo train ---------------------------------------------------------------------
@app.command(help=_h("train.doc"))
def train(
    game: Annotated[str, typer.Argument(help=_h("train.game"))],
    out: Annotated[Path, typer.Option(help=_h("train.out"), metavar="DIR")],
    players: Annotated[Optional[int], typer.Option("--players", "-p", help=_h("players"))] = None,
    option: OptionArg = [],
    seed: Annotated[int, typer.Option(help=_h("train.seed"))] = 1,
    minutes: Annotated[Optional[float], typer.Option(min=0.01, help=_h("train.minutes"))] = None,
    steps: Annotated[Optional[int], typer.Option(min=1, help=_h("train.steps"))] = None,
    hidden: Annotated[str, typer.Option(help=_h("train.hidden"))] = "256,256",
    eval_every: Annotated[int, typer.Option(min=1, help=_h("train.eval_every"))] = 2000,
    eval_games: Annotated[int, typer.Option(min=1, help=_h("train.eval_games"))] = 80,
    heuristic_share: Annotated[float, typer.Option(min=0.0, max=1.0, help=_h("train.heuristic_share"))] = 0.5,
    epsilon: Annotated[float, typer.Option(min=0.0, max=1.0, help=_h("train.epsilon"))] = 0.05,
    guide: Annotated[float, typer.Option(min=0.0, max=1.0, help=_h("train.guide"))] = 0.0,
    method: Annotated[str, typer.Option(help=_h("train.method"))] = "dmc",
) -> None:
    """Train a network by self-play (Deep Monte Carlo) for the ``learned`` bot; resumable."""
    try:
        from .train.run import run_training
    except ImportError as exc:
        _fail("train_missing", 1, detail=exc)
    try:
        sizes = [int(x) for x in hidden.split(",")]
        if not sizes or min(sizes) < 1:
            raise ValueError(hidden)
    except ValueError:
        _fail("train_bad_hidden", hidden=hidden)
    with _usage_errors():
        g = make_game(game, players, _parse_options(option))
        run_training(_out(), _language(), str(g), out, seed, minutes, steps, sizes, eval_every, eval_games,
                     heuristic_share, epsilon, guide, method, " ".join(["takujo", *sys.argv[1:]]))


def main() -> None:
    app(prog_name="takujo")


if __name__ == "__main__":
    main()
