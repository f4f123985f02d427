"""Graphs of one's own as players: decision graphs, question DAGs and tool-calling agents.

:func:`graph_player` (what :func:`~langgraph_games.players.compose.as_player` calls for a
compiled graph) reads the graph's channels to choose an adapter:

- output ``decision``: a *decision graph* (:class:`DecisionGraphPlayer`): its input is the
  JSON of the request (:class:`~langgraph_games.graphs.common.decision.DecisionInput`),
  the live engine and state are its runtime context;
- output ``action`` and ``defaulted``: a question DAG from
  :func:`~langgraph_games.graphs.question_dag.graph.create_question_dag`
  (:class:`QuestionDagPlayer`);
- a ``messages`` channel: a tool-calling agent such as ``langchain.agents.create_agent``
  built with :func:`seat_tools` (:class:`ToolAgentPlayer`).

Every adapter counts the model calls made anywhere inside the graph through a callback
(:class:`~langgraph_games.models.usage.UsageRecorder`), so a node of one's own needs to
report nothing by hand: a decision whose ``usage`` is empty gets the counted calls and
tokens. A graph whose nodes call LangGraph's ``interrupt()`` asks a person
(:func:`asks_person`): its player is interactive, so the episode loop asks it first and
runs with a checkpointer. A graph that breaks its contract (reads a key its input does not
have, returns no decision) raises
:class:`~langgraph_games.players.errors.PlayerContractError` naming the key, the node and
what was expected.
"""

from __future__ import annotations

import contextvars
import functools
import inspect
import time
import types
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.runnables.config import var_child_runnable_config
from langchain_core.tools import BaseTool, StructuredTool, ToolException

from langgraph_games.games.base import Game
from langgraph_games.games.move_schema import MoveArgumentsError
from langgraph_games.games.state import GameState
from langgraph_games.graphs.common.async_node import run_blocking
from langgraph_games.graphs.common.decision import (
    DecisionInput,
    GraphPlayer,
    LiveGame,
    decision_from_dict,
)
from langgraph_games.models.messages import clip_reply, reply_text
from langgraph_games.models.usage import UsageRecorder, with_handler
from langgraph_games.players.base import Decision, DecisionRequest, ParseStatus, Player
from langgraph_games.players.errors import PlayerContractError
from langgraph_games.tools.moves import move_schema

__all__ = [
    "DAG_OBSERVATIONS",
    "DecisionGraphPlayer",
    "QuestionDagPlayer",
    "ToolAgentPlayer",
    "asks_person",
    "graph_player",
    "seat_tools",
]

DAG_OBSERVATIONS = 32
"""Earlier observations a question DAG's input gets at most (its ``history_window`` picks)."""

_INPUT_KEYS = ", ".join(DecisionInput.__annotations__)
_LIBRARIES = ("langgraph.", "langchain", "langgraph_games.", "pydantic")


def _code_objects(code: types.CodeType) -> Iterator[types.CodeType]:
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _code_objects(const)


def _calls_interrupt(function: Any, depth: int = 0) -> bool:
    """Whether ``function`` (or a helper of one's own it calls) names ``interrupt``."""
    while isinstance(function, functools.partial):
        function = function.func
    function = inspect.unwrap(getattr(function, "__func__", function))
    code = getattr(function, "__code__", None)
    if code is None or depth > 2:
        return False
    names = {name for co in _code_objects(code) for name in co.co_names}
    if "interrupt" in names:
        return True
    scope = dict(getattr(function, "__globals__", {}))
    for cell in getattr(function, "__closure__", None) or ():
        try:
            value = cell.cell_contents
        except ValueError:  # an empty cell
            continue
        scope[getattr(value, "__name__", "")] = value
    for name in names:
        helper = scope.get(name)
        own = inspect.isfunction(helper) and not str(helper.__module__).startswith(_LIBRARIES)
        if own and _calls_interrupt(helper, depth + 1):
            return True
    return False


def _runnable_asks(runnable: Any, depth: int = 0) -> bool:
    if depth > 4 or runnable is None:
        return False
    if hasattr(runnable, "nodes") and hasattr(runnable, "output_channels"):  # a subgraph
        return asks_person(runnable)
    steps = getattr(runnable, "steps", None)  # a RunnableSequence
    if isinstance(steps, list):
        return any(_runnable_asks(step, depth + 1) for step in steps)
    functions = [getattr(runnable, attr, None) for attr in ("func", "afunc")]
    if any(f is not None and _calls_interrupt(f) for f in functions):
        return True
    return _runnable_asks(getattr(runnable, "bound", None), depth + 1)


def asks_person(graph: Any) -> bool:
    """Whether a compiled graph asks a person: one of its nodes calls ``interrupt()``.

    The nodes' code is read (and the helpers of one's own they call, two calls deep, and
    subgraphs), or the graph is compiled to stop before or after a node.
    """
    if getattr(graph, "interrupt_before_nodes", None) or getattr(
        graph, "interrupt_after_nodes", None
    ):
        return True
    nodes: Mapping[str, Any] = getattr(graph, "nodes", {}) or {}
    return any(_runnable_asks(getattr(node, "bound", None)) for node in nodes.values())


def _end_nodes(graph: Any) -> list[str]:
    try:
        edges = graph.get_graph().edges
    except Exception:  # noqa: BLE001 - only used to word an error message
        return []
    return sorted({edge.source for edge in edges if edge.target == "__end__"})


def _task_of(exc: BaseException) -> str | None:
    for note in getattr(exc, "__notes__", None) or ():
        if note.startswith("During task with name '"):
            return str(note.split("'")[1])
    return None


def _contract_error(exc: KeyError, name: str, expected: str, asks: bool) -> PlayerContractError:
    key = exc.args[0] if exc.args else "?"
    node = _task_of(exc)
    where = f"node {node!r} of " if node else ""
    if key == "configurable" and not asks:
        return PlayerContractError(
            f"{where}player {name!r} failed with KeyError('configurable'), which LangGraph "
            "raises when a graph calls interrupt() outside a checkpointed run; if it asks "
            "a person, give as_player(graph, interactive=True)"
        )
    return PlayerContractError(
        f"{where}player {name!r} raised KeyError {key!r}: a key its state does not have; "
        f"the input it is given has: {expected}"
    )


def _config_with(recorder: UsageRecorder, **extra: Any) -> RunnableConfig:
    """The running node's config (if any) with ``recorder`` added to its callbacks."""
    config = with_handler(var_child_runnable_config.get(), recorder)
    config.update(extra)  # type: ignore[typeddict-item]
    return config


def _counted(decision: Decision, recorder: UsageRecorder) -> Decision:
    if not decision.usage and recorder.records:
        totals = recorder.totals()
        decision.usage = {
            key: int(totals[key])
            for key in ("calls", "input_tokens", "output_tokens", "total_tokens")
            if key in totals
        }
    return decision


class DecisionGraphPlayer(GraphPlayer):
    """A decision graph of one's own as a player: contract checked, model calls counted.

    Args:
        graph: A compiled graph whose output has ``decision`` (a :class:`Decision` or
            its dict form).
        name: The name in results.
        interactive: Whether it asks a person (``None``: :func:`asks_person`).
        observation_window: How many earlier observations its input gets.
    """

    def __init__(
        self,
        graph: Any,
        name: str,
        *,
        interactive: bool | None = None,
        observation_window: int | None = 0,
    ) -> None:
        super().__init__(
            graph,
            name,
            {"kind": "decision_graph", "graph": str(getattr(graph, "name", "graph"))},
            observation_window=observation_window,
            direct=False,
        )
        self.interactive = asks_person(graph) if interactive is None else interactive

    async def adecide(self, request: DecisionRequest) -> Decision:
        """Run the graph on the request's JSON, with the live game as its context."""
        recorder = UsageRecorder()
        config = _config_with(recorder)
        try:  # "exit": see decision._NO_CHECKPOINT_WARNING
            final = await self.graph.ainvoke(
                self.input_for(request),
                config,
                context=LiveGame(request.game, request.state),
                durability="exit",
            )
        except KeyError as exc:
            raise _contract_error(exc, self.name, _INPUT_KEYS, self.interactive) from exc
        decision = final.get("decision") if isinstance(final, Mapping) else None
        if isinstance(decision, Mapping):
            decision = decision_from_dict(decision)
        if not isinstance(decision, Decision):
            got = sorted(final) if isinstance(final, Mapping) else type(final).__name__
            ends = ", ".join(repr(n) for n in _end_nodes(self.graph)) or "its last node"
            raise PlayerContractError(
                f"decision graph {self.name!r} returned no 'decision' (its output: {got}); "
                f"expected {ends} to return {{'decision': Decision(action=...)}} or its dict "
                "form with an 'action'"
            )
        return _counted(decision, recorder)

    def decide(self, request: DecisionRequest) -> Decision:
        """Synchronous form of :meth:`adecide` (runs where an event loop already runs too)."""
        return run_blocking(lambda: self.adecide(request))


class QuestionDagPlayer(Player):
    """A question DAG (:func:`create_question_dag`) as a player.

    Each decision asks the DAG with the observation, the seat's recent observations (at
    most :data:`DAG_OBSERVATIONS`; the DAG's ``history_window`` shows its own share), the
    legal actions and the step. A final answer that names no action gives ``None`` (the
    loop re-asks or falls back), or the DAG's ``default_action`` marked ``fallback``.

    Args:
        dag: The compiled DAG.
        name: The name in results.
        interactive: Whether it asks a person (``None``: :func:`asks_person`).
    """

    def __init__(self, dag: Any, name: str, *, interactive: bool | None = None) -> None:
        self.dag = dag
        self.name = name
        self.interactive = asks_person(dag) if interactive is None else interactive

    async def adecide(self, request: DecisionRequest) -> Decision:
        """Ask the DAG; its answers, trace and counted calls go into the decision."""
        earlier = list(request.previous_observations[-DAG_OBSERVATIONS:])
        recorder = UsageRecorder()
        start = time.perf_counter()
        try:
            out = await self.dag.ainvoke(
                {
                    "observation": request.observation,
                    "recent_observations": earlier,
                    "legal_actions": list(request.legal_actions),
                    "step": request.state.turn,
                },
                _config_with(recorder),
            )
        except KeyError as exc:
            expected = "observation, recent_observations, legal_actions, step, context"
            raise _contract_error(exc, self.name, expected, self.interactive) from exc
        if not isinstance(out, Mapping) or "action" not in out:
            got = sorted(out) if isinstance(out, Mapping) else type(out).__name__
            raise PlayerContractError(
                f"question DAG {self.name!r} returned no 'action' (its output: {got}); "
                "expected the output of create_question_dag"
            )
        action = out.get("action")
        if out.get("defaulted"):
            status = ParseStatus.FALLBACK if action is not None else ParseStatus.UNPARSABLE
        else:
            status = ParseStatus.OK
        usage = dict(out.get("usage") or {})
        if "calls" in out:
            usage["calls"] = int(out["calls"])
        decision = Decision(
            action=action,
            status=status,
            raw_outputs=list(out.get("raw_outputs") or []),
            usage=usage,
            latency_s=time.perf_counter() - start,
            info={"answers": dict(out.get("answers") or {})},
        )
        return _counted(decision, recorder)

    def describe(self) -> dict[str, object]:
        """Kind and the DAG's name."""
        return {"kind": "question_dag", "graph": str(getattr(self.dag, "name", "graph"))}


@dataclass
class _Seat:
    """The decision a tool agent is making now: what :func:`seat_tools` act on."""

    request: DecisionRequest
    typed: bool
    moved: str | None = None
    tries: list[str] = field(default_factory=list)


_SEAT: contextvars.ContextVar[_Seat | None] = contextvars.ContextVar("seat", default=None)

_OUTSIDE = (
    "These tools play through a player: wrap the agent with as_player(agent) and play it "
    "with run_episode, an arena or an evaluation run"
)


def _current() -> _Seat:
    seat = _SEAT.get()
    if seat is None:
        raise ToolException(_OUTSIDE)
    return seat


def _legal_text(request: DecisionRequest) -> str:
    return "Legal moves: " + ", ".join(request.legal_actions)


def _make_move(**args: Any) -> str:
    seat = _current()
    request = seat.request
    if seat.moved is not None:
        return f"You already played {seat.moved}; your turn is over. Stop calling tools."
    schema = move_schema(request.game, seat.typed, request.state)
    try:
        action = schema.read(request.game, request.state, request.player, args)
    except MoveArgumentsError as exc:
        seat.tries.append(repr(args))
        message = f"The move arguments are malformed ({exc}). {_legal_text(request)}"
        raise ToolException(message) from exc
    seat.tries.append(action)
    if not request.game.is_legal(request.state, request.player, action):
        raise ToolException(f"Illegal move {action!r}. {_legal_text(request)}. Choose one.")
    seat.moved = action
    return f"You played {action}. Your turn is over: answer briefly and call no more tools."


def seat_tools(game: Game[GameState], *, typed: bool = True) -> list[BaseTool]:
    """The game tools of an agent that plays as a player: observe, legal_moves, make_move.

    Build the agent with them (``create_agent(model, seat_tools(game))``) and wrap it with
    :func:`~langgraph_games.players.compose.as_player`: at each decision the player gives
    them that decision's position (through a context variable, so one agent serves many
    episodes at once), and the move the agent makes is the player's action. The move's
    arguments are the game's typed ones (:mod:`~langgraph_games.tools.moves`), as
    :func:`~langgraph_games.tools.create_game_tools` gives them; an illegal or malformed
    move comes back as a tool error listing the legal moves.

    Args:
        game: The game (its move schema names the tool's arguments).
        typed: Typed move arguments (``False``: ``action: str``).
    """
    schema = move_schema(game, typed, game.initial_state(0))

    def observe() -> str:
        request = _current().request
        return f"{request.observation}\n\nIt is your turn (seat {request.player})."

    def legal_moves() -> str:
        return _legal_text(_current().request)

    common: dict[str, Any] = {"handle_tool_error": True}
    return [
        StructuredTool.from_function(
            observe, name="observe", description=f"See the {game.name} game now.", **common
        ),
        StructuredTool.from_function(
            legal_moves, name="legal_moves", description="List your legal moves now.", **common
        ),
        StructuredTool.from_function(
            _make_move,
            name="make_move",
            description=f"{game.name}: {schema.description}",
            args_schema=schema.tool_schema(),
            **common,
        ),
    ]


class ToolAgentPlayer(Player):
    """A tool-calling agent (``create_agent`` with :func:`seat_tools`) as a player.

    Each decision starts a fresh conversation: the observation, the legal moves and (after
    a rejected answer) the feedback, asking for one move through ``make_move``. The move
    made is the action; an agent that ends without one gives ``None`` (the loop re-asks
    with feedback, or falls back).

    Args:
        agent: The compiled agent (a graph with a ``messages`` channel).
        name: The name in results.
        typed: Whether its ``seat_tools`` were made typed.
        recursion_limit: The agent's step bound per decision.
        interactive: Whether it asks a person (``None``: :func:`asks_person`).
    """

    def __init__(
        self,
        agent: Any,
        name: str,
        *,
        typed: bool = True,
        recursion_limit: int = 40,
        interactive: bool | None = None,
    ) -> None:
        self.agent = agent
        self.name = name
        self.typed = typed
        self.recursion_limit = recursion_limit
        self.interactive = asks_person(agent) if interactive is None else interactive

    def prompt(self, request: DecisionRequest) -> str:
        """The decision's message to the agent."""
        parts = [
            request.observation,
            f"It is your turn (seat {request.player}).",
            _legal_text(request),
        ]
        if request.feedback:
            parts.append(f"Your previous answer was rejected: {request.feedback}")
        parts.append("Make exactly one move with the make_move tool.")
        return "\n\n".join(parts)

    async def adecide(self, request: DecisionRequest) -> Decision:
        """Run the agent for one move."""
        seat = _Seat(request, self.typed)
        recorder = UsageRecorder()
        token = _SEAT.set(seat)
        start = time.perf_counter()
        try:
            out = await self.agent.ainvoke(
                {"messages": [HumanMessage(self.prompt(request))]},
                _config_with(recorder, recursion_limit=self.recursion_limit),
            )
        except KeyError as exc:
            raise _contract_error(exc, self.name, "messages", self.interactive) from exc
        finally:
            _SEAT.reset(token)
        messages: list[BaseMessage] = (
            list(out.get("messages") or []) if isinstance(out, Mapping) else []
        )
        raw = [clip_reply(_ai_text(m)) for m in messages if isinstance(m, AIMessage)]
        if seat.moved is None:
            status = ParseStatus.ILLEGAL if seat.tries else ParseStatus.UNPARSABLE
        else:
            status = ParseStatus.OK
        decision = Decision(
            action=seat.moved,
            status=status,
            raw_outputs=raw,
            latency_s=time.perf_counter() - start,
            info={"tried": list(seat.tries)},
        )
        return _counted(decision, recorder)

    def describe(self) -> dict[str, object]:
        """Kind and the agent's name."""
        return {"kind": "tool_agent", "graph": str(getattr(self.agent, "name", "agent"))}


def _ai_text(message: AIMessage) -> str:
    calls = [f"{c['name']}({c['args']})" for c in message.tool_calls]
    text = reply_text(message)
    return "\n".join([text, *calls]) if calls else text


def graph_player(
    graph: Any,
    *,
    name: str | None = None,
    interactive: bool | None = None,
    observation_window: int | None = 0,
) -> Player:
    """The player of a compiled graph, chosen by its channels (see the module docstring).

    Raises:
        PlayerContractError: The graph's output fits none of the contracts.
    """
    label = name or str(getattr(graph, "name", None) or "graph")
    ends = ", ".join(repr(n) for n in _end_nodes(graph)) or "its last node"
    outputs = graph.output_channels
    outputs = [outputs] if isinstance(outputs, str) else list(outputs)
    channels = set(getattr(graph, "channels", {}) or {}) | set(outputs)
    if "decision" in outputs:
        return DecisionGraphPlayer(
            graph, label, interactive=interactive, observation_window=observation_window
        )
    if "action" in outputs and "defaulted" in outputs:
        return QuestionDagPlayer(graph, label, interactive=interactive)
    if "messages" in channels:
        return ToolAgentPlayer(graph, label, interactive=interactive)
    raise PlayerContractError(
        f"graph {label!r} has no 'decision' in its output {sorted(outputs)}: a decision "
        f"graph's {ends} must return {{'decision': Decision(action=...)}} (a question DAG "
        "outputs 'action' and 'defaulted', a tool agent has 'messages')"
    )
