"""Minesweeper as the Minesweeper Agent paper plays it, with a logic solver as ground truth.

Rules and feedback strings follow the paper and its released environment, with these choices:

- win (``win_rule="paper"``): every mine flagged and every safe cell revealed;
  ``win_rule="flags"`` is the released rule (the flags are exactly the mines);
- mines are placed from the episode seed (the released placement was unseeded);
  ``safe_first_click`` moves a mine from under the first revealed cell (off by default);
- the 20-step and 5-consecutive-invalid caps are options, and a win on the last allowed step
  counts as a win;
- the game ends in its terminal state; nothing resets itself;
- the invalid-answer feedback names ``(action,row,col)``; ``legacy_feedback`` gives
  the released ``(action,x,y)`` string.

Invalid answers (``invalid_moves="step"``, the default and the paper's loop): every
on-board triple is a legal action, including ones the rules refuse (revealing a revealed
cell, a flag past the mine count). They consume a step and answer with the paper's
``invalid ...`` feedback in an ``invalid`` event. Answers the environment cannot place on
the board are the actions ``invalid:answer`` (no triple), ``invalid:position`` (off the
board) and ``invalid:action`` (an action letter other than r/f). ``parse_action`` maps an
off-board triple to ``invalid:position`` and returns ``None`` for text with no triple; the
game's :meth:`~Minesweeper.fallback_action` is then ``invalid:answer``, so a loop with no
re-asks reproduces the paper exactly. With ``invalid_moves="reject"`` only effective
operations are legal and a refused one raises ``IllegalActionError`` whose reason is the
paper's feedback string (no step is consumed; the loop counts the invalid answers).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Literal

from pydantic import Field, ValidationInfo, field_validator

from langgraph_games.games._numbers import canonical_int
from langgraph_games.games.base import Event, Game, GameOptions
from langgraph_games.games.errors import IllegalActionError
from langgraph_games.games.minesweeper import protocol
from langgraph_games.games.minesweeper.render import (
    board_text,
    cell_name,
    parse_triple,
    render_text,
)
from langgraph_games.games.minesweeper.rules import (
    ADD_FLAG,
    ALREADY_REVEALED,
    COVERED,
    FLAG,
    FLAG_LIMIT,
    GAME_OVER,
    INVALID_ACTION,
    INVALID_ANSWER,
    INVALID_ANSWER_LEGACY,
    INVALID_POSITION,
    MINE,
    REMOVE_FLAG,
    SAFE,
    WIN,
    MinesweeperState,
    Status,
    flood_reveal,
    place_mines,
    relocate_first_mine,
)
from langgraph_games.games.minesweeper.truth import Analysis, analyse
from langgraph_games.games.registry import register
from langgraph_games.games.subproblems import Answer, AnswerKind, Metric, Subproblem

__all__ = ["INVALID_TOKENS", "Minesweeper", "MinesweeperOptions", "MinesweeperState", "Status"]

INVALID_TOKENS = ("invalid:action", "invalid:answer", "invalid:position")
"""Actions standing for answers the environment cannot place on the board."""

CELL_PATTERN = r"\(\s*\d+\s*,\s*\d+\s*\)"


class MinesweeperOptions(GameOptions):
    """Options of :class:`Minesweeper`."""

    rows: int = Field(9, ge=1, le=30, description="board height (the paper uses 3-9)")
    cols: int = Field(9, ge=1, le=30, description="board width (the paper uses 3-9)")
    mines: int = Field(3, ge=0, description="number of mines (the paper uses 1-3)")
    win_rule: Literal["paper", "flags"] = Field(
        "paper",
        description="paper: all mines flagged and all safe cells revealed; "
        "flags: the released rule, flags exactly on the mines",
    )
    max_steps: int | None = Field(
        20, ge=1, description="operations allowed, invalid ones included (None: no cap)"
    )
    max_consecutive_invalid: int | None = Field(
        5, ge=1, description="invalid operations in a row that end the game (None: no cap)"
    )
    safe_first_click: bool = Field(False, description="the first revealed cell is never a mine")
    invalid_moves: Literal["step", "reject"] = Field(
        "step",
        description="step: refused operations are legal, consume a step and get the paper's "
        "feedback; reject: only effective operations are legal",
    )
    legacy_feedback: bool = Field(
        False, description="use the released '(action,x,y)' invalid-answer string"
    )

    @field_validator("mines")
    @classmethod
    def _fits(cls, value: int, info: ValidationInfo) -> int:
        cells = info.data.get("rows", 9) * info.data.get("cols", 9)
        if value >= cells:
            raise ValueError(f"must be below the number of cells ({cells})")
        return value


@register
class Minesweeper(Game[MinesweeperState]):
    """Minesweeper with the Minesweeper Agent paper's text protocol and feedback."""

    id = "minesweeper"
    family = protocol.FAMILY
    eval_protocol = protocol.PROTOCOL
    name = "Minesweeper"
    description = (
        "Minesweeper Agent: reveal (r,row,col) and flag (f,row,col) until every mine is "
        "flagged and every safe cell revealed; the paper's feedback strings and step caps."
    )
    source = "Minesweeper Agent"
    player_names = ("player",)
    Options = MinesweeperOptions
    State = MinesweeperState
    subproblems = (
        Subproblem(
            1,
            "safe_cells",
            AnswerKind.SET,
            Metric.F1,
            "Which covered cells are certainly free of mines?",
            "(row,col), (row,col), ... or None",
            item_pattern=CELL_PATTERN,
        ),
        Subproblem(
            2,
            "mine_cells",
            AnswerKind.SET,
            Metric.F1,
            "Which covered cells certainly hold a mine?",
            "(row,col), (row,col), ... or None",
            item_pattern=CELL_PATTERN,
        ),
    )
    options: MinesweeperOptions

    # ----- rules ----------------------------------------------------------------------

    def initial_state(self, seed: int = 0) -> MinesweeperState:
        """A covered board with mines placed from ``seed``."""
        o = self.options
        return MinesweeperState(
            seed=seed,
            turn=0,
            rows=o.rows,
            cols=o.cols,
            mines=place_mines(seed, o.rows, o.cols, o.mines),
            view=COVERED * (o.rows * o.cols),
            status=Status.PLAYING,
            invalid_steps=0,
            consecutive_invalid=0,
            feedback="",
        )

    def is_terminal(self, state: MinesweeperState) -> bool:
        """The game is won, lost or stopped by a cap."""
        return state.status != Status.PLAYING

    def current_players(self, state: MinesweeperState) -> tuple[int, ...]:
        """The single player, until the end."""
        return () if self.is_terminal(state) else (0,)

    def returns(self, state: MinesweeperState) -> tuple[float, ...]:
        """1 for a win, 0 otherwise."""
        return (1.0 if state.status == Status.WON else 0.0,)

    def _cells(self, state: MinesweeperState) -> range:
        return range(state.rows * state.cols)

    def _operations(self, state: MinesweeperState) -> list[str]:
        """Operations the rules carry out: every reveal, then every flag, in reading order."""
        if self.is_terminal(state):
            return []
        can_flag = state.flags < len(state.mines)
        reveals, flags = [], []
        for i in self._cells(state):
            ch = state.view[i]
            name = f"{i // state.cols},{i % state.cols}"
            if ch in (COVERED, FLAG):
                reveals.append("r," + name)
            if ch == FLAG or (ch == COVERED and can_flag):
                flags.append("f," + name)
        return reveals + flags

    def valid_actions(self, state: MinesweeperState) -> tuple[str, ...]:
        """Operations the rules carry out (no ``invalid ...`` answer), sorted."""
        return tuple(sorted(self._operations(state)))

    def legal_moves_text(self, state: MinesweeperState, player: int) -> str:
        """The operations that act on the board now, as the paper's triples.

        Reveals, then flags, each in reading order and separated by semicolons
        (``r,0,0; r,0,1; ...; f,0,0; ...``): the moves of :meth:`valid_actions`. Step
        mode's other legal actions are left out: ``invalid:*`` stand for answers that are
        not moves, and refused operations (a revealed cell, a flag past the mine count)
        only cost a step.
        """
        return "; ".join(self._operations(state)) if player == 0 else ""

    def legal_actions(self, state: MinesweeperState, player: int) -> tuple[str, ...]:
        """Every on-board triple and the ``invalid:*`` answers (step mode), or the valid ones."""
        if player != 0 or self.is_terminal(state):
            return ()
        if self.options.invalid_moves == "reject":
            return self.valid_actions(state)
        triples = [
            f"{letter},{i // state.cols},{i % state.cols}"
            for letter in "fr"
            for i in self._cells(state)
        ]
        return tuple(sorted((*triples, *INVALID_TOKENS)))

    def _split(self, state: MinesweeperState, action: str) -> tuple[str, int] | None:
        """``("r"|"f", cell)`` of an on-board triple, else ``None``."""
        parts = action.split(",")
        if len(parts) != 3 or parts[0] not in ("r", "f"):
            return None
        row, col = canonical_int(parts[1]), canonical_int(parts[2])
        if row is None or col is None or not (0 <= row < state.rows and 0 <= col < state.cols):
            return None
        return parts[0], row * state.cols + col

    def refusal(self, state: MinesweeperState, action: str) -> str | None:
        """The paper's ``invalid ...`` feedback if the rules refuse ``action``, else ``None``."""
        if action == "invalid:answer":
            return INVALID_ANSWER_LEGACY if self.options.legacy_feedback else INVALID_ANSWER
        if action == "invalid:position":
            return INVALID_POSITION
        if action == "invalid:action":
            return INVALID_ACTION
        split = self._split(state, action)
        if split is None:
            return INVALID_ANSWER_LEGACY if self.options.legacy_feedback else INVALID_ANSWER
        letter, cell = split
        ch = state.view[cell]
        if ch not in (COVERED, FLAG):
            return ALREADY_REVEALED
        if letter == "f" and ch == COVERED and state.flags >= len(state.mines):
            return FLAG_LIMIT
        return None

    def is_legal(self, state: MinesweeperState, player: int, action: str) -> bool:
        """Constant-time check matching :meth:`legal_actions`."""
        if player != 0 or self.is_terminal(state):
            return False
        if self.options.invalid_moves == "reject":
            return self._split(state, action) is not None and self.refusal(state, action) is None
        return action in INVALID_TOKENS or self._split(state, action) is not None

    def apply(
        self, state: MinesweeperState, actions: Mapping[int, str]
    ) -> tuple[MinesweeperState, list[Event]]:
        """As :meth:`Game.apply`; a refused operation's error carries the paper's feedback."""
        if self.options.invalid_moves == "reject" and not self.is_terminal(state):
            action = actions.get(0)
            if action is not None and not self.is_legal(state, 0, action):
                reason = self.refusal(state, action) or "it is not a legal move"
                raise IllegalActionError(
                    action, self.legal_actions(state, 0), player=0, reason=reason
                )
        return super().apply(state, actions)

    def _apply(
        self, state: MinesweeperState, actions: Mapping[int, str]
    ) -> tuple[MinesweeperState, list[Event]]:
        action = actions[0]
        view, mines, status = state.view, state.mines, Status.PLAYING
        feedback = self.refusal(state, action)
        event: Event
        if feedback is not None:
            event = {"type": "invalid", "action": action, "feedback": feedback}
        else:
            letter, cell = self._split(state, action)  # type: ignore[misc]
            where = cell_name(cell, state.cols)
            if letter == "f":
                flagged = view[cell] == FLAG
                view = view[:cell] + (COVERED if flagged else FLAG) + view[cell + 1 :]
                feedback = REMOVE_FLAG if flagged else ADD_FLAG
                event = {"type": "unflag" if flagged else "flag", "cell": where}
            else:
                if self.options.safe_first_click and not state.started and cell in mines:
                    mines = relocate_first_mine(state.seed, state.rows, state.cols, mines, cell)
                if cell in mines:
                    view = view[:cell] + MINE + view[cell + 1 :]
                    feedback, status = GAME_OVER, Status.LOST
                    event = {"type": "mine", "cell": where}
                else:
                    before = sum(1 for ch in view if ch in (COVERED, FLAG))
                    view = flood_reveal(view, state.rows, state.cols, mines, cell)
                    revealed = before - sum(1 for ch in view if ch in (COVERED, FLAG))
                    feedback = SAFE
                    event = {"type": "reveal", "cell": where, "revealed": revealed}
            event = {**event, "action": action, "feedback": feedback}
        invalid = event["type"] == "invalid"
        consecutive = state.consecutive_invalid + 1 if invalid else 0
        events: list[Event] = [event]
        if status == Status.PLAYING and self._won(view, mines):
            status, feedback = Status.WON, WIN
            events.append({"type": "win"})
        turn = state.turn + 1
        if status == Status.PLAYING:
            cap = self.options.max_consecutive_invalid
            if self.options.max_steps is not None and turn >= self.options.max_steps:
                status = Status.STEP_LIMIT
            elif cap is not None and consecutive >= cap:
                status = Status.INVALID_LIMIT
        if status not in (Status.PLAYING, Status.WON):
            events.append({"type": "end", "status": status})
        new = MinesweeperState(
            seed=state.seed,
            turn=turn,
            rows=state.rows,
            cols=state.cols,
            mines=mines,
            view=view,
            status=status,
            invalid_steps=state.invalid_steps + int(invalid),
            consecutive_invalid=consecutive,
            feedback=feedback,
        )
        return new, events

    def _won(self, view: str, mines: tuple[int, ...]) -> bool:
        flags = {i for i, ch in enumerate(view) if ch == FLAG}
        if flags != set(mines):
            return False
        if self.options.win_rule == "flags":
            return True
        return COVERED not in view

    # ----- text -----------------------------------------------------------------------

    def parse_action(self, state: MinesweeperState, player: int, text: str) -> str | None:
        """The last ``r,row,col`` / ``f,row,col`` in the text (released parser).

        An off-board triple is ``invalid:position`` in step mode; text without a triple
        gives ``None`` (the fallback action then answers ``invalid answer``).
        """
        stripped = text.strip()
        if self.is_legal(state, player, stripped):
            return stripped
        parsed = parse_triple(text, state.rows, state.cols)
        if parsed.action is None:
            if parsed.reason == INVALID_POSITION and self.is_legal(
                state, player, "invalid:position"
            ):
                return "invalid:position"
            return None
        return parsed.action if self.is_legal(state, player, parsed.action) else None

    def fallback_action(
        self, state: MinesweeperState, player: int, rng: random.Random
    ) -> str | None:
        """``invalid:answer`` (the paper's environment answers unreadable text with it)."""
        if self.options.invalid_moves == "step":
            return "invalid:answer" if self.current_players(state) else None
        return super().fallback_action(state, player, rng)

    def observation(self, state: MinesweeperState, player: int) -> str:
        """The released environment's indexed board and summary lines."""
        return board_text(state.view, state.rows, state.cols, len(state.mines))

    def render(self, state: MinesweeperState) -> str:
        """A compact board; mines are shown once the game is over."""
        return render_text(state.view, state.rows, state.cols, state.mines, state.status)

    # ----- ground truth ---------------------------------------------------------------

    def analyse(self, state: MinesweeperState) -> Analysis:
        """The logic solver's reading of the player's view (see ``truth.py``)."""
        return analyse(state.view, state.rows, state.cols, len(state.mines))

    def ground_truth(self, state: MinesweeperState, player: int) -> dict[int, Answer]:
        """Certainly safe covered cells (1) and certainly mined covered cells (2)."""
        result = self.analyse(state)
        return {
            1: frozenset(cell_name(i, state.cols) for i in result.safe),
            2: frozenset(cell_name(i, state.cols) for i in result.mines),
        }
