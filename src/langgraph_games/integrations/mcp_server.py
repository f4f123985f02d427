"""Every game over the Model Context Protocol: ``langgraph-games mcp``.

:func:`build_server` makes a FastMCP server with these tools:

* ``list_games()``: the registered games, with their options;
* ``new_game(game, options, seed, seat, opponent)``: start a game; returns its session id
  and the first view. The client plays ``seat``; every other seat is driven by
  ``opponent`` (``random``, ``minimax``, or another non-LLM player spec);
* ``observe(session)``, ``legal_moves(session)``: the client's view and moves now;
* ``move(session, action)``: make a move (one of the legal moves, or text the game's own
  reader accepts); the other seats answer;
* ``result(session)``: done flag, returns, winners, the client's verdict, and the record
  (game, options, seed, moves) that replays the game;
* ``close_game(session)``: forget a game.

Games are kept per MCP session (see :mod:`.mcp_sessions`): a client sees only the games
it started, up to a cap, and a game unused for an hour expires. A bad request (unknown
game, option, session or move) is a tool error whose text says what is accepted. The game
work runs in a worker thread, so a slow opponent does not stall other clients.

:func:`serve` runs it over stdio or streamable HTTP (``/mcp``, on 127.0.0.1 by default).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal, TypeVar

import anyio.to_thread
from langchain_core.tools import ToolException
from mcp.server.fastmcp import Context, FastMCP
from mcp.server.fastmcp.exceptions import ToolError
from pydantic import Field

from langgraph_games.integrations.mcp_sessions import (
    GameSessions,
    SessionLimitError,
    UnknownSessionError,
)
from langgraph_games.tools.game_tools import SessionToolkit
from langgraph_games.tools.manager import SessionLobby

__all__ = ["INSTRUCTIONS", "build_server", "serve"]

T = TypeVar("T")

INSTRUCTIONS = (
    "Play games. list_games shows them; new_game starts one and returns its session id; "
    "then call observe, legal_moves and move with that id until the game is over; result "
    "gives the outcome. Games belong to this MCP session."
)

_ERRORS = (ToolException, UnknownSessionError, SessionLimitError)

Session = Annotated[str, Field(description="The session id new_game returned, e.g. 'game-1'.")]


def _owner(ctx: Context[Any, Any, Any]) -> object:
    """The client a request comes from: its MCP session."""
    return ctx.session


async def _run(work: Callable[[], T]) -> T:
    """Run game work in a worker thread; turn refusals into tool errors."""
    try:
        return await anyio.to_thread.run_sync(work)
    except _ERRORS as exc:
        raise ToolError(str(exc)) from exc


def _verdict(manager: SessionLobby) -> str:
    toolkit = manager.toolkit
    assert toolkit is not None  # a stored manager has started its game
    result = toolkit.session.result()
    if not result["done"]:
        return "in progress"
    if toolkit.game.num_players == 1:
        return "finished"
    winners = result["winners"]
    if not winners:
        return "draw"
    if toolkit.player in winners:
        return "won" if len(winners) == 1 else "shared win"
    return "lost"


def _result(game_id: str, manager: SessionLobby) -> dict[str, Any]:
    toolkit = manager.toolkit
    assert toolkit is not None
    session = toolkit.session
    return {
        "session": game_id,
        "game": session.game.versioned_id,
        "seat": toolkit.player,
        **session.result(),
        "verdict": _verdict(manager),
        "record": session.to_dict(),
    }


def build_server(
    sessions: GameSessions | None = None,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
) -> FastMCP[Any]:
    """A FastMCP server with the game tools (see the module docstring).

    Args:
        sessions: Where games are kept (default: a :class:`GameSessions` with its
            default limits).
        host: Address the HTTP transport binds.
        port: Port of the HTTP transport.
    """
    games = sessions if sessions is not None else GameSessions()
    lobby = SessionLobby(bounded=True)
    server: FastMCP[Any] = FastMCP(
        "langgraph-games", instructions=INSTRUCTIONS, host=host, port=port, log_level="WARNING"
    )

    @server.tool()
    async def list_games() -> str:
        """List the games you can play, with their options."""
        return lobby.list_games_text()

    @server.tool()
    async def new_game(
        game: Annotated[str, Field(description="Game id from list_games, e.g. 'tictactoe'.")],
        ctx: Context[Any, Any, Any],
        options: Annotated[
            dict[str, object] | None,
            Field(description="Game options, e.g. {'level': 2} for messenger."),
        ] = None,
        seed: Annotated[
            int, Field(description="Episode seed (same seed and moves, same game).")
        ] = 0,
        seat: Annotated[int, Field(description="Your seat: 0 moves first.")] = 0,
        opponent: Annotated[
            str,
            Field(
                description="Player for the other seats: 'random' or 'minimax' (optionally "
                "with settings, e.g. 'minimax:depth=3')."
            ),
        ] = "random",
    ) -> str:
        """Start a game and show it. Returns the session id to pass to the other tools."""
        owner = _owner(ctx)
        game_id, text = await _run(
            lambda: games.start(
                owner, game, options=options, seed=seed, seat=seat, opponent=opponent
            )
        )
        return f"Session: {game_id}\n{text}"

    @server.tool()
    async def observe(session: Session, ctx: Context[Any, Any, Any]) -> str:
        """See a game as you see it now: the position, whose turn it is, or the result."""
        owner = _owner(ctx)
        return await _run(lambda: _toolkit(games, owner, session).observe())

    @server.tool()
    async def legal_moves(session: Session, ctx: Context[Any, Any, Any]) -> str:
        """List the moves you can make in a game now."""
        owner = _owner(ctx)
        return await _run(lambda: _toolkit(games, owner, session).list_moves())

    @server.tool()
    async def move(
        session: Session,
        action: Annotated[str, Field(description="One of the legal moves, as listed.")],
        ctx: Context[Any, Any, Any],
    ) -> str:
        """Make a move, written as one of the legal moves; the other players answer."""
        owner = _owner(ctx)
        return await _run(lambda: _toolkit(games, owner, session).move(action=action))

    @server.tool()
    async def result(session: Session, ctx: Context[Any, Any, Any]) -> dict[str, Any]:
        """The outcome so far: done, returns, winners, your verdict and the move record."""
        owner = _owner(ctx)
        return await _run(lambda: _result(session, games.get(owner, session)))

    @server.tool()
    async def close_game(session: Session, ctx: Context[Any, Any, Any]) -> str:
        """Forget a game (it no longer counts towards your open games)."""
        owner = _owner(ctx)
        await _run(lambda: games.close(owner, session))
        return f"Closed {session}."

    return server


def _toolkit(games: GameSessions, owner: object, game_id: str) -> SessionToolkit:
    toolkit = games.get(owner, game_id).toolkit
    assert toolkit is not None
    return toolkit


def serve(
    transport: Literal["stdio", "http"] = "stdio",
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    sessions: GameSessions | None = None,
) -> None:
    """Run the server until it is stopped (stdio: until the client closes the pipe)."""
    server = build_server(sessions, host=host, port=port)
    server.run("stdio" if transport == "stdio" else "streamable-http")
