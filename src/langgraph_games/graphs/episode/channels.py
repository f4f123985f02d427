"""The episode state's growing values: checkpointed as their writes, grown in place.

An episode's trajectory and its record's actions only grow. As LangGraph's
``DeltaChannel`` (a beta API of LangGraph 1.2), a checkpoint saves a step's writes (the
steps and moves it added), not the whole value again, and reading a checkpoint rebuilds the
value from the writes of its ancestors. Checkpoint bytes per step stay the same however
long the episode: the channels never save their whole value on their own (LangGraph's bound
of 5,000 supersteps between whole-value snapshots of a delta channel skips them, see
``_growing.py``), only where LangGraph must (a fork of a checkpoint that has children). A
resume then replays every write since the episode's start: about a second for 10,000
steps, once per resume. To bound that replay instead, set
``LANGGRAPH_GAMES_SNAPSHOT_STEPS`` to N before this module is imported: the channels then
save their whole value every N steps (each such checkpoint holds the whole trajectory, so
bytes per step grow again with the episode).

In memory, the channels here grow their list in place instead of building a new one per
step (a reducer's ``state + update`` copies the whole list twice a step: once for the
router's fresh read, once for the real update). Copies of a channel share the list; each
knows how many items are its own (``length``). An item is never replaced, only appended, so
every copy's view stays what it was: a copy that appends what another already appended
(the same objects) takes them over, and one that appends something else starts a list of
its own. The list a channel returns grows with it: read it as the episode's value *now*
(``ainvoke``'s result, ``get_state``), and copy a value streamed with ``stream_mode=
"values"`` to keep it. With a checkpointer, run the episode graph with ``durability="sync"``
(as :func:`~langgraph_games.graphs.episode.run.run_episode` does) or ``"exit"``: with
``"async"``, a snapshot saved after the next step has begun could hold that step's items.

Those channels build on LangGraph 1.2's ``DeltaChannel`` and on names LangGraph keeps
private (``_growing.py``). Where an installed LangGraph lacks one of them, the state uses
plain reducers with the same writes and the same values (:data:`GROWING` is then
``False``): every checkpoint then holds the whole trajectory again, as before the
channels, and nothing else changes.
"""

from __future__ import annotations

import operator
import os
from collections.abc import Callable, Sequence
from typing import Any

__all__ = [
    "GROWING",
    "SNAPSHOT_STEPS",
    "GrowingList",
    "GrowingRecord",
    "list_channel",
    "record_channel",
]

try:
    from langgraph_games.graphs.episode._growing import GrowingList, GrowingRecord
except ImportError:  # pragma: no cover - a LangGraph without what the channels build on
    GROWING = False
else:
    GROWING = True

_NEVER = 1 << 62

SNAPSHOT_ENV = "LANGGRAPH_GAMES_SNAPSHOT_STEPS"


def _snapshot_steps(given: str | None) -> int | None:
    """``LANGGRAPH_GAMES_SNAPSHOT_STEPS`` read: a whole number of steps, or unset."""
    if given is None or not given.strip():
        return None
    try:
        steps = int(given.strip())
    except ValueError:
        steps = 0
    if steps < 1:
        raise ValueError(
            f"{SNAPSHOT_ENV} must be a whole number of steps of at least 1 (or unset: "
            f"never), got {given!r}"
        )
    return steps


SNAPSHOT_STEPS: int | None = _snapshot_steps(os.environ.get(SNAPSHOT_ENV))
"""Every how many steps the channels save their whole value (``None``: never)."""


def list_channel(reduce: Callable[[list[Any], Sequence[list[Any]]], list[Any]]) -> Any:
    """The trajectory's channel: a :class:`GrowingList`, else ``list + list``.

    Args:
        reduce: Folds a step's updates into the list (the channel's reducer).
    """
    if GROWING:
        return GrowingList(reduce, snapshot_frequency=SNAPSHOT_STEPS or _NEVER)
    return operator.add


def record_channel(reduce: Callable[[Any, Sequence[Any]], Any]) -> Any:
    """The session record's channel: a :class:`GrowingRecord`, else ``reduce`` per write.

    Args:
        reduce: Folds updates (a whole record, or ``{"actions": [...]}``) into a record.
    """
    if GROWING:
        return GrowingRecord(reduce, snapshot_frequency=SNAPSHOT_STEPS or _NEVER)

    def one(record: Any, update: Any) -> Any:
        return reduce(record or {}, [update])

    return one
