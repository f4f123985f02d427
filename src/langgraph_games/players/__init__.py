"""The player contract, the search players, :func:`as_player` and the one player registry."""

from __future__ import annotations

from langgraph_games.games.session import GameSession
from langgraph_games.players.base import (
    Decision,
    DecisionRequest,
    Exchange,
    ParseStatus,
    Player,
    SearchPlayer,
)
from langgraph_games.players.builtin import (
    EquitySettings,
    Match2GreedySettings,
    MinimaxSettings,
    NegotiatorSettings,
    PongTrackerSettings,
    RandomSettings,
)
from langgraph_games.players.compose import FunctionPlayer, StrategyPlayer, as_player
from langgraph_games.players.entry import PlayerBuild, PlayerBuilder, PlayerEntry, PlayerRecipe
from langgraph_games.players.errors import (
    PlayerContractError,
    PlayerSettingError,
    PlayerSpecError,
    UnknownPlayerError,
)
from langgraph_games.players.match2_greedy import Match2Greedy
from langgraph_games.players.maze_explorer import MazeExplorer
from langgraph_games.players.minesweeper_solver import MinesweeperSolver
from langgraph_games.players.minimax import DEFAULT_DEPTHS, MinimaxPlayer
from langgraph_games.players.negotiator import ConcessionNegotiator
from langgraph_games.players.poker_equity import EquityPlayer
from langgraph_games.players.pong_tracker import PongTracker
from langgraph_games.players.random_player import RandomPlayer
from langgraph_games.players.registry import (
    PLAYERS,
    PlayerRegistry,
    accepted_forms,
    complete_model,
    make_player,
    parse_spec,
    player_entries,
    player_entry,
    register_player,
    resolve_player,
)
from langgraph_games.players.spec import (
    NoSettings,
    PlayerSettings,
    PlayerSpec,
    SettingInfo,
    format_value,
    split_spec,
)
from langgraph_games.players.surround_space import SurroundSpacePlayer

__all__ = [
    "DEFAULT_DEPTHS",
    "PLAYERS",
    "ConcessionNegotiator",
    "Decision",
    "DecisionRequest",
    "EquityPlayer",
    "EquitySettings",
    "Exchange",
    "FunctionPlayer",
    "Match2Greedy",
    "Match2GreedySettings",
    "MazeExplorer",
    "MinesweeperSolver",
    "MinimaxPlayer",
    "MinimaxSettings",
    "NegotiatorSettings",
    "NoSettings",
    "ParseStatus",
    "Player",
    "PlayerBuild",
    "PlayerBuilder",
    "PlayerContractError",
    "PlayerEntry",
    "PlayerRecipe",
    "PlayerRegistry",
    "PlayerSettingError",
    "PlayerSettings",
    "PlayerSpec",
    "PlayerSpecError",
    "PongTracker",
    "PongTrackerSettings",
    "RandomPlayer",
    "RandomSettings",
    "SearchPlayer",
    "SettingInfo",
    "StrategyPlayer",
    "SurroundSpacePlayer",
    "UnknownPlayerError",
    "accepted_forms",
    "as_player",
    "complete_model",
    "format_value",
    "make_player",
    "parse_spec",
    "player_entries",
    "player_entry",
    "register_player",
    "request_for",
    "resolve_player",
    "split_spec",
]


def request_for(
    session: GameSession, player: int | None = None, **extra: object
) -> DecisionRequest:
    """Build the :class:`DecisionRequest` of ``player`` (default: the acting one) now.

    ``previous_observations`` are the seat's observations of the session's earlier states
    where it was acting (each is rendered again), unless ``extra`` gives them; other
    fields (``feedback``, ``previous_exchange``, ...) come from ``extra``.

    Example:
        >>> session = GameSession("connect4")
        >>> _ = session.step("(0,3)")
        >>> req = request_for(session)
        >>> req.player, len(req.legal_actions), len(req.previous_observations)
        (1, 7, 0)
    """
    seat = session.current_players[0] if player is None else player
    if "previous_observations" not in extra:
        game = session.game
        extra["previous_observations"] = tuple(
            game.observation(state, seat)
            for state in session.states[:-1]
            if seat in game.current_players(state)
        )
    return DecisionRequest(
        game=session.game,
        state=session.state,
        player=seat,
        observation=session.observe(seat),
        legal_actions=session.legal_actions(seat),
        **extra,  # type: ignore[arg-type]
    )
