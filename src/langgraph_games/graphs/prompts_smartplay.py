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
taken. The lead's episode loop wires these into a player graph.

Question 1 (note S1): the released code asks ``"What is the best action to take? Let's
think step by step, "``; the paper prints ``"What is the next action to take, let's think
step by step."``. ``question_variant="code"`` (default) or ``"paper"``; record which.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from langgraph_games.games.session import GameSession
from langgraph_games.games.smartplay import SmartPlayGame, earliest_match

__all__ = [
    "QUESTIONS",
    "SYSTEM_LINE",
    "build_messages",
    "match_action",
    "render_history",
    "session_history",
    "session_messages",
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
        length: How many to show; defaults to the game's ``history_length``.
        player: Whose view.
    """
    game = session.game
    if length is None:
        length = int(getattr(game, "history_length", 0))
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
        TypeError: The session's game is not a SmartPlay game.
        ValueError: A question index out of range or too few earlier answers.
    """
    game: Any = session.game
    if not isinstance(game, SmartPlayGame):
        raise TypeError(f"{game.id!r} is not a SmartPlay game (it has no manual or action list)")
    questions = QUESTIONS[question_variant]
    if not 0 <= question_index < len(questions):
        raise ValueError(f"question_index must be 0 or 1, got {question_index}")
    if len(past_answers) < question_index:
        raise ValueError(f"question {question_index} needs {question_index} earlier answer(s)")
    past_qa = list(zip(questions[:question_index], past_answers, strict=False))
    return build_messages(
        session.observe(0),
        questions[question_index],
        manual=game.manual(session.state),
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
            let the caller apply another fallback, note S6).

    Example:
        >>> match_action("I pick paper over rock", ["Rock", "Paper", "Scissor"])
        1
        >>> match_action("pass", ["Rock", "Paper", "Scissor"])
        0
    """
    index = earliest_match(answer, actions)
    return default if index is None else index
