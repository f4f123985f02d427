"""The MCP server: isolation between HTTP clients, clear errors, session caps and expiry."""

from __future__ import annotations

import gc
import json
import subprocess
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from langchain_mcp_adapters.client import MultiServerMCPClient
from mcp import ClientSession
from mcp.shared.memory import create_connected_server_and_client_session

from langgraph_games.cli import main
from langgraph_games.integrations.mcp_server import build_server
from langgraph_games.integrations.mcp_sessions import (
    GameSessions,
    SessionLimitError,
    UnknownSessionError,
)
from mcp_support import free_port, server_command, wait_for_port


async def call(client: ClientSession, tool: str, /, **args: Any) -> tuple[bool, str]:
    """(is_error, text) of one tool call."""
    result = await client.call_tool(tool, args)
    return bool(result.isError), "".join(getattr(c, "text", "") for c in result.content)


@pytest.fixture(scope="module")
def http_port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    port = free_port()
    command, args, env = server_command("--transport", "http", "--port", str(port))
    log = tmp_path_factory.mktemp("mcp") / "server.log"
    with log.open("wb") as sink:
        server = subprocess.Popen([command, *args], env=env, stdout=sink, stderr=sink)
        try:
            wait_for_port(port, server, log)
            yield port
        finally:
            server.terminate()
            server.wait(timeout=30)


async def test_two_http_clients_cannot_see_or_move_each_others_games(http_port: int) -> None:
    url = f"http://127.0.0.1:{http_port}/mcp"
    client = MultiServerMCPClient({"games": {"transport": "streamable_http", "url": url}})
    async with client.session("games") as alice, client.session("games") as bob:
        error, text = await call(alice, "new_game", game="tictactoe", seed=3)
        assert not error and text.startswith("Session: game-1\nStarted TicTacToe")
        # Bob has no game-1: he can neither look at Alice's nor move in it.
        for tool, args in (("observe", {}), ("move", {"action": "(1,1)"}), ("result", {})):
            error, text = await call(bob, tool, session="game-1", **args)
            assert error and "No open game 'game-1' in this MCP session (open games: none)" in text
        # Bob's own first game is his game-1; Alice's is untouched by his move.
        error, text = await call(bob, "new_game", game="connect4")
        assert not error and text.startswith("Session: game-1\nStarted Connect Four")
        error, _ = await call(bob, "move", session="game-1", action="(5,3)")
        assert not error
        error, text = await call(alice, "result", session="game-1")
        assert not error
        assert json.loads(text)["record"] == {
            "game": "tictactoe-v1", "options": {}, "seed": 3, "actions": []
        }  # fmt: skip
        error, text = await call(bob, "result", session="game-1")
        assert json.loads(text)["game"] == "connect4-v1" and json.loads(text)["steps"] == 2


@asynccontextmanager
async def in_memory(sessions: GameSessions | None = None) -> AsyncIterator[ClientSession]:
    server = build_server(sessions)
    async with create_connected_server_and_client_session(server._mcp_server) as session:
        yield session


async def test_bad_inputs_get_errors_that_say_what_is_accepted() -> None:
    async with in_memory() as mcp:
        error, text = await call(mcp, "new_game", game="chess")
        assert error and "Unknown game 'chess'. Registered games: bandit" in text
        error, text = await call(mcp, "new_game", game="maze", options={"level": 7})
        assert error and "option 'level' has an invalid value 7" in text
        error, text = await call(mcp, "new_game", game="tictactoe", opponent="grandmaster")
        assert error and "grandmaster" in text and "minimax" in text
        error, text = await call(mcp, "new_game", game="tictactoe", seat=2)
        assert error and "player must be a seat 0..1, got 2" in text
        error, text = await call(mcp, "observe", session="game-9")
        assert error and "No open game 'game-9'" in text and "start one with new_game" in text
        error, text = await call(mcp, "new_game", game="tictactoe", opponent="minimax")
        assert not error and text.startswith("Session: game-1")
        error, text = await call(mcp, "move", session="game-1", action="(3,3)")
        assert error and "Illegal move '(3,3)'" in text and "Legal moves: (0,0), (0,1)" in text
        error, text = await call(mcp, "move", session="game-1", action="centre please")
        assert error and "Illegal move 'centre please'" in text
        error, text = await call(mcp, "legal_moves", session="game-1")
        assert not error and text == (
            "Legal moves: (0,0), (0,1), (0,2), (1,0), (1,1), (1,2), (2,0), (2,1), (2,2)"
        )


async def test_list_games_and_a_single_player_game_to_its_end() -> None:
    async with in_memory() as mcp:
        error, text = await call(mcp, "list_games")
        assert not error and "- rock_paper_scissors (1 player, SmartPlay)" in text
        error, _ = await call(mcp, "new_game", game="bandit", seed=4)
        assert not error
        steps = 0
        while True:
            error, text = await call(mcp, "move", session="game-1", action="Pull slot machine 1.")
            assert not error
            steps += 1
            if "Game over" in text:
                break
        error, text = await call(mcp, "result", session="game-1")
        outcome = json.loads(text)
        assert outcome["verdict"] == "finished" and outcome["steps"] == steps == 50
        error, text = await call(mcp, "close_game", session="game-1")
        assert (error, text) == (False, "Closed game-1.")
        error, text = await call(mcp, "observe", session="game-1")
        assert error and "(open games: none)" in text


async def test_the_cap_on_open_games_is_a_clear_tool_error() -> None:
    async with in_memory(GameSessions(max_games_per_client=2)) as mcp:
        for _ in range(2):
            assert not (await call(mcp, "new_game", game="tictactoe"))[0]
        error, text = await call(mcp, "new_game", game="tictactoe")
        assert error and "already has 2 open games, the limit" in text
        assert "open: game-1, game-2" in text


class Client:
    """Stands for an MCP session object (the store holds owners weakly)."""


def test_sessions_are_isolated_by_owner_capped_and_expire_when_idle() -> None:
    now = [0.0]
    store = GameSessions(
        max_games_per_client=2, max_games=3, idle_timeout_s=60, clock=lambda: now[0]
    )
    alice, bob, carol = Client(), Client(), Client()
    assert store.start(alice, "tictactoe")[0] == "game-1"
    assert store.start(alice, "connect4")[0] == "game-2"
    with pytest.raises(SessionLimitError, match="already has 2 open games"):
        store.start(alice, "tictactoe")
    assert store.start(bob, "tictactoe")[0] == "game-1"
    with pytest.raises(SessionLimitError, match="The server holds 3 open games"):
        store.start(carol, "tictactoe")
    with pytest.raises(UnknownSessionError):
        store.get(carol, "game-1")
    assert store.get(bob, "game-1") is not store.get(alice, "game-1")
    now[0] = 50.0
    store.get(alice, "game-2")  # used: its idle time starts again
    now[0] = 100.0
    assert store.open_games(alice) == ["game-2"] and store.open_games(bob) == []
    assert store.start(carol, "othello")[0] == "game-1"
    with pytest.raises(UnknownSessionError, match=r"open games: game-2"):
        store.get(alice, "game-1")


def test_a_clients_games_go_with_its_session() -> None:
    store = GameSessions(max_games=2)
    alice, bob = Client(), Client()
    store.start(alice, "tictactoe")
    store.start(alice, "tictactoe")
    with pytest.raises(SessionLimitError, match="The server holds 2 open games"):
        store.start(bob, "tictactoe")
    del alice
    gc.collect()
    assert store.start(bob, "tictactoe")[0] == "game-1"


def test_cli_refuses_a_remote_host_unless_allowed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mcp", "--transport", "http", "--host", "0.0.0.0"]) == 2
    err = capsys.readouterr().err
    assert "refusing to listen on 0.0.0.0" in err and "--allow-remote" in err
