"""A checkpointed episode keeps its own checkpoints only, not its players' decision graphs'.

Decision graphs are compiled with ``checkpointer=False``: invoked inside the episode's
step, they used to inherit its saver and write four checkpoints per decision (prompts and
replies included) under the step's namespace.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from langgraph.checkpoint.memory import InMemorySaver

from langgraph_games.graphs import EpisodeOptions, gamebot_player, run_episode
from langgraph_games.graphs.eeb.graph import eeb_player
from langgraph_games.graphs.spring.player import spring_player
from langgraph_games.models import ScriptedChatModel
from langgraph_games.players import MinimaxPlayer

REPLY = "[Intermediate Thinking Results 1: None]\nChosen Move: {move}"


def namespaces(saver: InMemorySaver) -> Counter[str]:
    """Checkpoints per namespace (the root is ``""``)."""
    counts: Counter[str] = Counter()
    for by_namespace in saver.storage.values():
        for namespace, checkpoints in by_namespace.items():
            counts[namespace] += len(checkpoints)
    return +counts


async def _run(game: str, players: list[Any], steps: int) -> Counter[str]:
    saver = InMemorySaver()
    out = await run_episode(
        game,
        players,
        seed=1,
        options=EpisodeOptions(max_retries=0, max_steps=steps),
        checkpointer=saver,
        thread_id="t",
    )
    assert out["result"] is not None
    return namespaces(saver)


async def test_gamebot_decisions_write_no_checkpoints() -> None:
    moves = iter(["(1,1)", "(0,0)", "(2,2)"])
    model = ScriptedChatModel(script=lambda m: REPLY.format(move=next(moves, "(0,1)")))
    counts = await _run("tictactoe", [gamebot_player(model, "tictactoe"), MinimaxPlayer()], 4)
    assert len(model.calls) == 2
    assert set(counts) == {""}


async def test_spring_and_eeb_decisions_write_no_checkpoints() -> None:
    spring = spring_player(ScriptedChatModel(script=lambda m: "Noop"), "crafter")
    assert set(await _run("crafter", [spring], 2)) == {""}
    eeb = eeb_player(ScriptedChatModel(script=lambda m: "Action: 1"), "maze")
    assert set(await _run("maze", [eeb], 2)) == {""}
