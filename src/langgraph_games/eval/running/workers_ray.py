"""Worker slots on a Ray cluster (``--executor ray``): the Ray backend of a run.

Each slot is one long-lived Ray actor, an *async* actor: its methods run on the actor's own
event loop, so the episodes it is given play at once, as in a worker process. An actor keeps
a :class:`~langgraph_games.eval.running.workers.SlotPlayer` (the slot's models, loaded once
per process, and its built players) across all of its episodes. That is why the slots are
actors and not one Ray task per episode: a task would have to load the embedded model (or
build the players and compile their graphs) again per episode, or hide them in a worker's
globals with no say in which process runs what; an actor pins one process per slot, which
also makes an endpoint's split bound per slot hold, as with worker processes.

An episode is one actor call; its record comes back as the call's result and the parent
takes results as they finish (``ray.wait``), so the one writer stays in the parent. The
decisions' usage comes back with the record (the decisions bar moves per episode, not per
decision: a message per decision would cost a round trip through Ray's object store). An
actor that dies (its process killed, its node lost) fails every call it had: the slot is
reported lost and a fresh actor takes its place; calls of the dead actor are then ignored.

Where: ``ray_address`` (``--ray-address``), else the ``RAY_ADDRESS`` environment variable,
else a local cluster started by ``ray.init()`` and shut down at the end of the run. A process
that has already called ``ray.init()`` is used as it is (and left running). Each actor asks
for ``min(1, CPUs / slots)`` CPUs, so every slot fits on the cluster.

Ray is optional (the ``ray`` extra): without it, asking for this backend is a clear error.
It is imported when a run asks for this backend, not with this module: importing Ray takes
about half a second, which every command and every worker process paid before.
"""

from __future__ import annotations

import importlib.util
import os
from typing import Any

from langgraph_games.eval.running.gc_tuning import tune_worker_process
from langgraph_games.eval.running.records import PlayedRecord
from langgraph_games.eval.running.workers import (
    Event,
    Finished,
    Lost,
    Setup,
    SlotPlayer,
    Task,
)

__all__ = ["RAY_MISSING", "RayBackend", "SlotActor", "have_ray"]

RAY_MISSING = (
    "--executor ray needs Ray, which is not installed: pip install -e '.[ray]' in a source checkout"
)


def have_ray() -> bool:
    """Whether Ray can be imported here (without importing it)."""
    return importlib.util.find_spec("ray") is not None


def _ray() -> Any:
    """The ``ray`` module, imported on first use.

    Raises:
        ValueError: Ray is not installed.
    """
    if not have_ray():
        raise ValueError(RAY_MISSING)
    import ray  # the optional extra, imported only by a run that uses it

    return ray


class SlotActor:
    """A slot's worker on Ray (made a Ray actor class by :class:`RayBackend`)."""

    def __init__(self, number: int, setup: Setup) -> None:
        self.player = SlotPlayer(number, setup)
        tune_worker_process()

    async def play(self, task: Task) -> tuple[int, PlayedRecord, list[dict[str, float]]]:
        """Play ``task``: its index, record and the usage of each decision."""
        usages: list[dict[str, float]] = []
        record = await self.player.play(task, usages.append)
        return task.index, record, usages

    def pid(self) -> int:
        """The actor's process id (tests kill it)."""
        return os.getpid()


class RayBackend:
    """Ray actors, one per slot (see the module docstring)."""

    def __init__(self, address: str | None = None) -> None:
        self.ray = _ray()
        self.address = address or os.environ.get("RAY_ADDRESS") or None
        self.owned = False
        self.actors: dict[int, Any] = {}
        self.generation: dict[int, int] = {}
        self.calls: dict[Any, tuple[int, int]] = {}

    def connect(self) -> None:
        """Join the cluster (or start a local one) unless this process already has."""
        if not self.ray.is_initialized():
            try:
                self.ray.init(address=self.address, include_dashboard=False, log_to_driver=False)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                where = self.address or "a local cluster"
                raise ValueError(
                    f"--executor ray: cannot join the Ray cluster at {where} ({_first_line(exc)}); "
                    "give the head's address with --ray-address or RAY_ADDRESS"
                ) from exc
            self.owned = True

    def cores(self) -> int:
        """The cluster's CPUs."""
        self.connect()
        return max(1, int(self.ray.cluster_resources().get("CPU", 1)))

    def start(self, slot: int, setup: Setup) -> None:
        """Start an actor for ``slot`` (the old one, if any, is killed and forgotten)."""
        self.connect()
        if slot in self.actors:
            self.ray.kill(self.actors[slot], no_restart=True)
        cpus = min(1.0, self.cores() / setup.slots)
        actor_class = self.ray.remote(num_cpus=cpus, max_restarts=0)(SlotActor)
        self.actors[slot] = actor_class.remote(slot, setup)
        self.generation[slot] = self.generation.get(slot, 0) + 1

    def send(self, slot: int, task: Task) -> None:
        """Call the slot's actor with ``task``."""
        call = self.actors[slot].play.remote(task)
        self.calls[call] = (slot, self.generation[slot])

    def events(self, timeout: float) -> list[Event]:
        """The calls finished (up to ``timeout`` s for the first); a failed one loses its slot."""
        if not self.calls:
            return []
        ready, rest = self.ray.wait(list(self.calls), num_returns=1, timeout=timeout)
        if ready and rest:
            ready += self.ray.wait(rest, num_returns=len(rest), timeout=0)[0]
        found: list[Event] = []
        for call in ready:
            slot, generation = self.calls.pop(call, (-1, -1))
            if generation != self.generation.get(slot):
                continue  # a call of an actor already reported lost
            try:
                index, record, usages = self.ray.get(call)
            except (
                self.ray.exceptions.RayActorError,
                self.ray.exceptions.WorkerCrashedError,
            ) as exc:
                why = f"{type(exc).__name__}: {_first_line(exc)}"
                found.append(Lost(slot, f"the Ray actor of slot {slot} died ({why})"))
                self.generation[slot] = -generation  # its other calls fail too: ignore them
                continue
            found.append(Finished(slot, index, record, usages))
        return found

    def close(self, *, at_once: bool) -> None:
        """Kill the actors (their calls are done or abandoned); end a cluster started here."""
        if not self.ray.is_initialized():
            return
        for actor in self.actors.values():
            self.ray.kill(actor, no_restart=True)
        self.actors.clear()
        self.calls.clear()
        if self.owned:
            self.ray.shutdown()
            self.owned = False


def _first_line(exc: BaseException) -> str:
    """The first non-empty line of ``exc``'s message, at most 200 characters."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return (lines[0] if lines else type(exc).__name__)[:200]
