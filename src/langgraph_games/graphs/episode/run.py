"""Play one episode: :func:`run_episode`, resuming from a checkpoint when there is one."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.store.base import BaseStore
from langgraph.types import Checkpointer

from langgraph_games.games.base import Game
from langgraph_games.games.registry import make
from langgraph_games.graphs.episode.context import EpisodeContext
from langgraph_games.graphs.episode.graph import create_episode_graph
from langgraph_games.graphs.episode.options import EpisodeOptions, EpisodeState
from langgraph_games.graphs.episode.records import EpisodeOutput
from langgraph_games.memory.hooks import TruthSource
from langgraph_games.players.base import Player

__all__ = ["run_episode"]


async def run_episode(
    game: Game[Any] | str,
    players: Sequence[Player],
    *,
    seed: int = 0,
    options: EpisodeOptions | None = None,
    truths: Mapping[int, Sequence[str]] | None = None,
    store: BaseStore | None = None,
    truth_seats: Sequence[int] | None = None,
    truth_limit: int | None = None,
    checkpointer: Checkpointer = None,
    thread_id: str | None = None,
    **game_options: Any,
) -> EpisodeOutput:
    """Play one episode and return ``{"result": ..., "trajectory": [...]}``.

    With a checkpointer and a ``thread_id`` that already has a checkpoint, the episode
    resumes from it instead of starting over. ``truths`` gives seats their lessons. With
    a ``store``, seats without given ``truths`` (and in ``truth_seats``, default all) play
    with the game's truths from it (at most ``truth_limit``), read once here; code that
    plays many episodes reads them once itself
    (:class:`~langgraph_games.memory.hooks.TruthSource`) and passes ``truths``.

    Raises:
        ValueError: The number of players does not match the game's seats.
    """
    engine = make(game, **game_options) if isinstance(game, str) else game
    if len(players) != engine.num_players:
        raise ValueError(f"{engine.id} has {engine.num_players} seats; got {len(players)} players")
    given = {int(seat): tuple(texts) for seat, texts in (truths or {}).items()}
    if store is not None:
        seats = range(engine.num_players) if truth_seats is None else truth_seats
        missing = [seat for seat in seats if seat not in given]
        if missing:
            read = await TruthSource(store, engine.id, limit=truth_limit).get()
            given.update(dict.fromkeys(missing, read))
    graph = create_episode_graph(checkpointer=checkpointer)
    context = EpisodeContext(
        players=players, game=engine, options=options or EpisodeOptions(), truths=given
    )
    config: RunnableConfig = {"recursion_limit": 10**6}
    graph_input: EpisodeState | None = {
        "record": {
            "game": engine.versioned_id,
            "options": engine.options_dict(),
            "seed": seed,
            "actions": [],
        },
        "trajectory": [],
    }
    if checkpointer is not None:
        config["configurable"] = {"thread_id": thread_id or f"episode-{seed}"}
        saved = await graph.aget_state(config)
        if saved.values.get("record") is not None and saved.next:
            graph_input = None  # resume
        elif saved.values.get("result") is not None:
            return {"result": saved.values["result"], "trajectory": saved.values["trajectory"]}
    if checkpointer is None:
        final = await graph.ainvoke(graph_input, config=config, context=context)
    else:  # write each checkpoint before the next step, so a crash loses nothing
        final = await graph.ainvoke(graph_input, config=config, context=context, durability="sync")
    return {"result": final["result"], "trajectory": final["trajectory"]}
