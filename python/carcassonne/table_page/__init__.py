"""``carcassonne table``: a local web page that follows a game at a real table (docs/table.md).
The page itself is :mod:`carcassonne.table_page.app` (Starlette; extra ``table``)."""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from carcassonne.cli.common import CliError, parse_rule_options, rule_help
from carcassonne.errors import RecordError
from carcassonne.game import Game

NEEDS = "the table page needs Starlette and uvicorn: pip install 'carcassonne[table]'"


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "table",
        help="a local web page to follow a game at a real table",
        description="Start a local web page where you enter each drawn tile by its picture, "
        "click where it goes and which figure, and see scores, what scored, a suggested move, "
        "undo, and the record to save or load. Chance is manual: the page asks for each draw.",
    )
    p.add_argument("-p", "--players", type=int, default=2, help="players, 2 to 6 (default 2)")
    p.add_argument(
        "-o",
        "--option",
        action="append",
        metavar="NAME=VALUE",
        help=rule_help(),
    )
    p.add_argument("--record", metavar="FILE", help="continue a saved game record")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.set_defaults(func=run)


def start_game(args: argparse.Namespace) -> Game:
    """The game the page starts with: a saved record, or a new manual-chance game."""
    if args.record is not None:
        try:
            return Game.from_record(Path(args.record).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as e:
            raise CliError(f"cannot read {args.record}: {e}") from None
        except RecordError as e:
            raise CliError(f"{args.record}: {e}") from None
    if not 2 <= args.players <= 6:
        raise CliError(f"--players must be from 2 to 6, got {args.players}")
    rules = parse_rule_options(args.option)
    return Game(rules, players=args.players, seed=random.getrandbits(63), chance="manual")


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.port <= 65535:
        raise CliError(f"--port must be from 1 to 65535, got {args.port}")
    game = start_game(args)
    try:
        import uvicorn

        from carcassonne.table_page.app import create_app
    except ImportError:
        raise CliError(NEEDS) from None
    print(f"carcassonne table: open http://{args.host}:{args.port}/ (Ctrl-C to stop)")
    uvicorn.run(create_app(game), host=args.host, port=args.port, log_level="warning")
    return 0
