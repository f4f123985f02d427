"""The episode state's growing values: checkpointed as their writes, grown in place.

An episode's trajectory and its record's actions only grow. As LangGraph's
``DeltaChannel`` (a beta API of LangGraph 1.2), a checkpoint saves a step's writes (the
steps and moves it added), not the whole value again, and reading a checkpoint rebuilds the
value from the writes of its ancestors. LangGraph still snapshots a delta channel's whole
value every 5,000 supersteps (``LANGGRAPH_DELTA_MAX_SUPERSTEPS_SINCE_SNAPSHOT``), which
bounds the writes a resume replays; ``snapshot_frequency`` (every so many updates) is set
beyond any episode's length. Each such snapshot holds the whole trajectory, so past 5,000
steps the bytes per step grow again (twice as many at 10,000 steps). Setting that variable
above the episode's length, before LangGraph is imported, keeps them flat: reading a
checkpoint (a resume) then replays every write since the episode's start, about a second
for 10,000 steps.

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
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["GROWING", "GrowingList", "GrowingRecord", "list_channel", "record_channel"]

try:
    from langgraph_games.graphs.episode._growing import GrowingList, GrowingRecord
except ImportError:  # pragma: no cover - a LangGraph without what the channels build on
    GROWING = False
else:
    GROWING = True

_NEVER = 1 << 62
"""A delta channel snapshots its whole value every ``snapshot_frequency`` updates: never
within an episode here (LangGraph's own bound of 5,000 supersteps still applies)."""


def list_channel(reduce: Callable[[list[Any], Sequence[list[Any]]], list[Any]]) -> Any:
    """The trajectory's channel: a :class:`GrowingList`, else ``list + list``.

    Args:
        reduce: Folds a step's updates into the list (the channel's reducer).
    """
    if GROWING:
        return GrowingList(reduce, snapshot_frequency=_NEVER)
    return operator.add


def record_channel(reduce: Callable[[Any, Sequence[Any]], Any]) -> Any:
    """The session record's channel: a :class:`GrowingRecord`, else ``reduce`` per write.

    Args:
        reduce: Folds updates (a whole record, or ``{"actions": [...]}``) into a record.
    """
    if GROWING:
        return GrowingRecord(reduce, snapshot_frequency=_NEVER)

    def one(record: Any, update: Any) -> Any:
        return reduce(record or {}, [update])

    return one
