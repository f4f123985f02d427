"""``GameSession``: the mutable per-episode handle over a pure engine.

A session is fully described by ``(game id, options, seed, actions)``; :meth:`GameSession.
to_dict` writes exactly that and :meth:`GameSession.from_dict` replays it, which is all a
graph checkpoint or a results line needs to hold.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from langgraph_games.games.base import Event, Game
from langgraph_games.games.errors import GameError, IllegalActionError
from langgraph_games.games.registry import make
from langgraph_games.games.state import GameState

__all__ = ["ActionInput", "GameSession", "JointAction"]

JointAction = dict[int, str]
ActionInput = str | Mapping[int, str] | Mapping[str, str]
"""A single action of the acting player, or a joint action keyed by player."""


class GameSession:
    """A game in progress: the engine, the seed, the states so far and the actions taken.

    Args:
        game: An engine, or a registered id (then ``options`` configure it).
        seed: The episode seed.
        actions: Actions to replay from the initial state; each is a string (the single
            acting player's move) or a mapping of player to action (a joint move).
        **options: Game options when ``game`` is an id.

    Example:
        >>> s = GameSession("tictactoe", seed=0, actions=["(1,1)", "(0,0)"])
        >>> s.current_players, s.legal_actions()[:2]
        ((0,), ('(0,1)', '(0,2)'))
    """

    def __init__(
        self,
        game: Game[GameState] | str,
        seed: int = 0,
        actions: Iterable[ActionInput] = (),
        **options: Any,
    ) -> None:
        if isinstance(game, str):
            game = make(game, **options)
        elif options:
            raise TypeError("options are only accepted together with a game id")
        self.game: Game[GameState] = game
        self.seed = seed
        self.states: list[GameState] = [game.initial_state(seed)]
        self.actions: list[JointAction] = []
        self.events: list[list[Event]] = []
        for i, action in enumerate(actions):
            try:
                self.step(action)
            except GameError as exc:
                raise GameError(f"cannot replay action #{i} ({action!r}): {exc}") from exc

    # ----- construction ---------------------------------------------------------------

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameSession:
        """Rebuild a session from :meth:`to_dict` output by replaying its actions."""
        missing = [k for k in ("game", "seed", "actions") if k not in data]
        if missing:
            raise GameError(f"session record lacks {', '.join(missing)}")
        return cls(
            str(data["game"]),
            seed=int(data["seed"]),
            actions=data["actions"],
            **dict(data.get("options") or {}),
        )

    def to_dict(self) -> dict[str, Any]:
        """``{"game", "options", "seed", "actions"}``, enough to rebuild the session."""
        return {
            "game": self.game.versioned_id,
            "options": self.game.options_dict(),
            "seed": self.seed,
            "actions": [self.action_record(a) for a in self.actions],
        }

    def action_record(self, joint: JointAction) -> str | dict[str, str]:
        """How a joint action is written in :meth:`to_dict` (a string for one mover)."""
        if not self.game.simultaneous and len(joint) == 1:
            return next(iter(joint.values()))
        return {str(p): a for p, a in sorted(joint.items())}

    def copy(self) -> GameSession:
        """An independent session at the same point (states are immutable, so this is cheap)."""
        other = object.__new__(GameSession)
        other.game = self.game
        other.seed = self.seed
        other.states = list(self.states)
        other.actions = list(self.actions)
        other.events = list(self.events)
        return other

    # ----- queries --------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The current state."""
        return self.states[-1]

    @property
    def current_players(self) -> tuple[int, ...]:
        """Players who act now (empty once the game is over)."""
        return self.game.current_players(self.state)

    @property
    def done(self) -> bool:
        """Whether the game is over."""
        return self.game.is_terminal(self.state)

    @property
    def returns(self) -> tuple[float, ...]:
        """Each player's return (the outcome once the game is over)."""
        return self.game.returns(self.state)

    def _player(self, player: int | None) -> int:
        if player is not None:
            return player
        acting = self.current_players
        return acting[0] if acting else 0

    def legal_actions(self, player: int | None = None) -> tuple[str, ...]:
        """Legal actions of ``player`` (default: the first acting player)."""
        return self.game.legal_actions(self.state, self._player(player))

    def observe(self, player: int | None = None) -> str:
        """The text view of ``player`` (default: the first acting player)."""
        return self.game.observation(self.state, self._player(player))

    def render(self) -> str:
        """A human-readable picture of the current state."""
        return self.game.render(self.state)

    def result(self) -> dict[str, Any]:
        """Outcome summary: done flag, returns, winner(s) and number of steps."""
        returns = self.returns
        best = max(returns) if returns else 0.0
        winners = [p for p, r in enumerate(returns) if r == best and best > min(returns)]
        return {
            "done": self.done,
            "returns": list(returns),
            "winners": winners,
            "steps": len(self.actions),
        }

    # ----- moves ----------------------------------------------------------------------

    def step(self, action: ActionInput, player: int | None = None) -> list[Event]:
        """Apply a move and return its events.

        Args:
            action: A canonical action of the single acting player, or a mapping of
                player to action for a joint move.
            player: For a single action, the player making it (checked against the turn).

        Raises:
            IllegalActionError: The move is not legal now (the message lists legal moves).
        """
        if isinstance(action, str):
            if player is None:
                acting = self.current_players
                if len(acting) > 1:
                    raise IllegalActionError(
                        action, (), reason=f"players {list(acting)} act at once; give a joint move"
                    )
                player = acting[0] if acting else 0
            joint: JointAction = {player: action}
        else:
            joint = {int(p): a for p, a in action.items()}
        state, events = self.game.apply(self.state, joint)
        self.states.append(state)
        self.actions.append(joint)
        self.events.append(events)
        return events

    def parse_action(self, text: str, player: int | None = None) -> str | None:
        """Map free-form text to a legal canonical action of ``player``, or ``None``."""
        return self.game.parse_action(self.state, self._player(player), text)

    def history(self, last: int | None = None) -> Sequence[JointAction]:
        """The joint actions taken so far (the last ``last`` of them if given)."""
        return self.actions if last is None else self.actions[-last:]

    def __repr__(self) -> str:
        return (
            f"GameSession({self.game.versioned_id!r}, seed={self.seed}, "
            f"steps={len(self.actions)}, done={self.done})"
        )
