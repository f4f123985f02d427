"""``langgraph-games report RESULTS``: print the tables of a results file again."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from langgraph_games.eval.arena import summarize

__all__ = ["add_parser", "run"]


def add_parser(sub: Any) -> None:
    """Register the ``report`` sub-command."""
    parser = sub.add_parser("report", help="print the tables of a results file")
    parser.add_argument("results", help="a .jsonl results file written by arena")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the summary tables and what was skipped."""
    path = Path(args.results)
    if not path.is_file():
        raise ValueError(f"results file {path} does not exist")
    markdown, _, _, notes = summarize(path)
    print(markdown)
    for note in notes:
        print(f"skipped {note}", file=sys.stderr)
    return 0
