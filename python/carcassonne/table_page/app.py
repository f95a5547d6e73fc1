"""The web page that follows a game at a real table (Starlette): the JSON API the page
(static/table.js) calls, behind :class:`~carcassonne.table_page.guard.Guard`. The engine
decides everything; the table (:mod:`carcassonne.table_page.table`) keeps its history.

Every change is a JSON POST naming the state it was made for (``version``) and the device
that made it; a stale one is refused (409), and one that cannot be saved is not made (500).
Handlers never wait while they use the game, so requests reach it one at a time."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from carcassonne import render
from carcassonne.errors import PlayError, RecordError
from carcassonne.game import Game
from carcassonne.table_page.guard import Guard
from carcassonne.table_page.table import NotSaved, Stale, Table, autosave_path, record_text
from carcassonne.table_page.words import tile_words
from carcassonne.tiles import find, look

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 2_000_000  # a record of a whole game is far smaller
MAX_DEPTH = 20  # a record nests 4 deep; meta a little more
KEEP_ALIVE = 15.0  # seconds between comments on an idle event stream


class BadRequest(ValueError):
    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def _error(e: Exception, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": str(e)}, status_code=getattr(e, "status", status))


def _depth_ok(data: Any) -> bool:
    todo = [(data, 1)]
    while todo:
        item, depth = todo.pop()
        if depth > MAX_DEPTH:
            return False
        if isinstance(item, dict):
            todo += [(v, depth + 1) for v in item.values()]
        elif isinstance(item, list):
            todo += [(v, depth + 1) for v in item]
    return True


async def read_json(request: Request) -> dict[str, Any]:
    """The body as a JSON object, read with a cap as it arrives."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        raise BadRequest(f"request larger than {MAX_BODY:,} bytes", 413)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise BadRequest(f"request larger than {MAX_BODY:,} bytes", 413)
        chunks.append(chunk)
    try:
        data = json.loads(b"".join(chunks).decode("utf-8") or "{}")
    except UnicodeDecodeError:
        raise BadRequest("the request is not UTF-8 text") from None
    except RecursionError:
        raise BadRequest(f"the request nests deeper than {MAX_DEPTH} levels") from None
    except ValueError as e:
        raise BadRequest(f"the request is not JSON: {e}") from None
    if not isinstance(data, dict):
        raise BadRequest("the request must be a JSON object")
    if not _depth_ok(data):
        raise BadRequest(f"the request nests deeper than {MAX_DEPTH} levels")
    try:  # a lone surrogate ("\ud800") is valid JSON but no text: refused before it is kept
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise BadRequest("the request holds text that is not valid Unicode") from None
    return data


def create_app(
    game: Game,
    *,
    token: str | None = None,
    host: str = "127.0.0.1",
    save_to: Path | None = None,
    address: str = "",
) -> Guard:
    """The page's application for ``game``: ``token`` is the run's secret (a new one when
    None: read it from ``app.token``), ``host`` the address it listens on, ``save_to`` the
    file each step is saved to (None: not saved), ``address`` the URL the command printed
    (shown as a QR code)."""
    table = Table(game, save_to)
    token = token if token is not None else secrets.token_urlsafe(18)
    closing = asyncio.Event()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        closing.set()  # event streams end, so the server stops at once

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def state(request: Request) -> Response:
        return JSONResponse(table.view())

    def changing(what: str, act: Callable[[Table, dict[str, Any]], str]) -> Callable:
        async def handler(request: Request) -> Response:
            try:
                body = await read_json(request)
                table.change(
                    body.get("version"), body.get("device"), what, lambda: act(table, body)
                )
            except ClientDisconnect:
                return Response(status_code=400)  # nobody is listening: nothing to log
            except Stale as e:
                return _error(e, 409)
            except NotSaved as e:
                return _error(e, 500)
            except (PlayError, RecordError, ValueError, IndexError) as e:
                return _error(e)
            return JSONResponse(table.view())

        return handler

    def draw(t: Table, body: dict[str, Any]) -> str:
        return t.draw(_text(body, "tile"), _device(body))

    def play(t: Table, body: dict[str, Any]) -> str:
        return t.play(_text(body, "move"), _device(body))

    def load(t: Table, body: dict[str, Any]) -> str:
        text = body.get("record")
        if not isinstance(text, str):
            raise ValueError("'record' is the saved game's text")
        new = None if t.save_to is None else autosave_path(t.save_to.parent)
        return t.load(text, new)

    async def suggest(request: Request) -> Response:
        try:
            return JSONResponse(table.suggestion())
        except ValueError as e:
            return _error(e)

    async def preview(request: Request) -> Response:
        try:
            return JSONResponse(table.preview(request.query_params.get("move", "")))
        except (PlayError, ValueError) as e:
            return _error(e)

    async def record(request: Request) -> Response:
        return Response(record_text(table.game), media_type="application/json")

    async def tiles(request: Request) -> Response:
        """The tiles that may be drawn now and look like the query (``tiles.find``)."""
        q = request.query_params
        g = table.game
        try:
            args: dict[str, Any] = {}
            if q.get("edges"):
                args["edges"] = q["edges"]
            for name in ("cities", "roads", "arms"):
                if q.get(name):
                    args[name] = int(q[name])
            for name in ("spaces", "goods", "illustrations"):
                if name in q:
                    args[name] = [v for v in q[name].split(",") if v]
            if q.get("set"):
                args["set"] = q["set"]
            ids = find(catalogue=g.catalogue, rules=g.rules, **args)
        except ValueError as e:
            return _error(e)
        drawable = g.drawable if g.decision.is_chance else {}
        found = [
            {
                "id": t,
                "copies": drawable[t],
                "words": tile_words(look(g.catalogue.tile(t))),
                "set": look(g.catalogue.tile(t)).set,
            }
            for t in ids
            if t in drawable
        ]
        sets = sorted({look(g.catalogue.tile(t)).set for t in drawable if ":" not in t})
        return JSONResponse({"tiles": found, "sets": sets, "drawable": len(drawable)})

    async def qr(request: Request) -> Response:
        from carcassonne.table_page.qr import qr_svg

        page = address or f"{request.base_url}?token={token}"
        return Response(qr_svg(page), media_type="image/svg+xml")

    async def events(request: Request) -> Response:
        queue: asyncio.Queue[int] = asyncio.Queue()
        table.listeners.add(queue)

        async def stream() -> AsyncIterator[str]:
            try:
                yield f"data: {json.dumps({'version': table.version})}\n\n"
                while not closing.is_set():
                    try:
                        await asyncio.wait_for(queue.get(), KEEP_ALIVE)
                    except TimeoutError:
                        yield ": still here\n\n"
                        continue
                    news = {"version": table.version, "change": table.last_change}
                    yield f"data: {json.dumps(news)}\n\n"
            finally:
                table.listeners.discard(queue)

        return StreamingResponse(stream(), media_type="text/event-stream")

    async def tile(request: Request) -> Response:
        tile_id = request.path_params["tile"]
        try:
            rotation = int(request.query_params.get("rotation", "0"))
            svg = render.tile_svg(tile_id, rotation, catalogue=table.game.catalogue)
        except ValueError as e:
            return _error(e)
        return Response(svg, media_type="image/svg+xml")

    async def internal(request: Request, exc: Exception) -> Response:
        # A bug, said in one line where the command runs; the page shows the message.
        print(f"carcassonne table: internal error: {exc!r:.300}", file=sys.stderr, flush=True)
        return JSONResponse({"error": f"internal error: {exc!r:.300}"}, status_code=500)

    app = Starlette(
        exception_handlers={Exception: internal},
        routes=[
            Route("/", index),
            Route("/api/state", state),
            Route("/api/events", events),
            Route("/api/draw", changing("draw", draw), methods=["POST"]),
            Route("/api/play", changing("play", play), methods=["POST"]),
            Route("/api/undo", changing("undo", lambda t, b: t.undo()), methods=["POST"]),
            Route(
                "/api/redo",
                changing("redo", lambda t, b: t.redo_step(_device(b))),
                methods=["POST"],
            ),
            Route(
                "/api/players",
                changing("players", lambda t, b: t.set_players(b.get("names"), b.get("colours"))),
                methods=["POST"],
            ),
            Route("/api/load", changing("load", load), methods=["POST"]),
            Route("/api/suggest", suggest),
            Route("/api/preview", preview),
            Route("/api/tiles", tiles),
            Route("/api/record", record),
            Route("/api/qr.svg", qr),
            Route("/tile/{tile}.svg", tile),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
    )
    guarded = Guard(app, token, host)
    guarded.table = table
    return guarded


def _text(body: dict[str, Any], key: str) -> str:
    value = body.get(key)
    if not isinstance(value, str) or len(value) > 200:
        raise ValueError(f"'{key}' is a text of at most 200 characters")
    return value


def _device(body: dict[str, Any]) -> str:
    value = body.get("device")
    return value[:40] if isinstance(value, str) else ""
