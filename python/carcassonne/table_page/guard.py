"""Who the table page obeys: only a page opened from the address the command printed.

Every request must name this server in its Host header (an IP address, ``localhost`` or the
name given with ``--host``: a DNS name pointing elsewhere, as in DNS rebinding, is refused);
a browser's Origin, when sent, must be this server; the page and its API need the run's
secret token (``?token=`` in the printed address, then the ``X-Table-Token`` header); a POST must
be JSON; a WebSocket is refused (the page opens none). Another web site the user visits can
therefore neither read nor change the game: it knows no token, and its requests carry its own
Origin or cannot be JSON without a preflight this server never grants."""

from __future__ import annotations

import hmac
import ipaddress
import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import parse_qs

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

TOKEN_HEADER = b"x-table-token"


def host_name(host: str) -> str:
    """``[::1]:8000`` -> ``::1``; ``localhost:8000`` -> ``localhost``."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class Guard:
    """ASGI middleware in front of the page: refuses what is not the user's, in plain JSON."""

    def __init__(self, app: ASGIApp, token: str, host: str) -> None:
        self.app = app
        self.token = token
        self._token = token.encode()
        self.table: Any = None  # the table behind the page (create_app sets it)
        self.refused = 0  # requests refused so far
        self.names = {"localhost", host_name(host)}

    def host_ok(self, host: str) -> bool:
        name = host_name(host)
        return bool(name) and (name in self.names or is_ip(name))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":  # a WebSocket: the page opens none, so none is let past
            self.refused += 1
            await send({"type": "websocket.close", "code": 1008})
            return
        refusal = self.refusal(scope)
        if refusal is not None:
            status, message = refusal
            self.refused += 1
            await refuse(send, status, message)
            return

        async def send_private(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *PRIVATE]
            await send(message)

        await self.app(scope, receive, send_private)

    def refusal(self, scope: Scope) -> tuple[int, str] | None:
        headers = {k.lower(): v for k, v in scope["headers"]}
        host = headers.get(b"host", b"").decode("latin-1")
        if not self.host_ok(host):
            return 403, f"refused: this page answers at its own address, not {host[:80]!r}"
        origin = headers.get(b"origin")
        if origin is not None and origin.decode("latin-1") != f"http://{host}":
            return 403, "refused: a request from another web site"
        if headers.get(b"sec-fetch-site", b"") == b"cross-site":
            return 403, "refused: a request from another web site"
        path = scope["path"]
        if path == "/" or path.startswith("/api/"):
            given = headers.get(TOKEN_HEADER)
            if given is None:
                query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
                given = (query.get("token") or [""])[0].encode("latin-1", "replace")
            if not hmac.compare_digest(given, self._token):
                return 403, (
                    "refused: this needs the token in the address carcassonne table printed "
                    "(open that address, or scan its QR code)"
                )
        if scope["method"] == "POST":
            kind = headers.get(b"content-type", b"").split(b";")[0].strip().lower()
            if kind != b"application/json":
                return 415, "refused: a change is sent as JSON (Content-Type: application/json)"
        return None


# No other site may frame the page, and the address with its token is never sent on. The page
# runs only its own script file and loads nothing from elsewhere, so a slip in escaping what
# it shows (the board's SVG is inserted as markup) runs no script; nothing is sniffed as
# another type.
PRIVATE = [
    (b"x-frame-options", b"DENY"),
    (
        b"content-security-policy",
        b"default-src 'self'; style-src 'self' 'unsafe-inline'; base-uri 'none'; "
        b"form-action 'none'; frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cache-control", b"no-store"),
]


async def refuse(send: Send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *PRIVATE,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
