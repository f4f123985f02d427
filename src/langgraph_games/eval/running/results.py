"""Results files: one JSON line per finished episode, appended atomically, read tolerantly.

A line is written with a single ``write`` on a file opened in append mode, and flushed to
disk before the call returns (records that come together share one flush), so a crash can
at worst leave a truncated *last* line. Readers
skip (and report) lines that are not complete JSON objects; writers first end such a
truncated line so the next record starts on a line of its own. A rerun reads the ids of
finished records and skips them, which is how interrupted runs resume.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["ReadReport", "ResultsFile"]


@dataclass
class ReadReport:
    """Records read from a results file and the lines skipped, with the reason.

    Attributes:
        records: The complete records, in file order.
        skipped: ``(line number, reason)`` of every line that is not a record.
        lines: The line number of each record (parallel to ``records``).
    """

    records: list[dict[str, Any]] = field(default_factory=list)
    skipped: list[tuple[int, str]] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)


class ResultsFile:
    """An append-only JSONL file of episode records.

    Args:
        path: The file (created with its folder on first append).
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()

    def append(self, record: Mapping[str, Any]) -> None:
        """Append one record as a single line, durably.

        Raises:
            TypeError: The record is not JSON-serialisable (nothing is written then).
        """
        self.extend([record])

    def extend(self, records: Iterable[Mapping[str, Any]]) -> None:
        """Append records, each as a single line, with one ``fsync`` for them all.

        Every line is still one ``write``; the one ``fsync`` at the end makes them all
        durable at once, so a writer that gets several records together (the records
        from worker processes) pays for one flush, not one per record.

        Raises:
            TypeError: A record is not JSON-serialisable: it is not written, every other
                record is (durably), and the error names how many were left out.
        """
        lines: list[bytes] = []
        errors: list[TypeError] = []
        for record in records:
            try:
                text = json.dumps(record, separators=(",", ":"), default=_jsonable)
            except TypeError as exc:
                errors.append(exc)
                continue
            lines.append((text + "\n").encode())
        if lines:
            self._write(lines)
        if errors:
            raise TypeError(
                f"{len(errors)} record(s) not written, not JSON-serialisable: {errors[0]}"
            ) from errors[0]

    def _write(self, lines: list[bytes]) -> None:
        with self._lock:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                if _ends_without_newline(self.path):
                    os.write(fd, b"\n")  # end a line truncated by an earlier crash
                for line in lines:
                    view = memoryview(line)
                    while view:
                        written = os.write(fd, view)
                        view = view[written:]
                os.fsync(fd)
            finally:
                os.close(fd)

    def read(self) -> ReadReport:
        """All complete records, and the line numbers skipped with the reason."""
        report = ReadReport()
        if not self.path.exists():
            return report
        with self.path.open("rb") as handle:
            for number, raw in enumerate(handle, start=1):
                text = raw.decode("utf-8", errors="replace").strip()
                if not text:
                    continue
                try:
                    record = json.loads(text)
                except (ValueError, RecursionError) as exc:  # nested too deep: RecursionError
                    truncated = not raw.endswith(b"\n")
                    why = "truncated last line (a crashed run)" if truncated else f"bad JSON: {exc}"
                    report.skipped.append((number, why))
                    continue
                if not isinstance(record, dict):
                    report.skipped.append((number, "not a JSON object"))
                    continue
                report.records.append(record)
                report.lines.append(number)
        return report

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return iter(self.read().records)

    def finished_ids(self, key: str = "match_id") -> set[str]:
        """Ids of records whose ``status`` is not ``"error"`` (errors are retried)."""
        return {str(r[key]) for r in self.read().records if key in r and r.get("status") != "error"}


def _ends_without_newline(path: Path) -> bool:
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return False
    if size == 0:
        return False
    with path.open("rb") as handle:
        handle.seek(size - 1)
        return handle.read(1) != b"\n"


def _jsonable(value: Any) -> Any:
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    if isinstance(value, tuple):
        return list(value)
    raise TypeError(f"not JSON-serialisable: {type(value).__name__}")
