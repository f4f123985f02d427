"""An unattended run refuses a seat that asks a person, before any episode starts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from langgraph_games.eval.running.arena import ArenaSpec, run_arena


async def test_an_arena_with_a_human_seat_is_refused_before_it_starts(tmp_path: Path) -> None:
    spec = ArenaSpec(game="tictactoe", players=["human", "random"], matches=1)
    with pytest.raises(ValueError, match="asks a person") as caught:
        await run_arena(spec, tmp_path, progress=False)
    assert "langgraph-games play" in str(caught.value)
    assert not list(tmp_path.glob("*.jsonl"))


def test_the_command_says_so_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "langgraph_games.cli",
            "arena",
            "tictactoe",
            "--players",
            "human",
            "random",
            "--matches",
            "1",
            "--out",
            str(tmp_path / "runs"),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode != 0
    assert "asks a person" in done.stderr and "Traceback" not in done.stderr
