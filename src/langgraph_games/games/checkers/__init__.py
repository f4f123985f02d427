"""Checkers (GAMEBoT): 8x8, forced captures, multi-jumps, threefold-repetition and 40-move draws."""

from __future__ import annotations

import re
from collections.abc import Mapping

from langgraph_games.games._answer import Mention, regex_mentions
from langgraph_games.games.base import Event, Game
from langgraph_games.games.checkers.render import observation_text, render_text
from langgraph_games.games.checkers.rules import (
    DRAW_PLIES_WITHOUT_CAPTURE,
    MEN,
    REPETITIONS_FOR_DRAW,
    CheckersState,
    initial_board,
    legal_moves,
    move_name,
    play,
    square_name,
)
from langgraph_games.games.checkers.truth import (
    king_moves,
    two_for_one_moves,
    worthless_die_moves,
)
from langgraph_games.games.registry import register
from langgraph_games.games.subproblems import Answer, AnswerKind, Metric, Subproblem

__all__ = ["Checkers", "CheckersState"]

# An optional part between two runs of spaces takes its own spaces (``\s*(?:>\s*)?``, not
# ``\s*>?\s*``): two quantifiers that can take the same spaces side by side backtrack in
# quadratic time on a long run of them.
MOVE_PATTERN = r"\(\s*\d\s*,\s*\d\s*\)\s*-+\s*(?:>\s*)?\(\s*\d\s*,\s*\d\s*\)"
_MOVE = re.compile(r"\(\s*(\d)\s*,\s*(\d)\s*\)\s*-+\s*(?:>\s*)?\(\s*(\d)\s*,\s*(\d)\s*\)")
_MOVES = regex_mentions([(_MOVE, lambda m: f"({m[1]},{m[2]})->({m[3]},{m[4]})")], starts=r"\(")


@register
class Checkers(Game[CheckersState]):
    """Checkers with GAMEBoT's coordinates; White moves first."""

    id = "checkers"
    name = "Checkers"
    description = (
        "8x8 checkers; captures forced, multi-jumps, men forward only; draw on threefold "
        "repetition or 40 moves without a capture."
    )
    source = "GAMEBoT"
    player_names = ("White", "Black")
    State = CheckersState
    answer_labels = ("Chosen Move",)
    subproblems = (
        Subproblem(
            1,
            "king_moves",
            AnswerKind.SET,
            Metric.F1,
            "Which moves give you a new king?",
            "(X,X)->(X,X), ... or None",
            item_pattern=MOVE_PATTERN,
        ),
        Subproblem(
            2,
            "worthless_die_moves",
            AnswerKind.SET,
            Metric.F1,
            "Which moves lose the moved piece with no capture back?",
            "(X,X)->(X,X), ... or None",
            item_pattern=MOVE_PATTERN,
        ),
        Subproblem(
            3,
            "two_for_one_moves",
            AnswerKind.SET,
            Metric.F1,
            "Which moves set up a two-for-one shot?",
            "(X,X)->(X,X), ... or None",
            item_pattern=MOVE_PATTERN,
            scored=False,
        ),
    )

    def initial_state(self, seed: int = 0) -> CheckersState:
        """The standard start, White to move."""
        return CheckersState(
            seed=seed,
            turn=0,
            board=initial_board(),
            to_move=0,
            chain_from=None,
            quiet_plies=0,
            seen=(),
        )

    def _moves(self, state: CheckersState) -> dict[str, object]:
        moves = legal_moves(state.board, state.to_move, state.chain_from)
        return {move_name(m): m for m in moves}

    def draw_reason(self, state: CheckersState) -> str | None:
        """Why the game is drawn, or ``None`` if it is not."""
        if state.quiet_plies >= DRAW_PLIES_WITHOUT_CAPTURE:
            return f"{DRAW_PLIES_WITHOUT_CAPTURE} moves without a capture"
        if state.seen.count(state.position_key) + 1 >= REPETITIONS_FOR_DRAW:
            return "threefold repetition"
        return None

    def is_terminal(self, state: CheckersState) -> bool:
        """The player to move has no move (and loses), or the game is drawn."""
        return self.draw_reason(state) is not None or not legal_moves(
            state.board, state.to_move, state.chain_from
        )

    def current_players(self, state: CheckersState) -> tuple[int, ...]:
        """The player to move (the same player throughout a multi-jump)."""
        return () if self.is_terminal(state) else (state.to_move,)

    def legal_actions(self, state: CheckersState, player: int) -> tuple[str, ...]:
        """Single steps or jumps as ``(r,c)->(r,c)``, sorted; jumps only when one exists."""
        if player != state.to_move or self.is_terminal(state):
            return ()
        return tuple(sorted(self._moves(state)))

    def _apply(
        self, state: CheckersState, actions: Mapping[int, str]
    ) -> tuple[CheckersState, list[Event]]:
        player, action = next(iter(actions.items()))
        move = next(
            m for m in legal_moves(state.board, player, state.chain_from) if move_name(m) == action
        )
        man_moved = state.board[move.start] in MEN
        board, nxt, chain, crowned = play(state.board, player, move)
        capture = move.captured >= 0
        irreversible = capture or man_moved
        seen = () if irreversible else (*state.seen, state.position_key)
        new = CheckersState(
            seed=state.seed,
            turn=state.turn + 1,
            board=board,
            to_move=nxt,
            chain_from=chain,
            quiet_plies=0 if capture else state.quiet_plies + 1,
            seen=seen,
        )
        events: list[Event] = [{"type": "move", "player": player, "move": action}]
        if capture:
            events.append(
                {"type": "capture", "player": player, "square": square_name(move.captured)}
            )
        if crowned:
            events.append({"type": "crown", "player": player, "square": square_name(move.end)})
        if chain is not None:
            events.append({"type": "continue_jump", "player": player})
        if self.is_terminal(new):
            reason = self.draw_reason(new)
            events.append(
                {"type": "draw", "reason": reason} if reason else {"type": "win", "player": player}
            )
        return new, events

    def returns(self, state: CheckersState) -> tuple[float, ...]:
        """The player who cannot move loses; draws and unfinished games give 0 each."""
        if not self.is_terminal(state) or self.draw_reason(state) is not None:
            return (0.0, 0.0)
        return (-1.0, 1.0) if state.to_move == 0 else (1.0, -1.0)

    def action_mentions(self, state: CheckersState, player: int, text: str) -> list[Mention]:
        """Moves written ``(r,c)->(r,c)`` (or ``(r,c)-(r,c)``), any spacing."""
        return _MOVES(text)

    def observation(self, state: CheckersState, player: int) -> str:
        """GAMEBoT's state text for ``player``."""
        return observation_text(
            state.board, player, self.legal_actions(state, player), state.chain_from is not None
        )

    def render(self, state: CheckersState) -> str:
        """A compact board with piece counts."""
        return render_text(state.board)

    def ground_truth(self, state: CheckersState, player: int) -> dict[int, Answer]:
        """King moves (1), worthless-die moves (2) and two-for-one shots (3)."""
        args = (state.board, player, state.chain_from)
        return {1: king_moves(*args), 2: worthless_die_moves(*args), 3: two_for_one_moves(*args)}
