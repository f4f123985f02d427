"""The decision-graph protocol: JSON in, one Decision out, live objects beside the input."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from typing_extensions import TypedDict

from langgraph_games.games import GameSession, make
from langgraph_games.games.base import Game
from langgraph_games.graphs import (
    MS_STRATEGIES,
    eeb_player,
    gamebot_player,
    minesweeper_player,
    smartplay_player,
    spring_player,
)
from langgraph_games.graphs.common import decision as protocol
from langgraph_games.graphs.common.decision import (
    CHECKPOINT_TYPES,
    GraphPlayer,
    request_to_input,
)
from langgraph_games.models import ScriptedChatModel
from langgraph_games.players import Decision, Exchange, request_for
from support import oracle


def _without_latency(decision: Decision) -> dict[str, Any]:
    data = decision.to_dict()
    data.pop("latency_s")
    for item in data["info"].get("trace", []):
        item.pop("latency_s")
    return data


def _players() -> Iterator[tuple[GraphPlayer, GameSession]]:
    tictactoe = GameSession("tictactoe", actions=["(1,1)", "(0,0)"])
    yield gamebot_player(ScriptedChatModel(script=oracle("right")), "tictactoe"), tictactoe
    maze = GameSession("maze", seed=2)
    yield eeb_player(ScriptedChatModel(responses=["Action: 9"]), "maze"), maze
    mines = GameSession("minesweeper", seed=3, actions=["r,0,0"])
    cells = MS_STRATEGIES["cells"]
    yield minesweeper_player(ScriptedChatModel(responses=["r,4,4"]), variant=cells), mines
    hanoi = GameSession("hanoi", seed=1, actions=["Move the top disk of rod A to the top of rod C"])
    yield smartplay_player(ScriptedChatModel(responses=["Think.", "Move the top"]), "hanoi"), hanoi
    rps = GameSession("rock_paper_scissors", seed=1, actions=["Rock"])
    yield spring_player(ScriptedChatModel(responses=["Paper"]), rps.game, variant="no_dag"), rps


@pytest.mark.parametrize(("player", "session"), list(_players()), ids=lambda p: type(p).__name__)
async def test_json_alone_and_the_live_context_give_the_same_decision(
    player: GraphPlayer, session: GameSession
) -> None:
    exchange = Exchange(observation="an earlier board", answer="r,0,0", feedback=None)
    request = request_for(session, previous_exchange=exchange)
    alone = await player.graph.ainvoke(request_to_input(request))  # a server, a resume
    assert set(alone) == {"decision"} and isinstance(alone["decision"], Decision)
    live = await player.adecide(request)
    assert _without_latency(alone["decision"]) == _without_latency(live)


class _Counting:
    """Counts engine builds and state reads of one game class."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, game: Game[Any]) -> None:
        self.makes = self.reads = 0
        real_make, real_read = protocol.make, type(game).state_from_dict

        def make_counted(*args: Any, **kwargs: Any) -> Game[Any]:
            self.makes += 1
            return real_make(*args, **kwargs)

        def read_counted(engine: Game[Any], data: Any) -> Any:
            self.reads += 1
            return real_read(engine, data)

        protocol._engine.cache_clear()
        monkeypatch.setattr(protocol, "make", make_counted)
        monkeypatch.setattr(type(game), "state_from_dict", read_counted)


async def test_the_live_engine_and_state_are_used_and_json_is_read_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    session = GameSession("maze", seed=2)
    player = eeb_player(ScriptedChatModel(responses=["Action: 9"]), "maze")
    count = _Counting(monkeypatch, session.game)
    request = request_for(session)
    for _ in range(3):
        await player.adecide(request)
    assert (count.makes, count.reads) == (0, 0)  # both nodes use the live ones
    for _ in range(3):  # JSON alone: the engine once in the process, the state once per input
        await player.graph.ainvoke(request_to_input(request))
    assert (count.makes, count.reads) == (1, 3)


async def test_an_input_changed_in_place_is_read_again() -> None:
    session = GameSession("tictactoe")
    graph = gamebot_player(ScriptedChatModel(script=oracle("right")), "tictactoe").graph
    data = request_to_input(request_for(session))
    first = (await graph.ainvoke(data))["decision"]
    session.step("(0,0)")
    moved = request_to_input(request_for(session))
    data["state"].update(moved["state"])  # the same dict object, another position
    data.update({k: v for k, v in moved.items() if k != "state"})
    second = (await graph.ainvoke(data))["decision"]
    assert first.action == "(0,0)" and second.action == "(0,1)"


class _Outer(TypedDict, total=False):
    data: dict[str, Any]
    action: str


async def test_a_decision_graph_inside_another_graphs_node_ignores_that_graphs_context() -> None:
    inner = eeb_player(ScriptedChatModel(responses=["Action: 9"]), "maze").graph

    async def ask(state: _Outer, runtime: Runtime[dict[str, str]]) -> dict[str, Any]:
        assert runtime.context == {"user": "me"}
        out = await inner.ainvoke(state["data"])  # inherits the outer context
        return {"action": out["decision"].action}

    builder = StateGraph(_Outer, context_schema=dict)
    builder.add_node("ask", ask)
    builder.add_edge(START, "ask")
    builder.add_edge("ask", END)
    outer = builder.compile()
    data = request_to_input(request_for(GameSession("maze", seed=2)))
    final = await outer.ainvoke({"data": dict(data)}, context={"user": "me"})
    assert final["action"] == "9"


async def test_a_decision_graph_checkpoints_with_a_strict_serializer() -> None:
    saver = InMemorySaver(serde=JsonPlusSerializer(allowed_msgpack_modules=CHECKPOINT_TYPES))
    graph = gamebot_player(ScriptedChatModel(script=oracle("right")), "tictactoe").graph
    graph = graph.copy(update={"checkpointer": saver})
    config: Any = {"configurable": {"thread_id": "t"}}
    request = request_for(GameSession("tictactoe", actions=["(1,1)"]))
    out = await graph.ainvoke(request_to_input(request), config)
    saved = (await graph.aget_state(config)).values["decision"]
    assert isinstance(saved, Decision) and saved == out["decision"]
    assert saved.to_dict()["status"] == "ok" and saved.action == "(0,0)"


def test_the_input_carries_the_memory_and_the_players_window() -> None:
    session = GameSession("hanoi", seed=1)
    for move in ["Move the top disk of rod A to the top of rod C"] * 3:
        session.step(move)
    request = request_for(session, previous_exchange=Exchange("board", "A to C", "too big"))
    assert len(request.previous_observations) == 3
    data = request_to_input(request)
    assert data["previous_observations"] == list(request.previous_observations)
    assert data["previous_exchange"] == {
        "observation": "board",
        "answer": "A to C",
        "feedback": "too big",
    }
    assert request_to_input(request, observations=2)["previous_observations"] == list(
        request.previous_observations[-2:]
    )
    assert request_to_input(request, observations=9)["previous_observations"] == list(
        request.previous_observations
    )
    assert request_to_input(request, observations=0)["previous_observations"] == []
    model = ScriptedChatModel()
    assert smartplay_player(model, "hanoi", history_length=1).history_for(request) == [
        request.previous_observations[-1]
    ]
    spring = spring_player(model, make("hanoi"), history_window=3)
    assert spring.input_for(request)["previous_observations"] == list(
        request.previous_observations[-2:]
    )
    assert gamebot_player(model, "tictactoe").observation_window == 0
