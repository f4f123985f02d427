"""What a replay draws for one game state: panels, and the registry of drawing functions.

A *drawing function* takes an engine and one of its states and returns a list of panels:

- :class:`Grid`: a board of one character per cell, drawn as SVG from a palette that maps
  each character to a :class:`CellStyle` (fill, a shape such as a disc, a label);
- :class:`Table`: rows of text (cards, chips, offers, machines, inventories);
- :class:`Text`: preformatted text (the game's ``render()`` view, Crafter's descriptor).

Panels are plain data; the page's script turns them into SVG and HTML, and marks the
cells that changed since the previous step. Adding a game is one function, in the
``replay`` module of the game's own package (``games/pong/replay.py``)::

    @drawer("pong")
    def draw_pong(game, state):
        return [Grid(rows=..., palette=PONG_PALETTE), Text(game.render(state))]

:func:`drawer_for` imports that module the first time a game's drawing is asked for: the
package of the module that defines the game's class (the module itself when it is a
package, else the package holding it), so a plugin game's package can ship one too.
Games without a drawing function get :func:`draw_fallback`: their ``render()`` text, so
every registered game (and any plugin game) can be replayed.

This module sits in :mod:`langgraph_games.games` because the games draw themselves; the
replay page (:mod:`langgraph_games.eval.reports.replay`) only reads the panels.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from langgraph_games._json import JsonObject
from langgraph_games.games.base import Game
from langgraph_games.games.parts import companion_module
from langgraph_games.games.state import GameState

__all__ = [
    "SHAPES",
    "CellStyle",
    "Drawer",
    "Grid",
    "Panel",
    "Table",
    "Text",
    "board_grid",
    "draw",
    "draw_fallback",
    "drawer",
    "drawer_for",
    "index_labels",
    "split_rows",
    "status_caption",
]

SHAPES = ("", "disc", "ring", "square", "diamond", "cross")
"""Shapes the page can draw inside a cell (``""``: none)."""


@dataclass(frozen=True)
class CellStyle:
    """How one character of a :class:`Grid` is drawn.

    Attributes:
        name: What the character means (shown in the legend; empty: not listed).
        fill: Background colour of the cell.
        shape: One of :data:`SHAPES`, drawn in ``color``.
        color: Colour of the shape.
        text: A short label drawn on top (e.g. ``"K"`` for a king, a mine count).
        text_color: Colour of the label.
    """

    name: str = ""
    fill: str = "#ffffff"
    shape: str = ""
    color: str = "#000000"
    text: str = ""
    text_color: str = "#000000"

    def __post_init__(self) -> None:
        if self.shape not in SHAPES:
            raise ValueError(f"unknown shape {self.shape!r}; shapes are {SHAPES}")

    def to_json(self) -> dict[str, str]:
        """The page's form of the style."""
        return {
            "name": self.name,
            "fill": self.fill,
            "shape": self.shape,
            "color": self.color,
            "text": self.text,
            "textColor": self.text_color,
        }


@dataclass(frozen=True)
class Grid:
    """A board: one character per cell, drawn with a palette.

    Attributes:
        rows: The rows, top first, all of the same length.
        palette: Style of each character (characters without a style are drawn as text).
        row_labels: Labels left of the rows (``None``: none).
        col_labels: Labels above the columns.
        dim: Rows of ``"0"``/``"1"`` of the same shape; ``"1"`` greys the cell out (e.g.
            cells the agent has not seen yet).
        caption: A line under the board.
    """

    rows: Sequence[str]
    palette: Mapping[str, CellStyle]
    row_labels: Sequence[str] | None = None
    col_labels: Sequence[str] | None = None
    dim: Sequence[str] | None = None
    caption: str = ""

    def __post_init__(self) -> None:
        widths = {len(row) for row in self.rows}
        if len(widths) > 1:
            raise ValueError(f"grid rows differ in length: {sorted(widths)}")
        if self.dim is not None and [len(r) for r in self.dim] != [len(r) for r in self.rows]:
            raise ValueError("dim must have the shape of rows")

    def to_json(self, palette_id: str) -> JsonObject:
        """The page's form, with the palette given by reference."""
        data: JsonObject = {"kind": "grid", "rows": list(self.rows), "palette": palette_id}
        if self.row_labels is not None:
            data["rowLabels"] = list(self.row_labels)
        if self.col_labels is not None:
            data["colLabels"] = list(self.col_labels)
        if self.dim is not None and any("1" in row for row in self.dim):
            data["dim"] = list(self.dim)
        if self.caption:
            data["caption"] = self.caption
        return data


@dataclass(frozen=True)
class Table:
    """Rows of text with headers."""

    headers: Sequence[str]
    rows: Sequence[Sequence[object]]
    caption: str = ""

    def to_json(self) -> JsonObject:
        """The page's form."""
        return {
            "kind": "table",
            "headers": [str(h) for h in self.headers],
            "rows": [[str(c) for c in row] for row in self.rows],
            "caption": self.caption,
        }


@dataclass(frozen=True)
class Text:
    """Preformatted text."""

    text: str
    caption: str = ""

    def to_json(self) -> JsonObject:
        """The page's form."""
        return {"kind": "text", "text": self.text, "caption": self.caption}


Panel = Grid | Table | Text
Drawer = Callable[[Game[GameState], GameState], list[Panel]]

_DRAWERS: dict[str, Drawer] = {}
_SEARCHED: set[str] = set()


def drawer(*game_ids: str) -> Callable[[Drawer], Drawer]:
    """Register a drawing function for games (ids without version).

    Raises:
        ValueError: A game already has a drawing function.
    """

    def register(function: Drawer) -> Drawer:
        for game_id in game_ids:
            if game_id in _DRAWERS and _DRAWERS[game_id] is not function:
                raise ValueError(f"game {game_id!r} already has a drawing function")
            _DRAWERS[game_id] = function
        return function

    return register


def draw_fallback(game: Game[GameState], state: GameState) -> list[Panel]:
    """Any game: its ``render()`` text."""
    return [Text(game.render(state))]


def drawer_for(game_id: str) -> Drawer:
    """The drawing function of a game id (with or without version), else the fallback.

    The first time a game is asked for, the ``replay`` module of its package is imported
    (if it has one) for the drawing functions it registers.
    """
    base = game_id.split("-v")[0]
    if base not in _DRAWERS and base not in _SEARCHED:
        _SEARCHED.add(base)
        name = companion_module(base, "replay")
        if name is not None:
            importlib.import_module(name)
    return _DRAWERS.get(base, draw_fallback)


def draw(game: Game[GameState], state: GameState) -> list[Panel]:
    """The panels of ``state``; a drawing function that fails falls back to the text view.

    A failing drawing function must not cost a person the replay of a long run, so its
    error is shown in a caption instead of being raised.
    """
    function = drawer_for(game.id)
    if function is draw_fallback:
        return draw_fallback(game, state)
    try:
        return function(game, state)
    except Exception as exc:  # noqa: BLE001 - shown on the page, the text view stands in
        return [Text(game.render(state), caption=f"(drawing failed: {type(exc).__name__}: {exc})")]


def split_rows(cells: str, width: int) -> list[str]:
    """A board string cut into rows of ``width`` cells."""
    return [cells[i : i + width] for i in range(0, len(cells), width)]


def index_labels(n: int) -> list[str]:
    """Row or column labels ``0`` to ``n - 1``."""
    return [str(i) for i in range(n)]


def status_caption(game: Game[GameState], state: GameState) -> str:
    """Who moves next, or who won (a board game's caption)."""
    if game.is_terminal(state):
        returns = game.returns(state)
        best = max(returns)
        if best == min(returns):
            return "game over: draw"
        winner = returns.index(best)
        return f"game over: {game.player_label(winner)} wins"
    movers = ", ".join(game.player_label(p) for p in game.current_players(state))
    return f"{movers} to move"


def board_grid(
    game: Game[GameState],
    state: GameState,
    palette: Mapping[str, CellStyle],
    width: int,
    *,
    cells: str | None = None,
    row_labels: Sequence[str] | None = None,
    col_labels: Sequence[str] | None = None,
    bottom_up: bool = False,
    caption_prefix: str = "",
) -> Grid:
    """A board game's grid: a board string in rows of ``width``, captioned with the status.

    Args:
        game: The engine (for :func:`status_caption`).
        state: A state with a ``board`` string, one character per cell, row 0 first.
        palette: Style of each character.
        width: Cells per row.
        cells: What to draw instead of ``state.board`` (same length).
        row_labels: Labels of the rows, row 0 first (default ``0`` to ``n - 1``).
        col_labels: Labels of the columns (default ``0`` to ``width - 1``).
        bottom_up: Draw row 0 at the bottom (labels follow their rows).
        caption_prefix: Text put before the status, ``"; "`` between them.

    Returns:
        The :class:`Grid` panel.
    """
    board: str = state.board if cells is None else cells  # type: ignore[attr-defined]
    rows = split_rows(board, width)
    labels = list(row_labels) if row_labels is not None else index_labels(len(rows))
    if bottom_up:
        rows, labels = rows[::-1], labels[::-1]
    status = status_caption(game, state)
    return Grid(
        rows,
        palette,
        row_labels=labels,
        col_labels=list(col_labels) if col_labels is not None else index_labels(width),
        caption=f"{caption_prefix}; {status}" if caption_prefix else status,
    )


def palette_key(palette: Mapping[str, CellStyle]) -> tuple[tuple[str, CellStyle], ...]:
    """A hashable key of a palette (pages store each distinct palette once)."""
    return tuple(sorted(palette.items()))


@dataclass
class PaletteTable:
    """Distinct palettes of a page, each stored once and referred to by id."""

    ids: dict[tuple[tuple[str, CellStyle], ...], str] = field(default_factory=dict)
    data: dict[str, dict[str, dict[str, str]]] = field(default_factory=dict)

    def ref(self, palette: Mapping[str, CellStyle]) -> str:
        """The id of ``palette``, adding it on first use."""
        key = palette_key(palette)
        if key not in self.ids:
            palette_id = f"p{len(self.ids)}"
            self.ids[key] = palette_id
            self.data[palette_id] = {ch: style.to_json() for ch, style in palette.items()}
        return self.ids[key]

    def panel_json(self, panel: Panel) -> JsonObject:
        """A panel's page form."""
        if isinstance(panel, Grid):
            return panel.to_json(self.ref(panel.palette))
        return panel.to_json()
