"""PettingZoo environments for every game: AEC for turn-based, Parallel for simultaneous.

:func:`aec_env` and :func:`parallel_env` build an environment for any registered game
(options as keyword arguments). Turn-based games are native AEC environments
(:class:`GameAECEnv`) and simultaneous ones (Pong, Surround) native Parallel
environments (:class:`GameParallelEnv`); the other form of each comes from PettingZoo's
own converters (``parallel_to_aec`` and ``turn_based_aec_to_parallel``).

Agents are ``player_0``, ``player_1``, ... by seat. Each observes
``{"text": <its view>, "action_mask": <int8 mask>}``, and acts with an index into the
game's action universe (:mod:`.actions`); see :mod:`.episode` for rewards and illegal
actions. An episode terminates when the game ends (the engines' own step caps, such as
Pong's ``max_steps``, are part of their rules and so end the game); ``max_moves``
truncates it after that many moves (plies in turn-based games).

``observation="encoded"`` replaces the text by the game's numeric encoding (TicTacToe,
Connect4, Othello and Checkers; see :mod:`langgraph_games.games.encoding`): each agent
observes ``{"observation": <float32 array>, "action_mask": <int8 mask>}``, PettingZoo's
action-mask convention.

Example:
    >>> env = aec_env("tictactoe")
    >>> env.reset(seed=0)
    >>> env.agent_selection, int(env.observe("player_0")["action_mask"].sum())
    ('player_0', 9)
"""

from __future__ import annotations

import sys
from collections.abc import Mapping

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.conversions import parallel_to_aec, turn_based_aec_to_parallel
from pettingzoo.utils.wrappers import OrderEnforcingWrapper
from typing_extensions import TypedDict

from langgraph_games.games.base import Game
from langgraph_games.games.registry import make
from langgraph_games.games.state import GameState
from langgraph_games.integrations.episode import (
    DEFAULT_CHARSET,
    DEFAULT_MAX_TEXT_LENGTH,
    AgentObservation,
    EnvInfo,
    IllegalActionPolicy,
    IndexedEpisode,
    ObservationMode,
    draw_game_seed,
)

__all__ = ["GameAECEnv", "GameParallelEnv", "aec_env", "parallel_env"]

RENDER_MODES = ("ansi", "human")


class _Settings(TypedDict):
    """The environment settings :func:`aec_env` and :func:`parallel_env` pass on."""

    render_mode: str | None
    max_moves: int | None
    illegal_action: IllegalActionPolicy
    max_text_length: int
    charset: str
    observation: ObservationMode


def _agent(player: int) -> str:
    return f"player_{player}"


class _GameEnvBase:
    """What the AEC and Parallel environments share: the episode, spaces, seeds, render."""

    def _setup(
        self,
        game: Game[GameState],
        render_mode: str | None,
        max_moves: int | None,
        illegal_action: IllegalActionPolicy,
        max_text_length: int,
        charset: str,
        observation: ObservationMode,
    ) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(
                f"render_mode must be one of {RENDER_MODES} or None, got {render_mode!r}"
            )
        if max_moves is not None and max_moves < 1:
            raise ValueError(
                f"max_moves must be a positive number of moves or None, got {max_moves}"
            )
        self.game = game
        self.render_mode = render_mode
        self.max_moves = max_moves
        self._episode = IndexedEpisode(
            game,
            illegal_action=illegal_action,
            max_text_length=max_text_length,
            charset=charset,
            observation=observation,
        )
        self.possible_agents = [_agent(p) for p in range(game.num_players)]
        self._seats = {agent: p for p, agent in enumerate(self.possible_agents)}
        self._observation_spaces = {
            a: self._episode.observation_space() for a in self.possible_agents
        }
        self._action_spaces = {a: self._episode.action_space() for a in self.possible_agents}
        self._rng: np.random.Generator | None = None
        self.metadata = {
            "render_modes": list(RENDER_MODES),
            "name": f"langgraph_games/{game.versioned_id}",
            "is_parallelizable": game.simultaneous,
        }

    @property
    def episode(self) -> IndexedEpisode:
        """The underlying episode (its ``session`` holds the game's states and moves)."""
        return self._episode

    def observation_space(self, agent: str) -> spaces.Dict:
        """The agent's observation space (the same object on every call)."""
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """The agent's action space (the same object on every call)."""
        return self._action_spaces[agent]

    def _seat(self, agent: str) -> int:
        seat = self._seats.get(agent)
        if seat is None:
            raise ValueError(f"unknown agent {agent!r}; agents are {self.possible_agents}")
        return seat

    def _start(self, seed: int | None) -> int:
        """Reset the episode with ``seed`` (or one drawn from the seeded generator)."""
        if seed is not None:
            self._rng = np.random.default_rng(int(seed))
            game_seed = int(seed)
        else:
            if self._rng is None:
                self._rng = np.random.default_rng()
            game_seed = draw_game_seed(self._rng)
        self._episode.reset(game_seed)
        return game_seed

    def _truncated(self) -> bool:
        moves = len(self._episode.session.actions)
        return self.max_moves is not None and moves >= self.max_moves and not self._episode.done

    def render(self) -> str | None:
        """The game's picture of the state: returned (``ansi``) or printed (``human``)."""
        if self.render_mode is None:
            return None
        text = self._episode.render()
        if self.render_mode == "human":
            sys.stdout.write(text + "\n")
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""

    def __str__(self) -> str:
        return str(self.metadata["name"])


class GameAECEnv(_GameEnvBase, AECEnv):  # type: ignore[misc]
    """A turn-based game as a PettingZoo AEC environment (see the module docstring).

    Args:
        game: A registered game id (``options`` configure it) or a configured engine.
        render_mode: ``"ansi"``, ``"human"`` or ``None``.
        max_moves: Truncate the episode after this many moves (``None``: never).
        illegal_action: ``"fallback"`` or ``"raise"`` (see :mod:`.episode`).
        max_text_length: The observation space's longest text.
        charset: The characters the observation space admits.
        observation: ``"text"`` or ``"encoded"`` (the game's numeric encoding).
        **options: Game options when ``game`` is an id.

    Raises:
        ValueError: The game is simultaneous (use :func:`aec_env`, which converts the
            Parallel environment), or a setting is invalid.
    """

    def __init__(
        self,
        game: str | Game[GameState],
        *,
        render_mode: str | None = None,
        max_moves: int | None = None,
        illegal_action: IllegalActionPolicy = "fallback",
        max_text_length: int = DEFAULT_MAX_TEXT_LENGTH,
        charset: str = DEFAULT_CHARSET,
        observation: ObservationMode = "text",
        **options: object,
    ) -> None:
        super().__init__()
        engine = make(game, **options) if isinstance(game, str) else game
        if engine.simultaneous:
            raise ValueError(
                f"{engine.id} is a simultaneous game: use aec_env({engine.id!r}), which "
                "converts its Parallel environment, or GameParallelEnv"
            )
        self._setup(
            engine, render_mode, max_moves, illegal_action, max_text_length, charset, observation
        )

    def reset(self, seed: int | None = None, options: Mapping[str, object] | None = None) -> None:
        """Start an episode: the game played with ``seed`` (drawn when ``None``).

        ``options`` are accepted for the PettingZoo signature and not used: the game's
        options are fixed when the environment is made.
        """
        game_seed = self._start(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, EnvInfo] = {a: {"game_seed": game_seed} for a in self.agents}
        self.agent_selection = _agent(self._episode.acting()[0])

    def observe(self, agent: str) -> AgentObservation:
        """The agent's view (text or encoded) and action mask."""
        return self._episode.observe(self._seat(agent))

    def step(self, action: object) -> None:
        """Play ``action`` (an index into the action universe) for the selected agent.

        Raises:
            ValueError: ``action`` is not an index of the universe.
            IllegalActionError: An illegal action with ``illegal_action="raise"``.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        player = self._seat(agent)
        played, info = self._episode.resolve(player, action)
        rewards = self._episode.apply({player: played})
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: rewards[self._seat(a)] for a in self.agents}
        self.infos = {a: (info if a == agent else {}) for a in self.agents}
        if self._episode.done:
            self.terminations = dict.fromkeys(self.agents, True)
        elif self._truncated():
            self.truncations = dict.fromkeys(self.agents, True)
        acting = self._episode.acting()
        if acting and not self.truncations[agent]:
            self.agent_selection = _agent(acting[0])
        else:  # over: every agent takes its last (dead) step, the next seat first
            order = self.agents
            self.agent_selection = order[(order.index(agent) + 1) % len(order)]
        self._accumulate_rewards()


class GameParallelEnv(_GameEnvBase, ParallelEnv):  # type: ignore[misc]
    """A simultaneous game as a PettingZoo Parallel environment (see the module docstring).

    Every live agent sends an action each step; actions of agents that do not act in the
    current state (all-zero mask) are ignored.

    Args:
        game: A registered game id (``options`` configure it) or a configured engine.
        render_mode: ``"ansi"``, ``"human"`` or ``None``.
        max_moves: Truncate the episode after this many joint moves (``None``: never).
        illegal_action: ``"fallback"`` or ``"raise"`` (see :mod:`.episode`).
        max_text_length: The observation space's longest text.
        charset: The characters the observation space admits.
        observation: ``"text"`` or ``"encoded"`` (the game's numeric encoding).
        **options: Game options when ``game`` is an id.

    Raises:
        ValueError: The game is turn-based (use :func:`parallel_env`, which converts its
            AEC environment), or a setting is invalid.
    """

    def __init__(
        self,
        game: str | Game[GameState],
        *,
        render_mode: str | None = None,
        max_moves: int | None = None,
        illegal_action: IllegalActionPolicy = "fallback",
        max_text_length: int = DEFAULT_MAX_TEXT_LENGTH,
        charset: str = DEFAULT_CHARSET,
        observation: ObservationMode = "text",
        **options: object,
    ) -> None:
        engine = make(game, **options) if isinstance(game, str) else game
        if not engine.simultaneous:
            raise ValueError(
                f"{engine.id} is a turn-based game: use parallel_env({engine.id!r}), which "
                "converts its AEC environment, or GameAECEnv"
            )
        self._setup(
            engine, render_mode, max_moves, illegal_action, max_text_length, charset, observation
        )
        self.agents: list[str] = []

    def reset(
        self, seed: int | None = None, options: Mapping[str, object] | None = None
    ) -> tuple[dict[str, AgentObservation], dict[str, EnvInfo]]:
        """Start an episode: the game played with ``seed`` (drawn when ``None``).

        ``options`` are accepted for the PettingZoo signature and not used.
        """
        game_seed = self._start(seed)
        self.agents = self.possible_agents[:]
        observations = {a: self._episode.observe(self._seat(a)) for a in self.agents}
        infos: dict[str, EnvInfo] = {a: {"game_seed": game_seed} for a in self.agents}
        return observations, infos

    def step(
        self, actions: Mapping[str, object]
    ) -> tuple[
        dict[str, AgentObservation],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, EnvInfo],
    ]:
        """Apply one joint move: an action index for every acting agent.

        Raises:
            ValueError: An agent is unknown, an acting agent sent no action, an action is
                not an index of the universe, or the episode is over.
            IllegalActionError: An illegal action with ``illegal_action="raise"``.
        """
        if not self.agents:
            raise ValueError(f"{self.game.id}: the episode is over; call reset()")
        for agent in actions:
            self._seat(agent)
        acting = [_agent(p) for p in self._episode.acting()]
        missing = [a for a in acting if a not in actions]
        if missing:
            raise ValueError(f"{self.game.id}: no action for acting agent(s) {missing}")
        joint: dict[int, str] = {}
        infos: dict[str, EnvInfo] = {a: {} for a in self.agents}
        for agent in acting:
            joint[self._seat(agent)], infos[agent] = self._episode.resolve(
                self._seat(agent), actions[agent]
            )
        rewards = self._episode.apply(joint)
        done, truncated = self._episode.done, self._truncated()
        live = self.agents
        observations = {a: self._episode.observe(self._seat(a)) for a in live}
        reward_of = {a: rewards[self._seat(a)] for a in live}
        terminations = dict.fromkeys(live, done)
        truncations = dict.fromkeys(live, truncated)
        if done or truncated:
            self.agents = []
        return observations, reward_of, terminations, truncations, infos


def aec_env(
    game: str,
    *,
    render_mode: str | None = None,
    max_moves: int | None = None,
    illegal_action: IllegalActionPolicy = "fallback",
    max_text_length: int = DEFAULT_MAX_TEXT_LENGTH,
    charset: str = DEFAULT_CHARSET,
    observation: ObservationMode = "text",
    **options: object,
) -> AECEnv:
    """A PettingZoo AEC environment for ``game`` (any registered game).

    Turn-based games get :class:`GameAECEnv` behind PettingZoo's order-enforcing wrapper;
    simultaneous games get their :class:`GameParallelEnv` through ``parallel_to_aec``.
    Arguments are those of :class:`GameAECEnv`.
    """
    settings: _Settings = {
        "render_mode": render_mode,
        "max_moves": max_moves,
        "illegal_action": illegal_action,
        "max_text_length": max_text_length,
        "charset": charset,
        "observation": observation,
    }
    engine = make(game, **options)
    if engine.simultaneous:
        return parallel_to_aec(GameParallelEnv(engine, **settings))
    return OrderEnforcingWrapper(GameAECEnv(engine, **settings))


def parallel_env(
    game: str,
    *,
    render_mode: str | None = None,
    max_moves: int | None = None,
    illegal_action: IllegalActionPolicy = "fallback",
    max_text_length: int = DEFAULT_MAX_TEXT_LENGTH,
    charset: str = DEFAULT_CHARSET,
    observation: ObservationMode = "text",
    **options: object,
) -> ParallelEnv:
    """A PettingZoo Parallel environment for ``game`` (any registered game).

    Simultaneous games get :class:`GameParallelEnv`; turn-based games get their AEC
    environment through ``turn_based_aec_to_parallel`` (only the agent to move acts;
    the others' actions are ignored). Arguments are those of :class:`GameAECEnv`.
    """
    settings: _Settings = {
        "render_mode": render_mode,
        "max_moves": max_moves,
        "illegal_action": illegal_action,
        "max_text_length": max_text_length,
        "charset": charset,
        "observation": observation,
    }
    engine = make(game, **options)
    if engine.simultaneous:
        return GameParallelEnv(engine, **settings)
    return turn_based_aec_to_parallel(OrderEnforcingWrapper(GameAECEnv(engine, **settings)))
