"""Two players put marks on a flat board, X first; a complete line wins, a full board draws.

What TicTacToe and Connect Four share: the state (board, player to move, winner), its
turn-order and winner checks, placing a mark, the end of the game and its returns, and
the winning-cell ground truth. Each game keeps its geometry, its legal cells and its text.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import ClassVar, TypeVar

from langgraph_games.games._grid import completes_line, has_line
from langgraph_games.games.base import Event, Game
from langgraph_games.games.state import GameState
from langgraph_games.games.subproblems import Answer, AnswerKind, Metric, Subproblem

__all__ = [
    "COORD_PATTERN",
    "EMPTY",
    "MARKS",
    "Lines",
    "MarkBoardState",
    "MarkLineGame",
    "winning_move_subproblems",
]

EMPTY = "_"
MARKS = ("X", "O")
COORD_PATTERN = r"\(\s*\d\s*,\s*\d\s*\)"
"""One ``(row,col)`` cell with one-digit indices, as the subproblem answers list them."""

Lines = tuple[tuple[tuple[int, ...], ...], ...]
"""For each cell, the other cells of every line through it (see ``lines_through``)."""


@dataclass(frozen=True, slots=True)
class MarkBoardState(GameState):
    """A position: the board, whose turn it is, and the winner.

    Attributes:
        board: One character per cell: ``X``, ``O`` or ``_``.
        to_move: 0 (X) or 1 (O).
        winner: The player with a complete line, or ``None``.
    """

    board: str
    to_move: int
    winner: int | None

    def check_turn_and_winner(self, pieces: str, lines: Lines) -> tuple[str, str] | None:
        """Turn order from the mark counts, then the winner against the board's lines.

        Args:
            pieces: What the marks are called in the message (``"marks"``, ``"discs"``).
            lines: The game's lines.
        """
        x, o = self.board.count(MARKS[0]), self.board.count(MARKS[1])
        if x - o not in (0, 1) or self.to_move != x - o or self.turn != x + o:
            return ("to_move", f"does not match the number of {pieces} on the board")
        if self.winner not in (None, 0, 1):
            return ("winner", "must be null, 0 or 1")
        actual = next((p for p, m in enumerate(MARKS) if has_line(self.board, m, lines)), None)
        if actual != self.winner:
            return ("winner", f"is {self.winner!r} but the board says {actual!r}")
        return GameState.validate(self)


def winning_move_subproblems(cells: str, line: str) -> tuple[Subproblem, Subproblem]:
    """GAMEBoT's two subproblems of these games: my winning cells, then my opponent's.

    Args:
        cells: Which cells count, e.g. ``"empty cells"``.
        line: What wins, e.g. ``"three in a row"``.
    """
    return (
        Subproblem(
            1,
            "my_winning_moves",
            AnswerKind.SET,
            Metric.F1,
            f"Which {cells} complete {line} for you now?",
            "(X,X), (X,X), ... or None",
            item_pattern=COORD_PATTERN,
        ),
        Subproblem(
            2,
            "opponent_winning_moves",
            AnswerKind.SET,
            Metric.F1,
            f"Which {cells} would complete {line} for your opponent?",
            "(X,X), (X,X), ... or None",
            item_pattern=COORD_PATTERN,
        ),
    )


M = TypeVar("M", bound=MarkBoardState)


class MarkLineGame(Game[M]):
    """The rules a k-in-a-row game of two marks shares; subclasses set the geometry.

    Attributes:
        lines: The board's lines.
        cell_index: Flat index of each ``(row,col)`` cell name.
    """

    player_names = MARKS
    answer_labels = ("Chosen Move",)
    lines: ClassVar[Lines]
    cell_index: ClassVar[Mapping[str, int]]

    def current_players(self, state: M) -> tuple[int, ...]:
        """The player to move, or nobody once the game is over."""
        return () if self.is_terminal(state) else (state.to_move,)

    def is_terminal(self, state: M) -> bool:
        """A line is complete or the board is full."""
        return state.winner is not None or EMPTY not in state.board

    def returns(self, state: M) -> tuple[float, ...]:
        """+1 for the winner, -1 for the loser, 0 each for a draw or an unfinished game."""
        if state.winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if state.winner == 0 else (-1.0, 1.0)

    def _placed(self, player: int, action: str, index: int) -> Event:
        """The event of ``player`` putting a mark on ``action`` (flat ``index``)."""
        return {"type": "place", "player": player, "cell": action}

    def _apply(self, state: M, actions: Mapping[int, str]) -> tuple[M, list[Event]]:
        player, action = next(iter(actions.items()))
        index = self.cell_index[action]
        mark = MARKS[player]
        board = state.board[:index] + mark + state.board[index + 1 :]
        wins = completes_line(board, index, mark, self.lines)
        # The constructor, not dataclasses.replace (several times slower on this hot path):
        # the marks games' states add no fields to MarkBoardState's.
        new = type(state)(
            seed=state.seed,
            turn=state.turn + 1,
            board=board,
            to_move=1 - player,
            winner=player if wins else None,
        )
        events = [self._placed(player, action, index)]
        if wins:
            events.append({"type": "win", "player": player})
        elif EMPTY not in board:
            events.append({"type": "draw"})
        return new, events

    def winning_cells(
        self, state: M, player: int, cells: Iterable[int], names: tuple[str, ...]
    ) -> dict[int, Answer]:
        """Of ``cells``, those that win now for ``player`` (1) and for the opponent (2)."""
        candidates = tuple(cells)
        answers: dict[int, Answer] = {}
        for number, mark in ((1, MARKS[player]), (2, MARKS[1 - player])):
            answers[number] = frozenset(
                names[i] for i in candidates if completes_line(state.board, i, mark, self.lines)
            )
        return answers
