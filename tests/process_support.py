"""Runs of the command line in processes of their own, and the processes they leave.

Each run gets a marker in its environment (``LGG_TEST_RUN``) that every process it
starts inherits (worker processes, the ``multiprocessing`` resource tracker), so a test
finds them all in ``/proc`` after their parent is gone, and kills what is left when it
ends. Waits are on events (a file written, a line printed, a process gone), each with a
deadline generous enough for a loaded two-core machine.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from langgraph_games.eval import ResultsFile

RUNNER = Path(__file__).with_name("cli_runner.py")
TESTS = str(Path(__file__).parent)
DEADLINE_S = float(os.environ.get("LGG_TEST_DEADLINE_S", "240"))
"""The longest wait for an event (start-up under heavy load can take tens of seconds)."""

needs_proc = pytest.mark.skipif(
    not Path("/proc/self/environ").exists(), reason="finds processes through /proc"
)


def wait_until(
    done: Callable[[], bool],
    what: str,
    timeout: float = DEADLINE_S,
    running: subprocess.Popen[str] | None = None,
) -> None:
    """Return once ``done()`` is true; fail naming ``what`` after ``timeout`` s, or as soon
    as ``running`` (the process that should make it true) has ended, with its output."""
    deadline = time.monotonic() + timeout
    while not done():
        if running is not None and running.poll() is not None:
            out, err = running.communicate(timeout=DEADLINE_S)
            raise AssertionError(
                f"the run ended (exit code {running.returncode}) before {what}:\n{out}\n{err}"
            )
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:.0f} s for {what}")
        time.sleep(0.05)


def processes_marked(marker: str) -> list[int]:
    """Pids of the live processes whose environment holds ``LGG_TEST_RUN=<marker>``."""
    found = []
    needle = f"LGG_TEST_RUN={marker}".encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:  # gone meanwhile, or not ours to read
            continue
        if needle in environ.split(b"\0") and state != "Z":  # a zombie has ended
            found.append(int(entry.name))
    return found


def command_line(pid: int) -> str:
    """The command line of process ``pid`` (empty once it has gone)."""
    try:
        return (Path("/proc") / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def records(out: Path) -> list[dict[str, object]]:
    """Every record of the results files in ``out``."""
    return [r for path in sorted(out.glob("*.jsonl")) for r in ResultsFile(path).read().records]


@dataclass
class Runs:
    """Starts runs of the command line for one test; :meth:`cleanup` kills what is left.

    ``with Runs(folder) as runs:`` (or a test module's ``runs`` fixture) cleans up at the
    end, whatever the test did.
    """

    folder: Path
    markers: list[str] = field(default_factory=list)
    started: list[subprocess.Popen[str]] = field(default_factory=list)

    @property
    def gate(self) -> Path:
        """The folder of the models' gate (see ``cli_runner.py``)."""
        path = self.folder / "gate"
        path.mkdir(exist_ok=True)
        return path

    def clear_gate(self) -> None:
        """Forget which processes waited at the gate (for the next run)."""
        for path in self.gate.glob("blocked-*"):
            path.unlink()

    def open_gate(self) -> None:
        """Let every held model call go on."""
        (self.gate / "open").touch()

    def blocked(self, where: str = "worker") -> list[str]:
        """The processes that wait at the gate (``worker`` or ``main``)."""
        return sorted(p.name for p in self.gate.glob(f"blocked-{where}-*"))

    def env(self, marker: str, **extra: str) -> dict[str, str]:
        """The environment of a run marked ``marker``, with ``extra`` variables."""
        env = {**os.environ, "LGG_TEST_RUN": marker, **extra}
        env["PYTHONPATH"] = os.pathsep.join([TESTS, *sys.path])
        env.pop("LANGGRAPH_GAMES_WORKERS", None)  # each run says --workers itself
        return env

    def start(
        self, argv: Sequence[str], *, python: Sequence[str] | None = None, **extra: str
    ) -> tuple[subprocess.Popen[str], str]:
        """Start ``cli_runner.py argv`` (or ``python``) in a session of its own.

        Returns:
            The process (stdout and stderr piped) and its marker.
        """
        marker = uuid.uuid4().hex
        self.markers.append(marker)
        command = [sys.executable, *(python or [str(RUNNER)]), *argv]
        process = subprocess.Popen(
            command,
            cwd=self.folder,
            env=self.env(marker, **extra),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,  # its own process group: Ctrl-C goes to it alone
            preexec_fn=_default_sigint,
        )
        self.started.append(process)
        return process, marker

    def gated(
        self, argv: Sequence[str], out: Path, after: int, **extra: str
    ) -> tuple[subprocess.Popen[str], str]:
        """Start ``argv`` with its model calls held once ``out`` holds ``after`` records."""
        return self.start(
            argv,
            LGG_GATE=str(self.gate),
            LGG_GATE_OUT=str(out),
            LGG_GATE_AFTER=str(after),
            **extra,
        )

    def gone(self, marker: str, timeout: float = DEADLINE_S) -> None:
        """Wait until no process of the run ``marker`` is left (a zombie is gone)."""
        left: list[str] = []

        def none_left() -> bool:
            left[:] = [f"{pid}: {command_line(pid)}" for pid in processes_marked(marker)]
            return not left

        try:
            wait_until(none_left, "the run's processes to end")
        except AssertionError:
            raise AssertionError(f"processes left behind: {left}") from None

    def __enter__(self) -> Runs:
        return self

    def __exit__(self, *exc: object) -> None:
        self.cleanup()

    def cleanup(self) -> None:
        """Kill every process the runs left, by pid (each marked as one of them)."""
        for process in self.started:
            if process.poll() is None:
                process.kill()
        for marker in self.markers:  # first: a worker left would hold the pipes open
            for pid in processes_marked(marker):
                with contextlib.suppress(OSError):  # gone meanwhile
                    os.kill(pid, signal.SIGKILL)
        for process in self.started:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.communicate(timeout=DEADLINE_S)


def dies_with_parent() -> Callable[[], None]:
    """A ``preexec_fn`` that has the child killed when this process ends, even by SIGKILL.

    Linux only (``PR_SET_PDEATHSIG``; elsewhere it does nothing). The signal follows the
    thread that starts the child: start it from the test's own thread. A child whose
    parent is already gone by the time it asks exits at once.
    """
    parent = os.getpid()

    def arm() -> None:
        if sys.platform == "linux":
            import ctypes

            ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
            if os.getppid() != parent:
                os._exit(1)

    return arm


def _default_sigint() -> None:
    """Ctrl-C at its default in the run (a shell's background job starts with it ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def interrupt(process: subprocess.Popen[str]) -> tuple[str, str]:
    """Ctrl-C to the run's process group (as a terminal sends it); its stdout and stderr."""
    os.killpg(process.pid, signal.SIGINT)
    return process.communicate(timeout=DEADLINE_S)


def one_line(stderr: str) -> str:
    """The single line of ``stderr`` (fails on more, or on a traceback)."""
    assert "Traceback" not in stderr, stderr
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    return lines[0]
