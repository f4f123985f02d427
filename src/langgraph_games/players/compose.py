"""Anything that decides is a player: :func:`as_player` and the small players it makes.

:func:`as_player` takes what a LangGraph or LangChain user already has and returns a
:class:`~langgraph_games.players.base.Player` for the episode loop, arenas, evaluation
runs and leaderboards:

- a :class:`Player` (returned as it is, renamed when ``name`` is given);
- a compiled *decision graph* (input: the JSON of a decision request, output: a
  ``decision``), a question DAG from
  :func:`~langgraph_games.graphs.question_dag.graph.create_question_dag`, or a
  tool-calling agent from ``langchain.agents.create_agent`` built with
  :func:`~langgraph_games.graphs.common.adapters.seat_tools`: the graph's own channels
  say which (see :mod:`langgraph_games.graphs.common.adapters`); a graph that calls
  ``interrupt()`` is found to ask a person from its nodes, with no flag to set;
- a chat model (any LangChain chat model or a wrapped one: ``.bind(...)``,
  ``.with_retry()``, ``.with_fallbacks(...)``, ``init_chat_model(...,
  configurable_fields=...)``): a registered LLM strategy (``gamebot`` unless
  ``strategy`` names another) playing through it;
- a function ``(request) -> action``, async or not, whose result is a
  :class:`Decision`, an action string or ``None`` (no move: the loop re-asks or falls
  back).

Graph adapters live in :mod:`langgraph_games.graphs.common.adapters` and are imported on
first use, so importing the player registry does not load LangGraph.
"""

from __future__ import annotations

import copy
import importlib
import inspect
import json
import time
from collections.abc import Callable
from typing import Any

from langchain_core.language_models import BaseChatModel

from langgraph_games.games.base import Game
from langgraph_games.games.state import GameState
from langgraph_games.models.factory import describe_model
from langgraph_games.players.base import Decision, DecisionRequest, ParseStatus, Player
from langgraph_games.players.errors import PlayerContractError, PlayerSpecError
from langgraph_games.players.registry import make_player, parse_spec, player_entry

__all__ = ["FunctionPlayer", "PlayerLike", "StrategyPlayer", "as_player", "is_chat_model"]

PlayerLike = Any
"""What :func:`as_player` accepts: a player, a compiled graph, a chat model or a function."""

_ADAPTERS = "langgraph_games.graphs.common.adapters"
_ACCEPTED = (
    "a Player, a compiled decision graph (output 'decision'), a question DAG from "
    "create_question_dag, a create_agent tool agent built with seat_tools(game), a chat "
    "model, or a function (request) -> action"
)


def _adapters() -> Any:
    """The graph adapters' module (imported on first use: it loads LangGraph)."""
    return importlib.import_module(_ADAPTERS)


def is_chat_model(obj: object) -> bool:
    """Whether ``obj`` is a chat model, bare or wrapped (bound, retried, fallbacks, configurable).

    Example:
        >>> from langgraph_games.models import ScriptedChatModel
        >>> model = ScriptedChatModel(responses=["x"])
        >>> is_chat_model(model), is_chat_model(model.bind(stop=["y"]).with_retry())
        (True, True)
        >>> is_chat_model(len)
        False
    """
    seen = 0
    while obj is not None and seen < 16:
        if isinstance(obj, BaseChatModel):
            return True
        if type(obj).__name__ == "_ConfigurableModel":  # init_chat_model(configurable_fields=)
            return True
        obj = getattr(obj, "bound", None) or getattr(obj, "runnable", None)
        seen += 1
    return False


def _is_graph(obj: object) -> bool:
    return hasattr(obj, "input_channels") and hasattr(obj, "output_channels")


def as_player(
    obj: PlayerLike,
    *,
    name: str | None = None,
    interactive: bool | None = None,
    strategy: str = "gamebot",
    observation_window: int | None = 0,
) -> Player:
    """Turn anything that decides into a :class:`Player` (see the module docstring).

    Args:
        obj: A player, a compiled graph, a chat model or a function.
        name: The player's name in results files, tables and manifests (default: the
            object's own: a player's ``name``, a graph's name, the strategy and model,
            a function's ``__name__``).
        interactive: Whether the player asks a person; ``None`` (the default) finds it
            out: a graph whose nodes call LangGraph's ``interrupt()`` does.
        strategy: For a chat model: the registered LLM strategy that plays through it
            (a spec without its model part, e.g. ``"gamebot:variant=cot"``).
        observation_window: For a decision graph: how many of the seat's earlier
            observations its input gets (``None``: all).

    Raises:
        TypeError: ``obj`` is none of the accepted kinds (the message lists them).
        PlayerContractError: A graph whose channels fit none of the graph contracts
            (the message names what is missing and what is expected).

    Example:
        >>> import asyncio
        >>> from langgraph_games.games.session import GameSession
        >>> from langgraph_games.players import request_for
        >>> async def first(request):
        ...     return request.legal_actions[0]
        >>> player = as_player(first)
        >>> player.name, asyncio.run(player.adecide(request_for(GameSession("tictactoe")))).action
        ('first', '(0,0)')
    """
    if isinstance(obj, Player):
        player = obj
        if name is not None and name != obj.name:
            player = copy.copy(obj)
            player.name = name
        if interactive is not None:
            player.interactive = interactive
        return player
    if _is_graph(obj):
        made: Player = _adapters().graph_player(
            obj, name=name, interactive=interactive, observation_window=observation_window
        )
        return made
    if is_chat_model(obj):
        return StrategyPlayer(obj, strategy, name=name)
    if callable(obj):
        return FunctionPlayer(obj, name=name, interactive=bool(interactive))
    raise TypeError(
        f"as_player: cannot make a player of {type(obj).__name__}; accepted: {_ACCEPTED}"
    )


class FunctionPlayer(Player):
    """A function ``(request) -> Decision | action | None`` as a player (async or not).

    Args:
        decide: The function.
        name: The name in results (default: the function's ``__name__``).
        interactive: It asks a person through LangGraph's ``interrupt()``.
    """

    def __init__(
        self,
        decide: Callable[[DecisionRequest], Any],
        *,
        name: str | None = None,
        interactive: bool = False,
    ) -> None:
        self.function = decide
        self.name = name or str(getattr(decide, "__name__", None) or type(decide).__name__)
        self.interactive = interactive

    async def adecide(self, request: DecisionRequest) -> Decision:
        """Call the function (awaiting it when it is async) and read its answer."""
        start = time.perf_counter()
        answer = self.function(request)
        if inspect.isawaitable(answer):
            answer = await answer
        return decision_of(answer, self.name, time.perf_counter() - start)

    def describe(self) -> dict[str, object]:
        """Kind and the function's qualified name."""
        function = getattr(self.function, "__qualname__", type(self.function).__name__)
        return {"kind": "function", "function": str(function)}


def decision_of(answer: Any, name: str, latency_s: float = 0.0) -> Decision:
    """A :class:`Decision` from what a player's function returned.

    Raises:
        PlayerContractError: The answer is neither a decision, its dict form, an action
            string nor ``None``.
    """
    if isinstance(answer, Decision):
        return answer
    if answer is None:
        return Decision(action=None, status=ParseStatus.UNPARSABLE, latency_s=latency_s)
    if isinstance(answer, str):
        return Decision(action=answer, latency_s=latency_s)
    if isinstance(answer, dict) and "action" in answer:
        made: Decision = _adapters().decision_from_dict(answer)
        return made
    raise PlayerContractError(
        f"player {name!r} returned {type(answer).__name__} {answer!r:.80}; expected a "
        "Decision, its dict form (with 'action'), an action string or None"
    )


class StrategyPlayer(Player):
    """A registered LLM strategy playing through a given chat model (built once per game).

    Args:
        model: The chat model (bare or wrapped).
        strategy: The strategy's spec without a model part (``gamebot``,
            ``spring:variant=no_dag``).
        name: The name in results (default: ``<strategy>:<provider>:<model name>``).

    Raises:
        PlayerSpecError: ``strategy`` is not a registered LLM strategy.
    """

    def __init__(self, model: Any, strategy: str = "gamebot", *, name: str | None = None) -> None:
        parsed = parse_spec(strategy)
        if not player_entry(parsed.name).needs_model or parsed.model is not None:
            raise PlayerSpecError(
                f"strategy {strategy!r} must name a registered LLM strategy without a model "
                "(e.g. 'gamebot' or 'spring:variant=no_dag'): the model is the one given"
            )
        self.model = model
        self.strategy = strategy
        described = describe_model(model)
        identity = described.get("model_name") or described["kind"]
        self.name = name or f"{strategy}:{described['provider']}:{identity}"
        self._players: dict[str, Player] = {}

    def for_game(self, game: Game[GameState]) -> Player:
        """The strategy's player for ``game`` (built on first use)."""
        key = f"{game.versioned_id}|{json.dumps(game.options_dict(), sort_keys=True, default=repr)}"
        player = self._players.get(key)
        if player is None:
            player = self._players[key] = make_player(self.strategy, game, model=self.model)
        return player

    async def adecide(self, request: DecisionRequest) -> Decision:
        """The strategy's decision for ``request``."""
        return await self.for_game(request.game).adecide(request)

    def describe(self) -> dict[str, object]:
        """The strategy and the model."""
        return {"kind": "strategy", "strategy": self.strategy, "model": describe_model(self.model)}

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_players"] = {}  # built again where it is unpickled
        return state
