"""Evaluation during training (the network alone against the heuristic in every other seat)
and the run's report: ``evals.jsonl``, ``curve.png`` and ``report.md`` in the run folder."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..adapters.driver import Table
from ..bots.learned import LearnedBot, Net
from ..sim import play_game, wilson

#: evaluation games use seeds from here on (the same seeds at every evaluation: paired)
EVAL_SEED = 10_000_000


def evaluate(table: Table, net: Net, games: int) -> dict[str, Any]:
    """Game i seats the network at seat i mod n and the heuristic everywhere else."""
    game = table.game
    bots: dict[str, Any] = {"learned": LearnedBot(game, net, table), "heuristic": game.heuristic_bot()}
    n = table.players
    wins = 0.0
    for i in range(games):
        seats = ["learned" if p == i % n else "heuristic" for p in range(n)]
        _, result = play_game(game, seats, EVAL_SEED + i, bots)
        if i % n in result.winners:
            wins += 1 / len(result.winners)
    lo, hi = wilson(wins, games)
    return {"games": games, "wins": wins, "rate": wins / games, "ci95": [lo, hi], "parity": 1 / n}


def read_evals(folder: Path) -> list[dict[str, Any]]:
    path = folder / "evals.jsonl"
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def append_eval(folder: Path, row: dict[str, Any]) -> None:
    with open(folder / "evals.jsonl", "a") as f:
        f.write(json.dumps(row) + "\n")


def write_report(folder: Path, spec: str, command: str) -> Path:
    """The learning curve (win rate against the heuristics, and the loss) and a short summary."""
    rows = read_evals(folder)
    lines = [f"# Training {spec}", "", f"`{command}`", ""]
    if rows:
        _plot(folder / "curve.png", rows, spec)
        lines += ["![learning curve](curve.png)", "",
                  "| updates | games | minutes | loss | win rate against the heuristics (95% CI) |",
                  "|---:|---:|---:|---:|---|"]
        for r in rows:
            e = r["eval"]
            lines.append(f"| {r['updates']} | {r['games']} | {r['minutes']:.1f} | {r['loss']:.4f} | "
                         f"{e['rate']:.1%} ({e['ci95'][0]:.1%}–{e['ci95'][1]:.1%}), parity {e['parity']:.0%} |")
    path = folder / "report.md"
    path.write_text("\n".join(lines) + "\n")
    return path


def _plot(path: Path, rows: list[dict[str, Any]], spec: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    x = [r["updates"] for r in rows]
    rate = [r["eval"]["rate"] for r in rows]
    lo = [r["eval"]["ci95"][0] for r in rows]
    hi = [r["eval"]["ci95"][1] for r in rows]
    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 3.6))
    a.plot(x, rate, marker="o", label="learned, one seat")
    a.fill_between(x, lo, hi, alpha=0.2)
    a.axhline(rows[-1]["eval"]["parity"], color="grey", linestyle="--", label="parity")
    a.set_xlabel("updates")
    a.set_ylabel("win rate against the heuristics")
    a.set_ylim(0, 1)
    a.legend()
    b.plot(x, [r["loss"] for r in rows], color="tab:red")
    b.set_xlabel("updates")
    b.set_ylabel("loss (mean squared error)")
    fig.suptitle(spec)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
