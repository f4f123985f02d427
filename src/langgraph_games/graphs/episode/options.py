"""How an episode runs (:class:`EpisodeOptions`) and the state of its graph (JSON only)."""

from __future__ import annotations

import operator
from typing import Annotated, Literal, TypedDict

from pydantic import BaseModel, ConfigDict, Field

from langgraph_games.graphs.episode.records import (
    DecisionRecord,
    EpisodeResult,
    SessionRecord,
    Step,
    Turn,
)

__all__ = ["EpisodeOptions", "EpisodeState", "Fallback"]

Fallback = Literal["game", "random", "forfeit"]


class EpisodeOptions(BaseModel):
    """How an episode treats unusable answers and how long it may run.

    Attributes:
        max_retries: Re-asks after an unparsable or illegal answer, before the fallback.
        fallback: ``"game"`` (the source paper's choice for the game), ``"random"`` (a
            random legal move) or ``"forfeit"`` (the player loses the game).
        max_steps: Stop after this many joint moves (``None``: play to the end).
        history: How many recent moves to pass to players as text (0: none).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    max_retries: int = Field(2, ge=0, le=20)
    fallback: Fallback = "game"
    max_steps: int | None = Field(None, ge=1)
    history: int = Field(0, ge=0)


class EpisodeState(TypedDict, total=False):
    """State of the episode graph (JSON only, so checkpoints stay portable)."""

    record: SessionRecord
    trajectory: Annotated[list[Step], operator.add]
    turn: Turn | None
    decisions: dict[str, DecisionRecord] | None
    forfeit: int | None
    result: EpisodeResult | None
