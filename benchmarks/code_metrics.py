"""How loosely typed the package is: ``dict[str, Any]`` and ``Any`` in ``src/``.

Usage: python benchmarks/code_metrics.py [--root src] [--top 10]

Counts code only (Python's tokenizer: comments and strings, docstrings included, are not
read):

- ``dict[str, Any]``: each annotation or expression spelled ``dict[str, Any]`` (also
  ``Dict[str, Any]``), in all;
- ``Any`` per 1,000 lines: every name ``Any`` (those inside ``dict[str, Any]`` too) per
  1,000 lines of the ``.py`` files (blank lines and comments counted as lines).

The last table lists the files with the most ``dict[str, Any]``, where a ``TypedDict`` or a
dataclass may say more.
"""

from __future__ import annotations

import argparse
import io
import sys
import tokenize
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _common import table

_DICT_ANY = ("dict", "[", "str", ",", "Any", "]")
_SKIPPED = {tokenize.COMMENT, tokenize.STRING, tokenize.NL, tokenize.NEWLINE}
_SKIPPED |= {tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}
for _name in ("FSTRING_START", "FSTRING_MIDDLE", "FSTRING_END"):  # Python 3.12+
    if hasattr(tokenize, _name):
        _SKIPPED.add(getattr(tokenize, _name))


@dataclass(frozen=True)
class FileCounts:
    """The counts of one file."""

    path: str
    lines: int
    dict_any: int
    any_names: int


def code_tokens(text: str) -> list[str]:
    """The code tokens of a module's text (no comments, strings or layout tokens).

    Example:
        >>> code_tokens("x: dict[str, Any] = {}  # Any\\ny = 'Any'\\n")
        ['x', ':', 'dict', '[', 'str', ',', 'Any', ']', '=', '{', '}', 'y', '=']
    """
    tokens = tokenize.generate_tokens(io.StringIO(text).readline)
    return [t.string for t in tokens if t.type not in _SKIPPED]


def count_file(path: Path, root: Path) -> FileCounts:
    """``dict[str, Any]`` and ``Any`` in one file."""
    text = path.read_text(encoding="utf-8")
    words = code_tokens(text)
    dict_any = sum(
        1
        for i in range(len(words) - len(_DICT_ANY) + 1)
        if words[i].lower() == "dict" and tuple(words[i + 1 : i + 6]) == _DICT_ANY[1:]
    )
    return FileCounts(
        path=str(path.relative_to(root)),
        lines=len(text.splitlines()),
        dict_any=dict_any,
        any_names=words.count("Any"),
    )


def main() -> None:
    """Print the totals and the files with the most ``dict[str, Any]``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=str(Path(__file__).parent.parent / "src"))
    parser.add_argument("--top", type=int, default=10, help="files listed (default 10)")
    args = parser.parse_args()
    root = Path(args.root)
    counts = [count_file(p, root) for p in sorted(root.rglob("*.py"))]
    lines = sum(c.lines for c in counts)
    dict_any = sum(c.dict_any for c in counts)
    any_names = sum(c.any_names for c in counts)
    per_k = 1000 * any_names / max(lines, 1)
    print(f"Typing looseness of {root.name}/ ({len(counts)} files, {lines} lines)\n")
    print(
        table(
            ["measure", "value"],
            [
                ["dict[str, Any]", dict_any],
                ["Any (names)", any_names],
                ["Any per 1,000 lines", f"{per_k:.1f}"],
            ],
        )
    )
    top = sorted(counts, key=lambda c: (-c.dict_any, c.path))[: args.top]
    print(
        "\n"
        + table(["file", "dict[str, Any]", "Any"], [[c.path, c.dict_any, c.any_names] for c in top])
    )


if __name__ == "__main__":
    main()
