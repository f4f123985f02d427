"""The GAMEBoT decision graph with scripted models: prompts, parsing, verification, variants."""

from __future__ import annotations

import pytest

from langgraph_games.games import GameSession, make
from langgraph_games.graphs import build_gamebot_messages, create_gamebot_agent, gamebot_player
from langgraph_games.graphs.common.decision import request_to_input
from langgraph_games.models import ModelCallError, ScriptedChatModel
from langgraph_games.players import ParseStatus, request_for
from support import oracle


async def decide(reply: str | object, session: GameSession, **kwargs: object) -> dict:
    model = ScriptedChatModel(responses=[reply])
    agent = create_gamebot_agent(model, session.game, **kwargs)  # type: ignore[arg-type]
    out = await agent.ainvoke(request_to_input(request_for(session)))
    return out["decision"].to_dict()


async def test_right_answers_score_one_and_the_move_is_read() -> None:
    session = GameSession("tictactoe", actions=["(0,0)", "(1,1)", "(0,1)"])
    # O to move; X threatens (0,2), O has no win.
    decision = await decide(
        "thinking...\n[Intermediate Thinking Results 1: None]\n"
        "[Intermediate Thinking Results 2: (0,2)]\n**Chosen Move**: (0,2)",
        session,
    )
    assert decision["action"] == "(0,2)" and decision["status"] == "ok"
    assert [s["value"] for s in decision["scores"]] == [1.0, 1.0]
    assert decision["intermediate"] == {"1": "None", "2": "(0,2)"}


async def test_wrong_answers_get_the_exact_f1() -> None:
    session = GameSession("tictactoe", actions=["(0,0)", "(1,1)", "(0,1)", "(2,2)"])
    # X to move: X wins at (0,2); O threatens nothing ((1,1),(2,2) line needs (0,0): taken).
    truth = session.game.ground_truth(session.state, 0)
    assert truth == {1: frozenset({"(0,2)"}), 2: frozenset()}
    decision = await decide(
        "[Intermediate Thinking Results 1: (0,2), (2,0), (1,0)]\n"
        "[Intermediate Thinking Results 2: (2,1)]\nChosen Move: (0,2)",
        session,
    )
    first, second = decision["scores"]
    assert (first["tp"], first["fp"], first["fn"]) == (1, 2, 0)
    assert first["value"] == pytest.approx(2 / (2 + 2))  # 2tp / (2tp + fp + fn)
    assert (second["fp"], second["value"], second["correct"]) == (1, 0.0, False)


@pytest.mark.parametrize(
    ("reply", "status", "problem"),
    [
        ("I am not sure what to do.", "unparsable", "no 'Chosen Move:' line"),
        ("", "unparsable", "answer was empty"),
        ("Chosen Move: (1,1)", "illegal", "'(1,1)'"),
        ("Chosen Move:", "unparsable", "nothing follows"),
    ],
)
async def test_unusable_answers_are_flagged(reply: str, status: str, problem: str) -> None:
    session = GameSession("tictactoe", actions=["(1,1)"])
    decision = await decide(reply, session)
    assert decision["action"] is None
    assert decision["status"] == status
    assert problem in decision["info"]["problem"]


async def test_othello_and_checkers_parse_their_notations() -> None:
    othello = GameSession("othello")
    decision = await decide("[Intermediate Thinking Results 1: False]\nChosen Move: (e,3)", othello)
    assert decision["action"] == "(E,3)" and decision["scores"][0]["correct"]
    checkers = GameSession("checkers")
    decision = await decide("Chosen Move: (2, 1)-(3, 0)", checkers)
    assert decision["action"] == "(2,1)->(3,0)"
    assert [s["scored"] for s in decision["scores"]] == [True, True, False]


def test_prompt_has_the_three_parts_truths_and_feedback() -> None:
    game = make("connect4")
    system, user = build_gamebot_messages(
        game, "OBS", truths=["Block three in a row at once."], feedback="Your answer was rejected."
    )
    text = system.text
    for part in (
        "**Game Rules**",
        "**Input**",
        "**Output**",
        "[Intermediate Thinking Results 2:",
        "Lessons from earlier games",
        "Block three in a row",
    ):
        assert part in text
    assert user.text == "OBS\n\nYour answer was rejected."


def test_baseline_and_reasoning_variants() -> None:
    game = make("tictactoe")
    action_only = build_gamebot_messages(game, "OBS", variant="action_only")[0].text
    cot = build_gamebot_messages(game, "OBS", variant="cot")[0].text
    reasoning = build_gamebot_messages(game, "OBS", variant="reasoning")[0].text
    assert "Intermediate Thinking Results" not in action_only + cot
    assert "Chosen Move: (r,c)" in action_only and "step by step" in cot
    assert "[Intermediate Thinking Results 2: (X,X), (X,X), ... or None]" in reasoning
    assert "Strategic Analysis" not in reasoning
    with pytest.raises(ValueError, match="Unknown GAMEBoT variant 'fancy'"):
        build_gamebot_messages(game, "OBS", variant="fancy")


async def test_baselines_do_not_score_intermediate_answers() -> None:
    session = GameSession("tictactoe")
    decision = await decide("Chosen Move: (1,1)", session, variant="action_only")
    assert decision["action"] == "(1,1)" and decision["scores"] == []


def test_game_without_a_prompt_is_named() -> None:
    from langgraph_games.graphs.gamebot.graph import load_prompt

    with pytest.raises(ValueError, match=r"No GAMEBoT prompt for game 'nim'.*tictactoe"):
        load_prompt("nim")


async def test_transient_model_failures_are_retried_then_reported() -> None:
    session = GameSession("tictactoe")
    flaky = ScriptedChatModel(responses=[ConnectionError("reset"), "Chosen Move: (0,0)"])
    player = gamebot_player(flaky, "tictactoe", retry_delay_s=0.001)
    decision = await player.adecide(request_for(session))
    assert decision.action == "(0,0)" and len(flaky.calls) == 2
    dead = ScriptedChatModel(responses=[ConnectionError("refused")])
    with pytest.raises(ModelCallError, match="ConnectionError: refused"):
        await gamebot_player(dead, "tictactoe", retry_delay_s=0.001).adecide(request_for(session))
    assert len(dead.calls) == 3
    rejected = ScriptedChatModel(responses=[PermissionError("bad key")])
    with pytest.raises(ModelCallError):
        await gamebot_player(rejected, "tictactoe", retry_delay_s=0.001).adecide(
            request_for(session)
        )
    assert len(rejected.calls) == 1  # not transient: no retry


async def test_usage_is_recorded_per_decision() -> None:
    session = GameSession("tictactoe")
    player = gamebot_player(ScriptedChatModel(script=oracle()), "tictactoe")
    decision = await player.adecide(request_for(session))
    assert decision.usage["calls"] == 1
    assert decision.usage["input_tokens"] > 100 and decision.usage["output_tokens"] > 5
    assert decision.status is ParseStatus.OK


async def test_move_dependent_truth_is_scored_and_bad_proposals_get_the_reason() -> None:
    session = GameSession("negotiation", seed=3)  # pool [7, 1, 1], my values [2, 12, 4]
    good = await decide(
        "[Intermediate Thinking Results 2: 26]\nProposal: [P1: (5,1,1), P2: (2,0,0)]", session
    )
    assert good["action"] == "P1: (5,1,1), P2: (2,0,0)"
    assert [(s["index"], s["truth"], s["correct"]) for s in good["scores"]] == [(2, 26, True)]
    bad = await decide("Proposal: [P1: (5,1,1), P2: (3,0,0)]", session)
    assert bad["action"] is None and bad["status"] == "illegal"
    assert "the shares add up to [8, 1, 1] but the pool is [7, 1, 1]" in bad["info"]["problem"]
    assert bad["scores"] == []  # no legal proposal: "value of my proposal" is not scored
