"""An experiment's report: Japanese drawn in the bundled font, lengths as shares of games, paired
differences on one scale per kind of metric, metrics named in the report's language, and a page
that fits a phone's screen."""
from __future__ import annotations

import random
import warnings
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import pytest
from typer.testing import CliRunner

from takujo.cli import app
from takujo.lab.report import write_report
from takujo.lab.store import ResultStore


KNIGHTS = ["ライアン", "シオン", "ミレイユ", "ゲイブリッツ"]


def make_experiment(folder: Path, variants: list[str], seeds: int = 40) -> Path:
    """A stored いばらの姫と4人の騎士 experiment, made up: the variants after the first play 35 steps
    fewer a game (±10) and seat 0 wins a few points more or less."""
    rng = random.Random(5)
    store = ResultStore(folder)
    store.claim({"game": "ibara", "options": {"players": "4"},
                 "variants": [{"label": v, "options": {}} for v in variants], "bots": ["heuristic"],
                 "seeds": [1, seeds], "rotations": 1, "max_steps": 20000, "first_seed": 1, "games": seeds,
                 "leads": True})
    rows = []
    for seed in range(1, seeds + 1):
        steps, turns = rng.randint(200, 300), rng.randint(40, 80)
        winner = rng.randrange(4)
        for i, label in enumerate(variants):
            won = winner if i == 0 or rng.random() < 0.7 else rng.randrange(4)
            metrics = {f"seat{s}_won": float(s == won) for s in range(4)}
            metrics.update({f"won:{k}": float(s == won) for s, k in enumerate(KNIGHTS)})
            reason = "escape" if seed % 5 else "time"
            metrics.update({"turns": float(turns - 8 * (i > 0) + rng.randint(-2, 2)),
                            "steps": float(steps - 35 * (i > 0) + rng.randint(-10, 10)),
                            "lead_changes": float(rng.randint(10, 20)), f"ended:{reason}": 1.0, "no_winner": 0.0,
                            "anger_explosions": float(rng.randint(1, 5)), "whims_collected": float(rng.randint(5, 10))})
            rows.append({"variant": label, "seed": seed, "rotation": 0, "game": "ibara(players=4)",
                         "seats": ["heuristic"] * 4, "winners": [won], "reason": reason,
                         "steps": int(metrics["steps"]), "turns": int(metrics["turns"]), "labels": KNIGHTS,
                         "metrics": metrics})
    store.add(rows)
    store.close()
    return folder


@dataclass
class Rendered:
    """A report as written: its folder, its page, the figures it drew, the warnings raised and
    the font file of each non-ASCII text of its figures."""

    folder: Path
    page: str
    figures: list[Any]
    warnings: list[str] = field(default_factory=list)
    fonts: list[tuple[str, Path]] = field(default_factory=list)


@contextmanager
def saving_figures() -> Iterator[list[Any]]:
    """Every matplotlib figure saved meanwhile."""
    from matplotlib.figure import Figure
    saved: list[Any] = []
    savefig = Figure.savefig

    def keep(self: Figure, *args: Any, **kwargs: Any) -> Any:
        saved.append(self)
        return savefig(self, *args, **kwargs)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Figure, "savefig", keep)
        yield saved


@contextmanager
def no_system_fonts() -> Iterator[None]:
    """matplotlib sees only its own fonts (DejaVu), as on a machine without Japanese fonts."""
    from matplotlib import font_manager
    manager = font_manager.fontManager
    own = [f for f in manager.ttflist if "mpl-data" in Path(f.fname).parts]
    try:
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(manager, "ttflist", own)
            manager._findfont_cached.cache_clear()
            yield
    finally:
        manager._findfont_cached.cache_clear()


@pytest.fixture(scope="module")
def english(tmp_path_factory: pytest.TempPathFactory) -> Rendered:
    folder = make_experiment(tmp_path_factory.mktemp("en") / "exp", ["ryan_last=false", "ryan_last=true"])
    with pytest.MonkeyPatch.context() as mp, saving_figures() as figures:
        mp.setenv("TAKUJO_LANG", "en")
        page = write_report(folder).read_text(encoding="utf-8")
    return Rendered(folder, page, figures)


@pytest.fixture(scope="module")
def japanese(tmp_path_factory: pytest.TempPathFactory) -> Rendered:
    """`takujo report DIR` with TAKUJO_LANG=ja, on a machine without Japanese fonts."""
    from matplotlib.font_manager import findfont
    folder = make_experiment(tmp_path_factory.mktemp("ja") / "exp", ["ryan_last=false", "ryan_last=true"])
    with pytest.MonkeyPatch.context() as mp, no_system_fonts(), saving_figures() as figures, \
            warnings.catch_warnings(record=True) as caught:
        mp.setenv("TAKUJO_LANG", "ja")
        warnings.simplefilter("always")
        result = CliRunner().invoke(app, ["report", str(folder)])
        fonts = [(t.get_text(), Path(findfont(t.get_fontproperties())).resolve())
                 for fig in figures for t in texts(fig) if not t.get_text().isascii()]
    assert result.exit_code == 0, result.output
    return Rendered(folder, (folder / "report.html").read_text(encoding="utf-8"), figures,
                    [str(w.message) for w in caught], fonts)


def texts(fig: Any) -> list[Any]:
    from matplotlib.text import Text
    return [t for t in fig.findobj(Text) if t.get_text()]


def tick_labels(ax: Any) -> list[str]:
    return [t.get_text() for t in ax.get_yticklabels()]


def test_japanese_is_drawn_in_the_font_the_package_ships(japanese):
    import matplotlib_fontja
    bundled = Path(matplotlib_fontja.get_font_ttf_path()).resolve()
    drawn = [(text, font) for text, font in japanese.fonts if any(ord(ch) > 0x3000 for ch in text)]
    assert len(drawn) > 10   # knights' names, and every label of a Japanese report
    assert [text for text, font in drawn if font != bundled] == []
    assert not [w for w in japanese.warnings if "missing from font" in w]


def test_the_length_histogram_plots_shares_of_games(english):
    from matplotlib.patches import StepPatch
    axes = [ax for fig in english.figures for ax in fig.axes if ax.get_xlabel() == "turns"]
    assert len(axes) == 1
    ax = axes[0]
    assert "share of games" in ax.get_ylabel()
    bars = [p for p in ax.patches if isinstance(p, StepPatch)]
    assert len(bars) == 2   # one a variant, each adding up to all its games
    for bar in bars:
        assert sum(bar.get_data().values) == pytest.approx(1.0)
    assert (bars[0].get_data().edges == bars[1].get_data().edges).all()


def test_paired_differences_have_a_scale_per_kind_of_metric(english):
    axes = [ax for fig in english.figures for ax in fig.axes]
    rates = [ax for ax in axes if {"Seat 0 wins", "seat0_won"} & set(tick_labels(ax))]
    lengths = [ax for ax in axes if {"Steps (actions)", "steps"} & set(tick_labels(ax))]
    game_own = [ax for ax in axes if {"Anger explosions", "anger_explosions"} & set(tick_labels(ax))]
    assert len(rates) == len(lengths) == len(game_own) == 1
    assert len({id(rates[0]), id(lengths[0]), id(game_own[0])}) == 3
    ax = rates[0]
    row = tick_labels(ax).index("Seat 0 wins" if "Seat 0 wins" in tick_labels(ax) else "seat0_won")
    intervals = [seg for box in ax.containers for seg in box.lines[2][0].get_segments()
                 if seg[0][1] == ax.get_yticks()[row]]
    assert len(intervals) == 1
    (lo, _), (hi, _) = intervals[0]
    left, right = ax.get_xlim()
    assert (hi - lo) / (right - left) > 0.1   # seat 0's interval is seen, not a dot beside −35 steps
    assert "Turns" in tick_labels(lengths[0]) and "Whims satisfied" in tick_labels(game_own[0])


def test_metrics_are_named_in_the_reports_language_with_the_raw_name_kept(english, japanese):
    page = english.page
    assert "<html lang='en'>" in page
    for label in ("Seat 0 wins", "ライアン wins", "Ended: escaped through the gate with the princess",
                  "Ended: most whim cards when time ran out", "Anger explosions", "Steps (actions)",
                  "The Thorn Princess and the Four Knights"):
        assert label in page, label
    for raw in ("seat0_won", "ended:escape", "anger_explosions"):
        assert f"title='{raw}'" in page and f"<span class='key'>{raw}</span>" in page
    for label in ("<html lang='ja'>", "席0の勝ち", "ライアンの勝ち", "終了理由: 姫を連れて門から脱出", "姫の怒りの爆発",
                  "いばらの姫と4人の騎士", "変種ごとの値"):
        assert label in japanese.page, label
    assert "<span class='key'>seat0_won</span>" in japanese.page


def test_the_report_language_is_the_one_asked_for_else_takujo_lang(monkeypatch):
    from takujo.lab.labels import report_language
    monkeypatch.setenv("TAKUJO_LANG", "ja")
    assert report_language() == "ja" and report_language("en") == "en"
    monkeypatch.setenv("TAKUJO_LANG", "fr")
    assert report_language() == "en"


def test_end_reasons_come_from_the_games_catalogues_and_figures_are_named():
    from takujo.lab.labels import Labels
    assert Labels("fuutei", "en").metric("ended:deck_out") == "Ended: the pile ran out"
    assert Labels("fuutei", "ja").metric("ended:deck_out") == "終了理由: 山札切れ"
    assert Labels("sengoku_taisen", "ja").metric("ended:castle") == "終了理由: 落城"
    assert Labels("ibara", "en").metric("ended:step_limit") == "Ended: the step limit"   # not in its catalogue
    assert Labels("draft_daimyo", "en").metric("vp_spread") == "VP spread (leader − last)"
    assert Labels("ibara", "en").metric("something_new") == "something_new"



def test_the_report_fits_a_phone_screen(tmp_path, browser):
    labels = ["mode=standard,multi_card_combat=false,gaiblitz_buff=false",
              "mode=short,multi_card_combat=true,gaiblitz_buff=true"]
    page_file = write_report(make_experiment(tmp_path / "wide", labels, seeds=12))
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(page_file.as_uri())
        assert page.evaluate("document.documentElement.scrollWidth") <= 392
        widest = page.evaluate("Math.max(...[...document.querySelectorAll('table')].map(t => t.scrollWidth))")
        assert widest > 392   # the tables are wider than the screen: they scroll in their own box
        images = page.evaluate("[...document.images].map(i => i.getBoundingClientRect().right)")
        assert images and max(images) <= 392
    finally:
        context.close()
