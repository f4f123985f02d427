"""Tools to choose and start games: ``list_games``, ``start_game`` and generic play tools.

:class:`SessionLobby` gives an agent a lobby: it can list the registered games, start one
(picking the game, its options, the seed, its seat and the opponent player), and play it
through ``observe``, ``legal_moves`` and ``make_move(action: str)``. The move tool is
generic because the game is not known when the tools are made; each game's own parser
still reads the action (a Connect4 column digit, a SmartPlay action name, ...). Starting
a new game replaces the current one; the lobby keeps one session, shared by every caller
of its tools (a script, one conversation). An agent serving several threads needs
:func:`~langgraph_games.tools.thread_tools.create_thread_game_tools`, whose lobby keeps
each thread's game in that thread's state.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from langchain_core.tools import BaseTool, StructuredTool, ToolException
from pydantic import BaseModel, Field

from langgraph_games.games.errors import GameError
from langgraph_games.games.registry import list_games, make
from langgraph_games.games.session import GameSession
from langgraph_games.players.base import Player
from langgraph_games.players.budget import within_budget
from langgraph_games.players.errors import PlayerSpecError
from langgraph_games.players.registry import make_player
from langgraph_games.tools.game_tools import ERROR_HANDLING, SessionToolkit

__all__ = [
    "GameManager",
    "SessionLobby",
    "StartArgs",
    "create_game_manager_tools",
    "create_session_lobby_tools",
    "games_text",
    "lobby_toolkit",
    "started_text",
]

_NO_GAME = "No game is running. Call start_game first (list_games shows the games)."


def games_text() -> str:
    """One line per registered game: id, players, description and options."""
    lines = []
    for info in list_games():
        players = "1 player" if info.num_players == 1 else f"{info.num_players} players"
        options = "; ".join(f"{o.name}={o.default!r}" for o in info.options)
        extra = f" Options: {options}." if options else ""
        lines.append(f"- {info.id} ({players}, {info.source}): {info.description}{extra}")
    return "Games:\n" + "\n".join(lines)


def lobby_toolkit(
    game: str,
    seat: int = 0,
    opponent: str = "random",
    seed: int = 0,
    options: Mapping[str, object] | None = None,
    *,
    bounded: bool = False,
) -> SessionToolkit:
    """A new session of ``game`` with ``opponent`` (a player spec) in every other seat.

    Args:
        game: Game id.
        seat: The agent's seat.
        opponent: Player spec for the other seats.
        seed: Episode seed (also the opponents' seed).
        options: Game options.
        bounded: Cap the opponents' search work (:func:`~langgraph_games.players.budget.
            within_budget`).

    Returns:
        A toolkit with generic ``action: str`` moves, before any opponent moved.

    Raises:
        ToolException: Unknown game, bad option, bad seat or bad opponent spec.
    """
    try:
        session = GameSession(make(game, **(options or {})), seed=seed)
        others = [p for p in range(session.game.num_players) if p != seat]
        players: dict[int, Player] = {p: make_player(opponent, seed=seed) for p in others}
        if bounded:
            players = {p: within_budget(player) for p, player in players.items()}
        return SessionToolkit(session, seat, players, typed=False)
    except (GameError, PlayerSpecError, ValueError, TypeError) as exc:
        raise ToolException(f"Could not start {game!r}: {exc}") from exc


def started_text(session: GameSession, options: Mapping[str, object] | None) -> str:
    """The first line of ``start_game``'s answer: the game, its seed and its options."""
    described = json.dumps(session.game.options_dict()) if options else "defaults"
    return f"Started {session.game.name} (seed {session.seed}, options {described})."


class StartArgs(BaseModel):
    """Arguments of ``start_game``."""

    game: str = Field(description="Game id from list_games, e.g. 'connect4'.")
    seat: int = Field(0, description="Your seat: 0 moves first in two-player games.")
    opponent: str = Field(
        "random",
        description="Player for the other seats: 'random' or 'minimax' (optionally "
        "with settings, e.g. 'minimax:depth=3').",
    )
    seed: int = Field(0, description="Episode seed (same seed and moves, same game).")
    options: dict[str, object] = Field(
        default_factory=dict, description="Game options, e.g. {'level': 2} for messenger."
    )


class SessionLobby:
    """One lobby and its current game (one session at a time, for every caller)."""

    def __init__(self, bounded: bool = False) -> None:
        """Hold no game yet.

        Args:
            bounded: Cap the opponents' search work (:func:`~langgraph_games.players.
                budget.within_budget`): for a server playing for clients it does not control.
        """
        self.toolkit: SessionToolkit | None = None
        self.bounded = bounded

    @property
    def session(self) -> GameSession | None:
        """The current game's session, if one was started."""
        return None if self.toolkit is None else self.toolkit.session

    def list_games_text(self) -> str:
        """One line per registered game: id, players, description and options."""
        return games_text()

    def start(
        self,
        game: str,
        seat: int = 0,
        opponent: str = "random",
        seed: int = 0,
        options: Mapping[str, object] | None = None,
    ) -> str:
        """Start a game; return its first view.

        Raises:
            ToolException: Unknown game, bad option, bad seat or bad opponent spec.
        """
        toolkit = lobby_toolkit(game, seat, opponent, seed, options, bounded=self.bounded)
        self.toolkit = toolkit
        return f"{started_text(toolkit.session, options)}\n\n{toolkit.observe()}"

    def _current(self) -> SessionToolkit:
        if self.toolkit is None:
            raise ToolException(_NO_GAME)
        return self.toolkit

    def get_tools(self) -> list[BaseTool]:
        """``list_games``, ``start_game``, ``observe``, ``legal_moves``, ``make_move``."""

        def list_games_tool() -> str:
            return self.list_games_text()

        def start_game(
            game: str,
            seat: int = 0,
            opponent: str = "random",
            seed: int = 0,
            options: Mapping[str, object] | None = None,
        ) -> str:
            return self.start(game, seat, opponent, seed, options)

        def observe() -> str:
            return self._current().observe()

        async def aobserve() -> str:
            return await self._current().aobserve()

        def legal_moves() -> str:
            return self._current().list_moves()

        async def alegal_moves() -> str:
            return await self._current().alist_moves()

        def make_move(action: str) -> str:
            return self._current().move(action=action)

        async def amake_move(action: str) -> str:
            return await self._current().amove(action=action)

        return [
            StructuredTool.from_function(
                list_games_tool,
                name="list_games",
                description="List the games you can play, with their options.",
                **ERROR_HANDLING,
            ),
            StructuredTool.from_function(
                start_game,
                name="start_game",
                description="Start a new game (replacing the current one) and show it.",
                args_schema=StartArgs,
                **ERROR_HANDLING,
            ),
            StructuredTool.from_function(
                observe,
                coroutine=aobserve,
                name="observe",
                description="See the current game: the position, whose turn it is, the result.",
                **ERROR_HANDLING,
            ),
            StructuredTool.from_function(
                legal_moves,
                coroutine=alegal_moves,
                name="legal_moves",
                description="List the moves you can make in the current game now.",
                **ERROR_HANDLING,
            ),
            StructuredTool.from_function(
                make_move,
                coroutine=amake_move,
                name="make_move",
                description="Make a move in the current game, written as one of the legal moves.",
                **ERROR_HANDLING,
            ),
        ]


def create_session_lobby_tools() -> list[BaseTool]:
    """Lobby tools for a script or one conversation that picks its games (:class:`SessionLobby`).

    Example:
        >>> tools = create_session_lobby_tools()
        >>> [t.name for t in tools]
        ['list_games', 'start_game', 'observe', 'legal_moves', 'make_move']
        >>> print(tools[4].invoke({"action": "Rock"}))
        No game is running. Call start_game first (list_games shows the games).
    """
    return SessionLobby().get_tools()


GameManager = SessionLobby
"""The former name of :class:`SessionLobby` (kept for existing imports)."""

create_game_manager_tools = create_session_lobby_tools
"""The former name of :func:`create_session_lobby_tools` (kept for existing imports)."""
