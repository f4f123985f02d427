"""Replay drawing of Checkers: the 8x8 board, kings marked K."""

from __future__ import annotations

from langgraph_games.games.base import Game
from langgraph_games.games.replay_frames import CellStyle, Panel, Text, board_grid, drawer
from langgraph_games.games.state import GameState

__all__ = ["draw_checkers"]

CHECKERS = {
    "w": CellStyle("White man", "#8d6e63", "disc", "#fafafa"),
    "W": CellStyle("White king", "#8d6e63", "disc", "#fafafa", "K", "#b71c1c"),
    "b": CellStyle("Black man", "#8d6e63", "disc", "#212121"),
    "B": CellStyle("Black king", "#8d6e63", "disc", "#212121", "K", "#ffd54f"),
    "_": CellStyle("", "#8d6e63"),
    " ": CellStyle("", "#efebe9"),
}


@drawer("checkers")
def draw_checkers(game: Game[GameState], state: GameState) -> list[Panel]:
    """8x8 board, row 0 at the top; light squares are never played on."""
    board: str = state.board  # type: ignore[attr-defined]
    cells = "".join(" " if sum(divmod(i, 8)) % 2 == 0 else piece for i, piece in enumerate(board))
    white = sum(board.count(p) for p in "wW")
    black = sum(board.count(p) for p in "bB")
    panels: list[Panel] = [
        board_grid(
            game, state, CHECKERS, 8, cells=cells, caption_prefix=f"White {white}, Black {black}"
        )
    ]
    chain = getattr(state, "chain_from", None)
    if chain is not None:
        panels.append(Text(f"jump continues from square {divmod(chain, 8)}"))
    return panels
