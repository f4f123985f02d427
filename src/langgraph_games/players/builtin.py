"""The search players' registry entries.

``random`` plays every game and ``minimax`` the two-player, turn-based games that declare
a search (:func:`~langgraph_games.players.minimax.can_search`); ``pong_tracker``,
``surround_space``, ``holdem_equity`` and ``negotiator`` are GAMEBoT's "stronger agents"
for one game each; ``maze_explorer``, ``match2_greedy`` and ``minesweeper_solver`` play
EvoEmpirBench and Minesweeper. Importing :mod:`langgraph_games.players` registers them.
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import Field

from langgraph_games.players.base import Player
from langgraph_games.players.entry import (
    GameFilter,
    PlayerBuild,
    PlayerBuilder,
    PlayerEntry,
    only,
)
from langgraph_games.players.errors import PlayerSettingError
from langgraph_games.players.match2_greedy import Match2Greedy
from langgraph_games.players.maze_explorer import MazeExplorer
from langgraph_games.players.minesweeper_solver import MinesweeperSolver
from langgraph_games.players.minimax import MinimaxPlayer, can_search
from langgraph_games.players.negotiator import ConcessionNegotiator
from langgraph_games.players.poker_equity import EquityPlayer
from langgraph_games.players.pong_tracker import PongTracker
from langgraph_games.players.random_player import RandomPlayer
from langgraph_games.players.registry import register_player
from langgraph_games.players.spec import NoSettings, PlayerSettings
from langgraph_games.players.surround_space import SurroundSpacePlayer

__all__ = [
    "EquitySettings",
    "Match2GreedySettings",
    "MinimaxSettings",
    "NegotiatorSettings",
    "PongTrackerSettings",
    "RandomSettings",
]

_SEED = "seed of its own randomness (runs give each seat and episode its own unless set)"


class RandomSettings(PlayerSettings):
    """Settings of ``random``."""

    seed: int = Field(0, description=_SEED)


class MinimaxSettings(PlayerSettings):
    """Settings of ``minimax``."""

    depth: int | None = Field(
        None,
        description="plies searched (default: exact for TicTacToe, 4 for Connect4 and "
        "Checkers, 3 for Othello)",
    )
    seed: int = Field(0, description="seed of the tie-breaking shuffle of equal moves")
    max_nodes: int | None = Field(
        None,
        description="most positions one decision may visit (default: no bound; then the "
        "search deepens ply by ply and plays the deepest finished result)",
    )


class Match2GreedySettings(PlayerSettings):
    """Settings of ``match2_greedy``."""

    props: bool = Field(True, description="use the level's props")


class PongTrackerSettings(PlayerSettings):
    """Settings of ``pong_tracker``."""

    aim: bool = Field(True, description="return the ball as far from the opponent as it can")


class EquitySettings(PlayerSettings):
    """Settings of ``holdem_equity``."""

    samples: int = Field(300, description="deals simulated per decision")
    seed: int = Field(0, description="seed of the simulations")


class NegotiatorSettings(PlayerSettings):
    """Settings of ``negotiator`` (values out of 30; ``0 <= late <= floor <= start``)."""

    start: int = Field(26, description="aspiration in the first round")
    step: int = Field(2, description="drop of the aspiration after each own proposal")
    floor: int = Field(18, description="lowest aspiration before the chance rounds")
    late: int = Field(15, description="aspiration once the game may end by chance")


def _search(name: str, cls: Callable[..., Player]) -> PlayerBuilder:
    """A builder passing the settings to ``cls``; its ``ValueError`` names the spec."""

    def build(request: PlayerBuild[PlayerSettings]) -> Player:
        try:
            return cls(**request.settings.model_dump(), name=request.name)
        except ValueError as exc:
            raise PlayerSettingError(name, f"Player spec {request.name!r}: {exc}") from exc

    return build


def _entry(
    name: str,
    cls: Callable[..., Player],
    description: str,
    settings: type[PlayerSettings] = NoSettings,
    games: tuple[str, ...] = (),
    plays: GameFilter | None = None,
) -> PlayerEntry:
    return PlayerEntry(
        name=name,
        build=_search(name, cls),
        description=description,
        settings=settings,
        games=games,
        plays=plays if plays is not None else only(*games) if games else None,
    )


_ENTRIES = (
    _entry("random", RandomPlayer, "uniformly random legal moves", RandomSettings),
    _entry(
        "minimax",
        MinimaxPlayer,
        "alpha-beta search (exact for TicTacToe, depth-limited elsewhere)",
        MinimaxSettings,
        plays=can_search,
    ),
    _entry(
        "maze_explorer",
        MazeExplorer,
        "EvoEmpirBench maze: breadth-first search over the known map",
        games=("maze",),
    ),
    _entry(
        "match2_greedy",
        Match2Greedy,
        "EvoEmpirBench Match-2: clears the most still-needed tiles each step",
        Match2GreedySettings,
        games=("match2",),
    ),
    _entry(
        "minesweeper_solver",
        MinesweeperSolver,
        "Minesweeper: reveals proven-safe cells, flags proven mines, else the safest guess",
        games=("minesweeper",),
    ),
    _entry(
        "pong_tracker",
        PongTracker,
        "Pong: predicts where the ball arrives and returns it away from the opponent",
        PongTrackerSettings,
        games=("pong",),
    ),
    _entry(
        "surround_space",
        SurroundSpacePlayer,
        "Surround: flood-fill space maximiser with a territory race",
        games=("surround",),
    ),
    _entry(
        "holdem_equity",
        EquityPlayer,
        "Texas Hold'em: Monte Carlo equity against the pot odds",
        EquitySettings,
        games=("texas_holdem",),
    ),
    _entry(
        "negotiator",
        ConcessionNegotiator,
        "Negotiation v2: concession schedule (asks 26, concedes 2 a round to 18, 15 late)",
        NegotiatorSettings,
        games=("negotiation",),
    ),
)

for _search_entry in _ENTRIES:
    register_player(_search_entry)
