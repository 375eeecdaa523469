"""``takujo train``: a training run with a progress bar, in the command line's language."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from ..present.catalogue import ui_text
from .dmc import Config, Trainer


def run_training(console: Console, lang: str, spec: str, out: Path, seed: int, minutes: float | None,
                 steps: int | None, hidden: list[int], eval_every: int, eval_games: int,
                 heuristic_share: float, epsilon: float, guide: float, method: str,
                 command: str) -> None:
    """Train (or continue) the run in `out` until `steps` updates or `minutes` minutes."""
    import torch
    torch.set_num_threads(1)

    def say(key: str, **args: Any) -> str:
        return ui_text(f"ui.cli.{key}", lang, **args)

    if minutes is None and steps is None:
        minutes = 10.0
    trainer = Trainer(out, Config(spec=spec, seed=seed, hidden=hidden, eval_every=eval_every,
                                  eval_games=eval_games, heuristic_share=heuristic_share, epsilon=epsilon,
                                  guide=guide, method=method))
    t = trainer
    if t.resumed:
        console.print(say("train_resumed", dir=escape(str(out)), spec=escape(t.config.spec), updates=t.updates,
                          games=t.games))
    else:
        console.print(say("train_started", dir=escape(str(out)), spec=escape(spec), seed=seed))
    by_steps = minutes is None and steps is not None
    total = float(steps - t.updates) if by_steps and steps is not None else float(minutes or 0) * 60
    start = t.updates
    with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.fields[status]}"),
                  TimeElapsedColumn(), console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(say("train_progress", spec=escape(spec)), total=max(total, 1.0), status="")

        def progress(info: dict[str, Any]) -> None:
            done = info["updates"] - start if by_steps else info["elapsed"]
            ev = info.get("eval")
            status = f"{info['updates']} upd · {info['games']} games · loss {info['loss']:.4f}"
            if ev is not None:
                status += f" · win {ev['rate']:.0%}"
            bar.update(task, completed=done, status=status)

        try:
            t.run(steps, minutes, command, progress)
        except KeyboardInterrupt:   # the run saved itself; rerunning continues it
            pass
    from .evaluate import read_evals
    for row in read_evals(out)[-3:]:
        e = row["eval"]
        console.print(say("train_eval", updates=row["updates"], rate=f"{e['rate']:.1%}", lo=f"{e['ci95'][0]:.1%}",
                          hi=f"{e['ci95'][1]:.1%}", parity=f"{e['parity']:.0%}"))
    console.print(say("train_done", updates=t.updates, games=t.games, minutes=f"{t.seconds / 60:.1f}",
                      weights=escape(str(out / "weights.npz")), report=escape(str(out / "report.md"))))
