"""SmartPlay's baseline agent: think step by step, then choose the exact action.

``create_smartplay_agent(model)`` compiles a decision graph (see
:mod:`langgraph_games.graphs.common.decision`)::

    context -> think -> choose -> act -> END

- ``context`` builds the released context from the input: the system line, the game's
  manual (ending with the numbered action list), the history (the most recent earlier
  observations, the game's window) and ``current step observation: ...``
  (:mod:`langgraph_games.graphs.smartplay.prompts`).
- ``think`` asks question 1 ("What is the best action to take? Let's think step by step,").
- ``choose`` asks question 2 ("Choose the best executable action from the list of all
  actions. Write the exact chosen action.") with question 1 and its answer in the
  conversation.
- ``act`` maps the second answer to an action by the earliest-position rule; when no action
  is named it takes action 0 of the list, as released, and marks the decision
  ``fallback`` with ``info["defaulted"] = True`` so the episode loop counts it (among the
  player's invalid answers). ``default_action=None`` returns no action instead, so the
  episode loop's retries and fallback apply.

The graph is pure over its input: the history comes in the input's
``previous_observations`` (the earlier observations, oldest first, ending just before the
current step). The episode loop fills them from the trajectory and
:class:`SmartPlayPlayer` passes the game's window of them, so in the episode loop, the
arena and evaluation runs the agent sees the same history as the released environment's
``HistoryTracker``, also after a resume.

It plays the SmartPlay games and Crafter (with Crafter's manual and SmartPlay's action
list). The history window is an option (``history_length``); by default each game's:
Bandit 50, RPS 50, Hanoi 5 and Messenger 2 as released, Crafter 5 as in the paper's
Table 1 (the released Crafter environment showed 2:
:data:`~langgraph_games.graphs.smartplay.prompts.RELEASED_CRAFTER_HISTORY`). Every decision
records the window it used (``info["history_length"]``), and the player's description the
window it plays with.
"""

from __future__ import annotations

import operator
import time
from collections.abc import Mapping
from typing import Annotated, Any, Literal

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
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
    live_game,
)
from langgraph_games.graphs.common.llm import add_usage, reply_text
from langgraph_games.graphs.smartplay.prompts import (
    QUESTIONS,
    build_messages,
    match_action,
    render_history,
    smartplay_history_length,
    smartplay_view,
)
from langgraph_games.memory.hooks import format_truths
from langgraph_games.models.factory import describe_model
from langgraph_games.models.messages import clip_reply, reply_too_long
from langgraph_games.models.retry import ainvoke_with_retry
from langgraph_games.models.usage import call_usage
from langgraph_games.players.base import Decision, DecisionRequest, ParseStatus

__all__ = [
    "SmartPlayAgentState",
    "SmartPlayPlayer",
    "create_smartplay_agent",
    "smartplay_player",
]

QuestionVariant = Literal["code", "paper"]

CONTEXT = "context"
THINK = "think"
CHOOSE = "choose"
ACT = "act"


class SmartPlayAgentState(DecisionInput, total=False):
    """Decision input plus the context, both answers, usage and the decision."""

    actions: list[str]
    window: int
    context: list[BaseMessage]
    answers: Annotated[list[str], operator.add]
    usage: Annotated[dict[str, int], add_usage]
    latency_s: Annotated[float, operator.add]
    decision: Decision


def _check_game(game: Game[GameState]) -> None:
    if game.num_players != 1:
        raise ValueError(
            f"the SmartPlay baseline plays single-player games; {game.id} has "
            f"{game.num_players} seats"
        )
    try:
        smartplay_view(game, game.initial_state(0))
    except TypeError as exc:
        raise ValueError(
            f"{exc}; try bandit, rock_paper_scissors, hanoi, messenger or crafter"
        ) from None


def create_smartplay_agent(
    model: BaseChatModel,
    *,
    question_variant: QuestionVariant = "code",
    history_length: int | None = None,
    default_action: int | None = 0,
    call_attempts: int = 3,
    retry_delay_s: float = 0.5,
    name: str = "smartplay",
) -> CompiledStateGraph[SmartPlayAgentState, LiveGame, DecisionInput, DecisionOutput]:
    """Compile SmartPlay's two-question baseline as a decision graph.

    Args:
        model: Any LangChain chat model (see :func:`~langgraph_games.models.load_chat_model`).
        question_variant: Wording of question 1: ``"code"`` (released, default) or
            ``"paper"`` (the paper's printed wording).
        history_length: Past observations to show; default the game's window (Bandit 50,
            RPS 50, Hanoi 5, Messenger 2, Crafter 5 as in the paper; the released Crafter
            code showed 2). The paper allows other windows when they are stated.
        default_action: Index in the action list taken when the answer names no action
            (0 as released); ``None`` leaves the decision without an action so the
            episode loop's retries and fallback apply.
        call_attempts: Attempts per model call on transient failures (with backoff).
        retry_delay_s: First backoff delay; it doubles after each failed attempt.
        name: Name of the compiled graph.

    Returns:
        A decision graph: input :class:`~langgraph_games.graphs.common.decision.DecisionInput`
        (``previous_observations``: the earlier observations, oldest first), output
        ``{"decision": Decision}``.

    Raises:
        ValueError: An unknown question variant or a negative history length.

    Example:
        >>> import asyncio
        >>> from langgraph_games import GameSession
        >>> from langgraph_games.graphs.common.decision import session_input
        >>> from langgraph_games.models import ScriptedChatModel
        >>> model = ScriptedChatModel(responses=["Rock loses to paper.", "Paper"])
        >>> agent = create_smartplay_agent(model)
        >>> session = GameSession("rock_paper_scissors")
        >>> out = asyncio.run(agent.ainvoke(session_input(session)))
        >>> decision = out["decision"]
        >>> decision.action, decision.status.value, decision.usage["calls"]
        ('Paper', 'ok', 2)
    """
    if question_variant not in QUESTIONS:
        raise ValueError(
            f"Unknown question variant {question_variant!r}; accepted: {', '.join(QUESTIONS)}"
        )
    if history_length is not None and history_length < 0:
        raise ValueError(f"history_length must be >= 0, got {history_length}")
    think_question, choose_question = QUESTIONS[question_variant]

    async def ask(messages: list[BaseMessage], config: RunnableConfig) -> SmartPlayAgentState:
        started = time.perf_counter()
        reply = await ainvoke_with_retry(
            model, messages, config=config, attempts=call_attempts, base_delay_s=retry_delay_s
        )
        return {
            "answers": [reply_text(reply)],
            "usage": call_usage(reply),
            "latency_s": time.perf_counter() - started,
        }

    async def build_context(
        state: SmartPlayAgentState, runtime: Runtime[LiveGame]
    ) -> SmartPlayAgentState:
        live = live_game(state, runtime.context)
        game_state = live.state
        view = smartplay_view(live.game, game_state)
        length = view.history_length if history_length is None else history_length
        earlier = list(state.get("previous_observations") or [])
        history = render_history(earlier, length, first_step=max(0, game_state.turn - len(earlier)))
        # The released context: everything but the question (it comes per node).
        messages = build_messages(state["observation"], "", manual=view.manual, history=history)
        context = messages[:-1]
        truths = list(state.get("truths") or [])
        if truths:
            context.insert(2, SystemMessage(format_truths(truths)))
        if state.get("feedback"):
            context.append(SystemMessage(str(state["feedback"])))
        return {"actions": list(view.actions), "context": context, "window": length}

    async def think(state: SmartPlayAgentState, config: RunnableConfig) -> SmartPlayAgentState:
        return await ask(_with_questions(state["context"], [think_question], []), config)

    async def choose(state: SmartPlayAgentState, config: RunnableConfig) -> SmartPlayAgentState:
        asked = [think_question, choose_question]
        return await ask(_with_questions(state["context"], asked, state["answers"]), config)

    async def act(state: SmartPlayAgentState) -> DecisionOutput:
        actions = state["actions"]
        answers = list(state.get("answers") or [])
        final = answers[-1] if answers else ""
        too_long = reply_too_long(final)
        index = None if too_long else match_action(final, actions, default=None)
        info: dict[str, object] = {
            "strategy": "smartplay",
            "question_variant": question_variant,
            "history_length": state.get("window"),
            "defaulted": False,
        }
        legal = set(state.get("legal_actions") or actions)
        action: str | None
        if too_long is not None:
            action, status = None, ParseStatus.UNPARSABLE
            info["problem"] = too_long
            info["reply_chars"] = len(final)
        elif index is not None:
            action = actions[index]
            status = ParseStatus.OK
        elif default_action is not None and 0 <= default_action < len(actions):
            index = default_action
            action = actions[index]
            status = ParseStatus.FALLBACK
            info["defaulted"] = True
            info["problem"] = "the answer names none of the actions"
        else:
            action, status = None, ParseStatus.UNPARSABLE
            info["problem"] = "your answer names none of the actions in the list"
        if action is not None and action not in legal:
            info["problem"] = f"{action!r} cannot be taken now"
            action, status = None, ParseStatus.ILLEGAL
        info["action_index"] = index
        decision = Decision(
            action=action,
            status=status,
            raw_outputs=[clip_reply(answer) for answer in answers],
            usage=dict(state.get("usage") or {}),
            latency_s=float(state.get("latency_s") or 0.0),
            info=info,
        )
        return {"decision": decision}

    builder = StateGraph(
        SmartPlayAgentState,
        context_schema=LiveGame,
        input_schema=DecisionInput,
        output_schema=DecisionOutput,
    )
    # Async nodes that sync ``invoke`` runs too (async_node passes config and runtime).
    for node_name, node in ((CONTEXT, build_context), (THINK, think), (CHOOSE, choose)):
        builder.add_node(node_name, async_node(node, name=node_name))
    builder.add_node(ACT, async_node(act, name=ACT))
    builder.add_edge(START, CONTEXT)
    builder.add_edge(CONTEXT, THINK)
    builder.add_edge(THINK, CHOOSE)
    builder.add_edge(CHOOSE, ACT)
    builder.add_edge(ACT, END)
    return builder.compile(checkpointer=False, name=name)


def _with_questions(
    context: list[BaseMessage], questions: list[str], answers: list[str]
) -> list[BaseMessage]:
    """The context, this step's earlier questions with their answers, then the last question."""
    messages = list(context)
    for asked, answered in zip(questions[:-1], answers, strict=False):
        messages += [HumanMessage(asked), AIMessage(clip_reply(answered))]
    messages.append(HumanMessage(questions[-1]))
    return messages


class SmartPlayPlayer(GraphPlayer):
    """The SmartPlay agent as a player: the history window of the request's observations.

    The input gets the last ``history_length`` (default: the game's window) of the
    request's ``previous_observations``, which the episode loop fills from the trajectory,
    as SmartPlay's ``HistoryTracker`` does. A retry of the same step gets the same
    history. The player keeps no state, so one instance serves any number of episodes at
    once, and a resumed episode keeps its history.

    Args:
        graph: A graph from :func:`create_smartplay_agent`.
        name: Label in results tables.
        description: What :meth:`describe` reports.
        history_length: The window the graph shows (``None``: the game's).
    """

    def __init__(
        self,
        graph: CompiledStateGraph[Any, Any, Any, Any],
        name: str,
        description: Mapping[str, object] | None = None,
        history_length: int | None = None,
    ) -> None:
        super().__init__(graph, name, description)
        self.history_length = history_length

    def window_for(self, request: DecisionRequest) -> int:
        """The history window for ``request``'s game."""
        if self.history_length is not None:
            return self.history_length
        return smartplay_history_length(request.game)

    def history_for(self, request: DecisionRequest) -> list[str]:
        """The earlier observations the graph is shown for ``request``, oldest first."""
        return list(self.input_for(request)["previous_observations"])


def smartplay_player(
    model: BaseChatModel,
    game: Game[GameState] | str,
    *,
    question_variant: QuestionVariant = "code",
    history_length: int | None = None,
    default_action: int | None = 0,
    name: str | None = None,
    **settings: Any,
) -> SmartPlayPlayer:
    """A :class:`SmartPlayPlayer` for ``game`` (checked to be a SmartPlay game or Crafter).

    Extra keyword arguments go to :func:`create_smartplay_agent`.

    Raises:
        ValueError: The game is not a single-player SmartPlay-style game; the message
            names those that are.
    """
    engine = make(game) if isinstance(game, str) else game
    _check_game(engine)
    if history_length is not None and (
        isinstance(history_length, bool) or not isinstance(history_length, int)
    ):
        raise ValueError(f"history_length must be a whole number >= 0, got {history_length!r}")
    graph = create_smartplay_agent(
        model,
        question_variant=question_variant,
        history_length=history_length,
        default_action=default_action,
        **settings,
    )
    label = name or ("smartplay" if question_variant == "code" else "smartplay:question=paper")
    description = {
        "kind": "smartplay",
        "question_variant": question_variant,
        # The window this player shows for this game, and whether it was asked for.
        "history_length": smartplay_history_length(engine)
        if history_length is None
        else history_length,
        "history_length_source": "the game's default" if history_length is None else "given",
        "default_action": default_action,
        "model": describe_model(model),
    }
    return SmartPlayPlayer(graph, label, description, history_length)
