"""Hostile results files: real files the commands write, mutated, and every reader run on them.

:func:`build_corpus` writes the seed files with the commands themselves (arena matches of
scripted GAMEBoT players and of search players, evaluation episodes of every metric
family, a small training run with its episodes and rounds). :func:`mutants` damages them
deterministically (seeded): keys deleted or renamed, values of the wrong type, hostile
numbers (NaN, huge, negative), hostile text (``<!--``, ``</script>``, U+2028, megabyte
ids), lines truncated, cut in half, doubled or swapped, random bytes and invalid UTF-8,
deep nesting, other files' lines mixed in, damaged manifests.

:func:`check_file` runs one file through every reader and command that reads results
(``load_results``, ``report`` with the report written, ``replay`` with its pages, and
``leaderboard``, the training ledger when the file is a training run's) and returns what
went wrong: an exception that is not the command's documented error, an exit code or
message outside the documented ones, a line neither used nor named in a note, a page
whose data block does not parse back. An empty list is a clean run.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import re
import traceback
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from expver_support import install_coach
from langgraph_games.cli import _running, main
from langgraph_games.eval.reports.replay import write_replays
from langgraph_games.eval.reports.report import build_report, write_report
from langgraph_games.eval.running.records import load_results
from langgraph_games.eval.running.results import ResultsFile
from langgraph_games.eval.running.training import FileLedger, TrainSpec
from langgraph_games.eval.scoring.smartplay_summary import smartplay_summary
from langgraph_games.graphs.expver.parts import ExpVerError
from support import install_scripted_strategies

__all__ = [
    "SEED_COMMANDS",
    "Mutant",
    "build_corpus",
    "check_file",
    "mutants",
]

SEED_COMMANDS: tuple[tuple[str, ...], ...] = (
    ("arena", "tictactoe", "--players", "perfect", "clumsy", "--matches", "1", "--no-baseline"),
    ("arena", "connect4", "--players", "minimax:depth=1", "random", "--matches", "1"),
    ("eval", "maze", "--player", "maze_explorer", "--episodes", "1", "-o", "level=1",
     "-o", "map_index=1", "--steps", "10"),
    ("eval", "minesweeper", "--player", "minesweeper_solver", "--episodes", "1"),
    ("eval", "match2", "--player", "random", "--episodes", "1", "--level", "easy",
     "-o", "map_index=1", "--steps", "5"),
    ("eval", "bandit", "--player", "random", "--episodes", "2"),
    ("eval", "crafter", "--player", "random", "--episodes", "1", "--steps", "10"),
    ("eval", "tictactoe", "--player", "sloppy", "--opponent", "minimax:depth=1",
     "--episodes", "1"),
    ("train", "maze", "--rounds", "1", "--model", "coach", "--train-maps", "1",
     "--test-maps", "1", "--max-steps", "8"),
)  # fmt: skip
"""The commands whose results files seed the fuzz (with ``--out``, ``-q``, one worker)."""

TRAIN_SPEC = TrainSpec(
    game="maze",
    agent="eeb:coach",
    train_maps=1,
    test_maps=1,
)
"""A spec to open training ledgers with (the ledger checks lines, not the spec's hash)."""


def build_corpus(out: Path) -> list[Path]:
    """Run :data:`SEED_COMMANDS` into ``out``; returns their results files (a few seconds).

    Raises:
        RuntimeError: A command did not exit 0.
    """
    with pytest.MonkeyPatch.context() as monkeypatch:
        install_scripted_strategies(monkeypatch)
        install_coach(monkeypatch)
        for argv in SEED_COMMANDS:
            quiet = io.StringIO()
            with contextlib.redirect_stdout(quiet), contextlib.redirect_stderr(quiet):
                code = main([*argv, "--out", str(out), "-q", "--workers", "1"])
            if code != 0:
                raise RuntimeError(f"{' '.join(argv)} exited {code}: {quiet.getvalue()[-2000:]}")
    return sorted(out.glob("*.jsonl"))


# ----- mutation ---------------------------------------------------------------------------

LONG_ID = "m" * 5000
HOSTILE_TEXT = (
    "",
    " ",
    "x",
    "</script><script>throw 1</script>",
    "<!--",
    "<\\!--",
    "<!-- </script> -->",
    "\u2028\u2029",
    "\x00",
    "../../../../etc/passwd",
    "a/b\\c:d*e?f",
    "CON",
    ".",
    "..",
    "\ud800",
    "💥" * 300,
    LONG_ID,
    "tictactoe-v1",
    "connect4-v1",
    "maze-v1",
    "minesweeper-v1",
    "bandit",
    "crafter",
    "othello-v99",
    "no-such-game-v1",
    "error",
    "finished",
    "forfeit",
    "match",
    "episode",
    "round",
    "generic",
    "maze",
    "smartplay",
    "(1,1)",
    "r,0,0",
    "NaN",
    "-1",
    "1e999",
)
HOSTILE_NUMBERS: tuple[Any, ...] = (
    0,
    1,
    2,
    3,
    -1,
    -7,
    10**6,
    2**63,
    -(2**63),
    10**400,
    0.5,
    -0.0,
    1e308,
    float("nan"),
    float("inf"),
    float("-inf"),
    True,
    False,
)


def _deep(depth: int, leaf: Any = 0) -> Any:
    value: Any = leaf
    for level in range(depth):
        value = [value] if level % 2 else {"d": value}
    return value


def _hostile_value(rng: random.Random) -> Any:
    kind = rng.randrange(10)
    if kind < 3:
        return rng.choice(HOSTILE_NUMBERS)
    if kind < 6:
        return rng.choice(HOSTILE_TEXT)
    if kind == 6:
        return rng.choice([None, [], {}, [None], [[]], {"": {}}])
    if kind == 7:
        return [rng.choice(HOSTILE_NUMBERS) for _ in range(rng.randrange(0, 5))]
    if kind == 8:
        return {rng.choice(HOSTILE_TEXT): rng.choice(HOSTILE_NUMBERS)}
    return _deep(rng.choice([3, 30, 300]))


def _containers(value: Any, rng: random.Random) -> list[Any]:
    """A random walk from the root: the containers on the way (shallow ones more often)."""
    path = [value]
    while True:
        here = path[-1]
        children = (
            [v for v in here.values() if isinstance(v, (dict, list))]
            if isinstance(here, dict)
            else [v for v in here if isinstance(v, (dict, list))]
        )
        if not children or rng.random() < 0.3:
            return path
        path.append(rng.choice(children))


def _mutate_record(record: Any, rng: random.Random, other: Any) -> str:
    """Change ``record`` in place at a random place; returns what was done."""
    if not isinstance(record, (dict, list)):
        return "left a non-container alone"
    target = rng.choice(_containers(record, rng))
    if isinstance(target, dict):
        if not target:
            target[rng.choice(HOSTILE_TEXT)] = _hostile_value(rng)
            return "filled an empty object"
        key = rng.choice(list(target))
        action = rng.randrange(8)
        if action == 0:
            del target[key]
            return f"deleted {key!r}"
        if action == 1:
            target[rng.choice(HOSTILE_TEXT)] = target.pop(key)
            return f"renamed {key!r}"
        if action == 2 and isinstance(other, dict) and key in other:
            target[key] = other[key]  # a value from another file's record
            return f"took {key!r} from another record"
        if action == 3 and isinstance(target[key], list) and target[key]:
            items = target[key]
            choice = rng.randrange(4)
            if choice == 0:
                items.pop(rng.randrange(len(items)))
            elif choice == 1:
                items.append(rng.choice(items))
            elif choice == 2:
                items.reverse()
            else:
                items.insert(0, _hostile_value(rng))
            return f"changed the list {key!r}"
        target[key] = _hostile_value(rng)
        return f"replaced {key!r}"
    if not target:
        target.append(_hostile_value(rng))
        return "filled an empty list"
    index = rng.randrange(len(target))
    if rng.random() < 0.5:
        del target[index]
        return "deleted a list item"
    target[index] = _hostile_value(rng)
    return "replaced a list item"


def _dump(record: Any, rng: random.Random) -> bytes:
    """The record as a line: as the writers do (UTF-8), or all escaped now and then."""
    text = json.dumps(record, ensure_ascii=rng.random() < 0.5)
    return text.encode("utf-8", "surrogatepass")  # a lone surrogate: invalid UTF-8 on disk


def _line_mutation(lines: list[bytes], rng: random.Random, others: Sequence[bytes]) -> str:
    """Damage the file's lines (not the records' insides); returns what was done."""
    action = rng.randrange(12)
    index = rng.randrange(len(lines)) if lines else 0
    if not lines:
        lines.append(b"{}")
        return "added an empty object"
    line = lines[index]
    if action == 0:
        lines[index] = line[: rng.randrange(len(line) + 1)]
        return "truncated a line"
    if action == 1:
        lines[index] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200)))
        return "random bytes"
    if action == 2:
        at = rng.randrange(len(line) + 1)
        lines[index] = (
            line[:at] + rng.choice([b"\xff\xfe", b"\x80", b"\xc3", b"\xed\xa0\x80"]) + line[at:]
        )
        return "invalid UTF-8"
    if action == 3:
        lines.insert(index, line)
        return "doubled a line"
    if action == 4 and len(lines) > 1:
        other = rng.randrange(len(lines))
        lines[index], lines[other] = lines[other], lines[index]
        return "swapped lines"
    if action == 5:
        lines.insert(index, rng.choice(others))
        return "mixed in another file's line"
    if action == 6:
        lines.insert(index, rng.choice([b"[]", b"1", b'"text"', b"null", b"true", b"{", b"}"]))
        return "a line that is no object"
    if action == 7:
        depth = rng.choice([500, 5000, 100_000])
        lines.insert(index, b"[" * depth + b"]" * depth)
        return "deep nesting"
    if action == 8:
        lines.insert(index, rng.choice([b"", b"   ", b"\t", b"\x00", b"\r"]))
        return "a blank or odd line"
    if action == 9:
        lines[index] = line.replace(b",", b"\n", 1)
        return "a line cut in two"
    if action == 10:
        del lines[index]
        return "deleted a line"
    big = json.dumps({"kind": "match", "match_id": "x" * 1_000_000}).encode()
    lines.insert(index, big)
    return "a megabyte line"


@dataclass
class Mutant:
    """A damaged results file: its bytes, its manifest's (``None``: none) and how it was made."""

    name: str
    data: bytes
    manifest: bytes | None
    how: list[str] = field(default_factory=list)

    def write(self, folder: Path) -> Path:
        """Write the file (and manifest) into ``folder``; returns the results file."""
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{self.name}.jsonl"
        path.write_bytes(self.data)
        if self.manifest is not None:
            path.with_suffix(".manifest.json").write_bytes(self.manifest)
        return path


def _manifest(path: Path, rng: random.Random) -> tuple[bytes | None, str]:
    manifest = path.with_suffix(".manifest.json")
    data = manifest.read_bytes() if manifest.is_file() else None
    roll = rng.randrange(10)
    if data is None or roll < 6:
        return data, ""
    if roll == 6:
        return None, "manifest removed"
    if roll == 7:
        return data[: len(data) // 2], "manifest truncated"
    value = json.loads(data)
    value["spec_hash"] = _hostile_value(rng)
    return json.dumps(value, ensure_ascii=True).encode(), "manifest spec_hash replaced"


def mutants(corpus: Sequence[Path], seed: int, count: int) -> Iterator[Mutant]:
    """``count`` damaged copies of the corpus files, the same for the same ``seed``."""
    rng = random.Random(seed)
    files = {path: path.read_bytes().splitlines() for path in corpus}
    every_line = [line for lines in files.values() for line in lines]
    for number in range(count):
        path = rng.choice(list(files))
        lines = list(files[path])
        how: list[str] = []
        for _ in range(rng.randrange(1, 5)):
            if rng.random() < 0.3 or not lines:
                how.append(_line_mutation(lines, rng, every_line))
                continue
            index = rng.randrange(len(lines))
            try:
                record = json.loads(lines[index])
            except (ValueError, RecursionError):
                how.append("left a broken line")
                continue
            try:
                other = json.loads(rng.choice(every_line))
            except (ValueError, RecursionError):
                other = None
            how.append(_mutate_record(record, rng, other))
            try:
                lines[index] = _dump(record, rng)
            except (ValueError, RecursionError):
                how.append("could not write the record back")
        manifest, changed = _manifest(path, rng)
        if changed:
            how.append(changed)
        ending = b"" if rng.random() < 0.1 else b"\n"  # a missing last newline: a crashed run
        data = b"\n".join(lines) + ending
        yield Mutant(f"{path.stem}-{number}", data, manifest, how)


# ----- running every reader ---------------------------------------------------------------

_NOTE_LINES = re.compile(r" lines? ([\d, ]+?)(?: and (\d+) more)?: ")
_DATA = re.compile(r'<script type="application/json" id="replay-data">(.*?)</script>', re.S)
ACCEPTED_ERRORS = {
    "report": ("nothing to report in ",),
    "replay": ("nothing to replay: ", "no match or episode records in "),
    "leaderboard": ("no finished two-seat matches to rate: ",),
}
"""The documented one-line errors (exit 2) of each command on a file it can read."""


def _noted(notes: Sequence[str]) -> int:
    """How many lines the notes name (``line 3``, ``lines 1, 2 and 5 more``)."""
    total = 0
    for note in notes:
        found = _NOTE_LINES.search(note)
        if found:
            total += len(found[1].split(",")) + int(found[2] or 0)
    return total


def _records(path: Path) -> int:
    """Lines ``load_results`` must account for: every line that is not blank."""
    with path.open("rb") as handle:
        return sum(1 for raw in handle if raw.decode("utf-8", "replace").strip())


def _crash(where: str, exc: BaseException) -> str:
    frames = traceback.extract_tb(exc.__traceback__)
    own = [f for f in frames if "langgraph_games" in f.filename] or frames
    last = own[-1] if own else None
    at = f"{Path(last.filename).name}:{last.lineno} {last.name}" if last else "?"
    return f"{where}: {type(exc).__name__} at {at}: {str(exc)[:200]}"


@contextlib.contextmanager
def no_full_collections() -> Iterator[None]:
    """Commands without their full garbage collection at start (0.1 s each, nothing to test)."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(_running, "steady_gc", contextlib.nullcontext)
        yield


def _command(argv: list[str], accepted: tuple[str, ...]) -> str | None:
    """Run a command quietly: ``None`` when it ended as documented, else what went wrong."""
    out, err = io.StringIO(), io.StringIO()
    try:
        with (
            contextlib.redirect_stdout(out),
            contextlib.redirect_stderr(err),
            no_full_collections(),
        ):
            code = main(argv)
    except Exception as exc:  # noqa: BLE001 - the crash is the finding
        return _crash(argv[0], exc)
    message = err.getvalue()
    if code == 2:
        prefix = f"langgraph-games {argv[0]}: error: "
        lines = message.strip().splitlines()
        if len(lines) != 1 or not lines[0].startswith(prefix):
            return f"{argv[0]}: exit 2 without one error line: {message[-300:]!r}"
        if not lines[0][len(prefix) :].startswith(accepted):
            return f"{argv[0]}: undocumented error: {lines[0][:300]}"
        return None
    if code not in (0, 1):
        return f"{argv[0]}: exit {code}: {message[-300:]!r}"
    if "Traceback" in message:
        return f"{argv[0]}: a traceback on stderr"
    return None


def _pages(folder: Path) -> list[str]:
    problems = []
    for page in folder.glob("*.html"):
        if page.name == "index.html":
            continue
        if len(page.name) > 200:
            problems.append(f"replay: page name of {len(page.name)} characters")
        found = _DATA.search(page.read_text(encoding="utf-8"))
        if found is None:
            problems.append(f"replay: {page.name} has no data block")
            continue
        try:
            data = json.loads(found[1])
        except ValueError as exc:
            problems.append(f"replay: {page.name}'s data block does not parse: {exc}")
            continue
        if not data.get("steps"):
            problems.append(f"replay: {page.name} has no steps")
    return problems


def _library(path: Path, out: Path, plots: bool) -> list[str]:
    """The readers called directly: none may raise on what a file holds."""
    problems = []
    try:
        loaded = load_results([path])
    except Exception as exc:  # noqa: BLE001
        return [_crash("load_results", exc)]
    lines = _records(path)
    accounted = len(loaded.records) + _noted(loaded.notes)
    if accounted != lines:
        problems.append(
            f"load_results: {lines} lines, {len(loaded.records)} used and {_noted(loaded.notes)}"
            f" named in notes: {loaded.notes[:3]}"
        )
    try:
        report = build_report([path])
        write_report(report, out / "report", plots=plots)
    except Exception as exc:  # noqa: BLE001
        problems.append(_crash("report", exc))
    try:
        smartplay_summary([path])
    except Exception as exc:  # noqa: BLE001
        problems.append(_crash("smartplay_summary", exc))
    chosen = [
        (r.source, r.record) for r in loaded.records if r.record["kind"] in ("match", "episode")
    ]
    try:
        written = write_replays(chosen, out / "replay", notes=loaded.notes)
    except Exception as exc:  # noqa: BLE001
        problems.append(_crash("write_replays", exc))
    else:
        if len(written.entries) != len(chosen):
            problems.append("write_replays: not every record is on the index")
        problems += _pages(out / "replay")
    return problems


def _ledger(path: Path) -> list[str]:
    if not path.name.startswith("train-"):
        return []
    try:
        FileLedger(ResultsFile(path), TRAIN_SPEC)
    except ExpVerError:
        return []
    except Exception as exc:  # noqa: BLE001
        return [_crash("ledger", exc)]
    return []


def check_file(path: Path, out: Path, *, plots: bool = False) -> list[str]:
    """Every reader and command on one results file; returns what went wrong (``[]``: none).

    Args:
        path: The results file.
        out: A fresh folder for what the commands write.
        plots: Draw the report's plots too (matplotlib: slower).
    """
    problems = _library(path, out / "lib", plots)
    problems += _ledger(path)
    report = ["report", str(path), "--out", str(out / "report"), "--no-plots"]
    replay = ["replay", str(path), "--out", str(out / "replay")]
    board = ["leaderboard", str(path), "--bootstrap", "20", "--out", str(out / "board")]
    for argv in (report, replay, board):
        found = _command(argv, ACCEPTED_ERRORS[argv[0]])
        if found:
            problems.append(found)
    problems += _pages(out / "replay")
    return problems
