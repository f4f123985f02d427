"""The shape of one answer as trajectories and results files keep it (:class:`AttemptEntry`)."""

from __future__ import annotations

from typing import Any

from typing_extensions import NotRequired, TypedDict

__all__ = ["AttemptEntry"]


class AttemptEntry(TypedDict):
    """One attempt of a decision: what :meth:`Decision.to_dict` writes.

    The episode loop adds ``feedback`` (what the player was told) to a rejected attempt.
    """

    action: str | None
    status: str
    raw_outputs: list[str]
    intermediate: dict[str, str]
    scores: list[dict[str, Any]]
    usage: dict[str, float]
    latency_s: float
    info: dict[str, object]
    feedback: NotRequired[str]
