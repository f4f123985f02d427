"""The paper's cross-game table: its Avg. rule, and the table recomputed from raw records."""

from __future__ import annotations

import asyncio
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from langgraph_games.cli import main
from langgraph_games.eval import run_arena
from langgraph_games.eval.protocols.plans import plan_arena
from langgraph_games.eval.scoring.cross_game import UNFINISHED_O, build_cross_game
from langgraph_games.graphs import gamebot_player
from langgraph_games.models import ScriptedChatModel
from support import install_scripted_strategies, install_strategy, oracle

PAPER_GAMES = [
    "othello",
    "pong",
    "surround",
    "checkers",
    "tictactoe",
    "connect4",
    "texas_holdem",
    "negotiation",
]

# Rows of the paper's Table 2: (O, I) per game in its order; None: "-".
TABLE_2 = {
    "GPT-4o": [
        (0.35, 0.44), (0.45, 0.92), (0.62, 0.43), (0.27, 0.27),
        (0.34, 0.61), (0.45, 0.18), (0.50, 0.85), (0.35, 0.44),
    ],
    "Reka Core": [
        (-0.11, 0.02), (-0.15, 0.80), (-0.45, 0.05), None,
        (-0.12, 0.03), (0.23, 0.04), (0.12, 0.16), (-0.28, 0.27),
    ],
    "Reka Flash": [
        (-0.35, 0.00), (-0.25, 0.70), (-0.38, 0.04), None,
        (-0.27, 0.04), (-0.15, 0.03), (-0.45, 0.31), (-0.09, 0.07),
    ],
    "random": [
        (-0.27, None), (-0.53, None), (-0.44, None), (-0.01, None),
        (-0.39, None), (-0.49, None), (-0.56, None), (-0.47, None),
    ],
}  # fmt: skip
# Their Avg. O, Avg. I and Avg. as printed.
TABLE_2_AVERAGES = {
    "GPT-4o": (0.42, 0.52, 0.47),
    "Reka Core": (-0.16, 0.17, 0.01),
    "Reka Flash": (-0.31, 0.15, -0.08),
    "random": (-0.40, None, None),
}


def test_the_papers_averages_with_its_rule_for_an_unfinished_checkers() -> None:
    scores = []
    unfinished = []
    for player, cells in TABLE_2.items():
        for game, cell in zip(PAPER_GAMES, cells, strict=True):
            if cell is None:
                unfinished.append((player, game))
            else:
                scores.append((player, game, *cell))
    table = build_cross_game(scores, unfinished)
    rows = {row.player: row for row in table.rows}
    for player, (avg_o, avg_i, avg) in TABLE_2_AVERAGES.items():
        row = rows[player]
        assert row.avg_o == pytest.approx(avg_o, abs=0.0051)  # the paper prints 2 decimals
        assert row.games == 8
        if avg_i is None:
            assert row.avg_i is None and row.avg is None
        else:
            assert row.avg_i == pytest.approx(avg_i, abs=0.0051)
            assert row.avg == pytest.approx(avg, abs=0.0051)
    # Without the rule (Checkers left out), Reka Flash's Avg. O would be -0.28, not -0.31.
    flash = [o for cell in TABLE_2["Reka Flash"] if cell is not None for o in cell[:1]]
    assert sum(flash) / len(flash) == pytest.approx(-0.277, abs=0.001)
    assert rows["Reka Flash"].avg_o == pytest.approx((sum(flash) + UNFINISHED_O) / 8)
    assert [row.player for row in table.rows] == ["GPT-4o", "Reka Core", "Reka Flash", "random"]
    text = table.markdown()
    assert table.games == PAPER_GAMES  # the paper's column order
    flash_row = _printed(text)["Reka Flash"]
    assert (flash_row["othello O"], flash_row["othello I"]) == ("-0.35", "0.00")
    assert flash_row["checkers O"] == flash_row["checkers I"] == "-"
    assert (flash_row["Avg. I"], flash_row["Avg."]) == ("0.15", "-0.08")
    assert "Did not finish ('-' in both cells; every match ended in an error): Reka Core " in text
    assert "games |" not in text  # every player has every game


def test_a_game_a_player_never_played_is_blank_and_counted_in_the_games_column() -> None:
    table = build_cross_game(
        [("a", "tictactoe-v1", 0.5, 0.5), ("b", "tictactoe-v1", -0.5, 0.25)],
        [("b", "connect4-v1")],
    )
    assert table.games == ["tictactoe-v1", "connect4-v1"]  # the paper's order
    a, b = table.rows
    assert (a.player, a.games, a.avg_o, a.avg_i, a.avg) == ("a", 1, 0.5, 0.5, 0.5)
    # b did not finish connect4: O -0.5 and I 0 there (it has an I in tictactoe).
    assert (b.games, b.avg_o, b.avg_i) == (2, -0.5, 0.125)
    text = table.markdown()
    rows = {
        cells[0]: cells[1:]
        for line in text.splitlines()
        if line.startswith("| ")
        for cells in [[cell.strip() for cell in line.strip("|").split("|")]]
    }
    assert rows["a"][:3] == ["0.50", "0.50", ""]
    assert rows["a"][-1] == "1/2" and rows["b"][-1] == "2/2"


# ----- the table recomputed from the raw records of real runs -------------------------

NONE_ANSWER = (
    "[Intermediate Thinking Results 1: None]\n[Intermediate Thinking Results 2: None]\n"
    "**Chosen Move**: (0,0)"
)


def _install(monkeypatch: pytest.MonkeyPatch) -> None:
    install_scripted_strategies(monkeypatch)

    def nonesayer(model, game, name):  # type: ignore[no-untyped-def]
        return gamebot_player(ScriptedChatModel(script=lambda _: NONE_ANSWER), game, name=name)

    def tictactoe_only(model, game, name):  # type: ignore[no-untyped-def]
        if game.id == "tictactoe":
            return gamebot_player(ScriptedChatModel(script=oracle("right")), game, name=name)
        dead = ScriptedChatModel(responses=[ConnectionError("endpoint down")])
        return gamebot_player(dead, game, name=name, retry_delay_s=0.001)

    install_strategy(monkeypatch, "nonesayer", nonesayer, "answers None, plays (0,0)")
    install_strategy(monkeypatch, "ttt_only", tictactoe_only, "fails but at TicTacToe")


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """TicTacToe and Connect4 arenas (paper protocol, 2 matches a pair); one player's
    every Connect4 match fails."""
    out = tmp_path_factory.mktemp("cross")
    specs = [
        plan_arena("tictactoe", ["perfect", "sloppy", "nonesayer", "ttt_only"], matches=2),
        plan_arena("connect4", ["nonesayer", "minimax:depth=1", "ttt_only"], matches=2),
    ]

    async def play() -> list[Path]:
        return [(await run_arena(s, out, progress=False)).results_path for s in specs]

    with pytest.MonkeyPatch.context() as monkeypatch:
        _install(monkeypatch)
        return asyncio.run(play())


def _recompute(paths: list[Path]) -> dict[str, dict[str, Any]]:
    """The table from the raw lines: O from the returns (T_j = 1 in both games), I from
    each decision's first answer (micro-F1 of both subproblems, the paper's Appendix C for
    TicTacToe and Connect4), Avg. by the paper's rule."""
    finished: dict[str, list[dict[str, Any]]] = defaultdict(list)
    failed: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for path in paths:
        for line in path.read_text().splitlines():
            record = json.loads(line)
            if record.get("kind") == "match":
                bucket = failed if record["status"] == "error" else finished
                bucket[record["game"]].append(record)
    outcomes: dict[tuple[str, str], list[float]] = defaultdict(list)
    counts: dict[tuple[str, str], dict[int, list[int]]] = defaultdict(dict)
    for game, records in finished.items():
        for record in records:
            for seat, name in enumerate(record["seats"]):
                outcomes[(name, game)].append(float(record["result"]["returns"][seat]))
                for step in record["trajectory"]:
                    decision = step["decisions"].get(str(seat))
                    if decision is None:
                        continue
                    attempts = decision["attempts"]
                    scores = attempts[0]["scores"] if attempts else decision["scores"]
                    for score in scores:
                        tally = counts[(name, game)].setdefault(score["index"], [0, 0, 0])
                        tally[0] += score["tp"]
                        tally[1] += score["fp"]
                        tally[2] += score["fn"]
    cells: dict[str, dict[str, tuple[float | None, float | None]]] = defaultdict(dict)
    for (name, game), values in outcomes.items():
        f1s = [
            1.0 if 2 * tp + fp + fn == 0 else 2 * tp / (2 * tp + fp + fn)
            for tp, fp, fn in counts[(name, game)].values()
        ]
        cells[name][game] = (sum(values) / len(values), sum(f1s) / len(f1s) if f1s else None)
    for game, records in failed.items():
        for record in records:
            for name in record["seats"]:
                cells[name].setdefault(game, (None, None))  # did not finish
    table: dict[str, dict[str, Any]] = {}
    for name, mine in cells.items():
        answered = any(i is not None for _, i in mine.values())
        o_values = [-0.5 if o is None else o for o, _ in mine.values()]
        i_values = [0.0 if o is None else i for o, i in mine.values() if i is not None or o is None]
        avg_o = sum(o_values) / len(o_values)
        avg_i = sum(i_values) / len(i_values) if answered and i_values else None
        table[name] = {
            "cells": mine,
            "avg": (avg_o, avg_i, None if avg_i is None else (avg_o + avg_i) / 2),
        }
    return table


def _printed(text: str) -> dict[str, dict[str, str]]:
    """The printed cross-game table: ``{player: {column: cell}}``."""
    section = text[text.index("## GAMEBoT: O and I per game") :]
    section = section.split("\n#", 1)[0]  # up to the next section (e.g. the cost)
    lines = [line for line in section.splitlines() if line.startswith("| ")]
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    rows = {}
    for line in lines[1:]:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        rows[cells[0]] = dict(zip(header, cells, strict=True))
    return rows


def _check(printed: dict[str, dict[str, str]], expected: dict[str, dict[str, Any]]) -> None:
    def same(cell: str, value: float | None) -> None:
        if value is None:
            assert cell == "-"
        else:
            assert abs(float(cell) - value) <= 0.005 + 1e-9, (cell, value)

    assert set(printed) == set(expected)
    for name, row in expected.items():
        for game in ("tictactoe-v1", "connect4-v1"):
            cell = row["cells"].get(game)
            if cell is None:
                assert printed[name][f"{game} O"] == printed[name][f"{game} I"] == ""
            else:
                same(printed[name][f"{game} O"], cell[0])
                same(printed[name][f"{game} I"], cell[1])
        for column, value in zip(("Avg. O", "Avg. I", "Avg."), row["avg"], strict=True):
            same(printed[name][column], value)
        assert printed[name]["games"] == f"{len(row['cells'])}/2"


def test_report_and_leaderboard_print_the_table_recomputed_from_raw_records(
    files: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    expected = _recompute(files)
    # The run really has each case: a player with I in both games, one that never played
    # Connect4, one that did not finish it, and players without I.
    assert expected["ttt_only"]["cells"]["connect4-v1"] == (None, None)
    assert expected["nonesayer"]["cells"]["connect4-v1"][1] is not None
    assert "connect4-v1" not in expected["perfect"]["cells"]
    assert expected["minimax:depth=1"]["avg"][1] is None
    # ttt_only: O -0.5 and I 0 for Connect4 in its averages.
    ttt_o, ttt_i = expected["ttt_only"]["cells"]["tictactoe-v1"]
    assert expected["ttt_only"]["avg"][:2] == (pytest.approx((ttt_o - 0.5) / 2), ttt_i / 2)

    assert main(["report", *map(str, files), "--out", str(tmp_path / "report"), "--no-plots"]) == 0
    report_text = capsys.readouterr().out
    _check(_printed(report_text), expected)
    assert "Did not finish ('-' in both cells; every match ended in an error): ttt_only in " in (
        report_text
    )

    board = tmp_path / "board"
    argv = ["leaderboard", *map(str, files), "--bootstrap", "0", "--out", str(board)]
    assert main(argv) == 0
    board_text = capsys.readouterr().out
    _check(_printed(board_text), expected)
    section = report_text[report_text.index("## GAMEBoT: O and I") :].split("\n## ")[0]
    assert section.strip() in board_text  # one table, printed by both
    data = json.loads((board / "leaderboard.json").read_text())["cross_game"]
    for row in data["rows"]:
        avg = expected[row["player"]]["avg"]
        assert row["avg_O"] == pytest.approx(avg[0], abs=1e-12)
        assert (row["avg_I"] is None) == (avg[1] is None)
        if avg[1] is not None:
            assert row["avg_I"] == pytest.approx(avg[1], abs=1e-12)
            assert row["avg"] == pytest.approx(avg[2], abs=1e-12)
