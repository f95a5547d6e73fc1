"""The report of a study (any results table): one HTML page whose first paragraph answers the
question in words with intervals, then the plots (PNGs beside it) and the tables, and the
summary as text."""

from __future__ import annotations

import html
import math
import os
import textwrap
from pathlib import Path
from typing import Any

import numpy as np

from carcassonne.studies.analysis import (
    CellStats,
    Study,
    metric_words,
    num,
    pp,
    rate,
    stars,
    ties_of,
    value,
)
from carcassonne.studies.plan import CellKey, StudyError

PLOTS = ("win_rate", "scores", "sources", "differences", "lead_changes")


PLOT_EXTRA = "pip install 'carcassonne[plot]'"


def plots_available() -> bool:
    """Whether the report can draw its plots (matplotlib, the ``plot`` extra)."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def short(name: str, width: int = 40) -> str:
    """A variant name that fits a plot: wrapped on its commas into lines of at most
    ``width`` characters, at most three lines (then cut with "...")."""
    lines = textwrap.wrap(name.replace(",", ", "), width) or [""]
    if len(lines) > 3:
        lines = [*lines[:2], lines[2][: width - 3] + "..."]
    return "\n".join(line.replace(", ", ",") for line in lines)


def shown_sources(cells: list[CellStats]) -> list[str]:
    """The point sources that scored in some cell (an expansion not in play scores nothing
    and would only crowd the plot)."""
    return [s for s in cells[0].sources if any(any(e.mean for e in c.sources[s]) for c in cells)]


def _label(k: CellKey, multi_players: bool) -> str:
    text = f"{short(k.variant)}\n{short(k.skill)}"
    return text + (f"\n{k.players}p" if multi_players else "")


def write_report(study: Study, out: str | os.PathLike[str]) -> Path:
    """Write ``out/report.html`` and its PNGs; returns the page's path. Everything is made
    in memory first, so a failure writes nothing."""
    if not study.cells():
        raise StudyError("the study has no finished games: nothing to report")
    d = Path(out)
    if d.exists() and not d.is_dir():
        raise StudyError(f"{os.fspath(out)} exists and is not a directory")
    images = _plots(study)
    page = _html(study, list(images))
    try:
        d.mkdir(parents=True, exist_ok=True)
        for name, data in images.items():
            (d / f"{name}.png").write_bytes(data)
        (d / "summary.txt").write_text(study.summary() + "\n", encoding="utf-8")
        (d / "report.html").write_text(page, encoding="utf-8")
    except OSError as e:
        raise StudyError(
            f"cannot write the report in {os.fspath(out)}: {e.strerror or e}"
        ) from None
    return d / "report.html"


# -- plots ---------------------------------------------------------------------------------


def _plots(study: Study) -> dict[str, bytes]:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return {}
    cells = list(study.cells().values())
    multi = len({c.key.players for c in cells}) > 1
    out: dict[str, bytes] = {}
    out["win_rate"] = _save(plt, _plot_win_rate(plt, cells, multi))
    out["scores"] = _save(plt, _plot_scores(plt, cells, multi))
    out["sources"] = _save(plt, _plot_sources(plt, cells, multi))
    if study.differences():
        out["differences"] = _save(plt, _plot_differences(plt, study))
    if any(c.lead_changes.n for c in cells):
        out["lead_changes"] = _save(plt, _plot_leads(plt, study, cells, multi))
    return out


def _save(plt: Any, fig: Any) -> bytes:
    import io

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    plt.close(fig)
    return buf.getvalue()


def _plot_win_rate(plt: Any, cells: list[CellStats], multi: bool) -> Any:
    fig, ax = plt.subplots(figsize=(max(6, 1.2 * len(cells) + 2), 4))
    pmax = max(c.key.players for c in cells)
    width = 0.8 / pmax
    for p in range(pmax):
        xs, ys, lo, hi = [], [], [], []
        for i, c in enumerate(cells):
            if p < c.key.players:
                e = c.win[p]
                xs.append(i + (p - (pmax - 1) / 2) * width)
                ys.append(100 * e.mean)
                lo.append(100 * (e.mean - e.low) if e.n > 1 else 0)
                hi.append(100 * (e.high - e.mean) if e.n > 1 else 0)
        ax.bar(xs, ys, width, yerr=[lo, hi], capsize=3, label=f"seat {p + 1}")
    for i, c in enumerate(cells):
        fair = 100 * c.fair_share
        ax.plot([i - 0.45, i + 0.45], [fair, fair], "k--", lw=1)
    ax.set_xticks(range(len(cells)), [_label(c.key, multi) for c in cells], fontsize=8)
    ax.set_ylabel("win rate, % (95% interval; dashed: fair share)")
    ax.set_title("Win rate by seat")
    ax.legend(fontsize=8)
    return fig


def _plot_scores(plt: Any, cells: list[CellStats], multi: bool) -> Any:
    n = len(cells)
    cols = min(3, n)
    rows = math.ceil(n / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3 * rows), squeeze=False)
    for ax, c in zip(axes.flat, cells, strict=False):
        allv = np.concatenate(c.scores) if c.scores else np.zeros(1)
        bins = np.linspace(allv.min(), allv.max() + 1, 30) if len(allv) else 10
        for p, s in enumerate(c.scores):
            ax.hist(s, bins=bins, histtype="step", label=f"seat {p + 1}")
        ax.set_title(_label(c.key, multi).replace("\n", " | "), fontsize=8)
        ax.set_xlabel("final score", fontsize=8)
        ax.legend(fontsize=7)
    for ax in list(axes.flat)[n:]:
        ax.axis("off")
    fig.suptitle("Score distributions")
    fig.tight_layout()
    return fig


def _plot_sources(plt: Any, cells: list[CellStats], multi: bool) -> Any:
    used = shown_sources(cells)
    labels, bottoms = [], []
    for c in cells:
        for p in range(c.key.players):
            labels.append(_label(c.key, multi).replace("\n", " | ") + f" | s{p + 1}")
    fig, ax = plt.subplots(figsize=(7, max(3, 0.3 * len(labels) + 1)))
    bottoms = np.zeros(len(labels))
    for s in used:
        vals = np.array([c.sources[s][p].mean for c in cells for p in range(c.key.players)])
        ax.barh(range(len(labels)), vals, left=bottoms, label=s)
        bottoms += vals
    ax.set_yticks(range(len(labels)), labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("mean points per game")
    ax.set_title("Points by source, per seat")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))
    return fig


def _plot_differences(plt: Any, study: Study) -> Any:
    diffs = study.differences()
    fig, ax = plt.subplots(figsize=(7, max(2.5, 0.45 * len(diffs) + 1)))
    ys = range(len(diffs))
    m = [100 * d.win.mean for d in diffs]
    err = [
        [100 * (d.win.mean - d.win.low) for d in diffs],
        [100 * (d.win.high - d.win.mean) for d in diffs],
    ]
    ax.errorbar(m, list(ys), xerr=err, fmt="o", capsize=4)
    ax.axvline(0, color="k", lw=1)
    ax.set_yticks(
        list(ys),
        [f"{d.variant} | {d.skill} | {d.players}p {stars(d.p_adjusted)}" for d in diffs],
        fontsize=8,
    )
    ax.invert_yaxis()
    ax.set_xlabel(f"seat 1 win rate minus {study.baseline()}, pp (paired, 95% interval)")
    ax.set_title("Paired differences")
    return fig


def _plot_leads(plt: Any, study: Study, cells: list[CellStats], multi: bool) -> Any:
    fig, ax = plt.subplots(figsize=(7, 3.5))
    r = study.rows
    for c in cells:
        k = c.key
        mask = (
            (r["variant"] == k.variant)
            & (r["skill"] == k.skill)
            & (r["players"] == k.players)
            & (r["seat"] == 0)
            & (r["lead_changes"] >= 0)
        )
        v = r["lead_changes"][mask]
        if len(v):
            counts = np.bincount(v)
            ax.plot(
                range(len(counts)),
                counts / counts.sum(),
                marker="o",
                label=_label(k, multi).replace("\n", " | "),
            )
    ax.set_xlabel("lead changes in a game")
    ax.set_ylabel("share of games")
    ax.set_title("Lead changes (replayed games)")
    ax.legend(fontsize=7)
    return fig


# -- the page ------------------------------------------------------------------------------


def _table(headers: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in row) + "</tr>" for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _html(study: Study, images: list[str]) -> str:
    cells = list(study.cells().values())
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        "<title>Balance study</title><style>",
        "body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}",
        "p.answer{font-size:1.15em;line-height:1.5}",
        "table{border-collapse:collapse;margin:1em 0;font-size:.85em}",
        "td,th{border:1px solid #bbb;padding:3px 7px;text-align:right}",
        "th{background:#eee}img{max-width:100%;display:block;margin:1em 0}",
        "</style></head><body>",
        f"<p class='answer'>{html.escape(study.answer())}</p>",
        "<h1>Balance study</h1>",
        "<p>Win rates count a shared win as "
        + (
            "1/k for each of the k tied seats"
            if _split(study)
            else "a whole win for each tied seat"
        )
        + ". Intervals are 95%, over deals; the differences' intervals are simultaneous and "
        "stars mark their Bonferroni-adjusted p-values (* &lt; 0.05, ** &lt; 0.01, "
        "*** &lt; 0.001).</p>",
    ]
    diffs = study.differences()
    question = html.escape(metric_words(study.metric))
    if diffs:
        parts.append(f"<h2>Paired differences from {html.escape(study.baseline())}</h2>")
        parts.append(f"<p>The question: {question}; seat 1's win rate and score beside.</p>")
        parts.append(
            _table(
                [
                    "variant",
                    "skill",
                    "players",
                    "difference",
                    "",
                    "win rate",
                    "score",
                    "variance cut",
                ],
                [
                    [
                        d.variant,
                        d.skill,
                        str(d.players),
                        value(d.value, d.metric, True),
                        stars(d.p_adjusted),
                        pp(d.win),
                        num(d.score, True),
                        f"{d.variance_ratio:.1f}x",
                    ]
                    for d in diffs
                ],
            )
        )
    contrasts = study.skill_contrasts()
    if contrasts:
        what = metric_words(study.metric)
        what = (
            f"Each variant's effect on {what}"
            if contrasts[0].baseline is not None
            else what[0].upper() + what[1:]
        )
        parts.append("<h2>Differences between skill levels</h2>")
        parts.append(f"<p>{html.escape(what)}: each level minus the first, paired by deal.</p>")
        parts.append(
            _table(
                ["variant", "skill", "minus", "players", "difference", ""],
                [
                    [
                        c.variant,
                        c.skill,
                        c.base_skill,
                        str(c.players),
                        value(c.value, c.metric, True),
                        stars(c.p_adjusted),
                    ]
                    for c in contrasts
                ],
            )
        )
    parts.append("<h2>Cells</h2>")
    rows = []
    for c in cells:
        k = c.key
        for p in range(k.players):
            rows.append(
                [
                    k.variant,
                    k.skill,
                    str(k.players),
                    str(p + 1),
                    c.policies[p],
                    rate(c.win[p]),
                    num(c.score[p]),
                    num(c.figures_unused[p]) if c.figures_unused[p].n else "-",
                ]
            )
    parts.append(
        _table(
            ["variant", "skill", "players", "seat", "policy", "win rate", "score", "figures left"],
            rows,
        )
    )
    parts.append(
        _table(
            [
                "variant",
                "skill",
                "players",
                "deals",
                "first-player adv.",
                "seat 1 - last",
                "balance",
                "shared wins",
                "margin",
                "turns",
                "lead changes",
                "lead for good at",
            ],
            [
                [
                    c.key.variant,
                    c.key.skill,
                    str(c.key.players),
                    f"{c.deals:,}",
                    pp(c.first_advantage),
                    pp(c.first_minus_last_win),
                    pp(c.balance),
                    rate(c.shared),
                    num(c.margin),
                    num(c.turns),
                    num(c.lead_changes) if c.lead_changes.n else "-",
                    num(c.lead_turn) if c.lead_turn.n else "-",
                ]
                for c in cells
            ],
        )
    )
    titles = {
        "win_rate": "Win rate by seat",
        "scores": "Score distributions",
        "sources": "Points by source",
        "differences": "Paired differences",
        "lead_changes": "Lead changes",
    }
    if images:
        for name in PLOTS:
            if name in images:
                parts.append(f"<h2>{titles[name]}</h2>")
                parts.append(f"<img src='{name}.png' alt='{titles[name]}'>")
    else:
        parts.append(f"<p>No plots: matplotlib is not installed ({PLOT_EXTRA}).</p>")
    parts.append(f"<h2>Summary</h2><pre>{html.escape(study.summary())}</pre>")
    parts.append("</body></html>")
    return "\n".join(parts)


def _split(study: Study) -> bool:
    if study.plan is not None:
        return study.plan.ties == "split"
    return ties_of(study.rows) == "split"
