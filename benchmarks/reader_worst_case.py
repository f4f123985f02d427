"""Every reader of model output on hostile replies of one size: time and growth.

Usage: python benchmarks/reader_worst_case.py [--only SUBSTRING] [--mb 1 | --cap]

For each reader of the fuzz suite (``tests/fuzz/readers.py``) and each worst shape
(``tests/fuzz/replies.py``: runs of digits, spaces, brackets, braces, tags, labels, a
piece that starts a pattern followed by a long run...), the CPU time to read the shape at
``--mb`` megabytes (``--cap``: at ``MAX_REPLY_CHARS``, the longest reply the graphs read),
best of three, against the baseline of the same shape at a tenth of the size. A reader
linear in its input shows a ratio near 10; a ratio far above it marks a reader whose time
grows faster than the text (a backtracking pattern, a scan repeated per match). The table
lists each reader's slowest shape and the shape on which its time grows the most (among
reads over 5 ms; quicker ones are mostly timer noise).
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))
from _common import machine, table
from fuzz.readers import READERS
from fuzz.replies import WORST
from langgraph_games.models.messages import MAX_REPLY_CHARS

QUICK = 0.005
"""Seconds below which a read's growth is not compared (timer noise)."""


def _time(read: Callable[[str], Any], text: str, repeats: int = 3) -> float:
    """The least CPU time of ``repeats`` reads (the machine's noise only adds)."""
    best = float("inf")
    gc.disable()
    try:
        for _ in range(repeats):
            start = time.process_time()
            read(text)
            best = min(best, time.process_time() - start)
    finally:
        gc.enable()
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="readers whose name contains this")
    parser.add_argument("--mb", type=float, default=1.0, help="reply size in MB (default 1)")
    parser.add_argument("--cap", action="store_true", help="replies at MAX_REPLY_CHARS")
    args = parser.parse_args()
    size = MAX_REPLY_CHARS if args.cap else int(args.mb * 1_000_000)
    texts = {name: (shape(size), shape(size // 10)) for name, shape in WORST.items()}
    rows = []
    worst_ratio, total = 0.0, 0.0
    for reader in READERS:
        if args.only not in reader.name:
            continue
        slowest = (0.0, "", 0.0)
        growth = (0.0, "")
        for name, (full, tenth) in texts.items():
            took = _time(reader.read, full)
            base = max(_time(reader.read, tenth), 1e-6)
            total += took
            if took > slowest[0]:
                slowest = (took, name, took / base)
            if took > QUICK and took / base > growth[0]:
                growth = (took / base, name)
        worst_ratio = max(worst_ratio, growth[0])
        rows.append(
            [
                reader.name,
                slowest[1],
                f"{1000 * slowest[0]:.1f}",
                f"{slowest[2]:.1f}x",
                f"{growth[0]:.1f}x {growth[1]}" if growth[1] else "-",
            ]
        )
    print(f"Readers on {size:,}-character hostile replies, CPU time ({machine()})\n")
    headers = ["reader", "slowest shape", "ms", "vs a tenth of it", "largest growth (> 5 ms)"]
    print(table(headers, rows))
    print(f"\nlargest growth over a tenfold size among reads taking > 5 ms: {worst_ratio:.1f}x")
    print(f"all {len(rows)} readers on all {len(texts)} shapes, once each: {total:.2f} s")


if __name__ == "__main__":
    main()
