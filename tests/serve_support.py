"""A JSON client of the play server (``langgraph-games serve``) over urllib."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any


class Client:
    """JSON over HTTP with urllib: ``(status, body)`` for every answer, errors included.

    Args:
        url: The server's URL.
        token: The server's per-start token, sent on every request as the page does.
        headers: More headers for every request (``Host``, ``Origin``).
    """

    def __init__(
        self, url: str, token: str | None = None, headers: dict[str, str] | None = None
    ) -> None:
        self.url = url
        self.headers = {"Content-Type": "application/json", **(headers or {})}
        if token is not None:
            self.headers["X-Serve-Token"] = token

    def __call__(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.url + path.lstrip("/"), method=method, data=data, headers=self.headers
        )
        try:
            with urllib.request.urlopen(request, timeout=60) as reply:
                return reply.status, _decode(reply.read(), reply.headers.get_content_type())
        except urllib.error.HTTPError as exc:
            return exc.code, _decode(exc.read(), exc.headers.get_content_type())


def _decode(raw: bytes, kind: str) -> Any:
    return json.loads(raw) if kind == "application/json" else raw.decode()
