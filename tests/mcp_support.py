"""Helpers for the MCP tests: the server command, a free port, tool-message text."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import langgraph_games

SRC = str(Path(langgraph_games.__file__).resolve().parents[1])


def server_command(*args: str) -> tuple[str, list[str], dict[str, str]]:
    """``python -m langgraph_games.cli mcp ARGS`` with this checkout's package importable."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (SRC, env.get("PYTHONPATH")) if p)
    return sys.executable, ["-m", "langgraph_games.cli", "mcp", *args], env


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_port(
    port: int, process: subprocess.Popen[bytes], log: Path, timeout_s: float = 60.0
) -> None:
    """Wait until the server ``process`` listens on ``port``; fail with its log if it does not."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited ({process.returncode}):\n{log.read_text()}")
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise TimeoutError(
        f"nothing listens on 127.0.0.1:{port} after {timeout_s} s:\n{log.read_text()}"
    )


def text_of(content: Any) -> str:
    """The text of a tool message's content (a string or a list of content blocks)."""
    if isinstance(content, str):
        return content
    return "".join(block.get("text", "") for block in content if isinstance(block, dict))
