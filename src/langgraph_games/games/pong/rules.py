"""Pong physics in GAMEBoT's prompt coordinates (paper Appendix H.2): pure functions.

The field: the right paddle stands at ``x = 140`` (seat 0), the left paddle at ``x = 20``
(seat 1); the lower wall is ``y = 16`` and the upper wall ``y = 176``; a larger ``y`` is
higher. A paddle covers ``[low, low + 16]`` (the 16-pixel paddle of Atari Pong, as
GAMEBoT's RAM mapping reads it).

One step is one decision of both players, about four Atari frames (GAMEBoT's runner asked
the models every 4 to 12 frames): each paddle first moves ``paddle_speed`` up or down or
stays, clamped to the walls; then the ball moves by its velocity. The ball's horizontal
speed is 4 per step (Atari's one pixel per frame); its vertical speed is 2, 4, 6 or 8
(up to Atari's two pixels per frame) and reflects off the walls (``y' = 2 * wall - y``),
so between paddles its height is a triangle wave of ``x``, exactly the unfolded line of
the prompt's worked example. Serving from ``(80, 96)``, the ball lands exactly on the
paddle lines after 15 or 30 steps.

When the ball reaches a paddle's line it is returned if its ``y`` lies within the paddle
(edges included); the new vertical speed grows with the distance from the paddle's
centre, upwards when the ball met the upper half and downwards for the lower half (the
centre keeps the incoming direction), as Atari Pong's paddle segments do. Otherwise the
other player scores and the ball is served again from the centre, its direction drawn
from the episode seed.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar, NamedTuple

from langgraph_games.games.state import GameState, derive_rng

__all__ = [
    "BALL_SPEED_X",
    "LEFT_X",
    "LOWER_WALL",
    "PADDLE_HEIGHT",
    "PADDLE_MAX",
    "PADDLE_START",
    "RIGHT_X",
    "SERVE_X",
    "SERVE_Y",
    "UPPER_WALL",
    "Frame",
    "PongState",
    "frame_of",
    "land_y",
    "move_ball",
    "move_paddle",
    "return_speed",
    "serve",
]

LEFT_X = 20
RIGHT_X = 140
LOWER_WALL = 16
UPPER_WALL = 176
PADDLE_HEIGHT = 16
BALL_SPEED_X = 4
SERVE_X = 80
SERVE_Y = 96
PADDLE_START = SERVE_Y - PADDLE_HEIGHT // 2
PADDLE_MAX = UPPER_WALL - PADDLE_HEIGHT
SERVE_SPEEDS_Y = (-4, -2, 2, 4)
PADDLE_X = (RIGHT_X, LEFT_X)  # by seat


class Frame(NamedTuple):
    """What one frame shows: the ball and the lower ends of both paddles."""

    ball_x: int
    ball_y: int
    right_low: int
    left_low: int


@dataclass(frozen=True, slots=True)
class PongState(GameState):
    """A Pong position between two steps.

    Attributes:
        ball: ``(x, y)`` of the ball.
        velocity: ``(vx, vy)`` per step.
        paddles: Lower end of each seat's paddle: ``(right, left)``.
        score: Points of each seat.
        frames: The last (up to) three frames, oldest first; a new serve starts afresh.
        serves: How many serves so far (the first one included).
    """

    ball: tuple[int, int]
    velocity: tuple[int, int]
    paddles: tuple[int, int]
    score: tuple[int, int]
    frames: tuple[tuple[int, int, int, int], ...]
    serves: int

    type_name: ClassVar[str] = "pong"

    def validate(self) -> tuple[str, str] | None:
        """Check that the ball and the paddles are inside the field."""
        x, y = self.ball
        if not (LEFT_X <= x <= RIGHT_X and LOWER_WALL <= y <= UPPER_WALL):
            return ("ball", f"must lie within x {LEFT_X}-{RIGHT_X} and y {LOWER_WALL}-{UPPER_WALL}")
        vx, vy = self.velocity
        if abs(vx) != BALL_SPEED_X or vy == 0 or abs(vy) > 2 * BALL_SPEED_X:
            return ("velocity", f"must be (+-{BALL_SPEED_X}, a non-zero vy within +-8)")
        if any(not LOWER_WALL <= p <= PADDLE_MAX for p in self.paddles):
            return ("paddles", f"lower ends must lie within {LOWER_WALL}-{PADDLE_MAX}")
        if not 1 <= len(self.frames) <= 3:
            return ("frames", "must hold one to three frames")
        if min(self.score) < 0:
            return ("score", "must not be negative")
        return GameState.validate(self)


def move_paddle(low: int, action: str, speed: int) -> int:
    """The paddle's lower end after ``Move Up``, ``Move Down`` or ``Stay Still``."""
    if action == "Move Up":
        low += speed
    elif action == "Move Down":
        low -= speed
    return max(LOWER_WALL, min(PADDLE_MAX, low))


def move_ball(y: int, vy: int) -> tuple[int, int, bool]:
    """One vertical step with reflection off the walls: ``(y, vy, bounced)``."""
    y += vy
    if y >= UPPER_WALL:
        return 2 * UPPER_WALL - y, -abs(vy), True
    if y <= LOWER_WALL:
        return 2 * LOWER_WALL - y, abs(vy), True
    return y, vy, False


def land_y(x: int, y: int, vx: int, vy: int, target_x: int) -> float:
    """The ball's ``y`` when it reaches ``target_x`` (in its direction), walls included.

    Uses the closed form of the reflected line: unfold the walls, follow the straight
    line, fold back. On our grid the result is a whole number; the worked example of
    the prompt (ball x not on the grid) shows the same formula.

    Raises:
        ValueError: ``target_x`` lies behind the ball.

    Example:
        >>> land_y(79, 152, 4, 8, 140)  # the prompt's worked example: one bounce, 78
        78
    """
    if (target_x - x) * vx < 0:
        raise ValueError(f"x={target_x} is behind the ball at x={x} moving {vx}")
    height = UPPER_WALL - LOWER_WALL
    unfolded = (Fraction(y - LOWER_WALL) + Fraction((target_x - x) * vy, vx)) % (2 * height)
    folded = LOWER_WALL + (unfolded if unfolded <= height else 2 * height - unfolded)
    return int(folded) if folded.denominator == 1 else float(folded)


def return_speed(ball_y: int, paddle_low: int, incoming_vy: int) -> int:
    """The vertical speed after a paddle hit: steeper the farther from the centre.

    Example:
        >>> [return_speed(88 + d, 80, -2) for d in (-8, -5, -1, 0, 1, 5, 8)]
        [-8, -6, -2, -2, 2, 6, 8]
    """
    offset = ball_y - (paddle_low + PADDLE_HEIGHT // 2)
    size = abs(offset)
    speed = 2 if size <= 1 else 4 if size <= 4 else 6 if size <= 6 else 8
    if offset == 0:
        return speed if incoming_vy > 0 else -speed
    return speed if offset > 0 else -speed


def serve(seed: int, turn: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """Ball position and velocity of a serve, drawn from the episode seed and step."""
    rng = derive_rng(seed, turn, "serve")
    vx = rng.choice((-BALL_SPEED_X, BALL_SPEED_X))
    vy = rng.choice(SERVE_SPEEDS_Y)
    return (SERVE_X, SERVE_Y), (vx, vy)


def frame_of(ball: tuple[int, int], paddles: tuple[int, int]) -> tuple[int, int, int, int]:
    """The frame showing ``ball`` and ``paddles``."""
    return (ball[0], ball[1], paddles[0], paddles[1])
