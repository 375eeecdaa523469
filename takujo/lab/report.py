"""An experiment's report: `report.html` (tables and matplotlib plots embedded as images, so
it opens offline) and `games.csv` (one row per game), rebuilt from the stored results."""
from __future__ import annotations

import base64
import csv
import html
import io
import math
from pathlib import Path
from typing import Any

from .analysis import Analysis, analyse
from .store import ResultStore


def _png(fig: Any) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    import matplotlib.pyplot as plt
    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode()


def _plots(a: Analysis) -> list[tuple[str, str]]:
    import warnings
    try:
        import matplotlib
    except ImportError:
        from ..core.errors import TakujoError
        raise TakujoError("lab.no_matplotlib") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    # Japanese names (knights, decks, factions): a CJK font where the machine has one
    matplotlib.rcParams["font.family"] = ["sans-serif"]
    matplotlib.rcParams["font.sans-serif"] = ["Noto Sans CJK JP", "IPAexGothic", "Hiragino Sans", "Yu Gothic",
                                              "DejaVu Sans"]
    warnings.filterwarnings("ignore", message="Glyph .* missing from font", category=UserWarning)
    warnings.filterwarnings("ignore", message="findfont", category=UserWarning)
    out = []
    win_keys = [k for k in a.metric_names if k.startswith(("seat", "won:"))]
    if win_keys:
        fig, ax = plt.subplots(figsize=(max(6, len(win_keys) * 0.9), 3.6))
        width = 0.8 / max(1, len(a.variants))
        for i, v in enumerate(a.variants):
            xs = [j + i * width for j in range(len(win_keys))]
            means = [v.means.get(k, (math.nan,) * 3) for k in win_keys]
            ax.bar(xs, [m[0] for m in means], width, label=v.label,
                   yerr=[[m[0] - m[1] for m in means], [m[2] - m[0] for m in means]], capsize=3)
        ax.set_xticks([j + 0.4 - width / 2 for j in range(len(win_keys))])
        ax.set_xticklabels([k.replace("won:", "") for k in win_keys], rotation=30, ha="right")
        ax.set_ylabel("win rate (95% CI)")
        ax.legend(fontsize="small")
        out.append(("Win rates by seat and side", _png(fig)))
    if any(v.lengths for v in a.variants):
        fig, ax = plt.subplots(figsize=(6, 3.4))
        for v in a.variants:
            if v.lengths:
                ax.hist(v.lengths, bins=30, histtype="step", label=v.label, density=True)
        ax.set_xlabel("turns")
        ax.set_ylabel("share of games")
        ax.legend(fontsize="small")
        out.append(("Game length", _png(fig)))
    for c in a.comparisons:
        keys = [k for k, p in c.metrics.items() if not math.isinf(p.se)]
        if not keys:
            continue
        fig, ax = plt.subplots(figsize=(6.5, max(2.5, 0.32 * len(keys))))
        diffs = [c.metrics[k] for k in keys]
        ys = list(range(len(keys)))
        ax.errorbar([d.diff for d in diffs], ys, xerr=[[d.diff - d.ci95[0] for d in diffs],
                                                        [d.ci95[1] - d.diff for d in diffs]], fmt="o", capsize=3)
        ax.axvline(0, color="grey", lw=0.8)
        ax.set_yticks(ys)
        ax.set_yticklabels(keys, fontsize="small")
        ax.set_xlabel(f"{c.variant} − {c.baseline} (paired, 95% CI)")
        out.append((f"Paired differences: {c.variant} against {c.baseline}", _png(fig)))
    return out


def _fmt(x: float | None) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    return f"{x:.4g}" if abs(x) < 1000 else f"{x:,.0f}"


def write_report(folder: Path | str) -> Path:
    """Write `report.html` and `games.csv` in `folder` from its stored results."""
    from ..core.errors import OptionError
    store = ResultStore(folder)
    try:
        desc = store.description()
        rows = list(store.rows())
    finally:
        store.close()
    if desc is None:
        raise OptionError("lab.no_results", path=str(folder))
    variants = [v["label"] for v in desc["variants"]]
    a = analyse(rows, variants)
    folder = Path(folder)
    with open(folder / "games.csv", "w", newline="", encoding="utf-8") as fh:
        keys = sorted({k for r in rows for k in r["metrics"]})
        w = csv.writer(fh)
        w.writerow(["variant", "seed", "rotation", "game", "seats", "winners", "reason", "steps", "turns", *keys])
        for r in rows:
            w.writerow([r["variant"], r["seed"], r["rotation"], r["game"], " ".join(r["seats"]),
                        " ".join(map(str, r["winners"])), r["reason"], r["steps"], r["turns"],
                        *(r["metrics"].get(k, "") for k in keys)])
    parts = [f"<h1>{html.escape(desc['game'])}: {html.escape(' vs '.join(variants))}</h1>",
             f"<p>Bots {html.escape(', '.join(desc['bots']))}; {a.variants[0].games if a.variants else 0} games a "
             f"variant ({desc['rotations']} seat rotation(s) a seed); every variant plays the same seeds. "
             "Differences are paired game by game: mean, 95% interval (Student's t) and p-value; "
             "p (Holm) corrects for the number of metrics compared.</p>"]
    parts.append("<h2>Each variant</h2><table><tr><th>metric</th>" +
                 "".join(f"<th>{html.escape(v.label)}</th>" for v in a.variants) + "</tr>")
    for k in a.metric_names:
        cells = "".join(f"<td>{_fmt(v.means[k][0])} <small>[{_fmt(v.means[k][1])}, {_fmt(v.means[k][2])}]</small></td>"
                        if k in v.means else "<td>–</td>" for v in a.variants)
        parts.append(f"<tr><td>{html.escape(k)}</td>{cells}</tr>")
    parts.append("<tr><td>balance (seats)</td>" + "".join(f"<td>{_fmt(v.balance_seats)}</td>" for v in a.variants) + "</tr>")
    parts.append("<tr><td>balance (sides)</td>" + "".join(f"<td>{_fmt(v.balance_labels)}</td>" for v in a.variants) + "</tr></table>")
    for c in a.comparisons:
        parts.append(f"<h2>{html.escape(c.variant)} − {html.escape(c.baseline)}</h2><table><tr><th>metric</th><th>n</th>"
                     "<th>difference</th><th>95% CI</th><th>p</th><th>p (Holm)</th></tr>")
        for k, p in sorted(c.metrics.items(), key=lambda kv: kv[1].p):
            mark = " class='sig'" if c.holm.get(k, 1) < 0.05 else ""
            parts.append(f"<tr{mark}><td>{html.escape(k)}</td><td>{p.n}</td><td>{_fmt(p.diff)}</td>"
                         f"<td>[{_fmt(p.ci95[0])}, {_fmt(p.ci95[1])}]</td><td>{_fmt(p.p)}</td>"
                         f"<td>{_fmt(c.holm.get(k, math.nan))}</td></tr>")
        parts.append("</table>")
    for title, png in _plots(a):
        parts.append(f"<h2>{html.escape(title)}</h2><img alt='{html.escape(title)}' src='data:image/png;base64,{png}'>")
    page = ("<!doctype html><html><head><meta charset='utf-8'><title>takujo experiment</title><style>"
            "body{font-family:system-ui,'Noto Sans JP',sans-serif;margin:2rem;max-width:70rem}"
            "table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #ccc;padding:.2rem .5rem;"
            "font-size:.9rem;text-align:right}td:first-child,th:first-child{text-align:left}"
            "tr.sig{background:#fef3c7}img{max-width:100%}</style></head><body>"
            + "\n".join(parts) + "</body></html>")
    path = folder / "report.html"
    path.write_text(page, encoding="utf-8")
    return path
