"""The player registry as the commands print it: ``games`` and every ``--help`` epilog."""

from __future__ import annotations

import textwrap

from langgraph_games.models.factory import ACCEPTED_FORMS
from langgraph_games.players.entry import PlayerEntry
from langgraph_games.players.registry import DEFAULT_MODEL, player_entries

__all__ = ["PLAYER_SPEC_HELP", "player_lines", "players_epilog"]

PLAYER_SPEC_HELP = (
    "name[:key=value...][:<model spec>], e.g. minimax:depth=3, random, gamebot:local, "
    "gamebot:variant=cot:openai:<model>, spring:variant=no_dag (see the list below or "
    "'langgraph-games games')"
)
"""How ``--players`` / ``--agent`` describe a spec."""

_WIDTH = 100


def _wrap(text: str, first: str, rest: str) -> list[str]:
    return textwrap.wrap(
        text,
        _WIDTH,
        initial_indent=first,
        subsequent_indent=rest,
        break_long_words=False,
        break_on_hyphens=False,
    )


def _entry_lines(entry: PlayerEntry, indent: str) -> list[str]:
    lines = [f"{indent}{entry.form()}"]
    text = entry.description
    if entry.plays is None and entry.games:
        text += f" [made for {', '.join(entry.games)}; {entry.plays_text()}]"
    else:
        text += f" [{entry.plays_text()}]"
    deeper = indent + "    "
    lines += _wrap(text, deeper, deeper)
    for info in entry.infos():
        line = f"{info.name}: {info.type}, default {info.default}; {info.description}"
        lines += _wrap(line, deeper + "- ", deeper + "  ")
    return lines


def player_lines(indent: str = "  ") -> list[str]:
    """Every registered player: form, settings, games, and the model forms."""
    entries = player_entries()
    lines = [
        "Player specs: name[:key=value...][:<model spec>] (settings before the model; a "
        "setting's value cannot hold ':').",
        f"LLM strategies (the model defaults to '{DEFAULT_MODEL}'):",
    ]
    for entry in (e for e in entries if e.needs_model):
        lines += _entry_lines(entry, indent)
    lines.append("Search players:")
    for entry in (e for e in entries if not e.needs_model):
        lines += _entry_lines(entry, indent)
    lines.append("Model specs:")
    lines += _wrap(ACCEPTED_FORMS, indent, indent)
    return lines


def players_epilog() -> str:
    """The ``--help`` epilog of commands that take player specs."""
    return "\n".join(player_lines())
