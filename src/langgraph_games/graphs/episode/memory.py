"""What each seat saw and said earlier in an episode, read from the trajectory.

Strategies that remember (SPRING's and SmartPlay's earlier observations, the Minesweeper
Agent's previous prompt and answer) get it in the request; the loop reads it from the
trajectory, which is the graph's checkpointed state, so a resumed episode has the same
memory as one that never stopped. :func:`seat_memory` is the rule;
:class:`SeatMemories` applies it incrementally (each step is read once per episode) and
starts over whenever the trajectory is not the one it read (a resume, another episode).
A seat's observations are handed out as :class:`ObservationsSoFar`, a view of the list
they are read into, so that a decision costs the same at the 10,000th step as at the
first (a tuple of them all would be a copy per decision).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

from langgraph_games.players.base import Exchange

__all__ = ["ObservationsSoFar", "SeatMemories", "SeatMemory", "exchange_of", "seat_memory"]


class ObservationsSoFar(Sequence[str]):
    """The first ``length`` items of a list that only grows: a read-only sequence.

    Equal to any sequence (a tuple, a list) of the same strings; a slice is a tuple.

    Example:
        >>> seen = ["a", "b"]
        >>> view = ObservationsSoFar(seen, 2)
        >>> seen.append("c")
        >>> view == ("a", "b"), view[-1], view[-2:], list(view)
        (True, 'b', ('a', 'b'), ['a', 'b'])
    """

    __slots__ = ("_items", "_length")

    def __init__(self, items: list[str], length: int) -> None:
        self._items, self._length = items, length

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[str, ...]: ...

    def __getitem__(self, index: int | slice) -> str | tuple[str, ...]:
        if isinstance(index, slice):
            items = self._items
            return tuple(items[i] for i in range(*index.indices(self._length)))
        if not -self._length <= index < self._length:
            raise IndexError("observation index out of range")
        return self._items[index % self._length]

    def __iter__(self) -> Iterator[str]:
        items = self._items
        return (items[i] for i in range(self._length))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str):
            return NotImplemented
        return len(other) == self._length and all(a == b for a, b in zip(self, other, strict=True))

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return repr(tuple(self))


@dataclass(frozen=True)
class SeatMemory:
    """A seat's memory at a decision point.

    Attributes:
        observations: Its observations at its earlier decision points, oldest first (a
            tuple, or an :class:`ObservationsSoFar` from :class:`SeatMemories`).
        exchange: Its last answer with what it was shown (``None`` before its first).
    """

    observations: Sequence[str] = ()
    exchange: Exchange | None = None


def exchange_of(
    observation: str, attempts: Sequence[Mapping[str, Any]], index: int | None = None
) -> Exchange:
    """The exchange of attempt ``index`` (default: the last) of a decision's attempts.

    The feedback shown with an attempt is the feedback recorded on the attempt before it
    (why that answer was rejected); the answer is the attempt's last raw output.
    """
    at = len(attempts) - 1 if index is None else index
    outputs = attempts[at].get("raw_outputs") or []
    shown = attempts[at - 1].get("feedback") if at > 0 else None
    return Exchange(
        observation=observation, answer=str(outputs[-1]) if outputs else "", feedback=shown
    )


def _seat_entry(step: Mapping[str, Any], seat: str) -> tuple[str, Exchange | None] | None:
    """The seat's observation at ``step`` and its last exchange there, if it acted."""
    observation = (step.get("observations") or {}).get(seat)
    if observation is None:
        return None
    decision = (step.get("decisions") or {}).get(seat)
    attempts = (decision or {}).get("attempts") or []
    return observation, exchange_of(observation, attempts) if attempts else None


def seat_memory(trajectory: Sequence[Mapping[str, Any]], seat: int) -> SeatMemory:
    """The memory of ``seat`` after ``trajectory``: its observations and last exchange.

    Example:
        >>> step = {"observations": {"0": "board"}, "decisions": {"0": {"attempts": [
        ...     {"raw_outputs": ["??"], "feedback": "no move"}, {"raw_outputs": ["r,0,0"]}]}}}
        >>> seat_memory([step], 0)
        SeatMemory(observations=('board',), exchange=Exchange(observation='board', \
answer='r,0,0', feedback='no move'))
    """
    key = str(seat)
    observations: list[str] = []
    exchange: Exchange | None = None
    for step in trajectory:
        entry = _seat_entry(step, key)
        if entry is not None:
            observations.append(entry[0])
            exchange = entry[1] or exchange
    return SeatMemory(tuple(observations), exchange)


@dataclass
class _Read:
    """What has been read of one trajectory: how far, and the seats' memories so far."""

    steps: int = 0
    last: Any = None
    observations: dict[str, list[str]] = field(default_factory=dict)
    exchanges: dict[str, Exchange] = field(default_factory=dict)


class SeatMemories:
    """:func:`seat_memory` for every decision of an episode, reading each step once.

    Keyed by the episode's record key; a trajectory whose read part is not the one read
    before (the same step objects) is read again from the start.
    """

    def __init__(self) -> None:
        self._read: dict[str, _Read] = {}

    def get(self, key: str, trajectory: Sequence[Mapping[str, Any]], seat: int) -> SeatMemory:
        """The memory of ``seat`` after ``trajectory`` (the episode ``key``'s)."""
        read = self._read.get(key)
        if (
            read is None
            or read.steps > len(trajectory)
            or (read.steps and trajectory[read.steps - 1] is not read.last)
        ):
            read = self._read[key] = _Read()
        for step in trajectory[read.steps :]:
            for seat_key in step.get("observations") or {}:
                entry = _seat_entry(step, seat_key)
                if entry is None:
                    continue
                read.observations.setdefault(seat_key, []).append(entry[0])
                if entry[1] is not None:
                    read.exchanges[seat_key] = entry[1]
        if len(trajectory) > read.steps:
            read.steps, read.last = len(trajectory), trajectory[-1]
        name = str(seat)
        seen = read.observations.get(name)
        observations = () if seen is None else ObservationsSoFar(seen, len(seen))
        return SeatMemory(observations, read.exchanges.get(name))

    def drop(self, key: str) -> None:
        """Forget an episode."""
        self._read.pop(key, None)
