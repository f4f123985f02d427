"""Running a parsed command: its endpoint limits, the event loop, the GC, its errors.

An error the user can act on is one line, ``langgraph-games <command>: error: ...``, and
exit code 2: bad input, a results file another run is writing (its process named), a
worker process that could not start (why, and what to change). Ctrl-C is one line and
exit code 130 (:func:`~langgraph_games.cli.interrupted`).

Imported by :func:`langgraph_games.cli.main` once a command is to run, so that ``--help``
loads none of it.
"""

from __future__ import annotations

import argparse
import sys

from pydantic import ValidationError

from langgraph_games.cli import interrupted
from langgraph_games.cli._limits import apply_endpoint_limits
from langgraph_games.eval.running.event_loop import loop_kind
from langgraph_games.eval.running.gc_tuning import steady_gc
from langgraph_games.eval.running.results import ResultsFileBusyError
from langgraph_games.eval.running.workers import WorkerStartError
from langgraph_games.games.errors import GameError
from langgraph_games.memory.errors import MemoryLayerError
from langgraph_games.models.cache import using_cache
from langgraph_games.models.errors import ModelError
from langgraph_games.players.errors import PlayerSpecError

__all__ = ["one_line", "run_command"]


def one_line(exc: Exception, args: argparse.Namespace | None = None) -> str:
    """An error as one line; a pydantic validation error names the option it came from.

    A spec's validation error (e.g. ``ArenaSpec``) reads ``--players: player specs must be
    distinct ...``: each failing field by the command's option of the same name (the field
    name when the command has none), without pydantic's type codes and links.

    Example:
        >>> from pydantic import BaseModel, Field
        >>> class Spec(BaseModel):
        ...     max_steps: int = Field(ge=1)
        >>> try:
        ...     Spec(max_steps=0)
        ... except ValueError as exc:
        ...     print(one_line(exc, argparse.Namespace(max_steps=0)))
        --max-steps: Input should be greater than or equal to 1 (got 0)
    """
    if not isinstance(exc, ValidationError):
        return " ".join(str(exc).split("\n"))
    parts = []
    for error in exc.errors(include_url=False):
        message = str(error["msg"]).removeprefix("Value error, ")
        field = str(error["loc"][0]) if error["loc"] else ""
        if field and args is not None and hasattr(args, field):
            where = "--" + field.replace("_", "-")
        else:
            where = ".".join(str(part) for part in error["loc"])
        got = error.get("input")
        if not message.endswith(str(got)) and isinstance(got, (int, float, str)):
            message += f" (got {got!r})"
        parts.append(f"{where}: {message}" if where else message)
    return "; ".join(parts)


def run_command(args: argparse.Namespace) -> int:
    """Run the command ``args`` names; returns the process exit code (2 for bad input)."""
    try:
        apply_endpoint_limits(args)
        loop_kind()  # a bad event-loop setting is refused before anything runs
        with using_cache(getattr(args, "model_cache", None)), steady_gc():
            return int(args.run(args))
    except (
        GameError,
        PlayerSpecError,
        ModelError,
        MemoryLayerError,
        ValueError,
        ResultsFileBusyError,
        WorkerStartError,
    ) as exc:
        print(f"langgraph-games {args.command}: error: {one_line(exc, args)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # a command without its own word on what it saved
        return interrupted()
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly, as Unix tools do.
        sys.stderr.close()
        return 0
