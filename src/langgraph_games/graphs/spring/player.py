"""SPRING as a player: its question DAG behind the decision-graph protocol.

``create_spring_decision_graph(model, game)`` compiles a decision graph (see
:mod:`langgraph_games.graphs.common.decision`)::

    reason -> decide -> END

- ``reason`` runs SPRING's question DAG (:func:`~langgraph_games.graphs.spring.graph.
  create_spring_agent`, any variant of the paper's Table 3) as a subgraph on the
  observation, the seat's earlier observations given in ``previous_observations`` (oldest
  first; the last ``history_window - 1`` are shown), the legal actions and the step
  number. For a game whose manual depends on the episode (the SmartPlay games) the default
  context is the manual of the input's state, so every episode is played with its own
  manual. Truths from memory are appended to the context;
  a rejected earlier answer's feedback is appended to the observation.
- ``decide`` turns the DAG's output into a :class:`~langgraph_games.players.base.Decision`:
  the action; status ``ok``, or ``fallback`` when the final answer named no action and
  SPRING's default action ("Do") was taken (``info["defaulted"]``), or ``unparsable`` when
  there is no default for this game (the episode loop's fallback then applies); every
  answer (``raw_outputs``, in the DAG's topological order, the final answer last;
  ``info["trace"]`` names the node of each, with its level, calls, tokens and latency);
  usage (model calls, retried attempts included, and tokens) and latency.

:class:`SpringPlayer` wraps that graph for the episode loop, the arena and the eval runner.
It keeps no memory: the episode loop fills each request with the seat's earlier
observations (from the trajectory, so a resumed episode has them too) and the player
passes the last ``history_window - 1``, so SPRING sees the last two observations as in the
paper. One player serves every episode of a run, also at once.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Mapping
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime

from langgraph_games.games.base import Game
from langgraph_games.games.registry import make
from langgraph_games.games.state import GameState
from langgraph_games.graphs.common.async_node import async_node
from langgraph_games.graphs.common.decision import (
    DecisionInput,
    DecisionOutput,
    GraphPlayer,
    LiveGame,
    live_context,
    live_game,
)
from langgraph_games.graphs.question_dag.graph import Execution, QuestionDagInput
from langgraph_games.graphs.spring.graph import (
    SpringVariant,
    context_per_episode,
    context_source,
    create_spring_agent,
    spring_context,
    spring_questions,
)
from langgraph_games.memory.hooks import format_truths
from langgraph_games.models.factory import describe_model
from langgraph_games.players.base import Decision, ParseStatus

__all__ = [
    "SpringDecisionState",
    "SpringPlayer",
    "create_spring_decision_graph",
    "spring_player",
]


class SpringDecisionState(DecisionInput, total=False):
    """Decision input plus the DAG's output and the decision."""

    dag: dict[str, Any]
    latency_s: float
    context_sha256: str
    decision: Decision


def _digest(text: str) -> str:
    """A short fingerprint of a context (recorded with each decision)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _game_default(engine: Game[GameState], key: str, fallback: Any) -> Any:
    """An option of the game (Crafter's ``default_action``, ``parse_rule``), if it has one."""
    return getattr(engine.options, key, fallback)


def create_spring_decision_graph(
    model: BaseChatModel,
    game: Game[GameState] | str,
    context: str | None = None,
    *,
    variant: SpringVariant | str = SpringVariant.FULL,
    history_window: int = 2,
    default_action: str | None = None,
    action_rule: str | None = None,
    execution: Execution = "levelled",
    call_attempts: int = 3,
    retry_delay_s: float = 0.5,
    single_system_message: bool = False,
    name: str | None = None,
) -> CompiledStateGraph[SpringDecisionState, LiveGame, DecisionInput, DecisionOutput]:
    r"""Compile SPRING (or one of its ablations) as a decision graph for ``game``.

    Args:
        model: Any LangChain chat model.
        game: The game (engine or id).
        context: The game knowledge C (e.g. a studied document); default: the game's
            manual (per episode for the SmartPlay games). The ``actions`` variant keeps
            only its studied actions answer; ``no_context`` ignores it.
        variant: One of :class:`~langgraph_games.graphs.spring.graph.SpringVariant`.
        history_window: Observations shown, the current one included (SPRING: 2).
        default_action: The action when the final answer names none; default: the game's
            ``default_action`` option if it has one (Crafter: "Do"), else "Do".
        action_rule: How the final answer maps to an action; default: the game's
            ``parse_rule`` option if it has one, else SPRING's ``list_order``.
        execution: ``levelled`` (questions of a level at once) or ``sequential``.
        call_attempts: Attempts per model call on transient failures, with backoff.
        retry_delay_s: First backoff delay; it doubles after each failed attempt.
        single_system_message: Join the system messages into one.
        name: The compiled graph's name.

    Returns:
        A decision graph: input :class:`~langgraph_games.graphs.common.decision.DecisionInput`
        (``previous_observations``: the seat's earlier observations, oldest first), output
        ``{"decision": Decision}``.

    Raises:
        DagError: An invalid option.

    Example:
        >>> import asyncio
        >>> from langgraph_games import GameSession
        >>> from langgraph_games.graphs.common.decision import session_input
        >>> from langgraph_games.models import ScriptedChatModel
        >>> graph = create_spring_decision_graph(
        ...     ScriptedChatModel(responses=["I cannot tell."]), "crafter", variant="action_only"
        ... )
        >>> session = GameSession("crafter", seed=1)
        >>> decision = asyncio.run(graph.ainvoke(session_input(session)))["decision"]
        >>> decision.action, decision.status.value, decision.info["defaulted"]
        ('Do', 'fallback', True)
    """
    engine = make(game) if isinstance(game, str) else game
    variant = SpringVariant(variant)
    knowledge = spring_context(engine, context, variant)
    default = (
        default_action
        if default_action is not None
        else str(_game_default(engine, "default_action", "Do"))
    )
    rule = action_rule or str(_game_default(engine, "parse_rule", "list_order"))
    dag = create_spring_agent(
        model,
        engine,
        context,
        variant=variant,
        action_rule=rule,
        default_action=default,
        execution=execution,
        history_window=history_window,
        single_system_message=single_system_message,
        call_attempts=call_attempts,
        retry_delay_s=retry_delay_s,
    )
    window = history_window
    per_episode = context_per_episode(engine, context, variant)

    def knowledge_for(state: SpringDecisionState, given: object) -> str:
        """C for this decision: the manual of the input's episode where it varies."""
        live = live_context(given)
        if per_episode and (live is not None or (state.get("state") and state.get("game"))):
            live = live_game(state, live)
            return spring_context(live.game, context, variant, state=live.state)
        return knowledge

    async def reason(
        state: SpringDecisionState, config: RunnableConfig, runtime: Runtime[LiveGame]
    ) -> SpringDecisionState:
        observation = state["observation"]
        if state.get("feedback"):
            observation = f"{observation}\n\n{state['feedback']}"
        earlier = list(state.get("previous_observations") or [])
        turn = (state.get("state") or {}).get("turn", 0)
        dag_input: QuestionDagInput = {
            "observation": observation,
            "recent_observations": earlier[-(window - 1) :] if window > 1 else [],
            "legal_actions": list(state.get("legal_actions") or []),
            "step": int(turn) if isinstance(turn, int | float) else 0,
        }
        used = knowledge_for(state, runtime.context)
        truths = list(state.get("truths") or [])
        if truths:
            used = f"{used}\n\n{format_truths(truths)}".strip()
        if per_episode or truths:
            dag_input["context"] = used
        started = time.perf_counter()
        out = await dag.ainvoke(dag_input, config)
        return {
            "dag": dict(out),
            "latency_s": time.perf_counter() - started,
            "context_sha256": _digest(used),
        }

    async def decide(state: SpringDecisionState) -> DecisionOutput:
        out = state.get("dag") or {}
        action = out.get("action")
        defaulted = bool(out.get("defaulted"))
        answers = dict(out.get("answers") or {})
        final = str(answers.get("qa", ""))
        info: dict[str, object] = {
            "strategy": "spring",
            "variant": variant.value,
            "context_sha256": state.get("context_sha256"),
            "defaulted": defaulted,
            "trace": [
                {
                    "node": item["node"],
                    "level": item["level"],
                    "calls": item.get("calls", 1),
                    "latency_s": item["latency_s"],
                    **item["usage"],
                }
                for item in out.get("trace") or []
            ],
        }
        unread = out.get("problem")  # the final answer was too long to read
        why = unread or f"the final answer ({final[:80]!r}) names no action"
        if not defaulted:
            status = ParseStatus.OK
        elif action is not None:
            status = ParseStatus.FALLBACK
            info["problem"] = f"{why}; SPRING's default action {action!r} was taken"
        else:
            status = ParseStatus.UNPARSABLE
            info["problem"] = unread or (
                f"the final answer ({final[:80]!r}) names none of the legal actions"
            )
        usage = {"calls": int(out.get("calls", 0)), **dict(out.get("usage") or {})}
        decision = Decision(
            action=action,
            status=status,
            raw_outputs=list(out.get("raw_outputs") or []),
            usage=usage,
            latency_s=float(state.get("latency_s", 0.0)),
            info=info,
        )
        return {"decision": decision}

    builder = StateGraph(
        SpringDecisionState,
        context_schema=LiveGame,
        input_schema=DecisionInput,
        output_schema=DecisionOutput,
    )
    # Async nodes that sync ``invoke`` runs too (async_node passes config and runtime).
    builder.add_node("reason", async_node(reason, name="reason"))
    builder.add_node("decide", async_node(decide, name="decide"))
    builder.add_edge(START, "reason")
    builder.add_edge("reason", "decide")
    builder.add_edge("decide", END)
    label = "spring" if variant is SpringVariant.FULL else f"spring:variant={variant.value}"
    return builder.compile(checkpointer=False, name=name or f"{label}_decision")


class SpringPlayer(GraphPlayer):
    """A SPRING decision graph as a player: the last observations come with each request.

    The input gets the last ``history_window - 1`` of the request's
    ``previous_observations`` (the seat's observations at its earlier decision points,
    which the episode loop fills from the trajectory; the loop's own move history,
    ``EpisodeOptions.history``, is not what SPRING reads). A retry at the same decision
    point sees the same earlier observations. The player keeps no state, so one instance
    serves any number of episodes and seats at once.

    Args:
        graph: A decision graph from :func:`create_spring_decision_graph`.
        name: Label in results tables.
        description: What :meth:`describe` reports.
        history_window: Observations shown, the current one included.
    """

    def __init__(
        self,
        graph: CompiledStateGraph[Any, Any, Any, Any],
        name: str,
        description: Mapping[str, object] | None = None,
        history_window: int = 2,
    ) -> None:
        super().__init__(graph, name, description, observation_window=max(0, history_window - 1))
        self.history_window = history_window


def spring_player(
    model: BaseChatModel,
    game: Game[GameState] | str,
    *,
    variant: SpringVariant | str = SpringVariant.FULL,
    context: str | None = None,
    name: str | None = None,
    history_window: int = 2,
    **settings: Any,
) -> SpringPlayer:
    """A :class:`SpringPlayer` for ``game`` (extra keywords go to the decision graph).

    Example:
        >>> from langgraph_games.models import ScriptedChatModel
        >>> player = spring_player(ScriptedChatModel(responses=["Do"]), "crafter",
        ...                        variant="no_dag")
        >>> player.name, player.describe()["questions"]
        ('spring:variant=no_dag', 9)
    """
    engine = make(game) if isinstance(game, str) else game
    variant = SpringVariant(variant)
    graph = create_spring_decision_graph(
        model, engine, context, variant=variant, history_window=history_window, **settings
    )
    knowledge = spring_context(engine, context, variant)
    label = "spring" if variant is SpringVariant.FULL else f"spring:variant={variant.value}"
    questions, _ = spring_questions(variant)
    per_episode = context_per_episode(engine, context, variant)
    description = {
        "kind": "spring",
        "variant": variant.value,
        "questions": len(questions),
        "model": describe_model(model),
        "context": "default" if context is None else "given",
        "context_source": context_source(engine, context, variant),
        # A manual that changes per episode has no single size or hash (each decision
        # records the hash of the context it used).
        "context_chars": None if per_episode else len(knowledge),
        "context_sha256": None if per_episode else _digest(knowledge),
        "history_window": history_window,
    }
    return SpringPlayer(graph, name or label, description, history_window=history_window)
