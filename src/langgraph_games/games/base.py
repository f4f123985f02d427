"""The game contract: pure rules over a frozen state, text views, options and metadata.

An engine subclasses :class:`Game` and implements a handful of pure functions over its
own :class:`~langgraph_games.games.state.GameState` subclass. The base class adds the
parts every engine shares: option validation, action validation with helpful errors,
canonicalisation of free-form action text and JSON (de)serialisation of states.
"""

from __future__ import annotations

import random
import re
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar, Generic, TypeVar

from langgraph_games.games._answer import AnswerStatus, Mention, Reading, read_answer
from langgraph_games.games._text import label_pattern
from langgraph_games.games.errors import GameOverError, IllegalActionError
from langgraph_games.games.options import GameOptions, OptionInfo, check_options, option_infos
from langgraph_games.games.protocol import EvalProtocol
from langgraph_games.games.state import GameState
from langgraph_games.games.subproblems import Answer, Subproblem

__all__ = ["Event", "Game", "GameInfo", "GameOptions", "OptionInfo"]

S = TypeVar("S", bound=GameState)

Event = dict[str, Any]
"""Something that happened while applying actions, as a JSON object with a ``type`` key."""

_SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class GameInfo:
    """Registry metadata of a game, as listed by :func:`~langgraph_games.games.list_games`."""

    id: str
    version: int
    name: str
    description: str
    source: str
    num_players: int
    simultaneous: bool
    options: tuple[OptionInfo, ...]
    subproblems: tuple[Subproblem, ...]

    @property
    def versioned_id(self) -> str:
        """The id with its version, e.g. ``"othello-v1"``."""
        return f"{self.id}-v{self.version}"


class Game(ABC, Generic[S]):
    """A game engine: pure functions over an immutable state.

    Subclasses set the class attributes and implement the abstract methods. Instances
    only hold validated options, so every method is a pure function of its arguments.

    Attributes:
        id: Registry id without version, e.g. ``"othello"``.
        version: Rules version; bumped whenever the same actions could give a different game.
        name: Human-readable name.
        description: One line for ``langgraph-games games``.
        source: The paper the game comes from.
        player_names: Label of each seat, e.g. ``("X", "O")``.
        simultaneous: Whether several players act at once.
        Options: The pydantic model of the game's options.
        State: The frozen state dataclass.
        subproblems: GAMEBoT-style subproblems with rule-based ground truth, if any.
        return_scale: The largest return a player can get in one episode (GAMEBoT's
            ``T_j``), so that ``return / return_scale`` is the outcome score in [-1, 1].
        constant_sum: Whether the returns of every finished episode add up to the same
            total (zero for win/draw/loss games and chips); GAMEBoT's O scores games
            where they do not (Negotiation) by the difference to the opponent's return.
        answer_labels: The final labels that introduce the move in a model's answer
            (``"Chosen Move"``); used by :meth:`read_action` for games that implement
            :meth:`action_mentions`.
        family: The metric family that scores a single-agent episode of this game (the
            paper whose metrics and table apply, e.g. ``"maze"``; ``"generic"``: return,
            steps, finished); ``langgraph_games.eval`` maps the name to its functions.
        eval_protocol: How the game's paper evaluated it (fixed options, sweeps,
            episodes, re-asks, ablation), or ``None`` for the generic defaults.
    """

    id: ClassVar[str]
    version: ClassVar[int] = 1
    name: ClassVar[str]
    description: ClassVar[str]
    source: ClassVar[str] = ""
    player_names: ClassVar[tuple[str, ...]]
    simultaneous: ClassVar[bool] = False
    Options: ClassVar[type[GameOptions]] = GameOptions
    State: ClassVar[type[GameState]]
    subproblems: ClassVar[tuple[Subproblem, ...]] = ()
    return_scale: ClassVar[float] = 1.0
    constant_sum: ClassVar[bool] = True
    answer_labels: ClassVar[tuple[str, ...]] = ()
    family: ClassVar[str] = "generic"
    eval_protocol: ClassVar[EvalProtocol | None] = None

    def __init__(self, **options: object) -> None:
        self.options = self.validate_options(options)

    # ----- metadata -------------------------------------------------------------------

    @classmethod
    def info(cls) -> GameInfo:
        """Return the registry metadata of this game."""
        return GameInfo(
            id=cls.id,
            version=cls.version,
            name=cls.name,
            description=cls.description,
            source=cls.source,
            num_players=len(cls.player_names),
            simultaneous=cls.simultaneous,
            options=cls.option_infos(),
            subproblems=cls.subproblems,
        )

    @classmethod
    def option_infos(cls) -> tuple[OptionInfo, ...]:
        """Describe every option the game accepts (its :attr:`Options` model's fields)."""
        return option_infos(cls.Options)

    @classmethod
    def validate_options(cls, options: Mapping[str, object]) -> GameOptions:
        """Validate option values, naming what is wrong and what is accepted.

        Raises:
            OptionError: An unknown option name or a value the option does not accept
                (strictly typed: see :class:`~langgraph_games.games.options.GameOptions`).
        """
        return check_options(cls.id, cls.Options, options)

    @property
    def num_players(self) -> int:
        """Number of seats."""
        return len(self.player_names)

    @property
    def versioned_id(self) -> str:
        """The id with its version, e.g. ``"othello-v1"``."""
        return f"{self.id}-v{self.version}"

    def options_dict(self) -> dict[str, Any]:
        """The options as a JSON-compatible dict (only values that differ from defaults)."""
        return self.options.model_dump(mode="json", exclude_defaults=True)

    # ----- rules (pure) ---------------------------------------------------------------

    @abstractmethod
    def initial_state(self, seed: int = 0) -> S:
        """Return the state at the start of an episode played with ``seed``."""

    @abstractmethod
    def current_players(self, state: S) -> tuple[int, ...]:
        """Players who act in ``state`` (empty when terminal)."""

    @abstractmethod
    def legal_actions(self, state: S, player: int) -> tuple[str, ...]:
        """Sorted, unique canonical action strings of ``player`` (empty if not acting)."""

    @abstractmethod
    def _apply(self, state: S, actions: Mapping[int, str]) -> tuple[S, list[Event]]:
        """Apply already validated canonical actions; return the new state and events."""

    @abstractmethod
    def is_terminal(self, state: S) -> bool:
        """Whether the episode has ended."""

    @abstractmethod
    def returns(self, state: S) -> tuple[float, ...]:
        """Each player's return so far (final outcome when terminal)."""

    def is_legal(self, state: S, player: int, action: str) -> bool:
        """Whether ``action`` is legal for ``player``; engines override with a cheaper test."""
        return action in self.legal_actions(state, player)

    def apply(self, state: S, actions: Mapping[int, str]) -> tuple[S, list[Event]]:
        """Apply one joint action (one entry per acting player) and return the new state.

        Args:
            state: The state to act in; it is not modified.
            actions: Canonical action string of every player in ``current_players``.

        Returns:
            The next state and the events the step produced.

        Raises:
            IllegalActionError: A player acted out of turn, an acting player gave no
                action, an action is not legal, or the game is over.
        """
        acting = self.current_players(state)
        if not acting:
            player, action = next(iter(actions.items()), (None, ""))
            raise GameOverError(action, player=player)
        for player, action in actions.items():
            if player not in acting:
                raise IllegalActionError(
                    action,
                    (),
                    player=player,
                    reason=f"it is not this player's turn (to act: {_seats(self, acting)})",
                )
            if not self.is_legal(state, player, action):
                raise IllegalActionError(action, self.legal_actions(state, player), player=player)
        missing = [p for p in acting if p not in actions]
        if missing:
            raise IllegalActionError(
                "",
                self.legal_actions(state, missing[0]),
                player=missing[0],
                reason="an acting player gave no action",
            )
        return self._apply(state, actions)

    def step(self, state: S, action: str, player: int | None = None) -> S:
        """Apply ``action`` for the single acting player (turn-based convenience)."""
        if player is None:
            acting = self.current_players(state)
            if len(acting) != 1:
                if not acting:
                    raise GameOverError(action)
                raise IllegalActionError(
                    action, (), reason=f"several players act at once ({_seats(self, acting)})"
                )
            player = acting[0]
        return self.apply(state, {player: action})[0]

    def parse_action(self, state: S, player: int, text: str) -> str | None:
        """Map free-form action text to a legal canonical action, or ``None``.

        Games that implement :meth:`action_mentions` read text with :meth:`read_action`'s
        rule and return its action when it is legal. The default otherwise ignores
        whitespace and case; engines add their own notations.
        """
        if self._reads_mentions():
            reading = self.read_action(state, player, text)
            return reading.action if reading.legal else None
        key = _SPACES.sub("", text).lower()
        for action in self.legal_actions(state, player):
            if _SPACES.sub("", action).lower() == key:
                return action
        return None

    def action_mentions(self, state: S, player: int, text: str) -> list[Mention]:
        """Where ``text`` names actions of this game, left to right and not overlapping.

        Each mention gives the canonical action named, legal or not (or a normalised
        spelling when it names no action of the game). Games that implement it get
        :meth:`read_action`'s one rule for every answer; the default finds none and
        leaves reading to :meth:`parse_action`.
        """
        return []

    def _reads_mentions(self) -> bool:
        return type(self).action_mentions is not Game.action_mentions

    def read_action(
        self, state: S, player: int, text: str, labels: Sequence[str] | None = None
    ) -> Reading:
        """Read the one action an answer names, by the rule of :mod:`._answer`.

        With a final label (``labels``, by default :attr:`answer_labels`) the answer is
        the first action named after the last label; actions listed right after it as
        alternatives make it ambiguous, commentary after it is ignored. Without one, the
        answer must name a single action. ``legal`` says whether the action read is
        legal for ``player`` now.

        Games without :meth:`action_mentions` read with :meth:`parse_action` alone: an
        action is found (and legal) or none is.
        """
        if not self._reads_mentions():
            action = self.parse_action(state, player, text)
            if action is None:
                return Reading(AnswerStatus.NONE, None, (), False)
            return Reading(AnswerStatus.FOUND, action, (action,), False, True)
        names = tuple(self.answer_labels if labels is None else labels)
        reading = read_answer(
            text,
            _label_regex(names) if names else None,
            lambda region: self.action_mentions(state, player, region),
        )
        if reading.action is not None:
            reading = reading._replace(legal=self.is_legal(state, player, reading.action))
        return reading

    def rejection_reason(self, state: S, player: int, action: str) -> str | None:
        """Why ``action``, read from an answer, is not a legal move now.

        Engines override this where they can say more than "not a legal move" (e.g. a
        proposal whose shares do not add up to the pool). ``None``: nothing specific.
        """
        return None

    # ----- views ----------------------------------------------------------------------

    @abstractmethod
    def observation(self, state: S, player: int) -> str:
        """The text ``player`` sees, in the format of the paper the game comes from."""

    def render(self, state: S) -> str:
        """A human-readable picture of the whole state (for the CLI and replays)."""
        return self.observation(state, 0)

    def player_label(self, player: int) -> str:
        """Name of a seat, e.g. ``"X"``."""
        return self.player_names[player]

    # ----- model-facing helpers -------------------------------------------------------

    def fallback_action(self, state: S, player: int, rng: random.Random) -> str | None:
        """The source paper's move when a model's answer cannot be used.

        The default is a uniformly random legal move (GAMEBoT's Othello runner); engines
        override it with their paper's rule (e.g. Texas Hold'em folds). ``None`` means the
        player forfeits.
        """
        legal = self.legal_actions(state, player)
        return rng.choice(legal) if legal else None

    def legal_moves_text(self, state: S, player: int) -> str:
        """The moves that the feedback on a rejected answer lists, as text.

        The default is :meth:`legal_actions` separated by commas. A game whose legal
        actions include answers that are not moves on the board (Minesweeper's
        ``invalid:*`` answers and operations its rules refuse) lists only its real moves.
        """
        return ", ".join(self.legal_actions(state, player))

    # ----- ground truth ---------------------------------------------------------------

    def ground_truth(self, state: S, player: int) -> dict[int, Answer]:
        """Correct answer of each subproblem for ``player`` in ``state`` (by index).

        A subproblem that is not asked in this state (GAMEBoT scores Pong's landing point
        only while the ball comes towards the player, Texas Hold'em's pre-flop odds only
        before the flop) is left out.
        """
        return {}

    def action_ground_truth(self, state: S, player: int, action: str) -> dict[int, Answer]:
        """Correct answers of subproblems about the move ``player`` chose (by index).

        Some subproblems ask about the answer's own move, such as GAMEBoT Negotiation's
        "the value to you of your new proposal"; their truth is known only once the move
        is. A verifier merges this over :meth:`ground_truth`. The default has none.
        """
        return {}

    # ----- serialisation --------------------------------------------------------------

    def state_to_json(self, state: S) -> str:
        """Serialise a state to JSON."""
        return state.to_json()

    def state_from_json(self, text: str | bytes) -> S:
        """Read a state back from JSON, naming the field that is wrong if any.

        Raises:
            StateFormatError: The document does not describe a state of this game.
        """
        return self.State.from_json(text)  # type: ignore[return-value]

    def state_from_dict(self, data: Mapping[str, Any]) -> S:
        """Read a state back from a dict (see :meth:`state_from_json`)."""
        return self.State.from_dict(data)  # type: ignore[return-value]

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options_dict().items())
        return f"{type(self).__name__}({opts})"


@lru_cache(maxsize=64)
def _label_regex(labels: tuple[str, ...]) -> re.Pattern[str]:
    return label_pattern(*labels)


def _seats(game: Game[S], players: tuple[int, ...]) -> str:
    return ", ".join(f"{p} ({game.player_label(p)})" for p in players)
