"""The channels behind :mod:`~langgraph_games.graphs.episode.channels` (see there).

They build on LangGraph 1.2's ``DeltaChannel`` and on names LangGraph keeps private
(its missing-value sentinel, its overwrite reader, its snapshot type). Importing this
module fails where a LangGraph release lacks one of them: the episode state then uses
plain reducers instead (:mod:`~langgraph_games.graphs.episode.channels`).

LangGraph saves a delta channel's whole value when its updates since the last such
snapshot reach the channel's ``snapshot_frequency``, or when the supersteps since then
reach a bound of its own for every delta channel (5,000, from the environment). The
channels here answer only to their own frequency: :func:`_install_snapshot_rule` wraps
LangGraph's predicate so that the superstep bound skips them, and leaves every other
channel's answer as it was. Snapshots LangGraph forces (an overwrite, a fork of a
checkpoint that has children) still happen. Where LangGraph's loop lacks the predicate,
nothing is wrapped and its bound applies.
"""

from __future__ import annotations

import copy as _copy
from abc import abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from langgraph._internal._typing import MISSING
from langgraph.channels.base import BaseChannel
from langgraph.channels.binop import _get_overwrite
from langgraph.channels.delta import DeltaChannel
from langgraph.checkpoint.base import ChannelVersions, PendingWrite
from langgraph.checkpoint.serde.types import _DeltaSnapshot
from langgraph.errors import EmptyChannelError
from typing_extensions import Self

__all__ = ["SNAPSHOT_RULE", "GrowingList", "GrowingRecord"]


class _Growing(DeltaChannel[Any]):
    """A delta channel whose value is a fixed head and a list that only grows.

    Subclasses say how an update splits into a new head (or ``None``: append only) and
    the items it appends, how a whole value splits the same way, and how a head and
    items make the value.
    """

    __slots__ = ("head", "items", "length", "shown")

    def __init__(
        self,
        reducer: Callable[[Any, Sequence[Any]], Any],
        typ: type[Any] | None = None,
        *,
        snapshot_frequency: int = 100,
    ) -> None:
        super().__init__(reducer, typ, snapshot_frequency=snapshot_frequency)
        self.head: Any = None
        self.items: list[Any] = []
        self.length = 0
        self.shown: Any = MISSING  # the value as returned while ``items`` is all ours

    # the shape of the value -------------------------------------------------------------
    @abstractmethod
    def _split(self, update: Any) -> tuple[Any, Sequence[Any]]:
        """An update (or a whole value) as its new head (``None``: append only) and items."""

    @abstractmethod
    def _make(self, head: Any, items: list[Any]) -> Any:
        """The value that a head and its items make."""

    # LangGraph's channel protocol -------------------------------------------------------
    def copy(self) -> Self:
        new = self.__class__(self.reducer, self.typ, snapshot_frequency=self.snapshot_frequency)
        new.key = self.key
        new.value = self.value
        new.head, new.items, new.length, new.shown = self.head, self.items, self.length, self.shown
        return new

    def from_checkpoint(self, checkpoint: Any) -> Self:
        new = self.__class__(self.reducer, self.typ, snapshot_frequency=self.snapshot_frequency)
        new.key = self.key
        if isinstance(checkpoint, _DeltaSnapshot):
            checkpoint = checkpoint.value
        if checkpoint is MISSING or checkpoint is None:
            new._set(None, [])
        else:  # a snapshot, or the whole value as a plain channel saved it
            head, items = new._split(checkpoint)
            new._set(head, list(items))
        return new

    def replay_writes(self, writes: Sequence[PendingWrite]) -> None:
        self._grow([value for _, _, value in writes])

    def update(self, values: Sequence[Any]) -> bool:
        if not values:
            return False
        if sum(_get_overwrite(value)[0] for value in values) > 1:
            return super().update(values)  # LangGraph's error for two overwrites
        self._grow(values)
        return True

    def get(self) -> Any:
        if self.value is MISSING:
            raise EmptyChannelError()
        if len(self.items) == self.length:
            if self.shown is MISSING:
                self.shown = self._make(self.head, self.items)
            return self.shown
        return self._make(self.head, self.items[: self.length])

    # growing ---------------------------------------------------------------------------
    def _set(self, head: Any, items: list[Any]) -> None:
        self.head, self.items, self.length, self.shown = head, items, len(items), MISSING
        self.value = True  # available (``DeltaChannel.is_available``)

    def _grow(self, updates: Sequence[Any]) -> None:
        for update in updates:
            overwrite, value = _get_overwrite(update)
            if overwrite:
                head, items = self._split(value) if value is not None else (None, ())
                self._set(head, [*items])
                continue
            head, items = self._split(update)
            if head is not None:  # a whole value replaces this one
                self._set(head, [*items])
            else:
                self._append(items)
        if self.value is MISSING:
            self._set(None, [])

    def _append(self, new: Sequence[Any]) -> None:
        own, count, at = self.items, len(new), self.length
        if len(own) == at:
            own.extend(new)  # the list is all ours: grow it
        elif len(own) < at + count or any(own[at + i] is not new[i] for i in range(count)):
            # another copy grew the shared list with something else: a list of our own
            self.items = [*own[:at], *new]
            self.shown = MISSING
        # else: a copy already appended these very items (the router's fresh read)
        self.length = at + count
        if self.value is MISSING:
            self.value = True


class GrowingList(_Growing):
    """A list channel that only grows (the trajectory): each update is a list to append."""

    __slots__ = ()

    def _split(self, update: Any) -> tuple[Any, Sequence[Any]]:
        return None, update

    def _make(self, head: Any, items: list[Any]) -> Any:
        return items

    def _set(self, head: Any, items: list[Any]) -> None:
        super()._set(None, items)


class GrowingRecord(_Growing):
    """A session record whose ``actions`` only grow.

    An update with a ``game`` is a whole record and replaces the value; any other is
    ``{"actions": [...]}``, appended to its actions.
    """

    __slots__ = ()

    def _split(self, update: Any) -> tuple[Any, Sequence[Any]]:
        if "game" in update:
            head = {key: _copy.copy(value) for key, value in update.items() if key != "actions"}
            return head, update.get("actions") or []
        return None, update["actions"]

    def _make(self, head: Any, items: list[Any]) -> Any:
        if head is None:
            return {}
        return {**head, "actions": items}


def _install_snapshot_rule() -> bool:
    """Make LangGraph's superstep bound skip the growing channels (see the module).

    Returns:
        Whether LangGraph's predicate is wrapped (now or by an earlier call).
    """
    from langgraph.pregel import _checkpoint, _loop

    base = getattr(_loop, "delta_channels_to_snapshot", None)
    if base is None or getattr(_checkpoint, "delta_channels_to_snapshot", None) is None:
        return False
    if getattr(base, "growing_rule", False):
        return True

    def delta_channels_to_snapshot(
        channels: Mapping[str, BaseChannel[Any, Any, Any]],
        counters_since_delta_snapshot: Mapping[str, tuple[int, int]],
        channel_versions: ChannelVersions,
    ) -> set[str]:
        counters = counters_since_delta_snapshot
        due: set[str] = base(channels, counters, channel_versions)
        return {
            name
            for name in due
            if not isinstance(channel := channels[name], _Growing)
            or counters.get(name, (0, 0))[0] >= channel.snapshot_frequency
        }

    delta_channels_to_snapshot.growing_rule = True  # type: ignore[attr-defined]
    _loop.delta_channels_to_snapshot = delta_channels_to_snapshot  # type: ignore[attr-defined]
    _checkpoint.delta_channels_to_snapshot = delta_channels_to_snapshot
    return True


SNAPSHOT_RULE = _install_snapshot_rule()
"""Whether the growing channels are out of LangGraph's superstep bound (see the module)."""
