"""SmartPlay's metrics: scores, completion, human-normalised scores, capability scores.

Everything here is a pure function over finished :class:`GameSession` objects or over
the per-episode dicts :func:`episode_metrics` returns, so results files can be scored
again later. The paper's Table 2 (normalised) and Table 4 (raw) layouts come from
:func:`smartplay_table`.

Scores, as released:

- Bandit and Rock-Paper-Scissors: how many steps chose the optimal action.
- Tower of Hanoi: disks on the last rod at the last step.
- Messenger: the reward of the final step.
- Crafter: the number of achievements unlocked so far, summed over all steps (as
  released; the paper agrees). Registered below through :func:`register_smartplay_game`,
  computed by :func:`langgraph_games.games.crafter.metrics.episode_metrics` (which reads
  the recorded session; only playing Crafter needs the ``crafter`` extra). Column
  ``Crafter`` for the released length of 10,000 steps; another ``length`` option gets its
  own column (``Crafter100Steps``) with no recorded human score.
- Minecraft (``MinedojoCreative0``): **cannot run offline**. It needs MineDojo, which
  downloads and builds a Minecraft Java instance at install and run time and pins
  ``gym==0.21`` (SmartPlay issue #5); none of that is possible without network access. Its
  settings row is kept so capability matrices and tables have the paper's shape; its
  cells stay empty.

Normalised score: ``(score - min) / (human - min)`` with the released human and minimum
scores; settings without a recorded human score (e.g. RPS with different scores, Hanoi
with other sizes) normalise to ``None``.

Capability scores: for each of the paper's nine capabilities, the average of
the normalised scores weighted by each game's challenge level. The released code weighs a
game by ``level - 1`` (so a level-1 game does not count); the paper's formula weighs it by
``level``. ``weighting="code"`` (default) or ``"paper"``. The released per-game files
spell the capabilities three different ways, so a table built from them has empty cells;
we use the paper's names throughout.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from typing_extensions import NotRequired, TypedDict

from langgraph_games._json import JsonObject
from langgraph_games.games._tables import markdown_table
from langgraph_games.games.base import Game
from langgraph_games.games.crafter.metrics import episode_metrics as crafter_metrics
from langgraph_games.games.session import GameSession
from langgraph_games.games.state import GameState

__all__ = [
    "CAPABILITIES",
    "COLUMNS",
    "SETTINGS",
    "ColumnSummary",
    "SmartPlayMetrics",
    "SmartPlayOutcome",
    "SmartPlaySetting",
    "aggregate_episodes",
    "capability_scores",
    "episode_metrics",
    "format_table",
    "is_smartplay_game",
    "normalize_score",
    "register_smartplay_game",
    "smartplay_column",
    "smartplay_outcome",
    "smartplay_table",
]

CAPABILITIES = (
    "Long Text Understanding",
    "Reasoning with Object Dependencies",
    "Instruction/Rule Following",
    "Planning Ahead",
    "Generalization",
    "Understanding the Odds",
    "Learning from Interactions",
    "Error/Mistake Handling",
    "Spatial Reasoning",
)


@dataclass(frozen=True)
class SmartPlaySetting:
    """One benchmark setting of the paper (a column of Table 2).

    Attributes:
        column: The column label, e.g. ``"Bandit"``.
        env_id: The released environment id.
        human: The released human score.
        minimum: The released minimum score.
        trials: Episodes per evaluation (the released ``iter``).
        steps: Steps per episode.
        challenges: Challenge level of each capability, in :data:`CAPABILITIES` order.
        runnable: Whether the setting can run in this package (offline).
    """

    column: str
    env_id: str
    human: float
    minimum: float
    trials: int
    steps: int
    challenges: tuple[int, ...]
    runnable: bool = True


# Challenge levels: paper Table 3 (MessengerL2 is its "MessengerL2+" column); MessengerL1
# is not in the paper's table, its levels come from the released evaluation file.
SETTINGS: dict[str, SmartPlaySetting] = {
    s.column: s
    for s in (
        SmartPlaySetting(
            "Bandit", "BanditTwoArmedHighLowFixed-v0", 45, 0, 20, 50, (1, 1, 1, 1, 2, 3, 2, 1, 1)
        ),
        SmartPlaySetting(
            "RPS", "RockPaperScissorBasic-v0", 43, 0, 20, 50, (2, 1, 3, 1, 2, 3, 3, 1, 1)
        ),
        SmartPlaySetting("Hanoi", "Hanoi3Disk-v0", 3, 0, 10, 30, (2, 3, 2, 3, 1, 1, 1, 2, 1)),
        SmartPlaySetting(
            "MessengerL1", "MessengerL1-v0", 1, -1, 100, 4, (3, 1, 2, 1, 2, 2, 1, 1, 2)
        ),
        SmartPlaySetting(
            "MessengerL2", "MessengerL2-v0", 1, -1, 100, 64, (3, 2, 2, 2, 2, 2, 1, 1, 2)
        ),
        SmartPlaySetting("Crafter", "Crafter-v0", 2680, 0, 10, 10_000, (4, 3, 3, 3, 3, 2, 4, 3, 2)),
        SmartPlaySetting(
            "Minecraft",
            "MinedojoCreative0-v0",
            1,
            0,
            20,
            200,
            (1, 1, 2, 1, 3, 2, 1, 2, 3),
            runnable=False,
        ),
    )
}
COLUMNS = tuple(SETTINGS)
"""Table 2's columns, in the paper's order."""


@dataclass(frozen=True)
class SmartPlayOutcome:
    """What SmartPlay records at the end of an episode.

    Attributes:
        score: The game's SmartPlay score.
        completed: Whether the game's objective was reached (always ``False`` for games
            without one, such as Bandit).
        reward: The sum of rewards over the episode.
    """

    score: float
    completed: bool
    reward: float


Scorer = Callable[[GameSession], SmartPlayOutcome]
ColumnOf = Callable[[Game[GameState]], str]

_REGISTRY: dict[str, tuple[ColumnOf, Scorer]] = {}


def register_smartplay_game(game_id: str, scorer: Scorer, column: str | ColumnOf) -> None:
    """Make a game count as a SmartPlay setting.

    Args:
        game_id: The registry id of the game (without version), e.g. ``"crafter"``.
        scorer: Computes the outcome of a finished session.
        column: The Table 2 column, or a function of the configured engine giving it
            (e.g. from its options); a column missing from :data:`SETTINGS` has no
            recorded human score and normalises to ``None``.
    """
    column_of: ColumnOf = (lambda _game: column) if isinstance(column, str) else column
    _REGISTRY[game_id] = (column_of, scorer)


def _require(session: GameSession) -> tuple[ColumnOf, Scorer]:
    entry = _REGISTRY.get(session.game.id)
    if entry is None:
        known = ", ".join(sorted(_REGISTRY))
        raise ValueError(f"{session.game.id!r} is not a SmartPlay game (known: {known})")
    return entry


def is_smartplay_game(game_id: str) -> bool:
    """Whether the game ``game_id`` (``"bandit"`` or ``"bandit-v1"``) has a SmartPlay scorer.

    Example:
        >>> is_smartplay_game("hanoi-v1"), is_smartplay_game("maze")
        (True, False)
    """
    return game_id.split("-v")[0] in _REGISTRY


def smartplay_column(session: GameSession) -> str:
    """The Table 2 column of the session's game and options.

    Raises:
        ValueError: The game has no SmartPlay scorer.
    """
    return _require(session)[0](session.game)


def smartplay_outcome(session: GameSession) -> SmartPlayOutcome:
    """The SmartPlay score, completion and reward of a (finished) session.

    Raises:
        ValueError: The game has no SmartPlay scorer.
    """
    return _require(session)[1](session)


def normalize_score(column: str, score: float) -> float | None:
    """``(score - min) / (human - min)`` for a column, ``None`` without recorded values.

    Example:
        >>> normalize_score("MessengerL2", 0.0)
        0.5
    """
    setting = SETTINGS.get(column)
    if setting is None:
        return None
    return (score - setting.minimum) / (setting.human - setting.minimum)


class SmartPlayMetrics(TypedDict):
    """What the tables read of one episode's metrics (:func:`aggregate_episodes`, details).

    Results files are checked against it before a table reads them.
    """

    game: str
    column: str
    score: float
    completed: bool
    reward: float
    steps: float
    decisions: NotRequired[int]
    rejected_answers: NotRequired[int]


def episode_metrics(session: GameSession, **counters: int | float) -> JsonObject:
    """One episode's SmartPlay metrics as a JSON-friendly dict.

    Args:
        session: A finished session of a SmartPlay game.
        **counters: Per-episode counters the episode loop supplies (e.g.
            ``invalid_answers=2``, ``api_calls=100``); copied into the result.

    Returns:
        ``game``, ``column``, ``score``, ``normalized_score``, ``completed``, ``reward``,
        ``steps``, ``done`` and the counters.
    """
    column = smartplay_column(session)
    outcome = smartplay_outcome(session)
    return {
        "game": session.game.versioned_id,
        "column": column,
        "score": outcome.score,
        "normalized_score": normalize_score(column, outcome.score),
        "completed": outcome.completed,
        "reward": outcome.reward,
        "steps": len(session.actions),
        "done": session.done,
        **counters,
    }


@dataclass(frozen=True)
class ColumnSummary:
    """Averages over the episodes of one setting.

    Attributes:
        column: The setting.
        episodes: How many episodes were averaged.
        score: Mean SmartPlay score.
        normalized_score: Mean human-normalised score (``None`` without recorded values).
        completion_rate: Share of episodes that reached the objective.
        reward: Mean total reward.
    """

    column: str
    episodes: int
    score: float
    normalized_score: float | None
    completion_rate: float
    reward: float


def aggregate_episodes(episodes: Iterable[Mapping[str, Any]]) -> dict[str, ColumnSummary]:
    """Average :func:`episode_metrics` dicts per column (the paper averages per setting).

    The normalised mean is the normalisation of the mean score, which equals the mean of
    the normalised scores because normalisation is affine.
    """
    grouped: dict[str, list[Mapping[str, Any]]] = {}
    for episode in episodes:
        grouped.setdefault(str(episode["column"]), []).append(episode)
    summaries = {}
    for column, rows in grouped.items():
        score = statistics.fmean(float(r["score"]) for r in rows)
        summaries[column] = ColumnSummary(
            column=column,
            episodes=len(rows),
            score=score,
            normalized_score=normalize_score(column, score),
            completion_rate=statistics.fmean(float(bool(r["completed"])) for r in rows),
            reward=statistics.fmean(float(r["reward"]) for r in rows),
        )
    return summaries


def capability_scores(
    normalized: Mapping[str, float], weighting: Literal["code", "paper"] = "code"
) -> dict[str, float | None]:
    """Each capability's score: challenge-weighted mean of the normalised scores.

    Args:
        normalized: Normalised score per column (columns of :data:`SETTINGS` only).
        weighting: ``"code"`` weighs a game by ``level - 1`` (released code), ``"paper"``
            by ``level`` (the paper's formula).

    Returns:
        Score per capability in :data:`CAPABILITIES` order; ``None`` where every given
        game has weight 0 for that capability.

    Raises:
        ValueError: A column without a challenge profile, or an unknown weighting.

    Example:
        >>> scores = capability_scores({"Bandit": 1.0, "Hanoi": 0.5})
        >>> scores["Planning Ahead"], scores["Understanding the Odds"]
        (0.5, 1.0)
    """
    if weighting not in ("code", "paper"):
        raise ValueError(f"weighting must be 'code' or 'paper', got {weighting!r}")
    unknown = [c for c in normalized if c not in SETTINGS]
    if unknown:
        raise ValueError(f"no challenge profile for {unknown}; known columns: {list(COLUMNS)}")
    offset = 1 if weighting == "code" else 0
    result: dict[str, float | None] = {}
    for i, capability in enumerate(CAPABILITIES):
        weights = {c: SETTINGS[c].challenges[i] - offset for c in normalized}
        total = sum(weights.values())
        result[capability] = (
            sum(weights[c] * normalized[c] for c in normalized) / total if total else None
        )
    return result


def smartplay_table(
    results: Mapping[str, Iterable[Mapping[str, Any]]],
    *,
    normalized: bool = True,
    columns: Sequence[str] = COLUMNS,
) -> list[dict[str, Any]]:
    """Table 2 (normalised, the default) or Table 4 (raw scores): a row per player.

    Args:
        results: Episode dicts (from :func:`episode_metrics`) per player or model label.
        normalized: Mean normalised scores (Table 2) or mean raw scores (Table 4).
        columns: The columns to show.

    Returns:
        One dict per player: ``{"player": label, <column>: value or None, ...}``.
    """
    rows = []
    for label, episodes in results.items():
        summary = aggregate_episodes(episodes)
        row: dict[str, Any] = {"player": label}
        for column in columns:
            cell = summary.get(column)
            if cell is None:
                row[column] = None
            else:
                row[column] = cell.normalized_score if normalized else cell.score
        rows.append(row)
    return rows


def format_table(rows: Sequence[Mapping[str, Any]], digits: int = 2) -> str:
    """:func:`smartplay_table` rows as a Markdown table (``-`` for empty cells)."""
    if not rows:
        return ""
    headers = list(rows[0])
    return markdown_table(headers, [[row.get(h) for h in headers] for row in rows], digits)


# ----- the built-in games' scorers ----------------------------------------------------


def _bandit(session: GameSession) -> SmartPlayOutcome:
    state: Any = session.state
    return SmartPlayOutcome(float(state.optimal_pulls), False, float(state.total_reward))


def _rps(session: GameSession) -> SmartPlayOutcome:
    state: Any = session.state
    return SmartPlayOutcome(float(state.optimal_rounds), False, float(state.total_reward))


def _hanoi(session: GameSession) -> SmartPlayOutcome:
    state: Any = session.state
    on_last_rod = sum(1 for rod in state.rods if rod == 2)
    return SmartPlayOutcome(float(on_last_rod), bool(state.solved), float(state.total_reward))


def _messenger(session: GameSession) -> SmartPlayOutcome:
    state: Any = session.state
    return SmartPlayOutcome(
        float(state.last_reward), state.outcome == "won", float(state.total_reward)
    )


def _rps_column(game: Game[GameState]) -> str:
    return "RPS" if game.options.variant == "basic" else "RPSDifferentScore"  # type: ignore[attr-defined]


def _hanoi_column(game: Game[GameState]) -> str:
    disks, steps = game.options.disks, game.options.steps  # type: ignore[attr-defined]
    if disks == 3 and steps == 30:
        return "Hanoi"
    return f"Hanoi{disks}Disk" + ("" if steps == 30 else f"{steps}Steps")


register_smartplay_game("bandit", _bandit, "Bandit")
register_smartplay_game("rock_paper_scissors", _rps, _rps_column)
register_smartplay_game("hanoi", _hanoi, _hanoi_column)
register_smartplay_game(
    "messenger",
    _messenger,
    lambda game: f"MessengerL{game.options.level}",  # type: ignore[attr-defined]
)


def _crafter(session: GameSession) -> SmartPlayOutcome:
    record = crafter_metrics(session)
    score, reward = record["smartplay_score"], record["reward"]
    if not isinstance(score, int | float) or not isinstance(reward, int | float):
        raise TypeError(f"Crafter's metrics hold no numbers smartplay_score and reward: {record}")
    # Crafter has no objective to complete (the paper reports no completion rate for it).
    return SmartPlayOutcome(float(score), False, float(reward))


def _crafter_column(game: Game[GameState]) -> str:
    length = int(game.options.length)  # type: ignore[attr-defined]
    return "Crafter" if length == SETTINGS["Crafter"].steps else f"Crafter{length}Steps"


register_smartplay_game("crafter", _crafter, _crafter_column)
