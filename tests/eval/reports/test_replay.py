"""Replay pages: page data from records, drawings for every game, the page in a real browser."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

from cdp import Browser
from langgraph_games.cli import main
from langgraph_games.eval import ArenaSpec, ResultsFile, run_arena
from langgraph_games.eval.reports.replay import (
    Grid,
    Text,
    build_replay,
    draw,
    draw_fallback,
    drawer,
    drawer_for,
    render_page,
    write_replays,
)
from langgraph_games.games import GameSession, make
from langgraph_games.games import replay_frames as frames_module
from langgraph_games.games.state import derive_rng

DRAWN = {
    "tictactoe", "connect4", "othello", "checkers", "maze", "match2", "minesweeper",
    "bandit", "rock_paper_scissors", "hanoi", "messenger", "crafter", "pong", "surround",
    "texas_holdem", "negotiation",
}  # fmt: skip


@pytest.fixture
async def scripted_match(tmp_path: Path, scripted_strategies: None) -> dict[str, Any]:
    """One TicTacToe match: ``perfect`` (X) against ``clumsy`` (O, illegal first answer)."""
    spec = ArenaSpec(game="tictactoe", players=["perfect", "clumsy"], matches=1, baseline=False)
    report = await run_arena(spec, tmp_path / "run", progress=False)
    [record] = ResultsFile(report.results_path).read().records
    return record


def test_the_scripted_match_is_what_the_tests_expect(scripted_match: dict[str, Any]) -> None:
    # X takes the first legal cell, O the last one after an illegal first answer.
    assert scripted_match["result"]["record"]["actions"] == [
        "(0,0)", "(2,2)", "(0,1)", "(2,1)", "(0,2)",
    ]  # fmt: skip
    assert scripted_match["result"]["winners"] == [0]


def test_frames_follow_the_states_and_decisions_sit_beside_them(
    scripted_match: dict[str, Any],
) -> None:
    replay = build_replay(scripted_match)
    session = GameSession.from_dict(scripted_match["result"]["record"])
    assert len(replay["steps"]) == len(session.states) == 6
    for step, state in zip(replay["steps"], session.states, strict=True):
        [grid] = step["panels"]
        assert "".join(grid["rows"]) == state.board
        assert step["render"] == session.game.render(state)
    # Each decision is the one taken at that frame's board, with that board's truth.
    for index in range(len(scripted_match["trajectory"])):
        [decision] = replay["steps"][index]["decisions"]
        assert decision["action"] == scripted_match["result"]["record"]["actions"][index]
        truth = session.game.ground_truth(session.states[index], decision["seat"])
        for answer in decision["answers"]:
            assert set(answer["truth"]) == set(truth[answer["index"]])
    assert replay["steps"][-1]["decisions"] == []
    assert replay["outcome"] == "X (perfect) wins (finished, 5 moves)"
    o_first = replay["steps"][1]["decisions"][0]
    assert [a["status"] for a in o_first["attempts"]] == ["illegal", "ok"]
    assert "(7,7)" in o_first["attempts"][0]["raw"][0]
    assert o_first["attempts"][0]["feedback"].startswith("Your answer was rejected")
    # The decision's answers are its first attempt's (what it said before any feedback).
    assert [a["correct"] for a in o_first["answers"]] == [False, True]
    assert o_first["usage"]["calls"] == 2 and o_first["usage"]["input_tokens"] > 0
    x_last = replay["steps"][4]["decisions"][0]
    assert [(a["name"], a["truth"], a["correct"]) for a in x_last["answers"]] == [
        ("my_winning_moves", ["(0,2)"], True),
        ("opponent_winning_moves", ["(2,0)"], True),
    ]


def test_every_registered_game_is_drawn(game_id: str) -> None:
    game = make(game_id)
    session = GameSession(game, seed=3)
    rng = derive_rng("replay-test", game_id)
    for _ in range(4):
        if session.done:
            break
        session.step({p: rng.choice(session.legal_actions(p)) for p in session.current_players})
    panels = draw(game, session.state)
    assert panels
    if game.id in DRAWN:
        assert drawer_for(game.id) is not draw_fallback
        assert any(isinstance(p, Grid | frames_module.Table) for p in panels)
        assert not any(p.caption.startswith("(drawing failed") for p in panels)
    else:  # a game without its own drawing function shows its text view
        assert panels == [Text(game.render(session.state))]
    html = render_page(build_replay(_record_of(session)))
    assert "replay-data" in html


def _record_of(session: GameSession) -> dict[str, Any]:
    return {
        "kind": "episode",
        "episode_id": "e1",
        "game": session.game.versioned_id,
        "seats": ["random"] * session.game.num_players,
        "status": "finished",
        "result": {"status": "finished", "record": session.to_dict(), "returns": [0.0]},
    }


def test_games_without_a_drawing_function_fall_back_and_adding_one_is_one_function() -> None:
    assert drawer_for("tictactoe-v1") is not draw_fallback
    assert drawer_for("not_a_game-v1") is draw_fallback
    game = make("tictactoe")
    state = game.initial_state(0)

    @drawer("test_only_game")
    def draw_test(game: Any, state: Any) -> list[Any]:
        return [Text("drawn")]

    try:
        assert drawer_for("test_only_game-v1") is draw_test
        with pytest.raises(ValueError, match="already has a drawing function"):
            drawer("test_only_game")(draw_fallback)
    finally:
        del frames_module._DRAWERS["test_only_game"]

    def broken(game: Any, state: Any) -> list[Any]:
        raise KeyError("no such field")

    original = frames_module._DRAWERS["tictactoe"]
    frames_module._DRAWERS["tictactoe"] = broken
    try:
        [panel] = draw(game, state)
    finally:
        frames_module._DRAWERS["tictactoe"] = original
    assert isinstance(panel, Text) and panel.text == game.render(state)
    assert panel.caption == "(drawing failed: KeyError: 'no such field')"


def test_pages_are_self_contained(scripted_match: dict[str, Any]) -> None:
    html = render_page(build_replay(scripted_match))
    assert "<link" not in html and "@import" not in html and "url(" not in html
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)
    assert "<script src" not in html
    # The data cannot end its <script> element early, whatever the model wrote.
    hostile = json.loads(json.dumps(scripted_match))
    hostile["trajectory"][0]["decisions"]["0"]["attempts"][0]["raw_outputs"] = [
        "</script><script>alert(1)</script>"
    ]
    page = render_page(build_replay(hostile))
    data = page.split('id="replay-data">', 1)[1].split("</script>", 1)[0]
    assert "alert(1)" in data and "</script>" not in data


def test_replay_command_writes_pages_an_index_and_says_what_it_skipped(
    scripted_match: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "mixed.jsonl"
    other = {**scripted_match, "match_id": "feedbeef00000000", "game": "curling-v1"}
    error = {**scripted_match, "match_id": "dead000000000000", "status": "error",
             "error": "ConnectionError: endpoint down"}  # fmt: skip
    for record in (scripted_match, other, error):
        del_keys = {"result", "trajectory"} if record is error else set()
        ResultsFile(results).append({k: v for k, v in record.items() if k not in del_keys})
    with results.open("a") as handle:
        handle.write('{"kind": "match", "match_id": "trunc')
    out = tmp_path / "replays"
    assert main(["replay", str(results), "--out", str(out)]) == 0
    captured = capsys.readouterr()
    printed = captured.out
    assert captured.err.startswith(
        "warning: 1 record(s) skipped because their game is not registered here: "
        "'curling-v1' (1); registered games: "
    )
    assert "wrote 1 replay page(s)" in printed
    assert "mixed.jsonl line 4: truncated last line (a crashed run)" in printed
    assert "game 'curling-v1' is not registered here" in printed
    assert "dead000000000000 has no game to replay (error: ConnectionError" in printed
    index = (out / "index.html").read_text()
    assert f'href="tictactoe-{scripted_match["match_id"]}.html"' in index
    assert "dead000000000000" in index and "<h2>Skipped</h2>" in index
    prefix = scripted_match["match_id"][:6]
    assert main(["replay", str(results), "--match", prefix, "--out", str(tmp_path / "one")]) == 0
    assert f"replay: {tmp_path / 'one'}" in capsys.readouterr().out
    assert main(["replay", str(results), "--match", "zzz", "--out", str(tmp_path / "x")]) == 2
    assert "no match or episode id starts with 'zzz'; ids: " in capsys.readouterr().err


def _text(browser: Browser, selector: str) -> str:
    return str(browser.evaluate(f"document.querySelector({json.dumps(selector)}).innerText"))


def _board(browser: Browser) -> str:
    return str(
        browser.evaluate(
            "Array.from(document.querySelectorAll('#board .cell')).map(c => c.dataset.v).join('')"
        )
    )


def _marks(browser: Browser) -> list[str]:
    value = browser.evaluate(
        "Array.from(document.querySelectorAll('#decisions tr.answer td.mark'))"
        ".map(td => td.textContent)"
    )
    return [str(v) for v in value]


def test_the_page_in_a_real_browser(
    scripted_match: dict[str, Any], browser: Browser, tmp_path: Path
) -> None:
    written = write_replays([("run.jsonl line 1", scripted_match)], tmp_path / "pages")
    [page] = written.pages
    browser.open(page.as_uri())
    assert _text(browser, "#counter") == "Step 0 / 5"
    assert _board(browser) == "_________"
    assert _text(browser, "#decisions h3") == "X (perfect): (0,0) ok"
    # Keyboard: the right arrow shows O's first decision, with its rejected attempt.
    browser.press("ArrowRight")
    assert _text(browser, "#counter") == "Step 1 / 5"
    assert _board(browser) == "X________"
    assert browser.evaluate("document.querySelector('#board .cell.changed').dataset.v") == "X"
    assert _text(browser, "#moved") == "After X played (0,0) · O to move"
    attempts = browser.evaluate(
        "Array.from(document.querySelectorAll('.attempt')).map(a => a.dataset.status)"
    )
    assert attempts == ["illegal", "ok"]
    feedback = scripted_match["trajectory"][1]["decisions"]["1"]["attempts"][0]["feedback"]
    assert "'(7,7)') is not one of the legal moves" in feedback
    assert _text(browser, ".attempt.rejected .feedback") == f"Feedback: {feedback}"
    assert "I will take the far corner." in _text(browser, ".attempt.rejected pre.reasoning")
    assert _marks(browser) == ["✗ wrong (f1 0.00)", "✓ right (f1 1.00)"]
    assert _text(browser, "table.answers caption").startswith("Intermediate answers of attempt 1")
    assert "tokens in " in _text(browser, ".decision .meta")
    browser.screenshot(shot := tmp_path / "replay-step-1.png")
    print(f"\nscreenshot of the replay page at step 1: {shot}")
    assert shot.stat().st_size > 10_000
    # Buttons, with real mouse events.
    browser.click("#next")
    assert (_text(browser, "#counter"), _board(browser)) == ("Step 2 / 5", "X_______O")
    browser.press("ArrowLeft")
    assert _text(browser, "#counter") == "Step 1 / 5"
    browser.click("#prev")
    assert _text(browser, "#counter") == "Step 0 / 5"
    assert browser.evaluate("document.getElementById('prev').disabled") is True
    browser.press("End")
    assert _board(browser) == "XXX____OO"
    assert _text(browser, "#decisions .final") == "Result: X (perfect) wins (finished, 5 moves)"
    browser.press("Home")
    assert _text(browser, "#counter") == "Step 0 / 5"
    browser.click("#last")
    assert _text(browser, "#counter") == "Step 5 / 5"
    browser.click("#first")
    assert _text(browser, "#counter") == "Step 0 / 5"
    # The slider.
    browser.evaluate(
        "(() => { const s = document.getElementById('slider'); s.value = '4';"
        " s.dispatchEvent(new Event('input')); })()"
    )
    assert (_text(browser, "#counter"), _board(browser)) == ("Step 4 / 5", "XX_____OO")
    assert _marks(browser) == ["✓ right (f1 1.00)", "✓ right (f1 1.00)"]
    # Play runs to the end, pause stops it.
    browser.evaluate("document.getElementById('speed').value = '50'")
    browser.click("#first")
    browser.click("#play")
    assert _text(browser, "#play") == "Pause"
    deadline = time.monotonic() + 10
    while browser.evaluate("window.replay.current()") < 5 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _text(browser, "#counter") == "Step 5 / 5" and _text(browser, "#play") == "Play"
    browser.press("Home")
    browser.press(" ")
    time.sleep(0.2)
    browser.press(" ")
    paused_at = browser.evaluate("window.replay.current()")
    time.sleep(0.2)
    assert browser.evaluate("window.replay.current()") == paused_at > 0
    errors = [e for e in browser.events if e.get("method") == "Runtime.exceptionThrown"]
    assert errors == []
    # The index links to the page.
    browser.open(written.index.as_uri())
    assert browser.evaluate("document.querySelectorAll('#replays a').length") == 1
    assert "X (perfect) wins" in _text(browser, "#replays")


async def test_a_forfeit_sits_on_the_last_frame() -> None:
    from langgraph_games.graphs import EpisodeOptions, gamebot_player, run_episode
    from langgraph_games.models import ScriptedChatModel
    from langgraph_games.players import RandomPlayer

    mute = gamebot_player(ScriptedChatModel(responses=["I would rather not say."]), "tictactoe")
    episode = await run_episode(
        "tictactoe",
        [RandomPlayer(seed=1), mute],
        seed=0,
        options=EpisodeOptions(max_retries=1, fallback="forfeit"),
    )
    record = {"kind": "match", "match_id": "f1", "game": "tictactoe-v1",
              "seats": ["random", "mute"], "status": "forfeit", **episode}  # fmt: skip
    replay = build_replay(record)
    assert len(replay["steps"]) == 2  # the start and X's move; O never moved
    [decision] = replay["steps"][-1]["decisions"]
    assert decision["forfeit"] and decision["label"] == "O"
    assert [a["status"] for a in decision["attempts"]] == ["unparsable", "unparsable"]
    assert replay["outcome"] == "forfeit by O (mute); returns 1, -1"
