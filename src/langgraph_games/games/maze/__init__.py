"""EvoEmpirBench maze navigation (levels 1-3, full-vision variant), fixed map sets, metrics.

The rules are in :mod:`~langgraph_games.games.maze.rules`, the generator and fixed sets in
:mod:`~langgraph_games.games.maze.generator`, the views and legend in
:mod:`~langgraph_games.games.maze.render`, the answer parser in
:mod:`~langgraph_games.games.maze.parsing` and the paper's eight metrics in
:mod:`~langgraph_games.games.maze.metrics`.

Which map is played: ``map_set="generated"`` (default) builds a fresh map from the episode
seed; ``map_set="eval"`` or ``"train"`` plays map ``map_index`` (1-30 or 1-10) of the
fixed set of that level (with ``map_index=None`` the episode seed picks it,
``seed % size + 1``). Monster moves always come from the episode seed.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Literal

from pydantic import Field

from langgraph_games.games.base import Event, Game, GameOptions
from langgraph_games.games.errors import OptionError
from langgraph_games.games.maze import protocol
from langgraph_games.games.maze.generator import (
    DEFAULT_SIZES,
    MAP_SETS,
    MazeMap,
    fixed_map,
    generate_map,
)
from langgraph_games.games.maze.parsing import parse_maze_answer
from langgraph_games.games.maze.render import observation_text, render_text
from langgraph_games.games.maze.rules import ACTIONS, MazeState, Outcome, initial_maze_state
from langgraph_games.games.maze.step import play
from langgraph_games.games.registry import register
from langgraph_games.games.state import derive_rng

__all__ = ["Maze", "MazeOptions", "MazeState"]


class MazeOptions(GameOptions):
    """Options of :class:`Maze`."""

    level: Literal[1, 2, 3] = Field(
        1, description="1: coins; 2: coins and two monsters; 3: monsters, items and a key"
    )
    grid_size: int | None = Field(
        None,
        ge=7,
        le=15,
        description="grid side; None: 7/9/11 for levels 1/2/3 as released (9: the paper's text)",
    )
    map_set: Literal["generated", "eval", "train"] = Field(
        "generated",
        description="generated: a new map from the episode seed; eval/train: the fixed sets "
        "(30/10 maps per level)",
    )
    map_index: int | None = Field(
        None, ge=1, le=30, description="1-based map of a fixed set (None: picked by the seed)"
    )
    move_mode: Literal["path_checked", "teleport"] = Field(
        "path_checked",
        description="path_checked: a move walks cell by cell, and a wall or monster on its "
        "way is hit (a life lost, as the paper's 'costs life if hit'); teleport: the released "
        "jump to the target cell, over whatever lies between",
    )
    full_vision: bool = Field(False, description="show the whole map (paper Table 7)")
    max_steps: int = Field(100, ge=1, description="steps before the episode stops (released: 100)")


@register
class Maze(Game[MazeState]):
    """EvoEmpirBench maze: explore a partially visible grid, collect coins, reach the goal."""

    id = "maze"
    family = protocol.FAMILY
    eval_protocol = protocol.PROTOCOL
    name = "EvoEmpirBench Maze"
    description = (
        "EvoEmpirBench maze: 3x3 vision, 5 coins, monsters from level 2, items and a key on "
        "level 3; 12 moves (4 directions x 1-3 cells); reach the top-right goal."
    )
    source = "EvoEmpirBench"
    player_names = ("agent",)
    Options = MazeOptions
    State = MazeState
    return_scale = 10000.0
    options: MazeOptions

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        o = self.options
        if o.map_index is not None and o.map_set in MAP_SETS and o.map_index > MAP_SETS[o.map_set]:
            raise OptionError(
                self.id,
                "map_index",
                f"is {o.map_index} but the {o.map_set} set has {MAP_SETS[o.map_set]} maps",
                f"Accepted: 1-{MAP_SETS[o.map_set]} or None.",
            )

    @property
    def size(self) -> int:
        """The grid side for these options."""
        return self.options.grid_size or DEFAULT_SIZES[self.options.level]

    def maze_map(self, seed: int) -> MazeMap:
        """The map played with ``seed`` under these options."""
        o = self.options
        if o.map_set == "generated":
            rng = derive_rng("evoempirbench-maze", "episode", seed)
            return generate_map(rng, self.size, o.level, f"gen-L{o.level}-s{seed}")
        index = o.map_index if o.map_index is not None else seed % MAP_SETS[o.map_set] + 1
        return fixed_map(o.map_set, o.level, index, o.grid_size)

    # ----- rules ----------------------------------------------------------------------

    def initial_state(self, seed: int = 0) -> MazeState:
        """The agent at the bottom-left start of the chosen map, 3 lives, score 0."""
        return initial_maze_state(self.maze_map(seed), seed)

    def is_terminal(self, state: MazeState) -> bool:
        """Goal reached, no lives left, or the step limit reached."""
        return state.outcome != Outcome.PLAYING

    def current_players(self, state: MazeState) -> tuple[int, ...]:
        """The agent, until the end."""
        return () if self.is_terminal(state) else (0,)

    def legal_actions(self, state: MazeState, player: int) -> tuple[str, ...]:
        """All twelve moves ``"0"``-``"11"`` (a move into a wall is legal and costs a life)."""
        return ACTIONS if player == 0 and not self.is_terminal(state) else ()

    def is_legal(self, state: MazeState, player: int, action: str) -> bool:
        """Constant-time check."""
        return player == 0 and not self.is_terminal(state) and action in ACTIONS

    def _apply(self, state: MazeState, actions: Mapping[int, str]) -> tuple[MazeState, list[Event]]:
        return play(
            state,
            int(actions[0]),
            teleport=self.options.move_mode == "teleport",
            max_steps=self.options.max_steps,
        )

    def returns(self, state: MazeState) -> tuple[float, ...]:
        """The score so far."""
        return (float(state.score),)

    def success(self, state: MazeState) -> bool:
        """Whether the goal was reached (one definition for training and evaluation)."""
        return state.outcome == Outcome.GOAL

    # ----- text -----------------------------------------------------------------------

    def parse_action(self, state: MazeState, player: int, text: str) -> str | None:
        """The released agent's rules: ``Action: X`` first, then its fallbacks."""
        stripped = text.strip()
        if self.is_legal(state, player, stripped):
            return stripped
        action = parse_maze_answer(text).action
        return action if action is not None and self.is_legal(state, player, action) else None

    def fallback_action(self, state: MazeState, player: int, rng: random.Random) -> str | None:
        """Action 0 (move up one cell), as the released agent played on an unreadable reply."""
        return "0" if self.current_players(state) else None

    def observation(self, state: MazeState, player: int) -> str:
        """The game-state part of the EvoEmpirBench prompt (map, position, status, items)."""
        return observation_text(state, self.options.full_vision, self.options.max_steps)

    def render(self, state: MazeState) -> str:
        """The whole map with a status line."""
        return render_text(state)
