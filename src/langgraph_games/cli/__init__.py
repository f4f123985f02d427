"""The ``langgraph-games`` command: one sub-module per sub-command."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from langgraph_games import __version__
from langgraph_games.cli import (
    arena_cmd,
    eval_cmd,
    games_cmd,
    leaderboard_cmd,
    mcp_cmd,
    play_cmd,
    replay_cmd,
    report_cmd,
    serve_cmd,
    smartplay_cmd,
    study_cmd,
    train_cmd,
)
from langgraph_games.cli._options import apply_endpoint_limits
from langgraph_games.eval.running.event_loop import loop_kind
from langgraph_games.eval.running.gc_tuning import steady_gc
from langgraph_games.games.errors import GameError
from langgraph_games.memory.errors import MemoryLayerError
from langgraph_games.models.errors import ModelError
from langgraph_games.players.errors import PlayerSpecError

__all__ = ["build_parser", "main"]

COMMANDS = (
    games_cmd,
    play_cmd,
    arena_cmd,
    eval_cmd,
    train_cmd,
    smartplay_cmd,
    study_cmd,
    report_cmd,
    leaderboard_cmd,
    replay_cmd,
    serve_cmd,
    mcp_cmd,
)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every sub-command registered."""
    parser = argparse.ArgumentParser(
        prog="langgraph-games",
        description="LLM agents that play games, reason about them and learn from them.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the process exit code (2 for bad input)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        apply_endpoint_limits(args)
        loop_kind()  # a bad event-loop setting is refused before anything runs
        with steady_gc():
            return int(args.run(args))
    except (GameError, PlayerSpecError, ModelError, MemoryLayerError, ValueError) as exc:
        print(f"langgraph-games {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly, as Unix tools do.
        sys.stderr.close()
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
