"""A player from an outside package, found through the ``langgraph_games.players`` entry point."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from plugin_support import EXAMPLES, SRC, install_pyproject, run_cli

PROJECT = EXAMPLES / "plugin_player"


def test_the_example_package_declares_its_player_under_the_entry_point(tmp_path: Path) -> None:
    install_pyproject(PROJECT, tmp_path)
    code = (
        "from importlib import metadata\n"
        "from langgraph_games.players.registry import player_entry\n"
        "points = metadata.entry_points(group='langgraph_games.players')\n"
        "print([(p.name, p.value) for p in points])\n"
        "entry = player_entry('lookahead:seed=2'.split(':')[0])\n"
        "print(entry.name, entry.plays_text())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": ":".join([SRC, str(tmp_path), str(PROJECT / "src")]), "PATH": ""},
    )
    lines = done.stdout.splitlines()
    assert lines[0] == "[('lookahead', 'lgg_lookahead:ENTRY')]"
    assert lines[1].startswith("lookahead plays checkers, connect4, negotiation, othello, ")
    assert "pong" not in lines[1]  # simultaneous moves: not its kind of game


def test_without_the_package_the_player_is_unknown(tmp_path: Path) -> None:
    done = run_cli(["arena", "connect4", "--players", "lookahead", "random"], [])
    assert done.returncode == 2 and "Unknown player 'lookahead'" in done.stderr


def test_the_outside_player_plays_an_arena_with_worker_processes(tmp_path: Path) -> None:
    installed = tmp_path / "site"
    install_pyproject(PROJECT, installed)
    paths = [installed, PROJECT / "src"]
    listed = run_cli(["games"], paths)
    assert listed.returncode == 0, listed.stderr
    assert "lookahead[:seed=<int>]" in listed.stdout
    out = tmp_path / "out"
    argv = ["arena", "connect4", "--players", "lookahead", "random", "--matches", "4"]
    done = run_cli([*argv, "--workers", "2", "--out", str(out)], paths)
    assert done.returncode == 0, done.stderr
    records = [
        json.loads(line)
        for path in out.rglob("*.jsonl")
        for line in path.read_text().splitlines()
        if line.strip()
    ]
    episodes = [r for r in records if r.get("kind") != "run"]
    assert len(episodes) == 4
    assert all(r.get("status") != "error" for r in episodes), episodes
    assert all(sorted(r["seats"]) == ["lookahead", "random"] for r in episodes)
