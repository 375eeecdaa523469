"""An experiment's report: `report.html` (tables and matplotlib plots embedded as images, so
it opens offline; readable on a phone) and `games.csv` (one row per game), rebuilt from the
stored results. The report speaks Japanese or English (`write_report`'s `lang`, else
TAKUJO_LANG, else the locale); metrics are named in it, with their raw names in small print."""
from __future__ import annotations


import html
import math
from pathlib import Path

from .analysis import analyse
from .labels import Labels, order, report_language
from .plots import plots
from .stats import format_p
from .store import ResultStore, write_games_csv

STYLE = ("body{font-family:system-ui,'Noto Sans JP',sans-serif;margin:1rem auto;padding:0 1rem;max-width:70rem;"
         "line-height:1.4}h1,h2,p{overflow-wrap:anywhere}h1{font-size:1.5rem}h2{font-size:1.2rem}"
         ".scroll{overflow-x:auto;max-width:100%;margin:.5rem 0}"
         "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2rem .5rem;font-size:.9rem;"
         "text-align:right;white-space:nowrap}th{font-weight:600}thead th{white-space:normal}th[scope=row],th.metric{text-align:left;"
         "white-space:normal;min-width:9rem;font-weight:normal}"
         ".key{display:block;font:.75rem ui-monospace,monospace;color:#555}"
         "tr.sig{background:#fef3c7}figure{margin:1rem 0}img{max-width:100%;height:auto}")


def _fmt(x: float | None) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    if abs(x) < 1e-9:   # rounding's residue (an interval's end at 0), not a figure
        return "0"
    return f"{x:.4g}" if abs(x) < 1000 else f"{x:,.0f}"


def _p(p: float | None) -> str:
    """A p-value as people read it (3.3e-26, < 1e-20)."""
    return "–" if p is None or (isinstance(p, float) and math.isnan(p)) else format_p(p)


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _name(words: Labels, key: str) -> str:
    """A metric's row header: its label, the raw name in small print and as the tooltip."""
    label = words.metric(key)
    raw = f"<span class='key'>{_e(key)}</span>" if label != key else ""
    return f"<th scope='row' title='{_e(key)}'>{_e(label)}{raw}</th>"


def _table(caption: str, head: list[str], rows: list[str]) -> str:
    """A table in a box of its own that scrolls sideways when the screen is narrower."""
    cells = "".join(f"<th scope='col'{' class=metric' if i == 0 else ''}>{_e(h).replace(',', ',<wbr>')}</th>"
                    for i, h in enumerate(head))
    return (f"<div class='scroll' role='region' tabindex='0' aria-label='{_e(caption)}'><table>"
            f"<thead><tr>{cells}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>")


def write_report(folder: Path | str, lang: str | None = None) -> Path:
    """Write `report.html` and `games.csv` in `folder` from its stored results, the report in
    `lang` (``ja``, ``en``; default TAKUJO_LANG, else the locale)."""
    from ..core.errors import OptionError
    store = ResultStore(folder)
    try:
        desc = store.description()
        rows = list(store.rows())
    finally:
        store.close()
    if desc is None:
        raise OptionError("lab.no_results", path=str(folder))
    words = Labels(desc["game"], report_language(lang))
    t = words.text
    variants = [v["label"] for v in desc["variants"]]
    a = analyse(rows, variants)
    folder = Path(folder)
    write_games_csv(folder / "games.csv", rows)   # explicit zeros, each column once (docs/balance.md)
    title = words.title()
    parts = [f"<h1>{_e(t('report.heading', game=title, variants=t('report.versus').join(variants)))}</h1>",
             f"<p>{_e(t('report.intro', bots=', '.join(desc['bots']), rotations=desc['rotations'], games=a.variants[0].games if a.variants else 0))}</p>"]
    names = order(a.metric_names)
    caption = t("report.each_variant")
    body = []
    for k in names:
        cells = "".join(f"<td>{_fmt(v.means[k][0])} <small>[{_fmt(v.means[k][1])}, {_fmt(v.means[k][2])}]</small></td>"
                        if k in v.means else "<td>–</td>" for v in a.variants)
        body.append(f"<tr>{_name(words, k)}{cells}</tr>")
    note = _e(t("report.balance_note"))
    body.append(f"<tr><th scope='row' title='{note}'>{_e(t('report.balance_seats'))}</th>"
                + "".join(f"<td>{_fmt(v.balance_seats)}</td>" for v in a.variants) + "</tr>")
    body.append(f"<tr><th scope='row' title='{note}'>{_e(t('report.balance_sides'))}</th>"
                + "".join(f"<td>{_fmt(v.balance_labels)}</td>" for v in a.variants) + "</tr>")
    parts.append(f"<h2>{_e(caption)}</h2>")
    parts.append(_table(caption, [t("report.metric"), *(v.label for v in a.variants)], body))
    for c in a.comparisons:
        caption = t("report.comparison", variant=c.variant, baseline=c.baseline)
        body = []
        for k, p in sorted(c.metrics.items(), key=lambda kv: kv[1].p if not math.isnan(kv[1].p) else 2.0):
            mark = " class='sig'" if c.holm.get(k, 1) < 0.05 else ""
            body.append(f"<tr{mark}>{_name(words, k)}<td>{p.n}</td><td>{_fmt(p.diff)}</td>"
                        f"<td>[{_fmt(p.ci95[0])}, {_fmt(p.ci95[1])}]</td><td>{_p(p.p)}</td>"
                        f"<td>{_p(c.holm.get(k, math.nan))}</td></tr>")
        parts.append(f"<h2>{_e(caption)}</h2>")
        parts.append(_table(caption, [t(f"report.{h}") for h in ("metric", "n", "difference", "ci", "p", "p_holm")],
                            body))
    for plot_title, image in plots(a, words):
        parts.append(f"<h2>{_e(plot_title)}</h2><figure><img alt='{_e(plot_title)}' "
                     f"src='data:image/png;base64,{image}'></figure>")
    page = (f"<!doctype html><html lang='{words.lang}'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>{_e(t('report.page_title', game=title))}</title><style>{STYLE}</style></head><body>"
            + "\n".join(parts) + "</body></html>")
    path = folder / "report.html"
    path.write_text(page, encoding="utf-8")
    return path
