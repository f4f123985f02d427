"""Simulating an install without an extra, for the tests of the missing-extra lines.

A missing package is simulated the way Python itself reports one: ``sys.modules[name] =
None`` makes ``importlib.util.find_spec`` answer ``None`` and ``import name`` fail.
"""

from __future__ import annotations

import sys

import pytest


def hide_modules(monkeypatch: pytest.MonkeyPatch, *modules: str) -> None:
    """Make ``modules`` look uninstalled for the rest of the test."""
    for name in modules:
        monkeypatch.setitem(sys.modules, name, None)


def one_line(error: BaseException) -> str:
    """The error's message, checked to be a single line."""
    text = str(error)
    assert "\n" not in text, text
    return text
