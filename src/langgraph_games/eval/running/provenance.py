"""What a run ran with, for its manifest: versions, source commit, host and times.

:func:`provenance` gathers what makes a run reproducible beside its spec: this package's
version, the versions of the libraries that shape its results (:data:`DEPENDENCIES`), the
git commit of the package's source when it runs from a checkout (``None`` otherwise: an
installed package, no ``git`` on the machine), the host and the start time.
:func:`finish_manifest` adds the end time and the run's counts once the run is over.
"""

from __future__ import annotations

import json
import os
import platform
import socket
import subprocess
import sys
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path

from typing_extensions import TypedDict

from langgraph_games import __version__
from langgraph_games._files import write_atomic

__all__ = ["DEPENDENCIES", "dependency_versions", "finish_manifest", "git_source", "provenance"]

DEPENDENCIES = ("langgraph", "langchain-core", "langchain-openai", "chromadb", "pydantic")
"""The distributions whose versions a manifest records (besides this package's)."""

_SOURCE = Path(__file__).resolve().parents[2]  # the langgraph_games package folder


def now() -> str:
    """The current UTC time, ISO 8601 to the second (``2025-01-31T12:00:00+00:00``)."""
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat()


def dependency_versions(names: tuple[str, ...] = DEPENDENCIES) -> dict[str, str | None]:
    """Each distribution's installed version (``None`` when it is not installed).

    Example:
        >>> dependency_versions(("pydantic", "no-such-distribution"))["no-such-distribution"]
    """
    versions: dict[str, str | None] = {}
    for name in names:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    return versions


def _git(folder: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(
            ["git", "-C", str(folder), *args],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):  # no git, or it hung
        return None
    return done.stdout.strip() if done.returncode == 0 else None


class GitSource(TypedDict):
    """The source checkout: its commit and whether tracked files differ (``None``: unknown)."""

    commit: str
    dirty: bool | None


class Host(TypedDict):
    """The machine a run started on."""

    name: str
    platform: str
    machine: str
    cpus: int | None


class Provenance(TypedDict):
    """The manifest's provenance keys (:func:`provenance`)."""

    package_version: str
    python: str
    dependencies: dict[str, str | None]
    git: GitSource | None
    host: Host
    started_at: str


def git_source(folder: Path = _SOURCE) -> GitSource | None:
    """``{"commit": sha, "dirty": bool}`` of the checkout holding ``folder``, else ``None``.

    ``None`` outside a git work tree (an installed package) or without ``git``; ``dirty``
    says whether tracked files differ from the commit.
    """
    commit = _git(folder, "rev-parse", "HEAD")
    if not commit:
        return None
    status = _git(folder, "status", "--porcelain", "--untracked-files=no")
    return {"commit": commit, "dirty": None if status is None else bool(status)}


def provenance() -> Provenance:
    """The manifest's provenance keys: versions, source commit, host, start time."""
    return {
        "package_version": __version__,
        "python": sys.version.split()[0],
        "dependencies": dependency_versions(),
        "git": git_source(),
        "host": {
            "name": socket.gethostname(),
            "platform": platform.platform(),
            "machine": platform.machine(),
            "cpus": os.cpu_count(),
        },
        "started_at": now(),
    }


def finish_manifest(results: Path, **counts: int) -> None:
    """Add the end time and the run's counts to the manifest beside ``results``.

    A manifest that is missing or unreadable is left as it is: the results are what
    matter, and the run has already recorded how it started.
    """
    path = results.with_suffix(".manifest.json")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    if not isinstance(manifest, dict):
        return
    manifest.update(finished_at=now(), **counts)
    write_atomic(path, json.dumps(manifest, indent=2, sort_keys=True, default=str))
