"""Messenger's parts: a typed move by name and its action universe; it has an objective."""

from __future__ import annotations

from langgraph_games.games.parts import GameParts, fixed_actions
from langgraph_games.games.smartplay.messenger.rules import ACTIONS
from langgraph_games.games.smartplay.parts import smartplay_schema

__all__ = ["PARTS"]

PARTS = {"messenger": GameParts(smartplay_schema, fixed_actions(ACTIONS), objective=True)}
