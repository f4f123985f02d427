"""What an episode runs with (:class:`EpisodeContext`), and the live sessions beside the graph."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from langgraph_games.games.base import Game
from langgraph_games.games.session import GameSession
from langgraph_games.games.state import GameState
from langgraph_games.graphs.episode.memory import SeatMemories, SeatMemory
from langgraph_games.graphs.episode.options import EpisodeOptions
from langgraph_games.players.base import Player

__all__ = ["EpisodeContext", "record_key"]


def record_key(record: Mapping[str, Any]) -> str:
    """The key of an episode's record: its game, options and seed."""
    return json.dumps([record["game"], record.get("options") or {}, record["seed"]])


class _Sessions:
    """Live sessions beside the graph, checked against (and rebuilt from) the record."""

    def __init__(self, game: Game[GameState] | None) -> None:
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
        truths: Lessons per seat, passed to players in every request (a seat without an
            entry gets none). The loop never reads a store: whoever runs episodes reads
            the truths once (:class:`~langgraph_games.memory.hooks.TruthSource`) and
            passes them here.
    """

    players: Sequence[Player]
    game: Game[GameState] | None = None
    options: EpisodeOptions = field(default_factory=EpisodeOptions)
    truths: Mapping[int, Sequence[str]] = field(default_factory=dict)
    sessions: _Sessions = field(init=False)
    _truths: dict[int, tuple[str, ...]] = field(init=False)
    memories: SeatMemories = field(init=False, default_factory=SeatMemories)

    def __post_init__(self) -> None:
        self.sessions = _Sessions(self.game)
        self._truths = {int(seat): tuple(texts) for seat, texts in self.truths.items()}

    def memory_for(
        self, record: Mapping[str, Any], trajectory: Sequence[Mapping[str, Any]], seat: int
    ) -> SeatMemory:
        """What ``seat`` saw and said earlier in the episode, read from its trajectory."""
        return self.memories.get(record_key(record), trajectory, seat)

    def forget(self, record: Mapping[str, Any]) -> None:
        """Drop the live session and the memories of a finished episode."""
        self.sessions.drop(record)
        self.memories.drop(record_key(record))

    def truths_for(self, seat: int) -> tuple[str, ...]:
        """The truths of ``seat`` (none when it has no entry)."""
        return self._truths.get(seat, ())
