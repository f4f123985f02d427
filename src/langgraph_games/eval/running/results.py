"""Results files: one JSON line per finished episode, appended atomically, read tolerantly.

A line is written with a single ``write`` on a file opened in append mode, and flushed to
disk before the call returns (records that come together share one flush), so a crash can
at worst leave a truncated *last* line. Readers
skip (and report) lines that are not complete JSON objects, and lines holding numbers
JSON has no place for (``NaN``, ``Infinity``, an integer beyond 64 bits, a float that
overflows to infinity), which no writer writes. Text that is not UTF-8 reads as U+FFFD,
and so does a JSON escape of half a surrogate pair (no UTF-8 file or terminal can hold
one). Writers first end such a
truncated line so the next record starts on a line of its own. A rerun reads the ids of
finished records and skips them, which is how interrupted runs resume.

One run at a time writes a file: a run holds :meth:`ResultsFile.writing` while it plays,
an OS lock on ``<file>.lock`` that names its process. A second run of the same command
(started twice, a scheduler's retry) is refused at once with that pid, and one that read
the file before the other run wrote to it is refused too, so no episode is played and
written twice. The lock dies with its process; the lock file is removed when a run ends.
"""

from __future__ import annotations

import json
import os
import re
import threading
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from langgraph_games._json import JsonValue
from langgraph_games._processes import LockHeldError, OwnedLock

__all__ = ["ReadReport", "ResultsFile", "ResultsFileBusyError"]


class ResultsFileBusyError(RuntimeError):
    """Another run writes the results file, or wrote to it after this run read it."""


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
        self._writer = OwnedLock(self.path.with_name(self.path.name + ".lock"))
        self._seen: list[tuple[int, int, int] | None] = []  # the file at this object's last read

    @contextmanager
    def writing(self) -> Iterator[None]:
        """Be the file's one writer, across processes, while the block runs.

        Taken at once or refused, never waited for. Appending does not need it (a
        reader or a single append does not take it); a run that resumes takes it
        around reading what is done and playing the rest.

        Raises:
            ResultsFileBusyError: Another run holds the file (the message names its
                process), or the file changed after this object last read it (a run
                that read what was done before another run wrote more would play some
                episodes again).
        """
        try:
            self._writer.acquire()
        except LockHeldError as exc:
            who = "this process" if exc.owner == str(os.getpid()) else f"process {exc.owner}"
            raise ResultsFileBusyError(
                f"{self.path} is being written by another run ({who}); wait for it to end "
                "(or stop it), then run the same command again to resume"
            ) from None
        try:
            if self._seen and self._seen[-1] != _state(self.path):
                raise ResultsFileBusyError(
                    f"{self.path} was written by another run after this one read it; run "
                    "the same command again to resume from what is there"
                )
            yield
        finally:
            self._writer.release()

    def append(self, record: Mapping[str, object]) -> None:
        """Append one record as a single line, durably.

        Raises:
            TypeError: The record is not JSON-serialisable (nothing is written then).
        """
        self.extend([record])

    def extend(self, records: Iterable[Mapping[str, object]]) -> None:
        """Append records, each as a single line, with one ``fsync`` for them all.

        Every line is still one ``write``; the one ``fsync`` at the end makes them all
        durable at once, so a writer that gets several records together (the records
        from worker processes) pays for one flush, not one per record.

        Raises:
            TypeError: A record is not JSON-serialisable: it is not written, every other
                record is (durably), and the error names how many were left out.
        """
        errors = [error for error in self.extend_each(records) if error is not None]
        if errors:
            raise TypeError(
                f"{len(errors)} record(s) not written, not JSON-serialisable: {errors[0]}"
            ) from errors[0]

    def extend_each(self, records: Iterable[Mapping[str, object]]) -> list[TypeError | None]:
        """Append records as :meth:`extend` does; each record's error instead of raising.

        Returns:
            Per record, in order: ``None`` (written, durably) or the ``TypeError`` that
            kept it out (not JSON-serialisable).
        """
        lines: list[bytes] = []
        errors: list[TypeError | None] = []
        for record in records:
            try:
                text = json.dumps(record, separators=(",", ":"), default=_jsonable)
            except TypeError as exc:
                errors.append(exc)
                continue
            errors.append(None)
            lines.append((text + "\n").encode())
        if lines:
            self._write(lines)
        return errors

    def _write(self, lines: list[bytes]) -> None:
        with self._lock:
            flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | getattr(os, "O_BINARY", 0)
            try:
                fd = os.open(self.path, flags, 0o644)
            except FileNotFoundError:  # its folder is not there yet
                self.path.parent.mkdir(parents=True, exist_ok=True)
                fd = os.open(self.path, flags, 0o644)
            try:
                size = os.fstat(fd).st_size
                if size:  # end a line truncated by an earlier crash (writes go to the end)
                    os.lseek(fd, size - 1, os.SEEK_SET)
                    if os.read(fd, 1) != b"\n":
                        os.write(fd, b"\n")
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
        self._seen[:] = [_state(self.path)]  # before reading: a later append is a change
        if not self.path.exists():
            return report
        with self.path.open("rb") as handle:
            for number, raw in enumerate(handle, start=1):
                text = raw.decode("utf-8", errors="replace").strip()
                if not text:
                    continue
                try:
                    record = json.loads(
                        text, parse_int=_int64, parse_float=_finite, parse_constant=_no_constant
                    )
                except (ValueError, RecursionError) as exc:  # nested too deep: RecursionError
                    truncated = not raw.endswith(b"\n")
                    why = "truncated last line (a crashed run)" if truncated else f"bad JSON: {exc}"
                    report.skipped.append((number, why))
                    continue
                if not isinstance(record, dict):
                    report.skipped.append((number, "not a JSON object"))
                    continue
                if _SURROGATE_ESCAPE.search(text):
                    try:
                        record = _whole_characters(record)
                    except RecursionError:
                        report.skipped.append((number, "bad JSON: nested too deep"))
                        continue
                report.records.append(record)
                report.lines.append(number)
        return report

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return iter(self.read().records)

    def finished_ids(self, key: str = "match_id") -> set[str]:
        """Ids of records whose ``status`` is not ``"error"`` (errors are retried)."""
        return {str(r[key]) for r in self.read().records if key in r and r.get("status") != "error"}


def _state(path: Path) -> tuple[int, int, int] | None:
    """Which file ``path`` is and its size (``None``: there is none)."""
    try:
        stat = path.stat()
    except FileNotFoundError:
        return None
    return (stat.st_dev, stat.st_ino, stat.st_size)


_INT64 = 2**63
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _whole_characters(value: JsonValue) -> JsonValue:
    """``value`` with every half of a surrogate pair (in keys too) replaced by U+FFFD."""
    if isinstance(value, str):
        return _LONE_SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [_whole_characters(item) for item in value]
    if isinstance(value, dict):
        return {_LONE_SURROGATE.sub("\ufffd", k): _whole_characters(v) for k, v in value.items()}
    return value


def _int64(text: str) -> int:
    if len(text) > 20 or not -_INT64 <= (value := int(text)) < _INT64:
        raise ValueError(f"an integer of {len(text)} digits, beyond 64 bits")
    return value


def _finite(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"a number too large for a float ({text[:20]})")
    return value


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def _jsonable(value: object) -> list[object]:
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    if isinstance(value, tuple):
        return list(value)
    raise TypeError(f"not JSON-serialisable: {type(value).__name__}")
