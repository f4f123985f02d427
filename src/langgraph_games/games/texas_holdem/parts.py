"""Texas Hold'em's parts: a typed bet (an action name) and its action universe."""

from __future__ import annotations

from pydantic import Field

from langgraph_games.games.move_schema import MoveArgs, MoveSchema, action_name, enum_of, fixed
from langgraph_games.games.parts import GameParts, fixed_actions
from langgraph_games.games.texas_holdem.rules import ACTIONS

__all__ = ["PARTS", "TexasArgs"]


class TexasArgs(MoveArgs):
    """A Texas Hold'em bet."""

    action: enum_of(ACTIONS) = Field(  # type: ignore[valid-type]
        description="One of: " + ", ".join(ACTIONS) + "."
    )


PARTS = {
    "texas_holdem": GameParts(
        move_schema=fixed(
            MoveSchema(
                TexasArgs,
                action_name,
                "Bet: action is one of " + ", ".join(ACTIONS) + " (raises are fixed "
                "shares of the pot; legal_moves lists the ones you can make now).",
            )
        ),
        actions=fixed_actions(ACTIONS),
    )
}
