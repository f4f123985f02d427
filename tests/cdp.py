"""A minimal Chrome DevTools Protocol client over ``--remote-debugging-pipe``, for page tests.

Chromium reads commands from file descriptor 3 and writes replies and events to
descriptor 4, each message a JSON object ended by a NUL byte. A pipe needs no port, no
websocket library and nothing from the network, which keeps the browser tests robust
offline and free of port clashes. Only what the replay tests use is here: open a page,
evaluate script, press keys, click at a point, take a screenshot.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import select
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--remote-debugging-pipe",
)

KEY_CODES = {"ArrowLeft": 37, "ArrowUp": 38, "ArrowRight": 39, "ArrowDown": 40, "Home": 36,
             "End": 35, " ": 32}  # fmt: skip


class CDPError(RuntimeError):
    """The browser answered a command with an error, or did not answer in time."""


def find_chromium() -> str | None:
    """The path of Debian's ``chromium`` (or ``chromium-browser``), if installed."""
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


def ensure_chromium(timeout_s: float = 900) -> tuple[str | None, str]:
    """Find chromium, installing it with apt-get when possible: ``(path, why not)``.

    Idempotent and fast once installed (one ``which``). Installing needs root and apt-get;
    ``apt-get update`` is only run when a plain install fails (stale package lists).
    """
    found = find_chromium()
    if found:
        return found, ""
    if not shutil.which("apt-get"):
        return None, "chromium is not installed and there is no apt-get to install it"
    if os.geteuid() != 0:
        return None, "chromium is not installed and installing it needs root (apt-get)"
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    install = ["apt-get", "install", "-y", "-q", "--no-install-recommends", "chromium"]
    output = ""
    for before in ([], ["apt-get", "update", "-q"]):
        try:
            if before:
                subprocess.run(before, env=env, capture_output=True, timeout=timeout_s)
            done = subprocess.run(
                install, env=env, capture_output=True, text=True, timeout=timeout_s
            )
            output = (done.stdout + done.stderr)[-800:]
        except (OSError, subprocess.TimeoutExpired) as exc:
            output = str(exc)
        found = find_chromium()
        if found:
            return found, ""
    return None, f"could not install chromium with apt-get: {output.strip()}"


class Browser:
    """A headless chromium with a fresh profile, driven over the DevTools pipe.

    Args:
        binary: The chromium executable.
        profile: An empty folder for the profile.
        width: Window width in CSS pixels.
        height: Window height.
    """

    def __init__(self, binary: str, profile: Path, width: int = 1280, height: int = 900) -> None:
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()

        def wire() -> None:  # in the child: our pipes become its descriptors 3 and 4
            os.dup2(to_browser_r, 3)
            os.dup2(from_browser_w, 4)

        self.process = subprocess.Popen(
            [
                binary,
                *FLAGS,
                f"--user-data-dir={profile}",
                f"--window-size={width},{height}",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=wire,  # the only way to place the pipes at descriptors 3 and 4
            pass_fds=(3, 4),
        )
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict[str, Any]] = []
        self.session: str | None = None
        self.width, self.height = width, height

    # ----- protocol -------------------------------------------------------------------

    def _read_message(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise CDPError("timed out waiting for the browser")
            ready, _, _ = select.select([self._from_browser], [], [], left)
            if ready:
                chunk = os.read(self._from_browser, 1 << 16)
                if not chunk:
                    raise CDPError(f"the browser closed the pipe (exit {self.process.poll()})")
                self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        message: dict[str, Any] = json.loads(raw)
        return message

    def send(self, method: str, timeout_s: float = 20, **params: Any) -> dict[str, Any]:
        """Send a command (to the attached page unless it is a browser-level one)."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params}
        if self.session and not method.startswith(("Target.", "Browser.")):
            message["sessionId"] = self.session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout_s
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise CDPError(f"{method}: {reply['error']}")
                result: dict[str, Any] = reply.get("result", {})
                return result
            self.events.append(reply)

    def wait_event(self, method: str, timeout_s: float = 20) -> dict[str, Any]:
        """Wait for an event (or take it if it already came)."""
        for i, event in enumerate(self.events):
            if event.get("method") == method:
                return self.events.pop(i)
        deadline = time.monotonic() + timeout_s
        while True:
            message = self._read_message(deadline)
            if message.get("method") == method:
                return message
            self.events.append(message)

    # ----- page helpers ---------------------------------------------------------------

    def open(self, url: str) -> None:
        """Open ``url`` in a new page, attach to it and wait for its load event."""
        target = self.send("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.send("Target.attachToTarget", targetId=target, flatten=True)[
            "sessionId"
        ]
        self.send("Page.enable")
        self.send("Runtime.enable")
        self.send(
            "Emulation.setDeviceMetricsOverride",
            width=self.width,
            height=self.height,
            deviceScaleFactor=1,
            mobile=False,
        )
        self.events.clear()
        self.send("Page.navigate", url=url)
        self.wait_event("Page.loadEventFired")

    def evaluate(self, expression: str) -> Any:
        """The JSON value of a script expression in the page.

        Raises:
            CDPError: The script threw.
        """
        reply = self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in reply:
            raise CDPError(f"{expression!r} threw: {reply['exceptionDetails']}")
        return reply["result"].get("value")

    def press(self, key: str) -> None:
        """Press and release a key (``ArrowRight``, ``Home``, ``" "`` ...)."""
        code = KEY_CODES.get(key, 0)
        name = "Space" if key == " " else key
        for kind in ("keyDown", "keyUp"):
            self.send(
                "Input.dispatchKeyEvent",
                type=kind,
                key=key,
                code=name,
                windowsVirtualKeyCode=code,
                nativeVirtualKeyCode=code,
                text=key if kind == "keyDown" and key == " " else "",
            )

    def click(self, selector: str) -> None:
        """Click the middle of the element matched by ``selector``, with real mouse events."""
        box = self.evaluate(
            f"(() => {{ const r = document.querySelector({json.dumps(selector)})"
            ".getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()"
        )
        x, y = box
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left",
                      clickCount=1)  # fmt: skip

    def screenshot(self, path: Path) -> Path:
        """Save a PNG of the viewport."""
        data = self.send("Page.captureScreenshot", format="png")["data"]
        path.write_bytes(base64.b64decode(data))
        return path

    def close(self) -> None:
        """Close the browser (kill it if it does not go)."""
        with contextlib.suppress(CDPError, OSError):
            self.send("Browser.close", timeout_s=5)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        for fd in (self._to_browser, self._from_browser):
            with contextlib.suppress(OSError):
                os.close(fd)
