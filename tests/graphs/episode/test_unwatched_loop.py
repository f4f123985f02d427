"""An unwatched episode calls the graph's nodes itself; anything that watches runs the graph.

``run_episode`` without a checkpointer, outside any runnable and with no callback handler
plays by calling the episode graph's nodes in a plain loop (``play_unwatched``). Its
results and trajectories must be exactly the graph run's, on every path (retries,
fallbacks, forfeits, step limits, simultaneous moves, instant seats, an episode over
before any step), and everything that can see or keep a graph run (a handler, tracing, a
parent graph, the nested-decisions option, a checkpointer) must still get the graph.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest
from langchain_core.runnables import RunnableConfig
from langchain_core.tracers.context import collect_runs
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.config import get_config
from langgraph.errors import GraphRecursionError
from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict

import langgraph_games.graphs.episode.run as episode_run
from langgraph_games.games import make
from langgraph_games.graphs import EpisodeOptions, gamebot_player, run_episode
from langgraph_games.graphs.common.direct import NESTED_DECISIONS, node_scope, unwatched_runtime
from langgraph_games.graphs.episode.context import EpisodeContext
from langgraph_games.graphs.episode.graph import create_episode_graph
from langgraph_games.graphs.episode.unwatched import play_unwatched, unwatched
from langgraph_games.models import ScriptedChatModel
from langgraph_games.players import MinimaxPlayer, PongTracker, RandomPlayer
from langgraph_games.players.base import Decision, DecisionRequest, Player
from pinned_trajectories import normalized
from streaming_support import TraceRecorder

MOVE = "[Intermediate Thinking Results 1: None]\nChosen Move: {}"
# a legal move, an illegal one (re-asked), no move at all, an ambiguous one, legal ones
TICTACTOE = [MOVE.format(m) for m in ["(1,1)", "(9,9)", "?", "(0,0) or (2,2)", "(0,2)"]]
TICTACTOE += ["no idea", MOVE.format("(2,0)"), MOVE.format("(1,0)")]

Seats = Callable[[], list[Player]]


def _gamebot_vs_random() -> list[Player]:
    return [gamebot_player(ScriptedChatModel(responses=TICTACTOE), "tictactoe"), RandomPlayer(3)]


def _gamebot_forfeits() -> list[Player]:
    return [gamebot_player(ScriptedChatModel(responses=["no move"]), "tictactoe"), RandomPlayer()]


def _rule_players() -> list[Player]:
    return [MinimaxPlayer(), RandomPlayer(seed=1)]


def _pong() -> list[Player]:
    return [PongTracker(), RandomPlayer(seed=2)]


CASES: list[tuple[str, Seats, EpisodeOptions]] = [
    ("tictactoe", _gamebot_vs_random, EpisodeOptions(max_retries=2)),
    ("tictactoe", _gamebot_vs_random, EpisodeOptions(max_retries=0, fallback="random")),
    ("tictactoe", _gamebot_forfeits, EpisodeOptions(max_retries=1, fallback="forfeit")),
    ("tictactoe", _rule_players, EpisodeOptions()),  # instant seats: one node a game
    ("connect4", _rule_players, EpisodeOptions(max_steps=9)),  # a step limit
    ("pong", _pong, EpisodeOptions(max_steps=40)),  # simultaneous moves
]


async def _graph_run(game: str, players: Sequence[Player], options: EpisodeOptions) -> Any:
    engine = make(game)
    record = {
        "game": engine.versioned_id,
        "options": engine.options_dict(),
        "seed": 4,
        "actions": [],
    }
    context = EpisodeContext(players=players, game=engine, options=options)
    final = await create_episode_graph().ainvoke(
        {"record": record, "trajectory": []}, {"recursion_limit": 10**6}, context=context
    )
    return {"result": final["result"], "trajectory": final["trajectory"]}


@pytest.mark.parametrize(("game", "seats", "options"), CASES)
async def test_the_plain_loop_records_what_the_graph_run_records(
    game: str, seats: Seats, options: EpisodeOptions
) -> None:
    graph = await _graph_run(game, seats(), options)
    plain = await run_episode(game, seats(), seed=4, options=options)
    assert normalized(plain) == normalized(graph)
    assert plain["trajectory"]  # something was played (or forfeited)


async def test_an_episode_over_before_any_step_ends_through_finish_as_in_the_graph() -> None:
    # x takes the top row: the record is over, so the start routes to "finish"
    actions = ["(0,0)", "(1,0)", "(0,1)", "(1,1)", "(0,2)"]
    engine = make("tictactoe")
    state: Any = {
        "record": {"game": engine.versioned_id, "seed": 0, "actions": actions},
        "trajectory": [],
    }
    players = _rule_players()
    graph = await create_episode_graph().ainvoke(
        state, context=EpisodeContext(players=players, game=engine)
    )
    plain = await play_unwatched(
        state, EpisodeContext(players=players, game=engine), {"recursion_limit": 25}
    )
    assert plain["result"] == graph["result"]
    assert plain["result"]["status"] == "finished"
    assert plain["trajectory"] == graph["trajectory"] == []
    assert state["record"]["actions"] == actions  # the input is not grown


class _GraphRuns:
    """Counts the episode graph's runs (its ``ainvoke``), leaving them unchanged."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.runs = 0
        compiled = create_episode_graph()
        run = compiled.ainvoke

        async def counted(*args: Any, **kwargs: Any) -> Any:
            self.runs += 1
            return await run(*args, **kwargs)

        monkeypatch.setattr(compiled, "ainvoke", counted)


async def test_nothing_watching_runs_no_graph_and_a_handler_gets_the_graph_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    runs = _GraphRuns(monkeypatch)
    plain = await run_episode("tictactoe", _gamebot_vs_random(), seed=4)
    assert runs.runs == 0
    recorder = TraceRecorder()
    watched = await run_episode(
        "tictactoe", _gamebot_vs_random(), seed=4, config={"callbacks": [recorder]}
    )
    assert runs.runs == 1
    assert "episode" in recorder.names.values()  # the episode graph's run, seen
    assert recorder.chat_runs  # and the model calls inside it
    assert normalized(watched) == normalized(plain)


@pytest.mark.parametrize(
    "config",
    [
        {"callbacks": [TraceRecorder()]},
        {"configurable": {NESTED_DECISIONS: True}},
    ],
    ids=["handler", "nested-decisions"],
)
def test_unwatched_is_false_for_what_would_see_the_run(config: RunnableConfig) -> None:
    assert unwatched({}) is True
    assert unwatched({"tags": ["t"], "metadata": {"m": 1}}) is True
    assert unwatched(config) is False


async def test_a_handler_configured_around_the_run_gets_the_graph_run() -> None:
    # collect_runs, like tracing_v2_enabled or tracing from the environment, adds its
    # handler when LangChain configures a run's callbacks, not in the given config
    with collect_runs() as collected:
        assert unwatched({}) is False
        await run_episode("tictactoe", _rule_players(), seed=2)
    assert "episode" in [run.name for run in collected.traced_runs]
    assert unwatched({}) is True


async def test_a_parent_graph_streaming_its_subgraphs_sees_the_episode_graph() -> None:
    class Parent(TypedDict, total=False):
        winner: list[int]

    async def play(state: Parent) -> Parent:
        played = await run_episode("tictactoe", _rule_players(), seed=2)
        return {"winner": played["result"]["winners"]}

    builder = StateGraph(Parent)
    builder.add_node("play", play)
    builder.add_edge(START, "play")
    builder.add_edge("play", END)
    namespaces = [
        namespace
        async for namespace, _ in builder.compile().astream(
            {}, stream_mode="updates", subgraphs=True
        )
    ]
    assert any(ns and ns[0].startswith("play") for ns in namespaces)  # the episode's steps
    assert () in namespaces  # and the parent's own update


async def test_a_checkpointer_gets_the_graph_run(monkeypatch: pytest.MonkeyPatch) -> None:
    unplayed: list[Any] = []
    monkeypatch.setattr(episode_run, "play_unwatched", lambda *a: unplayed.append(a))
    saver = InMemorySaver()
    played = await run_episode("tictactoe", _rule_players(), checkpointer=saver, thread_id="t")
    assert played["result"]["status"] == "finished" and not unplayed
    assert list(saver.list({"configurable": {"thread_id": "t"}}))  # checkpoints were written


class _ConfigSeer(Player):
    """Plays the first legal move and keeps the config its call runs under."""

    name = "config-seer"

    def __init__(self) -> None:
        self.seen: list[RunnableConfig] = []

    async def adecide(self, request: DecisionRequest) -> Decision:
        self.seen.append(get_config())
        return Decision(action=request.legal_actions[0])

    def describe(self) -> dict[str, object]:
        return {"kind": "config-seer"}


async def test_calls_inside_the_loop_see_the_callers_config_as_in_a_node() -> None:
    seer = _ConfigSeer()
    config: RunnableConfig = {"tags": ["mine"], "metadata": {"run": "r1"}}
    played = await run_episode("tictactoe", [seer, RandomPlayer(1)], config=config)
    assert played["result"]["players"][0]["decisions"] == len(seer.seen) >= 3
    for seen in seer.seen:
        assert seen["tags"] == ["mine"] and seen["metadata"]["run"] == "r1"
        assert seen["recursion_limit"] == 10**6
    assert unwatched_runtime() is None  # the scope ended with the loop


async def test_a_graph_run_inside_the_scope_sees_its_own_runtime() -> None:
    class Inner(TypedDict, total=False):
        context: str

    async def node(state: Inner) -> Inner:
        found = unwatched_runtime()
        assert found is not None
        return {"context": str(found[1].context)}

    builder = StateGraph(Inner, context_schema=str)
    builder.add_node("node", node)
    builder.add_edge(START, "node")
    builder.add_edge("node", END)
    from langgraph.runtime import Runtime

    outer: RunnableConfig = {"tags": ["outer"]}
    with node_scope(outer, Runtime(context="the loop's")):
        found = unwatched_runtime()
        assert found is not None and found[1].context == "the loop's"
        inner = await builder.compile().ainvoke({}, context="the graph's")
    assert inner["context"] == "the graph's"


async def test_the_recursion_limit_bounds_both_paths_alike() -> None:
    options = EpisodeOptions(max_retries=0)
    for config in [{"recursion_limit": 2}, {"recursion_limit": 2, "callbacks": [TraceRecorder()]}]:
        with pytest.raises(GraphRecursionError):
            await run_episode("tictactoe", _gamebot_vs_random(), options=options, config=config)
    played = await run_episode("tictactoe", _gamebot_vs_random(), options=options)
    assert played["result"]["steps"] >= 5
