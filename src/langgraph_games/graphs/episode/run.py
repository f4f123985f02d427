"""Play one episode: :func:`run_episode`, resuming from a checkpoint when there is one.

An episode with a person at the table (an interactive player such as ``human``) stops at
each of their moves: :func:`run_episode` returns the pending interrupt instead of a
result, and the caller resumes with the person's answer::

    run = await run_episode("tictactoe", [HumanPlayer(), MinimaxPlayer()])
    while run["result"] is None:
        answer = input(run["interrupt"]["value"]["prompt"])
        run = await run_episode(
            "tictactoe", [HumanPlayer(), MinimaxPlayer()], resume=answer,
            checkpointer=run["checkpointer"], thread_id=run["thread_id"],
        )
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.store.base import BaseStore
from langgraph.types import Checkpointer, Command

from langgraph_games.games.base import Game
from langgraph_games.games.registry import make
from langgraph_games.games.state import GameState
from langgraph_games.graphs.episode.context import EpisodeContext
from langgraph_games.graphs.episode.graph import create_episode_graph
from langgraph_games.graphs.episode.options import EpisodeOptions, EpisodeState
from langgraph_games.graphs.episode.records import EpisodeOutput
from langgraph_games.graphs.episode.unwatched import play_unwatched, unwatched
from langgraph_games.memory.hooks import TruthSource
from langgraph_games.players.base import Player

__all__ = ["run_episode"]


async def run_episode(
    game: Game[GameState] | str,
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
    resume: Any = None,
    config: RunnableConfig | None = None,
    **game_options: Any,
) -> EpisodeOutput:
    """Play one episode and return ``{"result": ..., "trajectory": [...]}``.

    With a checkpointer and a ``thread_id`` that already has a checkpoint, the episode
    resumes from it instead of starting over. ``truths`` gives seats their lessons. With
    a ``store``, seats without given ``truths`` (and in ``truth_seats``, default all) play
    with the game's truths from it (at most ``truth_limit``), read once here; code that
    plays many episodes reads them once itself
    (:class:`~langgraph_games.memory.hooks.TruthSource`) and passes ``truths``.

    A seat whose player is interactive (``human``) stops the episode at its moves. Such an
    episode runs with a checkpointer (a new in-memory one when none is given), and when
    it stops the return value is ``{"result": None, "trajectory": [steps so far],
    "interrupt": {"id": ..., "value": payload}, "thread_id": ..., "checkpointer": ...}``
    (the payload of :func:`~langgraph_games.graphs.human.player.move_request`). Call
    again with the same game, players, ``checkpointer`` and ``thread_id`` and the answer
    as ``resume`` (a value, or a ``Command(resume=...)``) to go on.

    ``config`` is the caller's ``RunnableConfig``: its callbacks, tags, metadata and run
    name reach the episode graph and every model call inside it, so a handler passed here
    sees the tokens stream and a tracer records the episode as one tree. Its
    ``recursion_limit`` defaults to 10**6 (an episode runs one LangGraph step per game
    step); with a checkpointer, ``thread_id`` (or ``episode-<seed>``) is set in its
    ``configurable``.

    Raises:
        ValueError: The number of players does not match the game's seats, or ``resume``
            is given without a checkpointer or for a thread with no pending interrupt.
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
    if checkpointer is None and resume is not None:
        raise ValueError(
            "resume needs the checkpointer and thread_id of the interrupted episode "
            "(its run's 'checkpointer' and 'thread_id')"
        )
    if checkpointer is None and any(player.interactive for player in players):
        checkpointer = InMemorySaver()
    graph = create_episode_graph(checkpointer=checkpointer)
    context = EpisodeContext(
        players=players, game=engine, options=options or EpisodeOptions(), truths=given
    )
    config = _episode_config(config)
    start: EpisodeState = {
        "record": {
            "game": engine.versioned_id,
            "options": engine.options_dict(),
            "seed": seed,
            "actions": [],
        },
        "trajectory": [],
    }
    graph_input: EpisodeState | Command[Any] | None = start
    if checkpointer is not None:
        thread = thread_id or f"episode-{seed}"
        config["configurable"] = {**config.get("configurable", {}), "thread_id": thread}
        saved = await graph.aget_state(config)
        if resume is not None:
            if not saved.interrupts:
                raise ValueError(f"thread {thread!r} has no pending interrupt to resume")
            graph_input = resume if isinstance(resume, Command) else Command(resume=resume)
        elif saved.values.get("record") is not None and saved.next:
            graph_input = None  # resume
        elif saved.values.get("result") is not None:
            return {"result": saved.values["result"], "trajectory": saved.values["trajectory"]}
    final: dict[str, Any]
    if checkpointer is None and unwatched(config):  # the same nodes, without the graph run
        final = dict(await play_unwatched(start, context, config))
    elif checkpointer is None:
        final = await graph.ainvoke(graph_input, config=config, context=context)
    else:  # write each checkpoint before the next step, so a crash loses nothing
        final = await graph.ainvoke(graph_input, config=config, context=context, durability="sync")
    pending = final.get("__interrupt__")
    if pending:
        return {
            "result": None,
            "trajectory": final.get("trajectory") or [],
            "interrupt": {"id": pending[0].id, "value": pending[0].value},
            "thread_id": config["configurable"]["thread_id"],
            "checkpointer": checkpointer,
        }
    return {"result": final["result"], "trajectory": final["trajectory"]}


def _episode_config(given: RunnableConfig | None) -> RunnableConfig:
    """The caller's config (copied, never changed) with the episode's recursion limit."""
    config: RunnableConfig = {"recursion_limit": 10**6, **(given or {})}
    if "configurable" in config:
        config["configurable"] = dict(config["configurable"])
    return config
