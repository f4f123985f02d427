"""Module-level model scripts for the worker tests (pickled by reference into workers)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

_LEGAL = re.compile(r"moves: \[(.*?)\]")
KILL_MARKER = "LGG_TEST_KILL_MARKER"


def first_legal_move(messages: Any) -> str:
    """Answer a GAMEBoT Connect Four prompt with the first legal move listed."""
    legal = re.findall(r"'([^']+)'", _LEGAL.findall(messages[-1].text)[-1])
    return (
        "[Intermediate Thinking Results 1: None]\n[Intermediate Thinking Results 2: None]\n"
        f"Chosen Move: {legal[0]}"
    )


def dies_once(messages: Any) -> str:
    """Kill the calling process the first time any process calls it (a marker file says)."""
    marker = Path(os.environ[KILL_MARKER])
    try:
        marker.open("x").close()
    except FileExistsError:
        return first_legal_move(messages)
    os._exit(9)  # a worker killed mid-episode
