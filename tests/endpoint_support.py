"""A fake OpenAI-compatible endpoint that records every request it gets (with its key)."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

SECRET = "sk-test-never-leaves"
"""The API key the ``endpoint`` fixture puts in ``OPENAI_API_KEY``."""


COMPLETION = {
    "id": "c1",
    "object": "chat.completion",
    "created": 0,
    "model": "gpt-x",
    "choices": [
        {"index": 0, "message": {"role": "assistant", "content": "(0,0)"}, "finish_reason": "stop"}
    ],
    "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
}
"""The chat completion the endpoint answers by default (content ``(0,0)``)."""


class Endpoint:
    """A fake OpenAI-compatible endpoint that records every request it gets.

    ``bodies`` holds ``(status, content type, raw body[, headers])`` answers for the next
    chat completions, served in turn before the default :data:`COMPLETION`. Each request
    is recorded with its arrival time (``at``, ``time.monotonic()``); ``delay_s`` makes
    every chat completion take that long.
    """

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.arrived = threading.Event()
        self.bodies: list[tuple[Any, ...]] = []
        self.delay_s = 0.0
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def _record(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                endpoint.requests.append(
                    {
                        "path": self.path,
                        "auth": self.headers.get("Authorization"),
                        "body": body,
                        "at": time.monotonic(),
                        "client": self.client_address[1],
                    }
                )
                endpoint.arrived.set()

            def do_GET(self) -> None:
                self._record()
                self._answer({"object": "list", "data": [{"id": "gpt-x", "object": "model"}]})

            def do_POST(self) -> None:
                self._record()
                if endpoint.delay_s:
                    time.sleep(endpoint.delay_s)  # a model taking its time to answer
                if endpoint.bodies:
                    self._send(*endpoint.bodies.pop(0))
                else:
                    self._answer(COMPLETION)

            def _answer(self, data: Any) -> None:
                self._send(200, "application/json", json.dumps(data).encode())

            def _send(
                self, status: int, kind: str, raw: bytes, headers: dict[str, str] | None = None
            ) -> None:
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(raw)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(raw)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
