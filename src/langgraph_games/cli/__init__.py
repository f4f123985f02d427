"""The ``langgraph-games`` command: one sub-module per sub-command.

Only the sub-command being run is imported (with what it needs): the others are listed
from :data:`~langgraph_games.cli._commands.COMMANDS` by name and help, so the top-level
``--help`` starts without loading LangGraph, LangChain or Chroma.

Every command takes ``--config FILE`` (:mod:`~langgraph_games.cli._config`): its options
from a TOML or YAML file, the flags on the command line winning.

Ctrl-C ends any command with one line on stderr and exit code 130, whenever it comes:
:func:`main` catches it from its first statement on, so a Ctrl-C while the command's
modules are still being imported ends the same way as one in the middle of a run (a
command that saves as it goes says so and how to resume, see :func:`interrupted`). Once
a command is ending, further Ctrl-C presses are ignored so that stopping its workers and
closing its files is not cut short. Worker processes never print anything on Ctrl-C:
their parent stops them.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import signal
import sys
import threading
from collections.abc import Sequence

from langgraph_games import __version__
from langgraph_games._processes import REIMPORT_EXIT, reimporting_main
from langgraph_games.cli._commands import COMMANDS
from langgraph_games.cli._config import CONFIG_FLAG, ConfigError, add_config_flag, config_words

__all__ = ["INTERRUPTED_EXIT", "build_parser", "ignore_interrupts", "interrupted", "main"]

INTERRUPTED_EXIT = 130
"""The exit code of a command stopped by Ctrl-C (128 + SIGINT, as shells report it)."""


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
            add_config_flag(sub.choices[name])
        else:
            sub.add_parser(name, help=help_text)
    return parser


def _command_in(argv: Sequence[str]) -> str:
    """The sub-command an argument list names: its first word that is not an option."""
    return next((word for word in argv if not word.startswith("-")), "")


def _with_config(parser: argparse.ArgumentParser, words: list[str], command: str) -> list[str]:
    """``words`` with the options of the command's ``--config FILE`` added (flags win).

    Raises:
        ConfigError: The file cannot be used (see :mod:`~langgraph_games.cli._config`).
    """
    if command not in COMMANDS or command not in words:
        return words
    at = words.index(command) + 1
    finder = argparse.ArgumentParser(add_help=False)
    finder.add_argument(CONFIG_FLAG)
    path = finder.parse_known_args(words[at:])[0].config
    if path is None:
        return words
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return [*words[:at], *config_words(sub.choices[command], words[at:], path, command)]


def ignore_interrupts() -> None:
    """Ignore Ctrl-C from now on: the command is ending (its last words are printed).

    :func:`main` puts the previous handler back when it returns to code that called it
    with an argument list; as the program itself it is about to exit.
    """
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def interrupted(saved: str | None = None) -> int:
    """End a command stopped by Ctrl-C: one line on stderr; returns :data:`INTERRUPTED_EXIT`.

    Args:
        saved: What the command kept, e.g. ``"finished matches are saved"``: the line
            then says so and that the same command resumes. ``None``: just
            ``interrupted``.
    """
    ignore_interrupts()
    line = "interrupted" if saved is None else f"interrupted: {saved}; "
    if saved is not None:
        line += "rerun the same command to resume"
    with contextlib.suppress(OSError, ValueError):  # stderr closed: nothing to tell
        print(line, file=sys.stderr, flush=True)
    return INTERRUPTED_EXIT


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the process exit code (2 for bad input, 130 after Ctrl-C).

    In a worker process that is importing the script that started its parent (a script
    that calls this at import time, with no ``if __name__ == "__main__":`` guard), the
    command is not run again: that worker exits at once and the parent's run says what
    to fix.
    """
    if reimporting_main():
        os._exit(REIMPORT_EXIT)
    handler = signal.getsignal(signal.SIGINT)
    try:
        words = list(sys.argv[1:] if argv is None else argv)
        command = _command_in(words)
        parser = build_parser(command)
        try:
            words = _with_config(parser, words, command)
        except ConfigError as exc:
            print(f"langgraph-games {command}: error: {exc}", file=sys.stderr)
            return 2
        args = parser.parse_args(words)
        # What running a command needs is loaded once one is to run (--help needs none).
        running = importlib.import_module(f"{__name__}._running")
        code: int = running.run_command(args)
        return code
    except KeyboardInterrupt:  # before the command ran (its imports) or past its own handling
        return interrupted()
    finally:
        if argv is not None and threading.current_thread() is threading.main_thread():
            with contextlib.suppress(TypeError, ValueError):
                signal.signal(signal.SIGINT, handler)  # called from code: its handler again


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
