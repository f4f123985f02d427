"""``langgraph-games replay RESULTS... [--match ID] --out DIR``: HTML pages to step through."""

from __future__ import annotations

import argparse
import sys

from langgraph_games.cli._commands import Subcommands, add_command
from langgraph_games.cli._paths import output_dir, results_files
from langgraph_games.cli._progress import progress_bar, stage
from langgraph_games.eval.reports.replay import record_id, write_replays
from langgraph_games.eval.running.records import load_results, shown
from langgraph_games.games.registry import list_games

__all__ = ["add_parser", "run"]


def add_parser(sub: Subcommands) -> None:
    """Register the ``replay`` sub-command."""
    parser = add_command(sub, "replay")
    parser.add_argument(
        "results",
        nargs="+",
        help=".jsonl results files written by arena/eval, or folders holding them",
    )
    parser.add_argument(
        "--match",
        "--episode",
        dest="match",
        metavar="ID",
        default=None,
        help="only the match or episode whose id starts with ID",
    )
    parser.add_argument("--out", required=True, metavar="DIR", help="folder for the pages")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Write the pages and the index; say what was skipped."""
    output_dir("--out", args.out)
    paths = results_files(args.results)
    with stage(f"reading {len(paths)} file(s)", enabled=not args.quiet):
        loaded = load_results(paths, kinds=("match", "episode"), check_specs=False)
    chosen = [
        r
        for r in loaded.records
        if r.record.get("kind") in ("match", "episode")
        and (args.match is None or record_id(r.record).startswith(args.match))
    ]
    if args.match is not None and not chosen:
        ids = [shown(record_id(r.record)) for r in loaded.records if record_id(r.record)]
        listed = ", ".join(ids[:20]) + (f" ... ({len(ids)} in all)" if len(ids) > 20 else "")
        raise ValueError(f"no match or episode id starts with {shown(args.match)}; ids: {listed}")
    unknown = _unknown_games(loaded.unknown_games)
    if not chosen and unknown:
        raise ValueError(f"nothing to replay: {unknown}")
    if not chosen and not loaded.notes:
        raise ValueError(f"no match or episode records in {', '.join(map(str, paths))}")
    with progress_bar("pages", len(chosen), "page", enabled=not args.quiet) as tick:
        written = write_replays(
            [(r.source, r.record) for r in chosen], args.out, notes=loaded.notes, on_page=tick
        )
    for note in written.skipped:
        print(f"skipped {note}")
    if unknown:
        print(f"warning: {unknown}; pages were written for the others", file=sys.stderr)
    print(f"wrote {len(written.pages)} replay page(s); index: {written.index}")
    if len(written.pages) == 1:
        print(f"replay: {written.pages[0]}")
    if not written.pages:
        print("no page written: nothing in the results could be replayed", file=sys.stderr)
        return 1
    return 0


def _unknown_games(counts: dict[str, int]) -> str:
    """What was skipped for unregistered games, with the registered ids ("" if nothing)."""
    if not counts:
        return ""
    games = ", ".join(f"{game!r} ({n})" for game, n in counts.items())
    registered = ", ".join(info.versioned_id for info in list_games())
    return (
        f"{sum(counts.values())} record(s) skipped because their game is not registered "
        f"here: {games}; registered games: {registered}"
    )
