"""Appends to a results file from many episodes of one loop, sharing each ``fsync``.

Each finished episode of a run in one process appends its record and waits until it is
on disk. An ``fsync`` per record was the largest part of what an arena adds to its
episodes (about a tenth of its CPU per model call with 64 six-move matches at once over
HTTP): the flush costs the kernel work whether it covers one line or twenty. A
:class:`GroupAppend` hands the records that are waiting to one worker thread, which
writes each as its own line (one ``write``, as :meth:`ResultsFile.extend` does) and
flushes them with one ``fsync``; the records that arrive meanwhile wait for the next pass.
Every :meth:`GroupAppend.append` still returns only once its own line is on disk, so a
crash loses no record whose append returned, and at most a truncated last line, as before.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence

from langgraph_games.eval.running.results import ResultsFile

__all__ = ["GroupAppend"]


class GroupAppend:
    """Durable appends to ``results`` for the tasks of one event loop, flushed together.

    Args:
        results: The file the records go to.

    Example:
        >>> import asyncio, tempfile
        >>> from pathlib import Path
        >>> async def main(folder: str) -> int:
        ...     results = ResultsFile(Path(folder) / "results.jsonl")
        ...     appender = GroupAppend(results)
        ...     await asyncio.gather(*(appender.append({"id": i}) for i in range(5)))
        ...     return len(results.read().records)
        >>> with tempfile.TemporaryDirectory() as folder:
        ...     asyncio.run(main(folder))
        5
    """

    def __init__(self, results: ResultsFile) -> None:
        self.results = results
        self._waiting: list[tuple[Mapping[str, object], asyncio.Future[None]]] = []
        self._flusher: asyncio.Task[None] | None = None

    async def append(self, record: Mapping[str, object]) -> None:
        """Append ``record`` as one line and return once it is on disk.

        Raises:
            TypeError: The record is not JSON-serialisable (it is not written; the records
                flushed with it are).
            OSError: The write or the flush failed (for every record of that pass).
        """
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append((record, done))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.ensure_future(self._flush())
        await asyncio.shield(done)  # a cancelled caller's record is still written

    async def drain(self) -> None:
        """Wait until every record handed to :meth:`append` so far is written (or failed)."""
        while self._flusher is not None and not self._flusher.done():
            await asyncio.shield(self._flusher)

    async def _flush(self) -> None:
        while self._waiting:
            batch, self._waiting = self._waiting, []
            records = [record for record, _ in batch]
            errors: Sequence[Exception | None]
            try:
                errors = await asyncio.to_thread(self.results.extend_each, records)
            except asyncio.CancelledError:  # the loop is closing: nobody waits any more
                for _, done in [*batch, *self._waiting]:
                    done.cancel()
                self._waiting = []
                raise
            except Exception as exc:  # noqa: BLE001 - each caller of the pass gets it
                errors = [exc] * len(batch)
            for (_, done), error in zip(batch, errors, strict=True):
                if done.done():
                    continue
                if error is None:
                    done.set_result(None)
                else:
                    done.set_exception(error)
                    done.add_done_callback(_retrieved)


def _retrieved(done: asyncio.Future[None]) -> None:
    """Mark a failed append's error as seen (its caller may have been cancelled)."""
    if not done.cancelled():
        done.exception()
