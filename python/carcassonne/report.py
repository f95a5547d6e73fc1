"""``carcassonne report RESULTS``: a study's summary and plots from its results table.

Writes into a folder: ``summary.txt``; ``report.html``, one self-contained page (plots
inline); and the plots as PNG: ``scores.png`` (score distributions), ``win_rate.png`` (win
rate by seat with 95% intervals), ``sources.png`` (points by source), and, when the table
holds several variants, ``differences.png`` (paired differences from the baseline). Plots need
matplotlib (``pip install 'carcassonne[plot]'``); without it the text and the page are still
written. The table is read chunk by chunk, so its size does not matter.
"""

from __future__ import annotations

import argparse
import base64
import html
import math
import os
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from carcassonne.command import CliError
from carcassonne.stats import Tally
from carcassonne.table import TableError, TableSummary, summarise

PLOT_EXTRA = "pip install 'carcassonne[plot]'"


@dataclass
class Report:
    """What :func:`write_report` wrote."""

    folder: Path
    files: list[Path] = field(default_factory=list)
    plots: bool = False
    summary: TableSummary | None = None


def _has_matplotlib() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def write_report(
    results: str | os.PathLike[str],
    folder: str | os.PathLike[str] | None = None,
    *,
    baseline: str | None = None,
    plots: bool | None = None,
) -> Report:
    """Summarise a results table into ``folder`` (default: ``<results>-report`` beside it).
    ``plots=None`` draws them when matplotlib is installed; ``plots=True`` requires it."""
    path = Path(results)
    summ = summarise(path, baseline=baseline)
    out = Path(folder) if folder is not None else path.with_name(path.stem + "-report")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise TableError(f"cannot create the folder {str(out)!r}: {e.strerror}") from None
    if plots is None:
        plots = _has_matplotlib()
    elif plots and not _has_matplotlib():
        raise TableError(f"plots need matplotlib: {PLOT_EXTRA}")
    report = Report(out, plots=plots, summary=summ)
    text = f"results: {path} ({summ.rows:,} rows)\n\n" + summ.text() + "\n"
    images: dict[str, Path] = {}
    if plots:
        images = _plots(summ, out)
    report.files.append(_write(out / "summary.txt", text))
    report.files.append(_write(out / "report.html", _html(path, summ, text, images)))
    report.files += list(images.values())
    return report


def _write(path: Path, text: str) -> Path:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as e:
        raise TableError(f"cannot write {str(path)!r}: {e.strerror}") from None
    return path


# -- plots ---------------------------------------------------------------------------------


def _figure(w: float, h: float) -> Any:
    from matplotlib.figure import Figure

    return Figure(figsize=(w, h), dpi=100, layout="constrained")


def seat_label(t: Tally, p: int) -> str:
    """``seat 2 (greedy)``: the seat with its policy, when the table says it."""
    pol = t.policies or []
    return f"seat {p + 1} ({pol[p % len(pol)]})" if pol else f"seat {p + 1}"


def shown_sources(tallies: list[Tally]) -> list[int]:
    """Indices of the point sources that scored in some variant (an expansion not in play
    scores nothing and would only crowd the plot)."""
    sources = tallies[0].sources
    return [s for s in range(len(sources)) if any(t.source_sum[:, s].any() for t in tallies)]


def short(name: str, width: int = 40) -> str:
    """A variant name that fits a plot: wrapped on its commas into lines of at most
    ``width`` characters, at most three lines (then cut with "...")."""
    lines = textwrap.wrap(name.replace(",", ", "), width) or [""]
    if len(lines) > 3:
        lines = [*lines[:2], lines[2][: width - 3] + "..."]
    return "\n".join(line.replace(", ", ",") for line in lines)


def _grid(n: int) -> tuple[int, int]:
    cols = min(n, 3)
    return math.ceil(n / cols), cols


def _plots(summ: TableSummary, out: Path) -> dict[str, Path]:
    tallies = list(summ.tallies.values())
    files = {
        "scores": _plot_scores(tallies, out / "scores.png"),
        "win_rate": _plot_win_rate(tallies, out / "win_rate.png"),
        "sources": _plot_sources(tallies, out / "sources.png"),
    }
    if summ.comparison is not None and summ.comparison.paired:
        files["differences"] = _plot_differences(summ, out / "differences.png")
    return files


def _plot_scores(tallies: list[Tally], path: Path) -> Path:
    rows, cols = _grid(len(tallies))
    fig = _figure(4.5 * cols, 3.2 * rows)
    axes = fig.subplots(rows, cols, squeeze=False, sharex=True)
    for ax, t in zip(axes.flat, tallies, strict=False):
        for p in range(t.players):
            x, share = t.score_histogram(p)  # ranges of scores: any score costs one bin
            ax.step(x, share, where="post", label=f"{seat_label(t, p)}: mean {t.score_mean[p]:.1f}")
        ax.set_title(short(t.name or "scores"), fontsize=10)
        ax.set_xlabel("final score")
        ax.set_ylabel("share of games")
        ax.legend(fontsize=8)
    for ax in list(axes.flat)[len(tallies) :]:
        ax.set_visible(False)
    fig.suptitle("Score distribution by seat")
    fig.savefig(path)
    return path


def _plot_win_rate(tallies: list[Tally], path: Path) -> Path:
    players = max(t.players for t in tallies)
    fig = _figure(max(5.0, 1.3 * players * max(1, len(tallies) / 2) + 2), 3.6)
    ax = fig.subplots()
    width = 0.8 / len(tallies)
    for i, t in enumerate(tallies):
        x = np.arange(t.players) + (i - (len(tallies) - 1) / 2) * width
        rate = t.win_rate()
        ci = np.array([t.win_interval(p) for p in range(t.players)])
        err = np.abs(ci.T - rate)
        ax.bar(x, rate, width, yerr=err, capsize=3, label=short(t.name) if t.name else None)
    for t in tallies[:1]:
        ax.axhline(1 / t.players, color="grey", lw=0.8, ls="--")
    # Seats with their policy (of the first variant; the variants of a study share them).
    widest = max(tallies, key=lambda t: t.players)
    labels = [seat_label(widest, p).replace(" (", "\n(") for p in range(players)]
    ax.set_xticks(np.arange(players), labels)
    ax.set_ylabel("win rate (ties count for each)")
    ax.set_title("Win rate by seat, 95% intervals")
    if len(tallies) > 1:
        ax.legend(fontsize=8)
    fig.savefig(path)
    return path


def _plot_sources(tallies: list[Tally], path: Path) -> Path:
    rows, cols = _grid(len(tallies))
    fig = _figure(5.0 * cols, 3.4 * rows)
    axes = fig.subplots(rows, cols, squeeze=False, sharey=True)
    shown = shown_sources(tallies)
    for ax, t in zip(axes.flat, tallies, strict=False):
        means = t.source_means()[:, shown]
        width = 0.8 / t.players
        x = np.arange(len(shown))
        for p in range(t.players):
            ax.bar(x + (p - (t.players - 1) / 2) * width, means[p], width, label=seat_label(t, p))
        ax.set_xticks(x, [t.sources[s] for s in shown], rotation=30, ha="right", fontsize=8)
        ax.set_ylabel("mean points per game")
        ax.set_title(short(t.name or "points by source"), fontsize=10)
        ax.legend(fontsize=8)
    for ax in list(axes.flat)[len(tallies) :]:
        ax.set_visible(False)
    fig.suptitle("Points by source")
    fig.savefig(path)
    return path


def _plot_differences(summ: TableSummary, path: Path) -> Path:
    assert summ.comparison is not None
    rows = summ.comparison.differences()
    labels = [f"{short(r['variant'], 30)} seat {r['seat'] + 1}" for r in rows]
    fig = _figure(9.0, 0.3 * sum(1 + label.count("\n") for label in labels) + 1.6)
    axes = fig.subplots(1, 2, sharey=True)
    y = np.arange(len(rows))[::-1]
    for ax, key, scale, title in (
        (axes[0], "win", 100.0, "win rate (percentage points)"),
        (axes[1], "score", 1.0, "mean score (points)"),
    ):
        mid = np.array([r[f"{key}_diff"] for r in rows]) * scale
        lo = np.array([r[f"{key}_low"] for r in rows]) * scale
        hi = np.array([r[f"{key}_high"] for r in rows]) * scale
        err = np.nan_to_num(np.vstack([mid - lo, hi - mid]))
        ax.errorbar(mid, y, xerr=err, fmt="o", capsize=3)
        ax.axvline(0, color="grey", lw=0.8)
        ax.set_title(title, fontsize=10)
    axes[0].set_yticks(y, labels, fontsize=8)
    fig.suptitle(f"Paired differences from {summ.comparison.baseline!r}, 95% intervals")
    fig.savefig(path)
    return path


# -- HTML ----------------------------------------------------------------------------------


def _table(headers: list[str], rows: list[list[Any]]) -> str:
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in headers)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _pct(x: float) -> str:
    return "n/a" if not math.isfinite(x) else f"{x:+.2f}"


def _variant_html(t: Tally) -> str:
    rules = ", ".join(f"{k}={v}" for k, v in (t.rules or {}).items())
    pol = t.policies or ["?"]
    seats = []
    sd = t.score_sd()
    for p in range(t.players):
        lo, hi = t.win_interval(p)
        seats.append(
            [
                p + 1,
                pol[p % len(pol)],
                f"{t.win_rate()[p]:.1%}",
                f"[{lo:.1%}, {hi:.1%}]",
                f"{t.score_mean[p]:.2f}",
                f"{sd[p]:.2f}",
                f"{t.score_quantile(p, 0.1)}-{t.score_quantile(p, 0.9)}",
            ]
        )
    means = t.source_means()
    src_rows = [[s, *(f"{v:.2f}" for v in means[:, i])] for i, s in enumerate(t.sources)]
    src_rows.append(["total", *(f"{v:.2f}" for v in means.sum(axis=1))])
    disc = t.discarded_sum / t.n if t.n else 0.0
    return (
        f"<h2>{html.escape(t.name or 'results')}</h2>"
        f"<p>{t.n:,} games, {t.players} players; rules: {html.escape(rules)}</p>"
        + _table(
            ["seat", "policy", "win rate", "95% interval", "mean score", "sd", "10%-90%"], seats
        )
        + f"<p>shared wins: {t.ties:,} games; game length {t.turns_mean():.1f} turns "
        f"(min {t.turns_min}, max {t.turns_max}); tiles discarded {disc:.3f} per game</p>"
        + "<h3>Mean points per game by source</h3>"
        + _table(["source", *(f"seat {p + 1}" for p in range(t.players))], src_rows)
    )


def _html(path: Path, summ: TableSummary, text: str, images: dict[str, Path]) -> str:
    parts = [
        "<!DOCTYPE html><html><head><meta charset='utf-8'>",
        f"<title>Carcassonne study: {html.escape(path.name)}</title>",
        "<style>body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em}"
        "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;"
        "padding:.2em .6em;text-align:right}th{background:#f3f3f3}img{max-width:100%}"
        "pre{background:#f8f8f8;padding:1em;overflow-x:auto}</style></head><body>",
        f"<h1>Carcassonne study: {html.escape(path.name)}</h1>",
        f"<p>{summ.rows:,} rows (one per game and seat).</p>",
    ]
    for t in summ.tallies.values():
        parts.append(_variant_html(t))
    c = summ.comparison
    if c is not None and c.paired:
        rows = [
            [
                r["variant"],
                r["seat"] + 1,
                f"{r['games']:,}",
                f"{_pct(100 * r['win_diff'])} [{_pct(100 * r['win_low'])}, "
                f"{_pct(100 * r['win_high'])}]",
                f"{_pct(r['score_diff'])} [{_pct(r['score_low'])}, {_pct(r['score_high'])}]",
            ]
            for r in c.differences()
        ]
        parts.append(f"<h2>Paired differences from {html.escape(c.baseline)}</h2>")
        parts.append(
            "<p>Per game and seat: variant minus baseline on the same seed; 95% intervals.</p>"
        )
        parts.append(
            _table(["variant", "seat", "games", "win rate (points of %)", "mean score"], rows)
        )
    if images:
        parts.append("<h2>Plots</h2>")
        for name, img in images.items():
            data = base64.b64encode(img.read_bytes()).decode("ascii")
            parts.append(f"<p><img alt='{name}' src='data:image/png;base64,{data}'></p>")
    else:
        parts.append(f"<p><em>Plots need matplotlib: {html.escape(PLOT_EXTRA)}</em></p>")
    for note in summ.notes:
        parts.append(f"<p>{html.escape(note)}</p>")
    parts.append("<h2>Summary as text</h2><pre>" + html.escape(text) + "</pre>")
    parts.append("</body></html>")
    return "\n".join(parts)


# -- command -------------------------------------------------------------------------------


def run_report(args: argparse.Namespace) -> int:
    try:
        rep = write_report(args.results, args.out, baseline=args.baseline)
    except TableError as e:
        raise CliError(str(e)) from None
    assert rep.summary is not None
    if not args.quiet:
        print(rep.summary.text())
        print()
    print(f"report: {rep.folder / 'report.html'}")
    print("wrote: " + ", ".join(f.name for f in rep.files))
    if not rep.plots:
        print(f"no plots: they need matplotlib ({PLOT_EXTRA})")
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "report",
        help="summary and plots (PNG, one HTML page) from a results table",
        description="Summarise a results table written by simulate/compare --out: text, "
        "one self-contained HTML page and PNG plots (plots need the plot extra).",
    )
    p.add_argument("results", metavar="RESULTS", help="results table (.parquet, .csv, .jsonl)")
    p.add_argument(
        "-o", "--out", metavar="DIR", help="output folder (default: RESULTS-report beside it)"
    )
    p.add_argument("--baseline", help="variant the others are compared with")
    p.add_argument("-q", "--quiet", action="store_true", help="do not print the summary")
    p.set_defaults(func=run_report)
