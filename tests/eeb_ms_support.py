"""Scripted players' helpers for the EvoEmpirBench and Minesweeper agent tests.

Oracles read the board back from the prompt the agent sent (so they test the prompt
too) and answer in the paper's format.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.messages import BaseMessage

from langgraph_games.games.match2.rules import SIZE, groups
from langgraph_games.games.maze import Maze, MazeState
from langgraph_games.games.minesweeper import Minesweeper, MinesweeperState
from langgraph_games.games.minesweeper.rules import COVERED, FLAG, flood_reveal
from langgraph_games.games.minesweeper.truth import analyse

_ROW = re.compile(r"^\s*(\d+) \| (.*)$")


def board_from_prompt(text: str) -> tuple[str, int, int, int]:
    """``(view, rows, cols, mines)`` of the last board in a Minesweeper prompt."""
    current = text.split("The board:")[-1]
    rows = [_ROW.match(line) for line in current.splitlines()]
    cells = [m.group(2).split() for m in rows if m]
    view = "".join("".join(row) for row in cells)
    rest = int(re.findall(r"Mines rest: (-?\d+)", current)[-1])
    return view, len(cells), len(cells[0]), rest + view.count(FLAG)


def solver_move(view: str, rows: int, cols: int, mines: int) -> str:
    """The logic solver's move on a view (safe reveal, certain flag, safest guess)."""
    analysis = analyse(view, rows, cols, mines)
    safe = sorted(c for c in analysis.safe if view[c] in (COVERED, FLAG))
    flag = sorted(c for c in analysis.mines if view[c] == COVERED)
    if safe:
        return f"r,{safe[0] // cols},{safe[0] % cols}"
    if flag:
        return f"f,{flag[0] // cols},{flag[0] % cols}"
    covered = [c for c, ch in enumerate(view) if ch == COVERED]
    cell = min(covered, key=lambda c: (analysis.probability.get(c, 1.0), c))
    return f"r,{cell // cols},{cell % cols}"


def minesweeper_oracle(prefix: str = "Reasoning done.") -> Callable[[Sequence[BaseMessage]], str]:
    """A model playing the solver's move, written after some reasoning text."""

    def script(messages: Sequence[BaseMessage]) -> str:
        view, rows, cols, mines = board_from_prompt(messages[-1].text)
        return f"{prefix} Answer: {solver_move(view, rows, cols, mines)}"

    return script


def cells_oracle(messages: Sequence[BaseMessage]) -> str:
    """A model reporting the solver's certain cells (GAMEBoT lines) and its move."""
    view, rows, cols, mines = board_from_prompt(messages[-1].text)
    analysis = analyse(view, rows, cols, mines)

    def names(cells: frozenset[int]) -> str:
        return ", ".join(f"({c // cols},{c % cols})" for c in sorted(cells)) or "None"

    safe = frozenset(c for c in analysis.safe if view[c] in (COVERED, FLAG))
    return (
        f"[Intermediate Thinking Results 1: {names(safe)}]\n"
        f"[Intermediate Thinking Results 2: {names(analysis.mines)}]\n"
        f"So: {solver_move(view, rows, cols, mines)}"
    )


def match2_board(text: str) -> str:
    """The board string of a Match-2 prompt (row 0 first)."""
    block = text.split("Board (row 0 at the top, column 0 at the left):")[-1]
    rows = json.loads(block[: block.index("]]") + 2])
    return "".join("".join(row) for row in rows)


def match2_oracle(
    fence: bool = True, before: str = "The biggest group scores most."
) -> Callable[[Sequence[BaseMessage]], str]:
    """A model eliminating the largest group it sees (lowest cell among equals)."""

    def script(messages: Sequence[BaseMessage]) -> str:
        cell = biggest_group(match2_board(messages[-1].text))
        answer = json.dumps({"action": {"type": "eliminate", "pos": [cell // SIZE, cell % SIZE]}})
        return f"{before}\n```json\n{answer}\n```" if fence else f"{before} {answer}"

    return script


def biggest_group(board: str) -> int:
    """A cell of the largest group (the first such cell)."""
    sizes = groups(board)
    return max(range(SIZE * SIZE), key=lambda c: (len(sizes[c]), -c))


class HandMaze(Maze):
    """A maze engine starting from a hand-built state (the registry id stays ``maze``)."""

    def __init__(self, start: MazeState, **options: Any) -> None:
        super().__init__(**options)
        self._start = start

    def initial_state(self, seed: int = 0) -> MazeState:
        """The hand-built state, with the episode seed."""
        import dataclasses

        return dataclasses.replace(self._start, seed=seed)


class HandMinesweeper(Minesweeper):
    """A Minesweeper engine with mines placed by hand, optionally with cells revealed."""

    def __init__(
        self,
        mines: Sequence[tuple[int, int]],
        opened: Sequence[tuple[int, int]] = (),
        **options: Any,
    ) -> None:
        super().__init__(mines=len(mines), **options)
        cols = self.options.cols
        self._mines = tuple(sorted(r * cols + c for r, c in mines))
        self._opened = [r * cols + c for r, c in opened]

    def initial_state(self, seed: int = 0) -> MinesweeperState:
        """The board with the hand-placed mines and the given cells opened (flooding)."""
        import dataclasses

        state = dataclasses.replace(super().initial_state(seed), mines=self._mines)
        view = state.view
        for cell in self._opened:
            view = flood_reveal(view, state.rows, state.cols, self._mines, cell)
        return dataclasses.replace(state, view=view)
