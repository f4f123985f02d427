"""Rendering metric rows as Markdown and CSV tables."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from typing import Any

from langgraph_games.eval.scoring.metrics import PlayerRow, Scoring
from langgraph_games.games._tables import cell, markdown_table
from langgraph_games.games.base import Game
from langgraph_games.games.registry import make
from langgraph_games.games.state import GameState

__all__ = ["arena_csv", "arena_markdown", "markdown_table"]


def _sub_headers(game: Game[GameState]) -> list[tuple[int, str]]:
    return [
        (
            s.index,
            f"P{s.index}-{'f1' if s.metric.value == 'f1' else 'acc'}" + ("" if s.scored else "*"),
        )
        for s in game.subproblems
    ]


def _player_table(
    game: Game[GameState], rows: Sequence[PlayerRow]
) -> tuple[list[str], list[list[Any]]]:
    subs = _sub_headers(game)
    headers = [
        "player",
        "matches",
        "W-D-L",
        "O",
        "I",
        *[h for _, h in subs],
        "I re-asked",
        "invalid %",
        "ambiguous",
        "fallbacks",
        "tokens in",
        "tokens out",
        "s/decision",
    ]
    body = []
    for row in rows:
        body.append(
            [
                row["player"],
                row["matches"],
                f"{row['wins']}-{row['draws']}-{row['losses']}",
                row["O"],
                row["I"],
                *[row["I_sub"].get(index) for index, _ in subs],
                row["I_retry"],
                f"{100 * row['invalid_rate']:.1f}",
                row["ambiguous"],
                row["fallbacks"],
                row["input_tokens"],
                row["output_tokens"],
                row["seconds_per_decision"],
            ]
        )
    return headers, body


def _notes(game: Game[GameState], rows: Sequence[PlayerRow], scoring: Scoring) -> list[str]:
    notes = []
    if any(not s.scored for s in game.subproblems):
        notes.append("`*` reported but not part of I (as in the paper).")
    if not game.constant_sum:
        scale = game.return_scale
        notes.append(
            f"O: (own return - opponent's return) / {scale:g}, the paper's [-1, 1] scale."
            if scoring.outcome == "paper"
            else f"O: own return / {scale:g} (share scale, in [0, 1]; not the paper's)."
        )
    if any(row["I"] is not None or row["I_retry"] is not None for row in rows):
        basis = {
            "first": "each decision's first answer (before any feedback)",
            "last": "the answer whose move was played",
            "all": "every answer, re-asked ones included",
        }[scoring.intermediate]
        notes.append(f"I scores {basis}; 'I re-asked' scores the answers given after feedback.")
    return notes


def arena_markdown(
    game_id: str,
    rows: Sequence[PlayerRow],
    pairs: Mapping[tuple[str, str], Sequence[int]],
    scoring: Scoring | None = None,
    game: Game[GameState] | None = None,
    *,
    protocol: str | None = None,
) -> str:
    """The arena summary: per-player O/I table, notes on the scales, pairwise W-D-L.

    Args:
        game_id: The game's versioned id.
        rows: The players' rows.
        pairs: Each pair's W-D-L.
        scoring: How the rows were scored (for the notes).
        game: The engine of ``game_id`` when the caller has made it already.
        protocol: The run's protocol line (``paper protocol`` or what differs from it),
            printed under the title.
    """
    game = game or make(game_id)
    headers, body = _player_table(game, rows)
    parts = [f"## {game_id}: outcome (O) and intermediate (I) scores", ""]
    if protocol:
        parts += [f"Protocol: {protocol}.", ""]
    parts.append(markdown_table(headers, body))
    notes = _notes(game, rows, scoring or Scoring())
    if notes:
        parts.append("\n" + "\n\n".join(notes))
    names = [r["player"] for r in rows]
    if len(names) > 1 and pairs:
        grid = []
        for a in names:
            line: list[Any] = [a]
            for b in names:
                wdl = pairs.get((a, b))
                line.append("" if a == b else "-".join(map(str, wdl)) if wdl else "")
            grid.append(line)
        parts += [
            "",
            "### Head to head (W-D-L of the row player)",
            "",
            markdown_table(["", *names], grid),
        ]
    return "\n".join(parts) + "\n"


def arena_csv(game_id: str, rows: Sequence[PlayerRow], game: Game[GameState] | None = None) -> str:
    """The per-player table as CSV (``game``: the engine of ``game_id``, if made)."""
    headers, body = _player_table(game or make(game_id), rows)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(headers)
    for line in body:
        writer.writerow([cell(c, 4) for c in line])
    return out.getvalue()
