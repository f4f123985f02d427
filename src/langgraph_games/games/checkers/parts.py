"""Checkers' parts: typed moves, action universe and search to depth 4 with its heuristic."""

from __future__ import annotations

from typing import Any

from langgraph_games.games.base import Game
from langgraph_games.games.checkers.rules import (
    EMPTY,
    KINGS,
    MEN,
    SIZE,
    CheckersState,
    Move,
    initial_board,
    move_name,
)
from langgraph_games.games.move_schema import MoveArgs, MoveSchema, coordinate, fixed
from langgraph_games.games.parts import GameParts, Search, own_state
from langgraph_games.games.state import GameState

__all__ = ["PARTS", "CheckersArgs", "checkers_actions", "checkers_eval"]


class CheckersArgs(MoveArgs):
    """A Checkers move: one step or one jump, from a square to a square."""

    from_row: int = coordinate(0, 7, "Row 0-7 of the piece to move.")
    from_col: int = coordinate(0, 7, "Column 0-7 of the piece to move.")
    to_row: int = coordinate(0, 7, "Row 0-7 of the square it moves to.")
    to_col: int = coordinate(0, 7, "Column 0-7 of the square it moves to.")


def _checkers(game: Game[GameState], state: GameState, player: int, args: dict[str, Any]) -> str:
    return f"({args['from_row']},{args['from_col']})->({args['to_row']},{args['to_col']})"


def checkers_actions(game: Game[GameState]) -> list[str]:
    """Steps and jumps (one or two diagonal squares) between dark squares, both ways."""
    board = initial_board()
    dark = {(i // SIZE + i % SIZE) % 2 for i, piece in enumerate(board) if piece != EMPTY}
    moves = []
    for start in range(SIZE * SIZE):
        r, c = divmod(start, SIZE)
        if (r + c) % 2 not in dark:
            continue
        for distance in (1, 2):
            for dr in (-distance, distance):
                for dc in (-distance, distance):
                    r1, c1 = r + dr, c + dc
                    if 0 <= r1 < SIZE and 0 <= c1 < SIZE:
                        moves.append(move_name(Move(start, r1 * SIZE + c1, -1)))
    return moves


def checkers_eval(game: Game[GameState], state: GameState, player: int) -> float:
    """Material (kings worth 1.6 men), advancement of men, and a guarded back row."""
    board = own_state(state, CheckersState, "checkers_eval").board
    score = 0.0
    for index, piece in enumerate(board):
        if piece in MEN:
            owner = MEN.index(piece)
            row = index // SIZE
            advance = row if owner == 0 else SIZE - 1 - row
            value = 100.0 + 2.0 * advance + (4.0 if advance == 0 else 0.0)
        elif piece in KINGS:
            owner = KINGS.index(piece)
            value = 160.0
        else:
            continue
        score += value if owner == player else -value
    return score


PARTS = {
    "checkers": GameParts(
        move_schema=fixed(
            MoveSchema(
                CheckersArgs,
                _checkers,
                "Move a piece one step or one jump, from (from_row, from_col) to (to_row, "
                "to_col), rows and columns 0-7. The legal move (2,1)->(3,0) is from_row=2, "
                "from_col=1, to_row=3, to_col=0. A capture that can go on is one call per "
                "jump.",
            )
        ),
        actions=checkers_actions,
        search=Search(4, checkers_eval),
    )
}
