"""SmartPlay's two-question baseline: history, messages and the match rule."""

from __future__ import annotations

from itertools import cycle

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

from langgraph_games.games import GameSession
from langgraph_games.games.smartplay.hanoi import ACTIONS as HANOI_ACTIONS
from langgraph_games.games.smartplay.metrics import episode_metrics
from langgraph_games.games.smartplay.rock_paper_scissors import ACTIONS, optimal_hand
from langgraph_games.graphs.smartplay.prompts import (
    QUESTIONS,
    SYSTEM_LINE,
    build_messages,
    match_action,
    render_history,
    session_history,
    session_messages,
)


def test_history_format_and_window() -> None:
    observations = ["A new round begins.", "obs 1", "obs 2"]
    assert render_history([], 5) == ""
    assert render_history(observations, 0) == ""
    assert render_history(observations, 2) == (
        "Most recent 2 steps of the player's in-game observation:\n\n"
        "Player Observation Step 1:\nobs 1\n\n"
        "Player Observation Step 2:\nobs 2"
    )
    assert render_history(observations, 10).startswith(
        "Most recent 3 steps of the player's in-game observation:\n\nPlayer Observation Step 0:"
    )


def test_session_history_excludes_the_current_observation() -> None:
    session = GameSession("hanoi")
    assert session_history(session) == ""
    for action in [HANOI_ACTIONS[1], HANOI_ACTIONS[0], HANOI_ACTIONS[5]] * 2:
        session.step(action)
    history = session_history(session)  # Hanoi shows 5 past observations
    assert history.startswith("Most recent 5 steps of the player's in-game observation:")
    assert "Player Observation Step 1:\n" in history
    assert "Player Observation Step 0:" not in history
    assert "Player Observation Step 5:\n" in history and "Step 6" not in history
    assert session_history(session, length=1) == (
        "Most recent 1 steps of the player's in-game observation:\n\n"
        "Player Observation Step 5:\n" + session.game.observation(session.states[5], 0)
    )


def test_messages_in_the_released_order() -> None:
    session = GameSession("bandit", seed=1)
    session.step("Pull slot machine 1.")
    first = session_messages(session, 0)
    assert [type(m) for m in first] == [SystemMessage] * 4 + [HumanMessage]
    assert first[0].content == SYSTEM_LINE == "You’re a player trying to play the game."
    assert first[1].content == session.game.manual(session.state)  # type: ignore[attr-defined]
    assert first[2].content == (
        "Most recent 1 steps of the player's in-game observation:\n\n"
        "Player Observation Step 0:\nA new round begins."
    )
    assert first[3].content == f"current step observation: {session.observe()}"
    assert first[4].content == "What is the best action to take? Let's think step by step, "

    second = session_messages(session, 1, ["I will pull machine 2."])
    assert [type(m) for m in second[4:]] == [HumanMessage, AIMessage, HumanMessage]
    assert second[4].content == QUESTIONS["code"][0]
    assert second[5].content == "I will pull machine 2."
    assert second[6].content == (
        "Choose the best executable action from the list of all actions. "
        "Write the exact chosen action."
    )
    paper = session_messages(GameSession("bandit"), 0, question_variant="paper")
    assert paper[-1].content == "What is the next action to take, let's think step by step."
    assert len(paper) == 4  # no history before the first step


def test_build_messages_leaves_out_empty_parts() -> None:
    messages = build_messages("obs", "q?")
    assert [m.content for m in messages] == [SYSTEM_LINE, "current step observation: obs", "q?"]


def test_bad_requests() -> None:
    with pytest.raises(TypeError, match="not a SmartPlay game"):
        session_messages(GameSession("tictactoe"), 0)
    with pytest.raises(ValueError, match="earlier answer"):
        session_messages(GameSession("bandit"), 1)
    with pytest.raises(ValueError, match="0 or 1"):
        session_messages(GameSession("bandit"), 2, ["a", "b"])


def test_match_rule() -> None:
    rps = list(ACTIONS)
    assert match_action("Paper, definitely. Not Rock.", rps) == 1
    assert match_action("rock then paper", rps) == 0
    assert match_action("SCISSOR!", rps) == 2
    assert match_action("I'll go with scissors", rps) == 2  # "Scissor" occurs in "scissors"
    assert match_action("no idea", rps) == 0
    assert match_action("no idea", rps, default=None) is None
    assert match_action("no idea", rps, default=2) == 2
    hanoi = list(HANOI_ACTIONS)
    answer = "Move the top disk of rod C to the top of rod A, as planned."
    assert match_action(answer, hanoi) == 4
    # Only the full action name counts: a shorter mention is no match.
    assert match_action("Move the top disk of rod C", hanoi, default=None) is None


def test_scripted_baseline_plays_an_episode() -> None:
    """Two questions per step with a scripted model; question 2's answer picks the move."""
    session = GameSession("rock_paper_scissors", seed=5)
    best = ACTIONS[optimal_hand(session.state.probs, session.state.scores)]  # type: ignore[attr-defined]
    other = next(a for a in ACTIONS if a != best)
    # Per step: a reasoning answer, then a choice. Every fifth choice names nothing
    # usable, so the rule falls back to action 0 (Rock).
    answers = []
    for step in range(50):
        answers.append(f"Step {step}: the opponent favours one hand, let me think.")
        if step % 5 == 4:
            answers.append("I am not sure.")
        else:
            answers.append(f"The exact chosen action: {best}. ({other} would be worse.)")
    model = FakeListChatModel(responses=answers)
    seen_questions = cycle(QUESTIONS["code"])
    while not session.done:
        past: list[str] = []
        for index in (0, 1):
            messages = session_messages(session, index, past)
            assert messages[-1].content == next(seen_questions)
            past.append(str(model.invoke(messages).content))
        action = ACTIONS[match_action(past[1], ACTIONS) or 0]
        session.step(action)
    result = episode_metrics(session)
    fallback_optimal = 10 if best == "Rock" else 0
    assert result["score"] == 40 + fallback_optimal
    assert [a[0] for a in session.actions[4::5]] == ["Rock"] * 10
