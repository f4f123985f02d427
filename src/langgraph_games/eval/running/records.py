"""Reading results files for reports and replays: what is usable, and what is not and why.

Reports must keep going on imperfect input and say what they left out. On top of
:class:`~langgraph_games.eval.running.results.ResultsFile`'s tolerant reading (a truncated last
line from a crashed run is skipped with its line number), :func:`load_results` sets aside:

- records of a kind no report knows (known: ``match``, ``episode``, ``round``);
- match and episode records of a game that is not registered here (a game from another
  branch or plugin, or a typo), named with the registered ids;
- records of another spec than the file's own (*mixed specs*, e.g. two runs' files
  concatenated): the file's spec is the ``spec_hash`` of its manifest when there is
  one, else the most common ``spec_hash`` in the file; records without a hash (written
  by hand) are kept;
- records lacking the fields their tables need (malformed).

Every set-aside group becomes one note naming the file, the lines and the reason.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from langgraph_games.eval.running.results import ResultsFile
from langgraph_games.games.errors import UnknownGameError
from langgraph_games.games.registry import game_class, list_games

__all__ = ["KINDS", "Loaded", "LoadedRecord", "load_results"]

KINDS = ("match", "episode", "round")
"""Record kinds reports know: arena matches, evaluation episodes, training rounds."""

_REQUIRED = {
    "match": (("seats",), ("result", "returns"), ("result", "players")),
    "episode": (("game",), ("metrics",), ("result", "returns")),
    "round": (("round",),),
}


@dataclass(frozen=True)
class LoadedRecord:
    """A usable record, where it came from (file and line)."""

    path: Path
    line: int
    record: dict[str, Any]

    @property
    def source(self) -> str:
        """``"<file> line <n>"``."""
        return f"{self.path.name} line {self.line}"


@dataclass
class Loaded:
    """The usable records of some results files, and notes on what was set aside.

    ``unknown_games`` counts the match and episode records set aside because their game
    is not registered here, by game id.
    """

    records: list[LoadedRecord] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    unknown_games: dict[str, int] = field(default_factory=dict)

    def of_kind(self, kind: str, path: Path | None = None) -> list[dict[str, Any]]:
        """The records of one kind (of one file when ``path`` is given)."""
        return [
            r.record
            for r in self.records
            if r.record.get("kind") == kind and (path is None or r.path == path)
        ]

    def paths(self, kind: str) -> list[Path]:
        """The files holding records of ``kind``, in the order given."""
        seen: dict[Path, None] = {}
        for r in self.records:
            if r.record.get("kind") == kind:
                seen.setdefault(r.path, None)
        return list(seen)


def _lines(numbers: Sequence[int]) -> str:
    shown = ", ".join(str(n) for n in numbers[:8])
    more = f" and {len(numbers) - 8} more" if len(numbers) > 8 else ""
    return f"line{'s' if len(numbers) > 1 else ''} {shown}{more}"


def _has(record: dict[str, Any], keys: tuple[str, ...]) -> bool:
    value: Any = record
    for key in keys:
        if not isinstance(value, dict) or key not in value:
            return False
        value = value[key]
    return True


def _file_spec(path: Path, hashes: Iterable[str]) -> tuple[str | None, str]:
    manifest = path.with_suffix(".manifest.json")
    if manifest.is_file():
        try:
            spec = json.loads(manifest.read_text(encoding="utf-8")).get("spec_hash")
        except (OSError, ValueError, AttributeError):
            spec = None
        if spec:
            return str(spec), "its manifest"
    counts = Counter(hashes)
    if not counts:
        return None, ""
    return counts.most_common(1)[0][0], "most of its records"


def _registered(game_id: str) -> bool:
    try:
        game_class(game_id)
    except UnknownGameError:
        return False
    return True


def load_results(
    paths: Sequence[str | Path], kinds: Sequence[str] = KINDS, *, check_specs: bool = True
) -> Loaded:
    """Read results files, keep what reports can use and note the rest.

    Args:
        paths: Results files (``.jsonl``).
        kinds: The record kinds wanted; others are noted as skipped unless they are
            :data:`KINDS` (a report of matches need not mention a file's rounds).
        check_specs: Set aside records of another spec than the file's (tables must
            not mix specs; a replay of one record may).

    Raises:
        ValueError: A path does not exist.
    """
    loaded = Loaded()
    known_games: dict[str, bool] = {}
    for raw_path in paths:
        path = Path(raw_path)
        if not path.is_file():
            raise ValueError(f"results file {path} does not exist")
        read = ResultsFile(path).read()
        loaded.notes += [f"{path.name} line {n}: {why}; skipped" for n, why in read.skipped]
        rows = list(zip(read.lines, read.records, strict=True))
        spec, spec_from = _file_spec(
            path,
            (
                str(r["spec_hash"])
                for _, r in rows
                if r.get("kind") in ("match", "episode") and r.get("spec_hash")
            ),
        )
        unknown_kind: dict[str, list[int]] = defaultdict(list)
        unknown_game: dict[str, list[int]] = defaultdict(list)
        other_spec: dict[str, list[int]] = defaultdict(list)
        malformed: dict[str, list[int]] = defaultdict(list)
        for line, record in rows:
            kind = str(record.get("kind"))
            if kind not in KINDS:
                unknown_kind[kind].append(line)
                continue
            if kind not in kinds:
                continue
            if kind in ("match", "episode"):
                game = str(record.get("game", ""))
                if game not in known_games:
                    known_games[game] = _registered(game)
                if not known_games[game]:
                    unknown_game[game].append(line)
                    continue
                record_spec = record.get("spec_hash")
                if check_specs and spec is not None and record_spec and record_spec != spec:
                    other_spec[str(record_spec)].append(line)
                    continue
            if record.get("status") != "error":
                missing = [".".join(k) for k in _REQUIRED[kind] if not _has(record, k)]
                if missing:
                    malformed[f"{kind} record without {', '.join(missing)}"].append(line)
                    continue
            loaded.records.append(LoadedRecord(path, line, record))
        for kind, lines in unknown_kind.items():
            loaded.notes.append(
                f"{path.name} {_lines(lines)}: unknown record kind {kind!r} (known: "
                f"{', '.join(KINDS)}); skipped"
            )
        for game, lines in unknown_game.items():
            loaded.unknown_games[game] = loaded.unknown_games.get(game, 0) + len(lines)
            registered = ", ".join(info.versioned_id for info in list_games())
            loaded.notes.append(
                f"{path.name} {_lines(lines)}: game {game!r} is not registered here "
                f"(registered: {registered}); {len(lines)} record(s) skipped"
            )
        for other, lines in other_spec.items():
            loaded.notes.append(
                f"{path.name} {_lines(lines)}: spec {other} differs from the file's spec "
                f"{spec} (from {spec_from}); mixed specs are not summarised together, "
                f"{len(lines)} record(s) skipped"
            )
        for why, lines in malformed.items():
            loaded.notes.append(f"{path.name} {_lines(lines)}: malformed ({why}); skipped")
    return loaded
