"""``langgraph-games games``: list the registered games with their options, then the players."""

from __future__ import annotations

import argparse
from typing import Any

from langgraph_games.cli._commands import add_command
from langgraph_games.cli._players import player_lines
from langgraph_games.games.registry import list_games

__all__ = ["add_parser", "run"]


def add_parser(sub: Any) -> None:
    """Register the ``games`` sub-command."""
    parser = add_command(sub, "games")
    parser.add_argument("--verbose", "-v", action="store_true", help="also list subproblems")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print every game, its description and its options; then every player spec form."""
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
    print()
    for line in player_lines():
        print(line)
    return 0
