"""Parsing of ``--option key=value`` arguments shared by sub-commands."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from langgraph_games.eval.scoring.metrics import Scoring

__all__ = ["add_scoring_flags", "parse_options", "scoring_of"]


def parse_options(pairs: Sequence[str] | None) -> dict[str, Any]:
    """Turn ``["level=2", "full_vision=true"]`` into ``{"level": 2, "full_vision": True}``.

    Values are read as JSON when they parse (numbers, booleans, lists) and kept as text
    otherwise.

    Raises:
        ValueError: An item is not ``key=value``.
    """
    options: dict[str, Any] = {}
    for pair in pairs or ():
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"option {pair!r} is not key=value (e.g. --option level=2)")
        try:
            options[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            options[key.strip()] = value
    return options


def add_model_flags(parser: Any) -> None:
    """Flags shared by commands that run LLM players."""
    group = parser.add_argument_group("model settings (LLM players)")
    group.add_argument(
        "--temperature",
        type=float,
        default=None,
        help="sampling temperature (default: an endpoint's provider default, as in the "
        "GAMEBoT paper; greedy for the local model); the manifest records which was used",
    )
    group.add_argument("--max-tokens", type=int, default=None, help="completion length limit")
    group.add_argument("--base-url", default=None, help="OpenAI-compatible endpoint URL")
    group.add_argument("--api-key", default=None, help="API key (default: OPENAI_API_KEY)")


def model_settings(args: Any) -> dict[str, Any]:
    """The model settings given on the command line (unset ones left out)."""
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
        type=int,
        default=max_retries,
        help=f"re-asks after an unusable answer ({default_text})",
    )
    group.add_argument(
        "--fallback",
        choices=["game", "random", "forfeit"],
        default="game",
        help="after the retries: the paper's rule for the game (default), a "
        "random legal move, or forfeit",
    )
    group.add_argument("--max-steps", type=int, default=None, help="stop after N moves")


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
