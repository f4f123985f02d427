"""Gymnasium environments for the single-player games, registered with ``gymnasium``.

Importing this module registers every single-player game of the registry as
``langgraph_games/<Name>-v<version>`` (``Maze-v1``, ``Crafter-v1``, ``RockPaperScissors-v1``
...; the version is the game's rules version), so :func:`gymnasium.make` works; the
``module:id`` form imports it for you::

    gymnasium.make("langgraph_games.integrations.gymnasium:langgraph_games/Maze-v1")

The observation is ``{"text": <the game's view>, "action_mask": <int8 mask>}`` and the
action an index into the game's action universe (:mod:`.actions`); rewards and illegal
actions work as described in :mod:`.episode`. An episode terminates when the game ends;
for a step limit of your own use Gymnasium's ``max_episode_steps`` (a ``TimeLimit``
truncation).

``observation="encoded"`` gives the game's numeric encoding instead (maze, minesweeper,
hanoi, bandit and rock-paper-scissors; see :mod:`langgraph_games.games.encoding`): the
observation is a ``float32`` ``Box`` that a standard RL library takes as it is, and the
action mask moves to ``info["action_mask"]`` (and :meth:`GameEnv.action_masks`)::

    env = gymnasium.make("langgraph_games/Maze-v1", observation="encoded")

Example:
    >>> env = GameEnv("rock_paper_scissors")
    >>> obs, info = env.reset(seed=3)
    >>> env.action_names()
    ('Rock', 'Paper', 'Scissor')
    >>> obs, reward, terminated, truncated, info = env.step(0)
    >>> info["action"], terminated
    ('Rock', False)
"""

from __future__ import annotations

import sys
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from langgraph_games.games.base import Game
from langgraph_games.games.encoding import Observation
from langgraph_games.games.registry import game_class, list_games, make
from langgraph_games.games.state import GameState
from langgraph_games.integrations.episode import (
    DEFAULT_CHARSET,
    DEFAULT_MAX_TEXT_LENGTH,
    ActionMask,
    AgentObservation,
    EnvInfo,
    IllegalActionPolicy,
    IndexedEpisode,
    ObservationMode,
    draw_game_seed,
)

__all__ = ["NAMESPACE", "GameEnv", "env_id", "register_envs"]

NAMESPACE = "langgraph_games"
RENDER_MODES = ("ansi", "human")


class GameEnv(gymnasium.Env[Any, np.int64]):  # Any: a Dict or a Box space, both typed Any
    """A single-player game as a Gymnasium environment (see the module docstring).

    Args:
        game: A registered game id (``options`` configure it) or a configured engine.
        render_mode: ``"ansi"``, ``"human"`` or ``None``.
        illegal_action: ``"fallback"`` or ``"raise"`` (see :mod:`.episode`).
        max_text_length: The observation space's longest text.
        charset: The characters the observation space admits.
        observation: ``"text"`` (``Dict`` of the text view and the mask) or
            ``"encoded"`` (a ``Box`` of the game's encoding; the mask in the info).
        **options: Game options when ``game`` is an id.

    Raises:
        ValueError: The game has more than one player (use the PettingZoo adapters), a
            setting is invalid, or the game has no encoding for ``"encoded"``.
    """

    metadata: dict[str, object] = {"render_modes": list(RENDER_MODES), "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        game: str | Game[GameState],
        *,
        render_mode: str | None = None,
        illegal_action: IllegalActionPolicy = "fallback",
        max_text_length: int = DEFAULT_MAX_TEXT_LENGTH,
        charset: str = DEFAULT_CHARSET,
        observation: ObservationMode = "text",
        **options: object,
    ) -> None:
        engine = make(game, **options) if isinstance(game, str) else game
        if engine.num_players != 1:
            raise ValueError(
                f"{engine.id} has {engine.num_players} players; Gymnasium environments are "
                "for single-player games: use langgraph_games.integrations.pettingzoo"
            )
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(
                f"render_mode must be one of {RENDER_MODES} or None, got {render_mode!r}"
            )
        self.game = engine
        self.render_mode = render_mode
        self.episode = IndexedEpisode(
            engine,
            illegal_action=illegal_action,
            max_text_length=max_text_length,
            charset=charset,
            observation=observation,
        )
        self.observation_space: spaces.Dict | spaces.Box = (
            self.episode.observation_space()
            if self.episode.encoding is None
            else self.episode.encoded_space()
        )
        self.action_space: spaces.Discrete = self.episode.action_space()

    def action_names(self) -> tuple[str, ...]:
        """The action string of each index (the game's action universe)."""
        return self.episode.universe.actions

    def action_masks(self) -> ActionMask:
        """The current action mask (the name sb3-contrib's maskable algorithms call)."""
        return self.episode.mask(0)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[AgentObservation | Observation, dict[str, Any]]:
        """Start an episode: the game played with ``seed`` (drawn when ``None``).

        ``options`` are accepted for the Gymnasium signature and not used: the game's
        options are fixed when the environment is made.
        """
        super().reset(seed=seed)
        game_seed = int(seed) if seed is not None else draw_game_seed(self.np_random)
        self.episode.reset(game_seed)
        return self._observe({"game_seed": game_seed})

    def _observe(
        self, info: EnvInfo
    ) -> tuple[AgentObservation | Observation, dict[str, Any]]:  # Any: Gymnasium's info type
        """The observation, and ``info`` with the action mask when the view is encoded."""
        if self.episode.encoding is None:
            return self.episode.observe(0), {**info}
        return self.episode.encoded(0), {**info, "action_mask": self.episode.mask(0)}

    def step(
        self, action: object
    ) -> tuple[AgentObservation | Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play ``action`` (an index into the action universe).

        Raises:
            ValueError: ``action`` is not an index of the universe.
            RuntimeError: The episode is over (call :meth:`reset`).
            IllegalActionError: An illegal action with ``illegal_action="raise"``.
        """
        if self.episode.done:
            raise RuntimeError(f"{self.game.id}: the episode is over; call reset()")
        played, played_info = self.episode.resolve(0, action)
        reward = self.episode.apply({0: played})[0]
        observation, info = self._observe(played_info)
        return observation, reward, self.episode.done, False, info

    def render(self) -> str | None:
        """The game's picture of the state: returned (``ansi``) or printed (``human``)."""
        if self.render_mode is None:
            return None
        text = self.episode.render()
        if self.render_mode == "human":
            sys.stdout.write(text + "\n")
            return None
        return text


def env_id(game: str) -> str:
    """The Gymnasium id of a registered game, e.g. ``langgraph_games/Maze-v1``."""
    cls = game_class(game)
    return _gym_id(cls.id, cls.version)


def _gym_id(game_id: str, version: int) -> str:
    name = "".join(part.capitalize() for part in game_id.split("_"))
    return f"{NAMESPACE}/{name}-v{version}"


def register_envs() -> list[str]:
    """Register every single-player game with Gymnasium (idempotent); return the ids."""
    ids = []
    for info in list_games():
        if info.num_players != 1:
            continue
        gym_id = _gym_id(info.id, info.version)
        if gym_id not in gymnasium.registry:
            gymnasium.register(
                id=gym_id,
                entry_point=f"{__name__}:GameEnv",
                kwargs={"game": info.versioned_id},
            )
        ids.append(gym_id)
    return ids


register_envs()
