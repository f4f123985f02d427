"""Pong (GAMEBoT): a deterministic two-paddle text engine in the prompt's coordinates.

Both players act at once every step (``Stay Still``, ``Move Up``, ``Move Down``). Seat 0
plays the right paddle (``x = 140``), seat 1 the left one (``x = 20``); each seat's view is
mirrored so that its own paddle is the right one, as GAMEBoT's runner did for its second
agent. Physics, coordinates and the serve are described in :mod:`.rules`.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import cast

from pydantic import Field

from langgraph_games.games._answer import Mention, regex_mentions
from langgraph_games.games.base import Event, Game, GameOptions
from langgraph_games.games.pong.render import observation_text, render_text
from langgraph_games.games.pong.rules import (
    LEFT_X,
    PADDLE_HEIGHT,
    PADDLE_START,
    RIGHT_X,
    PongState,
    frame_of,
    move_ball,
    move_paddle,
    return_speed,
    serve,
)
from langgraph_games.games.pong.truth import ball_truth
from langgraph_games.games.registry import register
from langgraph_games.games.subproblems import Answer, AnswerKind, Metric, Subproblem

__all__ = ["Pong", "PongOptions", "PongState"]

ACTIONS = ("Move Down", "Move Up", "Stay Still")
PAPER_ORDER = ("Stay Still", "Move Up", "Move Down")  # the prompt's 0, 1, 2
_PHRASES = regex_mentions(
    [
        (re.compile(r"move\s*up", re.I), "Move Up"),
        (re.compile(r"move\s*down", re.I), "Move Down"),
        (re.compile(r"stay(?:\s*still)?", re.I), "Stay Still"),
        (re.compile(r"\bup\b", re.I), "Move Up"),
        (re.compile(r"\bdown\b", re.I), "Move Down"),
    ],
    starts=r"(?i:[dmsu])",
)
_LEADING_NUMBER = re.compile(r"[\W_]*([012])\b")
_NUMBERED = {"0": "Stay Still", "1": "Move Up", "2": "Move Down"}


class PongOptions(GameOptions):
    """Options of :class:`Pong`."""

    points_to_win: int = Field(
        1, ge=1, le=21, description="points that win the match (GAMEBoT's runner: 1)"
    )
    max_steps: int = Field(
        250,
        ge=10,
        le=100_000,
        description="steps (of about 4 Atari frames) after which the match ends, drawn if level",
    )
    paddle_speed: int = Field(8, ge=1, le=16, description="pixels a paddle moves per step")


@register
class Pong(Game[PongState]):
    """Two-player Pong in GAMEBoT's coordinates; both paddles move at once."""

    id = "pong"
    name = "Pong"
    description = (
        "Two-paddle Pong in GAMEBoT's coordinates (paddles at x=20/140, walls at y=16/176); "
        "simultaneous moves; first to N points."
    )
    source = "GAMEBoT"
    player_names = ("Right", "Left")
    simultaneous = True
    Options = PongOptions
    answer_labels = ("[Action]", "Chosen Action", "Action:")
    State = PongState
    subproblems = (
        Subproblem(
            1,
            "ball_direction",
            AnswerKind.LABEL,
            Metric.ACCURACY,
            "In which direction is the ball moving?",
            "Left Down/ Right Up/ Left Up/ Right Down",
            choices=("Left Down", "Right Up", "Left Up", "Right Down"),
        ),
        Subproblem(
            2,
            "landing_y",
            AnswerKind.NUMBER,
            Metric.ACCURACY,
            "What is the ball's y when it reaches your paddle's x (walls included)?",
            "XXX",
            tolerance=0.1,
            coordinate=1,
        ),
    )

    @property
    def settings(self) -> PongOptions:
        """The validated options."""
        return cast(PongOptions, self.options)

    def initial_state(self, seed: int = 0) -> PongState:
        """Paddles centred, the ball served from the centre in a seeded direction."""
        ball, velocity = serve(seed, 0)
        paddles = (PADDLE_START, PADDLE_START)
        return PongState(
            seed=seed,
            turn=0,
            ball=ball,
            velocity=velocity,
            paddles=paddles,
            score=(0, 0),
            frames=(frame_of(ball, paddles),),
            serves=1,
        )

    def is_terminal(self, state: PongState) -> bool:
        """A player reached the point limit, or the step limit was reached."""
        return (
            max(state.score) >= self.settings.points_to_win or state.turn >= self.settings.max_steps
        )

    def current_players(self, state: PongState) -> tuple[int, ...]:
        """Both paddles act every step until the end."""
        return () if self.is_terminal(state) else (0, 1)

    def legal_actions(self, state: PongState, player: int) -> tuple[str, ...]:
        """``Move Down``, ``Move Up`` and ``Stay Still`` (always all three)."""
        if self.is_terminal(state) or player not in (0, 1):
            return ()
        return ACTIONS

    def _apply(self, state: PongState, actions: Mapping[int, str]) -> tuple[PongState, list[Event]]:
        speed = self.settings.paddle_speed
        paddles = (
            move_paddle(state.paddles[0], actions[0], speed),
            move_paddle(state.paddles[1], actions[1], speed),
        )
        vx, vy = state.velocity
        x = state.ball[0] + vx
        y, vy, bounced = move_ball(state.ball[1], vy)
        events: list[Event] = [{"type": "move", "actions": {str(p): a for p, a in actions.items()}}]
        if bounced:
            events.append({"type": "wall", "y": y})
        scorer = None
        for seat, line in ((0, RIGHT_X), (1, LEFT_X)):
            toward = vx > 0 if seat == 0 else vx < 0
            if toward and x == line:
                low = paddles[seat]
                if low <= y <= low + PADDLE_HEIGHT:
                    vx, vy = -vx, return_speed(y, low, vy)
                    events.append({"type": "hit", "player": seat, "y": y})
                else:
                    scorer = 1 - seat
        score = state.score
        serves = state.serves
        ball = (x, y)
        frames = (*state.frames, frame_of(ball, paddles))[-3:]
        if scorer is not None:
            score = (score[0] + (scorer == 0), score[1] + (scorer == 1))
            events.append({"type": "point", "player": scorer, "score": list(score), "y": y})
            if max(score) < self.settings.points_to_win:
                ball, (vx, vy) = serve(state.seed, state.turn + 1)
                frames = (frame_of(ball, paddles),)
                serves += 1
                events.append({"type": "serve", "velocity": [vx, vy]})
        new = PongState(
            seed=state.seed,
            turn=state.turn + 1,
            ball=ball,
            velocity=(vx, vy),
            paddles=paddles,
            score=score,
            frames=frames,
            serves=serves,
        )
        if self.is_terminal(new):
            events.append({"type": "game_over", "score": list(score)})
        return new, events

    def returns(self, state: PongState) -> tuple[float, ...]:
        """At the end: +1 to the player with more points, -1 to the other, 0 each if level."""
        if not self.is_terminal(state) or state.score[0] == state.score[1]:
            return (0.0, 0.0)
        return (1.0, -1.0) if state.score[0] > state.score[1] else (-1.0, 1.0)

    def action_mentions(self, state: PongState, player: int, text: str) -> list[Mention]:
        """``move up`` / ``move down`` / ``stay still``, or a bare ``up``, ``down``, ``stay``.

        The prompt's numbers ``0``/``1``/``2`` count where they open the text, as in
        ``[Action] 1 - Move Up``.
        """
        found = _PHRASES(text)
        number = _LEADING_NUMBER.match(text)
        if number is not None and not (found and found[0].start < number.end()):
            found.insert(0, Mention(number.start(1), number.end(1), _NUMBERED[number.group(1)]))
        return found

    def fallback_action(self, state: PongState, player: int, rng: random.Random) -> str | None:
        """``Stay Still``: GAMEBoT's runner sent Atari's no-op for any unreadable answer."""
        return "Stay Still" if self.legal_actions(state, player) else None

    def observation(self, state: PongState, player: int) -> str:
        """GAMEBoT's three frames from ``player``'s side (its paddle on the right)."""
        return observation_text(
            state,
            player,
            self.settings.points_to_win,
            self.settings.max_steps,
            PAPER_ORDER if self.legal_actions(state, player) else (),
        )

    def render(self, state: PongState) -> str:
        """A coarse picture of the field with the score."""
        return render_text(state)

    def ground_truth(self, state: PongState, player: int) -> dict[int, Answer]:
        """Ball direction (1) and, while it comes towards ``player``, where it lands (2)."""
        return ball_truth(state, player)
