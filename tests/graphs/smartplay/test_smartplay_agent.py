"""The SmartPlay baseline agent: prompts, matching, the default action and the history."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from langgraph_games.eval.running.players import ModelPool, build_player
from langgraph_games.games import GameSession, make
from langgraph_games.games.crafter.metrics import episode_metrics as crafter_metrics
from langgraph_games.games.smartplay.hanoi import ACTIONS as HANOI
from langgraph_games.games.smartplay.metrics import episode_metrics, smartplay_column
from langgraph_games.games.smartplay.rock_paper_scissors import ACTIONS
from langgraph_games.graphs import EpisodeOptions, run_episode
from langgraph_games.graphs.smartplay.graph import (
    SmartPlayPlayer,
    create_smartplay_agent,
    smartplay_player,
)
from langgraph_games.graphs.smartplay.prompts import QUESTIONS, session_messages
from langgraph_games.memory.hooks import format_truths
from langgraph_games.models import ScriptedChatModel
from langgraph_games.players import request_for

# The 7-move solution of 3-disk Hanoi: A->C, A->B, C->B, A->C, B->A, B->C, A->C.
SOLUTION = [HANOI[i] for i in (1, 0, 5, 1, 2, 3, 1)]


GOLDEN = Path(__file__).parents[1] / "golden"


def test_topology_matches_the_snapshot() -> None:
    drawing = create_smartplay_agent(ScriptedChatModel()).get_graph().draw_mermaid()
    assert drawing == (GOLDEN / "smartplay.mmd").read_text(encoding="utf-8"), (
        f"the SmartPlay graph changed; if intended, run "
        f"python {GOLDEN / 'regenerate_drawings.py'} and review the diff"
    )


def pairs(*choices: str) -> list[str]:
    """Scripted replies: a reasoning answer, then the choice, for each step."""
    return [text for choice in choices for text in (f"Thinking about step {choice!r}.", choice)]


def same(left: Sequence[BaseMessage], right: Sequence[BaseMessage]) -> bool:
    return [(type(m), m.content) for m in left] == [(type(m), m.content) for m in right]


async def test_every_prompt_is_the_released_protocol_with_the_episode_history() -> None:
    # Hanoi shows 5 earlier observations: the player must keep them across steps.
    wrong_then_right = [HANOI[0], HANOI[0], *SOLUTION[1:]]  # a refused move costs -1
    model = ScriptedChatModel(responses=pairs(HANOI[1], *wrong_then_right))
    out = await run_episode("hanoi", [smartplay_player(model, "hanoi")], seed=4)
    session = GameSession.from_dict(out["result"]["record"])
    assert [joint[0] for joint in session.actions] == [HANOI[1], *wrong_then_right]
    assert session.done and episode_metrics(session)["score"] == 3.0  # solved in 9 moves
    replay = GameSession("hanoi", seed=4)
    for step, joint in enumerate(session.actions):
        think, choose = model.calls[2 * step], model.calls[2 * step + 1]
        assert same(think, session_messages(replay, 0))
        answer = f"Thinking about step {joint[0]!r}."
        assert same(choose, session_messages(replay, 1, [answer]))
        replay.step(joint[0])
    # The history really moves: step 8 shows observations 3 to 7.
    history = model.calls[16][2].content
    assert "Player Observation Step 3:" in history and "Step 2:" not in history


async def test_scripted_rps_episode_exact_score_and_counted_defaults() -> None:
    # Earliest position wins ("scissor" before "rock"); an answer naming nothing -> Rock.
    choices = ["Paper", "I'd go with scissor over rock", "no idea"]
    model = ScriptedChatModel(responses=pairs(*choices))
    out = await run_episode(
        "rock_paper_scissors", [smartplay_player(model, "rock_paper_scissors")], seed=7
    )
    session = GameSession.from_dict(out["result"]["record"])
    expected = ["Paper", "Scissor", "Rock"] * 17
    assert [joint[0] for joint in session.actions] == expected[:50]
    optimal = ACTIONS[session.game.optimal_hand(session.states[0])]  # type: ignore[attr-defined]
    assert episode_metrics(session)["score"] == expected[:50].count(optimal) > 0
    counters = out["result"]["players"][0]
    assert counters["model_calls"] == 100 and counters["decisions"] == 50
    assert counters["invalid_answers"] == 16  # the defaulted steps 3, 6, ..., 48
    assert counters["fallbacks"] == 0 and counters["retries"] == 0  # no re-asking
    third = out["trajectory"][2]["decisions"]["0"]["attempts"][0]
    assert third["status"] == "fallback" and third["action"] == "Rock"
    assert third["info"]["defaulted"] is True and third["info"]["action_index"] == 0
    assert third["raw_outputs"] == ["Thinking about step 'no idea'.", "no idea"]


async def test_no_default_hands_the_answer_to_the_loop_retries_and_fallback() -> None:
    model = ScriptedChatModel(responses=["hm", "nothing useful"])
    player = smartplay_player(model, "bandit", default_action=None)
    out = await run_episode(
        "bandit", [player], seed=1, options=EpisodeOptions(max_retries=1, max_steps=2)
    )
    decision = out["trajectory"][0]["decisions"]["0"]
    assert [a["status"] for a in decision["attempts"]] == ["unparsable", "unparsable"]
    assert decision["fallback"] == "game" and decision["action"] == "Pull slot machine 1."
    retry_prompt = model.calls[2]  # the retry's first question carries the feedback
    assert any(
        isinstance(m, SystemMessage) and m.content.startswith("Your answer was rejected")
        for m in retry_prompt
    )
    assert out["result"]["players"][0]["fallbacks"] == 2


async def test_strategy_specs_paper_wording_and_history_override() -> None:
    pool = ModelPool()
    pool.models["scripted"] = model = ScriptedChatModel(responses=["x", "Pull slot machine 2."])
    game = make("bandit")
    player = build_player("smartplay:question=paper:scripted", game, models=pool)
    assert isinstance(player, SmartPlayPlayer)
    assert player.describe()["question_variant"] == "paper"
    await run_episode(game, [player], seed=0, options=EpisodeOptions(max_steps=3))
    assert model.calls[0][-1].content == QUESTIONS["paper"][0]
    assert model.calls[4][2].content.startswith("Most recent 2 steps")  # Bandit shows 50

    short = ScriptedChatModel(responses=["x", "Pull slot machine 2."])
    await run_episode(
        game,
        [smartplay_player(short, game, history_length=1)],
        options=EpisodeOptions(max_steps=3),
    )
    assert short.calls[4][2].content.startswith(
        "Most recent 1 steps of the player's in-game observation:\n\nPlayer Observation Step 1:"
    )


def test_history_is_kept_per_episode_and_survives_retries() -> None:
    player = smartplay_player(ScriptedChatModel(), "bandit")
    one, two = GameSession("bandit", seed=1), GameSession("bandit", seed=2)

    def seen(session: GameSession) -> list[str]:
        return [session.game.observation(s, 0) for s in session.states[:-1]]

    assert player.history_for(request_for(one)) == []
    assert player.history_for(request_for(two)) == []
    for session in (one, two, one):  # two episodes, interleaved
        session.step("Pull slot machine 1.")
        assert player.history_for(request_for(session)) == seen(session)
    assert len(seen(one)) == 2 and seen(one)[0] != seen(one)[1]
    assert player.history_for(request_for(one)) == seen(one)  # a retry of the same step
    restarted = GameSession("bandit", seed=1)
    assert player.history_for(request_for(restarted)) == []  # back at step 0: forgotten
    late = smartplay_player(ScriptedChatModel(), "bandit")  # joins at step 2: the request
    assert late.history_for(request_for(one)) == seen(one)  # carries the episode's history


def test_games_without_a_manual_or_with_two_seats_are_refused() -> None:
    pool = ModelPool()
    pool.models["scripted"] = ScriptedChatModel()
    plays = "it plays bandit, crafter, hanoi, messenger, rock_paper_scissors[.]$"
    with pytest.raises(ValueError, match=f"cannot play 'tictactoe'; {plays}"):
        build_player("smartplay:scripted", make("tictactoe"), models=pool)
    with pytest.raises(ValueError, match=f"cannot play 'maze'; {plays}"):
        build_player("smartplay:scripted", make("maze"), models=pool)
    with pytest.raises(ValueError, match="question variant"):
        smartplay_player(ScriptedChatModel(), "bandit", question_variant="other")  # type: ignore[arg-type]


async def test_crafter_with_its_manual_the_action_list_and_the_smartplay_score() -> None:
    # "Do" and "Move West" alternate; an unusable answer falls back to Noop (action 0).
    model = ScriptedChatModel(responses=[*pairs("Do", "Move West"), "?", "I would rather wait"])
    game = make("crafter", length=60)
    out = await run_episode(game, [smartplay_player(model, game)], seed=1)
    session = GameSession.from_dict(out["result"]["record"])
    assert [j[0] for j in session.actions[:3]] == ["Do", "Move West", "Noop"]
    manual = model.calls[0][1].content
    assert manual.startswith(game.manual()) and manual.endswith("17. Make Iron Sword")
    assert "1. Noop\n2. Move West" in manual
    assert model.calls[10][2].content.startswith("Most recent 5 steps")  # Crafter: 5
    # SmartPlay's Crafter score: per achievement, the steps from its unlock to the end.
    firsts: dict[str, int] = {}
    for step, events in enumerate(session.events, start=1):
        for event in events:
            if event["type"] == "achievement":
                firsts.setdefault(event["name"], step)
    expected = sum(60 - step + 1 for step in firsts.values())
    found = episode_metrics(session)
    assert firsts and found["score"] == expected == crafter_metrics(session)["smartplay_score"]
    assert found["column"] == "Crafter60Steps" and found["normalized_score"] is None
    assert smartplay_column(GameSession("crafter")) == "Crafter"


async def test_truths_are_shown_after_the_manual() -> None:
    model = ScriptedChatModel(responses=["x", "Rock"])
    player = smartplay_player(model, "rock_paper_scissors")
    await run_episode(
        "rock_paper_scissors",
        [player],
        truths={0: ["The opponent likes paper."]},
        options=EpisodeOptions(max_steps=1),
    )
    messages = model.calls[0]
    assert messages[2].content == format_truths(["The opponent likes paper."])
    assert isinstance(messages[-1], HumanMessage)
