"""``langgraph-games report RESULTS...``: print the tables of results files again."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from langgraph_games.eval.arena import summarize
from langgraph_games.eval.results import ResultsFile
from langgraph_games.eval.runner import summarize_episodes

__all__ = ["add_parser", "run"]


def add_parser(sub: Any) -> None:
    """Register the ``report`` sub-command."""
    parser = sub.add_parser("report", help="print the tables of results files")
    parser.add_argument("results", nargs="+", help=".jsonl results files written by arena/eval")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the summary tables and what was skipped."""
    paths = [Path(p) for p in args.results]
    for path in paths:
        if not path.is_file():
            raise ValueError(f"results file {path} does not exist")
    kinds = {str(r.get("kind")) for path in paths for r in ResultsFile(path).read().records}
    notes: list[str] = []
    if "match" in kinds:
        for path in paths:
            if any(r.get("kind") == "match" for r in ResultsFile(path).read().records):
                markdown, _, _, more = summarize(path)
                print(markdown)
                notes += more
    if "episode" in kinds:
        table, _, more = summarize_episodes(list(paths))
        print(table)
        notes += more
    if not kinds & {"match", "episode"}:
        raise ValueError(f"no match or episode records in {', '.join(map(str, paths))}")
    for note in notes:
        print(f"skipped {note}", file=sys.stderr)
    return 0
