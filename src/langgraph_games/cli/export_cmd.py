"""``langgraph-games export RESULTS... --to FILE``: results as one row per episode or decision.

The rows (:mod:`~langgraph_games.eval.reports.export`) go to JSON Lines, CSV or Parquet by
the suffix of ``--to`` (Parquet needs pyarrow), ready for a dataframe.
"""

from __future__ import annotations

import argparse

from langgraph_games.cli._commands import Subcommands, add_command
from langgraph_games.cli._options import add_prices_flag
from langgraph_games.cli._paths import output_file
from langgraph_games.eval.costs import load_prices
from langgraph_games.eval.reports.export import (
    FORMATS,
    PER,
    decision_rows,
    episode_rows,
    export_format,
    write_rows,
)
from langgraph_games.eval.running.records import load_results

__all__ = ["add_parser", "run"]


def add_parser(sub: Subcommands) -> None:
    """Register the ``export`` sub-command."""
    parser = add_command(sub, "export")
    parser.add_argument(
        "results", nargs="+", help=".jsonl results files written by arena, eval, smartplay or train"
    )
    parser.add_argument(
        "--to",
        required=True,
        metavar="FILE",
        help=f"the file to write; its suffix picks the format: {', '.join(FORMATS)} "
        "(parquet needs pyarrow)",
    )
    parser.add_argument(
        "--per",
        choices=PER,
        default="episode",
        help="one row per episode (match) with its seats' counters (default), or per "
        "decision with its usage and answer",
    )
    add_prices_flag(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Write the rows; say how many and where."""
    target = output_file("--to", args.to)
    export_format(target)  # a bad suffix is refused before anything is read
    prices = load_prices(args.prices)
    loaded = load_results(args.results, check_specs=False)
    rows_of = decision_rows if args.per == "decision" else episode_rows
    rows = rows_of(loaded.records, prices)
    if not rows:
        why = "; ".join(loaded.notes[:3]) or f"no match or episode {args.per}s"
        raise ValueError(f"nothing to export in {', '.join(args.results)}: {why}")
    write_rows(rows, target)
    print(f"wrote {len(rows)} row{'s' if len(rows) != 1 else ''} (one per {args.per}) to {target}")
    for note in loaded.notes:
        print(f"note: {note}")
    return 0
