"""``langgraph-games games``: list the registered games with their options, then the players."""

from __future__ import annotations

import argparse

from langgraph_games.cli._commands import Subcommands, add_command
from langgraph_games.cli._players import player_lines
from langgraph_games.games.registry import game_class, list_games
from langgraph_games.players.registry import player_entries

__all__ = ["add_parser", "run"]


def add_parser(sub: Subcommands) -> None:
    """Register the ``games`` sub-command."""
    parser = add_command(sub, "games")
    parser.add_argument(
        "--verbose",
        "-v",
        action="store_true",
        help="also list subproblems and the players that can play each game",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print every game, its description and its options; then every player spec form.

    With ``--verbose``, each game also lists its subproblems and the players that can
    play it (players not limited to some games play every game).
    """
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
            cls = game_class(info.id)
            players = [e.name for e in player_entries() if e.can_play(cls)]
            print(f"{'':<18}players: {', '.join(players)}")
    print()
    for line in player_lines():
        print(line)
    return 0
