"""GAMEBoT's head-to-head protocol per game, and how an arena's settings differ from it.

``langgraph-games arena`` plays a game's paper protocol unless the command line says
otherwise (:func:`~langgraph_games.eval.protocols.plans.plan_arena` fills it in). What
the GAMEBoT paper (section 3.1.1 and Table 2) did, for each of its eight games:

==================  ==================================================================
setting             GAMEBoT
==================  ==================================================================
matches per pair    20, "10 matches as the first player and 10 as the second"
seatings            swapped: each player plays half of a pair's matches from each seat
re-asks             none: a model's answer goes to the game as it is (an unusable one
                    takes the game's fallback, ``fallback="game"``); the paper describes
                    no re-ask, and its "-" cells are models that "rarely generated valid
                    moves"
max tokens          4096 output tokens per call ("we set the maximum number of output
                    tokens parameter to 4096")
temperature         each model's default sampling (no temperature sent; the released
                    code used 0)
baseline            a Random player choosing among the legal moves
step limit          none beyond the game's own end rules
history             none: each request is the rules and the current state
==================  ==================================================================

Games whose end rules are options also declare the values GAMEBoT played: Pong ends on the
first point (``points_to_win`` 1) or is drawn after the released runner's 1000 frames
(``max_steps`` 250 steps of four frames); Negotiation v2 may end by chance only after 8
rounds, with 20% before each later round (Appendix B). These are compared with the
options a run plays; they are not written into its spec.

A run's settings are compared with the protocol (:func:`differences`) and summed up in one
line for the arena's table header and its manifest (:func:`protocol_summary`):
``paper protocol`` or ``paper protocol except: re-asks 2 (paper: 0)``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from typing_extensions import NotRequired, TypedDict

from langgraph_games._json import JsonValue
from langgraph_games.games.registry import game_class

__all__ = [
    "ARENA_PROTOCOLS",
    "GAMEBOT",
    "ArenaProtocol",
    "ArenaSettings",
    "Difference",
    "arena_protocol_for",
    "differences",
    "protocol_record",
    "protocol_summary",
]


@dataclass(frozen=True)
class ArenaSettings:
    """What an arena run plays with, in the terms of a protocol.

    Attributes:
        matches: Matches per pair of players.
        swap_seats: Whether each pair alternates who moves first.
        baseline: Whether the random player is among the players.
        max_retries: Re-asks after an unusable answer.
        fallback: What follows the last unusable answer (``"game"``: the game's rule).
        max_steps: The episode's step limit (``None``: none).
        history: Recent moves passed to the players as text (0: none).
        max_tokens: Output tokens per model call (``None``: no limit).
        temperature: Sampling temperature (``None``: each model's default).
        options: Every option value of the game engine the run plays.
    """

    matches: int
    swap_seats: bool = True
    baseline: bool = True
    max_retries: int = 0
    fallback: str = "game"
    max_steps: int | None = None
    history: int = 0
    max_tokens: int | None = None
    temperature: float | None = None
    options: Mapping[str, JsonValue] = field(default_factory=dict)


@dataclass(frozen=True)
class ArenaProtocol(ArenaSettings):
    """How a paper played a game head to head; every field is a default a user may override.

    The settings are those of :class:`ArenaSettings`, as the paper played them
    (``max_steps`` ``None``: the game's own end; ``options``: the game options the paper
    played, compared with the run's engine options), plus whose protocol it is.

    Attributes:
        paper: Whose protocol (``"GAMEBoT"``), given by keyword.
    """

    paper: str = field(kw_only=True)

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", MappingProxyType(dict(self.options)))

    def describe(self) -> str:
        """The protocol in words, e.g. ``GAMEBoT: 20 matches per pair, ...``.

        Example:
            >>> ArenaProtocol(4, max_tokens=64, paper="P").describe().split(", ")[:4]
            ['P: 4 matches per pair', 'half from each seat', 'no re-asks', "the game's fallback"]
        """
        parts = [f"{self.matches} matches per pair"]
        parts.append("half from each seat" if self.swap_seats else "the same first player")
        parts.append(f"{self.max_retries} re-asks" if self.max_retries else "no re-asks")
        parts.append(_FALLBACKS.get(self.fallback, f"fallback {self.fallback}"))
        if self.max_steps is not None:
            parts.append(f"at most {self.max_steps} steps")
        if self.history:
            parts.append(f"the last {self.history} moves as history")
        parts.append(
            "no token limit"
            if self.max_tokens is None
            else f"at most {self.max_tokens} output tokens"
        )
        parts.append(
            "each model's default temperature"
            if self.temperature is None
            else f"temperature {self.temperature:g}"
        )
        if self.baseline:
            parts.append("a random baseline")
        parts += [f"{key} {_text(value)}" for key, value in self.options.items()]
        return f"{self.paper}: " + ", ".join(parts)


_FALLBACKS = {
    "game": "the game's fallback",
    "random": "a random legal move",
    "forfeit": "forfeit",
}

GAMEBOT = ArenaProtocol(20, max_retries=0, max_tokens=4096, paper="GAMEBoT")
"""GAMEBoT's protocol, shared by its eight games (section 3.1.1)."""

_PROTOCOLS: dict[str, ArenaProtocol] = {
    "othello": GAMEBOT,
    "pong": replace(GAMEBOT, options={"points_to_win": 1, "max_steps": 250}),
    "surround": GAMEBOT,
    "checkers": GAMEBOT,
    "tictactoe": GAMEBOT,
    "connect4": GAMEBOT,
    "texas_holdem": GAMEBOT,
    "negotiation": replace(GAMEBOT, options={"end_after_round": 8, "end_chance": 0.2}),
}


class _ByGame(Mapping[str, ArenaProtocol]):
    """The declared arena protocols by game id (without version), read-only."""

    def __getitem__(self, game: str) -> ArenaProtocol:
        return _PROTOCOLS[game]

    def __iter__(self) -> Iterator[str]:
        return iter(_PROTOCOLS)

    def __len__(self) -> int:
        return len(_PROTOCOLS)


ARENA_PROTOCOLS: Mapping[str, ArenaProtocol] = _ByGame()
"""GAMEBoT's protocol for each of its eight games, by game id (without version)."""


def arena_protocol_for(game: str) -> ArenaProtocol | None:
    """The paper protocol of a game id, with or without version (``None``: it has none).

    Raises:
        UnknownGameError: The game is not registered.

    Example:
        >>> arena_protocol_for("tictactoe-v1").matches, arena_protocol_for("maze")
        (20, None)
    """
    return _PROTOCOLS.get(game_class(game).id)


@dataclass(frozen=True)
class Difference:
    """One setting of a run that is not the protocol's.

    Attributes:
        name: The setting (``"max_retries"``, or ``"option points_to_win"``).
        label: How a header names it (``"re-asks"``).
        value: The run's value.
        paper: The protocol's value.
    """

    name: str
    label: str
    value: object
    paper: object

    def __str__(self) -> str:
        return f"{self.label} {_text(self.value)} (paper: {_text(self.paper)})"


_LABELS = {
    "matches": "matches per pair",
    "swap_seats": "seat swapping",
    "baseline": "random baseline",
    "max_retries": "re-asks",
    "fallback": "fallback",
    "max_steps": "step limit",
    "history": "history",
    "max_tokens": "max tokens",
    "temperature": "temperature",
}


def _text(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _same(a: object, b: object) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return float(a) == float(b)
    return bool(a == b)


def differences(protocol: ArenaProtocol, settings: ArenaSettings) -> list[Difference]:
    """The settings of a run that differ from the protocol's, in a fixed order.

    Example:
        >>> paper = ARENA_PROTOCOLS["tictactoe"]
        >>> run = ArenaSettings(20, max_retries=2, max_tokens=4096)
        >>> [str(d) for d in differences(paper, run)]
        ['re-asks 2 (paper: 0)']
    """
    found = []
    for name, label in _LABELS.items():
        value, paper = getattr(settings, name), getattr(protocol, name)
        if name == "temperature":  # "the provider's default" reads better than "none"
            value = "provider default" if value is None else value
            paper = "provider default" if paper is None else paper
        if not _same(value, paper):
            found.append(Difference(name, label, value, paper))
    for key, paper in protocol.options.items():
        value = settings.options.get(key)
        if not _same(value, paper):
            found.append(Difference(f"option {key}", key, value, paper))
    return found


def protocol_summary(protocol: ArenaProtocol | None, settings: ArenaSettings) -> str:
    """One line: ``paper protocol (...)``, ``paper protocol except: ...`` or no protocol.

    Example:
        >>> paper = ARENA_PROTOCOLS["tictactoe"]
        >>> protocol_summary(paper, ArenaSettings(20, max_retries=2, max_tokens=4096))
        'paper protocol except: re-asks 2 (paper: 0)'
        >>> protocol_summary(None, ArenaSettings(10, max_retries=2))
        'no paper protocol for this game (10 matches per pair, 2 re-asks, no token limit)'
    """
    if protocol is None:
        tokens = (
            "no token limit"
            if settings.max_tokens is None
            else f"at most {settings.max_tokens} output tokens"
        )
        return (
            f"no paper protocol for this game ({settings.matches} matches per pair, "
            f"{settings.max_retries} re-asks, {tokens})"
        )
    found = differences(protocol, settings)
    if not found:
        return f"paper protocol ({protocol.describe()})"
    return "paper protocol except: " + ", ".join(str(d) for d in found)


class ProtocolRecord(TypedDict):
    """The manifest's ``protocol`` entry (``settings`` and ``differences``: with a protocol)."""

    summary: str
    paper: str | None
    settings: NotRequired[dict[str, object]]
    differences: NotRequired[dict[str, dict[str, object]]]


def protocol_record(protocol: ArenaProtocol | None, settings: ArenaSettings) -> ProtocolRecord:
    """The manifest's ``protocol`` entry: the summary, the paper's settings, what differs."""
    summary = protocol_summary(protocol, settings)
    if protocol is None:
        return {"summary": summary, "paper": None}
    played: dict[str, object] = {name: getattr(protocol, name) for name in _LABELS}
    played["options"] = dict(protocol.options)
    return {
        "summary": summary,
        "paper": protocol.paper,
        "settings": played,
        "differences": {
            d.name: {"value": d.value, "paper": d.paper} for d in differences(protocol, settings)
        },
    }
