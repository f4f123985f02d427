"""The graphs LangGraph Server serves (``langgraph dev`` with the repository's ``langgraph.json``).

Each graph takes JSON only, so Studio and the HTTP API can start it: players are spec
strings (``"gamebot:local"``, ``"random"``, ``"human"``) that the player registry resolves
inside the run, models are model specs (default ``local``), and the input and state
schemas are ``typing_extensions.TypedDict`` (Studio shows their fields on Python 3.11).

- ``episode``: one game between players given as specs. A ``human`` seat stops the run
  at each of its moves with an interrupt (payload: game, seat, board, legal moves,
  prompt, feedback); resume it with ``Command(resume="<move>")`` (the API's
  ``command={"resume": ...}``). The episode loop runs as a subgraph of the ``play`` node
  on the server's checkpointer, so a resumed run goes on from the interrupted move.
- ``decide`` and ``gamebot``: one decision of any player (``gamebot``: GAMEBoT's by
  default) at a position given as the game, its options, the seed and the moves so far.
  A strategy built on a decision graph runs it as a subgraph (its nodes and model calls
  stream and trace under the run).
- ``expver``: the Agent-ExpVer training loop over levels given as JSON. Its experiences
  and truths go to the server's store (the graph's ``store``; an in-memory one when run
  without), one run after another on one truth base per game, so the ``episode`` graph
  can play with what was learned (``truths_from_store``).

A run's input can name model specs, and a model spec can name an endpoint
(``openai:gpt-4o@https://host/v1``) that the server would call with its API key. So a run
may only name the model specs whoever deployed the server allowed, in
``LANGGRAPH_GAMES_MODELS`` (comma-separated, e.g. ``local,openai:gpt-4o-mini``; default
``local``, which sends nothing anywhere); any other is refused with the list.

Testing hook: with ``LANGGRAPH_GAMES_SCRIPTED_MODEL`` set to the path of a JSON list of
replies, every model spec resolves to one scripted chat model answering those replies in
turn (cycled). It exists so tests can run the server without the embedded model.
"""

from __future__ import annotations

import asyncio
import json
import os
import uuid
from functools import cache
from pathlib import Path
from typing import Literal

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.runnables import RunnableConfig
from langgraph.config import get_store
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.store.base import BaseStore
from typing_extensions import TypedDict

from langgraph_games._json import JsonObject
from langgraph_games.eval.running.players import ModelPool, build_player
from langgraph_games.games.base import Game
from langgraph_games.games.registry import make
from langgraph_games.games.session import GameSession
from langgraph_games.games.state import GameState
from langgraph_games.graphs.common.decision import GraphPlayer, decision_from_dict, request_to_input
from langgraph_games.graphs.episode.context import EpisodeContext
from langgraph_games.graphs.episode.graph import create_episode_graph
from langgraph_games.graphs.episode.options import EpisodeOptions
from langgraph_games.graphs.episode.records import EpisodeResult, SessionRecord, Trajectory
from langgraph_games.graphs.expver.graph import create_expver_graph
from langgraph_games.graphs.expver.parts import ExpVerOptions, Level
from langgraph_games.graphs.expver.records import TestRound
from langgraph_games.memory.hooks import aload_truths
from langgraph_games.models.errors import ModelSpecError
from langgraph_games.models.fake import ScriptedChatModel
from langgraph_games.players.base import Decision, DecisionRequest, Player
from langgraph_games.players.records import AttemptEntry

__all__ = [
    "ALLOWED_MODELS_ENV",
    "SCRIPTED_MODEL_ENV",
    "DecideState",
    "EpisodeRunState",
    "ExpVerRunState",
    "create_decide_graph",
    "create_server_episode_graph",
    "create_server_expver_graph",
    "decide",
    "episode",
    "expver",
    "gamebot",
    "server_models",
]

SCRIPTED_MODEL_ENV = "LANGGRAPH_GAMES_SCRIPTED_MODEL"
"""Testing hook: path of a JSON list of replies every model spec then resolves to."""

ALLOWED_MODELS_ENV = "LANGGRAPH_GAMES_MODELS"
"""The model specs a run may name, comma-separated (default ``local``)."""


class _AllowedPool(ModelPool):
    """Models by spec, only the specs the deployment allows (a run can name no endpoint)."""

    def __init__(self, allowed: tuple[str, ...], model: BaseChatModel | None = None) -> None:
        super().__init__()
        self.allowed = allowed
        self.model = model

    def get(self, spec: str) -> BaseChatModel:
        """The model of an allowed ``spec`` (the scripted one under the testing hook).

        Raises:
            ModelSpecError: ``spec`` is not one of the allowed specs.
        """
        if spec.strip() not in self.allowed:
            raise ModelSpecError(
                f"model spec {spec!r} is not allowed by this server; it allows "
                f"{', '.join(self.allowed)} (whoever deploys it sets {ALLOWED_MODELS_ENV})"
            )
        return self.model if self.model is not None else super().get(spec.strip())


@cache
def server_models() -> ModelPool:
    """The server process's chat models: one per allowed model spec (or the scripted hook).

    Raises:
        ValueError: :data:`SCRIPTED_MODEL_ENV` names a file that is not a JSON list.
    """
    listed = os.environ.get(ALLOWED_MODELS_ENV, "local")
    allowed = tuple(dict.fromkeys(s.strip() for s in listed.split(",") if s.strip()))
    path = os.environ.get(SCRIPTED_MODEL_ENV)
    if not path:
        return _AllowedPool(allowed)
    replies = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(replies, list) or not replies:
        raise ValueError(f"{SCRIPTED_MODEL_ENV}={path!r} must hold a non-empty JSON list")
    return _AllowedPool(allowed, ScriptedChatModel(responses=[str(r) for r in replies]))


def _runtime_store() -> BaseStore | None:
    """The store the running graph was given (the server's), or ``None`` without one."""
    try:
        store: BaseStore | None = get_store()
    except (RuntimeError, KeyError, AttributeError):  # not inside a run with a runtime
        return None
    return store


# ----- episode ----------------------------------------------------------------------------


class EpisodeRunState(TypedDict, total=False):
    """Input and state of the served ``episode`` graph.

    Attributes:
        game: Game id, e.g. ``tictactoe`` (default ``tictactoe``).
        players: One player spec per seat, e.g. ``["gamebot:local", "random"]``.
        seed: Episode seed.
        game_options: Game options.
        truths_from_store: Give every seat the active truths of the game from the
            server's store (what the ``expver`` graph learned).
        max_retries: Re-asks after an unusable answer (default 2).
        fallback: ``game``, ``random`` or ``forfeit`` (default ``game``).
        max_steps: Stop after this many moves (default: play to the end).
        result: The outcome (status, returns, winners, record, per-seat counters).
        trajectory: Every step's observations, decisions and events.
    """

    game: str
    players: list[str]
    seed: int
    game_options: JsonObject
    truths_from_store: bool
    max_retries: int
    fallback: Literal["game", "random", "forfeit"]
    max_steps: int | None
    result: EpisodeResult | None
    trajectory: Trajectory


async def _play(state: EpisodeRunState, config: RunnableConfig) -> EpisodeRunState:
    game = make(state.get("game") or "tictactoe", **(state.get("game_options") or {}))
    specs = list(state.get("players") or [])
    if len(specs) != game.num_players:
        raise ValueError(
            f"{game.id} has {game.num_players} seats; 'players' gives {len(specs)} spec(s)"
        )
    seed = int(state.get("seed") or 0)
    # Building may load a model (file reads): off the event loop, as the server requires.
    players = await asyncio.to_thread(_build_players, specs, game, seed)
    options = EpisodeOptions(
        max_retries=state.get("max_retries", 2),
        fallback=state.get("fallback", "game"),
        max_steps=state.get("max_steps"),
    )
    truths: dict[int, tuple[str, ...]] = {}
    if state.get("truths_from_store"):
        learned = tuple(await aload_truths(_runtime_store(), game.id))
        truths = {seat: learned for seat in range(game.num_players)}
    context = EpisodeContext(players=players, game=game, options=options, truths=truths)
    record: SessionRecord = {
        "game": game.versioned_id,
        "options": game.options_dict(),
        "seed": seed,
        "actions": [],
    }
    # Called inside this node, the loop is a subgraph on the server's checkpointer: an
    # interrupt (a human seat) stops the run, and on resume this node runs again, the
    # loop goes on from its own checkpoint and the person's answer reaches the interrupt.
    final = await create_episode_graph().ainvoke(
        {"record": record, "trajectory": []},
        {**config, "recursion_limit": 10**6},
        context=context,
    )
    return {"result": final["result"], "trajectory": final["trajectory"]}


def _build_players(specs: list[str], game: Game[GameState], seed: int) -> list[Player]:
    models = server_models()
    return [
        build_player(spec, game, models=models, seed=seed * 10 + seat)
        for seat, spec in enumerate(specs)
    ]


def create_server_episode_graph() -> CompiledStateGraph[
    EpisodeRunState, None, EpisodeRunState, EpisodeRunState
]:
    """The served ``episode`` graph (JSON input, players as specs)."""
    builder = StateGraph(EpisodeRunState)
    builder.add_node("play", _play)
    builder.add_edge(START, "play")
    builder.add_edge("play", END)
    return builder.compile(name="episode")


# ----- one decision -----------------------------------------------------------------------


class DecideState(TypedDict, total=False):
    """Input and state of the served ``decide`` and ``gamebot`` graphs.

    Attributes:
        player: The player spec (``decide``: default ``random``; ``gamebot``: default
            ``gamebot`` with the ``local`` model).
        game: Game id (default ``tictactoe``).
        game_options: Game options.
        seed: The game's seed.
        actions: The moves so far (turn-based games: one action each).
        seat: The deciding seat (default: the first acting seat).
        truths: Lessons to give the player.
        decision: The decision (action, status, raw outputs, scores, usage).
    """

    player: str
    game: str
    game_options: JsonObject
    seed: int
    actions: list[str | dict[str, str]]
    seat: int | None
    truths: list[str]
    decision: AttemptEntry


async def _decide(state: DecideState, config: RunnableConfig, default: str) -> DecideState:
    game = make(state.get("game") or "tictactoe", **(state.get("game_options") or {}))
    session = GameSession(
        game, seed=int(state.get("seed") or 0), actions=state.get("actions") or []
    )
    if session.done:
        raise ValueError("the game is over after these moves: there is no decision to make")
    seat = state.get("seat")
    seat = session.current_players[0] if seat is None else int(seat)
    if seat not in session.current_players:
        raise ValueError(f"seat {seat} does not act now; acting: {list(session.current_players)}")
    spec = state.get("player") or default
    player = await asyncio.to_thread(build_player, spec, game, models=server_models())
    request = DecisionRequest(
        game=game,
        state=session.state,
        player=seat,
        observation=session.observe(seat),
        legal_actions=tuple(session.legal_actions(seat)),
        truths=tuple(state.get("truths") or ()),
    )
    decision: Decision
    if isinstance(player, GraphPlayer):  # its graph runs as a subgraph of this node
        final = await player.graph.ainvoke(request_to_input(request), config)
        made = final["decision"]  # a Decision in process; its dict once serialised
        decision = made if isinstance(made, Decision) else decision_from_dict(made)
    else:
        decision = await player.adecide(request)
    return {"decision": decision.to_dict()}


def create_decide_graph(
    default: str, name: str
) -> CompiledStateGraph[DecideState, None, DecideState, DecideState]:
    """A served graph making one decision of the player ``state["player"]`` (or ``default``)."""

    async def decide_node(state: DecideState, config: RunnableConfig) -> DecideState:
        return await _decide(state, config, default)

    builder = StateGraph(DecideState)
    builder.add_node("decide", decide_node)
    builder.add_edge(START, "decide")
    builder.add_edge("decide", END)
    return builder.compile(name=name)


# ----- ExpVer -----------------------------------------------------------------------------


class ExpVerRunState(TypedDict, total=False):
    """Input and state of the served ``expver`` graph.

    Attributes:
        game: ``maze`` or ``match2`` (default ``maze``).
        model: Model spec (default ``local``).
        train_levels: Levels to train on: ``{"id", "options", "seed"}`` each.
        test_levels: Levels every round is tested on.
        options: The loop's options (:class:`~langgraph_games.graphs.expver.parts.ExpVerOptions`).
        rounds: Each round's test record.
    """

    game: str
    model: str
    train_levels: list[JsonObject]
    test_levels: list[JsonObject]
    options: JsonObject
    rounds: list[TestRound]


async def _train(state: ExpVerRunState, config: RunnableConfig) -> ExpVerRunState:
    model = await asyncio.to_thread(server_models().get, state.get("model") or "local")
    loop = create_expver_graph(
        model,
        state.get("game") or "maze",
        train_levels=[Level.model_validate(x) for x in state.get("train_levels") or []],
        test_levels=[Level.model_validate(x) for x in state.get("test_levels") or []],
        options=ExpVerOptions.model_validate(state.get("options") or {}),
        store=_runtime_store(),
        run_id=f"served-{uuid.uuid4().hex[:12]}",
        exclusive_store=False,
    )
    final = await loop.ainvoke({}, {**config, "recursion_limit": 10**6})
    return {"rounds": final.get("rounds") or []}


def create_server_expver_graph() -> CompiledStateGraph[
    ExpVerRunState, None, ExpVerRunState, ExpVerRunState
]:
    """The served ``expver`` graph (levels and options as JSON)."""
    builder = StateGraph(ExpVerRunState)
    builder.add_node("train", _train)
    builder.add_edge(START, "train")
    builder.add_edge("train", END)
    return builder.compile(name="expver")


episode = create_server_episode_graph()
"""The ``episode`` graph of ``langgraph.json``."""
decide = create_decide_graph("random", "decide")
"""The ``decide`` graph of ``langgraph.json``."""
gamebot = create_decide_graph("gamebot:local", "gamebot")
"""The ``gamebot`` graph of ``langgraph.json``."""
expver = create_server_expver_graph()
"""The ``expver`` graph of ``langgraph.json``."""
