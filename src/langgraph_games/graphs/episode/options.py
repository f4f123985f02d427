"""How an episode runs (:class:`EpisodeOptions`) and the state of its graph (JSON only)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal, TypedDict

from pydantic import BaseModel, ConfigDict, Field

from langgraph_games.graphs.episode.channels import list_channel, record_channel
from langgraph_games.graphs.episode.records import (
    DecisionRecord,
    EpisodeResult,
    SessionRecord,
    Step,
    Turn,
)

__all__ = ["EpisodeOptions", "EpisodeState", "Fallback", "extend_record", "extend_steps"]

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


def extend_steps(steps: list[Step], updates: Sequence[list[Step]]) -> list[Step]:
    """The trajectory ``steps`` followed by the steps of each update, in order.

    Example:
        >>> extend_steps([{"step": 0}], [[{"step": 1}], [], [{"step": 2}]])
        [{'step': 0}, {'step': 1}, {'step': 2}]
    """
    grown = list(steps)
    for update in updates:
        grown += update
    return grown


def extend_record(record: SessionRecord, updates: Sequence[dict[str, Any]]) -> SessionRecord:
    """The session record after ``updates``, in order.

    A whole record replaces it; ``{"actions": [...]}`` (what a ``step`` writes: the moves
    it played) appends those actions.

    Example:
        >>> start = {"game": "tictactoe", "seed": 0, "actions": []}
        >>> extend_record({}, [start, {"actions": ["(1,1)"]}, {"actions": ["(0,0)"]}])
        {'game': 'tictactoe', 'seed': 0, 'actions': ['(1,1)', '(0,0)']}
    """
    for update in updates:
        if "game" in update:
            record = update  # type: ignore[assignment]
        else:
            record = {**record, "actions": [*record["actions"], *update["actions"]]}
    return record


_RECORD = record_channel(extend_record)
_TRAJECTORY = list_channel(extend_steps)


class EpisodeState(TypedDict, total=False):
    """State of the episode graph (JSON only, so checkpoints stay portable).

    ``record`` is the session record (the moves played so far in its ``actions``) and
    ``trajectory`` every step so far; a ``step`` writes only what it added to them (the
    moves it played as ``{"actions": [...]}``, its steps), and a checkpoint saves only
    those writes, so its size does not grow with the episode. Read from a checkpoint
    (``get_state``, a resume), both are rebuilt whole. In a run both grow in place (see
    :mod:`~langgraph_games.graphs.episode.channels`).
    """

    record: Annotated[SessionRecord, _RECORD]
    trajectory: Annotated[list[Step], _TRAJECTORY]
    turn: Turn | None
    decisions: dict[str, DecisionRecord] | None
    forfeit: int | None
    result: EpisodeResult | None
