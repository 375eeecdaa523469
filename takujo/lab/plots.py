"""The report's plots, drawn with matplotlib in the font that matplotlib-fontja ships (IPAexGothic),
so Japanese names (knights, decks, factions, the labels of a Japanese report) are drawn on any
machine, whatever fonts it has. Figures are made without pyplot and encoded as PNG (base64)."""
from __future__ import annotations

import base64
import importlib.util
import io
import math
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from ..core.errors import TakujoError
from .analysis import Analysis, Comparison
from .labels import KINDS, Labels, kind, order

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: The family name of matplotlib-fontja's font, and its file inside that package.
FONT_FAMILY = "IPAexGothic"
FONT_FILE = ("fonts", "ipaexg.ttf")
#: Where a panel's metric is significant after Holm, and where not.
SIGNIFICANT, PLAIN = "tab:orange", "tab:blue"


def bundled_font() -> Path:
    """The TrueType file of matplotlib-fontja, found without importing the package (whose
    import changes matplotlib's global font settings)."""
    spec = importlib.util.find_spec("matplotlib_fontja")
    if spec is None:
        raise TakujoError("lab.no_matplotlib")
    for folder in spec.submodule_search_locations or ():
        path = Path(folder).joinpath(*FONT_FILE)
        if path.is_file():
            return path
    from matplotlib_fontja import get_font_ttf_path  # type: ignore[import-untyped]  # another layout: ask it
    return Path(get_font_ttf_path())


def register_font() -> Path:
    """Add the bundled font to matplotlib's font manager (once) and return its file."""
    from matplotlib import font_manager
    path = bundled_font()
    if not any(Path(f.fname) == path for f in font_manager.fontManager.ttflist):
        font_manager.fontManager.addfont(str(path))
    return path


@contextmanager
def style() -> Iterator[None]:
    """matplotlib's settings for the report's figures: the bundled font first (DejaVu Sans,
    matplotlib's own, for any glyph it lacks)."""
    try:
        import matplotlib
    except ImportError:
        raise TakujoError("lab.no_matplotlib") from None
    register_font()
    with matplotlib.rc_context({"font.family": [FONT_FAMILY, "DejaVu Sans"], "axes.unicode_minus": True}):
        yield


def _figure(width: float, height: float) -> "Figure":
    from matplotlib.figure import Figure
    return Figure(figsize=(width, height), layout="constrained")


def png(fig: "Figure") -> str:
    """A figure as a base64 PNG."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    return base64.b64encode(buf.getvalue()).decode()


def win_rates(a: Analysis, words: Labels) -> "Figure | None":
    """Each seat's and side's win rate per variant, with 95% intervals."""
    keys = order([k for k in a.metric_names if kind(k) == "rate" and k.startswith(("seat", "won:"))])
    if not keys:
        return None
    fig = _figure(max(6, len(keys) * 0.9), 3.6)
    ax = fig.subplots()
    width = 0.8 / max(1, len(a.variants))
    for i, v in enumerate(a.variants):
        xs = [j + i * width for j in range(len(keys))]
        means = [v.means.get(k, (math.nan,) * 3) for k in keys]
        ax.bar(xs, [m[0] for m in means], width, label=v.label,
               yerr=[[m[0] - m[1] for m in means], [m[2] - m[0] for m in means]], capsize=3)
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(keys))])
    ax.set_xticklabels([words.short(k) for k in keys], rotation=30, ha="right")
    ax.set_ylabel(words.text("plot.wins_axis"))
    ax.legend(fontsize="small")
    return fig


def lengths(a: Analysis, words: Labels) -> "Figure | None":
    """The distribution of game lengths per variant, as shares of its games (each variant's
    bars add up to 1), on bins shared by every variant."""
    import numpy as np
    every = [x for v in a.variants for x in v.lengths]
    if not every:
        return None
    lo, hi = math.floor(min(every)), math.ceil(max(every))
    step = max(1, math.ceil((hi - lo + 1) / 30))
    edges = np.arange(lo, hi + step + 1, step) - 0.5
    fig = _figure(6, 3.4)
    ax = fig.subplots()
    for v in a.variants:
        if v.lengths:
            counts, _ = np.histogram(v.lengths, bins=edges)
            ax.stairs(counts / len(v.lengths), edges, label=v.label)
    ax.set_xlabel(words.text("plot.length_x"))
    ax.set_ylabel(words.text("plot.length_y", width=step) if step > 1 else words.text("plot.length_y_one"))
    ax.legend(fontsize="small")
    return fig


def differences(c: Comparison, words: Labels) -> "Figure | None":
    """A comparison's paired differences, one panel per kind of metric (rates in percentage
    points; lengths and counts; the game's own figures), each on its own scale."""
    shown = [k for k in order(list(c.metrics)) if math.isfinite(c.metrics[k].se) and math.isfinite(c.metrics[k].diff)]
    groups = [(g, [k for k in shown if kind(k) == g]) for g in KINDS]
    groups = [(g, keys) for g, keys in groups if keys]
    if not groups:
        return None
    heights = [0.3 * len(keys) + 0.9 for _, keys in groups]
    fig = _figure(6.5, sum(heights) + 0.4)
    axes = fig.subplots(len(groups), 1, squeeze=False, gridspec_kw={"height_ratios": heights})[:, 0]
    for ax, (group, keys) in zip(axes, groups):
        scale = 100.0 if group == "rate" else 1.0
        for y, k in enumerate(keys):
            d = c.metrics[k]
            colour = SIGNIFICANT if c.holm.get(k, 1.0) < 0.05 else PLAIN
            ax.errorbar([d.diff * scale], [y], xerr=[[(d.diff - d.ci95[0]) * scale], [(d.ci95[1] - d.diff) * scale]],
                        fmt="o", capsize=3, color=colour)
        ax.axvline(0, color="grey", lw=0.8)
        ax.set_yticks(range(len(keys)))
        ax.set_yticklabels([words.metric(k) for k in keys], fontsize="small")
        ax.set_ylim(len(keys) - 0.5, -0.5)
        ax.set_title(words.text(f"plot.{group}_panel"), loc="left", fontsize="medium")
    fig.suptitle(words.text("plot.diff_caption", variant=c.variant, baseline=c.baseline), fontsize="small")
    return fig


def plots(a: Analysis, words: Labels) -> list[tuple[str, str]]:
    """Every plot of the report: (title, base64 PNG)."""
    out: list[tuple[str, str]] = []
    with style():
        made: list[tuple[str, Any]] = [(words.text("plot.wins_title"), win_rates(a, words)),
                                       (words.text("plot.length_title"), lengths(a, words))]
        made += [(words.text("plot.diff_title", variant=c.variant, baseline=c.baseline), differences(c, words))
                 for c in a.comparisons]
        for title, fig in made:
            if fig is not None:
                out.append((title, png(fig)))
    return out
