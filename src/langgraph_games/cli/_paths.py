"""Where a command will write, checked before it starts: one rule for every output option.

Every option that names a place to write (``--out``, ``--output``, ``--store``,
``--cache``, ``--study-cache``) is checked by :func:`output_dir` or :func:`output_file`
before any work starts (before a model loads or a game is played). A folder may not exist
yet (it is created), but it must not be a file, lie under a file, or be in a place the
command cannot write; a file must not be a folder, and its folder follows the same rule.
A problem is a :class:`OutputPathError` (a ``ValueError``, so the command prints one line
and exits with code 2)::

    error: --out 'x/y': 'x' is a file, not a directory
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path

__all__ = ["OutputPathError", "output_dir", "output_file", "results_files"]

RESULTS_ACCEPTED = (
    "give .jsonl results files written by arena, eval, smartplay or train, or folders holding them"
)
"""What a command that reads results accepts, said when a path is refused."""


class OutputPathError(ValueError):
    """An output option names a place the command cannot write to."""

    def __init__(self, option: str, value: str | Path, problem: str) -> None:
        super().__init__(f"{option} {str(value)!r}: {problem}")
        self.option = option
        self.problem = problem


def _existing(path: Path) -> Path:
    """The path itself or its nearest ancestor that exists (``.`` at worst)."""
    for candidate in (path, *path.parents):
        if candidate.exists():
            return candidate
    return Path(".")


def _check_folder(option: str, value: str | Path, folder: Path) -> None:
    """``folder`` (which may not exist yet) can be created and written in."""
    existing = _existing(folder)
    if not existing.is_dir():
        raise OutputPathError(option, value, f"{str(existing)!r} is a file, not a directory")
    try:
        with tempfile.TemporaryFile(dir=existing):
            pass
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
        raise OutputPathError(option, value, f"cannot write in {str(existing)!r} ({why})") from None


def output_dir(option: str, value: str | Path) -> Path:
    """The folder ``value`` given to ``option``, checked as a place to write into.

    Raises:
        OutputPathError: It is a file, lies under a file, or cannot be written in.

    Example:
        >>> import tempfile, pathlib
        >>> base = pathlib.Path(tempfile.mkdtemp())
        >>> (base / "x").write_text("a file")
        6
        >>> output_dir("--out", base / "new" / "runs") == base / "new" / "runs"
        True
        >>> try:
        ...     output_dir("--out", base / "x" / "runs")
        ... except OutputPathError as error:
        ...     print(error.problem.replace(str(base), "BASE"))
        'BASE/x' is a file, not a directory
    """
    path = Path(value)
    _check_folder(option, value, path)
    return path


def output_file(option: str, value: str | Path) -> Path:
    """The file ``value`` given to ``option``, checked as a file to (over)write.

    Raises:
        OutputPathError: It is a folder, or its folder fails :func:`output_dir`'s checks.
    """
    path = Path(value)
    if path.is_dir():
        raise OutputPathError(option, value, f"{str(path)!r} is a directory, not a file")
    _check_folder(option, value, path.parent)
    return path


def results_files(values: Sequence[str | Path]) -> list[Path]:
    """The results files the paths name: a file as it is, a folder as its ``*.jsonl`` files.

    A folder's files are taken in name order, without descending into sub-folders; each
    file is taken once, in the order first named.

    Raises:
        ValueError: No paths; a path does not exist; a folder holds no ``.jsonl`` file.

    Example:
        >>> import tempfile, pathlib
        >>> base = pathlib.Path(tempfile.mkdtemp())
        >>> for name in ("b.jsonl", "a.jsonl", "notes.txt"):
        ...     _ = (base / name).write_text("")
        >>> [p.name for p in results_files([base, base / "b.jsonl"])]
        ['a.jsonl', 'b.jsonl']
    """
    if not values:
        raise ValueError(f"no results files given; {RESULTS_ACCEPTED}")
    found: dict[Path, None] = {}
    for value in values:
        path = Path(value)
        if path.is_dir():
            inside = sorted(p for p in path.glob("*.jsonl") if p.is_file())
            if not inside:
                raise ValueError(
                    f"{str(path)!r} is a folder with no .jsonl file in it; {RESULTS_ACCEPTED}"
                )
            found.update(dict.fromkeys(inside))
        elif path.exists():
            found.setdefault(path, None)
        else:
            raise ValueError(f"results file {path} does not exist; {RESULTS_ACCEPTED}")
    return list(found)
