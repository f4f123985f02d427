"""Replays: self-contained HTML pages to step through a match or an episode in a browser.

The panels and the drawer registry live in :mod:`langgraph_games.games.replay_frames`
(each game draws itself, in its own package's ``replay`` module); they are re-exported here.
"""

from __future__ import annotations

from langgraph_games.eval.reports.replay.build import build_replay, outcome_text, record_id
from langgraph_games.eval.reports.replay.page import ReplaySet, render_page, write_replays
from langgraph_games.games.replay_frames import (
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
