"""What an episode runs with (:class:`EpisodeContext`), and the live sessions beside the graph."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from langgraph.store.base import BaseStore

from langgraph_games.games.base import Game
from langgraph_games.games.session import GameSession
from langgraph_games.graphs.episode.memory import SeatMemories, SeatMemory
from langgraph_games.graphs.episode.options import EpisodeOptions
from langgraph_games.memory.hooks import load_truths
from langgraph_games.players.base import Player

__all__ = ["EpisodeContext", "record_key"]


def record_key(record: Mapping[str, Any]) -> str:
    """The key of an episode's record: its game, options and seed."""
    return json.dumps([record["game"], record.get("options") or {}, record["seed"]])


class _Sessions:
    """Live sessions beside the graph, checked against (and rebuilt from) the record."""

    def __init__(self, game: Game[Any] | None) -> None:
        self._game = game
        self._live: dict[str, GameSession] = {}

    def get(self, record: Mapping[str, Any]) -> GameSession:
        key = record_key(record)
        session = self._live.get(key)
        actions = record["actions"]
        if (
            session is None
            or len(session.actions) != len(actions)
            or (actions and session.action_record(session.actions[-1]) != actions[-1])
        ):
            if self._game is not None:
                session = GameSession(self._game, seed=int(record["seed"]), actions=actions)
            else:
                session = GameSession.from_dict(record)
            self._live[key] = session
        return session

    def drop(self, record: Mapping[str, Any]) -> None:
        self._live.pop(record_key(record), None)


@dataclass
class EpisodeContext:
    """What an episode runs with, given to the graph at invocation (``context=``).

    The compiled episode graph is generic: players, engine, options and truths are
    runtime dependencies, so one compiled graph serves every episode (LangGraph's
    ``context_schema``). Nothing here is checkpointed; pass the same context to resume.

    Attributes:
        players: The player of each seat, in seat order.
        game: The engine to replay records with; by default the registry builds it from
            the record's game id and options.
        options: Retries, fallback and step limit.
        truths: Lessons per seat, passed to players in every request. A seat without an
            entry here gets the game's truths from the graph's store (compiled with
            ``store=``), read once per episode with
            :func:`~langgraph_games.memory.hooks.load_truths`, if it is in
            ``truth_seats``.
        truth_seats: Seats that read truths from the store (``None``: every seat).
        truth_limit: At most this many truths from the store.
    """

    players: Sequence[Player]
    game: Game[Any] | None = None
    options: EpisodeOptions = field(default_factory=EpisodeOptions)
    truths: Mapping[int, Sequence[str]] = field(default_factory=dict)
    truth_seats: Sequence[int] | None = None
    truth_limit: int | None = None
    sessions: _Sessions = field(init=False)
    memories: SeatMemories = field(init=False, default_factory=SeatMemories)
    _from_store: dict[int, tuple[str, ...]] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        self.sessions = _Sessions(self.game)

    def memory_for(
        self, record: Mapping[str, Any], trajectory: Sequence[Mapping[str, Any]], seat: int
    ) -> SeatMemory:
        """What ``seat`` saw and said earlier in the episode, read from its trajectory."""
        return self.memories.get(record_key(record), trajectory, seat)

    def forget(self, record: Mapping[str, Any]) -> None:
        """Drop the live session and the memories of a finished episode."""
        self.sessions.drop(record)
        self.memories.drop(record_key(record))

    def truths_for(self, seat: int, game_id: str, store: BaseStore | None) -> tuple[str, ...]:
        """The truths of ``seat``: given ones, else the store's (read once), else none."""
        if seat in self.truths:
            return tuple(self.truths[seat])
        if store is None or (self.truth_seats is not None and seat not in self.truth_seats):
            return ()
        if seat not in self._from_store:
            found = load_truths(store, game_id, limit=self.truth_limit)
            self._from_store[seat] = tuple(found)
        return self._from_store[seat]
