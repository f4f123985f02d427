"""A greedy Match-2 player: the action that clears the most still-needed tiles now.

Each valid action is scored by what it clears on the current board, without looking at
the refill (the refill is seeded, but a fair player cannot know it): ``100`` per tile of a
colour whose target is not met yet (up to what is still needed), plus the points it
scores, minus the prop cost. Groups are scored once (any cell of a group is the same
move); ties go to the first action in canonical order.
"""

from __future__ import annotations

import time

from langgraph_games.games.match2 import Match2, Match2State
from langgraph_games.games.match2.rules import (
    COLOURS,
    COSTS,
    SIZE,
    cells_cleared,
    elimination_score,
    groups,
)
from langgraph_games.players.base import Decision, DecisionRequest, ParseStatus, SearchPlayer

__all__ = ["Match2Greedy"]

NEEDED_TILE = 100


def action_value(state: Match2State, action: str) -> int:
    """The greedy value of a valid action (see the module docstring)."""
    kind, *numbers = action.split(",")
    values = tuple(int(v) for v in numbers)
    if kind == "eliminate":
        cleared = list(groups(state.board)[values[0] * SIZE + values[1]])
        gain = elimination_score(len(cleared))
    else:
        cleared = cells_cleared(kind, values)
        gain = -COSTS[kind]
    still = [max(0, t - c) for t, c in zip(state.targets, state.counts, strict=True)]
    per_colour = [0] * len(COLOURS)
    for cell in cleared:
        per_colour[COLOURS.index(state.board[cell])] += 1
    useful = sum(min(n, need) for n, need in zip(per_colour, still, strict=True))
    return NEEDED_TILE * useful + gain


class Match2Greedy(SearchPlayer):
    """Picks the valid action with the highest :func:`action_value`.

    Args:
        props: Whether to consider props at all.
        name: Label in results tables.

    Example:
        >>> from langgraph_games import GameSession
        >>> from langgraph_games.players import request_for
        >>> session = GameSession("match2", seed=1)
        >>> Match2Greedy().decide(request_for(session)).action
        'eliminate,2,5'
    """

    instant = True

    def __init__(self, props: bool = True, name: str = "match2_greedy") -> None:
        self.props = props
        self.name = name

    def describe(self) -> dict[str, object]:
        """``{"kind": "match2_greedy", "props": ...}``."""
        return {"kind": "match2_greedy", "props": self.props}

    def decide(self, request: DecisionRequest) -> Decision:
        """Choose the best-valued valid action."""
        start = time.perf_counter()
        game, state = request.game, request.state
        if not isinstance(game, Match2) or not isinstance(state, Match2State):
            raise ValueError(f"Match2Greedy plays Match-2 only, not {request.game_id}")
        best: tuple[int, str] | None = None
        seen_groups: set[tuple[int, ...]] = set()
        for action in game.valid_actions(state):
            kind, *numbers = action.split(",")
            if kind == "eliminate":
                group = groups(state.board)[int(numbers[0]) * SIZE + int(numbers[1])]
                if group in seen_groups:
                    continue
                seen_groups.add(group)
            elif not self.props:
                continue
            value = action_value(state, action)
            if best is None or value > best[0]:
                best = (value, action)
        chosen = best[1] if best else None
        return Decision(
            action=chosen,
            status=ParseStatus.OK if chosen else ParseStatus.FALLBACK,
            latency_s=time.perf_counter() - start,
            info={"value": best[0] if best else None},
        )
