"""Replies too long to read: every reader reports them unusable and records keep an excerpt.

A reply over ``MAX_REPLY_CHARS`` characters (a model stuck in a loop, a broken endpoint)
is not searched for an answer: the decision is unparsable with a problem naming its
length, the trajectory keeps its two ends, and what is fed back to the model is clipped.
"""

from __future__ import annotations

import threading
from typing import Any

from langgraph_games.games import GameSession, make
from langgraph_games.graphs import EpisodeOptions, create_gamebot_agent, run_episode
from langgraph_games.graphs.common.decision import request_to_input
from langgraph_games.graphs.common.prompt_agent import INLINE_READ_CHARS
from langgraph_games.graphs.eeb.graph import create_eeb_agent
from langgraph_games.graphs.expver.lessons import read_typed_reflection
from langgraph_games.graphs.expver.prompts import parse_reflection
from langgraph_games.graphs.gamebot import graph as gamebot_module
from langgraph_games.graphs.minesweeper.graph import (
    parse_minesweeper_reply,
    score_reported_cells,
)
from langgraph_games.graphs.smartplay.graph import smartplay_player
from langgraph_games.graphs.spring.graph import SPRING_QUESTIONS
from langgraph_games.graphs.spring.player import spring_player
from langgraph_games.graphs.study.documents import split_items
from langgraph_games.memory.merge_prompts import parse_rewrite_reply
from langgraph_games.memory.relations import read_relation
from langgraph_games.models import ScriptedChatModel
from langgraph_games.models.messages import MAX_REPLY_CHARS, clip_reply, reply_too_long
from langgraph_games.players import ParseStatus, RandomPlayer, request_for
from langgraph_games.players.base import Decision, DecisionRequest, Player

FLOOD = "x" * (MAX_REPLY_CHARS + 1)


def _unread(problem: object, text: str) -> None:
    assert problem == reply_too_long(text)
    assert f"{len(text):,} characters" in str(problem)


async def test_gamebot_does_not_read_a_flood() -> None:
    text = f"[Intermediate Thinking Results 1: None]\nChosen Move: (1,1)\n{FLOOD}"
    agent = create_gamebot_agent(ScriptedChatModel(responses=[text]), "tictactoe")
    out = await agent.ainvoke(request_to_input(request_for(GameSession("tictactoe"))))
    decision = out["decision"].to_dict()
    assert (decision["action"], decision["status"]) == (None, "unparsable")
    _unread(decision["info"]["problem"], text)
    assert decision["info"]["reply_chars"] == len(text)
    assert decision["intermediate"] == {}
    assert decision["raw_outputs"] == [clip_reply(text)]
    assert len(decision["raw_outputs"][0]) < 5_000
    # one character less is read as usual
    short = text[: MAX_REPLY_CHARS - 1]
    agent = create_gamebot_agent(ScriptedChatModel(responses=[short]), "tictactoe")
    out = await agent.ainvoke(request_to_input(request_for(GameSession("tictactoe"))))
    assert out["decision"].to_dict()["status"] == "ok" and out["decision"].to_dict()[
        "intermediate"
    ] == {"1": "None"}


async def test_eeb_and_minesweeper_do_not_read_a_flood() -> None:
    text = "Action: 9\n" + FLOOD
    agent = create_eeb_agent(ScriptedChatModel(responses=[text]), "maze")
    out = await agent.ainvoke(request_to_input(request_for(GameSession("maze"))))
    assert (out["decision"].to_dict()["action"], out["decision"].to_dict()["status"]) == (
        None,
        "unparsable",
    )
    _unread(out["decision"].to_dict()["info"]["problem"], text)
    assert len(out["decision"].to_dict()["raw_outputs"][0]) < 5_000
    game = make("minesweeper")
    state = game.initial_state(0)
    text = "[Intermediate Thinking Results 1: None]\nr,0,0\n" + FLOOD
    action, status, info = parse_minesweeper_reply(game, state, text)
    assert (action, status) == (None, ParseStatus.UNPARSABLE)
    _unread(info["problem"], text)
    answers, scores = score_reported_cells(game, state, text)
    assert answers == {} and not any(s["answered"] for s in scores)


async def test_smartplay_does_not_read_a_flood_nor_feed_it_back() -> None:
    final = "Pull slot machine 2. " + FLOOD
    model = ScriptedChatModel(responses=[FLOOD, final])
    out = await run_episode(
        "bandit", [smartplay_player(model, "bandit")], seed=1, options=EpisodeOptions(max_steps=1)
    )
    attempt = out["trajectory"][0]["decisions"]["0"]["attempts"][0]
    assert attempt["status"] == "unparsable"  # not SmartPlay's default action 0
    _unread(attempt["info"]["problem"], final)
    assert attempt["raw_outputs"] == [clip_reply(FLOOD), clip_reply(final)]
    assert len(model.calls[1][-2].content) < 5_000  # the think answer, fed to question 2


async def test_spring_does_not_read_a_flood() -> None:
    def script(messages: Any) -> str:
        return "Move West " + FLOOD if messages[-1].content == SPRING_QUESTIONS["qa"] else "ok"

    player = spring_player(ScriptedChatModel(script=script), "crafter", variant="action_only")
    out = await run_episode("crafter", [player], seed=0, options=EpisodeOptions(max_steps=1))
    decision = out["trajectory"][0]["decisions"]["0"]
    assert decision["action"] == "Do"  # SPRING's default, not the Move West of the flood
    info = decision["attempts"][0]["info"]
    assert info["problem"].startswith(f"{reply_too_long('Move West ' + FLOOD)}; SPRING's default")
    assert len(decision["attempts"][0]["raw_outputs"][0]) < 5_000


def test_reflections_relations_and_study_answers_do_not_read_a_flood() -> None:
    text = "Experience Summary: Due to haste, I hit a wall. Next time, look.\n" + FLOOD
    reflection = parse_reflection(text)
    assert reflection.problem == f"too-long ({len(text):,} characters)" and not reflection.usable
    assert read_relation('{"relation": "same"}\n' + FLOOD)[0] is None
    assert read_typed_reflection('{"summary": "x", "lessons": []}' + FLOOD) is None
    assert parse_rewrite_reply("1. Avoid every wall.\n" + FLOOD) is None
    assert split_items("1. Eat cows\n" + FLOOD) == []


class _Flooding(Player):
    """A player whose raw output is a flood (as a tool-using agent's could be)."""

    name = "flooding"

    async def adecide(self, request: DecisionRequest) -> Decision:
        return Decision(action=request.legal_actions[0], raw_outputs=["ok " + FLOOD])

    def describe(self) -> dict[str, Any]:
        return {"kind": "flooding"}


async def test_the_trajectory_keeps_an_excerpt_of_any_players_flood() -> None:
    out = await run_episode(
        "tictactoe",
        [_Flooding(), RandomPlayer(seed=0)],
        seed=0,
        options=EpisodeOptions(max_steps=1),
    )
    raw = out["trajectory"][0]["decisions"]["0"]["attempts"][0]["raw_outputs"]
    assert raw == [clip_reply("ok " + FLOOD)] and raw[0].startswith("ok xxx")


async def test_a_long_reply_is_read_off_the_event_loop(monkeypatch: Any) -> None:
    """Reading is synchronous: a long reply is read in a worker thread, so the loop that
    serves the other matches never waits for it; a flood is not read at all."""
    threads: list[bool] = []
    real = gamebot_module.parse_gamebot_reply

    def spy(*args: Any, **kwargs: Any) -> dict[str, Any]:
        threads.append(threading.current_thread() is threading.main_thread())
        return real(*args, **kwargs)

    monkeypatch.setattr(gamebot_module, "parse_gamebot_reply", spy)
    replies = ["Chosen Move: (1,1)", "Chosen Move: (1,1)\n" + "y" * INLINE_READ_CHARS]
    for reply in replies:
        agent = create_gamebot_agent(ScriptedChatModel(responses=[reply]), "tictactoe")
        out = await agent.ainvoke(request_to_input(request_for(GameSession("tictactoe"))))
        assert out["decision"].to_dict()["action"] == "(1,1)"
    assert threads == [True, False]  # the short reply inline, the long one in a thread

    game = make("tictactoe")

    def no_reading(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a flood reached the game's reader")

    monkeypatch.setattr(type(game), "read_action", no_reading)
    agent = create_gamebot_agent(ScriptedChatModel(responses=["Chosen Move: (1,1)" + FLOOD]), game)
    out = await agent.ainvoke(request_to_input(request_for(GameSession(game))))
    assert out["decision"].to_dict()["status"] == "unparsable"
