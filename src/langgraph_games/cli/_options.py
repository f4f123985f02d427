"""Parsing of ``--option key=value`` arguments and of numbers, shared by sub-commands.

Every count and amount a command takes is checked while the command line is parsed,
before any work: :func:`whole_number` and :func:`decimal` are ``argparse`` types that
refuse a value out of range with one line naming the option and what it accepts
(``langgraph-games eval: error: argument --episodes: a whole number from 1 to 100,000,
got 0``), exit status 2.
"""

from __future__ import annotations

import argparse
import json
import math
import os
from collections.abc import Callable, Sequence
from typing import Any, Literal

from langgraph_games.eval.running.workers import default_workers
from langgraph_games.eval.running.workers_ray import RAY_MISSING, have_ray
from langgraph_games.eval.scoring.metrics import Scoring
from langgraph_games.models.factory import ACCEPTED_FORMS

__all__ = [
    "MAX_EPISODES",
    "MAX_MATCHES",
    "MAX_SEED",
    "MAX_SWEEP_VALUES",
    "SEED",
    "add_scoring_flags",
    "decimal",
    "parse_options",
    "scoring_of",
    "whole_number",
]

MAX_EPISODES = 100_000
"""The most episodes (or matches per pair) one command line asks for, in all."""

MAX_MATCHES = 10_000
"""The most matches per pair of players an arena asks for."""

MAX_SWEEP_VALUES = 10_000
"""The most option combinations the sweeps of one evaluation name, in all."""

MAX_SEED = 10**18
"""Seeds lie within plus or minus this (results files hold 64-bit integers)."""


def _range_text(low: float | None, high: float | None, *, above: bool = False) -> str:
    def shown(value: float) -> str:
        return f"{value:,}" if isinstance(value, int) else f"{value:g}"

    if low is not None and high is not None:
        return f"from {shown(low)} to {shown(high)}"
    if low is not None:
        return f"> {shown(low)}" if above else f">= {shown(low)}"
    return f"<= {shown(high)}" if high is not None else "any"


def whole_number(low: int | None = 1, high: int | None = MAX_EPISODES) -> Callable[[str], int]:
    """An ``argparse`` type: a whole number from ``low`` to ``high`` (``None``: unbounded).

    Example:
        >>> whole_number(0, None)("3")
        3
        >>> whole_number(1, 10)("0")
        Traceback (most recent call last):
        ...
        argparse.ArgumentTypeError: a whole number from 1 to 10, got '0'
    """
    accepted = f"a whole number {_range_text(low, high)}"

    def parse(text: str) -> int:
        try:
            value = int(text.strip(), 10)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{accepted}, got {text[:40]!r}") from None
        if (low is not None and value < low) or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{accepted}, got {text[:40]!r}")
        return value

    return parse


def decimal(
    low: float | None = 0.0, high: float | None = None, *, above: bool = False
) -> Callable[[str], float]:
    """An ``argparse`` type: a finite number from ``low`` (excluded when ``above``) to ``high``.

    Example:
        >>> decimal(0.0, 1.0, above=True)("0.65")
        0.65
        >>> decimal()("nan")
        Traceback (most recent call last):
        ...
        argparse.ArgumentTypeError: a number >= 0, got 'nan'
    """
    accepted = f"a number {_range_text(low, high, above=above)}"
    if above and low is not None and high is not None:
        accepted = f"a number > {low:g} and <= {high:g}"
    elif low is None and high is None:
        accepted = "a finite number"

    def parse(text: str) -> float:
        try:
            value = float(text.strip())
        except ValueError:
            value = math.nan
        below = low is not None and (value <= low if above else value < low)
        if not math.isfinite(value) or below or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{accepted}, got {text[:40]!r}")
        return value

    return parse


SEED = whole_number(-MAX_SEED, MAX_SEED)
"""The ``argparse`` type of ``--seed`` options."""


def parse_options(pairs: Sequence[str] | None) -> dict[str, Any]:
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
    options: dict[str, Any] = {}
    for pair in pairs or ():
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"option {pair[:80]!r} is not key=value (e.g. --option level=2)")
        options[key.strip()] = _option_value(value)
    return options


def _option_value(text: str) -> Any:
    try:
        return json.loads(text, parse_float=_finite, parse_constant=_not_a_number)
    except (ValueError, RecursionError):
        return text


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text[:20]} does not fit a float")
    return value


def _not_a_number(name: str) -> float:
    raise ValueError(f"{name} is not a number")


def add_model_flags(parser: Any) -> None:
    """Flags shared by commands that run LLM players."""
    group = parser.add_argument_group(
        "model settings (LLM players)", f"Model specs: {ACCEPTED_FORMS}."
    )
    group.add_argument(
        "--temperature",
        type=decimal(0.0),
        default=None,
        help="sampling temperature (default: an endpoint's provider default, as in the "
        "GAMEBoT paper; greedy for the local model); the manifest records which was used",
    )
    group.add_argument(
        "--max-tokens", type=whole_number(1, None), default=None, help="completion length limit"
    )
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
        type=decimal(0.0),
        default=None,
        metavar="SECONDS",
        help="the longest wait a provider's Retry-After gets before a retry (default 60)",
    )


def model_settings(args: Any) -> dict[str, Any]:
    """The model settings given on the command line (unset ones left out).

    ``--rate-limit`` and ``--max-retry-wait`` are not among them: they are the process's
    endpoint settings (:func:`~langgraph_games.cli._limits.apply_endpoint_limits`), kept
    out of a run's spec like the concurrency, since they change how fast a run goes, not
    what it computes.
    """
    settings = {
        "temperature": args.temperature,
        "max_tokens": args.max_tokens,
        "base_url": args.base_url,
        "api_key": args.api_key,
    }
    return {k: v for k, v in settings.items() if v is not None}


def add_episode_flags(parser: Any, *, max_retries: int | None = 2) -> None:
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
        type=whole_number(0, 20),
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
    group.add_argument(
        "--max-steps", type=whole_number(1, None), default=None, help="stop after N moves"
    )


def add_scoring_flags(parser: Any) -> None:
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


def scoring_of(args: Any) -> Scoring:
    """The :class:`~langgraph_games.eval.scoring.metrics.Scoring` the flags ask for."""
    return Scoring(outcome=args.outcome_scale, intermediate=args.intermediate)


WORKERS_ENV = "LANGGRAPH_GAMES_WORKERS"
"""The environment variable giving ``--workers`` when the flag is not given."""


def add_worker_flags(parser: Any) -> None:
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


def workers_of(args: Any) -> int | Literal["auto"]:
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


def execution_of(args: Any) -> dict[str, Any]:
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
