"""``play`` says ``thinking...`` on stderr while a model decides; ``-q`` does not."""

from __future__ import annotations

import contextlib
import io
import re

import pytest

from langgraph_games.cli import main
from support import install_scripted_strategies


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _play(monkeypatch: pytest.MonkeyPatch, *extra: str, stderr: io.StringIO | None = None) -> str:
    install_scripted_strategies(monkeypatch)
    both = io.StringIO()
    with contextlib.redirect_stdout(both), contextlib.redirect_stderr(stderr or both):
        assert main(["play", "tictactoe", "--players", "perfect", "random", *extra]) == 0
    return both.getvalue()


def test_each_model_call_says_thinking_before_its_move(monkeypatch: pytest.MonkeyPatch) -> None:
    text = _play(monkeypatch)
    decisions = int(re.search(r"X \(perfect\): (\d+) decisions", text).group(1))  # type: ignore[union-attr]
    assert text.count("thinking...") == decisions > 0  # one model call per decision
    # Each of X's moves comes after a thinking line, and no thinking line precedes O's.
    for match in re.finditer(r"\nMove \d+: (X|O) plays", text):
        before = text[: match.start()].rsplit("\nMove ", 1)[-1]
        assert ("thinking..." in before) == (match.group(1) == "X"), before


def test_on_a_terminal_the_line_is_cleared_when_the_answer_comes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    terminal = Terminal()
    _play(monkeypatch, stderr=terminal)
    err = terminal.getvalue()
    calls = err.count("\rthinking...")
    assert calls > 0 and err.count("\r\x1b[K") == calls and "\n" not in err


def test_quiet_play_shows_no_thinking(monkeypatch: pytest.MonkeyPatch) -> None:
    assert "thinking" not in _play(monkeypatch, "-q")
