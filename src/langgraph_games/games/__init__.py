"""Game engines: the game contract, the registry, sessions and the built-in games."""

from __future__ import annotations

from langgraph_games.games.base import Event, Game, GameInfo, GameOptions, OptionInfo
from langgraph_games.games.checkers import Checkers
from langgraph_games.games.connect4 import Connect4
from langgraph_games.games.crafter import Crafter
from langgraph_games.games.errors import (
    GameError,
    GameOverError,
    IllegalActionError,
    OptionError,
    StateFormatError,
    UnknownGameError,
)
from langgraph_games.games.match2 import Match2
from langgraph_games.games.maze import Maze
from langgraph_games.games.minesweeper import Minesweeper
from langgraph_games.games.negotiation import Negotiation
from langgraph_games.games.othello import Othello
from langgraph_games.games.pong import Pong
from langgraph_games.games.registry import game_class, list_games, make, register
from langgraph_games.games.session import GameSession, JointAction
from langgraph_games.games.smartplay import Bandit, Hanoi, Messenger, RockPaperScissors
from langgraph_games.games.state import GameState, derive_rng
from langgraph_games.games.subproblems import (
    Answer,
    AnswerKind,
    Metric,
    Subproblem,
    SubproblemScore,
    aggregate_scores,
    extract_intermediate,
    parse_answer,
    score_answer,
)

# Re-exported for users; the registry itself finds every game folder on disk.
from langgraph_games.games.surround import Surround
from langgraph_games.games.texas_holdem import TexasHoldem
from langgraph_games.games.tictactoe import TicTacToe

__all__ = [
    "Answer",
    "AnswerKind",
    "Bandit",
    "Checkers",
    "Connect4",
    "Crafter",
    "Event",
    "Game",
    "GameError",
    "GameInfo",
    "GameOptions",
    "GameOverError",
    "GameSession",
    "GameState",
    "Hanoi",
    "IllegalActionError",
    "JointAction",
    "Match2",
    "Maze",
    "Messenger",
    "Metric",
    "Minesweeper",
    "Negotiation",
    "OptionError",
    "OptionInfo",
    "Othello",
    "Pong",
    "RockPaperScissors",
    "StateFormatError",
    "Subproblem",
    "SubproblemScore",
    "Surround",
    "TexasHoldem",
    "TicTacToe",
    "UnknownGameError",
    "aggregate_scores",
    "derive_rng",
    "extract_intermediate",
    "game_class",
    "list_games",
    "make",
    "parse_answer",
    "register",
    "score_answer",
]
