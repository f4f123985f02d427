"""The engine side of the RL adapters: one episode, stepped by action indices.

:class:`IndexedEpisode` holds a :class:`~langgraph_games.games.session.GameSession` and
translates between it and the spaces the adapters expose: a ``Dict`` observation with the
seat's text view (``"text"``) and an ``int8`` mask over the action universe
(``"action_mask"``), and ``Discrete(n)`` actions indexing the universe. Rewards are the
change of each player's return (:meth:`Game.returns`) over a step, so an episode's
rewards add up to the game's outcome.

The text sits under ``"text"`` rather than ``"observation"`` because PettingZoo's API test
checks the NumPy dtype of a key named ``"observation"``, which a string does not have.

With ``observation="encoded"`` the view is the game's numeric encoding instead (declared
in its folder, see :mod:`langgraph_games.games.encoding`): a ``float32`` ``Box`` under
``"observation"`` beside the same mask, PettingZoo's action-mask convention. Games whose
action universe is larger than :data:`MAX_ENCODED_ACTIONS` refuse it: a ``Discrete``
policy head that wide over a handful of legal moves is not something a standard RL
library learns.

An action outside the mask is handled by the adapter's ``illegal_action`` setting:
``"fallback"`` plays the engine's :meth:`Game.fallback_action` (the source paper's move
when an answer cannot be used) and reports both moves in the step's info; ``"raise"``
raises :class:`~langgraph_games.games.errors.IllegalActionError`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import numpy as np
from gymnasium import spaces
from typing_extensions import TypedDict

from langgraph_games.games.base import Game
from langgraph_games.games.encoding import Encoding, Observation, encoded_games, encoding_of
from langgraph_games.games.errors import IllegalActionError
from langgraph_games.games.session import GameSession
from langgraph_games.games.state import GameState, derive_rng
from langgraph_games.integrations.actions import ActionUniverse

__all__ = [
    "DEFAULT_CHARSET",
    "DEFAULT_MAX_TEXT_LENGTH",
    "MAX_ENCODED_ACTIONS",
    "ActionMask",
    "AgentObservation",
    "EncodedObservation",
    "EnvInfo",
    "IllegalActionPolicy",
    "IndexedEpisode",
    "ObservationMode",
    "TextObservation",
    "draw_game_seed",
]

IllegalActionPolicy = Literal["fallback", "raise"]
ObservationMode = Literal["text", "encoded"]

MAX_ENCODED_ACTIONS = 4096
"""The widest action universe an ``encoded`` environment accepts (Negotiation's is 12,544)."""

DEFAULT_CHARSET = "".join(chr(c) for c in range(32, 127)) + "\n\t"
"""Printable ASCII, newline and tab: every character the built-in games' views use."""

DEFAULT_MAX_TEXT_LENGTH = 32_768
"""Longest text view the observation space admits (Surround's, the longest, is ~7,600)."""

_SEED_BOUND = 2**31 - 1

ActionMask = np.ndarray[Any, np.dtype[np.int8]]
"""1 for each legal index of the action universe, 0 elsewhere."""


class TextObservation(TypedDict):
    """What a seat observes in a ``text`` environment."""

    text: str
    action_mask: ActionMask


class EncodedObservation(TypedDict):
    """What a seat observes in an ``encoded`` PettingZoo environment."""

    observation: Observation
    action_mask: ActionMask


AgentObservation = TextObservation | EncodedObservation
"""A seat's observation: its view (text or encoded) and its action mask."""


class EnvInfo(TypedDict, total=False):
    """The ``info`` of a reset or a step (each key only where it applies).

    ``game_seed`` after a reset; ``action`` (what was played) after a step, and
    ``illegal_action`` when the fallback move replaced an illegal one; ``action_mask``
    in a Gymnasium environment that observes encodings.
    """

    game_seed: int
    action: str
    illegal_action: str
    action_mask: ActionMask


def draw_game_seed(rng: np.random.Generator) -> int:
    """A game seed drawn from an environment's generator (for a reset without a seed)."""
    return int(rng.integers(0, _SEED_BOUND))


class IndexedEpisode:
    """A game episode driven by action indices, with the spaces that describe it.

    Args:
        game: The configured engine.
        illegal_action: What an action outside the mask does (see the module docstring).
        max_text_length: The observation space's longest text.
        charset: The characters the observation space admits.
        observation: ``"text"`` (the game's text view) or ``"encoded"`` (its numeric
            encoding).

    Raises:
        ValueError: ``illegal_action`` or ``observation`` is not one of the accepted
            values, the game has no known action universe, or ``"encoded"`` was asked of
            a game without an encoding or with a larger universe than
            :data:`MAX_ENCODED_ACTIONS`.
    """

    def __init__(
        self,
        game: Game[GameState],
        *,
        illegal_action: IllegalActionPolicy = "fallback",
        max_text_length: int = DEFAULT_MAX_TEXT_LENGTH,
        charset: str = DEFAULT_CHARSET,
        observation: ObservationMode = "text",
    ) -> None:
        if illegal_action not in ("fallback", "raise"):
            raise ValueError(
                f"illegal_action must be 'fallback' or 'raise', got {illegal_action!r}"
            )
        if observation not in ("text", "encoded"):
            raise ValueError(f"observation must be 'text' or 'encoded', got {observation!r}")
        self.game = game
        self.universe = ActionUniverse.of(game)
        self.encoding = (
            _encoding_for(game, len(self.universe)) if observation == "encoded" else None
        )
        self.illegal_action = illegal_action
        self.max_text_length = max_text_length
        self.charset = frozenset(charset)
        self._session: GameSession | None = None

    # ----- spaces ---------------------------------------------------------------------

    def observation_space(self) -> spaces.Dict:
        """A new ``Dict`` space: the view and ``action_mask=Box(0, 1, (n,), int8)``.

        The view is ``text=Text(...)``, or ``observation=Box(...)`` when encoded.
        """
        view: spaces.Space[Any]
        if self.encoding is not None:
            view = self.encoded_space()
        else:
            view = spaces.Text(max_length=self.max_text_length, min_length=0, charset=self.charset)
        return spaces.Dict(
            {
                "observation" if self.encoding is not None else "text": view,
                "action_mask": spaces.Box(0, 1, (len(self.universe),), np.int8),
            }
        )

    def encoded_space(self) -> spaces.Box:
        """A new ``float32`` ``Box`` of the game's encoding.

        Raises:
            RuntimeError: The episode observes text.
        """
        encoding = self._encoding()
        return spaces.Box(encoding.low, encoding.high, encoding.shape, np.float32)

    def action_space(self) -> spaces.Discrete:
        """A new ``Discrete(n)`` space over the action universe."""
        return spaces.Discrete(len(self.universe))

    # ----- episode --------------------------------------------------------------------

    @property
    def session(self) -> GameSession:
        """The running session.

        Raises:
            RuntimeError: The environment was not reset yet.
        """
        if self._session is None:
            raise RuntimeError(f"{self.game.id}: call reset() before using the environment")
        return self._session

    def reset(self, seed: int) -> None:
        """Start a new episode of the game played with ``seed``."""
        self._session = GameSession(self.game, seed=seed)

    @property
    def done(self) -> bool:
        """Whether the game is over."""
        return self.session.done

    def acting(self) -> tuple[int, ...]:
        """Seats that act now."""
        return self.session.current_players

    def text(self, player: int) -> str:
        """The seat's text view, checked against the observation space.

        Raises:
            ValueError: The text is longer than the space admits or uses a character
                outside its charset (the message says which and how to widen it).
        """
        text = self.session.observe(player)
        if len(text) > self.max_text_length:
            raise ValueError(
                f"{self.game.id}: the view of player {player} has {len(text)} characters, "
                f"more than the observation space's max_text_length={self.max_text_length}; "
                "create the environment with a larger max_text_length"
            )
        outside = sorted(set(text) - self.charset)
        if outside:
            raise ValueError(
                f"{self.game.id}: the view of player {player} uses characters outside the "
                f"observation space's charset: {''.join(outside)!r}; create the environment "
                "with a charset that includes them"
            )
        return text

    def mask(self, player: int) -> ActionMask:
        """1 for each legal action of ``player`` now (all zeros when it does not act)."""
        session = self.session
        if player not in session.current_players:
            return np.zeros(len(self.universe), dtype=np.int8)
        return self.universe.mask(session.legal_actions(player))

    def encoded(self, player: int) -> Observation:
        """The seat's view as the game's encoding (a ``float32`` array).

        Raises:
            RuntimeError: The episode observes text.
        """
        return self._encoding().encode(self.session.state, player)

    def observe(self, player: int) -> AgentObservation:
        """The observation of ``player``: its view (text or encoded) and its action mask."""
        if self.encoding is not None:
            return {"observation": self.encoded(player), "action_mask": self.mask(player)}
        return {"text": self.text(player), "action_mask": self.mask(player)}

    def _encoding(self) -> Encoding:
        if self.encoding is None:
            raise RuntimeError(f"{self.game.id}: this environment observes text, not encodings")
        return self.encoding

    def resolve(self, player: int, index: object) -> tuple[str, EnvInfo]:
        """The action ``player`` plays for ``index``, and the info that records it.

        Raises:
            ValueError: ``index`` is not an index of the action universe.
            IllegalActionError: The action is not legal and ``illegal_action="raise"``,
                or the game has no fallback move.
        """
        action = self.universe.action(index)
        session = self.session
        state = session.state
        if self.game.is_legal(state, player, action):
            return action, {"action": action}
        legal = session.legal_actions(player)
        if self.illegal_action == "raise":
            raise IllegalActionError(action, legal, player=player)
        rng = derive_rng("env-fallback", state.seed, state.turn, player)
        fallback = self.game.fallback_action(state, player, rng)
        if fallback is None or not self.game.is_legal(state, player, fallback):
            raise IllegalActionError(
                action,
                legal,
                player=player,
                reason="it is not a legal move and the game has no fallback move here",
            )
        return fallback, {"action": fallback, "illegal_action": action}

    def apply(self, joint: Mapping[int, str]) -> list[float]:
        """Apply a joint move; return each player's reward (the change of its return)."""
        session = self.session
        before = session.returns
        session.step(dict(joint))
        return [float(after - b) for after, b in zip(session.returns, before, strict=True)]

    def render(self) -> str:
        """The game's picture of the whole state."""
        return self.session.render()


def _encoding_for(game: Game[GameState], actions: int) -> Encoding:
    """The game's encoding, or the one-line reason ``observation="encoded"`` is refused."""
    if actions > MAX_ENCODED_ACTIONS:
        raise ValueError(
            f"{game.id} has {actions} actions in its action universe, more than "
            f"observation='encoded' accepts ({MAX_ENCODED_ACTIONS}); use observation='text'"
        )
    encoding = encoding_of(game)
    if encoding is None:
        raise ValueError(
            f"{game.id} has no encoded observation; games with one: "
            f"{', '.join(encoded_games())} (or use observation='text')"
        )
    return encoding
