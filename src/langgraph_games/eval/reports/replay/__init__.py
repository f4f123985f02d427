"""Replays: self-contained HTML pages to step through a match or an episode in a browser."""

from __future__ import annotations

from langgraph_games.eval.reports.replay.build import build_replay, outcome_text, record_id
from langgraph_games.eval.reports.replay.frames import (
    CellStyle,
    Drawer,
    Grid,
    Panel,
    Table,
    Text,
    draw,
    draw_fallback,
    drawer,
    drawer_for,
)
from langgraph_games.eval.reports.replay.page import ReplaySet, render_page, write_replays

__all__ = [
    "CellStyle",
    "Drawer",
    "Grid",
    "Panel",
    "ReplaySet",
    "Table",
    "Text",
    "build_replay",
    "draw",
    "draw_fallback",
    "drawer",
    "drawer_for",
    "outcome_text",
    "record_id",
    "render_page",
    "write_replays",
]
