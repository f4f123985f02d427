"""A Pong player that predicts where the ball will arrive and meets it at an angle.

The player reads the exact state. While the ball comes towards its paddle it simulates
the flight to the paddle's line, lists the paddle positions it can still reach in the
steps left, keeps those that return the ball, and picks the one whose return lands
farthest from the opponent's paddle (a steep edge hit when that is what it takes). While
the ball goes away it recentres. It never misses a ball it can reach.
"""

from __future__ import annotations

import time
from typing import cast

from langgraph_games.games.pong import Pong
from langgraph_games.games.pong.rules import (
    LEFT_X,
    LOWER_WALL,
    PADDLE_HEIGHT,
    PADDLE_MAX,
    PADDLE_START,
    RIGHT_X,
    PongState,
    land_y,
    move_ball,
    move_paddle,
    return_speed,
)
from langgraph_games.players._games import require_game
from langgraph_games.players.base import Decision, DecisionRequest, ParseStatus, SearchPlayer

__all__ = ["PongTracker", "predict_arrival"]

LINES = (RIGHT_X, LEFT_X)  # paddle line of each seat


def predict_arrival(state: PongState, seat: int) -> tuple[int, int, int] | None:
    """``(steps, y, vy)`` of the ball on reaching ``seat``'s line, or ``None`` if it goes away."""
    x, y = state.ball
    vx, vy = state.velocity
    line = LINES[seat]
    if (line - x) * vx <= 0:
        return None
    steps = 0
    while x != line:
        x += vx
        y, vy, _ = move_ball(y, vy)
        steps += 1
    return steps, y, vy


class PongTracker(SearchPlayer):
    """Intercepts every reachable ball, aiming the return away from the opponent.

    Args:
        aim: Whether to choose the paddle position that sends the ball farthest from the
            opponent's paddle; otherwise it meets the ball with the paddle's centre.
        name: Label in results tables.

    Example:
        >>> from langgraph_games import GameSession
        >>> from langgraph_games.players import request_for
        >>> session = GameSession("pong", seed=0)
        >>> PongTracker().decide(request_for(session, 0)).action
        'Stay Still'
    """

    instant = True

    def __init__(self, aim: bool = True, name: str = "pong_tracker") -> None:
        self.aim = aim
        self.name = name

    def describe(self) -> dict[str, object]:
        """``{"kind": "pong_tracker", "aim": ...}``."""
        return {"kind": "pong_tracker", "aim": self.aim}

    def target_low(self, game: Pong, state: PongState, seat: int) -> int:
        """The lower end the paddle should move to."""
        speed = game.settings.paddle_speed
        low = state.paddles[seat]
        arrival = predict_arrival(state, seat)
        if arrival is None:
            return PADDLE_START
        steps, y, vy = arrival
        reachable = sorted(
            {max(LOWER_WALL, min(PADDLE_MAX, low + k * speed)) for k in range(-steps, steps + 1)}
        )
        hitting = [p for p in reachable if p <= y <= p + PADDLE_HEIGHT]
        if not hitting:  # out of reach: get as close as possible
            return min(reachable, key=lambda p: abs(p + PADDLE_HEIGHT // 2 - y))
        centre = y - PADDLE_HEIGHT // 2
        if not self.aim:
            return min(hitting, key=lambda p: (abs(p - centre), p))
        other = 1 - seat
        opponent_centre = state.paddles[other] + PADDLE_HEIGHT // 2
        vx_back = -state.velocity[0]

        def spread(p: int) -> tuple[float, int]:
            vy_back = return_speed(y, p, vy)
            lands = land_y(LINES[seat], y, vx_back, vy_back, LINES[other])
            return (abs(lands - opponent_centre), -abs(p - centre))

        return max(hitting, key=spread)

    def decide(self, request: DecisionRequest) -> Decision:
        """Move towards the chosen paddle position (stay when no move gets closer)."""
        start = time.perf_counter()
        require_game(request, "pong", "pong_tracker")
        game = cast(Pong, request.game)
        state = cast(PongState, request.state)
        low = state.paddles[request.player]
        goal = self.target_low(game, state, request.player)
        speed = game.settings.paddle_speed
        action = min(
            ("Stay Still", "Move Up", "Move Down"),
            key=lambda a: abs(move_paddle(low, a, speed) - goal),
        )
        return Decision(
            action=action,
            status=ParseStatus.OK,
            latency_s=time.perf_counter() - start,
            info={"target_low": goal},
        )
