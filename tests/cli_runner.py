"""The command line in a process of its own, with scripted models that can be held.

``python tests/cli_runner.py ARGS...`` runs ``langgraph-games ARGS...``; the tests of
processes (a kill, Ctrl-C, two runs at once) start it. Worker processes import this
script again (``spawn`` does), so the model patch below holds in them too. Every model
spec loads a :class:`HeldModel`: ``coach`` answers as the Agent-ExpVer coach, any other
spec with the first legal move of a GAMEBoT prompt.

Environment (all optional):

- ``LGG_GATE``: a folder. A model call waits while the folder holds no file ``open`` and
  the results files in ``LGG_GATE_OUT`` hold at least ``LGG_GATE_AFTER`` records (default
  0). A process that waits writes ``blocked-worker-<pid>`` (a worker process: it waits
  with its event loop stuck, as in a long computation) or ``blocked-main-<pid>`` (the
  command's own process: it waits on its event loop, which Ctrl-C can cancel).
- ``LGG_HOLD_START``: with ``LGG_GATE``, a worker process waits while it imports this
  script (its start-up), after writing ``starting-<pid>``, until ``open`` exists.
- ``LGG_FAIL_START``: a worker process fails while it imports this script.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import sys
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import langgraph_games.eval.running.players as eval_players
from expver_support import coach_script
from langgraph_games.cli import main
from langgraph_games.models import ScriptedChatModel
from workers_support import first_legal_move

GATE = os.environ.get("LGG_GATE")


def _in_worker() -> bool:
    return multiprocessing.parent_process() is not None or __name__ == "__mp_main__"


def _records() -> int:
    out = Path(os.environ.get("LGG_GATE_OUT", "."))
    return sum(1 for path in out.glob("*.jsonl") for line in path.read_bytes().splitlines() if line)


def _closed() -> bool:
    if GATE is None or (Path(GATE) / "open").exists():
        return False
    return _records() >= int(os.environ.get("LGG_GATE_AFTER", "0"))


def _mark(name: str) -> None:
    assert GATE is not None
    (Path(GATE) / f"{name}-{os.getpid()}").touch()


async def _wait_at_gate() -> None:
    if not _closed():
        return
    if _in_worker():
        _mark("blocked-worker")
        while _closed():
            time.sleep(0.05)  # the worker's event loop is stuck here
    else:
        _mark("blocked-main")
        while _closed():
            await asyncio.sleep(0.05)


class HeldModel(ScriptedChatModel):
    """A scripted model whose calls wait at the gate (see the module docstring)."""

    async def _agenerate(
        self,
        messages: list[Any],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> Any:
        await _wait_at_gate()
        return await super()._agenerate(messages, stop, run_manager, **kwargs)

    async def _astream(
        self,
        messages: list[Any],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> AsyncIterator[Any]:
        await _wait_at_gate()
        async for chunk in super()._astream(messages, stop, run_manager, **kwargs):
            yield chunk


def _load(spec: str, **settings: Any) -> ScriptedChatModel:
    script = coach_script() if spec.startswith("coach") else first_legal_move
    return HeldModel(script=script, name_=spec)


# Only as the command (``__main__``) or its workers' copy (``__mp_main__``): pytest's
# doctest collection imports this module too, and must leave the tests' models alone.
if __name__ in ("__main__", "__mp_main__"):
    eval_players.load_chat_model = _load  # type: ignore[assignment]

if __name__ == "__mp_main__" and os.environ.get("LGG_FAIL_START"):
    raise RuntimeError("this worker cannot start here")

if __name__ == "__mp_main__" and GATE and os.environ.get("LGG_HOLD_START"):
    _mark("starting")
    while not (Path(GATE) / "open").exists():
        time.sleep(0.05)  # a worker still starting (its imports)


def run(argv: Sequence[str]) -> int:
    """The command line's exit code for ``argv``."""
    return main(list(argv))


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
