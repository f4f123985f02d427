"""SPRING (Wu et al., 2023): nine questions in a DAG, answered every step, choose the action.

The questions are SPRING's Table 1 (the paper's wording; the released notebook spells
"breifly" and drops "the" before "interaction"), and the edges are those of the released
notebook, where the final question has four parents: q2, q4, q7 and q8, in that order::

    q1 objects in view        q2 last action
    q3 requirements met? <- q1                 q4 did it succeed? <- q2
    q5 top 3 sub-tasks <- q1, q3
    q6 first step of the top sub-task <- q5
    q7 top 5 actions <- q6
    q8 requirements of those actions met? <- q7
    qa choose the action <- q2, q4, q7, q8

The answer to ``qa`` maps to an action by SPRING's rule (the first action name, in the
game's action order, found in the answer); "Do" when none is found.

The ablations of the paper's Table 3 are :class:`SpringVariant` values:

============== =============================================================  =========
variant        what changes                                                   questions
============== =============================================================  =========
full           the DAG with the full context                                      9
actions        the context is only the action list with each action's needs       9
no_context     no context at all (and no action list)                             9
step_by_step   "next action, step by step", then qa                               2
no_dag         the nine questions as a list: each sees all earlier answers        9
action_only    qa alone                                                           1
============== =============================================================  =========
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from enum import Enum
from typing import Any

from langchain_core.language_models import BaseChatModel
from langgraph.graph.state import CompiledStateGraph

from langgraph_games.games.base import Game
from langgraph_games.games.matching import ActionRule
from langgraph_games.graphs.question_dag import DagError, Execution, create_question_dag

__all__ = [
    "SPRING_EDGES",
    "SPRING_QUESTIONS",
    "STEP_BY_STEP_QUESTION",
    "SpringVariant",
    "actions_context",
    "create_spring_agent",
    "spring_context",
    "spring_questions",
]

SPRING_QUESTIONS: dict[str, str] = {
    "q1": "List objects in the current observation. For each object, briefly answer what "
    "resource it provides and its requirement.",
    "q2": "What was the last action taken by the player?",
    "q3": "For each object in the list, are the requirements met for the interaction?",
    "q4": "Did the last player action succeed? If not, why?",
    "q5": "List top 3 sub-tasks the player should follow. Indicate their priority out of 5.",
    "q6": "What are the requirements for the top sub-task? What should the player do first?",
    "q7": "List top 5 actions the player should take and the requirement for each action. "
    "Choose ONLY from the list of all actions. Indicate their priority out of 5.",
    "q8": "For each action in the list, are the requirements met?",
    "qa": "Choose the best executable action from above.",
}
"""SPRING's nine questions (paper Table 1), keyed by the paper's node names."""

SPRING_EDGES: dict[str, tuple[str, ...]] = {
    "q3": ("q1",),
    "q4": ("q2",),
    "q5": ("q1", "q3"),
    "q6": ("q5",),
    "q7": ("q6",),
    "q8": ("q7",),
    "qa": ("q2", "q4", "q7", "q8"),
}
"""Parents of each question, in prompt order, as in SPRING's released notebook."""

STEP_BY_STEP_QUESTION = "What is the next action to take? Let's think step by step."
"""The reasoning question of the step-by-step ablation (Kojima et al.'s prompt)."""


class SpringVariant(str, Enum):
    """SPRING and the ablations of its Table 3."""

    FULL = "full"
    ACTIONS = "actions"
    NO_CONTEXT = "no_context"
    STEP_BY_STEP = "step_by_step"
    NO_DAG = "no_dag"
    ACTION_ONLY = "action_only"


def spring_questions(
    variant: SpringVariant | str = SpringVariant.FULL,
) -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    """The questions and edges of a variant.

    Example:
        >>> questions, edges = spring_questions("step_by_step")
        >>> list(questions), edges
        (['think', 'qa'], {'qa': ('think',)})
    """
    variant = SpringVariant(variant)
    if variant is SpringVariant.STEP_BY_STEP:
        return {"think": STEP_BY_STEP_QUESTION, "qa": SPRING_QUESTIONS["qa"]}, {"qa": ("think",)}
    if variant is SpringVariant.ACTION_ONLY:
        return {"qa": SPRING_QUESTIONS["qa"]}, {}
    if variant is SpringVariant.NO_DAG:
        ids = list(SPRING_QUESTIONS)
        return dict(SPRING_QUESTIONS), {node: tuple(ids[:i]) for i, node in enumerate(ids) if i}
    return dict(SPRING_QUESTIONS), dict(SPRING_EDGES)


def actions_context(actions: Sequence[str], descriptions: Mapping[str, str] | None = None) -> str:
    """The context of the ``actions`` ablation: every action with what it needs.

    Example:
        >>> print(actions_context(["Noop", "Do"], {"Do": "Interact with the facing cell."}))
        The actions of the game and their requirements:
        1. Noop
        2. Do: Interact with the facing cell.
    """
    described = descriptions or {}
    lines = [
        f"{i}. {a}: {described[a]}" if described.get(a) else f"{i}. {a}"
        for i, a in enumerate(actions, 1)
    ]
    return "The actions of the game and their requirements:\n" + "\n".join(lines)


def _game_parts(
    game_or_actions: Game[Any] | Sequence[str],
) -> tuple[tuple[str, ...], str, str | None, dict[str, str] | None]:
    """Actions in order, display name, manual and action descriptions of a game."""
    if isinstance(game_or_actions, Game):
        game = game_or_actions
        order = getattr(game, "action_names", None)
        if not order:
            state = game.initial_state(0)
            players = game.current_players(state)
            order = game.legal_actions(state, players[0]) if players else ()
        manual: Callable[[], str] | None = getattr(game, "manual", None)
        describe: Callable[[], dict[str, str]] | None = getattr(game, "action_descriptions", None)
        return (
            tuple(order),
            game.name,
            manual() if callable(manual) else None,
            describe() if callable(describe) else None,
        )
    if isinstance(game_or_actions, str):
        raise DagError("pass a game or a list of action names, not a single string")
    return tuple(game_or_actions), "the game", None, None


def spring_context(
    game_or_actions: Game[Any] | Sequence[str],
    context: str | None = None,
    variant: SpringVariant | str = SpringVariant.FULL,
) -> str:
    """The game knowledge C a variant puts in its prompts (the action list is added later).

    ``no_context`` has none; ``actions`` has the action list with each action's needs;
    every other variant has ``context``, by default the game's manual (else none).

    Example:
        >>> spring_context(["Noop", "Do"], "Trees give wood.", "no_context")
        ''
        >>> spring_context(["Noop", "Do"], "Trees give wood.", "step_by_step")
        'Trees give wood.'
    """
    variant = SpringVariant(variant)
    actions, _, manual, descriptions = _game_parts(game_or_actions)
    if variant is SpringVariant.NO_CONTEXT:
        return ""
    if variant is SpringVariant.ACTIONS:
        return actions_context(actions, descriptions)
    return context if context is not None else (manual or "")


def create_spring_agent(
    model: BaseChatModel,
    game_or_actions: Game[Any] | Sequence[str],
    context: str | None = None,
    *,
    variant: SpringVariant | str = SpringVariant.FULL,
    action_rule: ActionRule | str = ActionRule.LIST_ORDER,
    default_action: str | None = "Do",
    execution: Execution = "levelled",
    history_window: int = 2,
    list_actions: bool | None = None,
    single_system_message: bool = False,
    call_attempts: int = 3,
    retry_delay_s: float = 0.5,
    checkpointer: Any = None,
    name: str | None = None,
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """SPRING's agent (or one of its ablations) as a compiled question DAG.

    Args:
        model: Any LangChain chat model.
        game_or_actions: A game engine (its ``action_names`` give the action order, its
            ``manual()`` the default context, its ``action_descriptions()`` the ``actions``
            ablation) or the action names in order.
        context: The game knowledge C (e.g. from :func:`~langgraph_games.graphs.study.
            create_study_graph`); by default the game's manual, else none. Ignored by the
            ``actions`` and ``no_context`` variants.
        variant: One of :class:`SpringVariant`.
        action_rule: How the final answer maps to an action (SPRING: ``list_order``).
        default_action: The action when the answer names none (SPRING: ``"Do"``); when it
            is not one of the actions, ``None`` is returned for the caller's fallback.
        execution: ``levelled`` (concurrent within a level) or ``sequential``.
        history_window: Observations shown, the current one included (SPRING: 2).
        list_actions: Append the legal actions to the context (default: yes, except for
            ``no_context``, where the model gets no game information at all).
        single_system_message: Join the system messages into one.
        call_attempts: Attempts per model call on transient failures, with backoff.
        retry_delay_s: First backoff delay; it doubles after each failed attempt.
        checkpointer: Passed to ``compile``.
        name: Graph name (default ``spring`` or ``spring_<variant>``).

    Returns:
        The compiled graph; see :mod:`langgraph_games.graphs.question_dag` for its input
        and output.

    Raises:
        DagError: An invalid option.

    Example:
        >>> from langchain_core.language_models.fake_chat_models import FakeListChatModel
        >>> model = FakeListChatModel(responses=["Move West"])
        >>> agent = create_spring_agent(model, ["Noop", "Move West", "Do"], variant="action_only")
        >>> agent.invoke({"observation": "You see a tree to the west."})["action"]
        'Move West'
    """
    variant = SpringVariant(variant)
    actions, game_name, _, _ = _game_parts(game_or_actions)
    knowledge = spring_context(game_or_actions, context, variant)
    questions, edges = spring_questions(variant)
    if default_action is not None and actions and default_action not in actions:
        default_action = None
    return create_question_dag(
        model,
        questions,
        edges,
        actions=actions,
        final="qa",
        game_name=game_name,
        context=knowledge,
        list_actions=(variant is not SpringVariant.NO_CONTEXT)
        if list_actions is None
        else list_actions,
        history_window=history_window,
        action_rule=action_rule,
        default_action=default_action,
        execution=execution,
        single_system_message=single_system_message,
        call_attempts=call_attempts,
        retry_delay_s=retry_delay_s,
        checkpointer=checkpointer,
        name=name or ("spring" if variant is SpringVariant.FULL else f"spring_{variant.value}"),
    )
