"""Outside packages made importable without pip: their code and a dist-info on ``sys.path``.

``importlib.metadata`` finds a distribution by its ``*.dist-info`` folder in any ``sys.path``
entry, so a folder holding the package's modules and a dist-info with ``METADATA`` and
``entry_points.txt`` is an installed package for the entry points, in this process (after
``sys.path`` gains it) and in any process whose ``PYTHONPATH`` names it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import tomllib

import langgraph_games

SRC = str(Path(langgraph_games.__file__).resolve().parents[1])
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def write_dist_info(
    root: Path, name: str, entry_points: Mapping[str, Mapping[str, str]], version: str = "0.1.0"
) -> Path:
    """A ``<name>-<version>.dist-info`` in ``root`` with ``entry_points`` (group: name: value)."""
    folder = root / f"{name.replace('-', '_')}-{version}.dist-info"
    folder.mkdir(parents=True)
    (folder / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n", encoding="utf-8"
    )
    lines = []
    for group, points in entry_points.items():
        lines.append(f"[{group}]")
        lines += [f"{key} = {value}" for key, value in points.items()]
        lines.append("")
    (folder / "entry_points.txt").write_text("\n".join(lines), encoding="utf-8")
    return folder


def install_pyproject(project: Path, root: Path) -> Path:
    """A dist-info in ``root`` with the entry points and name of ``project``'s pyproject.toml."""
    data = tomllib.loads((project / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return write_dist_info(root, data["name"], data["entry-points"], data["version"])


def run_cli(
    args: Sequence[str], paths: Sequence[Path], timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    """``langgraph-games ARGS`` in a process whose ``PYTHONPATH`` adds ``paths``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([SRC, *map(str, paths)])
    return subprocess.run(
        [sys.executable, "-m", "langgraph_games.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        check=False,
    )
