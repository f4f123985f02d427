"""The player contract shared by search players and LLM strategy graphs.

A player receives a :class:`DecisionRequest` (what an acting seat knows at a decision
point) and returns a :class:`Decision` (the action plus everything needed to score and
replay how it was reached). Search players read the structured ``state``; LLM players read
the ``observation`` text and may use ``feedback`` from a rejected answer, ``truths`` from
memory, and what the seat saw and said earlier in the episode (``previous_observations``,
``previous_exchange``), which the episode loop fills from the trajectory: a player keeps
no per-episode state, so one instance serves any number of episodes at once.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from langgraph_games.games.base import Game
from langgraph_games.games.state import GameState
from langgraph_games.players.records import AttemptEntry

__all__ = ["Decision", "DecisionRequest", "Exchange", "ParseStatus", "Player", "SearchPlayer"]


class ParseStatus(str, Enum):
    """How the action of a decision was obtained."""

    OK = "ok"  # a legal action was read from the answer
    UNPARSABLE = "unparsable"  # no action could be read
    ILLEGAL = "illegal"  # an action was read but it is not legal
    AMBIGUOUS = "ambiguous"  # the answer names two or more different actions
    FALLBACK = "fallback"  # the game's fallback chose the action
    ERROR = "error"  # the model call failed


@dataclass(frozen=True)
class Exchange:
    """A seat's previous exchange with its player in this episode: what it was shown, what it said.

    The episode loop fills :attr:`DecisionRequest.previous_exchange` with the last answer
    the seat gave (an earlier attempt at this decision point when the loop asks again,
    else the last attempt of the seat's previous decision), so strategies that remember
    their last prompt and answer (the Minesweeper Agent's +Memory) need no state.

    Attributes:
        observation: The observation the seat was shown.
        answer: The player's answer: its last raw output (empty when it had none).
        feedback: The loop's feedback shown with that observation (why the answer before
            it was rejected), if any.
    """

    observation: str
    answer: str
    feedback: str | None = None


@dataclass(frozen=True)
class DecisionRequest:
    """What a player is given at a decision point.

    Attributes:
        game: The engine (pure rules).
        state: The current structured state.
        player: The seat that must act.
        observation: The seat's text view of the state.
        legal_actions: The seat's legal canonical actions.
        history: Earlier observations or moves, most recent last (strategy-specific).
        feedback: Why the previous answer at this decision point was rejected, if it was.
        truths: Lessons from memory to put in the prompt.
        attempt: 0 for the first ask at this decision point, 1 for the first retry, ...
        previous_observations: The seat's observations at its earlier decision points in
            this episode, oldest first (a strategy's window applies when it builds its input).
        previous_exchange: The seat's last exchange with its player in this episode.
    """

    game: Game[GameState]
    state: GameState
    player: int
    observation: str
    legal_actions: tuple[str, ...]
    history: tuple[str, ...] = ()
    feedback: str | None = None
    truths: tuple[str, ...] = ()
    attempt: int = 0
    previous_observations: Sequence[str] = ()
    previous_exchange: Exchange | None = None

    @property
    def game_id(self) -> str:
        """The versioned id of the game."""
        return self.game.versioned_id


@dataclass
class Decision:
    """A player's answer at a decision point.

    Attributes:
        action: The chosen canonical action, or ``None`` when none could be read.
        status: How the action was obtained.
        raw_outputs: Every model output produced for this decision, in order.
        intermediate: Parsed intermediate answers by subproblem index (raw text).
        scores: Per-subproblem scores against ground truth (JSON form).
        usage: Token counts, e.g. ``{"input_tokens": 120, "output_tokens": 30}``.
        latency_s: Wall time spent deciding.
        info: Anything else worth keeping in the trajectory (search nodes, reasoning...).
    """

    action: str | None
    status: ParseStatus = ParseStatus.OK
    raw_outputs: list[str] = field(default_factory=list)
    intermediate: dict[int, str] = field(default_factory=dict)
    scores: list[dict[str, Any]] = field(default_factory=list)
    usage: dict[str, float] = field(default_factory=dict)
    latency_s: float = 0.0
    info: dict[str, object] = field(default_factory=dict)

    def to_dict(self) -> AttemptEntry:
        """JSON-friendly form for trajectories and results files."""
        return {
            "action": self.action,
            "status": self.status.value,
            "raw_outputs": list(self.raw_outputs),
            "intermediate": {str(k): v for k, v in self.intermediate.items()},
            "scores": list(self.scores),
            "usage": dict(self.usage),
            "latency_s": self.latency_s,
            "info": dict(self.info),
        }


class Player(ABC):
    """Anything that decides moves: a search algorithm or an LLM strategy.

    LLM strategies implement the async :meth:`adecide`; :class:`SearchPlayer` is the
    base of synchronous, CPU-bound players.

    Attributes:
        name: A short label used in results tables.
        interactive: The player asks a person (through a LangGraph ``interrupt``): the
            episode loop asks such seats before the others and runs with a checkpointer.
        instant: The player's decision is a local computation (no model, no person, no
            graph of its own) that gives the same answer when asked again about the same
            state. The episode loop plays a move whose acting seats are all instant in
            the step before, instead of in a step of its own (see
            :func:`~langgraph_games.graphs.episode.graph.create_episode_graph`). The
            builtin search players set it; a subclass keeps ``False`` unless it says so.
    """

    name: str = "player"
    interactive: bool = False
    instant: bool = False

    @abstractmethod
    async def adecide(self, request: DecisionRequest) -> Decision:
        """Choose an action for ``request``."""

    def decide(self, request: DecisionRequest) -> Decision:
        """Synchronous form of :meth:`adecide` (not for use inside a running event loop)."""
        return asyncio.run(self.adecide(request))

    @abstractmethod
    def describe(self) -> dict[str, object]:
        """A JSON-friendly description (kind and settings) for run records."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.describe()})"


class SearchPlayer(Player):
    """A player that computes its move synchronously (no model calls)."""

    @abstractmethod
    def decide(self, request: DecisionRequest) -> Decision:
        """Choose an action for ``request``."""

    async def adecide(self, request: DecisionRequest) -> Decision:
        """Run :meth:`decide` inline: search is CPU-bound and needs no event loop."""
        return self.decide(request)
