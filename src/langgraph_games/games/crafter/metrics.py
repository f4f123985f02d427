"""Crafter's metrics: reward, the Crafter score, unlock rates and tech-tree depth.

Three layers, as the package's own evaluation does: :func:`episode_metrics` reads one
finished :class:`~langgraph_games.games.GameSession` into a JSON-friendly record;
:func:`success_rates` and :func:`crafter_score` work on many records; :func:`summarize`
gives the rows of SPRING's Tables 2 and 3 (score, reward, achievement depth) plus the unlock
rate of every achievement (the paper's Figure 4).

The score is the Crafter paper's: with ``s_i`` the percentage of episodes in which
achievement ``i`` was unlocked at least once, ``S = exp(mean_i ln(1 + s_i)) - 1`` over the
22 achievements, itself a percentage.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

from typing_extensions import NotRequired, TypedDict

from langgraph_games._json import JsonObject, JsonValue
from langgraph_games.games.crafter import Crafter, CrafterState
from langgraph_games.games.crafter.data import ACHIEVEMENTS, TECH_TREE_DEPTH
from langgraph_games.games.session import GameSession

__all__ = [
    "CrafterMetrics",
    "achievement_depth",
    "check_unlocked",
    "crafter_score",
    "episode_metrics",
    "success_rates",
    "summarize",
]


class CrafterMetrics(TypedDict):
    """What the tables read of one episode's metrics (:func:`summarize`, the costs per step).

    ``unlocked`` maps each achievement to the step it was first unlocked at (a list of
    names reads too); :func:`check_unlocked` checks the names. The loop's counters are
    optional. Results files are checked against this before a table reads them.
    """

    reward: float
    length: float
    depth: int
    unlocked: dict[str, int] | list[str]
    decisions: NotRequired[int]
    defaulted: NotRequired[int]
    api_calls: NotRequired[int]
    input_tokens: NotRequired[int]
    output_tokens: NotRequired[int]
    latency_s: NotRequired[float]


def check_unlocked(unlocked: Iterable[str]) -> None:
    """Check that every name in ``unlocked`` is one of the 22 achievements.

    Raises:
        ValueError: A name that is not an achievement (the first one, quoted and cut).
    """
    for name in unlocked:
        if name not in TECH_TREE_DEPTH:
            raise ValueError(f"unknown achievement {ascii(name)[:60]}")


def achievement_depth(unlocked: Iterable[str]) -> int:
    """The deepest tech-tree level among ``unlocked`` achievements (0 if none).

    Levels count from 0 (``collect_wood``) to 7 (``collect_diamond``), see
    :data:`~langgraph_games.games.crafter.data.TECH_TREE_DEPTH`. An episode that unlocks
    nothing also scores 0, as SPRING's Table 4 reports for an agent that unlocked nothing.

    Raises:
        ValueError: A name is not one of the 22 achievements.

    Example:
        >>> achievement_depth(["collect_wood", "place_table", "make_wood_pickaxe"])
        2
    """
    depth = 0
    for name in unlocked:
        if name not in TECH_TREE_DEPTH:
            raise ValueError(f"unknown achievement {name!r}; known: {', '.join(ACHIEVEMENTS)}")
        depth = max(depth, TECH_TREE_DEPTH[name])
    return depth


def episode_metrics(session: GameSession, **counters: int | float) -> JsonObject:
    """The metrics of one Crafter episode.

    Args:
        session: A Crafter session (finished or not).
        **counters: Per-episode counters from the episode loop (model calls, defaulted
            answers, tokens, ...), copied into the record unchanged.

    Returns:
        ``reward`` (sum of the package's rewards), ``length`` (steps), ``done``, ``died``,
        ``unlocked`` (achievement -> step at which it was first unlocked),
        ``num_unlocked``, ``depth``, ``smartplay_score`` (SmartPlay's Crafter score: the
        number of achievements unlocked so far, summed over the steps) and the counters.

    Raises:
        TypeError: The session is not a Crafter game.
    """
    game = session.game
    if not isinstance(game, Crafter):
        raise TypeError(f"episode_metrics needs a Crafter session, got {game.versioned_id}")
    first: dict[str, int] = {}
    for step, events in enumerate(session.events, start=1):
        for event in events:
            if event.get("type") == "achievement":
                first.setdefault(str(event["name"]), step)
    final = game.snapshot(cast(CrafterState, session.state))
    for name in final.unlocked:  # an achievement can only come from a step, but be safe
        first.setdefault(name, final.step)
    unlocked = {name: first[name] for name in ACHIEVEMENTS if name in first}
    smartplay = sum(final.step - step + 1 for step in unlocked.values())
    return {
        "reward": final.total_reward,
        "length": final.step,
        "done": final.done,
        "died": final.dead,
        "unlocked": dict[str, JsonValue](unlocked),
        "num_unlocked": len(unlocked),
        "depth": achievement_depth(unlocked),
        "smartplay_score": smartplay,
        **counters,
    }


def success_rates(episodes: Iterable[Mapping[str, Any]]) -> dict[str, float]:
    """Percentage of episodes in which each achievement was unlocked at least once.

    Args:
        episodes: Records from :func:`episode_metrics` (only ``unlocked`` is read; a list
            of names works as well as the mapping).

    Raises:
        ValueError: No episodes were given.
    """
    counts = dict.fromkeys(ACHIEVEMENTS, 0)
    total = 0
    for record in episodes:
        total += 1
        for name in record["unlocked"]:
            if name not in counts:
                raise ValueError(f"unknown achievement {name!r}")
            counts[name] += 1
    if not total:
        raise ValueError("success rates need at least one episode")
    return {name: 100.0 * count / total for name, count in counts.items()}


def crafter_score(rates: Mapping[str, float] | Sequence[float]) -> float:
    """The Crafter score: ``exp(mean ln(1 + s_i)) - 1`` over per-achievement success rates.

    Args:
        rates: Success rates in percent (0-100), one per achievement: a mapping over the 22
            achievements or a sequence of any length.

    Raises:
        ValueError: No rates, a rate outside [0, 100], or a mapping that lacks achievements.

    Example:
        >>> crafter_score([100.0] * 22), crafter_score([0.0] * 22)
        (100.0, 0.0)
        >>> round(crafter_score([1.0] * 11 + [0.0] * 11), 4)  # sqrt(2) - 1
        0.4142
    """
    if isinstance(rates, Mapping):
        missing = [name for name in ACHIEVEMENTS if name not in rates]
        if missing:
            raise ValueError(f"success rates lack achievements: {', '.join(missing)}")
        values = [float(rates[name]) for name in ACHIEVEMENTS]
    else:
        values = [float(r) for r in rates]
    if not values:
        raise ValueError("the Crafter score needs at least one success rate")
    bad = [r for r in values if not 0.0 <= r <= 100.0]
    if bad:
        raise ValueError(f"success rates are percentages in [0, 100], got {bad[0]!r}")
    score = math.exp(sum(math.log1p(r) for r in values) / len(values)) - 1.0
    return round(score, 12)


def _mean_std(values: Sequence[float]) -> tuple[float, float]:
    if not values:
        return (float("nan"), float("nan"))
    return (statistics.fmean(values), statistics.pstdev(values) if len(values) > 1 else 0.0)


def summarize(episodes: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The paper's table rows over many episodes.

    Returns:
        ``episodes``; ``score`` (Crafter score, %); ``reward_mean``/``reward_std``
        (population standard deviation over episodes); ``depth_max`` (SPRING's
        "achievement depth": the deepest level any episode reached) and ``depth_mean``;
        ``length_mean``; ``unlock_rates`` (achievement -> %). Any other number present in
        every record (``smartplay_score``, counters such as ``calls`` or ``defaulted``) is
        averaged as ``<name>_mean``.

    Raises:
        ValueError: No episodes were given.
    """
    if not episodes:
        raise ValueError("summarize needs at least one episode")
    rates = success_rates(episodes)
    rewards = [float(e["reward"]) for e in episodes]
    depths = [int(e["depth"]) for e in episodes]
    reward_mean, reward_std = _mean_std(rewards)
    row: dict[str, Any] = {
        "episodes": len(episodes),
        "score": crafter_score(rates),
        "reward_mean": reward_mean,
        "reward_std": reward_std,
        "depth_max": max(depths),
        "depth_mean": statistics.fmean(depths),
        "length_mean": statistics.fmean(float(e["length"]) for e in episodes),
        "unlock_rates": rates,
    }
    standard = {"reward", "length", "done", "died", "unlocked", "num_unlocked", "depth"}
    extra = set(episodes[0]) - standard
    for key in sorted(extra):
        values = [e.get(key) for e in episodes]
        numbers = [
            float(v) for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)
        ]
        if len(numbers) == len(values):
            row[f"{key}_mean"] = statistics.fmean(numbers)
    return row
