"""GAMEBoT's cross-game table (the paper's Table 2): O and I per game, ``Avg.`` columns.

One row per player, two columns per game (O and I), then ``Avg. O``, ``Avg. I`` and
``Avg.``, as the paper lays it out. ``report`` and ``leaderboard`` both print it, from the
same scores (:func:`~langgraph_games.eval.scoring.metrics.player_rows`), through
:func:`build_cross_game`.

The rule for the averages is the paper's:

- ``Avg. O`` is the mean of the player's O over its games, and ``Avg. I`` the mean of its
  I; ``Avg.`` is the mean of the two (the paper's ``(Avg. O + Avg. I) / 2``; ``-`` when
  the player has no I, as the paper's Random row).
- A game the player **did not finish** (it was seated in matches of the game, and every
  one of them ended in an error) is ``-`` in both cells and counts as **O = -0.5**, the
  paper's rule for its Checkers column ("models marked with '-' rarely generated valid
  moves ... treated as equivalent to a score of -0.5"), and as **I = 0**, what the paper's
  table shows for those models (every such row has Checkers I 0.00, and its ``Avg. I`` is
  over all eight games), for a player with an I in some other game.
- A game the player never played (no record of it in the files) is left blank and out of
  its averages; the ``games`` column, shown only then, says how many games each
  player's averages are over, since those are not the paper's averages over every game.

Games are in the paper's order (Othello, Pong, Surround, Checkers, TicTacToe, Connect4,
Texas Hold'em, Negotiation v2), other games after them by id; players by ``Avg.`` (then
``Avg. O``) from the highest, the random baseline last, so the table is the same whatever
order the scores come in.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from langgraph_games.eval.scoring.metrics import PlayerRow
from langgraph_games.eval.scoring.tables import markdown_table

__all__ = [
    "PAPER_GAMES",
    "UNFINISHED_I",
    "UNFINISHED_O",
    "CrossGameRow",
    "CrossGameTable",
    "GameCell",
    "build_cross_game",
    "cross_game_from_rows",
]

UNFINISHED_O = -0.5
"""O counted for a game the player did not finish (the paper's Checkers rule)."""

UNFINISHED_I = 0.0
"""I counted for a game the player did not finish (the paper's 0.00 for those models)."""

PAPER_GAMES = (
    "othello",
    "pong",
    "surround",
    "checkers",
    "tictactoe",
    "connect4",
    "texas_holdem",
    "negotiation",
)
"""The paper's game columns, in its order (game ids without version)."""

TITLE = "## GAMEBoT: O and I per game (the paper's Table 2)"
"""The table's section title, as ``report`` and ``leaderboard`` print it."""


@dataclass(frozen=True)
class GameCell:
    """A player's scores in one game.

    Attributes:
        outcome: O, ``None`` when the player did not finish the game.
        intermediate: I, ``None`` without any answer scored (or when not finished).
        finished: Whether the player finished a match of the game.
    """

    outcome: float | None
    intermediate: float | None
    finished: bool = True


@dataclass(frozen=True)
class CrossGameRow:
    """One player's row.

    Attributes:
        player: The player spec.
        cells: Its cell per game it played or did not finish (versioned game id).
        avg_o: ``Avg. O`` (an unfinished game counted as :data:`UNFINISHED_O`).
        avg_i: ``Avg. I`` (an unfinished game counted as :data:`UNFINISHED_I`), ``None``
            when the player has no I.
        avg: ``(avg_o + avg_i) / 2``, ``None`` without ``avg_i``.
        games: How many games the averages are over.
    """

    player: str
    cells: dict[str, GameCell]
    avg_o: float | None
    avg_i: float | None
    avg: float | None
    games: int


def _game_order(game: str) -> tuple[int, str]:
    base = game.split("-v")[0]
    return (PAPER_GAMES.index(base) if base in PAPER_GAMES else len(PAPER_GAMES), game)


@dataclass(frozen=True)
class CrossGameTable:
    """The table: its games (columns) and rows.

    Attributes:
        games: Versioned game ids, in column order.
        rows: One per player.
    """

    games: list[str]
    rows: list[CrossGameRow] = field(default_factory=list)

    @property
    def partial(self) -> bool:
        """Whether some player has no record of some game (the ``games`` column shows)."""
        return any(row.games < len(self.games) for row in self.rows)

    @property
    def unfinished(self) -> list[tuple[str, str]]:
        """``(player, game)`` of every game a player did not finish."""
        return [
            (row.player, game)
            for row in self.rows
            for game, cell in row.cells.items()
            if not cell.finished
        ]

    def markdown(self) -> str:
        """The section: title, table and the notes on how its averages are made."""
        headers = ["player"]
        for game in self.games:
            headers += [f"{game} O", f"{game} I"]
        headers += ["Avg. O", "Avg. I", "Avg."]
        if self.partial:
            headers.append("games")
        body: list[list[Any]] = []
        for row in self.rows:
            line: list[Any] = [row.player]
            for game in self.games:
                cell = row.cells.get(game)
                line += ["", ""] if cell is None else [cell.outcome, cell.intermediate]
            line += [row.avg_o, row.avg_i, row.avg]
            if self.partial:
                line.append(f"{row.games}/{len(self.games)}")
            body.append(line)
        notes = [
            "Avg. O and Avg. I: the means of each player's O and I over its games; Avg.: "
            "their mean (GAMEBoT's Table 2). '-' for I: no answer scored (a player "
            "without subproblem answers has no Avg. I or Avg.)."
        ]
        if self.unfinished:
            listed = ", ".join(f"{player} in {game}" for player, game in self.unfinished)
            notes.append(
                f"Did not finish ('-' in both cells; every match ended in an error): "
                f"{listed}. As in the paper's Checkers column, such a game counts as "
                f"O = {UNFINISHED_O:g} in Avg. O, and as I = {UNFINISHED_I:g} in Avg. I for "
                "a player with an I in another game."
            )
        if self.partial:
            notes.append(
                "games: how many games a player's averages are over; a blank cell is a "
                "game it did not play, left out of its averages (which are then not the "
                "paper's averages over every game)."
            )
        return f"{TITLE}\n\n{markdown_table(headers, body)}\n\n" + "\n\n".join(notes) + "\n"

    def to_dict(self) -> dict[str, Any]:
        """The table as plain data (for ``leaderboard.json``)."""
        return {
            "games": list(self.games),
            "rows": [
                {
                    "player": row.player,
                    "cells": {
                        game: {
                            "O": cell.outcome,
                            "I": cell.intermediate,
                            "finished": cell.finished,
                        }
                        for game, cell in row.cells.items()
                    },
                    "avg_O": row.avg_o,
                    "avg_I": row.avg_i,
                    "avg": row.avg,
                    "games": row.games,
                }
                for row in self.rows
            ],
        }


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def build_cross_game(
    scores: Iterable[tuple[str, str, float, float | None]],
    unfinished: Iterable[tuple[str, str]] = (),
) -> CrossGameTable:
    """The cross-game table of some players' per-game scores.

    Args:
        scores: ``(player, versioned game id, O, I)`` of every game a player finished
            a match of (``I`` ``None`` without answers).
        unfinished: ``(player, versioned game id)`` of the games a player was seated in
            but finished no match of; ignored where ``scores`` has the pair.

    Example:
        >>> table = build_cross_game(
        ...     [("m", "othello-v1", 0.5, 0.25), ("m", "pong-v1", 0.1, 0.75)],
        ...     unfinished=[("m", "checkers-v1")],
        ... )
        >>> row = table.rows[0]
        >>> table.games, round(row.avg_o, 4), round(row.avg_i, 4), round(row.avg, 4)
        (['othello-v1', 'pong-v1', 'checkers-v1'], 0.0333, 0.3333, 0.1833)
    """
    cells: dict[str, dict[str, GameCell]] = {}
    for player, game, outcome, intermediate in scores:
        cells.setdefault(player, {})[game] = GameCell(float(outcome), intermediate)
    for player, game in unfinished:
        row = cells.setdefault(player, {})
        if game not in row:
            row[game] = GameCell(None, None, finished=False)
    games = sorted({game for row in cells.values() for game in row}, key=_game_order)
    rows = []
    for player in cells:
        mine = {game: cells[player][game] for game in games if game in cells[player]}
        answered = any(cell.intermediate is not None for cell in mine.values())
        outcomes = [UNFINISHED_O if c.outcome is None else c.outcome for c in mine.values()]
        intermediates = [
            c.intermediate if c.finished else UNFINISHED_I
            for c in mine.values()
            if c.intermediate is not None or (not c.finished and answered)
        ]
        avg_o, avg_i = _mean(outcomes), _mean([float(v) for v in intermediates if v is not None])
        avg = None if avg_o is None or avg_i is None else (avg_o + avg_i) / 2
        rows.append(CrossGameRow(player, mine, avg_o, avg_i, avg, len(mine)))
    rows.sort(key=_rank)
    return CrossGameTable(games, rows)


def _rank(row: CrossGameRow) -> tuple[bool, bool, float, bool, float, str]:
    """Baseline last; then by Avg., then Avg. O, from the highest; then by name."""
    return (
        row.player.startswith("random"),
        row.avg is None,
        -(row.avg or 0.0),
        row.avg_o is None,
        -(row.avg_o or 0.0),
        row.player,
    )


def cross_game_from_rows(
    rows: Sequence[PlayerRow], unfinished: Mapping[str, Iterable[str]] | None = None
) -> CrossGameTable:
    """The table of arena rows (each with its ``game``) and unfinished players by game."""
    scores = [
        (
            str(r["player"]),
            str(r["game"]),
            float(r["O"]),
            None if r["I"] is None else float(r["I"]),
        )
        for r in rows
    ]
    missing = [(player, game) for game, players in (unfinished or {}).items() for player in players]
    return build_cross_game(scores, missing)
