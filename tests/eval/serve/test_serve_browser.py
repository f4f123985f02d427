"""The play page in headless chromium: a whole TicTacToe game clicked through."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from cdp import Browser
from langgraph_games.eval.running.records import load_results
from langgraph_games.eval.serve.app import PlayServer
from langgraph_games.graphs import gamebot_player
from langgraph_games.models import ScriptedChatModel
from support import install_scripted_strategies, install_strategy, oracle


def _wait(browser: Browser, expression: str, timeout_s: float = 30) -> Any:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = browser.evaluate(expression)
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"{expression} stayed false for {timeout_s} s")


def _idle(browser: Browser) -> None:
    _wait(browser, "!document.body.classList.contains('busy')")


def test_a_whole_tictactoe_game_is_clicked_through_and_recorded(
    browser: Browser, server: PlayServer, tmp_path: Path
) -> None:
    browser.open(server.url)
    _wait(browser, "document.querySelectorAll('#game option').length > 0")
    assert browser.evaluate("document.getElementById('game').value") == "tictactoe"
    assert "minimax" in browser.evaluate(
        "[...document.querySelectorAll('#players option')].map(o => o.value)"
    )
    browser.evaluate("document.getElementById('opponent').value = 'minimax'")
    browser.click("#start")
    _wait(browser, "document.querySelectorAll('#board td').length === 9")
    clicked = []
    for _ in range(5):
        _idle(browser)
        if browser.evaluate("document.getElementById('outcome').textContent"):
            break
        cell = browser.evaluate("document.querySelector('#board td button').dataset.move")
        clicked.append(cell)
        browser.click("#board td button")
        _wait(browser, f"!document.querySelector('#board button[data-move=\"{cell}\"]')")
    _idle(browser)
    outcome = browser.evaluate("document.getElementById('outcome').textContent")
    assert outcome.startswith("O (minimax) wins (finished, ")
    assert browser.evaluate("document.getElementById('status').textContent") == "Game over."
    assert browser.evaluate("document.querySelectorAll('#board button').length") == 0
    marks = browser.evaluate("[...document.querySelectorAll('#board td')].map(t => t.textContent)")

    [record] = load_results([tmp_path / "serve.jsonl"], kinds=("match",)).of_kind("match")
    actions = record["result"]["record"]["actions"]
    assert actions[0::2] == clicked and record["seats"] == ["human", "minimax"]
    for number, action in enumerate(actions):
        row, col = (int(x) for x in action.strip("()").split(","))
        assert marks[row * 3 + col] == "XO"[number % 2]
    assert record["result"]["winners"] == [1]

    href = browser.evaluate("document.getElementById('replay').getAttribute('href')")
    assert href == f"/replays/tictactoe-{record['match_id']}.html"
    browser.click("#replay")
    loaded = "location.pathname.startsWith('/replays/') && document.readyState == 'complete'"
    _wait(browser, loaded)
    title = browser.evaluate("document.title")
    assert record["match_id"] in title, json.dumps(title)


def test_the_page_shows_an_llm_agents_reasoning_and_marked_answers(
    browser: Browser, server: PlayServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    install_scripted_strategies(monkeypatch)  # 'sloppy': the truth plus a bogus cell (9,9)
    browser.open(server.url)
    _wait(browser, "document.querySelectorAll('#game option').length > 0")
    browser.evaluate(
        "document.getElementById('opponent').value = 'sloppy';"
        "document.getElementById('seat').value = '1'"
    )
    browser.click("#start")
    _wait(browser, "document.querySelectorAll('#answers tbody tr').length === 2")
    assert browser.evaluate("document.getElementById('agent-move').textContent") == (
        "Played (0,0) (ok)"
    )
    rows = browser.evaluate(
        "[...document.querySelectorAll('#answers tbody tr')]"
        ".map(r => [...r.children].map(c => c.textContent))"
    )
    assert rows == [["1", "(9,9)", "none", "\u2717 wrong"], ["2", "(9,9)", "none", "\u2717 wrong"]]
    reasoning = browser.evaluate("document.getElementById('reasoning').textContent")
    assert "[Intermediate Thinking Results 1: (9,9)]" in reasoning
    assert "**Chosen Move**: (0,0)" in reasoning


def test_while_the_agent_thinks_the_clicked_cell_and_the_status_say_so(
    browser: Browser, server: PlayServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = threading.Event()  # the agent's model answers only once the test opens it
    asked = threading.Event()
    right = oracle("right")

    def slow(messages: Any) -> str:
        asked.set()
        if not gate.wait(60):
            raise TimeoutError("the test never released the agent")
        return right(messages)

    def build(model: Any, game: Any, name: str) -> Any:
        return gamebot_player(ScriptedChatModel(script=slow), game, name=name)

    install_strategy(monkeypatch, "slow", build)
    try:
        browser.open(server.url)
        _wait(browser, "document.querySelectorAll('#game option').length > 0")
        browser.evaluate("document.getElementById('opponent').value = 'slow'")
        browser.click("#start")
        _wait(browser, "document.querySelectorAll('#board td button').length === 9")
        _idle(browser)
        browser.click("#board td button")  # the first free cell, (0,0)
        assert asked.wait(30)  # the agent is deciding now, and cannot answer yet
        status = browser.evaluate("document.getElementById('status').textContent")
        assert status == "You played (0,0); O (slow:local) is thinking\u2026"
        pending = browser.evaluate(
            "[...document.querySelectorAll('#board td.pending')].map(t => [t.dataset.cell, "
            "t.textContent])"
        )
        assert pending == [["0,0", "X"]]
        assert browser.evaluate("document.querySelectorAll('#board button:enabled').length") == 0
        gate.set()
        _idle(browser)
        assert browser.evaluate("document.getElementById('status').textContent").startswith(
            "Your move"
        )
        assert browser.evaluate("document.querySelectorAll('#board td.pending').length") == 0
        marks = browser.evaluate(
            "[...document.querySelectorAll('#board td')].map(t => t.textContent).join('')"
        )
        assert marks.count("X") == 1 and marks.count("O") == 1
    finally:
        gate.set()
