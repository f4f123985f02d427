"""A person at the table: :class:`HumanPlayer` asks for each move through ``interrupt()``.

The player runs inside the episode loop's ``step`` node. At each decision it calls
LangGraph's :func:`~langgraph.types.interrupt` with a JSON payload (:func:`move_request`):
the game, the seat, the board, the legal moves, a prompt and, after a rejected answer, the
reason. The graph stops there; whoever runs it shows the payload to the person and resumes
with their answer as text, ``Command(resume="(1,1)")``. The answer is read with the game's
own reader (:func:`read_human_move`); an answer that names no legal move raises the
interrupt again with the reason as ``feedback``, as often as needed (a person is asked
again, never replaced by a fallback), and the rejected answers are kept in the decision's
``info``.

On resume LangGraph runs the interrupted node again from the top, and each ``interrupt()``
call returns, in order, the answers already given. The episode loop asks interactive seats
before the others (see :mod:`langgraph_games.graphs.episode.graph`), so no other seat's
model call is made before a person's answer is in, and none is repeated on resume.
"""

from __future__ import annotations

from langgraph.types import interrupt
from typing_extensions import NotRequired, TypedDict

from langgraph_games.games._answer import AnswerStatus
from langgraph_games.games.base import Game
from langgraph_games.games.state import GameState
from langgraph_games.players.base import Decision, DecisionRequest, ParseStatus, Player

__all__ = ["HUMAN_REQUEST_KIND", "HumanPlayer", "MoveRequest", "move_request", "read_human_move"]

HUMAN_REQUEST_KIND = "human_move"
"""The ``kind`` of every payload :class:`HumanPlayer` interrupts with."""


def read_human_move(
    game: Game[GameState], state: GameState, seat: int, answer: object
) -> tuple[str | None, str | None]:
    """Read a person's answer with the game's reader.

    The rule is the game's (:meth:`~langgraph_games.games.base.Game.read_action`): the
    answer must name exactly one move, in any spelling the game accepts, and it must be
    legal now. A resume value that is a mapping is read from its ``"move"`` key.

    Returns:
        ``(action, None)`` for a legal move, else ``(None, reason)`` with a reason a
        person can act on.

    Example:
        >>> from langgraph_games.games.registry import make
        >>> game = make("tictactoe")
        >>> state = game.initial_state(0)
        >>> read_human_move(game, state, 0, " (1, 1) ")
        ('(1,1)', None)
        >>> read_human_move(game, state, 0, "middle")[1]
        "'middle' names no move of TicTacToe"
    """
    if isinstance(answer, dict):
        answer = answer.get("move")
    if not isinstance(answer, str):
        return None, f"expected a move as text, got {type(answer).__name__}"
    text = answer.strip()
    if not text:
        return None, "the answer was empty"
    reading = game.read_action(state, seat, text)
    if reading.status is AnswerStatus.AMBIGUOUS:
        return None, f"{text!r} names several moves ({', '.join(reading.named)}); give one"
    if reading.action is None:
        return None, f"{text!r} names no move of {game.name}"
    if not reading.legal:
        reason = game.rejection_reason(state, seat, reading.action)
        return None, reason or f"{reading.action} is not a legal move now"
    return reading.action, None


class MoveRequest(TypedDict):
    """The payload a :class:`HumanPlayer` interrupts with (see :func:`move_request`)."""

    kind: str
    game: str
    seat: int
    player: str
    turn: int
    board: str
    legal_moves: list[str]
    prompt: str
    feedback: str | None
    rejected: NotRequired[int]


def move_request(request: DecisionRequest, feedback: str | None = None) -> MoveRequest:
    """The JSON payload a :class:`HumanPlayer` interrupts with.

    Keys: ``kind`` (:data:`HUMAN_REQUEST_KIND`), ``game`` (versioned id), ``seat``,
    ``player`` (the seat's label), ``turn``, ``board`` (the game's picture for people),
    ``legal_moves``, ``prompt`` (one line to show), ``feedback`` (why the previous answer
    was rejected, else ``None``) and ``rejected`` (how many answers were rejected so far).
    """
    game, seat = request.game, request.player
    label = game.player_label(seat)
    legal = list(request.legal_actions)
    example = f", e.g. {legal[0]}" if legal else ""
    return {
        "kind": HUMAN_REQUEST_KIND,
        "game": game.versioned_id,
        "seat": seat,
        "player": label,
        "turn": request.state.turn,
        "board": game.render(request.state),
        "legal_moves": legal,
        "prompt": f"Your move as {label} (seat {seat}): type one of the legal moves{example}.",
        "feedback": feedback,
    }


def _ask(payload: MoveRequest) -> object:
    try:
        return interrupt(payload)
    except RuntimeError as exc:
        if "outside of a runnable context" not in str(exc):
            raise
        raise RuntimeError(
            "the human player asks through a LangGraph interrupt and plays only inside a "
            "graph run with a checkpointer (run_episode, 'langgraph-games play', "
            "LangGraph Server)"
        ) from exc


class HumanPlayer(Player):
    """A person, asked for each move through a LangGraph interrupt.

    It only works inside a graph run with a checkpointer (the episode loop's
    :func:`~langgraph_games.graphs.episode.run.run_episode` provides one for interactive
    seats); called elsewhere it raises :class:`RuntimeError` saying so.

    Args:
        name: Label in results tables.
    """

    interactive = True

    def __init__(self, name: str = "human") -> None:
        self.name = name

    async def adecide(self, request: DecisionRequest) -> Decision:
        """Interrupt until the resume value names a legal move; return that move."""
        rejected: list[dict[str, object]] = []
        feedback = request.feedback
        while True:
            payload = move_request(request, feedback)
            payload["rejected"] = len(rejected)
            answer = _ask(payload)
            action, problem = read_human_move(request.game, request.state, request.player, answer)
            if action is not None:
                break
            rejected.append({"answer": answer, "problem": problem})
            feedback = f"Your answer was rejected: {problem}."
        return Decision(
            action=action,
            status=ParseStatus.OK,
            info={"human": True, "answer": answer, "rejected": rejected},
        )

    def describe(self) -> dict[str, object]:
        """``{"kind": "human"}``."""
        return {"kind": "human", "name": self.name}
