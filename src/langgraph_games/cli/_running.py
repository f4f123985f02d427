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

__all__ = ["run_command"]


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
        print(f"langgraph-games {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # a command without its own word on what it saved
        return interrupted()
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly, as Unix tools do.
        sys.stderr.close()
        return 0
