"""``carcassonne table``: a local web page that follows a game at a real table (docs/table.md).
The page itself is :mod:`carcassonne.table_page.app` (Starlette; extra ``table``)."""

from __future__ import annotations

import argparse
import ipaddress
import os
import random
import secrets
import socket
import sys
from pathlib import Path

from carcassonne.cli.common import CliError, parse_rule_options, path_arg, rule_help
from carcassonne.errors import RecordError
from carcassonne.game import Game

NEEDS = "the table page needs Starlette, uvicorn and segno: pip install 'carcassonne[table]'"
MAX_RECORD = 10_000_000  # bytes: a whole game's record is far smaller


def saves_dir() -> Path:
    """Where games are saved unless ``--save`` says: $XDG_STATE_HOME/carcassonne/table."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "carcassonne" / "table"


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "table",
        help="a local web page to follow a game at a real table",
        description="Start a local web page where you enter each drawn tile by its picture, "
        "tap where it goes and which figure, and see scores, what scored and what to do at the "
        "table, a suggested move, undo and redo. Every step is saved to a file at once. Open "
        "the printed address (it carries this run's secret token) or scan its QR code.",
    )
    p.add_argument("-p", "--players", type=int, help="players, 2 to 6 (default 2)")
    p.add_argument(
        "-o",
        "--rule",
        action="append",
        metavar="NAME=VALUE",
        help=rule_help(),
    )
    p.add_argument("--record", metavar="FILE", type=path_arg, help="continue a saved game record")
    p.add_argument(
        "--resume",
        nargs="?",
        const="",
        metavar="FILE",
        help="go on with the game saved last (or in FILE), saving to the same file",
    )
    p.add_argument(
        "--save",
        metavar="FILE",
        type=path_arg,
        help="save every step to FILE, a new file (default: one in "
        "$XDG_STATE_HOME/carcassonne/table)",
    )
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: only this computer; 0.0.0.0: phones on "
        "this network too)",
    )
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.set_defaults(func=run)


def read_game(path: Path) -> Game:
    from carcassonne.table_page.table import read_record

    try:
        return Game.from_record(read_record(path, MAX_RECORD))
    except (OSError, UnicodeDecodeError) as e:
        raise CliError(f"cannot read {path}: {e}") from None
    except RecordError as e:
        raise CliError(f"{path}: {e}") from None


def last_saved() -> Path:
    games = sorted(saves_dir().glob("table-*.json"), key=lambda p: p.stat().st_mtime)
    if not games:
        raise CliError(f"--resume: no saved game in {saves_dir()}")
    return games[-1]


def start_game(args: argparse.Namespace) -> tuple[Game, Path]:
    """The game the page starts with, and the file it is saved to."""
    from carcassonne.table_page.table import autosave_path

    if args.record is not None and args.resume is not None:
        raise CliError("give --record or --resume, not both")
    if (args.record is not None or args.resume is not None) and (
        args.players is not None or args.rule
    ):
        raise CliError(
            "--players and --rule set up a new game: a game from --record or --resume keeps "
            "its own players and rules"
        )
    if args.resume is not None:
        path = Path(args.resume) if args.resume else last_saved()
        game = read_game(path)
        save_to = Path(args.save) if args.save else path
        if save_to.exists() and not save_to.samefile(path):
            raise CliError(f"--save {save_to}: the file exists (another game?): give a new file")
        return game, save_to
    save_to = Path(args.save) if args.save else autosave_path(saves_dir())
    if save_to.exists():  # the same command again would wipe the game it saved
        raise CliError(
            f"--save {save_to}: the file exists: --resume {save_to} goes on with its game; "
            "a new game needs a new file"
        )
    if args.record is not None:
        return read_game(Path(args.record)), save_to
    players = 2 if args.players is None else args.players
    if not 2 <= players <= 6:
        raise CliError(f"--players must be from 2 to 6, got {players}")
    rules = parse_rule_options(args.rule)
    return Game(rules, players=players, seed=random.getrandbits(63), chance="manual"), save_to


def listen(host: str, port: int) -> socket.socket:
    """The listening socket, bound before anything is printed (a busy port is one line)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as e:
        raise CliError(f"--host {host}: {e.strerror}") from None
    family, kind, proto, _, addr = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        sock.bind(addr)
        sock.listen(64)
    except OSError as e:
        sock.close()
        raise CliError(f"cannot listen on {host} port {port}: {e.strerror or e}") from None
    sock.set_inheritable(True)
    return sock


def everywhere(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_unspecified
    except ValueError:
        return False


def this_computer() -> str:
    """This computer's address on its network (a UDP socket 'connected' sends nothing)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))  # a documentation address: only picks the route
            return s.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def url_host(host: str) -> str:
    """How an address is written in a URL: IPv6 in brackets."""
    return f"[{host}]" if ":" in host else host


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.port <= 65535:
        raise CliError(f"--port must be from 1 to 65535, got {args.port}")
    try:
        import segno  # noqa: F401
        import uvicorn

        from carcassonne.table_page.app import create_app
        from carcassonne.table_page.qr import qr_text
    except ImportError:
        raise CliError(NEEDS) from None
    game, save_to = start_game(args)
    sock = listen(args.host, args.port)
    shown = this_computer() if everywhere(args.host) else args.host
    token = secrets.token_urlsafe(18)
    address = f"http://{url_host(shown)}:{args.port}/?token={token}"
    app = create_app(game, token=token, host=shown, save_to=save_to, address=address)
    try:
        app.table.save()
    except OSError as e:
        sock.close()
        raise CliError(f"cannot save to {save_to}: {e.strerror or e}") from None
    out = sys.stdout
    print(f"carcassonne table: open {address}", file=out)
    print(f"saving every step to {save_to} (carcassonne table --resume goes on with it)", file=out)
    if not ipaddress.ip_address(sock.getsockname()[0]).is_loopback:
        where = f"every network interface ({args.host})" if everywhere(args.host) else args.host
        print(
            f"warning: listening on {where}: anyone on this network with the address above "
            "(its token) can change the game",
            file=out,
        )
    else:  # the QR code below names this computer: a phone that scans it reaches itself
        print(
            "note: only this computer opens this address; for phones to join by the QR code, "
            "start with --host 0.0.0.0",
            file=out,
        )
    print(qr_text(address, colour=out.isatty()), end="", file=out)
    print("Ctrl-C to stop (the game is saved)", file=out, flush=True)
    config = uvicorn.Config(
        app,
        log_level="critical",  # a disconnect or a refused request is no news for the terminal
        access_log=False,
        timeout_graceful_shutdown=1,
    )
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass  # uvicorn hands the Ctrl-C back once it has stopped
    finally:
        sock.close()
    app.table.save()
    print(f"\ncarcassonne table: stopped; the game is saved in {save_to}", file=out, flush=True)
    return 130
