"""LangChain tools that seat an agent at one game session: observe, list legal moves, move.

:class:`SessionToolkit` binds one seat of one :class:`GameSession` to three tools. The
session lives in the toolkit (the tools are closures over it), never in the tool
arguments, so the model-visible schema is only the move itself. That is the helper for a
script or a single conversation: every thread of an agent compiled with these tools plays
the same game, and a checkpointer does not keep it. For an agent that serves many threads,
use :mod:`~langgraph_games.tools.thread_tools` (the game lives in each thread's state).

Other seats can be driven by any :mod:`langgraph_games.players` player (e.g. minimax):
after the agent moves, they move until it is the agent's turn again or the game ends, and
the tool's answer reports their moves. Two agents can share a session, each through its own
toolkit and seat.

Nothing a model sends ends its run: an unknown or illegal move, a move out of turn or
after the game ended, and malformed arguments all come back as an error
:class:`~langchain_core.messages.ToolMessage` (``status="error"``) that says what was
wrong and what to do, so the agent can retry.

Example:
    >>> from langgraph_games.players import MinimaxPlayer
    >>> kit = SessionToolkit(GameSession("tictactoe"), player=0, opponents={1: MinimaxPlayer()})
    >>> [t.name for t in kit.get_tools()]
    ['observe', 'legal_moves', 'make_move']
    >>> print(kit.get_tools()[2].invoke({"row": 1, "col": 1}).splitlines()[0])
    You played (1,1).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Any

from langchain_core.tools import BaseTool, StructuredTool, ToolException
from pydantic import ValidationError
from typing_extensions import TypedDict

from langgraph_games.games.base import Game
from langgraph_games.games.errors import IllegalActionError
from langgraph_games.games.move_schema import MoveArgumentsError
from langgraph_games.games.session import GameSession
from langgraph_games.games.state import GameState, derive_rng
from langgraph_games.players import request_for
from langgraph_games.players.base import Decision, Player
from langgraph_games.players.registry import make_player
from langgraph_games.tools.moves import MoveSchema, move_schema

__all__ = ["GameToolkit", "SessionToolkit", "create_game_tools", "create_session_tools"]


def _validation_message(error: ValidationError) -> str:
    problems = "; ".join(
        f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: {e['msg']}" for e in error.errors()
    )
    return f"The move arguments are malformed ({problems}). Fix them and call make_move again."


class _ErrorHandling(TypedDict):
    """How every game tool answers a failure: with the error's message, to the model."""

    handle_tool_error: bool
    handle_validation_error: Callable[[ValidationError], str]


ERROR_HANDLING: _ErrorHandling = {
    "handle_tool_error": True,
    "handle_validation_error": _validation_message,
}
"""The error handling every game tool is built with (``StructuredTool`` settings)."""


class SessionToolkit:
    """One seat at one game session, as LangChain tools (one game for every caller).

    Args:
        session: The session to play in (shared with other toolkits for other seats, if
            any).
        player: The seat the agent plays.
        opponents: Players driving other seats, by seat: :class:`Player` objects or
            player specs such as ``"minimax:depth=3"``.
        typed: Use the game's typed move arguments (TicTacToe ``row, col``, Othello
            ``column, row``, Pong ``direction``, ... see :mod:`~langgraph_games.tools.moves`;
            a tool call with the text ``action`` still plays); ``False``: ``action: str``.
        prefix: Prefix of the tool names (e.g. ``"tictactoe_"`` to give one agent
            several games).
        schema: The move schema to use (default: the game's, per ``typed``).

    Raises:
        ValueError: ``player`` is not a seat of the game, or an opponent seat is the
            agent's own or not a seat.
    """

    def __init__(
        self,
        session: GameSession,
        player: int = 0,
        opponents: Mapping[int, Player | str] | None = None,
        *,
        typed: bool = True,
        prefix: str = "",
        schema: MoveSchema | None = None,
    ) -> None:
        game = session.game
        if not 0 <= player < game.num_players:
            raise ValueError(f"player must be a seat 0..{game.num_players - 1}, got {player}")
        self.session = session
        self.player = player
        self.opponents: dict[int, Player] = {}
        for seat, who in (opponents or {}).items():
            if seat == player or not 0 <= seat < game.num_players:
                raise ValueError(f"opponent seat {seat} is not another seat of {game.id!r}")
            self.opponents[seat] = make_player(who) if isinstance(who, str) else who
        self.schema: MoveSchema = schema or move_schema(game, typed, session.state)
        self.prefix = prefix
        self._lock = threading.RLock()
        self._tools: list[BaseTool] | None = None

    # ----- what the tools say ---------------------------------------------------------

    @property
    def game(self) -> Game[GameState]:
        """The engine."""
        return self.session.game

    def _label(self, seat: int) -> str:
        return f"{self.game.player_label(seat)} (seat {seat})"

    def _outcome(self) -> str:
        result = self.session.result()
        returns = result["returns"]
        if self.game.num_players == 1:
            return f"Game over after {result['steps']} steps. Your total reward: {returns[0]:g}."
        winners = result["winners"]
        if not winners:
            verdict = "It is a draw."
        elif self.player in winners:
            verdict = "You won." if len(winners) == 1 else "You share the win."
        else:
            verdict = "You lost."
        scores = ", ".join(f"{self._label(p)}: {r:g}" for p, r in enumerate(returns))
        return f"Game over after {result['steps']} moves. {verdict} Returns: {scores}."

    def _status(self) -> str:
        if self.session.done:
            return self._outcome()
        acting = self.session.current_players
        if self.player in acting:
            if self.game.num_players == 1:
                return "It is your turn."
            return f"It is your turn; you play {self._label(self.player)}."
        waiting = ", ".join(self._label(p) for p in acting)
        return f"It is not your turn; waiting for {waiting}."

    def observation(self) -> str:
        """The agent's view now, with whose turn it is or how the game ended."""
        return f"{self.session.observe(self.player)}\n\n{self._status()}"

    def legal_moves(self) -> str:
        """The agent's legal moves now, or why there are none."""
        if self.session.done:
            return f"No moves: {self._outcome()}"
        if self.player not in self.session.current_players:
            return f"No moves now. {self._status()}"
        moves = self.session.legal_actions(self.player)
        return "Legal moves: " + ", ".join(moves)

    def _refusal(self) -> str | None:
        """Why a move cannot be made now (game over, out of turn), or ``None``."""
        if self.session.done:
            return f"The game is over; no more moves can be made. {self._outcome()}"
        acting = self.session.current_players
        if self.player not in acting:
            waiting = ", ".join(self._label(p) for p in acting)
            return (
                f"It is not your turn: {waiting} must move first. Call observe to check "
                "the game, and move when it is your turn."
            )
        if self.game.simultaneous:
            missing = [p for p in acting if p != self.player and p not in self.opponents]
            if missing:
                seats = ", ".join(self._label(p) for p in missing)
                return (
                    f"{seats} must move at the same time as you, but no player drives that "
                    "seat here; the toolkit needs an opponent for it."
                )
        return None

    def _illegal(self, action: str, error: IllegalActionError | None = None) -> str:
        legal = ", ".join(self.session.legal_actions(self.player))
        reason = error.reason if error is not None else "it is not a legal move"
        return f"Illegal move {action!r}: {reason}. Legal moves: {legal}. Choose one of them."

    def _malformed(self, problems: str) -> str:
        legal = ", ".join(self.session.legal_actions(self.player))
        return (
            f"The move arguments are malformed ({problems}). Legal moves: {legal}. Call "
            "make_move again with one of them, written as its arguments describe."
        )

    # ----- moves ----------------------------------------------------------------------

    def _fallback(self, seat: int, decision: Decision | None) -> str:
        state = self.session.state
        action = decision.action if decision is not None else None
        if action is not None and self.game.is_legal(state, seat, action):
            return action
        rng = derive_rng("tool-opponent-fallback", state.seed, state.turn, seat)
        chosen = self.game.fallback_action(state, seat, rng)
        if chosen is None:
            raise ToolException(f"{self._label(seat)} could not move; the game cannot go on.")
        return chosen

    def _opponent_turns(self) -> list[int]:
        """Opponent seats that must act now, if the agent is not among the acting seats."""
        acting = self.session.current_players
        if not acting or self.player in acting or any(p not in self.opponents for p in acting):
            return []
        return list(acting)

    def _record(self, joint: dict[int, str], lines: list[str]) -> None:
        self.session.step(joint)
        for seat, action in joint.items():
            if seat != self.player:
                lines.append(f"{self._label(seat)} played {action}.")

    def _advance(self, lines: list[str]) -> None:
        """Let driven opponents move until the agent acts or the game ends (sync)."""
        while seats := self._opponent_turns():
            joint = {}
            for seat in seats:
                request = request_for(self.session, seat)
                joint[seat] = self._fallback(seat, self.opponents[seat].decide(request))
            self._record(joint, lines)

    async def _aadvance(self, lines: list[str]) -> None:
        """Let driven opponents move until the agent acts or the game ends (async)."""
        while seats := self._opponent_turns():
            turn = self.session.state.turn
            decisions = {
                seat: await self.opponents[seat].adecide(request_for(self.session, seat))
                for seat in seats
            }
            if self.session.state.turn != turn:  # another tool call moved meanwhile
                continue
            self._record({s: self._fallback(s, d) for s, d in decisions.items()}, lines)

    def _checked_action(self, args: Mapping[str, object]) -> str:
        """The agent's move as a canonical action, or a ToolException saying why not."""
        refusal = self._refusal()
        if refusal is not None:
            raise ToolException(refusal)
        state = self.session.state
        try:
            action = self.schema.read(self.game, state, self.player, args)
        except MoveArgumentsError as exc:
            raise ToolException(self._malformed(str(exc))) from exc
        if not self.game.is_legal(state, self.player, action):
            raise ToolException(self._illegal(action))
        return action

    def _others_acting(self) -> list[int]:
        """Seats acting together with the agent (simultaneous games only)."""
        if not self.game.simultaneous:
            return []
        return [p for p in self.session.current_players if p != self.player]

    def _commit(self, joint: dict[int, str], lines: list[str]) -> None:
        """Apply the joint move that includes the agent's action."""
        try:
            self._record(joint, lines)
        except IllegalActionError as exc:  # defensive: the engine disagrees with is_legal
            raise ToolException(self._illegal(joint[self.player], exc)) from exc
        lines.insert(0, f"You played {joint[self.player]}.")

    def _with_moves(self, lines: list[str]) -> str:
        """The moves just made (if any), a blank line, then the view and status."""
        if not lines:
            return self.observation()
        return "\n".join(lines) + f"\n\n{self.observation()}"

    def move(self, **args: object) -> str:
        """Make the agent's move, then let driven opponents answer (sync).

        Raises:
            ToolException: The move cannot be made; the message says why.
        """
        with self._lock:
            lines: list[str] = []
            self._advance(lines)
            joint = {self.player: self._checked_action(args)}
            for seat in self._others_acting():
                decision = self.opponents[seat].decide(request_for(self.session, seat))
                joint[seat] = self._fallback(seat, decision)
            self._commit(joint, lines)
            self._advance(lines)
            return self._with_moves(lines)

    async def amove(self, **args: object) -> str:
        """Make the agent's move, then let driven opponents answer (async).

        Raises:
            ToolException: The move cannot be made; the message says why.
        """
        lines: list[str] = []
        await self._aadvance(lines)
        joint = {self.player: self._checked_action(args)}
        turn = self.session.state.turn
        decisions = {
            seat: await self.opponents[seat].adecide(request_for(self.session, seat))
            for seat in self._others_acting()
        }
        if self.session.state.turn != turn:
            raise ToolException("The game moved on while the others decided; call observe.")
        joint.update({seat: self._fallback(seat, d) for seat, d in decisions.items()})
        self._commit(joint, lines)
        await self._aadvance(lines)
        return self._with_moves(lines)

    def observe(self) -> str:
        """Bring driven opponents up to date, then describe the game (sync)."""
        with self._lock:
            lines: list[str] = []
            self._advance(lines)
            return self._with_moves(lines)

    async def aobserve(self) -> str:
        """Bring driven opponents up to date, then describe the game (async)."""
        lines: list[str] = []
        await self._aadvance(lines)
        return self._with_moves(lines)

    def list_moves(self) -> str:
        """Bring driven opponents up to date, then list the agent's legal moves (sync)."""
        with self._lock:
            self._advance([])
            return self.legal_moves()

    async def alist_moves(self) -> str:
        """Bring driven opponents up to date, then list the agent's legal moves (async)."""
        await self._aadvance([])
        return self.legal_moves()

    # ----- tools ----------------------------------------------------------------------

    def get_tools(self) -> list[BaseTool]:
        """The three tools: ``observe``, ``legal_moves`` and ``make_move`` (with prefix)."""
        if self._tools is None:
            self._tools = self._build_tools()
        return list(self._tools)

    def _build_tools(self) -> list[BaseTool]:
        game = self.game
        seat = "the only player" if game.num_players == 1 else self._label(self.player)

        def observe() -> str:
            return self.observe()

        async def aobserve() -> str:
            return await self.aobserve()

        def legal_moves() -> str:
            return self.list_moves()

        async def alegal_moves() -> str:
            return await self.alist_moves()

        def make_move(**args: object) -> str:
            return self.move(**args)

        async def amake_move(**args: object) -> str:
            return await self.amove(**args)

        return [
            StructuredTool.from_function(
                observe,
                coroutine=aobserve,
                name=f"{self.prefix}observe",
                description=(
                    f"See the {game.name} game as you ({seat}) see it now: the position, "
                    "whose turn it is, or how the game ended."
                ),
                **ERROR_HANDLING,
            ),
            StructuredTool.from_function(
                legal_moves,
                coroutine=alegal_moves,
                name=f"{self.prefix}legal_moves",
                description=f"List the moves you ({seat}) can make in {game.name} now.",
                **ERROR_HANDLING,
            ),
            StructuredTool.from_function(
                make_move,
                coroutine=amake_move,
                name=f"{self.prefix}make_move",
                description=f"{game.name}: {self.schema.description} You play {seat}.",
                # The JSON schema, not the pydantic model: the arguments are read by the
                # schema's one rule (typed, else the text form), with errors naming the
                # legal moves.
                args_schema=self.schema.tool_schema(),
                **ERROR_HANDLING,
            ),
        ]


def create_session_tools(
    game: str | Game[GameState] | GameSession,
    *,
    player: int = 0,
    opponents: Mapping[int, Player | str] | None = None,
    seed: int = 0,
    typed: bool = True,
    prefix: str = "",
    **options: Any,
) -> list[BaseTool]:
    """Tools that let a LangChain agent play one session of ``game`` from seat ``player``.

    Every caller of these tools plays the same game (a script, one conversation); an
    agent serving several threads needs
    :func:`~langgraph_games.tools.thread_tools.create_thread_game_tools`.

    Args:
        game: A game id (then ``options`` configure it), an engine, or a running session.
        player: The agent's seat.
        opponents: Players for other seats, e.g. ``{1: "minimax"}`` or
            ``{1: MinimaxPlayer(depth=4)}``; seats without one must be played through
            another toolkit on the same session.
        seed: The episode seed when a new session is created.
        typed: Typed move arguments (every game has them; ``False``: ``action: str``).
        prefix: Prefix of the tool names.
        **options: Game options when ``game`` is an id.

    Returns:
        ``[observe, legal_moves, make_move]``; work with ``create_agent`` and ``ToolNode``.

    Example:
        >>> tools = create_session_tools("connect4", opponents={1: "minimax:depth=2"})
        >>> tools[2].args
        {'column': {'description': 'Column index, 0 (left) to 6 (right).', 'maximum': 6, 'minimum': 0, 'title': 'Column', 'type': 'integer'}}
    """  # noqa: E501
    session = game if isinstance(game, GameSession) else GameSession(game, seed=seed, **options)
    return SessionToolkit(session, player, opponents, typed=typed, prefix=prefix).get_tools()


GameToolkit = SessionToolkit
"""The former name of :class:`SessionToolkit` (kept for existing imports)."""

create_game_tools = create_session_tools
"""The former name of :func:`create_session_tools` (kept for existing imports)."""
