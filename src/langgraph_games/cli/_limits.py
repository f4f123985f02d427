"""``--rate-limit`` and ``--max-retry-wait``: the process's endpoint settings.

Kept apart from the other option helpers so that running any command (``games`` too)
loads only the model layer's rate limiter, not the run machinery.
"""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Sequence

from langgraph_games.models.ratelimit import set_default_limits
from langgraph_games.models.shared_pause import PAUSES_ENV, share_pauses

__all__ = ["apply_endpoint_limits", "parse_rate_limits"]


def parse_rate_limits(items: Sequence[str] | None) -> float | dict[str, float] | None:
    """Read ``--rate-limit`` values: ``RPS`` for every endpoint, ``SPEC=RPS`` for one model.

    Returns:
        ``None`` (no flag), one number (only bare ``RPS`` given), or a mapping from model
        spec to requests per second where ``"*"`` holds a bare ``RPS``.

    Raises:
        ValueError: A rate that is not a positive number, or a model spec given twice.

    Example:
        >>> parse_rate_limits(["2"])
        2.0
        >>> parse_rate_limits(["0.5", "anthropic:claude-sonnet-4-5=0.2"])
        {'*': 0.5, 'anthropic:claude-sonnet-4-5': 0.2}
    """
    if not items:
        return None
    rates: dict[str, float] = {}
    for item in items:
        spec, sep, text = item.rpartition("=")
        key = spec.strip() if sep else "*"
        if sep and not key:
            raise ValueError(f"--rate-limit {item!r}: name a model spec before '=' (SPEC=RPS)")
        try:
            rate = float(text)
        except ValueError:
            rate = float("nan")
        if not math.isfinite(rate) or rate <= 0:
            raise ValueError(
                f"--rate-limit {item!r}: the rate is a number of requests per second > 0, "
                "written RPS (every model endpoint) or SPEC=RPS (one model, e.g. "
                "anthropic:claude-sonnet-4-5=0.5)"
            )
        if key in rates:
            raise ValueError(f"--rate-limit gives {key!r} twice")
        rates[key] = rate
    if list(rates) == ["*"]:
        return rates["*"]
    return rates


def apply_endpoint_limits(args: argparse.Namespace) -> None:
    """Make ``--rate-limit`` and ``--max-retry-wait`` the process's endpoint settings.

    Every model the command builds then goes through them (and the manifest's model
    descriptions record them), and a provider's ``Retry-After`` pauses the command's
    worker processes too (:func:`~langgraph_games.models.shared_pause.share_pauses`).
    Commands without model flags leave the settings alone.

    Raises:
        ValueError: A bad ``--rate-limit`` or ``--max-retry-wait``.
    """
    if not hasattr(args, "rate_limit"):
        return
    wait = args.max_retry_wait
    if wait is not None and (not math.isfinite(wait) or wait < 0):
        raise ValueError(f"--max-retry-wait is a number of seconds >= 0, got {wait}")
    set_default_limits(parse_rate_limits(args.rate_limit), wait)
    if PAUSES_ENV not in os.environ:
        share_pauses()
