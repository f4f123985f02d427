"""Ground truth of GAMEBoT's Checkers subproblems (paper Appendix B and H.4).

1. King moves: legal moves after which a man stands on its king row.
2. Worthless die: legal moves that complete the turn and let the opponent capture the
   moved piece with some jump sequence after which we have no capture at all.
3. Two-for-one shot: legal moves that complete the turn, leave the opponent a forced
   capture, and after *every* capture sequence the opponent can choose we can capture
   more pieces than we lost (two-for-one, three-for-one, three-for-two ...).

Multi-jumps are sequences of single moves (the game's actions); ground truth follows
whole sequences. The released checker never produced answers for 3;
the paper scores subproblems 1 and 2 only, so 3 is reported but not part of I.
"""

from __future__ import annotations

from collections.abc import Iterator

from langgraph_games.games.checkers.rules import (
    KING_ROW,
    MEN,
    SIZE,
    Move,
    legal_moves,
    move_name,
    play,
)

__all__ = ["capture_sequences", "king_moves", "two_for_one_moves", "worthless_die_moves"]


def capture_sequences(
    board: str, player: int, chain_from: int | None = None
) -> Iterator[tuple[str, frozenset[int]]]:
    """Every complete capture sequence of ``player``: ``(board after, captured squares)``.

    Yields nothing when ``player`` has no capture.
    """
    for move in legal_moves(board, player, chain_from):
        if move.captured < 0:
            continue
        after, nxt, chain, _ = play(board, player, move)
        if nxt == player:
            for final, captured in capture_sequences(after, player, chain):
                yield final, captured | {move.captured}
        else:
            yield after, frozenset({move.captured})


def _best_capture(board: str, player: int) -> int:
    return max((len(c) for _, c in capture_sequences(board, player)), default=0)


def _completed(board: str, player: int, chain_from: int | None) -> Iterator[tuple[Move, str]]:
    """Legal moves that end the turn, with the board after them."""
    for move in legal_moves(board, player, chain_from):
        after, nxt, _, _ = play(board, player, move)
        if nxt != player:
            yield move, after


def king_moves(board: str, player: int, chain_from: int | None) -> frozenset[str]:
    """Moves that crown a man."""
    return frozenset(
        move_name(m)
        for m in legal_moves(board, player, chain_from)
        if board[m.start] == MEN[player] and m.end // SIZE == KING_ROW[player]
    )


def worthless_die_moves(board: str, player: int, chain_from: int | None) -> frozenset[str]:
    """Moves that give the moved piece away with no capture back."""
    found = set()
    for move, after in _completed(board, player, chain_from):
        for final, captured in capture_sequences(after, 1 - player):
            if move.end in captured and _best_capture(final, player) == 0:
                found.add(move_name(move))
                break
    return frozenset(found)


def two_for_one_moves(board: str, player: int, chain_from: int | None) -> frozenset[str]:
    """Moves that force an exchange in which we capture more than we lose."""
    found = set()
    for move, after in _completed(board, player, chain_from):
        replies = list(capture_sequences(after, 1 - player))
        if replies and all(_best_capture(final, player) > len(lost) for final, lost in replies):
            found.add(move_name(move))
    return frozenset(found)
