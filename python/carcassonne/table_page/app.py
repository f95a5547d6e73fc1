"""The web page that follows a game at a real table (Starlette): the person enters each drawn
tile by its picture, clicks where it goes and which figure, and sees the scores, what scored,
a suggested move, undo, and the record to save or load. The engine decides everything; this
module only turns its answers into JSON for the page (static/table.js)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from carcassonne import render
from carcassonne.errors import PlayError, RecordError
from carcassonne.game import Decision, Game

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 2_000_000  # a record of a whole game is far smaller


class Table:
    """The one game the page follows (a local page for one table: no sessions)."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def view(self) -> dict[str, Any]:
        """Everything the page shows, players counted from 1 as people count them."""
        g = self.game
        legal = [str(m) for m in g.legal_moves] if g.decision != Decision.OVER else []
        return {
            "decision": g.decision.value,
            "player": g.turn + 1,
            "players": g.players,
            "tile": g.tile,
            "hand": g.hand,
            "drawable": g.drawable if g.decision.is_chance else {},
            "legal": legal,
            "scores": g.scores,
            "winners": [w + 1 for w in g.winners] if g.is_over() else [],
            "scored": [str(e) for e in g.scored],
            "moves": len(g.move_stack),
            "board": render.svg(g, coordinates=True, open_positions=True, size=None),
            "can_undo": bool(g.record()["draws"] or g.move_stack),
        }


def _error(e: Exception) -> JSONResponse:
    return JSONResponse({"error": str(e)}, status_code=400)


async def _body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise ValueError(f"request larger than {MAX_BODY:,} bytes")
    data = json.loads(raw or b"{}")
    if not isinstance(data, dict):
        raise ValueError("the request must be a JSON object")
    return data


def create_app(game: Game) -> Starlette:
    """The page's application for ``game`` (``uvicorn.run(create_app(game))``)."""
    table = Table(game)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def state(request: Request) -> Response:
        return JSONResponse(table.view())

    async def draw(request: Request) -> Response:
        try:
            table.game.draw(str((await _body(request)).get("tile", "")))
        except (PlayError, ValueError) as e:
            return _error(e)
        return JSONResponse(table.view())

    async def play(request: Request) -> Response:
        try:
            table.game.play(str((await _body(request)).get("move", "")))
        except (PlayError, ValueError) as e:
            return _error(e)
        return JSONResponse(table.view())

    async def undo(request: Request) -> Response:
        try:
            table.game.undo()
        except IndexError as e:
            return _error(e)
        return JSONResponse(table.view())

    async def suggest(request: Request) -> Response:
        g = table.game
        if not g.legal_moves:
            return _error(ValueError("no decision waits: nothing to suggest"))
        values = g.greedy_values()  # the greedy player's choice: instant, explained in docs
        best = max(values, key=lambda m: values[m])
        return JSONResponse({"move": str(best)})

    async def record(request: Request) -> Response:
        return JSONResponse(table.game.record())

    async def load(request: Request) -> Response:
        try:
            table.game = Game.from_record(await _body(request))
        except (RecordError, ValueError) as e:
            return _error(e)
        return JSONResponse(table.view())

    async def tile(request: Request) -> Response:
        tile_id = request.path_params["tile"]
        try:
            rotation = int(request.query_params.get("rotation", "0"))
            svg = render.tile_svg(tile_id, rotation, catalogue=table.game.catalogue)
        except ValueError as e:
            return _error(e)
        return Response(svg, media_type="image/svg+xml")

    return Starlette(
        routes=[
            Route("/", index),
            Route("/api/state", state),
            Route("/api/draw", draw, methods=["POST"]),
            Route("/api/play", play, methods=["POST"]),
            Route("/api/undo", undo, methods=["POST"]),
            Route("/api/suggest", suggest),
            Route("/api/record", record),
            Route("/api/load", load, methods=["POST"]),
            Route("/tile/{tile}.svg", tile),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ]
    )
