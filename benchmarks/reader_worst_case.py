"""Every reader of model output on one-megabyte hostile replies: time and growth.

Usage: python benchmarks/reader_worst_case.py [--only SUBSTRING] [--mb 1]

For each reader of the fuzz suite (``tests/fuzz/readers.py``) and each worst shape
(``tests/fuzz/replies.py``: runs of digits, spaces, brackets, braces, tags, labels...),
the time to read the shape at ``--mb`` megabytes (best of three), against the baseline of
the same shape at a tenth of the size. A reader linear in its input shows a ratio near
10; a ratio far above it marks a reader whose time grows faster than the text (a
backtracking pattern, a scan repeated per match). The table lists each reader's slowest shape.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))
from _common import machine, table
from fuzz.readers import READERS
from fuzz.replies import LARGE


def _time(read: object, text: str, repeats: int = 3) -> float:
    """The best of ``repeats`` timings (the machine's noise only adds)."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        read(text)  # type: ignore[operator]
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="readers whose name contains this")
    parser.add_argument("--mb", type=float, default=1.0, help="reply size in MB (default 1)")
    args = parser.parse_args()
    size = int(args.mb * 1_000_000)
    rows = []
    worst_ratio = 0.0
    for reader in READERS:
        if args.only not in reader.name:
            continue
        slowest = (0.0, "", 0.0)
        for name, text in LARGE.items():
            full = (text * (size // len(text) + 1))[:size]
            took = _time(reader.read, full)
            base = max(_time(reader.read, full[: size // 10]), 1e-6)
            if took > slowest[0]:
                slowest = (took, name, took / base)
        worst_ratio = max(worst_ratio, slowest[2] if slowest[0] > 0.005 else 0.0)
        rows.append([reader.name, slowest[1], f"{1000 * slowest[0]:.1f}", f"{slowest[2]:.1f}x"])
    print(f"Readers on {args.mb:g} MB hostile replies ({machine()})\n")
    print(table(["reader", "slowest shape", "ms", "vs a tenth of it"], rows))
    print(f"\nlargest growth over a tenfold size among readers taking > 5 ms: {worst_ratio:.1f}x")


if __name__ == "__main__":
    main()
