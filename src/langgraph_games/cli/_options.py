"""Parsing of ``--option key=value`` arguments shared by sub-commands."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

__all__ = ["parse_options"]


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
