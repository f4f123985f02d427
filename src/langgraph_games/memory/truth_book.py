"""A person's view of a truth base: list, show, revert, delete, restore, export and import.

:class:`TruthBook` works on any LangGraph store (the ``truths`` command opens a training
run's ChromaStore). Every change it makes is recorded in the truth's history like
TruthWeaver's, with no round (``by hand``), so round reverts never undo it:

- ``revert``: the truth leaves the prompts and is remembered as reverted (a candidate
  meaning it later is refused without new evidence);
- ``delete``: the truth leaves the prompts for good (it stays on record; candidates
  meaning it are always refused);
- ``restore``: a reverted, superseded or deleted truth is active again; the truth that
  superseded it, when active, is superseded by it (two lessons that contradict each other
  are never active together).

Export writes one truth per line (its stored JSON value); import reads such a file,
checks every line before writing anything (a malformed line is named and nothing is
changed), skips truths the store already holds (same id, or the same text active), and
writes the rest in one batch, after the store's own truths in prompt order.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from langgraph.store.base import BaseStore

from langgraph_games.memory._truth_io import read_truths, truth_ops
from langgraph_games.memory.errors import MemoryLayerError
from langgraph_games.memory.merge_prompts import normalize_text
from langgraph_games.memory.records import iterate, truths_namespace
from langgraph_games.memory.truth_record import (
    Change,
    Truth,
    TruthFormatError,
    TruthStatus,
    parse_truth,
)

__all__ = ["ImportReport", "TruthBook", "TruthBookError", "truth_games"]


class TruthBookError(MemoryLayerError, ValueError):
    """A request the truth book refuses (unknown id, a change that does not apply, a bad file)."""


@dataclass
class ImportReport:
    """What an import did.

    Attributes:
        read: Truths in the file.
        added: Truths written.
        skipped: ``(id, why)`` of truths not written (already in the store).
    """

    read: int = 0
    added: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)


def truth_games(store: BaseStore) -> list[str]:
    """The games that have a truth base in ``store``."""
    found = store.list_namespaces(prefix=("truths",), max_depth=2)
    return sorted({ns[1] for ns in found if len(ns) == 2})


class TruthBook:
    """The truth base of one game in a store, for people.

    Args:
        store: Any LangGraph store.
        game: Game id.
    """

    def __init__(self, store: BaseStore, game: str) -> None:
        self.store = store
        self.game = game
        self.namespace = truths_namespace(game)

    def truths(self, status: TruthStatus | None = None) -> list[Truth]:
        """The truths (of ``status``; all by default) in the order they were made."""
        chosen = [
            t
            for t in read_truths(iterate(self.store, self.namespace), self.namespace).values()
            if status is None or t.status == status
        ]
        return sorted(chosen, key=lambda t: (t.order, t.id))

    def get(self, ref: str) -> Truth:
        """The truth whose id is ``ref``, or the only one whose id starts with it.

        Raises:
            TruthBookError: No truth, or several, match.
        """
        truths = self.truths()
        exact = [t for t in truths if t.id == ref]
        found = exact or [t for t in truths if t.id.startswith(ref)]
        if len(found) == 1:
            return found[0]
        if not found:
            raise TruthBookError(
                f"no truth {ref!r} in {'/'.join(self.namespace)}; `truths list` shows the ids"
            )
        raise TruthBookError(
            f"{ref!r} matches {len(found)} truths ({', '.join(t.id for t in found[:5])}); "
            "give more of the id"
        )

    def _write(self, truths: Sequence[Truth]) -> None:
        self.store.batch(truth_ops(self.namespace, truths))

    def revert(self, ref: str, reason: str = "") -> Truth:
        """Revert an active truth by hand (see the module docstring).

        Raises:
            TruthBookError: No such truth, or it is not active.
        """
        return self._retire(ref, TruthStatus.REVERTED, "reverted", reason)

    def delete(self, ref: str, reason: str = "") -> Truth:
        """Delete a truth by hand: never active again unless restored by hand.

        Raises:
            TruthBookError: No such truth, or it is deleted already.
        """
        return self._retire(ref, TruthStatus.DELETED, "deleted", reason)

    def _retire(self, ref: str, status: TruthStatus, action: str, reason: str) -> Truth:
        truth = self.get(ref)
        allowed = (TruthStatus.ACTIVE,) if status == TruthStatus.REVERTED else tuple(TruthStatus)
        if truth.status not in allowed or truth.status == status:
            raise TruthBookError(f"{truth.id} is {truth.status.value}; it cannot be {action}")
        change = Change(round=None, action=action, detail=_by_hand(reason))
        changed = truth.changed(change, status=status)
        self._write([changed])
        return changed

    def restore(self, ref: str, reason: str = "") -> list[Truth]:
        """Make a retired truth active again; returns every truth changed.

        Raises:
            TruthBookError: No such truth, it is active or merged, or another active truth
                has its text.
        """
        truth = self.get(ref)
        if truth.status in (TruthStatus.ACTIVE, TruthStatus.MERGED):
            raise TruthBookError(f"{truth.id} is {truth.status.value}; only a retired truth "
                                 "(reverted, superseded, deleted) can be restored")  # fmt: skip
        everything = {t.id: t for t in self.truths()}
        same = [
            t
            for t in everything.values()
            if t.active and normalize_text(t.text) == normalize_text(truth.text)
        ]
        if same:
            raise TruthBookError(f"{same[0].id} is active with the same text; nothing to restore")
        detail = _by_hand(reason)
        changed = [
            truth.changed(
                Change(round=None, action="restored", detail=detail),
                status=TruthStatus.ACTIVE,
                superseded_by=None,
                superseded_round=None,
            )
        ]
        rival = everything.get(truth.superseded_by or "")
        if rival is not None and rival.active:
            change = Change(round=None, action="superseded", other=truth.id, detail=detail)
            changed.append(
                rival.changed(change, status=TruthStatus.SUPERSEDED, superseded_by=truth.id)
            )
        self._write(changed)
        return changed

    def export(self, out: TextIO, statuses: Iterable[TruthStatus] | None = None) -> int:
        """Write the truths (of ``statuses``; all by default) as JSON lines; returns the count."""
        wanted = None if statuses is None else set(statuses)
        count = 0
        for truth in self.truths():
            if wanted is None or truth.status in wanted:
                out.write(json.dumps(truth.to_value(), sort_keys=True) + "\n")
                count += 1
        return count

    def import_file(self, path: str | Path) -> ImportReport:
        """Import a file written by :meth:`export` (see the module docstring).

        Raises:
            TruthBookError: The file cannot be read, a line is not a truth of this game
                (the message names the line), or two lines have the same id; nothing is
                written then.
        """
        incoming = read_truth_file(path, self.game)
        report = ImportReport(read=len(incoming))
        current = {t.id: t for t in self.truths()}
        active = {normalize_text(t.text): t.id for t in current.values() if t.active}
        order = max((t.order for t in current.values()), default=0)
        new: list[Truth] = []
        for truth in incoming:
            if truth.id in current:
                report.skipped.append((truth.id, "the store holds this truth"))
                continue
            if truth.active and normalize_text(truth.text) in active:
                report.skipped.append(
                    (truth.id, f"{active[normalize_text(truth.text)]} has its text")
                )
                continue
            order += 1
            change = Change(round=None, action="imported", detail=f"from {Path(path).name}")
            new.append(truth.changed(change, order=order))
            if truth.active:
                active[normalize_text(truth.text)] = truth.id
        if new:
            self._write(new)
        report.added = len(new)
        return report


def read_truth_file(path: str | Path, game: str) -> list[Truth]:
    """Every truth of an export file, checked whole before anything is used.

    Raises:
        TruthBookError: The file cannot be read, or a line is not a truth of ``game``.
    """
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise TruthBookError(f"cannot read {path}: {exc.strerror or exc}") from exc
    truths: list[Truth] = []
    seen: set[str] = set()
    for number, line in enumerate(raw.splitlines(), 1):
        if not line.strip():
            continue
        where = f"{path} line {number}"
        try:
            value: Any = json.loads(line)
        except (ValueError, RecursionError) as exc:
            raise TruthBookError(f"{where} is not JSON ({exc}); nothing was imported") from None
        if not isinstance(value, dict):
            raise TruthBookError(f"{where} is not a truth (a JSON object); nothing was imported")
        try:
            truth = parse_truth(value, where)
        except TruthFormatError as exc:
            raise TruthBookError(f"{exc}; nothing was imported") from None
        if truth.game != game:
            raise TruthBookError(
                f"{where} is a truth of {truth.game!r}, not {game!r}; nothing was imported"
            )
        if truth.id in seen:
            raise TruthBookError(f"{where} repeats the id {truth.id}; nothing was imported")
        seen.add(truth.id)
        truths.append(truth)
    return truths


def _by_hand(reason: str) -> str:
    return f"by hand: {reason}" if reason.strip() else "by hand"
