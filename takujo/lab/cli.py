"""`takujo sim GAME --compare KEY=A,B [--out DIR] [--until-decided]`: run a paired
experiment with a progress bar, print each variant's figures and the paired differences, and
write the results and the report."""
from __future__ import annotations

import json
import math
import tempfile
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from ..present.catalogue import ui_text
from .analysis import Analysis, analyse
from .experiment import Experiment
from .runner import Stop, connect_ray, run
from .stats import Sprt, format_p
from .store import ResultStore

#: Metrics shown in the terminal's tables, in this order (the report has them all).
SHOWN_FIRST = ("seat", "won:", "first_player_won", "turns", "steps", "lead_changes", "ended:")


def _order(names: list[str]) -> list[str]:
    def rank(k: str) -> tuple[int, str]:
        for i, prefix in enumerate(SHOWN_FIRST):
            if k.startswith(prefix):
                return i, k
        return len(SHOWN_FIRST), k
    return sorted(names, key=rank)


def _f(x: float | None) -> str:
    return "–" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.3g}"


def run_lab(console: Console, lang: str, game: str, players: int | None, opts: dict[str, str],
            compare: list[str], bots: list[str], games: int, seed: int, workers: int, out: Path | None,
            max_steps: int, until_decided: bool, metric: str, delta: float, leads: bool,
            json_out: bool, ray_address: str | None = None) -> Analysis:
    def t(key: str, **args: Any) -> str:
        return ui_text(f"ui.lab.{key}", lang, **args)

    options = {**opts, **({"players": str(players)} if players is not None else {})}
    exp = Experiment.make(game, options, compare, bots, games, seed, max_steps)
    labels = [v.label for v in exp.variants]
    ray = connect_ray(ray_address) if ray_address is not None else None
    temp = None
    if out is None:
        temp = tempfile.TemporaryDirectory()
        folder = Path(temp.name)
    else:
        folder = out
    store = ResultStore(folder)
    try:
        store.claim({**exp.to_json(), "first_seed": seed, "games": games, "leads": leads})
        stop = None
        if until_decided:
            if len(labels) < 2:
                from ..core.errors import OptionError
                raise OptionError("lab.bad_compare", item="--until-decided needs --compare")
            stop = Stop(metric, Sprt(delta), labels[0], labels[1])
        if not json_out:
            console.print(t("heading", game=escape(game), variants=escape(" · ".join(labels)),
                            n=exp.games_per_variant, first=exp.seeds[0], last=exp.seeds[-1],
                            rotations=exp.rotations, bots=escape(", ".join(bots))))
            with Progress(TextColumn(escape(t("progress", game=game))), BarColumn(), MofNCompleteColumn(),
                          TimeRemainingColumn(), console=Console(stderr=True), transient=True) as bar:
                task = bar.add_task("", total=None)
                verdict = run(exp, store, workers, lambda d, n: bar.update(task, completed=d, total=n), stop, leads,
                              ray=ray)
        else:
            verdict = run(exp, store, workers, None, stop, leads, ray=ray)
        rows = list(store.rows())
    finally:
        store.close()
    analysis = analyse(rows, labels)
    if stop is not None and analysis.metric_names and metric not in analysis.metric_names:
        from ..core.errors import OptionError
        raise OptionError("lab.unknown_metric", metric=metric, known=analysis.metric_names[:30])
    if out is not None:
        from .report import write_report
        write_report(out, lang)   # games.csv too: explicit zeros, each column once
    if json_out:
        data = {**analysis.to_json(), "experiment": exp.to_json()}
        if stop is not None:
            data["sequential"] = {"metric": metric, "delta": delta, "verdict": verdict[0], "games": verdict[1]}
        print(json.dumps(data, ensure_ascii=False))
    else:
        _print(console, t, analysis)
        if stop is not None:
            if verdict[0] is None:
                console.print(t("undecided", metric=escape(metric), delta=delta, n=verdict[1]))
            else:
                words = {"H0": t("verdict_h0", delta=delta), "H1+": t("verdict_up", variant=escape(labels[1])),
                         "H1-": t("verdict_down", variant=escape(labels[1]))}[verdict[0]]
                console.print(t("decided", metric=escape(metric), delta=delta, verdict=words, n=verdict[1]))
        if out is not None:
            console.print(t("written", path=escape(str(out / "report.html"))))
    if temp is not None:
        temp.cleanup()
    return analysis


def _print(console: Console, t: Any, a: Analysis) -> None:
    names = _order(a.metric_names)
    fig = Table(title=t("figures"))
    fig.add_column(t("metric"))
    for v in a.variants:
        fig.add_column(escape(v.label), justify="right")
    for k in names:
        fig.add_row(escape(k), *(f"{_f(v.means[k][0])} [dim][{_f(v.means[k][1])}, {_f(v.means[k][2])}][/dim]"
                                  if k in v.means else "–" for v in a.variants))
    fig.add_row(t("balance"), *(_f(v.balance_seats) for v in a.variants))
    if any(v.balance_labels is not None for v in a.variants):
        fig.add_row(t("balance_sides"), *(_f(v.balance_labels) for v in a.variants))
    console.print(fig)
    for c in a.comparisons:
        table = Table(title=t("diff_title", variant=escape(c.variant), baseline=escape(c.baseline)))
        for col in (t("metric"), t("diff"), t("ci"), t("p"), t("p_holm")):
            table.add_column(col, justify="right" if col != t("metric") else "left")
        for k in names:
            if k not in c.metrics:
                continue
            p = c.metrics[k]
            holm = c.holm.get(k, math.nan)
            style = "bold" if holm < 0.05 else None
            table.add_row(escape(k), f"{p.diff:+.3g}", f"[{_f(p.ci95[0])}, {_f(p.ci95[1])}]", format_p(p.p),
                          format_p(holm), style=style)
        console.print(table)
    if a.comparisons:
        console.print(t("holm_note"))


def run_skill(console: Console, lang: str, game: str, players: int | None, opts: dict[str, str],
              compare: list[str], levels: list[str], games: int, seed: int, workers: int, max_steps: int,
              json_out: bool, ray_address: str | None = None) -> None:
    """`takujo sim GAME --skill [--compare …]`: the skill table."""
    from .experiment import parse_compare
    from .skill import measure
    import itertools

    def t(key: str, **args: Any) -> str:
        return ui_text(f"ui.lab.{key}", lang, **args)

    if len(levels) < 2:
        from ..core.errors import OptionError
        raise OptionError("lab.skill_levels")
    options = {**opts, **({"players": str(players)} if players is not None else {})}
    axes = parse_compare(compare)
    variants = [(",".join(f"{k}={v}" for k, v in combo) or "base", dict(combo))
                for combo in (itertools.product(*axes) if axes else [()])]
    ray = connect_ray(ray_address) if ray_address is not None else None
    if json_out:
        rows = measure(game, options, variants, levels, games, seed, workers, max_steps, ray=ray)
        print(json.dumps([r.to_json() for r in rows], ensure_ascii=False))
        return
    with Progress(TextColumn(escape(t("progress", game=game))), BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("", total=None)
        rows = measure(game, options, variants, levels, games, seed, workers, max_steps,
                       lambda d, n: bar.update(task, completed=d, total=n), ray=ray)
    table = Table(title=t("skill_title", game=escape(game)))
    for col in (t("variant"), t("pairing"), t("games"), t("stronger_wins"), t("fair"), t("edge")):
        table.add_column(col, justify="left" if col in (t("variant"), t("pairing")) else "right")
    for r in rows:
        table.add_row(escape(r.variant), escape(f"{r.stronger} > {r.weaker}"), str(r.games),
                      f"{r.rate:.3f} [dim][{r.ci95[0]:.3f}, {r.ci95[1]:.3f}][/dim]", f"{r.fair:.3f}", f"{r.edge:+.3f}")
    console.print(table)
    console.print(t("skill_note"))
