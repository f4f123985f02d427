"""Run one benchmark script on an earlier commit and on the working tree, in the same run.

Usage: python benchmarks/compare_commits.py --baseline REV [--repeats 2] [--column NAME]
[--key-cells 1] SCRIPT [ARGS...]

``SCRIPT`` is a file name in ``benchmarks/`` (e.g. ``decision_overhead.py``). The baseline's
``src/``, ``benchmarks/`` and ``tests/`` are extracted from ``REV`` with ``git archive`` into
a temporary folder, and each tree runs *its own* copy of the script with its own sources first
on ``PYTHONPATH`` (so a benchmark whose imports moved still measures the same thing on both).
A script the baseline does not have yet (a new benchmark) runs from the working tree on
both, each with its own tree's sources on ``PYTHONPATH``.
Runs alternate baseline / current ``--repeats`` times to spread machine drift over both.

Every table row the two outputs share (same first cell) is compared on its first number,
or on the column whose header is ``--column`` (e.g. ``seconds`` for ``concurrency.py``,
whose first number is a count): the printed ratio is current / baseline (below 1 is faster
when the column is a time). The best of the repeats is the smallest value. Where the first
cell does not tell rows apart (``concurrency.py``: latency, N, mode), ``--key-cells 3``
names each row by its first three cells.

``--baseline-env NAME=VALUE`` (repeatable) sets an environment variable for the baseline's
runs only: with ``--baseline HEAD`` it compares two settings of the same code, e.g.
``--baseline HEAD --baseline-env LANGGRAPH_GAMES_EVENT_LOOP=asyncio`` measures uvloop (the
default where installed) against asyncio's own loop.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _common import machine, table

ROOT = Path(__file__).resolve().parent.parent
_ROW = re.compile(r"^\s*(?P<label>[^|]+?)\s*\|\s*(?P<value>-?\d+(?:\.\d+)?)")
_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")


def extract(rev: str, into: Path) -> Path:
    """The ``src``, ``benchmarks`` and ``tests`` folders of ``rev``, under ``into``."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", rev, "src", "benchmarks", "tests"],
        check=True,
        capture_output=True,
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def run_script(
    tree: Path, script: str, args: list[str], extra_env: dict[str, str] | None = None
) -> str:
    env = dict(os.environ, PYTHONPATH=str(tree / "src"), **(extra_env or {}))
    path = tree / "benchmarks" / script
    if not path.is_file():  # a benchmark newer than the baseline: the working tree's copy
        path = ROOT / "benchmarks" / script
    done = subprocess.run(
        [sys.executable, str(path), *args],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"{script} failed in {tree}:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def rows_of(output: str, column: str | None = None, key_cells: int = 1) -> dict[str, float]:
    """First number of each table row (or the number in ``column``), by its first cells."""
    found: dict[str, float] = {}
    index: int | None = None
    for line in output.splitlines():
        cells = [c.strip() for c in line.split("|")]
        if column is not None and column in cells:
            index = cells.index(column)
            continue
        if len(cells) <= key_cells or not _ROW.match(line) or set(cells[0]) <= set("-+ "):
            continue
        label = " | ".join(cells[:key_cells])
        if column is None:
            number = next(
                (_NUMBER.fullmatch(c) for c in cells[key_cells:] if _NUMBER.fullmatch(c)), None
            )
        elif index is not None and index < len(cells):
            number = _NUMBER.search(cells[index])
        else:
            number = None
        if number:
            found.setdefault(label, float(number[0].replace(",", "")))
    return found


def best(runs: list[dict[str, float]]) -> dict[str, float]:
    """The smallest value of each row over the repeats (the least disturbed run)."""
    keys = set.intersection(*(set(r) for r in runs)) if runs else set()
    return {k: min(r[k] for r in runs) for k in keys}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", required=True, help="git revision to compare against")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--column", help="compare this column (by its header), not the first")
    parser.add_argument(
        "--key-cells", type=int, default=1, help="name rows by their first N cells (default 1)"
    )
    parser.add_argument(
        "--baseline-env",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an environment variable for the baseline's runs only (repeatable)",
    )
    parser.add_argument("script")
    parser.add_argument("args", nargs=argparse.REMAINDER)
    ns = parser.parse_args()
    if not (ROOT / "benchmarks" / ns.script).is_file():
        raise SystemExit(f"error: no benchmark {ns.script!r} in {ROOT / 'benchmarks'}")
    bad = [item for item in ns.baseline_env if "=" not in item or item.startswith("=")]
    if bad:
        raise SystemExit(f"error: --baseline-env takes NAME=VALUE, got {bad[0]!r}")
    base_env = dict(item.split("=", 1) for item in ns.baseline_env)
    with tempfile.TemporaryDirectory() as tmp:
        base = extract(ns.baseline, Path(tmp))
        baseline_runs, current_runs = [], []
        last_base = last_current = ""
        for _ in range(ns.repeats):
            last_base = run_script(base, ns.script, ns.args, base_env)
            baseline_runs.append(rows_of(last_base, ns.column, ns.key_cells))
            last_current = run_script(ROOT, ns.script, ns.args)
            current_runs.append(rows_of(last_current, ns.column, ns.key_cells))
    label = " ".join([ns.baseline, *ns.baseline_env])
    print(f"== baseline {label} (last of {ns.repeats} runs)\n{last_base}")
    print(f"== working tree (last of {ns.repeats} runs)\n{last_current}")
    old, new = best(baseline_runs), best(current_runs)
    shared = [k for k in rows_of(last_current, ns.column, ns.key_cells) if k in old and k in new]
    rows = [
        [k, f"{old[k]:.3f}", f"{new[k]:.3f}", f"{new[k] / old[k]:.2f}" if old[k] else "-"]
        for k in shared
    ]
    what = f", column {ns.column!r}" if ns.column else ""
    print(f"{ns.script} {' '.join(ns.args)}: best of {ns.repeats} runs each{what} ({machine()})\n")
    print(table(["row", f"baseline {label}", "current", "current / baseline"], rows))


if __name__ == "__main__":
    main()
