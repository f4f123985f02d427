"""Messenger's text views: SmartPlay's frame description and a small map for people."""

from __future__ import annotations

from langgraph_games.games.smartplay.messenger.rules import ACTIONS, ENTITIES, SIZE, MessengerState

__all__ = ["direction", "frame_text", "observation_text", "render_text"]


def direction(avatar: tuple[int, int], cell: tuple[int, int]) -> str:
    """Compass direction of ``cell`` seen from ``avatar``: ``north``, ``south-east``, ...

    Example:
        >>> direction((5, 5), (3, 7))
        'north-east'
    """
    parts = []
    if cell[0] < avatar[0]:
        parts.append("north")
    elif cell[0] > avatar[0]:
        parts.append("south")
    if cell[1] < avatar[1]:
        parts.append("west")
    elif cell[1] > avatar[1]:
        parts.append("east")
    return "-".join(parts)


def _visible(state: MessengerState) -> list[tuple[str, tuple[int, int]]]:
    found = [(state.enemy, state.enemy_at), (state.goal, state.goal_at)]
    if state.message_at is not None:
        found.append((state.message, state.message_at))
    return sorted(found, key=lambda item: ENTITIES.index(item[0]))


def frame_text(state: MessengerState) -> str:
    """SmartPlay's description of a frame.

    Whether the avatar holds the message, then each entity with its Manhattan distance
    and direction, in the released entity order.
    """
    holding = (
        "You (agent) already have the message."
        if state.has_message
        else "You (agent) don't have the message."
    )
    lines = []
    for name, cell in _visible(state):
        distance = abs(cell[0] - state.avatar[0]) + abs(cell[1] - state.avatar[1])
        if distance == 0:
            lines.append(f"- {name} 0 steps with you")
        else:
            lines.append(f"- {name} {distance} steps to your {direction(state.avatar, cell)}")
    seen = "You see:\n" + "\n".join(lines) if lines else "You see nothing away from you."
    return f"{holding}\n\n{seen}"


def observation_text(state: MessengerState) -> str:
    """The released observation: the action taken (after the first step), then the frame."""
    if state.last_action is None:
        return frame_text(state)
    return f"You took action {ACTIONS[state.last_action]}.\n\n{frame_text(state)}"


def render_text(state: MessengerState) -> str:
    """A 10x10 map for people, with roles and movements underneath.

    ``@`` is the avatar (``&`` with the message), ``E`` the enemy, ``M`` the message,
    ``G`` the goal and ``*`` a cell where several meet.
    """
    grid = [["." for _ in range(SIZE)] for _ in range(SIZE)]
    marks = [("E", state.enemy_at), ("M", state.message_at), ("G", state.goal_at)]
    marks.append(("&" if state.has_message else "@", state.avatar))
    for mark, cell in marks:
        if cell is None:
            continue
        row, col = cell
        grid[row][col] = mark if grid[row][col] == "." else "*"
    roles = (
        f"enemy {state.enemy} ({state.movement[0]}), message {state.message} "
        f"({state.movement[1]}), goal {state.goal} ({state.movement[2]})"
    )
    status = state.outcome or "running"
    return "\n".join("".join(row) for row in grid) + (
        f"\n{roles}\nlevel {state.level}, step {state.turn}, reward {state.total_reward}, {status}"
    )
