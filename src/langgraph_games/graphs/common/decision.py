"""The decision-graph protocol: how a compiled strategy graph becomes a :class:`Player`.

A *decision graph* is any compiled LangGraph graph whose input has the JSON keys of
:class:`DecisionInput` and whose output has a ``decision`` key holding a
:class:`~langgraph_games.players.base.Decision`. Every strategy factory in ``graphs/``
(``create_gamebot_agent``, ...) returns one, so users can run them on their own (e.g.
behind LangGraph Server) or wrap them with :class:`GraphPlayer` for the episode loop and
the arena. Because the input is JSON (the game id, its options and the state as a dict),
a decision graph can also be checkpointed (:data:`CHECKPOINT_TYPES` names the two types
its output adds for a strict checkpoint serializer).

Live objects travel beside the JSON: :class:`GraphPlayer` passes the request's engine and
state as the run's context (:class:`LiveGame`, LangGraph's ``context=``), so nodes use
them as they are (:func:`live_game`). A graph invoked with the JSON alone (a server, a
checkpoint resume) rebuilds them from the input instead: the engine once per game id and
options in the process, the state once per input.
"""

from __future__ import annotations

import json
import re
import threading
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TypedDict

from langgraph.graph.state import CompiledStateGraph

from langgraph_games._json import JsonObject
from langgraph_games.games.base import Game
from langgraph_games.games.registry import make
from langgraph_games.games.session import GameSession
from langgraph_games.games.state import GameState
from langgraph_games.graphs.common.direct import decide_unwatched
from langgraph_games.players import request_for
from langgraph_games.players.base import (
    Decision,
    DecisionRequest,
    ParseStatus,
    Player,
)

__all__ = [
    "CHECKPOINT_TYPES",
    "DecisionInput",
    "DecisionOutput",
    "ExchangeInput",
    "GraphPlayer",
    "LiveGame",
    "decision_from_dict",
    "engine_of",
    "live_context",
    "live_game",
    "request_to_input",
    "session_input",
    "state_of",
]

CHECKPOINT_TYPES: tuple[tuple[str, str], ...] = (
    (Decision.__module__, Decision.__name__),
    (ParseStatus.__module__, ParseStatus.__name__),
)
"""The types a decision graph's output holds, for a strict checkpoint serializer:
``JsonPlusSerializer(allowed_msgpack_modules=CHECKPOINT_TYPES)``."""


class ExchangeInput(TypedDict):
    """The JSON form of :class:`~langgraph_games.players.base.Exchange`."""

    observation: str
    answer: str
    feedback: str | None


class DecisionInput(TypedDict, total=False):
    """The input of a decision graph (everything JSON).

    ``previous_observations`` are the seat's observations at its earlier decision points
    of the episode (oldest first; a player passes the window its strategy shows) and
    ``previous_exchange`` its last answer with what it was shown (see
    :class:`~langgraph_games.players.base.Exchange`).
    """

    game: str
    options: JsonObject
    state: JsonObject
    player: int
    observation: str
    legal_actions: list[str]
    history: list[str]
    feedback: str | None
    truths: list[str]
    attempt: int
    previous_observations: list[str]
    previous_exchange: ExchangeInput | None


class DecisionOutput(TypedDict):
    """The output of a decision graph: the decision, once."""

    decision: Decision


@dataclass(frozen=True)
class LiveGame:
    """The live engine and state of a decision: a decision graph's runtime context.

    Given as ``context=`` beside the JSON input (as :class:`GraphPlayer` does), it spares
    the graph rebuilding the engine and re-validating the state; it must describe the
    same decision as the input.

    Attributes:
        game: The engine.
        state: The state to decide in.
    """

    game: Game[GameState]
    state: GameState


def request_to_input(request: DecisionRequest, *, observations: int | None = None) -> DecisionInput:
    """The decision-graph input for a player's request.

    Args:
        request: The request.
        observations: How many of the seat's earlier observations to include, the most
            recent ones (``None``: all of them).
    """
    earlier = request.previous_observations
    if observations is not None:
        earlier = earlier[max(0, len(earlier) - observations) :] if observations > 0 else ()
    exchange = request.previous_exchange
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
        "previous_observations": list(earlier),
        "previous_exchange": None
        if exchange is None
        else {
            "observation": exchange.observation,
            "answer": exchange.answer,
            "feedback": exchange.feedback,
        },
    }


def session_input(session: GameSession, player: int | None = None) -> DecisionInput:
    """The decision-graph input of ``player`` (default: the acting one) in ``session`` now.

    The same as ``request_to_input(request_for(session, player))``: the seat's earlier
    observations come from the session's states.

    Example:
        >>> from langgraph_games import GameSession
        >>> data = session_input(GameSession("tictactoe"))
        >>> data["game"], data["player"], len(data["legal_actions"])
        ('tictactoe-v1', 0, 9)
    """
    return request_to_input(request_for(session, player))


@lru_cache(maxsize=256)
def _engine(game_id: str, options_json: str) -> Game[GameState]:
    return make(game_id, **json.loads(options_json))


def engine_of(data: DecisionInput) -> Game[GameState]:
    """The game engine named by a decision-graph input (cached per id and options)."""
    return _engine(data["game"], json.dumps(data.get("options") or {}, sort_keys=True))


# Our decision graphs are compiled with ``checkpointer=False``: a decision is one unit, and
# the episode checkpoints after each step (nested graphs used to write four checkpoints per
# decision into the episode's saver, prompts included). Inside a checkpointed episode such a
# graph inherits ``durability="sync"`` and LangGraph (1.2) then waits on a checkpoint it never
# writes (AttributeError), so GraphPlayer passes ``durability="exit"``; LangGraph warns that
# durability has no effect without a checkpointer, which is the point: that warning is
# silenced, for this message only.
_NO_CHECKPOINT_WARNING = "`durability` has no effect when no checkpointer is present"
warnings.filterwarnings("ignore", message=re.escape(_NO_CHECKPOINT_WARNING), category=UserWarning)


class _ParsedStates:
    """States read from inputs, by the identity of the input's state dict.

    An entry is used only for the very same dict, unchanged since it was read (compared
    with the state's own JSON form), so the nodes of one invocation read its state once.
    """

    def __init__(self, size: int = 64) -> None:
        self._size = size
        self._entries: dict[int, tuple[object, JsonObject, GameState]] = {}
        self._lock = threading.Lock()

    def get(self, game: Game[GameState], raw: Mapping[str, object]) -> GameState:
        with self._lock:
            hit = self._entries.get(id(raw))
        if hit is not None and hit[0] is raw and isinstance(hit[2], game.State) and hit[1] == raw:
            return hit[2]
        state: GameState = game.state_from_dict(raw)
        with self._lock:
            self._entries[id(raw)] = (raw, state.to_dict(), state)
            while len(self._entries) > self._size:
                del self._entries[next(iter(self._entries))]
        return state


_PARSED = _ParsedStates()


def state_of(data: DecisionInput) -> GameState:
    """The game state of a decision-graph input (read and checked once per input)."""
    return _PARSED.get(engine_of(data), data["state"])


def live_context(context: object) -> LiveGame | None:
    """The run's context if it is a :class:`LiveGame`, else ``None``.

    A decision graph invoked with the JSON alone has no context of its own; invoked inside
    a node of another graph, it sees that graph's context (of another kind).
    """
    return context if isinstance(context, LiveGame) else None


def live_game(data: DecisionInput, context: object) -> LiveGame:
    """The engine and state of a decision: the run's context, else rebuilt from the input.

    Nodes call it with ``runtime.context``; a graph invoked with the JSON alone has none.
    """
    live = live_context(context)
    if live is not None:
        return live
    return LiveGame(engine_of(data), state_of(data))


def decision_from_dict(data: Mapping[str, Any]) -> Decision:
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

    The player keeps no per-episode state: what a strategy remembers comes in the request
    (``previous_observations``, ``previous_exchange``), so one instance and one compiled
    graph serve every episode of a run, also at once.

    A single-call strategy graph (GAMEBoT, EvoEmpirBench, Minesweeper Agent) asked inside
    a graph run that nothing watches has its ``decide`` function (the one its node runs)
    called directly, with the same input, config and context, instead of a nested run of
    the graph: same decision, about half a millisecond less per decision (see
    :mod:`langgraph_games.graphs.common.direct`). Traced, streamed or evented runs, and
    runs whose ``configurable`` sets
    :data:`~langgraph_games.graphs.common.direct.NESTED_DECISIONS`, see the graph run.

    Args:
        graph: A compiled decision graph.
        name: Label in results tables.
        description: What :meth:`describe` reports (strategy, model, settings).
        observation_window: How many of the seat's earlier observations the graph's input
            gets (``None``: all; 0, the default, for strategies that use none).
        direct: Whether a single-call graph's ``decide`` function may be called directly
            when nothing watches the run (``False``: always run the graph).
    """

    def __init__(
        self,
        graph: CompiledStateGraph[Any, Any, Any, Any],
        name: str,
        description: Mapping[str, object] | None = None,
        *,
        observation_window: int | None = 0,
        direct: bool = True,
    ) -> None:
        self.graph = graph
        self.name = name
        self.observation_window = observation_window
        self.direct = direct
        self._description = description or {"kind": "graph", "name": name}

    def window_for(self, request: DecisionRequest) -> int | None:
        """How many earlier observations the input of ``request`` gets."""
        return self.observation_window

    def input_for(self, request: DecisionRequest) -> DecisionInput:
        """The graph's JSON input for ``request`` (with this player's observation window)."""
        return request_to_input(request, observations=self.window_for(request))

    async def adecide(self, request: DecisionRequest) -> Decision:
        """Run the graph on the request, with its live engine and state as the context."""
        graph_input = self.input_for(request)
        context = LiveGame(request.game, request.state)
        update = await decide_unwatched(self.graph, graph_input, context) if self.direct else None
        if update is not None:
            decision = update["decision"]
        else:  # "exit": see _NO_CHECKPOINT_WARNING.
            final = await self.graph.ainvoke(graph_input, context=context, durability="exit")
            decision = final["decision"]
        if isinstance(decision, Decision):
            return decision
        return decision_from_dict(decision)  # a graph of one's own that writes the JSON form

    def describe(self) -> dict[str, object]:
        """The description given at construction."""
        return dict(self._description)
