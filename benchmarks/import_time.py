"""Import time: ``import langgraph_games``, ``langgraph_games.games`` and CLI commands' start.

Usage: python benchmarks/import_time.py [--runs 5]

Each figure is the median wall time of ``--runs`` fresh interpreters (``sys.executable``,
the ``PYTHONPATH`` of the caller), minus nothing: it includes the interpreter's own start,
which the first row (``python -c pass``) shows on its own. Compare commits with
``python benchmarks/compare_commits.py --baseline REV import_time.py``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _common import machine, median, table

CASES = {
    "python -c pass": ["-c", "pass"],
    "import langgraph_games": ["-c", "import langgraph_games"],
    "import langgraph_games.games": ["-c", "import langgraph_games.games"],
    "langgraph-games --help": ["-m", "langgraph_games.cli", "--help"],
    "langgraph-games games": ["-m", "langgraph_games.cli", "games"],
    "langgraph-games arena --help": ["-m", "langgraph_games.cli", "arena", "--help"],
}


def seconds(args: list[str]) -> float:
    """Wall time of one fresh interpreter running ``args``."""
    start = time.perf_counter()
    subprocess.run([sys.executable, *args], check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    ns = parser.parse_args()
    rows = []
    for label, args in CASES.items():
        seconds(args)  # warm the file cache and the bytecode
        times = [seconds(args) for _ in range(ns.runs)]
        rows.append([label, f"{median(times):.3f}", f"{min(times):.3f}", f"{max(times):.3f}"])
    print(f"import time, median of {ns.runs} fresh interpreters ({machine()})\n")
    print(table(["case", "median s", "min s", "max s"], rows))


if __name__ == "__main__":
    main()
