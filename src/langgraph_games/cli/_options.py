"""Parsing of ``--option key=value`` arguments, and the bounds of number options.

Every count and amount a command takes is checked first thing when it runs, before any
work (:func:`check_numbers`): a value out of range is one line naming the option and what
it accepts (``langgraph-games eval: error: --episodes must be at least 1 and at most
100,000, got 0``), exit status 2. :data:`SHARED_BOUNDS` holds the flags several commands
share; each command adds its own.
"""

from __future__ import annotations

import argparse
import json
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from typing_extensions import TypedDict

from langgraph_games._json import JsonObject, JsonValue
from langgraph_games.eval.costs import cost_section, load_prices
from langgraph_games.eval.running.records import load_results
from langgraph_games.eval.running.workers import default_workers
from langgraph_games.eval.running.workers_ray import RAY_MISSING, have_ray
from langgraph_games.eval.scoring.metrics import Scoring
from langgraph_games.models.factory import ACCEPTED_FORMS
from langgraph_games.players.registry import parse_spec, player_entry

__all__ = [
    "MAX_EPISODES",
    "MAX_MATCHES",
    "MAX_SEED",
    "MAX_SWEEP_VALUES",
    "SHARED_BOUNDS",
    "Bounds",
    "add_prices_flag",
    "add_reader_flag",
    "add_scoring_flags",
    "check_numbers",
    "parse_options",
    "print_costs",
    "scoring_of",
    "with_reader",
]

MAX_EPISODES = 100_000
"""The most episodes one command line asks for, in all."""

MAX_MATCHES = 10_000
"""The most matches per pair of players an arena asks for."""

MAX_SWEEP_VALUES = 10_000
"""The most option combinations the sweeps of one evaluation name, in all."""

MAX_SEED = 10**18
"""Seeds lie within plus or minus this (results files hold 64-bit integers)."""


def _number(value: float) -> str:
    return f"{value:,}" if isinstance(value, int) else f"{value:g}"


@dataclass(frozen=True)
class Bounds:
    """The values a number option accepts: a finite number from ``low`` to ``high``.

    Attributes:
        low: The smallest value (``None``: no lower bound).
        high: The largest value (``None``: no upper bound).
        above: ``low`` itself is refused (a threshold that must be more than 0).
    """

    low: float | None = None
    high: float | None = None
    above: bool = False

    def check(self, option: str, value: float) -> None:
        """Refuse ``value`` of ``option`` unless it is in bounds.

        Raises:
            ValueError: ``"<option> must be at least <low> and at most <high>, got <v>"``.

        Example:
            >>> Bounds(1, 10).check("--episodes", 0)
            Traceback (most recent call last):
            ...
            ValueError: --episodes must be at least 1 and at most 10, got 0
        """
        low, high = self.low, self.high
        below = low is not None and (value <= low if self.above else value < low)
        if math.isfinite(value) and not below and (high is None or value <= high):
            return
        parts = []
        if low is not None:
            parts.append(f"{'more than' if self.above else 'at least'} {_number(low)}")
        if high is not None:
            parts.append(f"at most {_number(high)}")
        accepted = " and ".join(parts) if parts else "a finite number"
        raise ValueError(f"{option} must be {accepted}, got {_number(value)}")


SHARED_BOUNDS: dict[str, Bounds] = {
    "seed": Bounds(-MAX_SEED, MAX_SEED),
    "concurrency": Bounds(1),
    "max_retries": Bounds(0, 20),
    "max_steps": Bounds(1),
    "temperature": Bounds(0.0),
    "max_tokens": Bounds(1),
}
"""Bounds of the flags several commands share, by argument name (``--max-steps``: ``max_steps``).

``--rate-limit`` and ``--max-retry-wait`` are checked where they are applied
(:func:`~langgraph_games.cli._limits.apply_endpoint_limits`), before the command runs.
"""


def check_numbers(args: argparse.Namespace, bounds: Mapping[str, Bounds] | None = None) -> None:
    """Check the number options of a parsed command line: :data:`SHARED_BOUNDS` and ``bounds``.

    Options the command does not have, or that were not given (``None``), are skipped.

    Raises:
        ValueError: The first option out of bounds, in one line (see :meth:`Bounds.check`).
    """
    for name, limits in {**SHARED_BOUNDS, **(bounds or {})}.items():
        value = getattr(args, name, None)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            limits.check("--" + name.replace("_", "-"), value)


def parse_options(pairs: Sequence[str] | None) -> JsonObject:
    """Turn ``["level=2", "full_vision=true"]`` into ``{"level": 2, "full_vision": True}``.

    Values are read as JSON when they parse (numbers, booleans, lists) and kept as text
    otherwise (``NaN``, ``Infinity`` and numbers too large for a float or nested too deep
    stay text too, for the game to refuse by name).

    Raises:
        ValueError: An item is not ``key=value``.

    Example:
        >>> parse_options(["level=2", "full_vision=true", "name=Ann", "p=NaN"])
        {'level': 2, 'full_vision': True, 'name': 'Ann', 'p': 'NaN'}
    """
    options: JsonObject = {}
    for pair in pairs or ():
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"option {pair[:80]!r} is not key=value (e.g. --option level=2)")
        options[key.strip()] = _option_value(value)
    return options


def _option_value(text: str) -> JsonValue:
    try:
        value: JsonValue = json.loads(text, parse_float=_finite, parse_constant=_not_a_number)
    except (ValueError, RecursionError):
        return text
    return value


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text[:20]} does not fit a float")
    return value


def _not_a_number(name: str) -> float:
    raise ValueError(f"{name} is not a number")


def add_model_flags(parser: argparse.ArgumentParser, *, cache_flag: str = "--cache") -> None:
    """Flags shared by commands that run LLM players.

    Args:
        parser: The sub-command's parser.
        cache_flag: The name of the model-call cache flag (``args.model_cache``), for a
            command whose ``--cache`` is another cache (``study``'s results).
    """
    group = parser.add_argument_group(
        "model settings (LLM players)", f"Model specs: {ACCEPTED_FORMS}."
    )
    group.add_argument(
        "--temperature",
        type=float,
        default=None,
        help="sampling temperature (default: an endpoint's provider default, as in the "
        "GAMEBoT paper; greedy for the local model); the manifest records which was used",
    )
    group.add_argument("--max-tokens", type=int, default=None, help="completion length limit")
    group.add_argument(
        "--base-url",
        default=None,
        help="endpoint URL: an OpenAI-compatible server for openai:<model>, or the "
        "provider's server for <provider>:<model>",
    )
    group.add_argument(
        "--api-key",
        default=None,
        help="API key (default: the provider's variable, e.g. OPENAI_API_KEY or ANTHROPIC_API_KEY)",
    )
    group.add_argument(
        "--rate-limit",
        action="append",
        default=None,
        metavar="[SPEC=]RPS",
        help="requests per second to each model endpoint, shared by every worker of the "
        "run (default: none); SPEC=RPS for one model spec, e.g. "
        "anthropic:claude-sonnet-4-5=0.5; repeat for several",
    )
    group.add_argument(
        "--max-retry-wait",
        type=float,
        default=None,
        metavar="SECONDS",
        help="the longest wait a provider's Retry-After gets before a retry (default 60)",
    )
    group.add_argument(
        cache_flag,
        dest="model_cache",
        default=None,
        metavar="PATH",
        help="a model-call cache (a SQLite file, created when missing): a call whose "
        "prompt, model and sampling settings it holds is answered from it, marked cached "
        "and not counted as a call (default: $LANGGRAPH_GAMES_CACHE, else no cache)",
    )


def model_settings(args: argparse.Namespace) -> dict[str, object]:
    """The model settings given on the command line (unset ones left out).

    ``--rate-limit``, ``--max-retry-wait`` and ``--cache`` are not among them: they are
    the process's endpoint settings (:func:`~langgraph_games.cli._limits.apply_endpoint_limits`,
    :func:`~langgraph_games.models.cache.using_cache`), kept out of a run's spec like the
    concurrency, since they change how fast or how cheaply a run goes, not what it computes.
    """
    settings: dict[str, object] = {
        "temperature": args.temperature,
        "max_tokens": args.max_tokens,
        "base_url": args.base_url,
        "api_key": args.api_key,
    }
    return {k: v for k, v in settings.items() if v is not None}


def add_prices_flag(parser: argparse.ArgumentParser) -> None:
    """``--prices FILE``: prices over the shipped ones (:mod:`~langgraph_games.eval.costs`)."""
    parser.add_argument(
        "--prices",
        default=None,
        metavar="FILE",
        help="model prices, USD per 1M input/output tokens, as a TOML or JSON table "
        "(model = {input = 0.15, output = 0.60}), over the shipped ones (dated: check "
        "them); default: $LANGGRAPH_GAMES_PRICES, else the shipped ones",
    )


def print_costs(paths: Sequence[str | Path], args: argparse.Namespace) -> None:
    """Print the cost section of results files (nothing when no player used a model).

    Prices from ``--prices`` (see :func:`add_prices_flag`), else the environment's or the
    shipped ones.
    """
    loaded = load_results([str(p) for p in paths])
    section = cost_section([item.record for item in loaded.records], load_prices(args.prices))
    if section:
        print(section)


def add_episode_flags(parser: argparse.ArgumentParser, *, max_retries: int | None = 2) -> None:
    """Flags of the episode loop: retries, fallback, step limit.

    Args:
        parser: The sub-command's parser.
        max_retries: Default of ``--max-retries`` (``None``: the command decides, e.g.
            from the game's paper protocol).
    """
    group = parser.add_argument_group("episode")
    default_text = "default 2" if max_retries == 2 else "default: the game's paper protocol, else 2"
    group.add_argument(
        "--max-retries",
        type=int,
        default=max_retries,
        help=f"re-asks after an unusable answer, 0-20 ({default_text})",
    )
    group.add_argument(
        "--fallback",
        choices=["game", "random", "forfeit"],
        default="game",
        help="after the retries: the paper's rule for the game (default), a "
        "random legal move, or forfeit",
    )
    group.add_argument("--max-steps", type=int, default=None, help="stop after N moves")


def add_scoring_flags(parser: argparse.ArgumentParser) -> None:
    """Flags choosing how arena matches are scored (O's scale, which answers I counts)."""
    group = parser.add_argument_group("scoring (arena tables)")
    group.add_argument(
        "--outcome-scale",
        choices=["paper", "share"],
        default="paper",
        help="O of games that are not constant-sum (Negotiation): the paper's [-1, 1] "
        "scale, own minus opponent's return over the maximum (default), or the share "
        "scale, own return over the maximum in [0, 1]",
    )
    group.add_argument(
        "--intermediate",
        choices=["first", "last", "all"],
        default="first",
        help="which answer of a decision I scores: the first, unprompted one (default), "
        "the one whose move was played, or all; re-asked answers are also shown apart",
    )


READERS = ("rule", "released")
"""The values of ``--reader`` (the GAMEBoT players' ``reader`` setting)."""


def add_reader_flag(parser: argparse.ArgumentParser) -> None:
    """``--reader {rule,released}``: how GAMEBoT players read the move of a reply."""
    parser.add_argument(
        "--reader",
        choices=READERS,
        default=None,
        help="how GAMEBoT players read moves: rule (default: the first move after the "
        "final label, commentary ignored, two moves ambiguous) or released (as GAMEBoT's "
        "released parsers did, for parity studies); sets reader=... on every player spec "
        "that takes it and gives none, so results name the reader",
    )


def with_reader(specs: Sequence[str], reader: str | None) -> list[str]:
    """The player specs with ``reader=<reader>`` added where the player takes one.

    A spec that sets its own ``reader`` keeps it. ``rule``, the default reader, changes
    no spec (so results files written without the flag keep resuming); ``None`` (no
    flag) neither.

    Raises:
        ValueError: ``released`` is asked for but no player reads GAMEBoT moves.

    Example:
        >>> with_reader(["gamebot:variant=cot:local", "random"], "released")
        ['gamebot:variant=cot:reader=released:local', 'random']
    """
    if reader is None or reader == "rule":
        return list(specs)
    changed: list[str] = []
    takes_it = False
    for text in specs:
        spec = parse_spec(text)
        if "reader" not in player_entry(spec.name).settings.model_fields:
            changed.append(text)
            continue
        takes_it = True
        if "reader" in spec.settings:
            changed.append(text)
            continue
        parts = text.strip().split(":")
        # the settings come first, up to the first part without "=" (the model's)
        model_at = next((i for i, part in enumerate(parts) if i and "=" not in part), len(parts))
        changed.append(":".join([*parts[:model_at], f"reader={reader}", *parts[model_at:]]))
    if not takes_it:
        raise ValueError(
            f"--reader {reader} is a setting of GAMEBoT players (gamebot:...), and none of "
            f"the players is one: {' '.join(specs)}"
        )
    return changed


def scoring_of(args: argparse.Namespace) -> Scoring:
    """The :class:`~langgraph_games.eval.scoring.metrics.Scoring` the flags ask for."""
    return Scoring(outcome=args.outcome_scale, intermediate=args.intermediate)


WORKERS_ENV = "LANGGRAPH_GAMES_WORKERS"
"""The environment variable giving ``--workers`` when the flag is not given."""


def add_worker_flags(parser: argparse.ArgumentParser) -> None:
    """``--workers N|auto``, ``--executor {local,ray}`` and ``--ray-address``."""
    parser.add_argument(
        "--workers",
        default=None,
        metavar="N",
        help="worker processes (or Ray actors) playing the episodes, each with its own "
        f"event loop (default: ${WORKERS_ENV}, else auto: one per core, at most one per "
        "episode still to play; 1: this process; 0: one per core); --concurrency bounds "
        "the episodes in flight across them all",
    )
    parser.add_argument(
        "--executor",
        choices=["local", "ray"],
        default="local",
        help="where the workers run: local (this machine, default) or ray (a Ray cluster; "
        "needs the 'ray' extra)",
    )
    parser.add_argument(
        "--ray-address",
        default=None,
        metavar="ADDRESS",
        help="the Ray cluster of --executor ray, e.g. ray://head:10001 (default: the "
        "RAY_ADDRESS environment variable, else a local cluster for this run)",
    )


def workers_of(args: argparse.Namespace) -> int | Literal["auto"]:
    """The worker count ``--workers`` asks for (0 becomes one per core).

    Without the flag, the ``LANGGRAPH_GAMES_WORKERS`` environment variable, else ``auto``.

    Raises:
        ValueError: Neither ``auto`` nor a number >= 0.
    """
    flag = "--workers" if args.workers is not None else WORKERS_ENV
    given = str(args.workers or os.environ.get(WORKERS_ENV) or "auto").strip().lower()
    if given == "auto":
        return "auto"
    try:
        count = int(given)
    except ValueError:
        count = -1
    if count < 0:
        raise ValueError(f"{flag} is 'auto' or a number of processes >= 0, got {given!r}")
    return count or default_workers()


class Execution(TypedDict):
    """How a run's episodes are spread: the spec fields of the worker flags."""

    workers: int | Literal["auto"]
    executor: Literal["local", "ray"]
    ray_address: str | None


def execution_of(args: argparse.Namespace) -> Execution:
    """``workers``, ``executor`` and ``ray_address`` of a spec, as the flags ask.

    Raises:
        ValueError: A bad ``--workers``, ``--ray-address`` without ``--executor ray``,
            or ``--executor ray`` without Ray installed.
    """
    if args.executor == "ray" and not have_ray():
        raise ValueError(RAY_MISSING)
    if args.ray_address and args.executor != "ray":
        raise ValueError("--ray-address is for --executor ray; add --executor ray")
    return {
        "workers": workers_of(args),
        "executor": args.executor,
        "ray_address": args.ray_address,
    }
