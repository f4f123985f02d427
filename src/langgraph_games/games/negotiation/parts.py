"""Negotiation's parts: a typed proposal or agreement, and its bounded action universe."""

from __future__ import annotations

from typing import Annotated, Any, cast

from pydantic import Field

from langgraph_games.games.base import Game
from langgraph_games.games.move_schema import MoveArgs, MoveArgumentsError, MoveSchema, fixed
from langgraph_games.games.negotiation.rules import (
    AGREE,
    MAX_ITEMS,
    MIN_ITEMS,
    Proposal,
    proposal_name,
    splits,
)
from langgraph_games.games.parts import GameParts
from langgraph_games.games.state import GameState

__all__ = ["PARTS", "NegotiationArgs", "negotiation_actions"]

Count = Annotated[int, Field(ge=0)]
Share = Annotated[list[Count], Field(min_length=3, max_length=3)]


class NegotiationArgs(MoveArgs):
    """A Negotiation move: a proposal (both players' shares) or agreement."""

    agree: bool = Field(
        False, description="true to accept the last proposal (then give no shares)."
    )
    p1: Share | None = Field(
        None, description="Player 1's counts of the three item types, e.g. [2, 0, 3]."
    )
    p2: Share | None = Field(
        None, description="Player 2's counts of the three item types, e.g. [0, 2, 2]."
    )


def _negotiation(game: Game[GameState], state: GameState, player: int, args: dict[str, Any]) -> str:
    p1, p2 = args["p1"], args["p2"]
    if args["agree"]:
        if p1 is not None or p2 is not None:
            raise MoveArgumentsError(
                "agree=true accepts the last proposal: give no shares with it, or make a "
                "proposal with p1 and p2 and no agree"
            )
        return AGREE
    if p1 is None or p2 is None:
        raise MoveArgumentsError(
            "a proposal needs p1 and p2, three counts each (or agree=true to accept)"
        )
    return proposal_name(cast(Proposal, (*p1, *p2)))


def negotiation_actions(game: Game[GameState]) -> list[str]:
    """``Agree`` and every division of every pool the deal can draw.

    Three item types, 8-12 items, at least one of each: 12,544 actions, of which about a
    hundred are legal in a given episode.
    """
    names = [AGREE]
    for size in range(MIN_ITEMS, MAX_ITEMS + 1):
        for first in range(1, size - 1):
            for second in range(1, size - first):
                pool = (first, second, size - first - second)
                names.extend(proposal_name(p) for p in splits(pool))
    return names


PARTS = {
    "negotiation": GameParts(
        move_schema=fixed(
            MoveSchema(
                NegotiationArgs,
                _negotiation,
                "Propose a division of the pool: p1 = [a, b, c], Player 1's counts of the "
                "three item types, and p2 = [x, y, z], Player 2's, adding up to the pool "
                "type by type (the legal move 'P1: (2,0,3), P2: (0,2,2)' is p1=[2,0,3], "
                "p2=[0,2,2]); or agree=true to accept the last proposal, which ends the game.",
            )
        ),
        actions=negotiation_actions,
    )
}
