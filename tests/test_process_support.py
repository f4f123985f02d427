"""The tests' own process helpers: a child started with ``dies_with_parent`` goes with it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from process_support import TESTS, wait_until

_MIDDLE = """
import subprocess, sys
sys.path.insert(0, sys.argv[1])
from process_support import dies_with_parent
child = subprocess.Popen(
    [sys.executable, "-c", "import time; time.sleep(600)"], preexec_fn=dies_with_parent()
)
print(child.pid, flush=True)
child.wait()
"""


def _alive(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie awaiting its reaper counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


@pytest.mark.skipif(sys.platform != "linux", reason="PR_SET_PDEATHSIG is Linux's")
def test_a_child_dies_when_its_parent_is_killed() -> None:
    middle = subprocess.Popen(
        [sys.executable, "-c", _MIDDLE, TESTS], stdout=subprocess.PIPE, text=True
    )
    try:
        assert middle.stdout is not None
        child = int(middle.stdout.readline())
        assert _alive(child)
        os.kill(middle.pid, signal.SIGKILL)  # no clean-up code of the parent runs
        middle.wait(timeout=60)
        wait_until(lambda: not _alive(child), "the child to die with its parent", timeout=60)
    finally:
        middle.kill()
        middle.wait(timeout=60)
