"""A player from outside langgraph-games: one ply of lookahead in any two-player game.

``lookahead`` plays a move that wins at once if there is one; otherwise it avoids the
moves after which the opponent can win at once; among the moves left it picks one at
random (seeded). It reads nothing but the game contract (``legal_actions``, ``apply``,
``returns``), so it plays every registered two-player, turn-based game, a plugin game
too, and says so in its entry's ``plays``.

The package's ``pyproject.toml`` names :data:`ENTRY` under the entry-point group
``langgraph_games.players``; once the package is installed, ``lookahead`` is a player spec
like any other (``lookahead:seed=3``), listed by ``langgraph-games games`` and every
``--help``, in arenas with worker processes too.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from langgraph_games.games.base import Game
from langgraph_games.games.state import GameState, derive_rng
from langgraph_games.players.base import Decision, DecisionRequest, ParseStatus, SearchPlayer
from langgraph_games.players.entry import PlayerBuild, PlayerEntry
from langgraph_games.players.spec import PlayerSettings

__all__ = ["ENTRY", "Lookahead", "LookaheadSettings", "two_players_taking_turns"]


class Lookahead(SearchPlayer):
    """Wins at once when it can, never hands the opponent an immediate win when it can help it.

    Args:
        seed: Seed of the choice among equally good moves.
        name: Label in results tables.
    """

    instant = True

    def __init__(self, seed: int = 0, name: str = "lookahead") -> None:
        self.seed = seed
        self.name = name

    def describe(self) -> dict[str, Any]:
        """``{"kind": "lookahead", "seed": ...}``."""
        return {"kind": "lookahead", "seed": self.seed}

    def decide(self, request: DecisionRequest) -> Decision:
        """The move of one ply of lookahead from ``request.state``."""
        game, state, me = request.game, request.state, request.player
        moves = list(request.legal_actions)
        if not moves:
            return Decision(action=None, status=ParseStatus.FALLBACK)
        wins = [m for m in moves if _wins(game, _after(game, state, me, m), me)]
        safe = [m for m in moves if not _opponent_can_win(game, _after(game, state, me, m), me)]
        pool = wins or safe or moves
        rng = derive_rng("lookahead", self.seed, state.seed, state.turn, me)
        return Decision(action=rng.choice(pool), status=ParseStatus.OK, info={"wins": len(wins)})


def _after(game: Game[Any], state: GameState, player: int, move: str) -> GameState:
    after: GameState = game.apply(state, {player: move})[0]
    return after


def _wins(game: Game[Any], state: GameState, player: int) -> bool:
    if not game.is_terminal(state):
        return False
    returns = game.returns(state)
    return returns[player] > max(r for seat, r in enumerate(returns) if seat != player)


def _opponent_can_win(game: Game[Any], state: GameState, me: int) -> bool:
    for seat in game.current_players(state):
        if seat != me and any(
            _wins(game, _after(game, state, seat, m), seat) for m in game.legal_actions(state, seat)
        ):
            return True
    return False


class LookaheadSettings(PlayerSettings):
    """Settings of ``lookahead``."""

    seed: int = Field(0, description="seed of the choice among equally good moves")


def two_players_taking_turns(cls: type[Game[Any]]) -> bool:
    """The games ``lookahead`` plays: two seats, one moving at a time."""
    return len(cls.player_names) == 2 and not cls.simultaneous


def _build(request: PlayerBuild[LookaheadSettings]) -> Lookahead:
    return Lookahead(seed=request.settings.seed, name=request.name)


ENTRY = PlayerEntry(
    name="lookahead",
    build=_build,
    description="one ply of lookahead: wins at once, else avoids handing over a win",
    settings=LookaheadSettings,
    plays=two_players_taking_turns,
)
"""The registry entry the package's entry point names."""
