"""A game from an outside package is played everywhere, with no file of ours touched.

``tests/data/plugin_game`` is an outside package: a game class (``toy_columns``) and its
``parts.py`` (typed move, action universe, exact search, clickable grid), with the entry
point ``langgraph_games.games`` in its ``pyproject.toml``. The tests install it through a
dist-info on ``sys.path`` (or ``PYTHONPATH`` for the command line) and play it through the
CLI arena, PettingZoo, the MCP server and the serve page's API.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from mcp.shared.memory import create_connected_server_and_client_session

from langgraph_games.eval.serve.app import PlayServer
from langgraph_games.eval.serve.matches import MatchTable
from langgraph_games.games import parts, registry
from langgraph_games.games.registry import list_games, make
from langgraph_games.games.session import GameSession
from langgraph_games.integrations.mcp_server import build_server
from langgraph_games.integrations.pettingzoo import aec_env
from langgraph_games.tools.moves import move_schema
from plugin_support import install_pyproject, run_cli
from serve_support import Client

PROJECT = Path(__file__).resolve().parents[1] / "data" / "plugin_game"


@pytest.fixture
def toy_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The outside package installed in this process, and forgotten afterwards."""
    install_pyproject(PROJECT, tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.syspath_prepend(str(PROJECT))
    monkeypatch.setattr(registry, "_GAMES", {k: dict(v) for k, v in registry._GAMES.items()})
    monkeypatch.setattr(registry, "_loaded_entry_points", set())
    monkeypatch.setattr(parts, "_PARTS", dict(parts._PARTS))
    yield
    for name in [m for m in sys.modules if m.split(".")[0] == "toy_columns"]:
        del sys.modules[name]


def test_the_game_is_found_through_its_entry_point_with_its_parts(toy_game: None) -> None:
    game = make("toy_columns")
    assert "toy_columns" in [info.id for info in list_games()]
    declared = parts.parts_of(game)
    assert declared.grid == parts.BoardGrid(2, 3) and declared.search == parts.Search(None)
    schema = move_schema(game)
    assert schema.typed and sorted(schema.tool_schema()["properties"]) == ["col", "row"]
    state = game.initial_state(0)
    assert schema.read(game, state, 0, {"row": 1, "col": 2}) == "(1,2)"


def test_pettingzoo_plays_it_with_its_action_universe(toy_game: None) -> None:
    env = aec_env("toy_columns")
    env.reset(seed=0)
    universe = env.unwrapped.episode.universe
    assert universe.actions == ("(0,0)", "(0,1)", "(0,2)", "(1,0)", "(1,1)", "(1,2)")
    engine = GameSession("toy_columns", seed=0)
    for _agent in env.agent_iter(100):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        index = int(np.flatnonzero(obs["action_mask"])[0])
        env.step(index)
        engine.step(universe.actions[index])
    assert not env.agents and engine.done


async def test_mcp_plays_it_against_minimax_with_its_declared_search(toy_game: None) -> None:
    server = build_server()
    async with create_connected_server_and_client_session(server._mcp_server) as mcp:
        listed = await mcp.call_tool("list_games", {})
        assert "toy_columns" in "".join(getattr(c, "text", "") for c in listed.content)
        started = await mcp.call_tool("new_game", {"game": "toy_columns", "opponent": "minimax"})
        assert not started.isError
        text = ""
        for _ in range(6):
            legal = await mcp.call_tool("legal_moves", {"session": "game-1"})
            moves = "".join(getattr(c, "text", "") for c in legal.content)
            if "Legal moves: (" not in moves:
                break
            first = moves.split("Legal moves: ")[1].split(", ")[0].strip()
            moved = await mcp.call_tool("move", {"session": "game-1", "action": first})
            assert not moved.isError
            text = "".join(getattr(c, "text", "") for c in moved.content)
            if "Game over" in text:
                break
        result = await mcp.call_tool("result", {"session": "game-1"})
        outcome = json.loads("".join(getattr(c, "text", "") for c in result.content))
        # X threatens one column at a time; exact search blocks each threat: a draw.
        assert outcome["verdict"] == "draw" and outcome["returns"] == [0.0, 0.0], text


def test_the_serve_page_offers_it_on_its_grid(toy_game: None, tmp_path: Path) -> None:
    play = PlayServer(MatchTable(tmp_path / "serve", max_matches=2), port=0)
    play.start()
    try:
        client = Client(play.url, play.token)
        status, catalog = client("GET", "/api/catalog")
        assert status == 200
        [toy] = [g for g in catalog["games"] if g["id"] == "toy_columns"]
        assert toy["grid"] is True and toy["seats"] == ["X", "O"]
        minimax = next(p for p in catalog["players"] if p["name"] == "minimax")
        assert "toy_columns" in minimax["games"]
        body = {"game": "toy_columns", "opponent": "minimax", "human_seat": 0}
        status, match = client("POST", "/api/matches", body)
        assert status == 201, match
        assert [[cell["move"] for cell in row] for row in match["grid"]["cells"]] == [
            ["(0,0)", "(0,1)", "(0,2)"],
            ["(1,0)", "(1,1)", "(1,2)"],
        ]
        while not match["finished"]:
            move = match["legal_moves"][0]
            status, match = client("POST", f"/api/matches/{match['match_id']}/move", {"move": move})
            assert status == 200, match
        assert match["winners"] == [] and match["status"] == "finished"  # every threat blocked
    finally:
        play.close()


def test_the_cli_arena_plays_it(tmp_path: Path) -> None:
    installed = tmp_path / "site"
    install_pyproject(PROJECT, installed)
    paths = [installed, PROJECT]
    argv = ["arena", "toy_columns", "--players", "minimax", "random", "--matches", "2"]
    done = run_cli([*argv, "--out", str(tmp_path / "out")], paths)
    assert done.returncode == 0, done.stderr
    episodes = [
        json.loads(line)
        for path in (tmp_path / "out").rglob("*.jsonl")
        for line in path.read_text().splitlines()
        if line.strip()
    ]
    assert len(episodes) == 2 and all(e["status"] == "finished" for e in episodes)
    assert all(e["game"] == "toy_columns-v1" for e in episodes)
    listed = run_cli(["games", "-v"], paths)
    assert "toy_columns-v1" in listed.stdout
