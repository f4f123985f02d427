"""Manifests record what a run ran with: versions, source commit, host, times, the spec."""

from __future__ import annotations

import json
import shutil
import subprocess
from datetime import datetime
from importlib import metadata
from pathlib import Path

import pytest

from langgraph_games import __version__
from langgraph_games.eval import ArenaSpec, run_arena
from langgraph_games.eval.running.provenance import (
    DEPENDENCIES,
    finish_manifest,
    git_source,
)
from langgraph_games.eval.running.runner import EvalSpec, run_eval


async def test_an_arena_and_an_eval_manifest_record_versions_host_times_and_spec(
    tmp_path: Path,
) -> None:
    arena = ArenaSpec(game="tictactoe", players=["random", "minimax"], matches=1)
    evaluation = EvalSpec(game="maze", agent="random", repeats=1)
    for report in (
        await run_arena(arena, tmp_path, progress=False),
        await run_eval(evaluation, tmp_path, progress=False),
    ):
        manifest = json.loads(report.results_path.with_suffix(".manifest.json").read_text())
        assert manifest["package_version"] == __version__
        assert manifest["dependencies"] == {name: metadata.version(name) for name in DEPENDENCIES}
        assert manifest["host"]["name"] and manifest["host"]["cpus"] >= 1
        started = datetime.fromisoformat(manifest["started_at"])
        assert started <= datetime.fromisoformat(manifest["finished_at"])
        assert (manifest["played"], manifest["errors"]) == (report.played, 0)
        assert manifest["git"] == git_source()  # this checkout's commit, or None if installed
        assert manifest["spec"]["concurrency"] == 4  # every field, defaults included
    # A resumed run writes its manifest again: a new start, nothing played.
    again = await run_arena(arena, tmp_path, progress=False)
    manifest = json.loads(again.results_path.with_suffix(".manifest.json").read_text())
    assert (manifest["played"], manifest["skipped"]) == (0, again.skipped)


def test_git_source_outside_a_repository_is_none_and_inside_names_the_commit(
    tmp_path: Path,
) -> None:
    outside = tmp_path / "plain"
    outside.mkdir()
    assert git_source(outside) is None
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = tmp_path / "repo"
    repo.mkdir()

    def git(*args: str) -> str:
        done = subprocess.run(
            ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", *args],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        return done.stdout.strip()

    git("init", "-q")
    (repo / "a.txt").write_text("one")
    git("add", "a.txt")
    git("commit", "-qm", "first")
    assert git_source(repo) == {"commit": git("rev-parse", "HEAD"), "dirty": False}
    (repo / "a.txt").write_text("two")
    assert git_source(repo) == {"commit": git("rev-parse", "HEAD"), "dirty": True}


def test_finishing_a_missing_or_broken_manifest_leaves_it_alone(tmp_path: Path) -> None:
    results = tmp_path / "run.jsonl"
    finish_manifest(results, played=1)
    assert not results.with_suffix(".manifest.json").exists()
    results.with_suffix(".manifest.json").write_text("{not json")
    finish_manifest(results, played=1)
    assert results.with_suffix(".manifest.json").read_text() == "{not json"
