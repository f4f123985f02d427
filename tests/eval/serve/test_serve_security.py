"""What a web page on another site can do to a running ``serve``: nothing.

A page the user opens while ``serve`` runs can send requests to it (cross-site requests)
or reach it through a name of its own that resolves to this machine (DNS rebinding). It
must neither start a match nor make the server call an endpoint with the user's key.
The opposite failures are checked beside each: the server's own page, ``localhost``,
allowed host names and the opponents the person who started it offered keep working.
"""

from __future__ import annotations

import json
import logging
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from cdp import Browser
from endpoint_support import SECRET, Endpoint
from langgraph_games.eval.serve.app import PlayServer
from langgraph_games.eval.serve.guard import RequestGuard
from langgraph_games.eval.serve.matches import MatchTable
from langgraph_games.eval.serve.opponents import Opponents
from langgraph_games.players.errors import PlayerSpecError
from serve_support import Client


def _port(server: PlayServer) -> int:
    return int(server.httpd.server_address[1])


def test_a_post_needs_the_token_and_the_servers_own_origin(server: PlayServer) -> None:
    body = {"game": "tictactoe", "opponent": "random"}
    origin = f"http://127.0.0.1:{_port(server)}"
    for client, says in [
        (Client(server.url), "X-Serve-Token"),
        (Client(server.url, "not-the-token"), "X-Serve-Token"),
        (Client(server.url, server.token, {"Origin": "http://evil.example"}), "evil.example"),
        (Client(server.url, server.token, {"Origin": "null"}), "'null'"),
        (Client(server.url, server.token, {"Origin": f"http://localhost:{_port(server)}"}), ""),
    ]:
        status, reply = client("POST", "/api/matches", body)
        assert status == 403 and says in reply["error"], reply
    assert server.table.matches == {}
    # The server's own page: same origin, with the token.
    status, reply = Client(server.url, server.token, {"Origin": origin})(
        "POST", "/api/matches", body
    )
    assert status == 201, reply
    assert list(server.table.matches) == [reply["match_id"]]


@pytest.mark.parametrize(
    ("host", "ok"),
    [
        ("attacker.example:{port}", False),  # a rebinding name resolving to 127.0.0.1
        ("attacker.example", False),
        ("localhost.attacker.example:{port}", False),
        ("127.0.0.1:1", False),  # another port
        ("127.0.0.1:{port}x", False),
        ("::1:{port}", False),
        ("", False),
        ("127.0.0.1:{port}", True),
        ("localhost:{port}", True),
        ("LOCALHOST.:{port}", True),
        ("[::1]:{port}", True),
    ],
)
def test_a_host_header_that_is_not_this_server_is_refused_before_anything(
    server: PlayServer, host: str, ok: bool
) -> None:
    headers = {"Host": host.format(port=_port(server))}
    for method, path, body in [("GET", "/", None), ("GET", "/api/catalog", None)]:
        status, reply = Client(server.url, server.token, headers)(method, path, body)
        assert (status == 200) is ok, (host, path, reply)
        if not ok:
            assert "is not this server's" in reply["error"]
    status, _ = Client(server.url, server.token, headers)(
        "POST", "/api/matches", {"game": "tictactoe", "opponent": "random"}
    )
    assert (status == 201) is ok


def test_allowed_host_names_are_accepted_and_others_still_refused() -> None:
    guard = RequestGuard.of(8765, ["Games.LAN"])
    assert guard.host_ok("games.lan:8765") and guard.host_ok("GAMES.lan.:8765")
    assert not guard.host_ok("games.lan:8766") and not guard.host_ok("other.lan:8765")
    assert RequestGuard.of(80).host_ok("localhost") and RequestGuard.of(80).host_ok("10.0.0.7")
    assert RequestGuard.of(8765).token != RequestGuard.of(8765).token  # per start


def test_the_page_carries_the_token_only_to_its_own_host(server: PlayServer) -> None:
    status, page = Client(server.url)("GET", "/")
    assert status == 200 and f'content="{server.token}"' in page
    status, reply = Client(server.url, None, {"Host": f"evil.example:{_port(server)}"})("GET", "/")
    assert status == 403 and server.token not in json.dumps(reply)


def test_a_request_cannot_name_an_endpoint_so_no_key_leaves(
    client: Client, server: PlayServer, endpoint: Endpoint
) -> None:
    for opponent in [
        f"gamebot:openai:gpt-x@{endpoint.url}",
        f"gamebot:variant=cot:openai:gpt-x@{endpoint.url}",
        "gamebot:openai:gpt-4o-mini",  # the real provider with the user's key
        "minimax:depth=30",  # a search the starter did not offer: unbounded work
    ]:
        status, reply = client(
            "POST", "/api/matches", {"game": "tictactoe", "opponent": opponent, "human_seat": 1}
        )
        assert status == 403 and "not offered" in reply["error"], reply
        assert "gamebot:local" in reply["opponents"] and "minimax" in reply["opponents"]
    assert endpoint.requests == [] and server.table.matches == {}
    # The default offer still plays: the same strategy on the embedded model's name, and
    # the search players in their plain form.
    status, reply = client("POST", "/api/matches", {"game": "tictactoe", "opponent": "minimax"})
    assert status == 201, reply


def test_an_opponent_the_starter_offers_reaches_its_endpoint_with_the_key(
    tmp_path: Path, endpoint: Endpoint
) -> None:
    offered = f"gamebot:openai:gpt-x@{endpoint.url}"
    table = MatchTable(tmp_path, opponents=Opponents([offered, "random"]))
    server = PlayServer(table, port=0)
    server.start()
    try:
        client = Client(server.url, server.token)
        _, catalog = client("GET", "/api/catalog")
        assert catalog["opponents"] == [offered, "random"]
        status, reply = client(
            "POST", "/api/matches", {"game": "tictactoe", "opponent": offered, "human_seat": 1}
        )
        assert status == 201, reply
        assert reply["seats"][0] == f"X ({offered})"
        assert endpoint.requests and {r["auth"] for r in endpoint.requests} == {f"Bearer {SECRET}"}
        status, reply = client("POST", "/api/matches", {"game": "tictactoe", "opponent": "minimax"})
        assert status == 403 and reply["opponents"] == [offered, "random"]
    finally:
        server.close()


def test_offered_specs_are_checked_when_the_server_starts() -> None:
    with pytest.raises(PlayerSpecError, match="nobody"):
        Opponents(["minimax", "nobody"])
    offered = "gamebot:variant=cot:reader=rule:local"
    offer = Opponents([offered, " minimax:depth=2 ", "minimax:depth=2"])
    assert offer.offered() == [offered, "minimax:depth=2"]
    assert offer.choose("gamebot:reader=rule:variant=cot:local") == offered  # one player
    assert Opponents(["gamebot"]).choose("gamebot:local") == "gamebot"  # local by default


def test_the_serve_command_offers_only_its_opponents(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from langgraph_games.cli import main

    assert main(["serve", "--opponents", "nobody", "--out", str(tmp_path)]) == 2
    assert "nobody" in capsys.readouterr().err


_ATTACK = """<!doctype html><html><body><form id="f" method="POST" action="{serve}api/matches"
 enctype="text/plain"><input name='{{"game":"tictactoe","opponent":"{spec}","x":"' value='"}}'>
</form><script>
const body = JSON.stringify({{game: "tictactoe", opponent: "{spec}", human_seat: 1}});
fetch("{serve}api/matches", {{method: "POST", mode: "no-cors",
  headers: {{"Content-Type": "text/plain"}}, body}}).finally(() => {{
  fetch("{serve}api/matches", {{method: "POST", headers: {{"Content-Type": "application/json",
    "X-Serve-Token": "guess"}}, body}}).catch(() => null).finally(() => {{
    document.title = "sent"; document.getElementById("f").submit(); }});
}});
</script></body></html>"""


def test_a_page_on_another_origin_in_the_browser_starts_nothing_and_sends_no_key(
    browser: Browser,
    server: PlayServer,
    endpoint: Endpoint,
) -> None:
    page = _ATTACK.format(serve=server.url, spec=f"gamebot:openai:gpt-x@{endpoint.url}")

    class Attacker(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            raw = page.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

    attacker = ThreadingHTTPServer(("127.0.0.1", 0), Attacker)
    threading.Thread(target=attacker.serve_forever, daemon=True).start()
    watcher = _Refusals(count=2)
    log = logging.getLogger("langgraph_games.serve")
    log.addHandler(watcher)
    try:
        browser.open(f"http://127.0.0.1:{attacker.server_address[1]}/")
        # The no-cors fetch and the form reach the server and are refused by origin; the
        # fetch with a custom header is stopped by the browser's preflight, which the
        # server never grants (a refused OPTIONS).
        assert watcher.reached.wait(60), watcher.messages
        assert all("are refused: open the server's own page" in m for m in watcher.messages)
        assert server.table.matches == {} and endpoint.requests == []
    finally:
        log.removeHandler(watcher)
        attacker.shutdown()
        attacker.server_close()


class _Refusals(logging.Handler):
    """Collects the server's refusals of POSTs; ``reached`` is set at ``count`` of them."""

    def __init__(self, count: int) -> None:
        super().__init__(logging.WARNING)
        self.count = count
        self.messages: list[str] = []
        self.reached = threading.Event()

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if message.startswith("refused POST"):
            self.messages.append(message)
            if len(self.messages) >= self.count:
                self.reached.set()
