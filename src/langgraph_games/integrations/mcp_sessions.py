"""Games kept for MCP clients: isolated per client, capped in number, expired when idle.

:class:`GameSessions` stores the games the MCP server's tools play. Each game is a
:class:`~langgraph_games.tools.manager.SessionLobby` (the lobby tools' one-game holder: the
game session, the client's seat and the players driving the other seats), so the texts a
client reads are those of the LangChain game tools.

A game belongs to the *owner* that started it: the MCP server passes the client's MCP
session object, so one client can neither see nor move another's games, whatever id it
sends. Owners are held weakly, so a client's games go when its MCP session does. Game ids
are ``game-1``, ``game-2``, ... per owner. A cap bounds the open games of one owner and
of the whole server, and a game untouched for ``idle_timeout_s`` is dropped.
"""

from __future__ import annotations

import threading
import time
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from langgraph_games.tools.manager import SessionLobby

__all__ = ["GameSessions", "SessionLimitError", "UnknownSessionError"]


class UnknownSessionError(LookupError):
    """A game id this client has not started (or that expired or was closed)."""

    def __str__(self) -> str:
        return str(self.args[0])


class SessionLimitError(RuntimeError):
    """Too many open games: for this client or for the whole server."""


@dataclass
class _Entry:
    manager: SessionLobby
    last_used: float


@dataclass
class _Owner:
    games: dict[str, _Entry] = field(default_factory=dict)
    started: int = 0


class GameSessions:
    """The open games of every client (thread-safe).

    Args:
        max_games_per_client: Open games one client may hold.
        max_games: Open games the whole server may hold.
        idle_timeout_s: Seconds after its last use at which a game is dropped.
        clock: Monotonic time source (tests pass a fake one).

    Raises:
        ValueError: A limit is not positive.
    """

    def __init__(
        self,
        *,
        max_games_per_client: int = 16,
        max_games: int = 1024,
        idle_timeout_s: float = 3600.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if min(max_games_per_client, max_games) < 1 or idle_timeout_s <= 0:
            raise ValueError("session limits and the idle timeout must be positive")
        self.max_games_per_client = max_games_per_client
        self.max_games = max_games
        self.idle_timeout_s = idle_timeout_s
        self._clock = clock
        self._owners: weakref.WeakKeyDictionary[object, _Owner] = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()

    def _expire(self, now: float) -> None:
        for owner in list(self._owners.values()):
            for game_id, entry in list(owner.games.items()):
                if now - entry.last_used > self.idle_timeout_s:
                    del owner.games[game_id]

    def _check_room(self, owner: object) -> None:
        self._expire(self._clock())
        mine = self._owners.get(owner)
        if mine is not None and len(mine.games) >= self.max_games_per_client:
            raise SessionLimitError(
                f"This client already has {len(mine.games)} open games, the limit: close "
                f"one with close_game (open: {', '.join(mine.games)}), or let one expire "
                f"after {self.idle_timeout_s:g} s unused."
            )
        total = sum(len(o.games) for o in self._owners.values())
        if total >= self.max_games:
            raise SessionLimitError(
                f"The server holds {total} open games, its limit; close a game or retry "
                "when idle games have expired."
            )

    def open_games(self, owner: object) -> list[str]:
        """Ids of the owner's open games, oldest first."""
        with self._lock:
            self._expire(self._clock())
            known = self._owners.get(owner)
            return list(known.games) if known is not None else []

    def start(
        self,
        owner: object,
        game: str,
        *,
        options: Mapping[str, object] | None = None,
        seed: int = 0,
        seat: int = 0,
        opponent: str = "random",
    ) -> tuple[str, str]:
        """Start a game for ``owner``; return its id and the first view.

        Raises:
            SessionLimitError: The owner or the server holds as many games as allowed.
            langchain_core.tools.ToolException: Unknown game, bad option, seat or
                opponent (the message says what is accepted).
        """
        with self._lock:
            self._check_room(owner)
        manager = SessionLobby(bounded=True)  # clients choose opponents: cap their search
        text = manager.start(game, seat=seat, opponent=opponent, seed=seed, options=options)
        with self._lock:
            self._check_room(owner)  # another start may have taken the last place meanwhile
            mine = self._owners.setdefault(owner, _Owner())
            mine.started += 1
            game_id = f"game-{mine.started}"
            mine.games[game_id] = _Entry(manager, self._clock())
        return game_id, text

    def get(self, owner: object, game_id: str) -> SessionLobby:
        """The owner's game ``game_id`` (its use keeps it from expiring).

        Raises:
            UnknownSessionError: The owner has no such open game; the message lists the
                ones it has.
        """
        with self._lock:
            now = self._clock()
            self._expire(now)
            mine = self._owners.get(owner)
            entry = mine.games.get(game_id) if mine is not None else None
            if entry is None:
                open_ids = ", ".join(mine.games) if mine is not None and mine.games else "none"
                raise UnknownSessionError(
                    f"No open game {game_id!r} in this MCP session (open games: {open_ids}). "
                    "Games belong to the MCP session that started them and expire after "
                    f"{self.idle_timeout_s:g} s unused; start one with new_game."
                )
            entry.last_used = now
            return entry.manager

    def close(self, owner: object, game_id: str) -> None:
        """Forget the owner's game ``game_id``.

        Raises:
            UnknownSessionError: The owner has no such open game.
        """
        self.get(owner, game_id)
        with self._lock:
            mine = self._owners.get(owner)
            if mine is not None:
                mine.games.pop(game_id, None)
