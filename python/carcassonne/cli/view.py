"""Looking at a recorded game: ``carcassonne render`` (SVG or PNG picture of a position) and
``carcassonne replay`` (the positions as text in the terminal)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

from carcassonne import render
from carcassonne.cli.common import CliError, write_file
from carcassonne.game import Game

# The longest record read: a whole game's record is well under a megabyte, so anything longer
# (/dev/zero, a stray log) is refused after reading this much, not after filling the memory.
MAX_RECORD = 16 << 20


def load_game(path: str, game: int | None = None) -> Game:
    """The game a record file holds (``-``: standard input), fully replayed and checked; in a
    file of several records, one per line (``simulate --records``), record ``game`` (from 0)."""
    try:
        if path == "-":
            raw = sys.stdin.buffer.read(MAX_RECORD + 1)
        else:
            with open(path, "rb") as f:
                raw = f.read(MAX_RECORD + 1)
    except OSError as e:
        raise CliError(f"cannot read {path}: {e.strerror or e}") from None
    if len(raw) > MAX_RECORD:
        raise CliError(f"cannot read {path}: longer than {MAX_RECORD >> 20} MB, not a record")
    try:
        data = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise CliError(f"cannot read {path}: not a UTF-8 text file") from None
    lines = [line for line in data.splitlines() if line.strip()]
    several = (
        len(lines) > 1 and lines[0].lstrip().startswith("{") and lines[0].rstrip().endswith("}")
    )
    if several and _one_line_record(lines[0]):
        if game is None:
            raise CliError(
                f"{path} holds {len(lines):,} records, one per line (as simulate --records "
                f"writes them): choose one with --game N (0 to {len(lines) - 1})"
            )
        if not 0 <= game < len(lines):
            raise CliError(
                f"--game {game} is out of range: {path} holds records 0 to {len(lines) - 1}"
            )
        data = lines[game]
    elif game not in (None, 0):
        raise CliError(f"--game {game} is out of range: {path} holds one record (--game 0)")
    try:
        return Game.from_record(data)
    except ValueError as e:  # RecordError, and anything else a record can be refused for
        raise CliError(f"{path}: {e}") from None


def _one_line_record(line: str) -> bool:
    """Whether a line is a whole JSON object by itself (a record of a JSON Lines file)."""
    try:
        return isinstance(json.loads(line), dict)
    except ValueError:
        return False


def position(game: Game, move: int | None) -> Game:
    """The game after its first ``move`` moves (None: as it is). The result is only looked
    at, never played on."""
    total = len(game.move_stack)
    if move is None:
        return game
    if not 0 <= move <= total:
        raise CliError(
            f"--move {move} is out of range: the record has {total} moves (0 to {total})"
        )
    g = game.copy()
    for _ in range(total - move):
        g.pop()
    return g


# -- render ---------------------------------------------------------------------------------------


def find_png_converter() -> Callable[[str, str], None]:
    """SVG text -> a PNG file (``render.png``: resvg, no extra tools)."""

    def convert(svg_text: str, out: str) -> None:
        write_file(out, render.png(svg_text))

    return convert


def run_render(args: argparse.Namespace) -> int:
    if args.size is not None and not 16 <= args.size <= 20000:
        raise CliError(f"--size must be from 16 to 20000 pixels, got {args.size}")
    out = args.output
    if out != "-" and Path(out).suffix.lower() not in (".svg", ".png"):
        raise CliError(f"-o {out}: the picture is written as .svg or .png (or - for SVG on stdout)")
    png = out.lower().endswith(".png")
    convert = find_png_converter() if png else None
    game = position(load_game(args.record, args.game), args.move)
    picture = render.svg(game, scores=not args.no_scores, size=args.size)
    if out == "-":
        sys.stdout.write(picture + "\n")
        return 0
    try:
        if convert is not None:
            convert(picture, out)
        else:
            write_file(out, picture + "\n")
    except OSError as e:
        raise CliError(f"cannot write {out}: {e.strerror or e}") from None
    except CliError:
        raise
    except Exception as e:  # a converter's own error (bad path, missing library, ...)
        raise CliError(f"PNG conversion failed: {type(e).__name__}: {e}") from None
    return 0


# -- replay ---------------------------------------------------------------------------------------


def _view(game: Game, move: int, total: int, *, color: bool, ascii: bool) -> str:
    head = f"== position after move {move} of {total} =="
    body = render.text(position(game, move), legend=False, color=color, ascii=ascii)
    return head + "\n" + body


def _encodable(stream: object) -> bool:
    enc = getattr(stream, "encoding", None) or "ascii"
    try:
        "│─┌·".encode(enc)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def run_replay(args: argparse.Namespace) -> int:
    game = load_game(args.record, args.game)
    total = len(game.move_stack)
    if args.move is not None:
        position(game, args.move)  # checks the range
    start = 0 if args.move is None else args.move
    out = sys.stdout
    ascii = args.ascii or not _encodable(out)
    color = out.isatty() and not os.environ.get("NO_COLOR")
    legend = render.LEGEND
    if ascii:
        for u, a in render.ASCII_GLYPHS.items():
            legend = legend.replace(u, a)
    interactive = args.step and sys.stdin.isatty()
    if not interactive:
        moves = [start] if (args.move is not None and not args.step) else range(start, total + 1)
        print(legend)
        for k in moves:
            print()
            print(_view(game, k, total, color=color, ascii=ascii), end="")
        return 0
    k = start
    while True:
        if out.isatty():
            out.write("\x1b[H\x1b[2J")
        print(_view(game, k, total, color=color, ascii=ascii), end="")
        print(legend)
        prompt = "[Enter] next  [b] back  [number] go to move  [q] quit > "
        try:
            answer = input(prompt).strip().lower()
        except EOFError:
            print()
            return 0
        if answer in ("q", "quit", "exit"):
            return 0
        if answer in ("b", "p", "back", "-"):
            k = max(0, k - 1)
        elif answer.isdigit():
            k = min(total, int(answer))
        elif k < total:
            k += 1
        else:
            return 0


GAME_HELP = "in a file of records, one per line (simulate --records), record N (from 0)"


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "render",
        help="draw a recorded game as an SVG (or PNG) picture",
        description="Draw the board of a recorded game (final position, or after move N) "
        "with its figures, last move and scores, as SVG or PNG (-o FILE.png).",
    )
    p.add_argument("record", help="game record (JSON, as Game.to_json writes it); - for stdin")
    p.add_argument(
        "-o",
        "--output",
        default="-",
        metavar="FILE",
        help="FILE.svg or FILE.png, replaced if it exists (a picture is redrawn from the "
        "record at will); default -: SVG on standard output",
    )
    p.add_argument("--move", type=int, metavar="N", help="the position after move N (0: the start)")
    p.add_argument("--game", type=int, metavar="N", help=GAME_HELP)
    p.add_argument("--size", type=int, metavar="PX", help="longer side of the picture in pixels")
    p.add_argument("--no-scores", action="store_true", help="the board alone, no score panel")
    p.set_defaults(func=run_render)

    r = sub.add_parser(
        "replay",
        help="show a recorded game in the terminal, position by position",
        description="Print the positions of a recorded game as text (3x3 characters per "
        "tile). With --step, wait for Enter between positions (when standard input is not "
        "a terminal, the positions are printed one after another).",
    )
    r.add_argument("record", help="game record (JSON, as Game.to_json writes it); - for stdin")
    r.add_argument(
        "--move",
        type=int,
        metavar="N",
        help="only the position after move N (with --step: start there)",
    )
    r.add_argument("--game", type=int, metavar="N", help=GAME_HELP)
    r.add_argument("--step", action="store_true", help="step through the game interactively")
    r.add_argument("--ascii", action="store_true", help="ASCII only (no box-drawing characters)")
    r.set_defaults(func=run_replay)
