"""The EvoEmpirBench prompt agent on scripted replies: prompts, parsing, fallbacks, episodes."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import BaseMessage

from eeb_ms_support import HandMaze, biggest_group, match2_board, match2_oracle
from langgraph_games.games import GameSession, make
from langgraph_games.games.match2 import metrics as match2_metrics
from langgraph_games.games.maze import metrics as maze_metrics
from langgraph_games.graphs import EpisodeOptions, run_episode
from langgraph_games.graphs.common.decision import request_to_input
from langgraph_games.graphs.common.prompt_agent import to_messages
from langgraph_games.graphs.eeb.graph import create_eeb_agent, eeb_player
from langgraph_games.graphs.eeb.prompts import match2_messages
from langgraph_games.models import ScriptedChatModel
from langgraph_games.players import request_for
from maze_maps import build


async def decide(
    replies: list[str], session: GameSession, **kwargs: Any
) -> tuple[dict[str, Any], ScriptedChatModel]:
    model = ScriptedChatModel(responses=list(replies))
    agent = create_eeb_agent(model, session.game, **kwargs)
    out = await agent.ainvoke(request_to_input(request_for(session)))
    return out["decision"].to_dict(), model


@pytest.mark.parametrize(
    ("reply", "action"),
    [
        ("The right side is open.\n**Action: 9**", "9"),
        ("Action：4", "4"),  # full-width colon, as released
        ("I choose action: 7 because it is safe", "7"),
        ("choice: 10", "10"),
        ("After all that, my answer is 5.", "5"),  # a number at the very end
        ("I will move down three steps.", "5"),  # a phrase, the last rule
        ("Action: 12 is not allowed, so Action: 3", "3"),  # out-of-range numbers skipped
    ],
)
async def test_maze_replies_use_the_released_rules(reply: str, action: str) -> None:
    decision, _ = await decide([reply], GameSession("maze", level=1, seed=3))
    assert decision["action"] == action
    assert decision["status"] == "ok"
    assert decision["raw_outputs"] == [reply]
    assert decision["usage"]["calls"] == 1


async def test_maze_garbage_has_no_action_and_says_why() -> None:
    decision, _ = await decide(["I like turtles."], GameSession("maze"))
    assert decision["action"] is None and decision["status"] == "unparsable"
    assert 'write "Action: X"' in decision["info"]["problem"]
    empty, _ = await decide([""], GameSession("maze"))
    assert empty["info"]["problem"] == "your answer was empty"


async def test_pick_last_reads_the_final_answer() -> None:
    reply = 'The format is "Action: 9". Thinking again, up is better. Action: 0'
    first, _ = await decide([reply], GameSession("maze"))
    last, _ = await decide([reply], GameSession("maze"), pick="last")
    assert (first["action"], last["action"]) == ("9", "0")


async def test_refusal_detection_plays_a_seeded_random_move() -> None:
    session = GameSession("maze", seed=5)
    reply = "I am sorry, but Action: 9"
    plain, _ = await decide([reply], session)
    assert plain["action"] == "9" and plain["status"] == "ok"
    refused, _ = await decide([reply], session, detect_refusal=True)
    again, _ = await decide([reply], session, detect_refusal=True)
    assert refused["status"] == "fallback" and refused["info"]["refusal"] is True
    assert refused["action"] in session.legal_actions() and refused["action"] == again["action"]


async def test_maze_prompt_has_truths_and_feedback_in_their_places() -> None:
    session = GameSession("maze", level=3, seed=1)
    request = request_for(
        session, truths=("Walls cost a life.", "Grab the key first."), feedback="no number"
    )
    model = ScriptedChatModel(responses=["Action: 0"])
    await create_eeb_agent(model, "maze").ainvoke(request_to_input(request))
    system, user = model.calls[0]
    assert system.type == "system" and user.type == "human"
    assert "1. Walls cost a life.\n2. Grab the key first." in system.text
    assert "K: key" in system.text and "Lessons" not in user.text
    assert session.observe() in user.text
    assert user.text.rstrip().endswith(
        "Your previous answer could not be used: no number\nPlease answer again."
    )


async def test_a_scripted_maze_episode_scores_exactly() -> None:
    picture = [
        ". . . . . . .",
        ". . . . . . .",
        ". . . . . . .",
        ". . . . . . .",
        ". . . . . . .",
        "C . . C . . .",
        "A . . . . . .",
    ]
    game = HandMaze(build(picture, seen_all=True), level=1)
    # up 1 (coin), garbage (re-asked), right 3 (coin), up 3, right 3, up 2 (goal)
    replies = [
        "Action: 0",
        "Hmm.",
        "Action: 11",
        "Action: 2",
        "move right three steps",
        "Action: 1",
    ]
    model = ScriptedChatModel(responses=replies)
    out = await run_episode(
        game, [eeb_player(model, game)], seed=0, options=EpisodeOptions(max_retries=1)
    )
    result = out["result"]
    session = GameSession(game, seed=0, actions=result["record"]["actions"])
    assert [a for a in result["record"]["actions"]] == ["0", "11", "2", "11", "1"]
    metrics = maze_metrics.episode_metrics(session)
    # 2 coins (+500 each), the goal (+2000), 5 steps (-50 each), nothing newly seen.
    assert metrics["score"] == 2 * 500 + 2000 - 5 * 50 == 2750
    assert (metrics["success"], metrics["steps"], metrics["coins"], metrics["lives"]) == (
        True,
        5,
        2,
        3,
    )
    seat = result["players"][0]
    assert (seat["decisions"], seat["model_calls"], seat["invalid_answers"], seat["fallbacks"]) == (
        5,
        6,
        1,
        0,
    )
    # The re-ask told the model why its answer was refused.
    assert "Your previous answer could not be used" in model.calls[2][1].text
    assert 'write "Action: X"' in model.calls[2][1].text


async def test_without_re_asks_an_unreadable_reply_plays_action_0() -> None:
    picture = [". . . . .", ". . . . .", ". . . . .", ". . . . .", "A . . . ."]
    game = HandMaze(build(picture, seen_all=True), level=1, grid_size=7)
    model = ScriptedChatModel(responses=["no idea", "Action: 9"])
    out = await run_episode(
        game, [eeb_player(model, game)], seed=0, options=EpisodeOptions(max_retries=0, max_steps=4)
    )
    steps = out["trajectory"]
    assert [s["actions"]["0"] for s in steps] == ["0", "9", "0", "9"]
    assert [s["decisions"]["0"]["status"] for s in steps] == ["fallback", "ok", "fallback", "ok"]
    assert out["result"]["players"][0]["fallbacks"] == 2


async def test_match2_json_answers_fenced_bare_and_refused() -> None:
    session = GameSession("match2", map_set="eval", map_index=1)
    good, _ = await decide([match2_oracle()(_prompt(session))], session)
    assert good["status"] == "ok" and good["action"].startswith("eliminate,")
    bare, _ = await decide([match2_oracle(fence=False)(_prompt(session))], session)
    assert bare["action"] == good["action"]
    fenced_only, _ = await decide(
        [match2_oracle(fence=False)(_prompt(session))], session, require_fence=True
    )
    assert fenced_only["action"] is None and fenced_only["status"] == "unparsable"
    row, _ = await decide(['```json\n{"action": {"type": "row", "index": 3}}\n```'], session)
    assert row["status"] == "illegal" and row["action"] == "row,3"
    assert row["info"]["problem"] == "row,3 is refused: row costs 32 points and the score is 0"
    bad, _ = await decide(['{"action": {"type": "laser", "pos": [1, 1]}}'], session)
    assert bad["action"] is None and "unknown action type 'laser'" in bad["info"]["problem"]
    broken, _ = await decide(
        ['```json\n{"action": {"type": "eliminate", "pos": [1, \n```'], session
    )
    assert broken["action"] is None and broken["status"] == "unparsable"


async def test_match2_refused_answers_spend_a_step_in_the_step_variant() -> None:
    session = GameSession("match2", map_set="eval", map_index=1, invalid_moves="step")
    decision, _ = await decide(['{"action": {"type": "bomb", "pos": [0, 0]}}'], session)
    assert decision["action"] == "invalid" and decision["status"] == "ok"
    assert "bomb costs 12 points" in decision["info"]["problem"]


def _prompt(session: GameSession) -> list[BaseMessage]:
    """The agent's prompt for the session's state, for calling an oracle directly."""
    return to_messages(match2_messages(session.game, session.state))  # type: ignore[arg-type]


async def test_a_scripted_match2_episode_counts_api_efficiency_exactly() -> None:
    game = make("match2", map_set="eval", map_index=2, difficulty="easy")
    oracle = match2_oracle()
    calls = {"n": 0}

    def script(messages: Any) -> str:
        calls["n"] += 1
        if calls["n"] % 2:  # every other call: an illegal prop first
            return '{"action": {"type": "hammer", "pos": [9, 9]}}'
        return oracle(messages)

    model = ScriptedChatModel(script=script)
    out = await run_episode(
        game, [eeb_player(model, game)], seed=0, options=EpisodeOptions(max_retries=2)
    )
    session = GameSession(game, seed=0, actions=out["result"]["record"]["actions"])
    seat = out["result"]["players"][0]
    steps = len(session.actions)
    assert seat["model_calls"] == 2 * steps and seat["invalid_answers"] == steps
    m = match2_metrics.episode_metrics(
        session,
        api_calls=seat["model_calls"],
        valid_responses=seat["decisions"] - seat["fallbacks"],
    )
    assert m["api_efficiency"] == 0.5
    assert m["steps_used"] == steps and m["score"] == session.state.score
    # Every applied action was the oracle's biggest group on the board it was shown.
    for step in out["trajectory"]:
        cell = biggest_group(match2_board(step["observations"]["0"]))
        assert step["actions"]["0"] == f"eliminate,{cell // 8},{cell % 8}"


def test_other_games_are_refused() -> None:
    with pytest.raises(ValueError, match="maze, match2"):
        create_eeb_agent(ScriptedChatModel(), "tictactoe")
