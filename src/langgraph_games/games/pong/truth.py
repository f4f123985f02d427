"""Pong ground truth (GAMEBoT Appendix B): the ball's direction and where it meets my paddle."""

from __future__ import annotations

from langgraph_games.games.pong.render import mirror_x
from langgraph_games.games.pong.rules import RIGHT_X, PongState, land_y
from langgraph_games.games.subproblems import Answer

__all__ = ["ball_truth", "frames_show_motion"]


def frames_show_motion(state: PongState) -> bool:
    """Whether the last two frames show the ball's current velocity.

    They do not right after a serve (one frame) or when the ball bounced off a wall or a
    paddle during the last step; the subproblems are then not asked.
    """
    if len(state.frames) < 2:
        return False
    (x1, y1, *_), (x2, y2, *_) = state.frames[-2], state.frames[-1]
    return (x2 - x1, y2 - y1) == state.velocity


def ball_truth(state: PongState, player: int) -> dict[int, Answer]:
    """Subproblem 1 (``"right up"`` ...) and, if the ball comes towards me, 2 (its ``y``).

    Everything is in ``player``'s own view, where its paddle is the right one at
    ``x = 140``. Nothing is returned when the frames do not show the current motion.
    """
    if not frames_show_motion(state):
        return {}
    vx = state.velocity[0] if player == 0 else -state.velocity[0]
    vy = state.velocity[1]
    truth: dict[int, Answer] = {1: f"{'right' if vx > 0 else 'left'} {'up' if vy > 0 else 'down'}"}
    if vx > 0:
        x = mirror_x(state.ball[0], player)
        truth[2] = land_y(x, state.ball[1], vx, vy, RIGHT_X)
    return truth
