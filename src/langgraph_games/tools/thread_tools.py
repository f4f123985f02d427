"""Game tools whose games live in the graph state: one compiled agent serves many threads.

:func:`create_thread_game_tools` gives an agent ``start_game``, ``observe``,
``legal_moves`` and ``make_move`` (and, without a fixed game, ``list_games``). No game
lives in the tools: each thread keeps its own game in its graph state, under the
``games`` key (:class:`GameThreadState`), as a JSON record (the session's game, options,
seed and moves, the agent's seat and the opponent). The tools read it through LangGraph's
:class:`~langgraph.prebuilt.ToolRuntime` and write it back with ``Command(update=...)``
together with the call's ``ToolMessage``, as LangGraph's prebuilt tools do. So one agent
compiled once (``create_agent`` or a ``ToolNode`` loop) plays a different game in every
``thread_id``, and a checkpointer keeps each thread's game with its messages: a new
process with the same checkpointer goes on where the thread stopped.

The state must declare the ``games`` key with its reducer :func:`merge_games`: use
:class:`GameThreadState` as the graph's or ``create_agent``'s ``state_schema``, or add the
key to your own state. Several toolkits (with different ``prefix``) share the key, each
keeping its game under its own name.

All tool calls of one model message see the state as it was before the message, so only
the first ``start_game`` or ``make_move`` of a message (per toolkit) is played; a later one
is refused with a message saying so, and ``observe`` beside a move shows the position
before it.

Bad input comes back as an error ``ToolMessage`` (``status="error"``) saying what was
wrong and what is accepted: a move before ``start_game``, an unknown game, a bad seat or
opponent, malformed or illegal moves.

Example:
    >>> tools = create_thread_game_tools()
    >>> [t.name for t in tools]
    ['list_games', 'start_game', 'observe', 'legal_moves', 'make_move']
    >>> sorted(create_thread_game_tools("connect4")[3].args)
    ['column']
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from typing import Annotated, Any, TypeVar

from langchain_core.messages import AIMessage, AnyMessage, ToolMessage
from langchain_core.tools import BaseTool, StructuredTool, ToolException
from langgraph.graph.message import add_messages
from langgraph.prebuilt import ToolRuntime
from langgraph.types import Command
from pydantic import BaseModel, Field, ValidationError
from typing_extensions import NotRequired, Required, TypedDict

from langgraph_games._json import JsonObject
from langgraph_games.games.base import Game
from langgraph_games.games.errors import GameError
from langgraph_games.games.move_schema import GENERIC, MoveSchema, _problems
from langgraph_games.games.registry import make
from langgraph_games.games.session import GameSession
from langgraph_games.games.state import GameState
from langgraph_games.players.base import Player
from langgraph_games.players.budget import within_budget
from langgraph_games.players.errors import PlayerSpecError
from langgraph_games.players.registry import make_player, parse_spec
from langgraph_games.tools.game_tools import SessionToolkit
from langgraph_games.tools.manager import StartArgs, games_text, lobby_toolkit, started_text
from langgraph_games.tools.moves import move_schema

__all__ = [
    "GAMES_KEY",
    "GameThreadState",
    "SeatArgs",
    "ThreadGameToolkit",
    "create_thread_game_tools",
    "merge_games",
]

GAMES_KEY = "games"
"""The state key holding each toolkit's game record, by toolkit name."""

GameRecord = dict[str, Any]
"""``{"session": GameSession.to_dict(), "seat": int, "opponent": spec or None}``."""


def merge_games(
    current: Mapping[str, GameRecord] | None, update: Mapping[str, GameRecord] | None
) -> dict[str, GameRecord]:
    """Reducer of the ``games`` key: each toolkit's newest record, by toolkit name.

    Example:
        >>> merge_games({"a": {"seat": 0}}, {"b": {"seat": 1}})
        {'a': {'seat': 0}, 'b': {'seat': 1}}
    """
    return {**(current or {}), **(update or {})}


class GameThreadState(TypedDict):
    """A graph state for the thread game tools: the messages and each thread's games.

    Use it as ``create_agent(..., state_schema=GameThreadState)`` or as a ``StateGraph``'s
    state around a ``ToolNode``; or put the ``games`` key, with :func:`merge_games`, in
    your own state.
    """

    messages: Required[Annotated[list[AnyMessage], add_messages]]
    games: NotRequired[Annotated[dict[str, GameRecord], merge_games]]


class SeatArgs(BaseModel):
    """Arguments of ``start_game`` when the toolkit's game is fixed."""

    seat: int = Field(0, description="Your seat: 0 moves first in two-player games.")
    seed: int = Field(0, description="Episode seed (same seed and moves, same game).")


class _Sessions:
    """Sessions by their record's JSON, so a thread's next call finds the one its last left.

    Without it every call would replay the whole game (Crafter: about 60 microseconds a
    move). Callers get copies; a record not found (another process wrote it, or it was
    evicted) is replayed.
    """

    def __init__(self, size: int = 32) -> None:
        self._size = size
        self._entries: OrderedDict[str, GameSession] = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def _key(record: Mapping[str, Any]) -> str:
        return json.dumps(record, sort_keys=True)

    def get(self, record: Mapping[str, Any]) -> GameSession:
        key = self._key(record)
        with self._lock:
            hit = self._entries.get(key)
            if hit is not None:
                self._entries.move_to_end(key)
                return hit.copy()
        session = GameSession.from_dict(record)
        self.put(session)
        return session

    def put(self, session: GameSession) -> dict[str, Any]:
        """Keep a copy of ``session``; return its record."""
        record = session.to_dict()
        key = self._key(record)
        with self._lock:
            self._entries[key] = session.copy()
            self._entries.move_to_end(key)
            while len(self._entries) > self._size:
                self._entries.popitem(last=False)
        return record


def _messages_of(state: Any) -> list[Any]:
    if isinstance(state, Mapping):
        return list(state.get("messages") or [])
    return list(getattr(state, "messages", None) or [])


def _games_of(state: Any) -> Mapping[str, GameRecord]:
    games = state.get(GAMES_KEY) if isinstance(state, Mapping) else getattr(state, GAMES_KEY, None)
    return games or {}


def _calling_message(state: Any, call_id: str | None) -> AIMessage | None:
    """The model message that made the tool call ``call_id``, if the state holds it."""
    for message in reversed(_messages_of(state)):
        if isinstance(message, AIMessage) and any(
            call.get("id") == call_id for call in message.tool_calls
        ):
            return message
    return None


_Args = TypeVar("_Args", bound=BaseModel)


def _parsed(model: type[_Args], args: Mapping[str, Any], tool: str) -> _Args:
    try:
        return model.model_validate(dict(args))
    except ValidationError as exc:
        raise ToolException(
            f"The {tool} arguments are malformed ({_problems(exc)}). Fix them and call "
            f"{tool} again."
        ) from exc


class ThreadGameToolkit:
    """Game tools keeping each thread's game in its graph state (see the module docs).

    Args:
        game: A game id: every thread plays it (``start_game(seat, seed)``, typed moves);
            ``None``: a lobby (``list_games``, ``start_game(game, seat, opponent, seed,
            options)``, ``make_move(action: str)``).
        opponent: With a fixed game, who plays the other seats: a :class:`Player` (shared
            by every thread; the built-in players keep no per-game state) or a spec. A
            lobby's model names the opponent in ``start_game`` (default ``random``).
        typed: With a fixed game, its typed move arguments (``False``: ``action: str``).
        prefix: Prefix of the tool names; also the name the game is kept under in the
            ``games`` state key (``"game"`` without a prefix).
        bounded: Cap the opponents' search work (for a server playing for clients).
        **options: Options of the fixed game.

    Raises:
        GameError: ``game`` is not a registered game, or an option is bad.
        PlayerSpecError: ``opponent`` is not a player spec.
        TypeError: ``options`` without a fixed game.
    """

    def __init__(
        self,
        game: str | None = None,
        *,
        opponent: Player | str = "random",
        typed: bool = True,
        prefix: str = "",
        bounded: bool = False,
        **options: Any,
    ) -> None:
        if game is None and options:
            raise TypeError("game options need a fixed game; a lobby's model passes them")
        self.game: Game[GameState] | None = None if game is None else make(game, **options)
        self.schema: MoveSchema = GENERIC
        if self.game is not None:
            self.schema = move_schema(self.game, typed, self.game.initial_state(0))
        if isinstance(opponent, str):
            parse_spec(opponent)  # refuse a bad spec now, not in every thread
        self.opponent = opponent
        self.prefix = prefix
        self.name = prefix.rstrip("_") or "game"
        self.bounded = bounded
        self._writers = {f"{prefix}start_game", f"{prefix}make_move"}
        self._players: dict[tuple[str, int], Player] = {}
        self._players_lock = threading.Lock()
        self._sessions = _Sessions()

    # ----- the thread's game ----------------------------------------------------------

    def _no_game(self) -> str:
        if self.game is None:
            return (
                "No game is running in this conversation. Call start_game first "
                "(list_games shows the games)."
            )
        return f"No {self.game.name} game is running in this conversation. Call start_game first."

    def _started(self, runtime: ToolRuntime) -> bool:
        """Whether this conversation holds a successful ``start_game`` of this toolkit."""
        start = f"{self.prefix}start_game"
        return any(
            isinstance(m, ToolMessage) and m.name == start and m.status == "success"
            for m in _messages_of(runtime.state)
        )

    def _unkept(self) -> str:
        return (
            f"A game was started in this conversation, but the graph state has no "
            f"{GAMES_KEY!r} key to keep it: the graph's state schema needs the key "
            f"(GameThreadState, or {GAMES_KEY!r} with the merge_games reducer)."
        )

    def _opponents(self, session: GameSession, seat: int, spec: str | None) -> dict[int, Player]:
        who = self.opponent if spec is None else spec
        player = who if isinstance(who, Player) else self._built(who, session.seed)
        return {p: player for p in range(session.game.num_players) if p != seat}

    def _built(self, spec: str, seed: int) -> Player:
        """The player of ``spec`` (built once per spec and seed: players keep no game state)."""
        with self._players_lock:
            player = self._players.get((spec, seed))
        if player is None:
            player = make_player(spec, seed=seed)
            if self.bounded:
                player = within_budget(player)
            with self._players_lock:
                player = self._players.setdefault((spec, seed), player)
        return player

    def _load(self, runtime: ToolRuntime) -> SessionToolkit:
        """The thread's game, rebuilt from its record in the state."""
        record = _games_of(runtime.state).get(self.name)
        if record is None:
            if self._started(runtime):  # the graph's mistake, not the model's: end the run
                raise ValueError(self._unkept())
            raise ToolException(self._no_game())
        try:
            session = self._sessions.get(record["session"])
            seat = int(record["seat"])
            opponents = self._opponents(session, seat, record.get("opponent"))
        except (GameError, PlayerSpecError, KeyError, TypeError, ValueError) as exc:
            raise ToolException(
                f"This conversation's {self.name!r} game record cannot be read ({exc}); "
                "call start_game to begin a new game."
            ) from exc
        return SessionToolkit(session, seat, opponents, prefix=self.prefix, schema=self.schema)

    def _check_first_writer(self, runtime: ToolRuntime, tool: str) -> None:
        """Refuse a move or start that an earlier call of the same model message precedes."""
        message = _calling_message(runtime.state, runtime.tool_call_id)
        if message is None:
            return
        writers = [c for c in message.tool_calls if c.get("name") in self._writers]
        if writers and writers[0].get("id") != runtime.tool_call_id:
            raise ToolException(
                f"Not played: {writers[0]['name']} was called earlier in the same message, "
                f"and only the first start_game or make_move of a message is played. Call "
                f"observe to see the game now, then call {tool} again if still needed."
            )

    def _saved(
        self, runtime: ToolRuntime, tool: str, kit: SessionToolkit, spec: str | None, text: str
    ) -> Command[Any]:
        record = {"session": self._sessions.put(kit.session), "seat": kit.player, "opponent": spec}
        name = f"{self.prefix}{tool}"
        reply = ToolMessage(text, tool_call_id=runtime.tool_call_id or "", name=name)
        return Command(update={GAMES_KEY: {self.name: record}, "messages": [reply]})

    def _new_game(self, args: Mapping[str, Any]) -> tuple[SessionToolkit, str | None, str]:
        """A new session from ``start_game``'s arguments: the toolkit, opponent spec, head."""
        if self.game is None:
            start = _parsed(StartArgs, args, f"{self.prefix}start_game")
            kit = lobby_toolkit(
                start.game, start.seat, start.opponent, start.seed, start.options,
                bounded=self.bounded,
            )  # fmt: skip
            return kit, start.opponent, started_text(kit.session, start.options)
        seat_args = _parsed(SeatArgs, args, f"{self.prefix}start_game")
        session = GameSession(self.game, seed=seat_args.seed)
        if not 0 <= seat_args.seat < self.game.num_players:
            raise ToolException(
                f"Could not start {self.game.id!r}: seat must be 0..{self.game.num_players - 1}, "
                f"got {seat_args.seat}"
            )
        opponents = self._opponents(session, seat_args.seat, None)
        kit = SessionToolkit(
            session, seat_args.seat, opponents, prefix=self.prefix, schema=self.schema
        )
        return kit, None, started_text(session, None)

    # ----- tool bodies ----------------------------------------------------------------

    def start(self, runtime: ToolRuntime, **args: Any) -> Command[Any]:
        """``start_game`` (sync): a new game in this thread, replacing its current one."""
        self._check_first_writer(runtime, "start_game")
        kit, spec, head = self._new_game(args)
        return self._saved(runtime, "start_game", kit, spec, f"{head}\n\n{kit.observe()}")

    async def astart(self, runtime: ToolRuntime, **args: Any) -> Command[Any]:
        """``start_game`` (async)."""
        self._check_first_writer(runtime, "start_game")
        kit, spec, head = self._new_game(args)
        text = f"{head}\n\n{await kit.aobserve()}"
        return self._saved(runtime, "start_game", kit, spec, text)

    def move(self, runtime: ToolRuntime, **args: Any) -> Command[Any]:
        """``make_move`` (sync): the agent's move and the opponents' answers."""
        self._check_first_writer(runtime, "make_move")
        kit = self._load(runtime)
        spec = _games_of(runtime.state)[self.name].get("opponent")
        return self._saved(runtime, "make_move", kit, spec, kit.move(**args))

    async def amove(self, runtime: ToolRuntime, **args: Any) -> Command[Any]:
        """``make_move`` (async)."""
        self._check_first_writer(runtime, "make_move")
        kit = self._load(runtime)
        spec = _games_of(runtime.state)[self.name].get("opponent")
        return self._saved(runtime, "make_move", kit, spec, await kit.amove(**args))

    def observe(self, runtime: ToolRuntime) -> str:
        """``observe``: the thread's game as the agent sees it, and whose turn it is."""
        return self._load(runtime).observation()

    def legal_moves(self, runtime: ToolRuntime) -> str:
        """``legal_moves``: the agent's legal moves in the thread's game now."""
        return self._load(runtime).legal_moves()

    # ----- tools ----------------------------------------------------------------------

    def get_tools(self) -> list[BaseTool]:
        """The tools: ``[list_games,] start_game, observe, legal_moves, make_move``."""
        what = "the current game" if self.game is None else f"the {self.game.name} game"
        start_schema = StartArgs if self.game is None else SeatArgs
        tools = [
            self._tool(
                "start_game",
                self.start,
                self.astart,
                (
                    "Start a new game (replacing the current one) and show it."
                    if self.game is None
                    else f"Start a new {self.game.name} game (replacing the current one) "
                    "and show it."
                ),
                start_schema.model_json_schema(),
            ),
            self._tool(
                "observe",
                self.observe,
                None,
                f"See {what}: the position, whose turn it is, or how it ended.",
            ),
            self._tool(
                "legal_moves", self.legal_moves, None, f"List the moves you can make in {what}."
            ),
            self._tool(
                "make_move",
                self.move,
                self.amove,
                (
                    "Make a move in the current game, written as one of the legal moves."
                    if self.game is None
                    else f"{self.game.name}: {self.schema.description}"
                ),
                self.schema.tool_schema(),
            ),
        ]
        if self.game is None:
            listing = StructuredTool.from_function(
                lambda: games_text(),
                name=f"{self.prefix}list_games",
                description="List the games you can play, with their options.",
                handle_tool_error=True,
            )
            tools.insert(0, listing)
        return tools

    def _tool(
        self,
        name: str,
        func: Callable[..., Any],
        coroutine: Callable[..., Awaitable[Any]] | None,
        description: str,
        schema: JsonObject | None = None,
    ) -> BaseTool:
        # A JSON schema (or none): the bodies read their own arguments, so refusals name
        # the legal moves; ``runtime`` is injected by ToolNode and hidden from the model.
        return StructuredTool.from_function(
            func,
            coroutine=coroutine,
            name=f"{self.prefix}{name}",
            description=description,
            args_schema=schema or {"type": "object", "properties": {}},
            handle_tool_error=True,
        )


def create_thread_game_tools(
    game: str | None = None,
    *,
    opponent: Player | str = "random",
    typed: bool = True,
    prefix: str = "",
    bounded: bool = False,
    **options: Any,
) -> list[BaseTool]:
    """Game tools that keep each thread's game in its graph state (see the module docs).

    Args:
        game: A game every thread plays, or ``None`` for a lobby where the model picks.
        opponent: With a fixed game, the player (or spec) in every other seat.
        typed: With a fixed game, typed move arguments.
        prefix: Prefix of the tool names (and the game's name in the ``games`` key).
        bounded: Cap the opponents' search work.
        **options: Options of the fixed game.

    Returns:
        The tools, for ``create_agent(..., state_schema=GameThreadState)`` or a
        ``ToolNode`` in a graph whose state has the ``games`` key.

    Raises:
        GameError: Unknown game or bad option.
        PlayerSpecError: ``opponent`` is not a player spec.
    """
    return ThreadGameToolkit(
        game, opponent=opponent, typed=typed, prefix=prefix, bounded=bounded, **options
    ).get_tools()
