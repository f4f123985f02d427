"""EvoEmpirBench Match-2 (easy/medium/hard, no-props variant), fixed level sets, metrics.

Actions are canonical strings: ``eliminate,r,c`` (any cell of a group of two or more),
``row,k``, ``col,k``, ``bomb,r,c`` and ``hammer,r,c``. A prop is legal only while one is
left and the score covers its cost, so the released bugs around props cannot happen: an
out-of-range index is refused before anything is charged and there is no hammer refund.

Invalid answers: with ``invalid_moves="reject"`` (default, the released
behaviour) a refused action raises ``IllegalActionError`` with a clear reason and costs
no step; the episode loop asks again up to its cap. With ``invalid_moves="step"`` the
action ``invalid`` is legal too: it spends a step and changes nothing else, and
``parse_action`` maps a well-formed but refused answer to it.

The game also ends, as a failure, when no group of two exists and no prop is affordable:
nothing could ever change the board again. The released game kept asking the model until
a 5-minute timeout; the outcome is the same, reached at once and deterministically.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from typing import Literal

from pydantic import Field

from langgraph_games.games._numbers import canonical_int
from langgraph_games.games.base import Event, Game, GameOptions
from langgraph_games.games.errors import IllegalActionError, OptionError
from langgraph_games.games.match2 import protocol
from langgraph_games.games.match2.levels import LEVEL_SETS, Level, fixed_level, generate_level
from langgraph_games.games.match2.render import observation_text, parse_match2_answer, render_text
from langgraph_games.games.match2.rules import (
    COLOURS,
    COSTS,
    PROPS,
    SIZE,
    Match2State,
    Outcome,
    cells_cleared,
    drop_and_refill,
    elimination_score,
    groups,
)
from langgraph_games.games.registry import register
from langgraph_games.games.state import derive_rng

__all__ = ["Match2", "Match2Options", "Match2State"]

INVALID = "invalid"


class Match2Options(GameOptions):
    """Options of :class:`Match2`."""

    difficulty: Literal["easy", "medium", "hard"] = Field(
        "easy", description="step allowance and colour targets (paper Table 2)"
    )
    map_set: Literal["generated", "eval", "train"] = Field(
        "generated",
        description="generated: a new level from the episode seed; eval/train: the fixed sets "
        "(30/10 levels per difficulty)",
    )
    map_index: int | None = Field(
        None, ge=1, le=30, description="1-based level of a fixed set (None: picked by the seed)"
    )
    props: bool = Field(True, description="False: the NoProps variant (paper Table 7)")
    invalid_moves: Literal["reject", "step"] = Field(
        "reject",
        description="reject: refused answers cost no step (released); step: the action "
        "'invalid' spends a step",
    )


def _position(text: str) -> tuple[int, ...] | None:
    values = []
    for part in text.split(","):
        value = canonical_int(part)
        if value is None or not 0 <= value < SIZE:
            return None
        values.append(value)
    return tuple(values)


@register
class Match2(Game[Match2State]):
    """EvoEmpirBench Match-2: clear colour targets on an 8x8 board within a step limit."""

    id = "match2"
    family = protocol.FAMILY
    eval_protocol = protocol.PROTOCOL
    name = "EvoEmpirBench Match-2"
    description = (
        "EvoEmpirBench Match-2: eliminate groups of 2+ same-colour tiles on an 8x8 board "
        "to meet per-colour targets within a step limit; row/col/bomb/hammer props."
    )
    source = "EvoEmpirBench"
    player_names = ("player",)
    Options = Match2Options
    State = Match2State
    return_scale = 1000.0
    options: Match2Options

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        o = self.options
        if (
            o.map_index is not None
            and o.map_set in LEVEL_SETS
            and o.map_index > LEVEL_SETS[o.map_set]
        ):
            raise OptionError(
                self.id,
                "map_index",
                f"is {o.map_index} but the {o.map_set} set has {LEVEL_SETS[o.map_set]} levels",
                f"Accepted: 1-{LEVEL_SETS[o.map_set]} or None.",
            )

    def level(self, seed: int) -> Level:
        """The level played with ``seed`` under these options."""
        o = self.options
        if o.map_set == "generated":
            rng = derive_rng("evoempirbench-match2", "episode", seed)
            return generate_level(rng, o.difficulty, f"gen-{o.difficulty}-s{seed}")
        index = o.map_index if o.map_index is not None else seed % LEVEL_SETS[o.map_set] + 1
        return fixed_level(o.map_set, o.difficulty, index)

    # ----- rules ----------------------------------------------------------------------

    def initial_state(self, seed: int = 0) -> Match2State:
        """The level's board, score 0, its full step allowance and props."""
        level = self.level(seed)
        return Match2State(
            seed=seed,
            turn=0,
            level_id=level.level_id,
            board=level.board,
            score=0,
            steps_left=level.max_steps,
            max_steps=level.max_steps,
            inventory=level.inventory if self.options.props else (0, 0, 0, 0),
            targets=level.targets,
            counts=(0, 0, 0, 0),
            cleared=0,
            invalid_steps=0,
            outcome=Outcome.PLAYING,
        )

    def is_terminal(self, state: Match2State) -> bool:
        """Targets met, steps exhausted, or nothing can change the board any more."""
        return state.outcome != Outcome.PLAYING

    def current_players(self, state: Match2State) -> tuple[int, ...]:
        """The single player, until the end."""
        return () if self.is_terminal(state) else (0,)

    def returns(self, state: Match2State) -> tuple[float, ...]:
        """The score so far."""
        return (float(state.score),)

    def success(self, state: Match2State) -> bool:
        """Whether every colour target was met."""
        return state.outcome == Outcome.CLEARED

    def valid_actions(self, state: Match2State) -> tuple[str, ...]:
        """The actions the rules carry out now, sorted."""
        actions = [
            f"eliminate,{cell // SIZE},{cell % SIZE}"
            for cell, group in enumerate(groups(state.board))
            if len(group) >= 2
        ]
        for k, prop in enumerate(PROPS):
            if state.inventory[k] <= 0 or state.score < COSTS[prop]:
                continue
            if prop in ("row", "col"):
                actions.extend(f"{prop},{i}" for i in range(SIZE))
            else:
                actions.extend(f"{prop},{r},{c}" for r in range(SIZE) for c in range(SIZE))
        return tuple(sorted(actions))

    def legal_actions(self, state: Match2State, player: int) -> tuple[str, ...]:
        """The valid actions, plus ``invalid`` when invalid answers spend a step."""
        if player != 0 or self.is_terminal(state):
            return ()
        valid = self.valid_actions(state)
        if self.options.invalid_moves == "step":
            return tuple(sorted((*valid, INVALID)))
        return valid

    def refusal(self, state: Match2State, action: str) -> str | None:
        """Why the rules refuse ``action`` now, or ``None`` if they carry it out."""
        kind, _, rest = action.partition(",")
        position = _position(rest)
        if kind == "eliminate" and position is not None and len(position) == 2:
            size = len(groups(state.board)[position[0] * SIZE + position[1]])
            if size >= 2:
                return None
            return f"the tile at ({position[0]},{position[1]}) has no same-colour neighbour"
        if kind in PROPS:
            arity = 1 if kind in ("row", "col") else 2
            if position is None or len(position) != arity:
                target = "index 0-7" if arity == 1 else "pos [row, col] with 0-7"
                return f"{kind} needs {target}"
            if not self.options.props:
                return "props are disabled in this variant"
            left = state.inventory[PROPS.index(kind)]
            if left <= 0:
                return f"no {kind} prop left"
            if state.score < COSTS[kind]:
                return f"{kind} costs {COSTS[kind]} points and the score is {state.score}"
            return None
        return (
            f"{action!r} is not an action; use eliminate,r,c / row,k / col,k / bomb,r,c / "
            "hammer,r,c with 0-7"
        )

    def is_legal(self, state: Match2State, player: int, action: str) -> bool:
        """Whether ``action`` is legal for ``player`` now (no list built)."""
        if player != 0 or self.is_terminal(state):
            return False
        if action == INVALID:
            return self.options.invalid_moves == "step"
        return self.refusal(state, action) is None

    def apply(
        self, state: Match2State, actions: Mapping[int, str]
    ) -> tuple[Match2State, list[Event]]:
        """As :meth:`Game.apply`; a refused action's error says why it was refused."""
        action = actions.get(0)
        if (
            action is not None
            and not self.is_terminal(state)
            and not self.is_legal(state, 0, action)
        ):
            raise IllegalActionError(
                action,
                self.legal_actions(state, 0),
                player=0,
                reason=self.refusal(state, action) or "it is not a legal move",
            )
        return super().apply(state, actions)

    def _apply(
        self, state: Match2State, actions: Mapping[int, str]
    ) -> tuple[Match2State, list[Event]]:
        action = actions[0]
        score, inventory = state.score, list(state.inventory)
        events: list[Event] = []
        cleared: list[int] = []
        if action == INVALID:
            events.append({"type": "invalid"})
        else:
            kind, _, rest = action.partition(",")
            position = _position(rest) or ()
            if kind == "eliminate":
                cleared = list(groups(state.board)[position[0] * SIZE + position[1]])
                points = elimination_score(len(cleared))
                score += points
                events.append({"type": "eliminate", "tiles": len(cleared), "points": points})
            else:
                k = PROPS.index(kind)
                inventory[k] -= 1
                score -= COSTS[kind]
                cleared = cells_cleared(kind, position)
                events.append({"type": kind, "tiles": len(cleared), "cost": COSTS[kind]})
        counts = list(state.counts)
        for cell in cleared:
            counts[COLOURS.index(state.board[cell])] += 1
        board = (
            drop_and_refill(state.board, set(cleared), state.seed, state.turn)
            if cleared
            else state.board
        )
        new = Match2State(
            seed=state.seed,
            turn=state.turn + 1,
            level_id=state.level_id,
            board=board,
            score=score,
            steps_left=state.steps_left - 1,
            max_steps=state.max_steps,
            inventory=(inventory[0], inventory[1], inventory[2], inventory[3]),
            targets=state.targets,
            counts=(counts[0], counts[1], counts[2], counts[3]),
            cleared=state.cleared + len(cleared),
            invalid_steps=state.invalid_steps + int(action == INVALID),
            outcome=Outcome.PLAYING,
        )
        outcome = Outcome.PLAYING
        if new.targets_met:
            outcome = Outcome.CLEARED
        elif new.steps_left <= 0:
            outcome = Outcome.OUT_OF_STEPS
        elif not self.valid_actions(new):
            outcome = Outcome.STUCK
        if outcome:
            events.append({"type": "end", "outcome": outcome})
            new = dataclasses.replace(new, outcome=outcome)
        return new, events

    # ----- text -----------------------------------------------------------------------

    def parse_action(self, state: Match2State, player: int, text: str) -> str | None:
        """A canonical action, or the JSON answer format of the paper's prompt."""
        stripped = text.strip()
        if self.is_legal(state, player, stripped):
            return stripped
        parsed = parse_match2_answer(text).action
        if parsed is None:
            return None
        if self.is_legal(state, player, parsed):
            return parsed
        return INVALID if self.is_legal(state, player, INVALID) else None

    def fallback_action(self, state: Match2State, player: int, rng: random.Random) -> str | None:
        """``invalid`` when invalid answers spend a step, else a random legal action."""
        if self.options.invalid_moves == "step":
            return INVALID if self.current_players(state) else None
        return super().fallback_action(state, player, rng)

    def observation(self, state: Match2State, player: int) -> str:
        """Board (JSON rows), score, steps, props, targets and counts."""
        return observation_text(state, self.options.props)

    def render(self, state: Match2State) -> str:
        """A compact board with the targets' progress."""
        return render_text(state)
