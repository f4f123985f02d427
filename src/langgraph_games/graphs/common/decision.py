"""The decision-graph protocol: how a compiled strategy graph becomes a :class:`Player`.

A *decision graph* is any compiled LangGraph graph whose input has the JSON keys of
:class:`DecisionInput` and whose output has a ``decision`` key holding a
:class:`~langgraph_games.players.base.Decision` as a dict. Every strategy factory in
``graphs/`` (``create_gamebot_agent``, ...) returns one, so users can run them on their
own (e.g. behind LangGraph Server) or wrap them with :class:`GraphPlayer` for the
episode loop and the arena. Because the input is JSON (the game id, its options and the
state as a dict), a decision graph can also be checkpointed.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, TypedDict

from langgraph.graph.state import CompiledStateGraph

from langgraph_games.games.base import Game
from langgraph_games.games.registry import make
from langgraph_games.games.state import GameState
from langgraph_games.players.base import Decision, DecisionRequest, ParseStatus, Player

__all__ = ["DecisionInput", "GraphPlayer", "decision_from_dict", "engine_of", "state_of"]


class DecisionInput(TypedDict, total=False):
    """The input of a decision graph (everything JSON)."""

    game: str
    options: dict[str, Any]
    state: dict[str, Any]
    player: int
    observation: str
    legal_actions: list[str]
    history: list[str]
    feedback: str | None
    truths: list[str]
    attempt: int


def request_to_input(request: DecisionRequest) -> DecisionInput:
    """The decision-graph input for a player's request."""
    return {
        "game": request.game.versioned_id,
        "options": request.game.options_dict(),
        "state": request.state.to_dict(),
        "player": request.player,
        "observation": request.observation,
        "legal_actions": list(request.legal_actions),
        "history": list(request.history),
        "feedback": request.feedback,
        "truths": list(request.truths),
        "attempt": request.attempt,
    }


@lru_cache(maxsize=256)
def _engine(game_id: str, options_json: str) -> Game[Any]:
    import json

    return make(game_id, **json.loads(options_json))


def engine_of(data: DecisionInput) -> Game[Any]:
    """The game engine named by a decision-graph input (cached per id and options)."""
    import json

    return _engine(data["game"], json.dumps(data.get("options") or {}, sort_keys=True))


def state_of(data: DecisionInput) -> GameState:
    """The game state of a decision-graph input."""
    state: GameState = engine_of(data).state_from_dict(data["state"])
    return state


def decision_from_dict(data: dict[str, Any]) -> Decision:
    """Rebuild a :class:`Decision` from its ``to_dict`` form."""
    return Decision(
        action=data.get("action"),
        status=ParseStatus(data.get("status", ParseStatus.OK.value)),
        raw_outputs=list(data.get("raw_outputs") or []),
        intermediate={int(k): v for k, v in (data.get("intermediate") or {}).items()},
        scores=list(data.get("scores") or []),
        usage=dict(data.get("usage") or {}),
        latency_s=float(data.get("latency_s", 0.0)),
        info=dict(data.get("info") or {}),
    )


class GraphPlayer(Player):
    """Wraps a decision graph as a player for the episode loop and the arena.

    Args:
        graph: A compiled decision graph.
        name: Label in results tables.
        description: What :meth:`describe` reports (strategy, model, settings).
    """

    def __init__(
        self,
        graph: CompiledStateGraph[Any, Any, Any, Any],
        name: str,
        description: dict[str, Any] | None = None,
    ) -> None:
        self.graph = graph
        self.name = name
        self._description = description or {"kind": "graph", "name": name}

    async def adecide(self, request: DecisionRequest) -> Decision:
        """Run the graph on the request and read back its decision."""
        final = await self.graph.ainvoke(request_to_input(request))
        return decision_from_dict(final["decision"])

    def describe(self) -> dict[str, Any]:
        """The description given at construction."""
        return dict(self._description)
