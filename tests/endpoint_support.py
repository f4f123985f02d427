"""A fake OpenAI-compatible endpoint that records every request it gets (with its key)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

SECRET = "sk-test-never-leaves"
"""The API key the ``endpoint`` fixture puts in ``OPENAI_API_KEY``."""


class Endpoint:
    """A fake OpenAI-compatible endpoint that records every request it gets."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.arrived = threading.Event()
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def _record(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                endpoint.requests.append(
                    {"path": self.path, "auth": self.headers.get("Authorization"), "body": body}
                )
                endpoint.arrived.set()

            def do_GET(self) -> None:
                self._record()
                self._answer({"object": "list", "data": [{"id": "gpt-x", "object": "model"}]})

            def do_POST(self) -> None:
                self._record()
                self._answer(
                    {
                        "id": "c1",
                        "object": "chat.completion",
                        "created": 0,
                        "model": "gpt-x",
                        "choices": [
                            {
                                "index": 0,
                                "message": {"role": "assistant", "content": "(0,0)"},
                                "finish_reason": "stop",
                            }
                        ],
                        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
                    }
                )

            def _answer(self, data: Any) -> None:
                raw = json.dumps(data).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
