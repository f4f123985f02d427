"""Run an arena: a round robin between players, with GAMEBoT's tables.

What it shows:

- An :class:`~langgraph_games.eval.ArenaSpec` is plain data: the game, the players (specs
  such as ``minimax``, ``minimax:depth=1``, ``gamebot:local``), matches per pair (seats
  alternate, each seed played from both seats) and the random baseline added
  automatically.
- ``run_arena`` plays the matches concurrently and appends one JSON line per match to a
  results file named by the spec's hash; running it again skips what is done.
- The report: per player the outcome score O, the intermediate score I (for LLM players),
  W-D-L, invalid answers and tokens, and the head-to-head W-D-L table.

Offline by default (search players only). ``--player gamebot:local`` adds the embedded
SmolLM2 playing with GAMEBoT's prompts (slow on a laptop: use ``--matches 2``).

Run: ``python examples/run_arena.py [--game tictactoe] [--matches 4] [--out runs]``
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from collections.abc import Sequence
from pathlib import Path

from langgraph_games.eval import ArenaSpec, ResultsFile, run_arena


def main(argv: Sequence[str] | None = None) -> None:
    """Run the arena, then print where the results are and the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="tictactoe", help="a two-player game id")
    parser.add_argument("--matches", type=int, default=4, help="matches per pair")
    parser.add_argument(
        "--player",
        action="append",
        default=[],
        metavar="SPEC",
        help="add a player (e.g. gamebot:local); repeatable",
    )
    parser.add_argument("--out", default=None, help="results folder (default: a temp folder)")
    args = parser.parse_args(argv)

    spec = ArenaSpec(
        game=args.game,
        players=["minimax", "minimax:depth=1", *args.player],
        matches=args.matches,
        seed=0,
    )
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(args.out or scratch)
        report = asyncio.run(run_arena(spec, out, progress=False))
        records = ResultsFile(report.results_path).read().records
        print(f"roster: {', '.join(spec.roster)} ({len(records)} matches)")
        print(f"results: {report.results_path.name} ({report.played} played, ", end="")
        print(f"{report.skipped} already there)\n")
        print(report.markdown)


if __name__ == "__main__":
    main()
