"""Register a player of your own and play it by spec, with typed settings.

What it shows:

- A registry entry: a name, a builder, a settings schema (a pydantic model whose fields
  give each setting's type, default and description) and a description. Once registered,
  the player is a spec like any other: ``edge_first:corners=false`` in an arena, in
  ``make_player``, in the error messages and listings.
- The spec syntax, ``name[:key=value...][:<model spec>]``, and its typed errors: an
  unknown setting or a bad value raises ``PlayerSettingError`` listing the player's
  settings.

Offline (search players only). Run: ``python examples/register_player.py``.
"""

from __future__ import annotations

import asyncio
import tempfile
from typing import Any

from pydantic import Field

import langgraph_games  # noqa: F401 - the registry is complete once the package is imported
from langgraph_games.eval import ArenaSpec, run_arena
from langgraph_games.players import (
    Decision,
    DecisionRequest,
    PlayerBuild,
    PlayerEntry,
    PlayerSettingError,
    PlayerSettings,
    SearchPlayer,
    parse_spec,
    register_player,
)


class EdgeFirst(SearchPlayer):
    """TicTacToe: takes a corner (or an edge) when it can, else the first legal move."""

    def __init__(self, corners: bool = True, name: str = "edge_first") -> None:
        self.corners = corners
        self.name = name

    def decide(self, request: DecisionRequest) -> Decision:
        """The first wanted cell that is free, else the first legal move."""
        wanted = ("(0,0)", "(0,2)", "(2,0)", "(2,2)") if self.corners else ("(0,1)", "(1,0)")
        legal = request.legal_actions
        return Decision(action=next((a for a in wanted if a in legal), legal[0]))

    def describe(self) -> dict[str, Any]:
        """Kind and setting, for run manifests."""
        return {"kind": "edge_first", "corners": self.corners}


class EdgeFirstSettings(PlayerSettings):
    """The settings a spec can give ``edge_first``."""

    corners: bool = Field(True, description="prefer corners (false: edges)")


def build(request: PlayerBuild[EdgeFirstSettings]) -> EdgeFirst:
    """The entry's builder: typed settings in, a player named by its spec out."""
    return EdgeFirst(corners=request.settings.corners, name=request.name)


register_player(
    PlayerEntry(
        name="edge_first",
        build=build,
        description="TicTacToe: corners (or edges) first",
        settings=EdgeFirstSettings,
        games=("tictactoe",),
    )
)


async def main() -> None:
    """Parse a spec, show a typed error, and play an arena with the new player."""
    print(parse_spec("edge_first:corners=false"))
    try:
        parse_spec("edge_first:sides=2")
    except PlayerSettingError as exc:
        print(f"{type(exc).__name__}: {exc}")
    spec = ArenaSpec(
        game="tictactoe",
        players=["edge_first", "edge_first:corners=false", "minimax:depth=1"],
        matches=2,
    )
    with tempfile.TemporaryDirectory() as out:
        report = await run_arena(spec, out, progress=False)
    print(report.markdown)


if __name__ == "__main__":
    asyncio.run(main())
