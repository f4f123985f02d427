"""A directed acyclic graph of questions, compiled to a LangGraph ``StateGraph``.

This is SPRING's reasoning module in general form. Every question is a node that asks the
model once per decision; an edge ``u -> v`` means v's prompt carries u's question and answer.
For each node the model is sent, in order:

1. a system message with the role (``"You are playing the game ..."``);
2. a system message with the context (a game manual, a studied paper; plus the list of
   actions unless ``list_actions=False``), left out when there is neither;
3. a system message with the most recent observations (two by default, oldest first);
4. for each parent, in the order the edges list them: the parent's question (human) and
   its answer (assistant);
5. the node's own question (human).

Nodes of one topological level (the length of the longest path from a root) run
concurrently: LangGraph runs a superstep per level and a node waits for all its parents.
``execution="sequential"`` asks one question at a time instead, as SPRING's notebook did.
The final question's answer is mapped to an action by :func:`~langgraph_games.games.
matching.match_action` (SPRING's list-order rule by default); an answer that names no
action gives ``default_action`` and ``defaulted=True``.

Input (``QuestionDagInput``): ``observation`` (required), ``recent_observations`` (earlier
observations, oldest first), ``legal_actions``, ``step`` (the current step number, used to
label the observations) and ``context`` (overrides the builder's). Output
(``QuestionDagOutput``): ``action``, ``defaulted``, ``answers`` (node -> answer),
``raw_outputs`` and ``trace`` (in the DAG's topological order), ``usage`` (summed token
counts) and ``calls`` (model calls, retried attempts included).

Question nodes are async only. LangGraph refuses an ``async def`` node under the sync API
(``invoke``/``stream``), so each is wrapped by
:func:`~langgraph_games.graphs.common.async_node.async_node`, which runs the same coroutine
on a private event loop when the graph is run synchronously: one implementation, and
``invoke`` keeps working (at the cost of an event loop per node; prefer ``ainvoke``).

Every call goes through :func:`~langgraph_games.models.retry.ainvoke_with_retry`
(transient failures retried with backoff, ``call_attempts`` in all) and is counted by a
:class:`~langgraph_games.models.usage.UsageRecorder` added to the node's callbacks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypedDict

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from langgraph_games.games.matching import ActionRule, match_action
from langgraph_games.graphs.common.async_node import AsyncNode, async_node
from langgraph_games.graphs.common.llm import (
    add_usage,
    merge_dicts,
    reply_text,
)
from langgraph_games.graphs.question_dag.plan import (
    CHOOSE_ACTION,
    DagError,
    DagPlan,
    plan_question_dag,
)
from langgraph_games.models.messages import clip_reply, reply_too_long
from langgraph_games.models.usage import ainvoke_measured

__all__ = [
    "CHOOSE_ACTION",
    "DagError",
    "DagPlan",
    "Execution",
    "QuestionDagInput",
    "QuestionDagOutput",
    "QuestionDagState",
    "QuestionRecord",
    "create_question_dag",
    "plan_question_dag",
]

Execution = Literal["levelled", "sequential"]


class QuestionDagInput(TypedDict, total=False):
    """What a caller passes for one decision."""

    observation: str
    recent_observations: list[str]
    legal_actions: list[str]
    step: int | None
    context: str | None


class QuestionRecord(TypedDict):
    """One question's turn in a decision (an item of ``trace``)."""

    node: str
    question: str
    parents: list[str]
    level: int
    answer: str
    usage: dict[str, float]
    calls: float
    latency_s: float


class QuestionDagOutput(TypedDict, total=False):
    """What a decision returns."""

    action: str | None
    defaulted: bool
    problem: str | None
    answers: dict[str, str]
    raw_outputs: list[str]
    trace: list[QuestionRecord]
    usage: dict[str, float]
    calls: int


class QuestionDagState(QuestionDagInput, QuestionDagOutput, total=False):
    """The graph's state: the input, what the question nodes wrote, and the result."""

    # Written by question nodes, several at once within a level.
    answers_so_far: Annotated[dict[str, str], merge_dicts]
    records: Annotated[dict[str, QuestionRecord], merge_dicts]


@dataclass(frozen=True)
class _Prompting:
    role: str
    context: str
    actions: tuple[str, ...]
    list_actions: bool
    history_window: int
    single_system_message: bool
    call_attempts: int = 3
    retry_delay_s: float = 0.5


def _check_input(state: Mapping[str, object]) -> None:
    observation = state.get("observation")
    if not isinstance(observation, str):
        raise DagError(
            f"the input needs 'observation' as text, got {type(observation).__name__}; "
            "pass {'observation': ..., 'recent_observations': [...], 'legal_actions': [...]}"
        )
    recent = state.get("recent_observations") or []
    if not isinstance(recent, (list, tuple)) or not all(isinstance(o, str) for o in recent):
        raise DagError("'recent_observations' must be a list of texts, oldest first")
    legal = state.get("legal_actions") or []
    if not isinstance(legal, (list, tuple)) or not all(isinstance(a, str) for a in legal):
        raise DagError("'legal_actions' must be a list of action strings")


def _ordered_actions(builder: Sequence[str], legal: Sequence[str] | None) -> list[str]:
    """The builder's order restricted to the legal actions, then any others as given."""
    if not legal:
        return list(builder)
    allowed = set(legal)
    ordered = [a for a in builder if a in allowed]
    seen = set(ordered)
    return ordered + [a for a in legal if a not in seen]


def _observation_block(state: QuestionDagState, window: int) -> str:
    current = state["observation"]
    earlier = list(state.get("recent_observations") or [])[-(window - 1) :] if window > 1 else []
    step = state.get("step")
    shown = [*earlier, current]
    if len(shown) == 1:
        label = f"Observation at step {step}" if isinstance(step, int) else "Current observation"
        return f"{label}:\n{current}"
    parts = [f"The {len(shown)} most recent observations of the game, oldest first."]
    for back, text in zip(range(len(shown) - 1, -1, -1), shown, strict=True):
        if isinstance(step, int):
            label = f"Observation at step {step - back}"
        else:
            label = "Current observation" if back == 0 else f"Observation {back} step(s) ago"
        parts.append(f"{label}:\n{text}")
    return "\n\n".join(parts)


def _messages(
    plan: DagPlan, node: str, state: QuestionDagState, prompting: _Prompting
) -> list[BaseMessage]:
    context = state.get("context")
    context = prompting.context if context is None else str(context)
    blocks = [prompting.role]
    context_parts = [context.strip()] if context and context.strip() else []
    if prompting.list_actions:
        actions = _ordered_actions(prompting.actions, state.get("legal_actions"))
        if actions:
            context_parts.append("The actions you can take: " + ", ".join(actions) + ".")
    if context_parts:
        blocks.append("\n\n".join(context_parts))
    blocks.append(_observation_block(state, prompting.history_window))
    messages: list[BaseMessage]
    if prompting.single_system_message:
        messages = [SystemMessage("\n\n".join(blocks))]
    else:
        messages = [SystemMessage(block) for block in blocks]
    answers = state.get("answers_so_far") or {}
    for parent in plan.parents[node]:
        messages.append(HumanMessage(plan.questions[parent]))
        messages.append(AIMessage(clip_reply(answers.get(parent, ""))))
    messages.append(HumanMessage(plan.questions[node]))
    return messages


def _question_node(
    model: BaseChatModel, plan: DagPlan, node: str, prompting: _Prompting
) -> AsyncNode[QuestionDagState]:
    def record(reply: BaseMessage, counted: Mapping[str, float]) -> QuestionDagState:
        text = reply_text(reply)
        return {
            "answers_so_far": {node: text},
            "records": {
                node: {
                    "node": node,
                    "question": plan.questions[node],
                    "parents": list(plan.parents[node]),
                    "level": plan.levels[node],
                    "answer": clip_reply(text),
                    "usage": {
                        key: counted[key]
                        for key in ("input_tokens", "output_tokens", "total_tokens", "cached_calls")
                        if key in counted
                    },
                    "calls": counted["calls"],
                    "latency_s": counted["latency_s"],
                }
            },
        }

    async def ask(state: QuestionDagState, config: RunnableConfig) -> QuestionDagState:
        _check_input(state)
        reply, counted = await ainvoke_measured(
            model,
            _messages(plan, node, state, prompting),
            config,
            attempts=prompting.call_attempts,
            base_delay_s=prompting.retry_delay_s,
        )
        return record(reply, counted)

    return async_node(ask, name=node)


def create_question_dag(
    model: BaseChatModel,
    questions: Mapping[str, str] | Sequence[tuple[str, str]],
    edges: Mapping[str, Sequence[str]] | None = None,
    *,
    actions: Sequence[str] = (),
    final: str | None = None,
    game_name: str = "the game",
    role: str | None = None,
    context: str = "",
    list_actions: bool = True,
    history_window: int = 2,
    action_rule: ActionRule | str = ActionRule.LIST_ORDER,
    default_action: str | None = None,
    execution: Execution = "levelled",
    single_system_message: bool = False,
    call_attempts: int = 3,
    retry_delay_s: float = 0.5,
    checkpointer: Any = None,
    name: str = "question_dag",
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """Compile a graph of questions whose final answer chooses an action.

    Args:
        model: Any LangChain chat model; called once per question per decision.
        questions: Node id -> question text (or ``(id, text)`` pairs).
        edges: Node id -> its parents, in prompt order (see :func:`plan_question_dag`).
        actions: The actions in the order the mapping rule walks (SPRING's list order).
            Each call's ``legal_actions`` restrict them; legal actions missing here are
            appended in the order given.
        final: The question whose answer is the action (default: the only sink).
        game_name: Used in the default role.
        role: The first system message (default: ``"You are playing {game_name}."``).
        context: Game knowledge for the second system message; a call's ``context``
            replaces it.
        list_actions: Append the (legal) actions to the context message.
        history_window: How many observations to show, the current one included.
        action_rule: ``list_order`` (SPRING), ``earliest_position`` (SmartPlay) or
            ``word_boundary``.
        default_action: The action when the final answer names none (SPRING: ``"Do"``);
            ``None`` leaves ``action`` as ``None`` for the caller's fallback. A default
            that is not legal at that moment also gives ``None``. Either way ``defaulted``
            is ``True``.
        execution: ``levelled`` (concurrent within a level) or ``sequential``.
        single_system_message: Join the role, context and observations into one system
            message, for chat templates that accept only one.
        call_attempts: Attempts per model call on transient failures (connection errors,
            timeouts, rate limits), with jittered exponential backoff; other errors and
            the last failure raise :class:`~langgraph_games.models.ModelCallError`.
        retry_delay_s: First backoff delay; it doubles after each failed attempt.
        checkpointer: Passed to ``compile``.
        name: The compiled graph's name.

    Returns:
        A compiled graph taking :class:`QuestionDagInput` and returning
        :class:`QuestionDagOutput`. Question nodes are written once, async; ``invoke``
        runs them too (see :func:`~langgraph_games.graphs.common.async_node.async_node`),
        but ``ainvoke`` is the fast path.

    Raises:
        DagError: The graph is invalid (see :func:`plan_question_dag`) or an option is.
    """
    plan = plan_question_dag(questions, edges, final=final)
    rule = ActionRule(action_rule)
    if history_window < 1:
        raise DagError("history_window must be at least 1 (the current observation)")
    if execution not in ("levelled", "sequential"):
        raise DagError(f"execution must be 'levelled' or 'sequential', got {execution!r}")
    if call_attempts < 1:
        raise DagError("call_attempts must be at least 1")
    prompting = _Prompting(
        role=role if role is not None else f"You are playing {game_name}.",
        context=context,
        actions=tuple(actions),
        list_actions=list_actions,
        history_window=history_window,
        single_system_message=single_system_message,
        call_attempts=call_attempts,
        retry_delay_s=retry_delay_s,
    )

    async def choose_action(state: QuestionDagState) -> QuestionDagState:
        candidates = _ordered_actions(prompting.actions, state.get("legal_actions"))
        answers = state.get("answers_so_far") or {}
        records = state.get("records") or {}
        final = answers.get(plan.final, "")
        problem = reply_too_long(final)
        action = None if problem else match_action(final, candidates, rule)
        defaulted = action is None
        if (
            defaulted
            and default_action is not None
            and (not state.get("legal_actions") or default_action in candidates)
        ):
            action = default_action
        trace = [records[n] for n in plan.order if n in records]
        usage: dict[str, float] = {}
        for item in trace:
            usage = add_usage(usage, item["usage"])
        return {
            "action": action,
            "defaulted": defaulted,
            "problem": problem,
            "answers": {n: clip_reply(answers[n]) for n in plan.order if n in answers},
            "raw_outputs": [item["answer"] for item in trace],
            "trace": trace,
            "usage": usage,
            "calls": sum(int(item["calls"]) for item in trace),
        }

    builder = StateGraph(
        QuestionDagState, input_schema=QuestionDagInput, output_schema=QuestionDagOutput
    )
    for node in plan.order:
        builder.add_node(node, _question_node(model, plan, node, prompting))
    # a coroutine too: a sync node of an async run goes to a thread pool, a hop per decision
    builder.add_node(CHOOSE_ACTION, async_node(choose_action, name=CHOOSE_ACTION))
    if execution == "sequential":
        builder.add_edge(START, plan.order[0])
        for before, after in zip(plan.order, plan.order[1:], strict=False):
            builder.add_edge(before, after)
        builder.add_edge(plan.order[-1], CHOOSE_ACTION)
    else:
        for node in plan.order:
            ups = plan.parents[node]
            if not ups:
                builder.add_edge(START, node)
            elif len(ups) == 1:
                builder.add_edge(ups[0], node)
            else:
                builder.add_edge(list(ups), node)
        builder.add_edge(plan.final, CHOOSE_ACTION)
    builder.add_edge(CHOOSE_ACTION, END)
    return builder.compile(checkpointer=checkpointer, name=name)
