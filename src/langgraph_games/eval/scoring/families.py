"""Metric families: which paper's metrics and table a single-agent game is scored with.

Each family names its games, computes per-episode metrics from a finished
:class:`~langgraph_games.games.GameSession` plus the episode loop's counters (model
calls, valid answers, rejected answers), and renders the paper's table from labelled
lists of those per-episode metrics. A game names its family (``Game.family``, plain data
in its own folder); this module maps each family name to the metric functions, which live
next to the games (``games/<game>/metrics.py``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from langgraph_games.eval.running.records import EpisodeResultLine, ResultLine
from langgraph_games.eval.scoring.smartplay_tables import smartplay_tables
from langgraph_games.eval.scoring.tables import markdown_table
from langgraph_games.games.crafter import metrics as crafter_metrics
from langgraph_games.games.crafter.data import ACHIEVEMENTS
from langgraph_games.games.errors import UnknownGameError
from langgraph_games.games.match2 import metrics as match2_metrics
from langgraph_games.games.maze import metrics as maze_metrics
from langgraph_games.games.minesweeper import metrics as minesweeper_metrics
from langgraph_games.games.registry import game_class, game_classes
from langgraph_games.games.session import GameSession
from langgraph_games.games.smartplay import metrics as smartplay_metrics
from langgraph_games.graphs.episode.records import DecisionRecord, EpisodeResult, Step
from langgraph_games.graphs.minesweeper.prompts import VARIANT_LABELS, Variant

__all__ = [
    "FAMILIES",
    "FAMILY_BUILDERS",
    "Family",
    "counters_of",
    "crafter_costs",
    "decisions_of",
    "family_of",
    "generic_table",
    "table1_order",
]

EpisodeMetrics = Callable[[GameSession, Mapping[str, Any]], dict[str, Any]]
Table = Callable[[Mapping[str, Sequence[Mapping[str, Any]]]], str]
Headline = Callable[[Sequence[Mapping[str, Any]]], dict[str, float | None]]
DecisionMetrics = Callable[[Sequence[DecisionRecord]], dict[str, Any]]


@dataclass(frozen=True)
class Family:
    """A paper's metrics for some games.

    Attributes:
        name: Short name, e.g. ``"maze"``.
        paper: The paper the table comes from.
        games: Game ids (without version) scored this way: the registered games that
            name this family.
        episode_metrics: ``(session, counters) -> metrics`` of one episode.
        table: ``{label: [metrics, ...]} -> text`` in the paper's layout.
        headline: ``[metrics, ...] -> {name: value}``: the family's main figure(s) for bar
            plots, e.g. ``{"success rate %": 66.7}``, or one normalised score per
            SmartPlay setting.
        decision_metrics: Optional extra metrics from the agent's per-step decisions
            (e.g. how its intermediate answers scored against ground truth).
    """

    name: str
    paper: str
    games: tuple[str, ...]
    episode_metrics: EpisodeMetrics
    table: Table
    headline: Headline | None = None
    decision_metrics: DecisionMetrics | None = None


def counters_of(
    result: ResultLine | EpisodeResultLine | EpisodeResult, seat: int = 0
) -> dict[str, Any]:
    """The loop's counters of one seat.

    ``api_calls``, ``valid_responses`` (decisions not settled by the fallback),
    ``rejected_answers`` (answers without a legal action, re-asked or not), ``fallbacks``,
    ``decisions``, ``defaulted`` (answers replaced by the strategy's own default action,
    e.g. SPRING's "Do"), ``input_tokens``, ``output_tokens`` and ``latency_s`` (the seat's
    decision time). A counter the result does not hold (a line of an earlier version, or
    written by hand: every counter is optional there, even the seat's counters) counts 0.
    """
    players: Sequence[Mapping[str, Any]] = result.get("players") or []
    counters: Mapping[str, Any] = players[seat] if seat < len(players) else {}
    return {
        "api_calls": int(counters.get("model_calls", 0)),
        "valid_responses": int(counters.get("decisions", 0)) - int(counters.get("fallbacks", 0)),
        "rejected_answers": int(counters.get("invalid_answers", 0)),
        "fallbacks": int(counters.get("fallbacks", 0)),
        "decisions": int(counters.get("decisions", 0)),
        "defaulted": int(counters.get("defaulted", 0)),
        "input_tokens": int(counters.get("input_tokens", 0)),
        "output_tokens": int(counters.get("output_tokens", 0)),
        "latency_s": round(float(counters.get("latency_s", 0.0)), 6),
    }


def decisions_of(trajectory: Sequence[Step], seat: int = 0) -> list[DecisionRecord]:
    """The per-step decisions of one seat in an episode's trajectory."""
    return [step["decisions"][str(seat)] for step in trajectory if str(seat) in step["decisions"]]


def _generic_metrics(session: GameSession, counters: Mapping[str, int]) -> dict[str, Any]:
    return {
        "return": float(session.returns[0]),
        "steps": len(session.actions),
        "done": session.done,
        **counters,
    }


def generic_table(rows: Mapping[str, Sequence[Mapping[str, Any]]]) -> str:
    """Episodes, mean return, mean steps and finished share per label."""
    body = []
    for label, episodes in rows.items():
        n = max(1, len(episodes))
        body.append(
            [
                label,
                len(episodes),
                sum(float(e["return"]) for e in episodes) / n,
                sum(float(e["steps"]) for e in episodes) / n,
                sum(1 for e in episodes if e["done"]) / n,
            ]
        )
    return markdown_table(["agent", "episodes", "mean return", "mean steps", "finished"], body)


def _generic_headline(episodes: Sequence[Mapping[str, Any]]) -> dict[str, float | None]:
    n = max(1, len(episodes))
    return {"mean return": sum(float(e["return"]) for e in episodes) / n}


def _maze() -> Family:
    return Family(
        "maze",
        "EvoEmpirBench",
        (),
        lambda s, c: maze_metrics.episode_metrics(s, api_calls=c.get("api_calls")),
        lambda rows: maze_metrics.format_table(
            {k: maze_metrics.aggregate(v) for k, v in rows.items()}
        ),
        lambda episodes: {"success rate %": float(maze_metrics.aggregate(episodes)["Suc.Rate"])},
    )


def _match2() -> Family:
    def episode(session: GameSession, counters: Mapping[str, int]) -> dict[str, Any]:
        calls = counters.get("api_calls") or None  # search players make no calls
        return match2_metrics.episode_metrics(
            session,
            api_calls=calls,
            valid_responses=min(counters.get("valid_responses", 0), calls) if calls else None,
        )

    return Family(
        "match2",
        "EvoEmpirBench",
        (),
        episode,
        lambda rows: match2_metrics.format_table(
            {k: match2_metrics.aggregate(v) for k, v in rows.items()}
        ),
        lambda episodes: {
            "success rate %": _number(match2_metrics.aggregate(episodes)["Suc.Rate"])
        },
    )


_VARIANT_IN_SPEC = re.compile(r"\bvariant=(baseline|examples|step_back|tips|memory)\b")


def table1_order(labels: Sequence[str]) -> dict[str, int]:
    """Each label's place in Minesweeper's Table 1: the paper's variants first, in its order.

    A label is a variant when it is the row name Table 1 prints (``+ Examples``) or an
    agent spec that names one (``minesweeper:variant=tips:local``);
    any other label follows them, in the order given.

    Example:
        >>> order = table1_order(["mine", "+ Memory", "minesweeper:variant=tips", "Baseline"])
        >>> sorted(order, key=order.__getitem__)
        ['Baseline', 'minesweeper:variant=tips', '+ Memory', 'mine']
    """
    variants = list(VARIANT_LABELS)
    named = {text: variant for variant, text in VARIANT_LABELS.items()}

    def rank(index: int, label: str) -> tuple[int, int]:
        found = _VARIANT_IN_SPEC.search(label)
        variant = named.get(label) or (Variant(found.group(1)) if found else None)
        if variant is None:
            return (len(variants), index)
        return (variants.index(variant), index)

    ranks = sorted((rank(i, label), label) for i, label in enumerate(labels))
    return {label: place for place, (_, label) in enumerate(ranks)}


def _minesweeper() -> Family:
    def episode(session: GameSession, counters: Mapping[str, int]) -> dict[str, Any]:
        # Each fallback applied an action that stands for one rejected answer, and the
        # engine already counted it; the other rejected answers were re-asked unseen.
        # Under the paper's protocol (no re-asks) this is always 0.
        unseen = counters.get("rejected_answers", 0) - counters.get("fallbacks", 0)
        return minesweeper_metrics.episode_metrics(session, rejected_answers=max(0, unseen))

    def table(rows: Mapping[str, Sequence[Mapping[str, Any]]]) -> str:
        # Table 1's layout: by mine count, then the prompt variants in the paper's order
        # (other labels after them, in the order they came), under the win rule's name.
        rules = [e.get("win_rule") for episodes in rows.values() for e in episodes]
        mixed = len(set(rules)) > 1
        grouped: dict[tuple[int, str, str | None], list[Mapping[str, Any]]] = {}
        for label, episodes in rows.items():
            for e in episodes:
                key = (int(e["mines"]), label, e.get("win_rule") if mixed else None)
                grouped.setdefault(key, []).append(e)
        order = table1_order(list(rows))
        groups = {
            (mines, f"{label} [win_rule={rule or 'not recorded'}]" if mixed else label): grouped[
                (mines, label, rule)
            ]
            for mines, label, rule in sorted(grouped, key=lambda k: (k[0], order[k[1]], str(k[2])))
        }
        keys = list(groups)
        table1 = minesweeper_metrics.win_rule_line(rules) + "\n\n"
        table1 += minesweeper_metrics.format_table1(
            {k: minesweeper_metrics.aggregate(groups[k]) for k in keys}
        )
        checks = {k: minesweeper_metrics.reasoning_row(groups[k]) for k in keys}
        if not any(row["Checked"] for row in checks.values()):
            return table1
        return (
            f"{table1}\n\nMoves checked against the logic solver (ours)\n\n"
            f"{minesweeper_metrics.format_reasoning(checks)}"
        )

    return Family(
        "minesweeper",
        "Minesweeper Agent",
        (),
        episode,
        table,
        lambda episodes: {
            "win rate %": 100 * float(minesweeper_metrics.aggregate(episodes)["Winning Rate"])
        },
        decision_metrics=minesweeper_metrics.report_counts,
    )


def _smartplay() -> Family:
    def table(rows: Mapping[str, Sequence[Mapping[str, Any]]]) -> str:
        return smartplay_tables(rows)

    def headline(episodes: Sequence[Mapping[str, Any]]) -> dict[str, float | None]:
        summary = smartplay_metrics.aggregate_episodes(episodes)
        return {column: cell.normalized_score for column, cell in sorted(summary.items())}

    return Family(
        "smartplay",
        "SmartPlay",
        (),
        lambda s, c: smartplay_metrics.episode_metrics(s, **c),
        table,
        headline,
    )


def _crafter() -> Family:
    def table(rows: Mapping[str, Sequence[Mapping[str, Any]]]) -> str:
        body = []
        for label, episodes in rows.items():
            summary = crafter_metrics.summarize(list(episodes))
            per_step = crafter_costs(episodes)
            body.append(
                [
                    label,
                    len(episodes),
                    summary["score"],
                    f"{summary['reward_mean']:.1f}±{summary['reward_std']:.1f}",
                    summary["depth_max"],
                    summary["length_mean"],
                    per_step["defaulted_pct"],
                    per_step["calls_per_step"],
                    per_step["tokens_per_step"],
                    per_step["seconds_per_step"],
                ]
            )
        main = markdown_table(
            [
                "agent",
                "episodes",
                "score %",
                "reward",
                "depth",
                "steps",
                "defaulted %",
                "calls/step",
                "tokens/step",
                "s/step",
            ],
            body,
        )
        labels = [label for label, episodes in rows.items() if episodes]
        if not labels:
            return main
        rates = {label: crafter_metrics.success_rates(rows[label]) for label in labels}
        unlocks = markdown_table(
            ["achievement", *labels],
            [[name, *(rates[label][name] for label in labels)] for name in ACHIEVEMENTS],
        )
        return f"{main}\n\nAchievement unlock rates (% of episodes)\n\n{unlocks}"

    return Family(
        "crafter",
        "SPRING / SmartPlay",
        (),
        lambda s, c: crafter_metrics.episode_metrics(s, **c),
        table,
        lambda episodes: {"Crafter score %": crafter_metrics.summarize(list(episodes))["score"]},
    )


def crafter_costs(episodes: Sequence[Mapping[str, Any]]) -> dict[str, float | None]:
    """Per decision over all episodes: defaulted share (%), model calls, tokens, seconds.

    ``None`` where the episodes hold no decision counters (e.g. records of other runs).

    Example:
        >>> crafter_costs([{"decisions": 4, "defaulted": 1, "api_calls": 36,
        ...                 "input_tokens": 900, "output_tokens": 100, "latency_s": 2.0}])
        {'defaulted_pct': 25.0, 'calls_per_step': 9.0, 'tokens_per_step': 250.0, \
'seconds_per_step': 0.5}
    """
    decisions = sum(int(e.get("decisions", 0)) for e in episodes)
    if not decisions:
        return dict.fromkeys(
            ("defaulted_pct", "calls_per_step", "tokens_per_step", "seconds_per_step")
        )

    def total(key: str) -> float:
        return float(sum(float(e.get(key, 0) or 0) for e in episodes))

    return {
        "defaulted_pct": 100.0 * total("defaulted") / decisions,
        "calls_per_step": total("api_calls") / decisions,
        "tokens_per_step": (total("input_tokens") + total("output_tokens")) / decisions,
        "seconds_per_step": total("latency_s") / decisions,
    }


def _generic() -> Family:
    return Family("generic", "", (), _generic_metrics, generic_table, _generic_headline)


FAMILY_BUILDERS: dict[str, Callable[[], Family]] = {
    "generic": _generic,
    "maze": _maze,
    "match2": _match2,
    "minesweeper": _minesweeper,
    "smartplay": _smartplay,
    "crafter": _crafter,
}
"""Each family name a game may declare (``Game.family``), and how to build its functions."""


@cache
def _family(name: str) -> Family:
    build = FAMILY_BUILDERS.get(name)
    if build is None:
        raise ValueError(
            f"unknown metric family {name!r}; families: {', '.join(sorted(FAMILY_BUILDERS))}"
        )
    return build()


def _games_of(name: str) -> tuple[str, ...]:
    return tuple(cls.id for cls in game_classes() if cls.family == name)


def family_of(game_id: str) -> Family:
    """The family scoring ``game_id``: the one its game declares (``Game.family``).

    A game id that is not registered (e.g. a results file of a plugin game that is not
    installed) is scored with the generic family.

    Raises:
        ValueError: The game declares a family this package does not know.
    """
    try:
        name = game_class(game_id).family
    except UnknownGameError:
        return replace(_family("generic"), games=(game_id.split("-v")[0],))
    return replace(_family(name), games=_games_of(name))


class _FamiliesByGame(Mapping[str, Family]):
    """The registered games scored by a paper's family, by game id (read on each use)."""

    def _ids(self) -> list[str]:
        return [cls.id for cls in game_classes() if cls.family != "generic"]

    def __getitem__(self, game_id: str) -> Family:
        if game_id not in self._ids():
            raise KeyError(game_id)
        return family_of(game_id)

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids())

    def __len__(self) -> int:
        return len(self._ids())


FAMILIES: Mapping[str, Family] = _FamiliesByGame()
"""The families of the registered games that a paper's table scores, by game id."""


def _number(value: Any) -> float | None:
    return None if value is None else float(value)
