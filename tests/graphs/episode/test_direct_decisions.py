"""Single-call decision graphs: their ``decide`` function when nothing watches, else the graph.

Inside an episode that nobody traces or streams, a GAMEBoT, EvoEmpirBench or Minesweeper
player calls the function its graph's node runs; the records must be exactly those of the
nested graph run (``direct=False``), and anything that watches (a callback handler, token
streaming) or asks for nested runs (``NESTED_DECISIONS``, for a parent streaming its
subgraphs) must see the graph run as before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from langchain_core.runnables import RunnableConfig
from langgraph.runtime import Runtime
from langgraph.store.memory import InMemoryStore

from langgraph_games.games import GameSession
from langgraph_games.graphs import EpisodeOptions, eeb_player, gamebot_player, run_episode
from langgraph_games.graphs.common.decision import (
    DecisionInput,
    GraphPlayer,
    LiveGame,
    live_game,
)
from langgraph_games.graphs.common.direct import (
    NESTED_DECISIONS,
    decide_function,
    unwatched_runtime,
)
from langgraph_games.graphs.common.prompt_agent import compile_model_check
from langgraph_games.graphs.episode.context import EpisodeContext
from langgraph_games.graphs.episode.graph import create_episode_graph
from langgraph_games.graphs.minesweeper.graph import minesweeper_player
from langgraph_games.models import ScriptedChatModel
from langgraph_games.players import MinimaxPlayer, RandomPlayer, request_for
from langgraph_games.players.base import Decision, ParseStatus
from pinned_trajectories import normalized
from streaming_support import TraceRecorder, message_chunks

GAMEBOT = "[Intermediate Thinking Results 1: None]\nChosen Move: {}"

# Replies that take every path of the loop: a legal move, an illegal one (re-asked with
# feedback), one without a move, an ambiguous one, a late legal move.
TICTACTOE = [
    GAMEBOT.format("(1,1)"),
    GAMEBOT.format("(9,9)"),
    "I am not sure.",
    GAMEBOT.format("(0,0) or (2,2)"),
    GAMEBOT.format("(0,2)"),
    GAMEBOT.format("(2,0)"),
]
MAZE = ["Action: 1", "Action: up", "no idea", "Action: 3", "Action: 2"]
MINESWEEPER = ["Answer: r,0,0", "r,4,4", "Reveal (3,3).", "f,1,1", "r,2,3"]

Build = Callable[[ScriptedChatModel, bool], GraphPlayer]


def _gamebot(model: ScriptedChatModel, direct: bool) -> GraphPlayer:
    player = gamebot_player(model, "tictactoe")
    player.direct = direct
    return player


def _eeb(model: ScriptedChatModel, direct: bool) -> GraphPlayer:
    player = eeb_player(model, "maze")
    player.direct = direct
    return player


def _minesweeper(model: ScriptedChatModel, direct: bool) -> GraphPlayer:
    player = minesweeper_player(model, variant="memory")
    player.direct = direct
    return player


CASES: list[tuple[str, Build, list[str], bool]] = [
    ("tictactoe", _gamebot, TICTACTOE, True),
    ("maze", _eeb, MAZE, False),
    ("minesweeper", _minesweeper, MINESWEEPER, False),
]


class _CountedRuns:
    """Counts the runs of a player's graph (its ``ainvoke``), leaving them unchanged."""

    def __init__(self, player: GraphPlayer, monkeypatch: pytest.MonkeyPatch) -> None:
        self.runs = 0
        run = player.graph.ainvoke

        async def counted(*args: Any, **kwargs: Any) -> Any:
            self.runs += 1
            return await run(*args, **kwargs)

        monkeypatch.setattr(player.graph, "ainvoke", counted)


async def _play(game: str, build: Build, replies: list[str], opponent: bool, direct: bool) -> Any:
    player = build(ScriptedChatModel(responses=replies), direct)
    seats = [player, RandomPlayer(seed=3)] if opponent else [player]
    options = EpisodeOptions(max_retries=2, max_steps=12, history=2)
    return await run_episode(game, seats, seed=5, options=options)


@pytest.mark.parametrize(("game", "build", "replies", "opponent"), CASES)
async def test_direct_decisions_record_what_the_graph_run_records(
    game: str, build: Build, replies: list[str], opponent: bool
) -> None:
    nested = await _play(game, build, replies, opponent, direct=False)
    direct = await _play(game, build, replies, opponent, direct=True)
    assert normalized(direct) == normalized(nested)
    attempts = [
        attempt
        for step in nested["trajectory"]
        for decision in [step["decisions"].get("0")]
        if decision is not None
        for attempt in decision["attempts"]
    ]
    assert len(attempts) >= 3  # the replies did take more than one path


@pytest.mark.parametrize(("game", "build", "replies", "opponent"), CASES)
async def test_an_unwatched_episode_calls_the_node_and_a_watched_one_runs_the_graph(
    game: str,
    build: Build,
    replies: list[str],
    opponent: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    player = build(ScriptedChatModel(responses=replies), True)
    assert decide_function(player.graph) is not None
    counted = _CountedRuns(player, monkeypatch)
    seats = [player, RandomPlayer(seed=3)] if opponent else [player]
    options = EpisodeOptions(max_retries=0, max_steps=4)
    await run_episode(game, seats, seed=5, options=options)
    assert counted.runs == 0
    recorder = TraceRecorder()
    played = await run_episode(
        game, seats, seed=5, options=options, config={"callbacks": [recorder]}
    )
    decisions = played["result"]["players"][0]["decisions"]
    assert decisions >= 1
    assert counted.runs == decisions
    # the handler sees the decision graph's run and its node, as it always did
    assert list(recorder.names.values()).count(player.graph.get_name()) == decisions


async def test_direct_false_always_runs_the_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    player = _gamebot(ScriptedChatModel(responses=TICTACTOE[:1]), False)
    counted = _CountedRuns(player, monkeypatch)
    played = await run_episode(
        "tictactoe", [player, RandomPlayer(seed=3)], options=EpisodeOptions(max_steps=2)
    )
    assert counted.runs == played["result"]["players"][0]["decisions"] == 1


async def test_outside_a_graph_the_player_runs_its_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    player = _gamebot(ScriptedChatModel(responses=TICTACTOE[:1]), True)
    counted = _CountedRuns(player, monkeypatch)
    decision = await player.adecide(request_for(GameSession("tictactoe")))
    assert (decision.action, counted.runs) == ("(1,1)", 1)
    assert unwatched_runtime() is None


def _episode(player: GraphPlayer) -> tuple[Any, dict[str, Any], EpisodeContext]:
    context = EpisodeContext(players=[player, MinimaxPlayer()])
    return (
        create_episode_graph(),
        {"record": {"game": "tictactoe", "seed": 1, "actions": []}},
        context,
    )


async def _subgraph_updates(
    player: GraphPlayer, config: RunnableConfig | None
) -> tuple[list[dict[str, Any]], list[Any]]:
    """The decision graphs' own updates in a subgraph stream, and the episode's moves."""
    graph, graph_input, context = _episode(player)
    inner: list[dict[str, Any]] = []
    moves: list[Any] = []
    async for namespace, update in graph.astream(
        graph_input, config, context=context, stream_mode="updates", subgraphs=True
    ):
        if namespace and "model" in update:
            inner.append(update["model"])
        elif not namespace and "step" in update:
            moves.append(update["step"]["record"]["actions"])
    return inner, moves


async def test_a_parent_streaming_its_subgraphs_sees_the_decision_graphs_updates_on_request(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    player = _gamebot(ScriptedChatModel(responses=TICTACTOE[:1]), True)
    counted = _CountedRuns(player, monkeypatch)
    asked = {"configurable": {NESTED_DECISIONS: True}}
    inner, moves = await _subgraph_updates(player, asked)
    assert counted.runs == len(inner) >= 1
    assert all(isinstance(update["decision"], Decision) for update in inner)
    assert inner[0]["decision"].raw_outputs == [TICTACTOE[0]]
    # without the option the decisions are the same, called without a nested run
    again = _gamebot(ScriptedChatModel(responses=TICTACTOE[:1]), True)
    plain = _CountedRuns(again, monkeypatch)
    inner_plain, moves_plain = await _subgraph_updates(again, None)
    assert (plain.runs, inner_plain) == (0, [])
    assert moves_plain == moves != []


async def test_streamed_tokens_still_come_from_the_decision_graphs_node() -> None:
    player = _gamebot(ScriptedChatModel(responses=TICTACTOE[:1]), True)
    graph, graph_input, context = _episode(player)
    chunks = await message_chunks(graph, graph_input, context=context)
    assert {meta.get("langgraph_node") for _, meta in chunks} == {"model"}
    # without subgraphs=True, LangGraph streams no tokens of a nested graph; a direct
    # call would show them as the episode's own (the stream's handler prevents that)
    nodes = {
        meta.get("langgraph_node")
        async for _, meta in graph.astream(graph_input, context=context, stream_mode="messages")
    }
    assert nodes == set()


async def test_a_direct_node_sees_the_context_and_the_episodes_store() -> None:
    seen: list[tuple[str, Any, Any]] = []

    async def call(state: Any, config: RunnableConfig, runtime: Runtime[LiveGame]) -> Any:
        node = str(config.get("metadata", {}).get("langgraph_node"))
        seen.append((node, runtime.store, runtime.context))
        return {"reply": "r"}

    async def check(state: Any, runtime: Runtime[LiveGame]) -> Any:
        live = live_game(state, runtime.context)
        action = live.game.legal_actions(live.state, int(state["player"]))[0]
        return {"decision": Decision(action=action, status=ParseStatus.OK)}

    graph = compile_model_check(DecisionInput, DecisionInput, call, check, "first_legal")
    store = InMemoryStore()
    episode = create_episode_graph(store=store)
    for direct in (True, False):
        player = GraphPlayer(graph, "first", direct=direct)
        context = EpisodeContext(players=[player, RandomPlayer(seed=1)])
        record = {"game": "tictactoe", "seed": 1, "actions": []}
        final = await episode.ainvoke({"record": record}, context=context)
        assert final["result"]["status"] == "finished"
    # called from the episode's step node (direct), then from the graph's own node
    assert {s[0] for s in seen} == {"step", "model"}
    assert {id(s[1]) for s in seen} == {id(store)}
    assert all(isinstance(s[2], LiveGame) for s in seen)
