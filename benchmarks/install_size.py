"""Install size and package count of the base install and of each extra.

Usage: python benchmarks/install_size.py [--extras local plots ...] [--keep DIR]
(Python 3.11+: it reads pyproject.toml with tomllib.)

For the base install and for each extra of ``pyproject.toml``, in a fresh virtual
environment of its own (``python -m venv``): resolves the closure with ``pip install
--dry-run --report`` (which packages, and which come as source distributions that pip
must build, i.e. need a compiler when they hold native code), installs it from this
checkout (not editable, as a user would get it), and measures what the install added to
the empty environment: distributions and bytes on disk. Each extra is installed on its
own with the base, so its "added" columns are what it costs on top of the base install.

Needs the package index (and takes minutes: every environment is a full install; pip's
cache makes the later ones faster, and a llama.cpp wheel pip built before is reused, so
the seconds column says little about a first install). The target: the base install
under 250 MB with no source build.

Measured (Linux x86-64, CPython 3.11, 2 cores; 14 minutes for all eleven):

    install    | packages | added | MB  | added MB | built from source
    base       | 51       |       | 194 |          | none
    local      | 68       | +17   | 363 | +169     | llama_cpp_python
    memory     | 111      | +60   | 587 | +393     | none
    crafter    | 56       | +5    | 221 | +27      | crafter
    plots      | 60       | +9    | 291 | +97      | none
    pettingzoo | 55       | +4    | 200 | +6       | none
    mcp        | 70       | +19   | 220 | +26      | none
    ratings    | 52       | +1    | 197 | +3       | none
    evaluators | 51       | +0    | 194 | +0       | none
    server     | 89       | +38   | 268 | +74      | forbiddenfruit
    ray        | 61       | +10   | 440 | +246     | none
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomllib

sys.path.insert(0, str(Path(__file__).parent))
from _common import machine, table

ROOT = Path(__file__).resolve().parent.parent
BASE_LIMIT_MB = 250.0


@dataclass
class Measured:
    target: str
    packages: int
    size_mb: float
    source_builds: list[str]
    seconds: float


def _extras() -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return list(project.get("optional-dependencies", {}))


def _run(argv: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(argv, capture_output=True, text=True, check=False, env=env)
    if done.returncode != 0:
        raise SystemExit(f"failed ({done.returncode}): {' '.join(argv)}\n{done.stderr[-3000:]}")
    return done


def _tree_bytes(folder: Path) -> int:
    total = 0
    for parent, _dirs, files in os.walk(folder):
        for name in files:
            total += os.lstat(os.path.join(parent, name)).st_size
    return total


def _distributions(python: Path) -> set[str]:
    code = (
        "import importlib.metadata as m, json; "
        "print(json.dumps(sorted({d.metadata['Name'].lower() for d in m.distributions()})))"
    )
    return set(json.loads(_run([str(python), "-c", code]).stdout))


def _source_builds(report: dict[str, Any]) -> list[str]:
    """Distributions the resolver found only as source archives (the project itself aside)."""
    built = []
    for item in report["install"]:
        info = item["download_info"]
        if "dir_info" in info:  # this checkout: a pure-Python hatchling build
            continue
        if not info["url"].endswith(".whl"):
            built.append(item["metadata"]["name"])
    return sorted(built)


def measure(target: str, spec: str, workdir: Path) -> Measured:
    env_dir = workdir / target
    _run([sys.executable, "-m", "venv", str(env_dir)])
    python = env_dir / "bin" / "python"
    empty_bytes = _tree_bytes(env_dir)
    empty_dists = _distributions(python)
    report_path = workdir / f"{target}.report.json"
    pip = [str(python), "-m", "pip", "install", "--quiet"]
    _run([*pip, "--dry-run", "--report", str(report_path), spec])
    report = json.loads(report_path.read_text(encoding="utf-8"))
    env = {**os.environ, "CMAKE_ARGS": os.environ.get("CMAKE_ARGS", "-DGGML_NATIVE=OFF")}
    started = time.perf_counter()
    _run([*pip, spec], env=env)
    seconds = time.perf_counter() - started
    added = _distributions(python) - empty_dists
    size = (_tree_bytes(env_dir) - empty_bytes) / 1e6
    return Measured(target, len(added), size, _source_builds(report), seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--extras", nargs="*", help="extras to measure (default: all)")
    parser.add_argument("--keep", type=Path, help="build the environments here and keep them")
    args = parser.parse_args()
    known = _extras()
    extras = known if args.extras is None else args.extras
    unknown = sorted(set(extras) - set(known))
    if unknown:
        raise SystemExit(f"unknown extra(s): {', '.join(unknown)} (known: {', '.join(known)})")
    print(f"machine: {machine()}; checkout: {ROOT}")
    with tempfile.TemporaryDirectory(prefix="install-size-") as scratch:
        workdir = args.keep or Path(scratch)
        workdir.mkdir(parents=True, exist_ok=True)
        results = [measure("base", str(ROOT), workdir)]
        print(f"base: {results[0].packages} packages, {results[0].size_mb:.0f} MB", flush=True)
        for extra in extras:
            results.append(measure(extra, f"{ROOT}[{extra}]", workdir))
            print(f"{extra}: done in {results[-1].seconds:.0f} s", flush=True)
    base = results[0]
    rows = [
        (
            m.target,
            m.packages,
            "" if m is base else f"+{m.packages - base.packages}",
            f"{m.size_mb:.0f}",
            "" if m is base else f"+{m.size_mb - base.size_mb:.0f}",
            ", ".join(m.source_builds) or "none",
            f"{m.seconds:.0f}",
        )
        for m in results
    ]
    headers = ("install", "packages", "added", "MB", "added MB", "built from source", "s")
    print()
    print(table(headers, rows))
    ok_size = base.size_mb < BASE_LIMIT_MB
    ok_build = not base.source_builds
    print()
    print(
        f"base install: {base.size_mb:.0f} MB ({'under' if ok_size else 'OVER'} "
        f"{BASE_LIMIT_MB:.0f} MB), "
        f"{'no source build (no compiler needed)' if ok_build else 'builds from source'}"
    )


if __name__ == "__main__":
    main()
