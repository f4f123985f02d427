"""Minimax with alpha-beta pruning for two-player, turn-based, zero-sum games.

The search walks the pure game API, so it works for any such registered game; a game
where the same player moves twice in a row (Othello passes, Checkers multi-jumps) is
handled because each node maximises or minimises by who is to move there. Without a
depth limit the search is exact (TicTacToe); otherwise leaves are scored by the game's
evaluation in :mod:`langgraph_games.players.evaluation`.
"""

from __future__ import annotations

import math
import time
from typing import Any

from langgraph_games.games.base import Game
from langgraph_games.games.state import GameState, derive_rng
from langgraph_games.players.base import Decision, DecisionRequest, ParseStatus, SearchPlayer
from langgraph_games.players.evaluation import EVALUATORS, WIN, Evaluator

__all__ = ["DEFAULT_DEPTHS", "MinimaxPlayer"]

DEFAULT_DEPTHS: dict[str, int | None] = {
    "tictactoe": None,  # exact
    "connect4": 4,
    "othello": 3,
    "checkers": 4,
}
_EXACT, _LOWER, _UPPER = 0, 1, 2


class MinimaxPlayer(SearchPlayer):
    """Alpha-beta search to a fixed depth (or to the end of the game).

    Ties between equally good moves are broken by a seeded shuffle of the root moves,
    so the player is deterministic for a given seed and state yet does not always pick
    the first of several equal moves.

    Args:
        depth: Plies to search; ``None`` uses the game's default in ``DEFAULT_DEPTHS``
            (exact search for TicTacToe), ``0`` or less is rejected.
        evaluator: Leaf evaluation ``(game, state, player) -> float``; defaults to the
            game's evaluator.
        seed: Seed of the tie-breaking shuffle.
        name: Label in results tables.

    Raises:
        ValueError: ``depth`` is not positive.

    Example:
        >>> from langgraph_games import GameSession
        >>> from langgraph_games.players import MinimaxPlayer, request_for
        >>> session = GameSession("tictactoe", actions=["(0,0)", "(1,0)", "(0,1)"])
        >>> MinimaxPlayer().decide(request_for(session)).action  # O must block
        '(0,2)'
    """

    instant = True

    def __init__(
        self,
        depth: int | None = None,
        evaluator: Evaluator | None = None,
        seed: int = 0,
        name: str = "minimax",
    ) -> None:
        if depth is not None and depth <= 0:
            raise ValueError(f"minimax depth must be a positive number of plies, got {depth}")
        self.depth = depth
        self.evaluator = evaluator
        self.seed = seed
        self.name = name
        self.nodes = 0

    def describe(self) -> dict[str, Any]:
        """``{"kind": "minimax", "depth": ..., "seed": ...}``."""
        return {"kind": "minimax", "depth": self.depth, "seed": self.seed}

    def _settings(self, game: Game[Any]) -> tuple[int | None, Evaluator | None]:
        if game.simultaneous or game.num_players != 2:
            raise ValueError(f"minimax needs a two-player turn-based game; {game.id!r} is not one")
        depth = self.depth if self.depth is not None else DEFAULT_DEPTHS.get(game.id, 3)
        evaluator = self.evaluator or EVALUATORS.get(game.id)
        if depth is not None and evaluator is None:
            raise ValueError(
                f"no evaluation function for {game.id!r}: pass evaluator= or use a game "
                f"with one ({', '.join(sorted(EVALUATORS))})"
            )
        return depth, evaluator

    def decide(self, request: DecisionRequest) -> Decision:
        """Search from ``request.state`` and return the best move for ``request.player``."""
        start = time.perf_counter()
        game, state, root = request.game, request.state, request.player
        depth, evaluator = self._settings(game)
        actions = list(request.legal_actions)
        if not actions:
            return Decision(action=None, status=ParseStatus.FALLBACK)
        derive_rng("minimax", self.seed, state.seed, state.turn, root).shuffle(actions)
        self.nodes = 0
        table: dict[GameState, tuple[int, float, int]] = {}
        limit = depth if depth is not None else 10_000
        best_action, best_value = actions[0], -math.inf
        alpha, beta = -math.inf, math.inf
        for action in actions:
            child, _ = game._apply(state, {root: action})
            value = self._search(game, child, root, limit - 1, alpha, beta, 1, evaluator, table)
            if value > best_value:
                best_action, best_value = action, value
            alpha = max(alpha, value)
        return Decision(
            action=best_action,
            status=ParseStatus.OK,
            latency_s=time.perf_counter() - start,
            info={"value": best_value, "nodes": self.nodes, "depth": depth},
        )

    def _search(
        self,
        game: Game[Any],
        state: GameState,
        root: int,
        depth: int,
        alpha: float,
        beta: float,
        ply: int,
        evaluator: Evaluator | None,
        table: dict[GameState, tuple[int, float, int]],
    ) -> float:
        self.nodes += 1
        acting = game.current_players(state)
        if not acting:
            outcome = game.returns(state)[root]
            return 0.0 if outcome == 0 else math.copysign(WIN - ply, outcome)
        if depth <= 0 and evaluator is not None:
            return evaluator(game, state, root)
        entry = table.get(state)
        if entry is not None and entry[0] >= depth:
            _, value, flag = entry
            if flag == _EXACT:
                return value
            if flag == _LOWER:
                alpha = max(alpha, value)
            elif flag == _UPPER:
                beta = min(beta, value)
            if alpha >= beta:
                return value
        alpha0, beta0 = alpha, beta
        player = acting[0]
        maximising = player == root
        best = -math.inf if maximising else math.inf
        for action in game.legal_actions(state, player):
            child, _ = game._apply(state, {player: action})
            value = self._search(
                game, child, root, depth - 1, alpha, beta, ply + 1, evaluator, table
            )
            if maximising:
                best = max(best, value)
                alpha = max(alpha, value)
            else:
                best = min(best, value)
                beta = min(beta, value)
            if alpha >= beta:
                break
        flag = _UPPER if best <= alpha0 else _LOWER if best >= beta0 else _EXACT
        table[state] = (depth, best, flag)
        return best
