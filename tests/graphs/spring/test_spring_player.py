"""SPRING as a player: through the episode loop on Crafter, memory, defaults, usage, retries."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest
from langchain_core.messages import BaseMessage

from langgraph_games.eval.scoring.families import counters_of
from langgraph_games.games import GameSession, make
from langgraph_games.graphs import EpisodeOptions, run_episode
from langgraph_games.graphs.spring.graph import SPRING_QUESTIONS, STEP_BY_STEP_QUESTION
from langgraph_games.graphs.spring.player import SpringPlayer, spring_player
from langgraph_games.memory.hooks import format_truths
from langgraph_games.models import ModelCallError, ScriptedChatModel
from langgraph_games.players import RandomPlayer, request_for
from langgraph_games.players.base import DecisionRequest

FINAL = SPRING_QUESTIONS["qa"]
WOOD = ["Move North"] * 3 + ["Move West"] * 3 + ["Do"]  # seed 0: the tree at 3 west, 3 north


def final_answers(
    answers: Sequence[str], seen: list[list[BaseMessage]] | None = None
) -> Callable[[Sequence[BaseMessage]], str]:
    """A model answering the final question from ``answers`` in turn, "ok" to the others."""
    count = 0

    def script(messages: Sequence[BaseMessage]) -> str:
        nonlocal count
        if messages[-1].content != FINAL:
            return "ok"
        if seen is not None:
            seen.append(list(messages))
        count += 1
        return answers[(count - 1) % len(answers)]

    return script


async def test_spring_plays_crafter_through_the_episode_loop() -> None:
    finals: list[list[BaseMessage]] = []
    model = ScriptedChatModel(script=final_answers(WOOD, finals))
    player = spring_player(model, "crafter")
    out = await run_episode("crafter", [player], seed=0, options=EpisodeOptions(max_steps=7))
    result, trajectory = out["result"], out["trajectory"]
    assert result["steps"] == 7 and result["returns"] == [1.0]
    assert [s["actions"]["0"] for s in trajectory] == WOOD
    assert trajectory[-1]["events"] == [{"type": "achievement", "name": "collect_wood"}]
    counters = result["players"][0]
    assert counters["decisions"] == 7 and counters["model_calls"] == 63 == len(model.calls)
    assert counters["defaulted"] == 0 and counters["fallbacks"] == 0
    assert counters["input_tokens"] > 7 * 9 * 500  # the manual is in every prompt
    # The last two observations, labelled with their real steps: none before the first.
    observations = [s["observations"]["0"] for s in trajectory]
    assert finals[0][2].content == f"Observation at step 0:\n{observations[0]}"
    for step in range(1, 7):
        block = finals[step][2].content
        assert block == (
            "The 2 most recent observations of the game, oldest first.\n\n"
            f"Observation at step {step - 1}:\n{observations[step - 1]}\n\n"
            f"Observation at step {step}:\n{observations[step]}"
        )
    decision = trajectory[2]["decisions"]["0"]
    assert decision["status"] == "ok" and len(decision["attempts"]) == 1
    attempt = decision["attempts"][0]
    assert attempt["usage"]["calls"] == 9 and attempt["latency_s"] > 0
    assert [t["node"] for t in attempt["info"]["trace"]] == [*SPRING_QUESTIONS]
    assert attempt["raw_outputs"] == ["ok"] * 8 + ["Move North"]
    assert [t["level"] for t in attempt["info"]["trace"]] == [0, 0, 1, 1, 2, 3, 4, 5, 6]
    assert all(t["calls"] == 1 and t["input_tokens"] > 0 for t in attempt["info"]["trace"])


async def test_a_defaulted_answer_takes_do_and_is_counted() -> None:
    model = ScriptedChatModel(script=final_answers(["Move West", "Hmm, not sure."]))
    player = spring_player(model, "crafter", variant="action_only")
    out = await run_episode("crafter", [player], seed=3, options=EpisodeOptions(max_steps=4))
    steps = out["trajectory"]
    assert [s["actions"]["0"] for s in steps] == ["Move West", "Do", "Move West", "Do"]
    defaulted = steps[1]["decisions"]["0"]
    assert defaulted["status"] == "fallback" and defaulted["fallback"] is None
    assert len(defaulted["attempts"]) == 1  # SPRING's default is not a rejected answer
    info = defaulted["attempts"][0]["info"]
    assert info["defaulted"] is True
    assert info["problem"] == (
        "the final answer ('Hmm, not sure.') names no action; SPRING's default action 'Do' "
        "was taken"
    )
    counters = out["result"]["players"][0]
    assert counters["defaulted"] == 2 and counters["fallbacks"] == 0
    assert counters["invalid_answers"] == 2 and counters["retries"] == 0
    assert counters["model_calls"] == 4
    assert counters_of(out["result"])["defaulted"] == 2


async def test_the_games_default_action_option_is_springs_default() -> None:
    game = make("crafter", default_action="Noop", parse_rule="word_boundary")
    model = ScriptedChatModel(script=final_answers(["I don't know."]))
    out = await run_episode(
        game,
        [spring_player(model, game, variant="action_only")],
        seed=0,
        options=EpisodeOptions(max_steps=1),
    )
    # word_boundary: "don't" is not "Do"; the default is the game's option.
    assert out["trajectory"][0]["actions"]["0"] == "Noop"
    assert out["result"]["players"][0]["defaulted"] == 1


async def test_without_a_default_the_loop_retries_with_feedback_then_falls_back() -> None:
    seen: list[list[BaseMessage]] = []
    model = ScriptedChatModel(script=final_answers(["no idea"], seen))
    player = spring_player(model, "tictactoe", variant="action_only")
    out = await run_episode(
        "tictactoe",
        [player, RandomPlayer(seed=1)],
        seed=0,
        options=EpisodeOptions(max_retries=1, max_steps=1),
    )
    decision = out["trajectory"][0]["decisions"]["0"]
    assert [a["status"] for a in decision["attempts"]] == ["unparsable", "unparsable"]
    assert decision["fallback"] == "game" and decision["status"] == "fallback"
    assert "Your answer was rejected" not in seen[0][2].content
    assert "Your answer was rejected: the final answer ('no idea') names none of the legal" in (
        seen[1][2].content
    )
    counters = out["result"]["players"][0]
    assert counters["fallbacks"] == 1 and counters["defaulted"] == 0


async def test_memory_per_episode_retries_and_seats() -> None:
    seen: list[list[BaseMessage]] = []
    player = spring_player(
        ScriptedChatModel(script=final_answers(["Noop"], seen)), "crafter", variant="action_only"
    )
    assert isinstance(player, SpringPlayer)
    session = GameSession("crafter", seed=0)
    first = request_for(session)
    await player.adecide(first)
    session.step("Move West")
    second = request_for(session)
    assert second.previous_observations == (first.observation,)
    await player.adecide(second)
    assert f"Observation at step 0:\n{first.observation}" in seen[1][2].content
    # A retry at the same turn sees the same earlier observation, not itself.
    retry = DecisionRequest(**{**second.__dict__, "attempt": 1, "feedback": "try again"})
    await player.adecide(retry)
    assert f"Observation at step 0:\n{first.observation}" in seen[2][2].content
    assert "Observation at step 1:\n" + second.observation + "\n\ntry again" in seen[2][2].content
    assert seen[2][2].content.count("Observation at step") == 2
    # Another episode's request carries its own observations: none at turn 0.
    await player.adecide(request_for(GameSession("crafter", seed=1)))
    assert seen[3][2].content.startswith("Observation at step 0:\n")
    # Only the last history_window - 1 earlier observations are shown.
    session.step("Noop")
    third = request_for(session)
    assert len(third.previous_observations) == 2
    await player.adecide(third)
    assert "Observation at step 0" not in seen[4][2].content
    assert seen[4][2].content.count("Observation at step") == 2


async def test_truths_and_a_given_context_reach_every_prompt() -> None:
    seen: list[list[BaseMessage]] = []
    model = ScriptedChatModel(script=final_answers(["Do"], seen))
    player = spring_player(model, "crafter", variant="step_by_step", context="CONTEXT C")
    request = request_for(GameSession("crafter", seed=0), truths=("Drink water when thirsty.",))
    decision = await player.adecide(request)
    assert decision.action == "Do" and decision.usage["calls"] == 2
    think = next(m for m in model.calls if m[-1].content == STEP_BY_STEP_QUESTION)
    for messages in (think, seen[0]):
        assert messages[1].content.startswith(
            "CONTEXT C\n\n" + format_truths(["Drink water when thirsty."]) + "\n\n"
            "The actions you can take: Noop, Move West"
        )
    assert player.describe()["context"] == "given"
    assert player.describe()["context_chars"] == len("CONTEXT C")


async def test_transient_failures_are_retried_and_counted() -> None:
    failures = iter([ConnectionError("reset by peer")])

    def flaky(messages: Sequence[BaseMessage]) -> str | BaseException:
        if messages[-1].content == SPRING_QUESTIONS["q1"]:
            failure = next(failures, None)
            if failure is not None:
                return failure
        return "Move East" if messages[-1].content == FINAL else "ok"

    player = spring_player(ScriptedChatModel(script=flaky), "crafter", retry_delay_s=0.001)
    decision = await player.adecide(request_for(GameSession("crafter", seed=0)))
    assert decision.action == "Move East" and decision.status.value == "ok"
    assert decision.usage["calls"] == 10  # nine questions and one failed attempt
    trace = {t["node"]: t for t in decision.info["trace"]}
    assert trace["q1"]["calls"] == 2 and trace["q2"]["calls"] == 1

    broken = spring_player(
        ScriptedChatModel(responses=[ValueError("bad request")]), "crafter", variant="action_only"
    )
    with pytest.raises(ModelCallError, match="ValueError: bad request"):
        await broken.adecide(request_for(GameSession("crafter", seed=0)))
