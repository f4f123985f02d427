"""Framework overhead per model call, with a model that answers instantly.

Usage: python benchmarks/decision_overhead.py [--decisions 300]

Measures, in the same run:
- the bare scripted model call (``ainvoke``) as the baseline;
- one GAMEBoT decision through its graph (prompt, model, parse, verify against ground
  truth), called directly (the same JSON input every time, and a JSON input built from the
  request each time, as a server sees) and through the player adapter;
- one step of the episode loop with that player on TicTacToe, as an unwatched arena runs
  it (the decision graph's one node called directly) and with the decision graph run as a
  nested graph, as a traced or streamed episode runs it (``GraphPlayer(direct=False)``);
- the same GAMEBoT work per call without the loop (two baselines, same episodes and
  seeds): as plain function calls (build the prompt, call the model, read and score the
  reply, play the move, then the opponent's move), and as a minimal hand-written two-node
  LangGraph loop (a node that asks the model, a node that reads the reply and plays).
The overhead per call is (decision time - bare call time). The last lines compare the
episode loop with the two-node loop doing the same work: what our loop adds over the least
LangGraph can do; time a match of two rule players (random vs random) through the episode
loop, per move, with the same moves played by plain calls; and time one run of an empty
graph of 0, 1 and 2 nodes: the fixed price of a graph run and of each node.

Each timed phase starts after a full garbage collection: a collection of what the earlier
phases left (about 0.1-0.2 s here) would otherwise land in whichever phase's window it
happens to, and be read as that path's cost per call.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path
from typing import Any, TypedDict

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))
from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph

from _common import machine, table
from _work import ask_play_loop, read_and_play
from langgraph_games.eval.running.event_loop import loop_kind
from langgraph_games.eval.running.event_loop import run as run_loop
from langgraph_games.games import GameSession
from langgraph_games.graphs import EpisodeOptions, gamebot_player, run_episode
from langgraph_games.graphs.common.decision import request_to_input
from langgraph_games.graphs.gamebot.graph import build_gamebot_messages
from langgraph_games.models import ScriptedChatModel
from langgraph_games.models.usage import ainvoke_measured
from langgraph_games.players import RandomPlayer, request_for
from support import oracle


class _Loop(TypedDict, total=False):
    seed: int
    done: bool


def _start() -> float:
    """The clock at the start of a timed phase, after a full garbage collection."""
    gc.collect()
    return time.perf_counter()


def _opponent_moves(session: GameSession, seed: int) -> None:
    """Play the random seat's moves (the episode's other player) until seat 0 is to act."""
    opponent = RandomPlayer(seed=seed)
    while not session.done and session.current_players != (0,):
        seat = session.current_players[0]
        session.step(opponent.decide(request_for(session, seat)).action or "", seat)


async def _gamebot_turn(model: ScriptedChatModel, session: GameSession, config: Any) -> None:
    """One GAMEBoT decision as plain calls: prompt, model, read, score, play."""
    messages = build_gamebot_messages(session.game, session.observe(0))
    reply, _ = await ainvoke_measured(model, messages, config)
    read_and_play(session, 0, str(reply.text))


async def plain_episodes(model: ScriptedChatModel, episodes: int) -> None:
    """The episodes' GAMEBoT work as plain function calls."""
    for seed in range(episodes):
        session = GameSession("tictactoe", seed=seed)
        while not session.done:
            await _gamebot_turn(model, session, None)
            _opponent_moves(session, seed)


def two_node_loop(model: ScriptedChatModel) -> Any:
    """The least LangGraph can do per call: ask in one node, read and play in the next."""
    sessions: dict[int, GameSession] = {}
    replies: dict[int, str] = {}

    async def ask(state: _Loop, config: RunnableConfig) -> dict[str, Any]:
        session = sessions.setdefault(state["seed"], GameSession("tictactoe", seed=state["seed"]))
        messages = build_gamebot_messages(session.game, session.observe(0))
        reply, _ = await ainvoke_measured(model, messages, config)
        replies[state["seed"]] = str(reply.text)
        return {}

    async def play(state: _Loop) -> dict[str, Any]:
        session = sessions[state["seed"]]
        read_and_play(session, 0, replies.pop(state["seed"]))
        _opponent_moves(session, state["seed"])
        return {"done": session.done}

    return ask_play_loop(_Loop, ask, play)


async def rule_moves(episodes: int) -> tuple[float, float]:
    """Seconds per move of random-vs-random TicTacToe: through the episode loop, and plain."""
    moves, start = 0, _start()
    for seed in range(episodes):
        seats = [RandomPlayer(seed=seed), RandomPlayer(seed=seed + 1)]
        out = await run_episode("tictactoe", seats, seed=seed)
        moves += out["result"]["steps"]
    loop = (time.perf_counter() - start) / moves
    moves, start = 0, _start()
    for seed in range(episodes):
        seats = [RandomPlayer(seed=seed), RandomPlayer(seed=seed + 1)]
        session = GameSession("tictactoe", seed=seed)
        while not session.done:
            seat = session.current_players[0]
            session.step(seats[seat].decide(request_for(session, seat)).action or "", seat)
            moves += 1
    return loop, (time.perf_counter() - start) / moves


def empty_graph(nodes: int) -> Any:
    """A compiled graph of ``nodes`` empty nodes in a row: what one LangGraph run costs."""

    async def nothing(state: _Loop) -> dict[str, Any]:
        return {}

    builder = StateGraph(_Loop)
    previous = START
    for i in range(nodes):
        builder.add_node(f"n{i}", nothing)
        builder.add_edge(previous, f"n{i}")
        previous = f"n{i}"
    builder.add_edge(previous, END)
    return builder.compile(checkpointer=False)


async def episode_calls(model: ScriptedChatModel, player: Any, episodes: int) -> float:
    """Seconds per model call of ``episodes`` TicTacToe episodes of ``player`` vs random."""
    calls_before = len(model.calls)
    start = _start()
    for seed in range(episodes):
        await run_episode(
            "tictactoe",
            [player, RandomPlayer(seed=seed)],
            seed=seed,
            options=EpisodeOptions(max_retries=0),
        )
    return (time.perf_counter() - start) / (len(model.calls) - calls_before)


async def per_call(fn, n: int) -> float:
    await fn()  # warm-up
    start = _start()
    for _ in range(n):
        await fn()
    return (time.perf_counter() - start) / n


async def main_async(n: int) -> None:
    session = GameSession("tictactoe", actions=["(1,1)", "(0,0)"])
    model = ScriptedChatModel(script=oracle("right"))
    player = gamebot_player(model, "tictactoe")
    request = request_for(session)
    graph_input = request_to_input(request)
    messages = (await player.graph.ainvoke(graph_input))["decision"] and None
    prompt = model.calls[-1]

    bare = await per_call(lambda: model.ainvoke(prompt), n)
    graph = await per_call(lambda: player.graph.ainvoke(graph_input), n)
    fresh = await per_call(lambda: player.graph.ainvoke(request_to_input(request)), n)
    adapter = await per_call(lambda: player.adecide(request), n)

    episodes = max(5, n // 20)
    per_episode_call = await episode_calls(model, player, episodes)
    nested_player = gamebot_player(model, "tictactoe")
    nested_player.direct = False
    nested_call = await episode_calls(model, nested_player, episodes)

    calls_before = len(model.calls)
    start = _start()
    await plain_episodes(model, episodes)
    plain = (time.perf_counter() - start) / (len(model.calls) - calls_before)

    loop = two_node_loop(model)
    calls_before = len(model.calls)
    start = _start()
    for seed in range(episodes):
        await loop.ainvoke({"seed": seed}, {"recursion_limit": 10**6})
    two_node = (time.perf_counter() - start) / (len(model.calls) - calls_before)
    del messages
    rule_loop, rule_plain = await rule_moves(episodes * 4)
    empty = []
    for nodes in (0, 1, 2):
        compiled = empty_graph(nodes)
        empty.append(await per_call(lambda g=compiled: g.ainvoke({"seed": 0}), n))

    rows = [
        ["bare model call (baseline)", f"{bare * 1e3:.3f}", "-"],
        ["GAMEBoT decision graph", f"{graph * 1e3:.3f}", f"{(graph - bare) * 1e3:.3f}"],
        ["GAMEBoT graph, new JSON input", f"{fresh * 1e3:.3f}", f"{(fresh - bare) * 1e3:.3f}"],
        ["GAMEBoT player adapter", f"{adapter * 1e3:.3f}", f"{(adapter - bare) * 1e3:.3f}"],
        [
            "episode loop, per model call",
            f"{per_episode_call * 1e3:.3f}",
            f"{(per_episode_call - bare) * 1e3:.3f}",
        ],
        [
            "episode loop, decisions as nested runs",
            f"{nested_call * 1e3:.3f}",
            f"{(nested_call - bare) * 1e3:.3f}",
        ],
        ["same work, plain calls", f"{plain * 1e3:.3f}", f"{(plain - bare) * 1e3:.3f}"],
        ["same work, two-node loop", f"{two_node * 1e3:.3f}", f"{(two_node - bare) * 1e3:.3f}"],
    ]
    print(
        f"Framework overhead with an instant scripted model ({machine()}; {n} decisions, "
        f"{episodes} TicTacToe episodes; event loop: {loop_kind()})\n"
    )
    print(table(["path", "ms per call", "overhead ms"], rows))
    print(
        f"\nepisode loop / two-node loop (same work): {per_episode_call / two_node:.2f}x "
        f"(decisions as nested runs: {nested_call / two_node:.2f}x); "
        f"LangGraph's own share per call (two-node - plain): {(two_node - plain) * 1e3:.3f} ms, "
        f"the episode loop's (loop - plain): {(per_episode_call - plain) * 1e3:.3f} ms"
    )
    print(
        f"rule players only (random vs random, {episodes * 4} episodes), per move: "
        f"episode loop {rule_loop * 1e3:.3f} ms, plain calls {rule_plain * 1e3:.3f} ms "
        f"({rule_loop / rule_plain:.1f}x)"
    )
    print(
        "one LangGraph run of an empty graph with 0 / 1 / 2 nodes: "
        + " / ".join(f"{t * 1e3:.3f}" for t in empty)
        + " ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=300)
    args = parser.parse_args()
    run_loop(main_async(args.decisions))


if __name__ == "__main__":
    main()
