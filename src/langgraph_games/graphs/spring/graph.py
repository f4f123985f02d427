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

The context C defaults to the game's manual. A SmartPlay game's manual depends on the
episode (Rock Paper Scissors prints the episode's scores, Messenger names the episode's
entities), so for those games the context is the manual *of the state being decided*
(:func:`spring_context` with ``state=``; :func:`manual_per_episode` says which games), and
the action order is the game's released list rather than the sorted legal actions.

The ablations of the paper's Table 3 are :class:`SpringVariant` values:

============== =============================================================  =========
variant        what changes                                                   questions
============== =============================================================  =========
full           the DAG with the full context                                      9
actions        only the action descriptions: the studied C's actions answer if       9
               given, else the action list with each action's needs
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
from langgraph_games.games.smartplay import SmartPlayGame
from langgraph_games.games.state import GameState
from langgraph_games.graphs.question_dag.graph import DagError, Execution, create_question_dag
from langgraph_games.graphs.study.documents import context_blocks
from langgraph_games.graphs.study.prompts import ACTIONS_QUESTION

__all__ = [
    "SPRING_EDGES",
    "SPRING_QUESTIONS",
    "STEP_BY_STEP_QUESTION",
    "SpringVariant",
    "actions_context",
    "context_per_episode",
    "context_source",
    "create_spring_agent",
    "manual_per_episode",
    "spring_context",
    "spring_questions",
    "studied_actions",
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


def manual_per_episode(game: Game[GameState] | Sequence[str]) -> bool:
    """Whether ``game``'s manual depends on the episode (the SmartPlay games').

    Example:
        >>> from langgraph_games.games import make
        >>> manual_per_episode(make("rock_paper_scissors")), manual_per_episode(make("crafter"))
        (True, False)
    """
    return isinstance(game, SmartPlayGame)


def _game_parts(
    game_or_actions: Game[GameState] | Sequence[str], state: GameState | None = None
) -> tuple[tuple[str, ...], str, str | None, dict[str, str] | None]:
    """Actions in order, display name, manual and action descriptions of a game.

    A SmartPlay game gives its released action order and the manual of ``state`` (by
    default the first state of seed 0), without the numbered action list it appends for
    the SmartPlay baseline (SPRING lists the actions itself).
    """
    if isinstance(game_or_actions, SmartPlayGame):
        game: Game[GameState] = game_or_actions
        at = state if state is not None else game.initial_state(0)
        return (
            tuple(game_or_actions.action_list(at)),
            game.name,
            game_or_actions.manual_text(at),
            None,
        )
    if isinstance(game_or_actions, Game):
        game = game_or_actions
        order = getattr(game, "action_names", None)
        if not order:
            initial = game.initial_state(0)
            players = game.current_players(initial)
            order = game.legal_actions(initial, players[0]) if players else ()
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


def studied_actions(context: str) -> str | None:
    r"""The actions block of a studied context (the answer to the study's actions question).

    ``None`` when ``context`` has no such block (e.g. a context written by hand).

    Example:
        >>> from langgraph_games.graphs.study.graph import GAME_QUESTIONS
        >>> studied = "Question: Q1\nAnswer:\n1. Trees give wood.\n\n" + (
        ...     f"Question: {GAME_QUESTIONS[3]}\nAnswer:\n1. Do: needs a facing object.")
        >>> print(studied_actions(studied))
        Question: Write all actions as a numbered list. For each action, list its requirements.
        Answer:
        1. Do: needs a facing object.
        >>> studied_actions("Trees give wood.") is None
        True
    """
    answer = context_blocks(context).get(ACTIONS_QUESTION)
    if answer is None:
        return None
    return f"Question: {ACTIONS_QUESTION}\nAnswer:\n{answer.strip()}"


def spring_context(
    game_or_actions: Game[GameState] | Sequence[str],
    context: str | None = None,
    variant: SpringVariant | str = SpringVariant.FULL,
    state: GameState | None = None,
) -> str:
    """The game knowledge C a variant puts in its prompts (the action list is added later).

    - ``no_context``: none.
    - ``actions``: the action descriptions only: the studied context's answer to the
      actions question when ``context`` holds one (:func:`studied_actions`), else the
      game's action list with each action's needs.
    - every other variant: ``context``, by default the game's manual (at ``state`` for a
      game whose manual depends on the episode), else none.

    Example:
        >>> spring_context(["Noop", "Do"], "Trees give wood.", "no_context")
        ''
        >>> spring_context(["Noop", "Do"], "Trees give wood.", "step_by_step")
        'Trees give wood.'
        >>> print(spring_context(["Noop", "Do"], "Trees give wood.", "actions"))
        The actions of the game and their requirements:
        1. Noop
        2. Do
    """
    variant = SpringVariant(variant)
    actions, _, manual, descriptions = _game_parts(game_or_actions, state)
    if variant is SpringVariant.NO_CONTEXT:
        return ""
    if variant is SpringVariant.ACTIONS:
        studied = studied_actions(context) if context is not None else None
        return studied if studied is not None else actions_context(actions, descriptions)
    return context if context is not None else (manual or "")


def context_per_episode(
    game_or_actions: Game[GameState] | Sequence[str],
    context: str | None = None,
    variant: SpringVariant | str = SpringVariant.FULL,
) -> bool:
    """Whether a variant's C must be rebuilt for each episode (from the game's state).

    True when C comes from the game (its manual, or its action list for ``actions``) and
    the game's manual depends on the episode (:func:`manual_per_episode`).

    Example:
        >>> from langgraph_games.games import make
        >>> game = make("messenger")
        >>> context_per_episode(game), context_per_episode(game, "Given text.")
        (True, False)
    """
    variant = SpringVariant(variant)
    if variant is SpringVariant.NO_CONTEXT or not manual_per_episode(game_or_actions):
        return False
    if variant is SpringVariant.ACTIONS:
        return context is None or studied_actions(context) is None
    return context is None


def context_source(
    game_or_actions: Game[GameState] | Sequence[str],
    context: str | None = None,
    variant: SpringVariant | str = SpringVariant.FULL,
) -> str:
    """Where a variant's C comes from, in words (for manifests, tables and notes).

    Example:
        >>> from langgraph_games.games import make
        >>> context_source(make("rock_paper_scissors"))
        "the game's manual of each episode"
        >>> context_source(make("crafter"), "Trees give wood.", "actions")
        "the game's action descriptions (the given context has no studied actions answer)"
    """
    variant = SpringVariant(variant)
    if variant is SpringVariant.NO_CONTEXT:
        return "none"
    if variant is SpringVariant.ACTIONS:
        if context is not None and studied_actions(context) is not None:
            return "the actions answer of the given studied context"
        why = " (the given context has no studied actions answer)" if context is not None else ""
        return f"the game's action descriptions{why}"
    if context is not None:
        return "the given context"
    if context_per_episode(game_or_actions, context, variant):
        return "the game's manual of each episode"
    return "the game's manual"


def create_spring_agent(
    model: BaseChatModel,
    game_or_actions: Game[GameState] | Sequence[str],
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
            ablation; a SmartPlay game's released list and manual of seed 0, which a
            call's ``context`` replaces per episode) or the action names in order.
        context: The game knowledge C (e.g. from :func:`~langgraph_games.graphs.study.graph.
            create_study_graph`); by default the game's manual, else none. The ``actions``
            variant keeps only its studied actions answer (see :func:`spring_context`);
            ``no_context`` ignores it.
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
        The compiled graph; see :mod:`langgraph_games.graphs.question_dag.graph` for its input
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
