"""Shared helpers for the benchmark scripts: timing, percentiles and a plain table."""

from __future__ import annotations

import os
import platform
import statistics
import time
from collections.abc import Callable, Sequence


def machine() -> str:
    import os

    return f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} CPUs"


def rate(fn: Callable[[], int], min_seconds: float = 1.0) -> float:
    """Call ``fn`` (which returns a count of units done) until ``min_seconds`` pass; units/s."""
    done = 0
    start = time.perf_counter()
    while True:
        done += fn()
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return done / elapsed


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = max(0, min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    cells = [[str(h) for h in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    lines = [" | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in cells]
    lines.insert(1, "-+-".join("-" * w for w in widths))
    return "\n".join(lines)


def tree_cpu(root: int, leave_out: int | None = None) -> float:
    """CPU seconds (user + system) of ``root`` and every live process under it, except
    ``leave_out`` and what runs under it (read from ``/proc``)."""
    tick = os.sysconf("SC_CLK_TCK")
    children: dict[int, list[int]] = {}
    times: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended meanwhile
        children.setdefault(int(fields[1]), []).append(int(entry))
        times[int(entry)] = (int(fields[11]) + int(fields[12])) / tick
    tree, frontier = {root}, [root]
    while frontier:
        kids = [p for p in children.get(frontier.pop(), []) if p not in tree and p != leave_out]
        tree.update(kids)
        frontier.extend(kids)
    return sum(times.get(pid, 0.0) for pid in tree)
