"""Commands that read a results table (any study command's ``--out``): ``carcassonne report``
(the study's summary, HTML page and plots) and ``carcassonne record`` (one game of it,
replayed move by move from its seed: its record)."""

from __future__ import annotations

import argparse
from pathlib import Path

from carcassonne._core import DEAL_VERSION
from carcassonne.cli.common import CliError, add_overwrite, check_new_file, path_arg, write_file
from carcassonne.errors import quote
from carcassonne.policies import policy_files
from carcassonne.studies.analysis import Study
from carcassonne.studies.plan import METRICS, StudyError, check_metric
from carcassonne.studies.results import replay
from carcassonne.studies.table import find_game, read_table


def run_report(args: argparse.Namespace) -> int:
    from carcassonne.studies.report import PLOT_EXTRA, plots_available, write_report

    out = args.out or str(Path(args.results).with_name(Path(args.results).stem + "-report"))
    try:
        metric = check_metric(args.metric)
        study = Study(
            None, read_table(args.results), baseline=args.baseline, metric=metric, raw=args.raw
        )
        if args.baseline is not None and args.baseline not in study.variants():
            raise CliError(
                f"--baseline {args.baseline!r} is not a variant of the table: "
                f"{', '.join(study.variants())}"
            )
        path = write_report(study, out)
    except StudyError as e:
        raise CliError(str(e)) from None
    except MemoryError:
        raise CliError(
            f"{args.results} is too large to analyse in this memory (about 0.7 KB a row at the "
            "peak): report a part of it, or on a machine with more memory"
        ) from None
    if not args.quiet:
        print(study.summary())
        print()
    print(f"report: {path}")
    if not plots_available():
        print(f"no plots: they need matplotlib ({PLOT_EXTRA})")
    return 0


def run_record(args: argparse.Namespace) -> int:
    check_new_file(args.out, args.overwrite, inputs=[args.results])
    try:
        found = find_game(
            args.results, args.game, args.variant, args.skill, args.players, args.rotation
        )
    except StudyError as e:
        raise CliError(str(e)) from None
    if found["deal_version"] != DEAL_VERSION:
        raise CliError(
            f"deal {args.game} was dealt by deal version {found['deal_version']} (an older "
            f"engine); this one deals version {DEAL_VERSION} and would replay another game: "
            "rerun the study to record its games"
        )
    files = policy_files(found["policy"])
    if files and not args.read_files:
        raise CliError(
            f"deal {args.game} was played by a policy that reads the file {quote(files[0])}: "
            "a table may come from anyone, so record opens files it names only with "
            "--read-files"
        )
    try:
        game = replay(found["rules"], found["players"], found["seed"], found["policy"])
    except ValueError as e:
        raise CliError(f"cannot replay deal {args.game}: {e}") from None
    if game.scores != found["scores"]:
        raise CliError(
            f"the replay scores {game.scores} differ from the table's {found['scores']}: "
            "was the table written by another engine version?"
        )
    text = game.to_json(indent=None if args.compact else 1)
    if args.out:
        write_file(args.out, text + "\n")
        print(
            f"deal {found['deal']} ({found['variant']}): scores {game.scores}; record: {args.out}"
        )
    else:
        print(text)
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "report",
        help="the summary, HTML page and plots of a results table",
        description="Read a table written by simulate, compare or study (--out) and write "
        "report.html (the answer first, then tables and plots), summary.txt and the PNGs "
        "(plots need the plot extra).",
    )
    p.add_argument("results", metavar="RESULTS", help="results table (.parquet, .csv, .jsonl)")
    p.add_argument(
        "-o",
        "--out",
        metavar="DIR",
        type=path_arg,
        help="output folder (default: RESULTS-report beside it)",
    )
    p.add_argument("--baseline", help="the variant the others are compared with (the first)")
    p.add_argument(
        "--metric",
        default="advantage",
        help="the question: " + ", ".join(METRICS) + " (default advantage)",
    )
    p.add_argument(
        "--raw", action="store_true", help="estimates without the luck adjustment (as measured)"
    )
    p.add_argument("-q", "--quiet", action="store_true", help="do not print the summary")
    p.set_defaults(func=run_report)

    r = sub.add_parser(
        "record",
        help="a game of a results table, replayed from its seed: its record",
        description="Replay one game of a results table move by move from its seed (any "
        "native policy) and print its record (JSON, as Game.to_json() writes it), e.g. "
        "carcassonne record results.parquet --game 17 | carcassonne replay -",
    )
    r.add_argument("results", metavar="RESULTS", help="a table written by --out")
    r.add_argument("--game", type=int, required=True, help="the game's deal (column deal)")
    r.add_argument("--variant", help="its variant, when the table has several")
    r.add_argument("--skill", help="its skill level, when the table has several")
    r.add_argument("--players", type=int, help="its player count, when the table has several")
    r.add_argument("--rotation", type=int, help="its seat order, when deals were rotated")
    r.add_argument("--out", metavar="FILE", type=path_arg, help="write the record to FILE")
    r.add_argument("--compact", action="store_true", help="one-line JSON")
    r.add_argument(
        "--read-files",
        action="store_true",
        help="read the weights files the table's policy column names (refused otherwise)",
    )
    add_overwrite(r)
    r.set_defaults(func=run_record)
