"""The EvoEmpirBench prompt agent (GeoLink's policy) for the maze and Match-2.

``create_eeb_agent(model, game)`` compiles a decision graph (see
:mod:`langgraph_games.graphs.common.decision`)::

    model -> END    (one node: ask, then check)

- ``model`` builds the paper's two messages (:func:`build_eeb_messages`, from
  :mod:`langgraph_games.graphs.eeb.prompts`): a system prompt (role, legend, priorities,
  the level, and the truths from ``DecisionInput.truths`` as a numbered "lessons" list,
  which Agent-ExpVer's memory fills) and a user prompt (the game state, actions, scoring,
  rules, answer format, and the loop's feedback when it asks again); no dialogue history,
  as released. It then calls the model with retries, recording tokens and latency.
- ``check``, in the same node, reads the reply (:func:`parse_eeb_reply`): maze replies by
  ``Action: X`` and the released fallbacks (``action X``, ``choice: X``, a number at the
  end, "move up two steps"); Match-2 replies as the JSON
  ``{"action": {"type", "pos", "index"}}``.

One node, as for GAMEBoT: each LangGraph node costs a fixed overhead per decision, and
the pieces stay usable as plain functions.

What happens to an unusable reply is the episode loop's business (re-asks, then the
game's fallback): for the maze the game's fallback is action 0, what the released agent
played when nothing parsed. ``detect_refusal=True`` reproduces the released client's
other rule, a reply containing "sorry" played a random move: the graph then returns a
seeded random action with status ``fallback``. Match-2 answers that parse but break the
rules (a lone tile, an unaffordable prop) are ``illegal`` with the rules' reason; with the
game's ``invalid_moves="step"`` they become the step-consuming ``invalid`` action.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.runnables import RunnableConfig
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime

from langgraph_games.games.base import Game
from langgraph_games.games.match2 import Match2, Match2State
from langgraph_games.games.maze import Maze, MazeState
from langgraph_games.games.registry import make
from langgraph_games.games.state import GameState, derive_rng
from langgraph_games.graphs.common.decision import (
    DecisionInput,
    DecisionOutput,
    GraphPlayer,
    LiveGame,
    live_game,
)
from langgraph_games.graphs.common.prompt_agent import (
    call_model,
    compile_model_check,
    read_off_loop,
    reply_decision,
    to_messages,
    unread_reply,
)
from langgraph_games.graphs.eeb.prompts import (
    is_refusal,
    match2_messages,
    maze_messages,
    parse_match2_action,
    parse_maze_action,
)
from langgraph_games.models.factory import describe_model
from langgraph_games.players.base import Decision, ParseStatus

__all__ = [
    "EEB_GAMES",
    "EebState",
    "build_eeb_messages",
    "create_eeb_agent",
    "eeb_player",
    "parse_eeb_reply",
]

EEB_GAMES = ("maze", "match2")
"""The games the EvoEmpirBench agent plays."""

Pick = Literal["first", "last"]


class EebState(DecisionInput, total=False):
    """Decision input plus the reply and the decision."""

    reply: str
    usage: dict[str, float]
    latency_s: float
    decision: Decision


def _check_game(game: Game[GameState]) -> None:
    if game.id not in EEB_GAMES:
        raise ValueError(
            f"The EvoEmpirBench agent plays {', '.join(EEB_GAMES)}; got {game.id!r} "
            "(use gamebot for the GAMEBoT games, ms_* for minesweeper)"
        )


def _parse_maze(
    game: Maze, state: MazeState, text: str, *, pick: Pick, detect_refusal: bool, attempt: int
) -> tuple[str | None, ParseStatus, dict[str, object]]:
    unread = unread_reply(text)
    if unread is not None:
        return unread
    if detect_refusal and is_refusal(text):
        rng = derive_rng("eeb-refusal", state.seed, state.turn, attempt)
        action = rng.choice(game.legal_actions(state, 0))
        return action, ParseStatus.FALLBACK, {"refusal": True}
    parsed = parse_maze_action(text, pick=pick)
    if parsed.action is None:
        problem = parsed.reason if text.strip() else "your answer was empty"
        return None, ParseStatus.UNPARSABLE, {"problem": problem}
    return parsed.action, ParseStatus.OK, {}


def _parse_match2(
    game: Match2, state: Match2State, text: str, *, pick: Pick, require_fence: bool
) -> tuple[str | None, ParseStatus, dict[str, object]]:
    unread = unread_reply(text)
    if unread is not None:
        return unread
    parsed = parse_match2_action(text, require_fence=require_fence, pick=pick)
    if parsed.action is None:
        problem = parsed.reason if text.strip() else "your answer was empty"
        return None, ParseStatus.UNPARSABLE, {"problem": problem}
    if game.is_legal(state, 0, parsed.action):
        return parsed.action, ParseStatus.OK, {}
    reason = game.refusal(state, parsed.action) or "it is not a legal action now"
    info: dict[str, object] = {
        "problem": f"{parsed.action} is refused: {reason}",
        "answer": parsed.action,
    }
    if game.is_legal(state, 0, "invalid"):  # invalid answers spend a step in this variant
        return "invalid", ParseStatus.OK, info
    return parsed.action, ParseStatus.ILLEGAL, info


def create_eeb_agent(
    model: BaseChatModel,
    game: Game[GameState] | str,
    *,
    pick: Pick = "first",
    detect_refusal: bool = False,
    require_fence: bool = False,
    call_attempts: int = 3,
    retry_delay_s: float = 0.5,
    name: str = "eeb",
) -> CompiledStateGraph[EebState, LiveGame, DecisionInput, DecisionOutput]:
    """Compile the EvoEmpirBench decision graph for the maze or Match-2.

    Args:
        model: Any LangChain chat model.
        game: ``maze`` or ``match2`` (engine or id); the graph reads each request's own
            game options, so one graph serves every level.
        pick: Which match of each parsing rule counts: ``"first"`` as released, or
            ``"last"`` (resists replies that restate the format before answering).
        detect_refusal: Maze only: a reply containing "sorry" plays a seeded random
            move, as the released client did (off by default: it discarded valid answers).
        require_fence: Match-2 only: read only a fenced ```` ```json ```` block (the
            older released rule); by default a bare JSON object is read too.
        call_attempts: Attempts per model call on transient failures (with backoff).
        retry_delay_s: First backoff delay; it doubles after each failed attempt.
        name: Name of the compiled graph.

    Returns:
        A decision graph: input :class:`DecisionInput`, output ``{"decision": Decision}``.

    Raises:
        ValueError: The game is not one of :data:`EEB_GAMES`.

    Example:
        >>> import asyncio
        >>> from langgraph_games import GameSession
        >>> from langgraph_games.graphs.common.decision import session_input
        >>> from langgraph_games.models import ScriptedChatModel
        >>> model = ScriptedChatModel(responses=["Right looks open. Action: 9"])
        >>> agent = create_eeb_agent(model, "maze")
        >>> out = asyncio.run(agent.ainvoke(session_input(GameSession("maze"))))
        >>> out["decision"].action, out["decision"].status.value
        ('9', 'ok')
    """
    engine = make(game) if isinstance(game, str) else game
    _check_game(engine)

    async def call(
        state: EebState, config: RunnableConfig, runtime: Runtime[LiveGame]
    ) -> dict[str, Any]:
        live = live_game(state, runtime.context)
        messages = build_eeb_messages(
            live.game,
            live.state,
            truths=list(state.get("truths") or []),
            feedback=state.get("feedback"),
        )
        return await call_model(
            model, messages, config, attempts=call_attempts, delay_s=retry_delay_s
        )

    async def check(state: EebState, runtime: Runtime[LiveGame]) -> DecisionOutput:
        live = live_game(state, runtime.context)
        return await read_off_loop(state.get("reply") or "", read, state, live)

    def read(state: EebState, live: LiveGame) -> DecisionOutput:
        action, status, info = parse_eeb_reply(
            live.game,
            live.state,
            state.get("reply") or "",
            pick=pick,
            detect_refusal=detect_refusal,
            require_fence=require_fence,
            attempt=int(state.get("attempt", 0)),
        )
        return reply_decision(state, action, status, {"strategy": "eeb", **info})

    return compile_model_check(EebState, DecisionInput, call, check, name)


def build_eeb_messages(
    game: Game[GameState],
    state: GameState,
    *,
    truths: Sequence[str] = (),
    feedback: str | None = None,
) -> list[BaseMessage]:
    """The system and user messages of one maze or Match-2 decision.

    Raises:
        ValueError: Not a maze or Match-2 engine and state.
    """
    if isinstance(game, Maze) and isinstance(state, MazeState):
        return to_messages(maze_messages(game, state, truths, feedback))
    if isinstance(game, Match2) and isinstance(state, Match2State):
        return to_messages(match2_messages(game, state, truths, feedback))
    _check_game(game)
    raise ValueError(f"the state does not belong to {game.id}")


def parse_eeb_reply(
    game: Game[GameState],
    state: GameState,
    text: str,
    *,
    pick: Pick = "first",
    detect_refusal: bool = False,
    require_fence: bool = False,
    attempt: int = 0,
) -> tuple[str | None, ParseStatus, dict[str, object]]:
    """``(action, status, info)`` of a reply; ``info["problem"]`` says why there is no action.

    Raises:
        ValueError: Not a maze or Match-2 engine and state.

    Example:
        >>> from langgraph_games.games import make
        >>> maze = make("maze")
        >>> parse_eeb_reply(maze, maze.initial_state(0), "I will move up two steps.")
        ('1', <ParseStatus.OK: 'ok'>, {})
    """
    if isinstance(game, Maze) and isinstance(state, MazeState):
        return _parse_maze(
            game, state, text, pick=pick, detect_refusal=detect_refusal, attempt=attempt
        )
    if isinstance(game, Match2) and isinstance(state, Match2State):
        return _parse_match2(game, state, text, pick=pick, require_fence=require_fence)
    _check_game(game)
    raise ValueError(f"the state does not belong to {game.id}")


def eeb_player(
    model: BaseChatModel,
    game: Game[GameState] | str,
    *,
    name: str | None = None,
    **settings: Any,
) -> GraphPlayer:
    """A :class:`GraphPlayer` running :func:`create_eeb_agent`; settings go to the factory."""
    graph = create_eeb_agent(model, game, **settings)
    return GraphPlayer(
        graph,
        name=name or "eeb",
        description={"kind": "eeb", "model": describe_model(model), **settings},
    )
