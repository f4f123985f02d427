"""SmartPlay's two-question baseline as pure functions: history, messages, match rule.

The released baseline (``examples/experiment.py``) asks two questions at every step with
the same context, and keeps the first answer in the conversation for the second:

1. a system line saying the model plays the game;
2. the game's manual (when there is one);
3. the history: the most recent observations before this step (when there are any);
4. ``current step observation: <observation>``;
5. the earlier questions of this step with their answers, then the question.

Question 1 asks for the best action, thinking step by step; question 2 asks for the exact
action from the list. The answer to question 2 is matched to an action by the earliest
position rule (:func:`match_action`); when no action is named, action 0 of the list is
taken. :mod:`langgraph_games.graphs.smartplay.graph` wires these into a decision graph.

Games: the SmartPlay engines (:class:`~langgraph_games.games.smartplay.SmartPlayGame`) and
any engine offering ``action_names`` and ``manual()``, such as Crafter, whose manual gets
SmartPlay's numbered action list appended (:func:`smartplay_view`).

Question 1: the released code asks ``"What is the best action to take? Let's
think step by step, "``; the paper prints ``"What is the next action to take, let's think
step by step."``. ``question_variant="code"`` (default) or ``"paper"``; record which.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from langgraph_games.games.base import Game
from langgraph_games.games.session import GameSession
from langgraph_games.games.smartplay import SmartPlayGame, describe_actions, earliest_match
from langgraph_games.games.state import GameState

__all__ = [
    "DEFAULT_HISTORY_LENGTH",
    "QUESTIONS",
    "RELEASED_CRAFTER_HISTORY",
    "SYSTEM_LINE",
    "SmartPlayView",
    "build_messages",
    "match_action",
    "render_history",
    "session_history",
    "session_messages",
    "smartplay_history_length",
    "smartplay_view",
]

SYSTEM_LINE = "You’re a player trying to play the game."
"""The released system line (with its typographic apostrophe)."""

QUESTIONS: dict[str, tuple[str, str]] = {
    "code": (
        "What is the best action to take? Let's think step by step, ",
        "Choose the best executable action from the list of all actions. "
        "Write the exact chosen action.",
    ),
    "paper": (
        "What is the next action to take, let's think step by step.",
        "Choose the best executable action from the list of all actions. "
        "Write the exact chosen action.",
    ),
}
"""The two questions, per wording variant."""

DEFAULT_HISTORY_LENGTH = 5
"""History window of a game outside the SmartPlay engines that sets none: the paper's
Table 1 value for Crafter (5)."""

RELEASED_CRAFTER_HISTORY = 2
"""The window SmartPlay's released Crafter environment used (``max_steps=2``); the paper's
Table 1 says 5, our default. Pass ``history_length=2`` for parity with the released code."""


@dataclass(frozen=True)
class SmartPlayView:
    """What the baseline shows of a game at one state.

    Attributes:
        actions: The action list in the released order (index 0 is the default).
        manual: The manual, ending with the numbered action list.
        history_length: How many past observations the history shows.
    """

    actions: tuple[str, ...]
    manual: str
    history_length: int


def smartplay_history_length(game: Game[GameState]) -> int:
    """The history window of ``game``: its ``history_length``, else 5 (Crafter's, Table 1)."""
    return int(getattr(game, "history_length", DEFAULT_HISTORY_LENGTH))


def smartplay_view(game: Game[GameState], state: GameState) -> SmartPlayView:
    """The manual, ordered action list and history window the baseline uses for ``game``.

    SmartPlay engines give their own; an engine with ``action_names`` (the released order)
    and ``manual()`` (e.g. Crafter) gets its manual followed by SmartPlay's numbered list.

    Raises:
        TypeError: The game offers neither (it is not a SmartPlay-style game).

    Example:
        >>> from langgraph_games.games import make
        >>> game = make("rock_paper_scissors")
        >>> view = smartplay_view(game, game.initial_state(0))
        >>> view.actions, view.history_length
        (('Rock', 'Paper', 'Scissor'), 50)
    """
    if isinstance(game, SmartPlayGame):
        return SmartPlayView(
            tuple(game.action_list(state)), game.manual(state), smartplay_history_length(game)
        )
    names = getattr(game, "action_names", None)
    manual = getattr(game, "manual", None)
    if names and callable(manual):
        text = str(manual())
        return SmartPlayView(
            tuple(names),
            f"{text}\n\n{describe_actions(names)}",
            smartplay_history_length(game),
        )
    raise TypeError(
        f"{game.id!r} is not a SmartPlay game: the baseline needs a manual and an ordered "
        "action list (the SmartPlay games and Crafter have them)"
    )


def render_history(observations: Sequence[str], length: int, first_step: int = 0) -> str:
    """SmartPlay's history block over past observations (empty when there are none).

    Args:
        observations: Observations before the current step, oldest first.
        length: The most recent ``length`` of them are shown (the game's history length).
        first_step: The step number of ``observations[0]`` (the reset observation is 0).

    Returns:
        ``"Most recent {n} steps of the player's in-game observation:"`` followed by a
        ``Player Observation Step {k}:`` block per observation, or ``""``.

    Example:
        >>> print(render_history(["A new round begins.", "You pulled ..."], 1))
        Most recent 1 steps of the player's in-game observation:
        <BLANKLINE>
        Player Observation Step 1:
        You pulled ...
    """
    if length <= 0 or not observations:
        return ""
    shown = list(observations[-length:])
    start = first_step + len(observations) - len(shown)
    blocks = [f"Player Observation Step {start + i}:\n{text}" for i, text in enumerate(shown)]
    head = f"Most recent {len(shown)} steps of the player's in-game observation:"
    return (head + "\n\n" + "\n\n".join(blocks)).strip()


def session_history(session: GameSession, length: int | None = None, player: int = 0) -> str:
    """The history block of a session now: its earlier observations, not the current one.

    Args:
        session: The running session.
        length: How many to show; defaults to :func:`smartplay_history_length`.
        player: Whose view.
    """
    game = session.game
    if length is None:
        length = smartplay_history_length(game)
    states = session.states[:-1]
    skip = max(0, len(states) - length)
    texts = [game.observation(s, player) for s in states[skip:]]
    return render_history(texts, length, first_step=skip)


def build_messages(
    observation: str,
    question: str,
    *,
    manual: str = "",
    history: str = "",
    past_qa: Sequence[tuple[str, str]] = (),
) -> list[BaseMessage]:
    """The messages of one SmartPlay question, in the released order.

    Args:
        observation: The current observation.
        question: The question to ask now.
        manual: The game's manual (left out when empty).
        history: The history block (left out when empty).
        past_qa: This step's earlier questions and answers.

    Returns:
        System messages (role line, manual, history, observation), then the earlier
        questions and answers, then the question.
    """
    messages: list[BaseMessage] = [SystemMessage(SYSTEM_LINE)]
    if manual:
        messages.append(SystemMessage(manual))
    if history:
        messages.append(SystemMessage(history))
    messages.append(SystemMessage(f"current step observation: {observation}"))
    for asked, answered in past_qa:
        messages.append(HumanMessage(asked))
        messages.append(AIMessage(answered))
    messages.append(HumanMessage(question))
    return messages


def session_messages(
    session: GameSession,
    question_index: int,
    past_answers: Sequence[str] = (),
    *,
    question_variant: Literal["code", "paper"] = "code",
    history_length: int | None = None,
) -> list[BaseMessage]:
    """The messages for question ``question_index`` (0 or 1) at the session's current step.

    Args:
        session: A running session of a SmartPlay game.
        question_index: 0 (think step by step) or 1 (choose the exact action).
        past_answers: The answers to this step's earlier questions.
        question_variant: ``"code"`` or ``"paper"`` wording of question 1.
        history_length: Override of the game's history length (the paper allows longer
            histories when stated).

    Raises:
        TypeError: The session's game is not a SmartPlay game (nor Crafter).
        ValueError: A question index out of range or too few earlier answers.
    """
    view = smartplay_view(session.game, session.state)
    questions = QUESTIONS[question_variant]
    if not 0 <= question_index < len(questions):
        raise ValueError(f"question_index must be 0 or 1, got {question_index}")
    if len(past_answers) < question_index:
        raise ValueError(f"question {question_index} needs {question_index} earlier answer(s)")
    past_qa = list(zip(questions[:question_index], past_answers, strict=False))
    return build_messages(
        session.observe(0),
        questions[question_index],
        manual=view.manual,
        history=session_history(session, history_length),
        past_qa=past_qa,
    )


def match_action(answer: str, actions: Sequence[str], default: int | None = 0) -> int | None:
    """SmartPlay's match rule: the action named earliest in ``answer``, else ``default``.

    Matching ignores case; on a tie the action listed first wins.

    Args:
        answer: The model's answer to question 2.
        actions: The game's action list, in its released order.
        default: The index to take when no action is named (0 as released; ``None`` to
            let the caller apply another fallback).

    Example:
        >>> match_action("I pick paper over rock", ["Rock", "Paper", "Scissor"])
        1
        >>> match_action("pass", ["Rock", "Paper", "Scissor"])
        0
    """
    index = earliest_match(answer, actions)
    return default if index is None else index
