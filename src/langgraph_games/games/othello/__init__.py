"""Othello (GAMEBoT): 8x8, columns A-H and rows 1-8, automatic passes, most discs wins."""

from __future__ import annotations

import re
from collections.abc import Mapping

from langgraph_games.games._answer import Mention, regex_mentions
from langgraph_games.games.base import Event, Game
from langgraph_games.games.othello.render import observation_text, render_text
from langgraph_games.games.othello.rules import (
    COLORS,
    SQUARE_INDEX,
    SQUARES,
    OthelloState,
    initial_board,
    legal_moves,
    place,
)
from langgraph_games.games.othello.truth import can_take_corner, wedge_moves
from langgraph_games.games.registry import register
from langgraph_games.games.subproblems import Answer, AnswerKind, Metric, Subproblem

__all__ = ["Othello", "OthelloState"]

SQUARE_PATTERN = r"\(\s*[A-Ha-h]\s*,\s*[1-8]\s*\)"
# An optional part between two runs of spaces takes its own spaces (``\s*(?:,\s*)?``, not
# ``\s*,?\s*``): two quantifiers that can take the same spaces side by side backtrack in
# quadratic time on a long run of them.
_MOVES = regex_mentions(
    [
        (
            re.compile(r"\(\s*([A-Ha-h])\s*(?:,\s*)?([1-8])\s*\)"),
            lambda m: f"({m[1].upper()},{m[2]})",
        ),
        (re.compile(r"\b([A-Ha-h])([1-8])\b"), lambda m: f"({m[1].upper()},{m[2]})"),
    ],
    starts=r"[(A-Ha-h]",
)


@register
class Othello(Game[OthelloState]):
    """Othello with GAMEBoT's coordinates; a player with no move passes automatically."""

    id = "othello"
    name = "Othello"
    description = "8x8 Othello (Reversi); Black moves first; passes are automatic; most discs wins."
    source = "GAMEBoT"
    player_names = ("Black", "White")
    State = OthelloState
    answer_labels = ("Chosen Move",)
    subproblems = (
        Subproblem(
            1,
            "corner_available",
            AnswerKind.BOOL,
            Metric.F1,
            "Do you have a legal move that takes a corner now?",
            "True/False",
        ),
        Subproblem(
            2,
            "wedge_moves",
            AnswerKind.SET,
            Metric.F1,
            "Which legal moves create a wedge on an edge?",
            "(X,X), (X,X), ... or None",
            item_pattern=SQUARE_PATTERN,
        ),
    )

    def initial_state(self, seed: int = 0) -> OthelloState:
        """The standard start, Black to move."""
        return OthelloState(seed=seed, turn=0, board=initial_board(), to_move=0)

    def current_players(self, state: OthelloState) -> tuple[int, ...]:
        """The player to move, or nobody when neither player can move."""
        return (state.to_move,) if legal_moves(state.board, state.to_move) else ()

    def legal_actions(self, state: OthelloState, player: int) -> tuple[str, ...]:
        """Squares that outflank at least one disc, as ``(A,1)``, sorted."""
        if player != state.to_move:
            return ()
        return tuple(sorted(SQUARES[i] for i in legal_moves(state.board, player)))

    def is_legal(self, state: OthelloState, player: int, action: str) -> bool:
        """Whether ``action`` outflanks something for the player to move."""
        index = SQUARE_INDEX.get(action)
        return (
            index is not None
            and player == state.to_move
            and index in legal_moves(state.board, player)
        )

    def _apply(
        self, state: OthelloState, actions: Mapping[int, str]
    ) -> tuple[OthelloState, list[Event]]:
        player, action = next(iter(actions.items()))
        board, flips = place(state.board, player, SQUARE_INDEX[action])
        events: list[Event] = [
            {"type": "place", "player": player, "square": action, "flipped": len(flips)}
        ]
        opponent = 1 - player
        if legal_moves(board, opponent):
            to_move = opponent
        elif legal_moves(board, player):
            to_move = player
            events.append({"type": "pass", "player": opponent})
        else:
            to_move = opponent
            events.append({"type": "game_over", "discs": [board.count(c) for c in COLORS]})
        new = OthelloState(seed=state.seed, turn=state.turn + 1, board=board, to_move=to_move)
        return new, events

    def is_terminal(self, state: OthelloState) -> bool:
        """Neither player has a legal move."""
        return not legal_moves(state.board, state.to_move) and not legal_moves(
            state.board, 1 - state.to_move
        )

    def returns(self, state: OthelloState) -> tuple[float, ...]:
        """At the end: +1 to the player with more discs, -1 to the other, 0 each on a tie."""
        if not self.is_terminal(state):
            return (0.0, 0.0)
        black, white = state.board.count("B"), state.board.count("W")
        if black == white:
            return (0.0, 0.0)
        return (1.0, -1.0) if black > white else (-1.0, 1.0)

    def action_mentions(self, state: OthelloState, player: int, text: str) -> list[Mention]:
        """Squares written ``(C,4)``, ``(C4)`` or ``C4``, any case (GAMEBoT's notations)."""
        return _MOVES(text)

    def observation(self, state: OthelloState, player: int) -> str:
        """GAMEBoT's state text for ``player``."""
        return observation_text(state.board, player, self.legal_actions(state, player))

    def render(self, state: OthelloState) -> str:
        """A compact board with disc counts."""
        return render_text(state.board)

    def ground_truth(self, state: OthelloState, player: int) -> dict[int, Answer]:
        """Corner availability (1) and wedge-creating moves (2)."""
        return {
            1: can_take_corner(state.board, player),
            2: wedge_moves(state.board, player),
        }
