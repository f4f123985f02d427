"""Every game's options as the commands that take ``--option`` print them in ``--help``."""

from __future__ import annotations

import textwrap

from langgraph_games.games.registry import list_games

__all__ = ["OPTION_HELP", "game_options_epilog"]

OPTION_HELP = (
    "game option, a JSON value or text (repeatable; e.g. -o level=2 -o full_vision=true); "
    "each game's options are listed below"
)
"""How ``--option`` / ``-o`` is described."""

_WIDTH = 100


def game_options_epilog() -> str:
    """One paragraph per game: its options with their types and defaults."""
    lines = ["Game options (--option KEY=VALUE; 'langgraph-games games' describes each):"]
    for info in list_games():
        listed = "; ".join(option.short() for option in info.options) or "none"
        lines += textwrap.wrap(
            f"{info.id}: {listed}",
            _WIDTH,
            initial_indent="  ",
            subsequent_indent="      ",
            break_long_words=False,
            break_on_hyphens=False,
        )
    return "\n".join(lines)
