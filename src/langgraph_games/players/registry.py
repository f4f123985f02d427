"""Non-LLM players by name, with ``:key=value`` settings.

``random`` and ``minimax`` play any suitable game; ``pong_tracker``, ``surround_space``,
``holdem_equity`` and ``negotiator`` are GAMEBoT's "stronger agents" for one game each;
``maze_explorer``, ``match2_greedy`` and ``minesweeper_solver`` play EvoEmpirBench and
Minesweeper.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from langgraph_games.players.base import Player
from langgraph_games.players.match2_greedy import Match2Greedy
from langgraph_games.players.maze_explorer import MazeExplorer
from langgraph_games.players.minesweeper_solver import MinesweeperSolver
from langgraph_games.players.minimax import MinimaxPlayer
from langgraph_games.players.negotiator import ConcessionNegotiator
from langgraph_games.players.poker_equity import EquityPlayer
from langgraph_games.players.pong_tracker import PongTracker
from langgraph_games.players.random_player import RandomPlayer
from langgraph_games.players.surround_space import SurroundSpacePlayer

__all__ = ["PLAYER_FACTORIES", "PlayerSpecError", "make_player", "parse_spec"]

PLAYER_FACTORIES: dict[str, tuple[Callable[..., Player], dict[str, type], str]] = {
    "random": (RandomPlayer, {"seed": int}, "uniformly random legal moves"),
    "minimax": (
        MinimaxPlayer,
        {"depth": int, "seed": int},
        "alpha-beta search (exact for TicTacToe, depth-limited elsewhere)",
    ),
    "maze_explorer": (
        MazeExplorer,
        {},
        "EvoEmpirBench maze: breadth-first search over the known map",
    ),
    "match2_greedy": (
        Match2Greedy,
        {},
        "EvoEmpirBench Match-2: clears the most still-needed tiles each step",
    ),
    "minesweeper_solver": (
        MinesweeperSolver,
        {},
        "Minesweeper: reveals proven-safe cells, flags proven mines, else the safest guess",
    ),
    "pong_tracker": (
        PongTracker,
        {},
        "Pong: predicts where the ball arrives and returns it away from the opponent",
    ),
    "surround_space": (
        SurroundSpacePlayer,
        {},
        "Surround: flood-fill space maximiser with a territory race",
    ),
    "holdem_equity": (
        EquityPlayer,
        {"samples": int, "seed": int},
        "Texas Hold'em: Monte Carlo equity against the pot odds",
    ),
    "negotiator": (
        ConcessionNegotiator,
        {"start": int, "step": int, "floor": int, "late": int},
        "Negotiation v2: concession schedule (asks 26, concedes 2 a round to 18, 15 late)",
    ),
}


class PlayerSpecError(ValueError):
    """A player spec that cannot be understood; the message lists the accepted forms."""


def accepted_forms() -> str:
    """Human-readable list of the player specs this registry understands."""
    forms = []
    for name, (_, settings, description) in sorted(PLAYER_FACTORIES.items()):
        keys = "".join(f"[:{k}=<{t.__name__}>]" for k, t in settings.items())
        forms.append(f"'{name}{keys}' ({description})")
    return "; ".join(forms)


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``"minimax:depth=3:seed=1"`` into ``("minimax", {"depth": "3", "seed": "1"})``."""
    name, *parts = spec.strip().split(":")
    settings: dict[str, str] = {}
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep or not key:
            raise PlayerSpecError(
                f"Player spec {spec!r}: setting {part!r} is not key=value. "
                f"Accepted forms: {accepted_forms()}."
            )
        settings[key.strip()] = value.strip()
    return name.strip().lower(), settings


def make_player(spec: str, **defaults: Any) -> Player:
    """Build a non-LLM player from a spec such as ``"minimax:depth=3"``.

    Args:
        spec: ``name[:key=value...]``.
        **defaults: Settings used when the spec does not give them (e.g. ``seed``).

    Raises:
        PlayerSpecError: Unknown name, unknown setting or a value of the wrong type.
    """
    name, raw = parse_spec(spec)
    if name not in PLAYER_FACTORIES:
        raise PlayerSpecError(f"Unknown player {name!r}. Accepted forms: {accepted_forms()}.")
    factory, types, _ = PLAYER_FACTORIES[name]
    kwargs: dict[str, Any] = {k: v for k, v in defaults.items() if k in types}
    for key, value in raw.items():
        if key not in types:
            raise PlayerSpecError(
                f"Player {name!r} has no setting {key!r}. Accepted forms: {accepted_forms()}."
            )
        try:
            kwargs[key] = types[key](value)
        except ValueError as exc:
            raise PlayerSpecError(
                f"Player {name!r}: setting {key}={value!r} must be {types[key].__name__}."
            ) from exc
    try:
        return factory(**kwargs)
    except ValueError as exc:
        raise PlayerSpecError(f"Player spec {spec!r}: {exc}") from exc
