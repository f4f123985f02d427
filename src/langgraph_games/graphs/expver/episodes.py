"""Who plays the loop's episodes: an :class:`EpisodeRunner`, injected into the context.

Every episode of the Agent-ExpVer loop (a training play, its verification replay, the
test levels of a round) is handed to the context's runner as an :class:`EpisodeRequest`:
the level, its engine and the truths GeoLink's prompt holds. The runner plays a batch
(one episode, or every test level still to play at once) and calls ``done(index,
played)`` in this process as each finishes; the caller turns each into its ledger record
right away, so a crash loses only the episodes still in flight.

The default, :class:`InProcessEpisodes`, plays them on this process's event loop with the
context's player factory, at most ``concurrency`` at once. Code above the graphs layer may
give another runner that plays elsewhere (``langgraph-games train --workers N`` sends
batches to worker processes or Ray actors) as long as each finished episode comes back
as the same :class:`PlayedEpisode`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from langchain_core.language_models.chat_models import BaseChatModel

from langgraph_games.games.base import Game
from langgraph_games.games.state import GameState
from langgraph_games.graphs.episode.options import EpisodeOptions
from langgraph_games.graphs.episode.records import EpisodeResult, Step, finished_result
from langgraph_games.graphs.episode.run import run_episode
from langgraph_games.graphs.expver.parts import Level, PlayerFactory

__all__ = ["Delivered", "EpisodeRequest", "EpisodeRunner", "InProcessEpisodes", "PlayedEpisode"]


@dataclass(frozen=True)
class EpisodeRequest:
    """One episode the loop wants played.

    Attributes:
        level: The level (its ``seed`` is the episode's).
        engine: The game built with the level's options.
        truths: The truths in GeoLink's prompt.
    """

    level: Level
    engine: Game[GameState]
    truths: tuple[str, ...]


@dataclass(frozen=True)
class PlayedEpisode:
    """A finished episode as the loop records it.

    Attributes:
        result: The finished result (:func:`~langgraph_games.graphs.episode.records.
            finished_result`).
        trajectory: Its steps.
        started_at: When it started (epoch seconds).
        duration_s: How long it took.
    """

    result: EpisodeResult
    trajectory: list[Step]
    started_at: float
    duration_s: float


Delivered = Callable[[int, PlayedEpisode], None]
"""``done(index, played)``: called in the loop's process with each request's episode."""


class EpisodeRunner(Protocol):
    """Plays batches of the loop's episodes (see the module docstring)."""

    async def __call__(self, requests: Sequence[EpisodeRequest], done: Delivered) -> None:
        """Play ``requests`` and call ``done(index, played)`` here as each finishes.

        Raises:
            Exception: An episode failed; the batch stops with it (episodes already
                delivered stay recorded).
        """
        ...


class InProcessEpisodes:
    """The default runner: episodes on this process's loop, ``concurrency`` at once.

    Each episode gets a player of its own from ``player_factory(model, engine)``.
    """

    def __init__(
        self,
        model: BaseChatModel,
        player_factory: PlayerFactory,
        options: EpisodeOptions,
        concurrency: int,
    ) -> None:
        self.model = model
        self.player_factory = player_factory
        self.options = options
        self.concurrency = concurrency

    async def __call__(self, requests: Sequence[EpisodeRequest], done: Delivered) -> None:
        """Play ``requests``, at most ``concurrency`` at once; ``done`` as each finishes.

        When one fails, the others still playing are cancelled (and not delivered).
        """
        gate = asyncio.Semaphore(self.concurrency)

        async def one(index: int, request: EpisodeRequest) -> None:
            async with gate:
                played = await self.play(request)
                done(index, played)

        tasks = [asyncio.ensure_future(one(i, request)) for i, request in enumerate(requests)]
        try:
            await asyncio.gather(*tasks)
        finally:  # a failure (or Ctrl-C) stops the others: only what finished is recorded
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def play(self, request: EpisodeRequest) -> PlayedEpisode:
        """Play one episode here."""
        started = time.time()
        engine = request.engine
        out = await run_episode(
            engine,
            [self.player_factory(self.model, engine)],
            seed=request.level.seed,
            options=self.options,
            truths={0: list(request.truths)},
        )
        return PlayedEpisode(
            result=finished_result(out),
            trajectory=list(out["trajectory"]),
            started_at=started,
            duration_s=time.time() - started,
        )
