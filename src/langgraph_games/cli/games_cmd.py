"""``langgraph-games games``: list the registered games with their options."""

from __future__ import annotations

import argparse
from typing import Any

from langgraph_games.games.registry import list_games

__all__ = ["add_parser", "run"]


def add_parser(sub: Any) -> None:
    """Register the ``games`` sub-command."""
    parser = sub.add_parser("games", help="list the games, one line each, with their options")
    parser.add_argument("--verbose", "-v", action="store_true", help="also list subproblems")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print every game, its description and its options."""
    for info in list_games():
        seats = "simultaneous" if info.simultaneous else "turn-based"
        print(
            f"{info.versioned_id:<16} {info.description} [{info.source}; "
            f"{info.num_players} players, {seats}]"
        )
        for option in info.options:
            print(f"{'':<18}--option {option}")
        if args.verbose:
            for sp in info.subproblems:
                scored = "" if sp.scored else ", not in I"
                print(f"{'':<18}subproblem {sp.index} ({sp.metric.value}{scored}): {sp.question}")
    return 0
