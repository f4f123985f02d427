"""The sub-commands by name: module and one-line help, known without importing any.

The top-level parser lists every command from this table and builds the options of the
one being run only (see :func:`langgraph_games.cli.build_parser`), so the top-level
``--help`` loads neither LangGraph, LangChain nor Chroma.
"""

from __future__ import annotations

import argparse
from typing import TypeAlias

__all__ = ["COMMANDS", "add_command"]

COMMANDS: dict[str, tuple[str, str]] = {
    "games": (
        "games_cmd",
        "list the games with their options, then the players with their settings",
    ),
    "play": ("play_cmd", "play one game and print the board after each move"),
    "arena": ("arena_cmd", "round-robin matches between players, with O/I tables (GAMEBoT)"),
    "eval": ("eval_cmd", "evaluate one agent over many episodes with the game's paper metrics"),
    "train": ("train_cmd", "Agent-ExpVer training rounds: learn verified truths, with resume"),
    "truths": (
        "truths_cmd",
        "see and edit a truth store: list, show, history, revert, delete, export, import",
    ),
    "smartplay": (
        "smartplay_cmd",
        "run the SmartPlay benchmark for one or more agents and print Table 2",
    ),
    "study": ("study_cmd", "read a document into a game context for SPRING (cached)"),
    "report": ("report_cmd", "print and write the paper tables and plots of results files"),
    "export": (
        "export_cmd",
        "write results as one row per episode or per decision: JSONL, CSV or Parquet",
    ),
    "leaderboard": (
        "leaderboard_cmd",
        "Elo and openskill ratings, O, I and win rates with bootstrap intervals",
    ),
    "replay": (
        "replay_cmd",
        "write self-contained HTML replays of matches and episodes, with an index",
    ),
    "serve": (
        "serve_cmd",
        "a local web page to play against any player spec, with its reasoning shown",
    ),
    "mcp": (
        "mcp_cmd",
        "serve every game's tools (new game, observe, legal moves, move, result) over MCP",
    ),
}
"""Sub-command name -> (module in ``langgraph_games.cli``, one-line help), in help order."""


Subcommands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
"""What ``ArgumentParser.add_subparsers`` returns: each command module adds its parser."""


def add_command(
    sub: Subcommands,
    name: str,
    *,
    description: str | None = None,
    epilog: str | None = None,
    formatter_class: type[argparse.HelpFormatter] = argparse.HelpFormatter,
) -> argparse.ArgumentParser:
    """Register sub-command ``name`` on ``sub`` with its help from :data:`COMMANDS`."""
    return sub.add_parser(
        name,
        help=COMMANDS[name][1],
        description=description,
        epilog=epilog,
        formatter_class=formatter_class,
    )
