"""Anything that decides is a player: graphs, DAGs, models and functions through ``as_player``.

Each test goes through the public API (``as_player``, ``run_episode``, ``run_arena``,
``run_eval``) and checks one defect: what used to end in a bare ``KeyError``, an
``AttributeError`` or an error in every worker match.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any, TypedDict

import pytest
from langchain.chat_models import init_chat_model
from langgraph.graph import END, START, StateGraph
from langgraph.types import interrupt

import langgraph_games
from langgraph_games import as_player, make
from langgraph_games.eval import ArenaSpec, run_arena
from langgraph_games.eval.running.runner import EvalSpec, run_eval
from langgraph_games.games import GameSession
from langgraph_games.graphs import (
    create_gamebot_agent,
    create_question_dag,
    eeb_player,
    gamebot_player,
    minesweeper_player,
    request_to_input,
    run_episode,
    smartplay_player,
    spring_player,
)
from langgraph_games.models import ScriptedChatModel
from langgraph_games.players import (
    Decision,
    MinimaxPlayer,
    PlayerContractError,
    PlayerEntry,
    RandomPlayer,
    register_player,
    request_for,
)
from langgraph_games.players.registry import PLAYERS
from workers_support import FirstLegal, build_first_legal

TICTACTOE = make("tictactoe")


class _State(TypedDict, total=False):
    legal_actions: list[str]
    decision: Any


class _NoDecision(TypedDict, total=False):
    legal_actions: list[str]
    result: Any


def _graph(node: Any, name: str = "mine", state: type[Any] = _State) -> Any:
    builder = StateGraph(state)
    builder.add_node(name, node)
    builder.add_edge(START, name)
    builder.add_edge(name, END)
    return builder.compile(name=name)


def _first(state: _State) -> dict[str, Any]:
    return {"decision": Decision(action=state["legal_actions"][0])}


def test_a_question_dag_is_a_player() -> None:
    model = ScriptedChatModel(script=lambda messages: "I take (1,1)")
    dag = create_question_dag(model, {"move": "Your move?"}, name="one question")
    player = as_player(dag)
    episode = asyncio.run(run_episode(TICTACTOE, [player, RandomPlayer(seed=0)], seed=0))
    first = episode["trajectory"][0]["decisions"]["0"]["attempts"][0]
    assert (player.name, first["action"], first["usage"]["calls"]) == ("one question", "(1,1)", 1)


def test_a_graph_that_interrupts_is_interactive_and_resumes() -> None:
    def ask(state: _State) -> dict[str, Any]:
        return {"decision": Decision(action=interrupt({"ask": "your move"}))}

    player = as_player(_graph(ask, "ask"))
    assert player.interactive

    async def play() -> tuple[dict[str, Any], dict[str, Any]]:
        stopped = await run_episode(TICTACTOE, [player, MinimaxPlayer(depth=1)], seed=0)
        resumed = await run_episode(
            TICTACTOE,
            [player, MinimaxPlayer(depth=1)],
            seed=0,
            checkpointer=stopped["checkpointer"],
            thread_id=stopped["thread_id"],
            resume="(1,1)",
        )
        return stopped, resumed

    stopped, resumed = asyncio.run(play())
    assert stopped["interrupt"]["value"] == {"ask": "your move"}
    assert resumed["trajectory"][0]["actions"] == {"0": "(1,1)"}


def test_a_graph_without_interrupt_is_not_interactive() -> None:
    assert not as_player(_graph(_first)).interactive
    assert as_player(_graph(_first), interactive=True).interactive  # the caller may say so


def test_model_calls_in_own_nodes_are_counted() -> None:
    model = ScriptedChatModel(responses=["thinking"])

    async def think(state: _State) -> dict[str, Any]:
        await model.ainvoke("which move?")
        await model.ainvoke("sure?")
        return {"decision": {"action": state["legal_actions"][0]}}  # the dict form

    player = as_player(_graph(think, "think"))
    episode = asyncio.run(run_episode(TICTACTOE, [player, RandomPlayer(seed=0)], seed=0))
    usage = episode["trajectory"][0]["decisions"]["0"]["attempts"][0]["usage"]
    assert usage["calls"] == 2 and usage["output_tokens"] > 0


def test_a_missing_key_names_the_key_and_the_node() -> None:
    def reads_a_wrong_key(state: dict[str, Any]) -> dict[str, Any]:
        return {"decision": Decision(action=state["legal_moves"][0])}

    player = as_player(_graph(reads_a_wrong_key, "pick"))
    with pytest.raises(PlayerContractError) as caught:
        asyncio.run(player.adecide(request_for(GameSession("tictactoe"))))
    message = str(caught.value)
    assert "'legal_moves'" in message and "node 'pick'" in message
    assert "legal_actions" in message  # what the input has


def test_a_graph_without_decision_is_refused_naming_its_last_node() -> None:
    graph = _graph(lambda state: {"result": 1}, "finish", _NoDecision)
    with pytest.raises(PlayerContractError, match=r"no 'decision'.*'finish' must return"):
        as_player(graph)


def test_decision_graphs_have_a_sync_invoke() -> None:
    model = ScriptedChatModel(responses=["Chosen Move: (1,1)"])
    graph = create_gamebot_agent(model, TICTACTOE)
    out = graph.invoke(request_to_input(request_for(GameSession("tictactoe"))))
    assert out["decision"].action == "(1,1)"


@pytest.mark.parametrize(
    ("make", "game", "reply"),
    [
        (smartplay_player, "bandit", "Pull slot machine 2."),
        (spring_player, "tictactoe", "Chosen Move: (1,1)"),
        (eeb_player, "maze", "Action: 0"),
        (lambda model, _game: minesweeper_player(model), "minesweeper", "r,0,0"),
    ],
)
def test_every_strategy_graph_decides_the_same_under_invoke_and_ainvoke(
    make: Any, game: str, reply: str
) -> None:
    decisions = []
    for run in ("invoke", "ainvoke"):
        model = ScriptedChatModel(responses=[reply] * 20)
        graph = make(model, game).graph
        graph_input = request_to_input(request_for(GameSession(game, seed=0)))
        if run == "invoke":
            out = graph.invoke(graph_input)
        else:
            out = asyncio.run(graph.ainvoke(graph_input))
        decisions.append((out["decision"].action, out["decision"].status, len(model.calls)))
    assert decisions[0] == decisions[1]
    assert decisions[0][0] is not None  # the reply was read, not defaulted


def test_configurable_and_wrapped_models_are_models() -> None:
    configurable = init_chat_model(
        "openai:gpt-4o-mini",
        configurable_fields=("model", "temperature"),
        api_key="not-used",
        base_url="http://127.0.0.1:9/v1",
    )
    described = gamebot_player(configurable, TICTACTOE).describe()["model"]
    assert (described["provider"], described["model_name"]) == ("openai", "gpt-4o-mini")
    scripted = ScriptedChatModel(responses=["Chosen Move: (1,1)"], name_="s")
    for wrapped in (
        scripted.bind(stop=["\n\n\n"]),
        scripted.with_retry(),
        scripted.with_fallbacks([scripted]),
    ):
        player = gamebot_player(wrapped, TICTACTOE)
        assert player.describe()["model"]["model_name"] == "s"
        decision = asyncio.run(player.adecide(request_for(GameSession("tictactoe"))))
        assert decision.action == "(1,1)"


def test_functions_and_models_are_players() -> None:
    async def last_move(request: Any) -> str:
        return str(request.legal_actions[-1])

    request = request_for(GameSession("tictactoe"))
    assert asyncio.run(as_player(last_move).adecide(request)).action == "(2,2)"
    model_player = as_player(ScriptedChatModel(responses=["Chosen Move: (0,1)"], name_="m"))
    assert model_player.name == "gamebot:scriptedchatmodel:m"
    assert asyncio.run(model_player.adecide(request)).action == "(0,1)"
    with pytest.raises(TypeError, match="accepted: a Player"):
        as_player(42)


def test_arenas_and_eval_runs_take_objects(tmp_path: Path) -> None:
    async def last_move(request: Any) -> str:
        return str(request.legal_actions[-1])

    spec = ArenaSpec(
        game="tictactoe",
        players=[as_player(last_move, name="last move"), FirstLegal("mine"), "minimax:depth=1"],
        matches=2,
        baseline=False,
    )
    assert spec.players == ["last move", "mine", "minimax:depth=1"]
    report = asyncio.run(run_arena(spec, tmp_path, progress=False))
    assert (report.played, report.errors) == (6, 0)
    manifest = json.loads(report.results_path.with_suffix(".manifest.json").read_text())
    assert manifest["spec"]["players"] == spec.players
    assert {row["player"] for row in report.rows} == set(spec.players)

    evaluated = EvalSpec(game="tictactoe", agent=FirstLegal("mine"), opponents=["random"])
    eval_report = asyncio.run(run_eval(evaluated, tmp_path, progress=False))
    assert (eval_report.played, eval_report.errors, evaluated.row_label) == (1, 0, "mine")


def test_an_object_that_does_not_pickle_says_so_with_workers(tmp_path: Path) -> None:
    unpicklable = as_player(lambda request: request.legal_actions[0], name="lambda player")
    spec = ArenaSpec(
        game="tictactoe", players=[unpicklable, "random"], matches=1, baseline=False, workers=2
    )
    with pytest.raises(TypeError) as caught:
        asyncio.run(run_arena(spec, tmp_path, progress=False))
    message = str(caught.value)
    assert "'lambda player'" in message and "workers=1" in message and "\n" not in message


def test_a_player_registered_at_run_time_without_settings_plays_on_workers(
    tmp_path: Path,
) -> None:
    register_player(PlayerEntry("first_legal_h2", build_first_legal, "first legal move"))
    try:
        spec = ArenaSpec(
            game="tictactoe",
            players=["first_legal_h2", "minimax:depth=1"],
            matches=2,
            baseline=False,
            workers=2,
            concurrency=2,
        )
        report = asyncio.run(run_arena(spec, tmp_path, progress=False))
    finally:
        PLAYERS.unregister("first_legal_h2")
    assert (report.played, report.errors) == (2, 0)


def test_public_names() -> None:
    from langgraph_games.graphs import HumanPlayer, create_expver_graph, seat_tools
    from langgraph_games.players import as_player as from_players

    assert langgraph_games.as_player is from_players is as_player
    assert HumanPlayer.interactive and callable(create_expver_graph) and callable(seat_tools)
