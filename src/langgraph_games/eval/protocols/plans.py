"""The papers' evaluation protocols per game: default options, sweeps, repeats, re-asks.

``langgraph-games eval GAME`` builds its :class:`~langgraph_games.eval.running.runner.EvalSpec`
through :func:`plan_eval`, which fills in what the game's paper did unless the command
line says otherwise. Each game declares its paper's protocol as data in its own folder
(``Game.eval_protocol``, an :class:`~langgraph_games.games.protocol.EvalProtocol`; e.g.
``games/maze/protocol.py``); this module only applies it:

=============  ===========================================================================
game           defaults
=============  ===========================================================================
maze           the fixed evaluation maps (``map_set=eval``), all 30 of the level, one
               episode each; ``--level`` picks 1-3, without it all three (90 maps, the
               paper's Table 4); no re-asks: an unreadable reply plays action 0, as the
               released agent did
match2         the fixed evaluation levels, all 30 of the difficulty (``--level easy``),
               without it all three (90, Table 5); refused answers cost no step and are
               asked again (the loop's cap, 2 re-asks; the released loop re-asked until
               a 5-minute level timeout), then a random valid action
minesweeper    9x9 boards, mines 1, 2 and 3, 10 tries each with seeds 0-9 (the released
               protocol behind Table 1); no re-asks: a reply without a triple is the
               game's ``invalid answer`` step, exactly the paper's loop
=============  ===========================================================================

Anything given explicitly wins: ``-o map_index=5`` drops the map sweep, ``-o mines=2`` or
``--sweep mines=1,2`` replaces the mine sweep, ``--max-retries 2`` re-asks. Games without
a protocol keep the generic behaviour (10 episodes, 2 re-asks).

``langgraph-games arena GAME`` builds its :class:`~langgraph_games.eval.running.arena.ArenaSpec`
through :func:`plan_arena` in the same way, from the game's head-to-head protocol
(:mod:`~langgraph_games.eval.protocols.gamebot`: GAMEBoT's 20 matches per pair with the
seats swapped, no re-asks, 4096 output tokens, each model's default temperature, a random
baseline); ``protocol="none"`` gives the generic defaults (10 matches, 2 re-asks, no token
limit), the arena's defaults before it had a protocol, so that results files written then
keep resuming.

:func:`ablation_rows` gives the paper's ablations: Minesweeper's Table 1 (the five prompt
variants for one model, rows by mine count then variant), and Table 7 for the maze
(``EEB`` against ``Full-Vision``) and Match-2 (``EEB`` against ``NoProps``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, cast

from typing_extensions import TypedDict, Unpack

from langgraph_games._json import JsonObject, JsonValue
from langgraph_games.eval.protocols.gamebot import arena_protocol_for
from langgraph_games.eval.running.arena import ArenaSpec
from langgraph_games.eval.running.runner import EvalReport, EvalSpec, run_eval, summarize_episodes
from langgraph_games.games.protocol import EvalProtocol
from langgraph_games.games.registry import game_class, game_classes
from langgraph_games.graphs.episode.options import EpisodeOptions, Fallback

__all__ = [
    "PROTOCOLS",
    "AblationRow",
    "EvalPlan",
    "Protocol",
    "ablation_rows",
    "plan_ablation",
    "plan_arena",
    "plan_eval",
    "protocol_for",
    "run_specs",
]


@dataclass(frozen=True)
class AblationRow:
    """One row of a paper's ablation: a label, the agent to run and option overrides."""

    label: str
    agent: str
    options: JsonObject = field(default_factory=dict)


Protocol = EvalProtocol
"""How a paper evaluated a game: the data each game declares (``Game.eval_protocol``)."""


class _ProtocolsByGame(Mapping[str, EvalProtocol]):
    """The registered games' paper protocols, by game id (read on each use)."""

    def _all(self) -> dict[str, EvalProtocol]:
        return {c.id: c.eval_protocol for c in game_classes() if c.eval_protocol is not None}

    def __getitem__(self, game: str) -> EvalProtocol:
        return self._all()[game]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


PROTOCOLS: Mapping[str, EvalProtocol] = _ProtocolsByGame()
"""The protocols by game id (without version)."""


def protocol_for(game: str) -> Protocol | None:
    """The paper protocol of a game id (``None`` when it has none)."""
    return game_class(game).eval_protocol


def ablation_rows(game: str, agent_or_model: str) -> list[AblationRow]:
    """The rows of the game's paper ablation.

    Raises:
        ValueError: The game has no ablation.
    """
    protocol = protocol_for(game)
    if protocol is None or not protocol.ablation:
        with_one = [g for g, p in PROTOCOLS.items() if p.ablation]
        raise ValueError(f"No paper ablation for {game!r}; games with one: {', '.join(with_one)}")
    return [
        AblationRow(
            arm.label,
            f"{arm.strategy}:{agent_or_model}" if arm.strategy else agent_or_model,
            dict(arm.options),
        )
        for arm in protocol.ablation
    ]


def plan_eval(
    game: str,
    agent: str,
    *,
    options: Mapping[str, JsonValue] | None = None,
    sweep: Mapping[str, list[JsonValue]] | None = None,
    level: JsonValue = None,
    episodes: int | None = None,
    max_retries: int | None = None,
    fallback: str = "game",
    max_steps: int | None = None,
    **spec: object,
) -> EvalSpec:
    """An evaluation spec with the game's paper protocol filled in where not given.

    Args:
        game: Game id.
        agent: The evaluated player spec.
        options: Game options given explicitly.
        sweep: Option sweeps given explicitly.
        level: ``--level``: the maze level, the Match-2 difficulty, or ``level`` for
            other games.
        episodes: Episodes per combination (default: the protocol's, else 1 when swept
            and 10 when not).
        max_retries: Re-asks per decision (default: the protocol's, else 2).
        fallback: The loop's fallback after the re-asks.
        max_steps: Stop each episode after this many moves.
        **spec: Other :class:`EvalSpec` fields (``opponents``, ``seed``, ``label``,
            ``concurrency``, ``model``).

    Example:
        >>> spec = plan_eval("maze", "maze_explorer", level=2)
        >>> spec.options, len(spec.sweep["map_index"]), spec.repeats, spec.episode.max_retries
        ({'map_set': 'eval', 'level': 2}, 30, 1, 0)
        >>> plan_eval("minesweeper", "minesweeper_solver").sweep
        {'mines': [1, 2, 3]}
    """
    protocol = protocol_for(game)
    given = dict(options or {})
    swept = dict(sweep or {})
    if level is not None:
        given[(protocol.level_option if protocol else None) or "level"] = level
    if protocol is not None:
        merged = {**protocol.options, **given}
        default_sweep = {
            k: v
            for k, v in protocol.default_sweep(merged).items()
            if k not in given and k not in swept
        }
        swept = {**default_sweep, **swept}
        # A swept key is not a fixed option.
        merged = {k: v for k, v in merged.items() if k not in swept}
        repeats = episodes or protocol.default_repeats(swept)
        retries = max_retries if max_retries is not None else protocol.max_retries
    else:
        merged = given
        repeats = episodes or (1 if swept else 10)
        retries = max_retries
    episode = EpisodeOptions(
        max_retries=2 if retries is None else retries,
        fallback=fallback,
        max_steps=max_steps,
    )
    return EvalSpec(
        game=game,
        options=merged,
        agent=agent,
        sweep=swept,
        repeats=repeats,
        episode=episode,
        **spec,
    )


GENERIC_MATCHES = 10
"""Matches per pair of an arena without a paper protocol (the former default)."""

GENERIC_RETRIES = 2
"""Re-asks per decision without a paper protocol (the former default)."""


def plan_arena(
    game: str,
    players: Sequence[str],
    *,
    protocol: Literal["paper", "none"] = "paper",
    matches: int | None = None,
    max_retries: int | None = None,
    fallback: Fallback | None = None,
    max_steps: int | None = None,
    model: Mapping[str, object] | None = None,
    **spec: object,
) -> ArenaSpec:
    """An arena spec with the game's paper protocol filled in where not given.

    Args:
        game: Game id.
        players: Player specs.
        protocol: ``"paper"``: the game's paper protocol (the generic defaults for a
            game without one); ``"none"``: the generic defaults (10 matches, 2 re-asks,
            no token limit), which the arena used before it had protocols.
        matches: Matches per pair (default: the protocol's).
        max_retries: Re-asks per decision (default: the protocol's).
        fallback: What follows the last unusable answer (default: the protocol's,
            ``"game"``).
        max_steps: Stop each match after this many moves (default: the protocol's, none).
        model: Model settings given explicitly (``temperature``, ``max_tokens`` ...); the
            protocol's token limit and temperature fill in what is not given.
        **spec: Other :class:`~langgraph_games.eval.running.arena.ArenaSpec` fields
            (``options``, ``seed``, ``swap_seats``, ``seeding``, ``baseline``,
            ``concurrency``, ``workers`` ...).

    Raises:
        UnknownGameError: The game is not registered.
        ValueError: ``protocol`` is neither ``"paper"`` nor ``"none"``.

    Example:
        >>> spec = plan_arena("tictactoe", ["minimax"])
        >>> spec.matches, spec.episode.max_retries, spec.model
        (20, 0, {'max_tokens': 4096})
        >>> spec.protocol_summary().split(" (")[0]
        'paper protocol'
        >>> old = plan_arena("tictactoe", ["minimax"], protocol="none")
        >>> old.matches, old.episode.max_retries, old.model
        (10, 2, {})
        >>> plan_arena("tictactoe", ["minimax"], max_retries=2).protocol_summary()
        'paper protocol except: re-asks 2 (paper: 0)'
    """
    if protocol not in ("paper", "none"):
        raise ValueError(f"protocol {protocol!r}: accepted 'paper', 'none'")
    paper = arena_protocol_for(game) if protocol == "paper" else None
    settings = dict(model or {})
    if paper is None:
        matches = GENERIC_MATCHES if matches is None else matches
        retries = GENERIC_RETRIES if max_retries is None else max_retries
        episode = EpisodeOptions(
            max_retries=retries, fallback=fallback or "game", max_steps=max_steps
        )
    else:
        matches = paper.matches if matches is None else matches
        retries = paper.max_retries if max_retries is None else max_retries
        episode = EpisodeOptions(
            max_retries=retries,
            fallback=fallback or cast("Fallback", paper.fallback),
            max_steps=paper.max_steps if max_steps is None else max_steps,
            history=paper.history,
        )
        for key in ("max_tokens", "temperature"):
            if settings.get(key) is None and getattr(paper, key) is not None:
                settings[key] = getattr(paper, key)
        spec.setdefault("swap_seats", paper.swap_seats)
        spec.setdefault("baseline", paper.baseline)
    return ArenaSpec(
        game=game,
        players=list(players),
        matches=matches,
        episode=episode,
        model=settings,
        **spec,
    )


class EvalPlan(TypedDict, total=False):
    """What a command line asks of every spec it plans.

    :func:`plan_eval`'s arguments beside the game and agent, and :class:`EvalSpec` fields.
    """

    options: Mapping[str, JsonValue]
    sweep: Mapping[str, list[JsonValue]]
    level: JsonValue
    episodes: int | None
    max_retries: int | None
    fallback: str
    max_steps: int | None
    label: str | None
    opponents: list[str]
    seed: int
    concurrency: int
    workers: int | Literal["auto"]
    executor: Literal["local", "ray"]
    ray_address: str | None
    model: dict[str, object]
    truths: str | None
    truth_limit: int | None
    agent_settings: JsonObject


def plan_ablation(game: str, agent_or_model: str, **plan: Unpack[EvalPlan]) -> list[EvalSpec]:
    """One evaluation spec per row of the game's paper ablation (see :func:`plan_eval`).

    Args:
        game: ``maze``, ``match2`` or ``minesweeper``.
        agent_or_model: The agent spec (maze, Match-2), or the model spec (Minesweeper,
            whose ablation varies the prompt strategy).
        **plan: Arguments of :func:`plan_eval` shared by every row.

    Raises:
        ValueError: The game has no ablation.

    Example:
        >>> [(s.row_label, s.agent) for s in plan_ablation("minesweeper", "local")][1]
        ('+ Examples', 'minesweeper:variant=examples:local')
    """
    rows = ablation_rows(game, agent_or_model)
    options = dict(plan.get("options") or {})
    specs = []
    for row in rows:
        row_plan: EvalPlan = {**plan, "options": {**options, **row.options}, "label": row.label}
        specs.append(plan_eval(game, row.agent, **row_plan))
    return specs


async def run_specs(
    specs: Sequence[EvalSpec], out_dir: str | Path = "runs", *, progress: bool = True
) -> tuple[str, list[EvalReport]]:
    """Run (or resume) several evaluations one after another; one table for them all.

    The table is the family's paper table over every run's results, rows in the order
    of ``specs`` (for Minesweeper: by mine count, then that order, as in Table 1).
    """
    reports = [await run_eval(spec, out_dir, progress=progress) for spec in specs]
    table, _, _ = summarize_episodes([r.results_path for r in reports])
    return table, reports
