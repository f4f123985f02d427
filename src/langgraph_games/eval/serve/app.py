"""The HTTP side of ``langgraph-games serve``: stdlib server, JSON API, the page.

A :class:`~http.server.ThreadingHTTPServer` answers requests; every match operation runs
on one asyncio loop in a background thread (:class:`PlayServer`), so the episodes, their
checkpointer and the players' model calls live on one loop, as in the arena.

API (JSON in and out; errors are ``{"error": reason, ...}`` with a 4xx/5xx status):

- ``GET /`` the page; ``GET /assets/<name>`` its script and style;
- ``GET /api/catalog`` the two-player games and the registered player specs;
- ``POST /api/matches`` ``{"game", "opponent", "human_seat", "seed"}`` starts a match;
- ``GET /api/matches/<id>`` its state; ``POST /api/matches/<id>/move`` ``{"move"}``
  plays a move (400 with the reason and ``legal_moves`` when it names no legal move);
- ``GET /replays/<page>`` the replay page of a finished match.

Every request first passes :class:`~langgraph_games.eval.serve.guard.RequestGuard`'s Host
and Origin checks, and every ``POST`` must carry the per-start token the page holds
(403 otherwise); a new match may only name an offered opponent (403 otherwise, with the
offer).
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import threading
from collections.abc import Awaitable, Callable, Sequence
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any, TypeVar

from langgraph_games.eval.serve.guard import TOKEN_HEADER, RequestGuard
from langgraph_games.eval.serve.matches import Match, MatchError, MatchTable, catalog
from langgraph_games.games.errors import GameError
from langgraph_games.models.errors import ModelError
from langgraph_games.players.errors import PlayerSpecError

__all__ = ["LOCAL_HOSTS", "TOKEN_HEADER", "PlayServer", "check_host"]

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
"""Hosts the server binds to without ``--allow-remote``."""

_ASSETS = {
    "serve.js": "text/javascript; charset=utf-8",
    "serve.css": "text/css; charset=utf-8",
}
_MATCH = re.compile(r"^/api/matches/([A-Za-z0-9_-]+)(/move)?$")
_REPLAY = re.compile(r"^/replays/([A-Za-z0-9_.-]+\.html)$")
_MAX_BODY = 64 * 1024
_log = logging.getLogger("langgraph_games.serve")
T = TypeVar("T")


def check_host(host: str, allow_remote: bool) -> None:
    """Refuse a host other than the loopback ones unless ``allow_remote``.

    Raises:
        ValueError: ``host`` is not local and remote access was not asked for.
    """
    if host not in LOCAL_HOSTS and not allow_remote:
        raise ValueError(
            f"--host {host} would let other machines play (and spend model calls) here; "
            f"use one of {', '.join(LOCAL_HOSTS)} or pass --allow-remote"
        )


def _asset(name: str) -> bytes:
    folder = resources.files("langgraph_games.eval.serve") / "assets"
    return (folder / name).read_bytes()


class PlayServer:
    """The server: an HTTP server in front of a :class:`MatchTable` on its own loop.

    Args:
        table: The matches.
        host: Address to bind (check it with :func:`check_host` first).
        port: Port (0: any free port; see :attr:`url`).
        allowed_hosts: Host names a browser may reach the server by besides ``localhost``
            and IP addresses (see :class:`~langgraph_games.eval.serve.guard.RequestGuard`).
    """

    def __init__(
        self,
        table: MatchTable,
        host: str = "127.0.0.1",
        port: int = 0,
        allowed_hosts: Sequence[str] = (),
    ) -> None:
        self.table = table
        self.loop = asyncio.new_event_loop()
        self._loop_thread = threading.Thread(
            target=self.loop.run_forever, name="serve-loop", daemon=True
        )
        self._http_thread: threading.Thread | None = None
        self.httpd = ThreadingHTTPServer((host, port), _handler(self))
        self.httpd.daemon_threads = True
        self.guard = RequestGuard.of(self.httpd.server_address[1], allowed_hosts)

    @property
    def token(self) -> str:
        """The per-start token every ``POST`` carries (in :data:`TOKEN_HEADER`)."""
        return self.guard.token

    @property
    def url(self) -> str:
        """``http://host:port/`` of the page."""
        host, port = self.httpd.server_address[:2]
        name = host.decode() if isinstance(host, bytes) else str(host)
        shown = f"[{name}]" if ":" in name else name
        return f"http://{shown}:{port}/"

    def call(self, make: Callable[[], Awaitable[T]]) -> T:
        """Run a coroutine on the server's loop and wait for its result."""

        async def wrapped() -> T:
            return await make()

        return asyncio.run_coroutine_threadsafe(wrapped(), self.loop).result()

    def start(self) -> None:
        """Serve in background threads (tests, embedding); stop with :meth:`close`."""
        self._loop_thread.start()
        self._http_thread = threading.Thread(
            target=self.httpd.serve_forever, name="serve-http", daemon=True
        )
        self._http_thread.start()

    def serve_forever(self) -> None:
        """Serve in this thread until interrupted (Ctrl-C), then close."""
        self._loop_thread.start()
        try:
            self.httpd.serve_forever()
        finally:
            self.close()

    def close(self) -> None:
        """Stop serving and stop the loop."""
        if self._http_thread is not None:
            self.httpd.shutdown()
            self._http_thread.join()
        self.httpd.server_close()
        if self._loop_thread.is_alive():
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._loop_thread.join()


def _handler(server: PlayServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "langgraph-games-serve"

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet: the command prints the URL and what matters, not every request."""

        def _send(self, status: int, body: bytes, content_type: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def _json(self, status: int, data: object) -> None:
            body = json.dumps(data, default=str).encode()
            self._send(status, body, "application/json")

        def _error(self, status: int, message: str, **extra: object) -> None:
            self._json(status, {"error": message, **extra})

        def _body(self) -> dict[str, object]:
            length = int(self.headers.get("Content-Length") or 0)
            if length > _MAX_BODY:
                raise MatchError(f"request body over {_MAX_BODY} bytes", status=413)
            raw = self.rfile.read(length) if length else b"{}"
            try:
                data = json.loads(raw or b"{}")
            except (ValueError, RecursionError) as exc:  # nested too deep: RecursionError
                raise MatchError(f"the body is not JSON: {exc}") from exc
            if not isinstance(data, dict):
                raise MatchError("the body must be a JSON object")
            return data

        def _guarded(self, work: Callable[[], None]) -> None:
            try:
                work()
            except MatchError as exc:
                self._error(exc.status, str(exc), **exc.extra)
            except (GameError, PlayerSpecError, ModelError, ValueError) as exc:
                self._error(HTTPStatus.BAD_REQUEST, str(exc))

        def _allowed(self, method: str) -> bool:
            refusal = server.guard.check(method, self.headers)
            if refusal is not None:
                _log.warning("refused %s %s: %s", method, self.path[:200], refusal.reason)
                self._error(refusal.status, refusal.reason)
            return refusal is None

        def do_GET(self) -> None:
            """Page, assets, catalog, match state, replay pages."""
            if not self._allowed("GET"):
                return
            path = self.path.split("?", 1)[0]
            if path in ("/", "/index.html"):
                html = _asset("serve.html").replace(b"{{token}}", server.token.encode())
                self._send(200, html, "text/html; charset=utf-8")
                return
            if path.startswith("/assets/") and path[8:] in _ASSETS:
                self._send(200, _asset(path[8:]), _ASSETS[path[8:]])
                return
            if path == "/api/catalog":
                self._guarded(lambda: self._json(200, catalog(server.table.opponents)))
                return
            replay = _REPLAY.match(path)
            if replay:
                page = server.table.replays / replay[1]
                if page.is_file():
                    self._send(200, page.read_bytes(), "text/html; charset=utf-8")
                else:
                    self._error(404, f"no replay page {replay[1]}")
                return
            found = _MATCH.match(path)
            if found and not found[2]:
                match_id = found[1]
                self._guarded(lambda: self._json(200, server.table.get(match_id).view()))
                return
            self._error(404, f"nothing at {path}")

        def do_POST(self) -> None:
            """New match, move."""
            if not self._allowed("POST"):
                return
            path = self.path.split("?", 1)[0]
            found = _MATCH.match(path)
            if path == "/api/matches":

                def start() -> None:
                    body = self._body()
                    match = server.call(lambda: server.table.new(body))
                    self._json(201, match.view())

                self._guarded(start)
            elif found and found[2]:

                def move() -> None:
                    body = self._body()
                    if "move" not in body:
                        raise MatchError('the body must be {"move": "<a legal move>"}')
                    match: Match = server.call(lambda: server.table.move(found[1], body["move"]))
                    self._json(200, match.view())

                self._guarded(move)
            else:
                self._error(404, f"nothing to post at {path}")

    return Handler
