"""The ``langgraph-games`` command: one sub-module per sub-command.

Only the sub-command being run is imported (with what it needs): the others are listed
from :data:`~langgraph_games.cli._commands.COMMANDS` by name and help, so the top-level
``--help`` starts without loading LangGraph, LangChain or Chroma.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from langgraph_games import __version__
from langgraph_games.cli._commands import COMMANDS

__all__ = ["build_parser", "main"]


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser with every sub-command registered.

    Args:
        command: Build only this sub-command's options (the others are listed by name
            and help, enough for the top-level help and to refuse them in an argument
            list meant for ``command``); ``None``: build every one.
    """
    parser = argparse.ArgumentParser(
        prog="langgraph-games",
        description="LLM agents that play games, reason about them and learn from them.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (module, help_text) in COMMANDS.items():
        if command is None or name == command:
            importlib.import_module(f"{__name__}.{module}").add_parser(sub)
        else:
            sub.add_parser(name, help=help_text)
    return parser


def _command_in(argv: Sequence[str]) -> str:
    """The sub-command an argument list names: its first word that is not an option."""
    return next((word for word in argv if not word.startswith("-")), "")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the process exit code (2 for bad input)."""
    words = list(sys.argv[1:] if argv is None else argv)
    args = build_parser(_command_in(words)).parse_args(words)
    # What running a command needs is loaded once one is to run (--help needs none of it).
    running = importlib.import_module(f"{__name__}._running")
    code: int = running.run_command(args)
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
