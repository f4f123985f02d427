"""``langgraph-games report RESULTS...``: print and write the paper tables and plots of results."""

from __future__ import annotations

import argparse

from langgraph_games.cli._commands import Subcommands, add_command
from langgraph_games.cli._options import add_prices_flag, add_scoring_flags, scoring_of
from langgraph_games.cli._paths import output_dir, results_files
from langgraph_games.cli._progress import stage
from langgraph_games.eval.costs import load_prices
from langgraph_games.eval.reports.report import build_report, write_report

__all__ = ["add_parser", "run"]


def add_parser(sub: Subcommands) -> None:
    """Register the ``report`` sub-command."""
    parser = add_command(sub, "report")
    parser.add_argument(
        "results",
        nargs="+",
        help=".jsonl results files written by arena, eval, smartplay or train, or folders "
        "holding them",
    )
    parser.add_argument(
        "--out",
        default=None,
        metavar="DIR",
        help="folder for report.md, CSV tables and plots/ (default: report/ beside the "
        "first results file)",
    )
    parser.add_argument("--no-plots", action="store_true", help="tables only")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress lines")
    add_scoring_flags(parser)
    add_prices_flag(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the tables and what was skipped; write them with the plots."""
    paths = results_files(args.results)
    out = output_dir("--out", args.out if args.out else paths[0].parent / "report")
    with stage(f"reading {len(paths)} file(s)", enabled=not args.quiet):
        report = build_report(paths, scoring_of(args), load_prices(args.prices))
    if report.empty:
        why = "; ".join(report.notes) or "no match, episode or round records"
        raise ValueError(f"nothing to report in {', '.join(map(str, paths))}: {why}")
    with stage(f"writing {out}", enabled=not args.quiet):
        written = write_report(report, out, plots=not args.no_plots)
    print(report.markdown())
    print(f"report: {written.markdown}")
    for path in [*written.csv, *written.plots]:
        print(f"wrote {path}")
    if written.plots_skipped:
        print(written.plots_skipped)
    return 0
