"""Minimax with alpha-beta pruning for two-player, turn-based, zero-sum games.

The search walks the pure game API, so it works for any such registered game; a game
where the same player moves twice in a row (Othello passes, Checkers multi-jumps) is
handled because each node maximises or minimises by who is to move there. Without a
depth limit the search is exact (TicTacToe); otherwise leaves are scored by the game's
heuristic. Each game declares its default depth and heuristic in its own folder (the
``search`` of its :class:`~langgraph_games.games.parts.GameParts`); ``minimax`` plays the
two-player, turn-based games that declare one (:func:`can_search`).

With a node budget (``max_nodes``; servers set one, see
:mod:`langgraph_games.players.budget`) the search deepens one ply at a time and plays the
best move of the deepest search that finished within the budget, so a decision's work is
bounded whatever depth was asked for. Counting nodes rather than seconds keeps the choice
the same on a fast or a busy machine.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator, Mapping
from typing import Any

from langgraph_games.games.base import Game
from langgraph_games.games.parts import WIN, Evaluator, PartsView, Search, parts_of
from langgraph_games.games.state import GameState, derive_rng
from langgraph_games.players.base import Decision, DecisionRequest, ParseStatus, SearchPlayer

__all__ = ["DEFAULT_DEPTHS", "SEARCHES", "MinimaxPlayer", "can_search"]

SEARCHES: Mapping[str, Search] = PartsView(lambda parts: parts.search)
"""How each game that declares a search is searched, by game id (a view of the games)."""


class _Depths(Mapping[str, "int | None"]):
    """The default depth of each game that declares a search (``None``: exact)."""

    def __getitem__(self, game_id: str) -> int | None:
        return SEARCHES[game_id].depth

    def __iter__(self) -> Iterator[str]:
        return iter(SEARCHES)

    def __len__(self) -> int:
        return len(SEARCHES)


DEFAULT_DEPTHS: Mapping[str, int | None] = _Depths()
"""Default plies by game id (``None``: searched to the end), as the games declare them."""


def can_search(game: type[Game[GameState]] | Game[GameState]) -> bool:
    """Whether ``minimax`` plays ``game``: two players taking turns, and a declared search."""
    two_players = len(game.player_names) == 2 and not game.simultaneous
    return two_players and parts_of(game).search is not None


_EXACT, _LOWER, _UPPER = 0, 1, 2


class _OutOfBudget(Exception):
    """A deepening step ran out of its node budget (its partial result is dropped)."""


class MinimaxPlayer(SearchPlayer):
    """Alpha-beta search to a fixed depth (or to the end of the game).

    Ties between equally good moves are broken by a seeded shuffle of the root moves,
    so the player is deterministic for a given seed and state yet does not always pick
    the first of several equal moves.

    Args:
        depth: Plies to search; ``None`` uses the game's declared default (exact search
            for TicTacToe), ``0`` or less is rejected.
        evaluator: Leaf evaluation ``(game, state, player) -> float``; defaults to the
            game's declared heuristic.
        seed: Seed of the tie-breaking shuffle.
        name: Label in results tables.
        max_nodes: Most positions one decision may visit (``None``: no bound). With a
            bound, the search deepens ply by ply and plays the deepest finished result.

    Raises:
        ValueError: ``depth`` or ``max_nodes`` is not positive.

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
        max_nodes: int | None = None,
    ) -> None:
        if depth is not None and depth <= 0:
            raise ValueError(f"minimax depth must be a positive number of plies, got {depth}")
        if max_nodes is not None and max_nodes <= 0:
            raise ValueError(f"minimax max_nodes must be a positive number, got {max_nodes}")
        self.depth = depth
        self.max_nodes = max_nodes
        self.evaluator = evaluator
        self.seed = seed
        self.name = name
        self.nodes = 0
        self._budget: int | None = None
        self._last_count = -1

    def describe(self) -> dict[str, object]:
        """``{"kind": "minimax", "depth": ..., "seed": ...}`` (and ``max_nodes`` when set)."""
        described: dict[str, Any] = {"kind": "minimax", "depth": self.depth, "seed": self.seed}
        if self.max_nodes is not None:
            described["max_nodes"] = self.max_nodes
        return described

    def _settings(self, game: Game[GameState]) -> tuple[int | None, Evaluator | None]:
        if game.simultaneous or game.num_players != 2:
            raise ValueError(f"minimax needs a two-player turn-based game; {game.id!r} is not one")
        search = parts_of(game).search
        default = search.depth if search is not None else 3
        depth = self.depth if self.depth is not None else default
        evaluator = self.evaluator or (search.heuristic if search is not None else None)
        if depth is not None and evaluator is None:
            raise ValueError(
                f"no evaluation function for {game.id!r}: pass evaluator= or use a game "
                f"with one ({', '.join(sorted(SEARCHES))})"
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
        limit = depth if depth is not None else 10_000
        info: dict[str, Any] = {"depth": depth}
        if self.max_nodes is None:
            best_action, best_value = self._root(game, state, root, actions, limit, evaluator)
        else:
            best_action, best_value, reached = self._deepening(
                game, state, root, actions, limit, evaluator
            )
            info["searched_depth"] = reached
        info.update(value=best_value, nodes=self.nodes)
        return Decision(
            action=best_action,
            status=ParseStatus.OK,
            latency_s=time.perf_counter() - start,
            info=info,
        )

    def _root(
        self,
        game: Game[GameState],
        state: GameState,
        root: int,
        actions: list[str],
        limit: int,
        evaluator: Evaluator | None,
    ) -> tuple[str, float]:
        """One alpha-beta search of ``limit`` plies: the best root action and its value."""
        table: dict[GameState, tuple[int, float, int]] = {}
        best_action, best_value = actions[0], -math.inf
        alpha, beta = -math.inf, math.inf
        for action in actions:
            child, _ = game._apply(state, {root: action})
            value = self._search(game, child, root, limit - 1, alpha, beta, 1, evaluator, table)
            if value > best_value:
                best_action, best_value = action, value
            alpha = max(alpha, value)
        return best_action, best_value

    def _deepening(
        self,
        game: Game[GameState],
        state: GameState,
        root: int,
        actions: list[str],
        limit: int,
        evaluator: Evaluator | None,
    ) -> tuple[str, float, int]:
        """Search 1, 2, ... ``limit`` plies within ``max_nodes``; the deepest finished result.

        A depth that runs out of budget is dropped (the first always finishes: its result
        is the floor); the search also stops once a depth visits no node deeper than the
        last (the game ended everywhere: deeper plies change nothing).
        """
        best_action, best_value, reached = actions[0], -math.inf, 0
        self._budget = self.max_nodes
        try:
            for plies in range(1, limit + 1):
                before = self.nodes
                best_action, best_value = self._root(game, state, root, actions, plies, evaluator)
                reached = plies
                if plies > 1 and self.nodes - before == self._last_count:
                    break
                self._last_count = self.nodes - before
        except _OutOfBudget:
            pass
        finally:
            self._budget = None
            self._last_count = -1
        return best_action, best_value, reached

    def _search(
        self,
        game: Game[GameState],
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
        if self._budget is not None and self.nodes > self._budget and depth > 0:
            raise _OutOfBudget
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
