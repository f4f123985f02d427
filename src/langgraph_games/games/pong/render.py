"""Text views of Pong: GAMEBoT's three frames from one seat's side, and a picture."""

from __future__ import annotations

from langgraph_games.games.pong.rules import (
    LEFT_X,
    LOWER_WALL,
    PADDLE_HEIGHT,
    RIGHT_X,
    UPPER_WALL,
    PongState,
)

__all__ = ["frame_text", "mirror_x", "observation_text", "render_text"]


def mirror_x(x: int, player: int) -> int:
    """``x`` as ``player`` sees it: the left seat's view is mirrored (``160 - x``)."""
    return x if player == 0 else LEFT_X + RIGHT_X - x


def frame_text(frame: tuple[int, int, int, int], player: int) -> str:
    """One frame as GAMEBoT prints it, with ``player``'s paddle as the right one."""
    ball_x, ball_y, right_low, left_low = frame
    mine, theirs = (right_low, left_low) if player == 0 else (left_low, right_low)
    return (
        f"{{'ball_x': {mirror_x(ball_x, player)}, 'ball_y': {ball_y}, "
        f"'player_x': {RIGHT_X}, 'player_y': [{mine}, {mine + PADDLE_HEIGHT}], "
        f"'opponent_x': {LEFT_X}, 'opponent_y': [{theirs}, {theirs + PADDLE_HEIGHT}], "
        f"'upper_bound': {UPPER_WALL}, 'lower_bound': {LOWER_WALL}}}"
    )


def observation_text(
    state: PongState, player: int, points_to_win: int, max_steps: int, legal: tuple[str, ...]
) -> str:
    """GAMEBoT's input: the last three frames, plus the score and the legal actions."""
    mine, theirs = state.score[player], state.score[1 - player]
    lines = [
        f"You control the right paddle at x = {RIGHT_X}; your opponent controls the left "
        f"paddle at x = {LEFT_X}.",
        f"Score: you {mine}, opponent {theirs}. The first to {points_to_win} "
        f"point{'s' if points_to_win > 1 else ''} wins; step {state.turn} of at most {max_steps}.",
        "",
    ]
    for k, frame in enumerate(state.frames, start=1):
        lines.append(f"Frame {k}")
        lines.append(frame_text(frame, player))
    if legal:
        lines.append("")
        lines.append("Legal actions: " + ", ".join(legal))
    return "\n".join(lines)


def render_text(state: PongState) -> str:
    """A coarse picture (one character per 8 by 8 pixels) with the score."""
    cols = (RIGHT_X - LEFT_X) // 8 + 1
    rows = (UPPER_WALL - LOWER_WALL) // 8 + 1
    lines = [f"Right {state.score[0]} - Left {state.score[1]}   step {state.turn}"]
    x, y = state.ball
    for r in range(rows):
        level = UPPER_WALL - 8 * r
        cells = []
        for c in range(cols):
            px = LEFT_X + 8 * c
            paddle = state.paddles[1] if c == 0 else state.paddles[0] if c == cols - 1 else None
            if paddle is not None and paddle <= level <= paddle + PADDLE_HEIGHT:
                cells.append("|")
            elif abs(px - x) < 4 and abs(level - y) < 4:
                cells.append("o")
            else:
                cells.append(".")
        lines.append("".join(cells))
    lines.append(f"ball ({x},{y}) moving {state.velocity}")
    return "\n".join(lines)
