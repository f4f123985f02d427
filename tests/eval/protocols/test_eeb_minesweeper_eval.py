"""Paper protocols, the eval runner and the CLI for maze, Match-2 and Minesweeper."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import langgraph_games.eval.running.players as eval_players
from eeb_ms_support import cells_oracle, minesweeper_oracle
from langgraph_games.cli import main
from langgraph_games.eval.protocols.plans import plan_ablation, plan_eval
from langgraph_games.eval.running.runner import run_eval
from langgraph_games.eval.scoring.families import FAMILIES
from langgraph_games.models import ScriptedChatModel
from table_support import table_blocks, tables

GARBAGE = "I would rather not say."


@pytest.fixture
def scripted_models(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Model specs ``garbage``, ``oracle``, ``cells`` and ``maze9`` resolve to scripted models."""
    scripts: dict[str, Any] = {
        "garbage": [GARBAGE],
        "oracle": minesweeper_oracle(),
        "cells": cells_oracle,
        "maze9": ["Right it is. Action: 9"],
    }

    def load(spec: str, **settings: Any) -> ScriptedChatModel:
        script = scripts[spec]
        if callable(script):
            return ScriptedChatModel(script=script, name_=spec)
        return ScriptedChatModel(responses=list(script), name_=spec)

    monkeypatch.setattr(eval_players, "load_chat_model", load)
    return scripts


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["eval", *argv, "-q"])
    out = capsys.readouterr()
    return code, out.out, out.err


def rows(table: str) -> dict[str, list[str]]:
    """``{label: cells}`` of the body rows of every Markdown table in ``table``."""
    out = {}
    for header, *body in tables(table):
        if header[:2] == ["player", "calls"]:  # the cost table, printed after the others
            continue
        for cells in body:
            if header[:2] == ["Mines", "Model"]:  # Table 1's layout
                out[f"{cells[0]} | {cells[1]}"] = cells[2:]
            else:
                out[cells[0]] = cells[1:]
    return out


# ----- protocols ------------------------------------------------------------------------


def test_paper_defaults_per_game() -> None:
    maze = plan_eval("maze", "maze_explorer", level=2)
    assert maze.options == {"map_set": "eval", "level": 2}
    assert maze.sweep == {"map_index": list(range(1, 31))} and maze.repeats == 1
    assert maze.episode.max_retries == 0 and maze.episode.fallback == "game"
    assert len(plan_eval("maze", "maze_explorer").schedule()) == 90
    match2 = plan_eval("match2", "match2_greedy", level="hard")
    assert match2.options == {"map_set": "eval", "difficulty": "hard"}
    assert len(match2.schedule()) == 30 and match2.episode.max_retries == 2
    assert set(plan_eval("match2", "match2_greedy").sweep) == {"map_index", "difficulty"}
    mines = plan_eval("minesweeper", "minesweeper_solver")
    assert mines.options == {"rows": 9, "cols": 9} and mines.sweep == {"mines": [1, 2, 3]}
    assert mines.repeats == 10 and mines.episode.max_retries == 0
    assert [seed for _, _, seed in mines.schedule()][:10] == list(range(10))


def test_explicit_choices_win_over_the_protocol() -> None:
    one_map = plan_eval("maze", "maze_explorer", options={"level": 3, "map_index": 5})
    assert one_map.sweep == {} and one_map.options["map_index"] == 5 and one_map.repeats == 10
    generated = plan_eval("maze", "maze_explorer", level=1, options={"map_set": "generated"})
    assert generated.sweep == {} and generated.repeats == 10
    assert plan_eval("minesweeper", "x", options={"mines": 2}).sweep == {}
    swept = plan_eval("minesweeper", "x", sweep={"mines": [4]}, episodes=3, max_retries=1)
    assert (swept.sweep, swept.repeats, swept.episode.max_retries) == ({"mines": [4]}, 3, 1)
    other = plan_eval("bandit", "random")
    assert (other.sweep, other.repeats, other.episode.max_retries) == ({}, 10, 2)


def test_ablation_rows() -> None:
    table1 = plan_ablation("minesweeper", "openai:gpt-4o")
    assert [(s.row_label, s.agent) for s in table1] == [
        ("Baseline", "minesweeper:variant=baseline:openai:gpt-4o"),
        ("+ Examples", "minesweeper:variant=examples:openai:gpt-4o"),
        ("+ Step Back Prompting", "minesweeper:variant=step_back:openai:gpt-4o"),
        ("+ Tips and Tricks", "minesweeper:variant=tips:openai:gpt-4o"),
        ("+ Memory", "minesweeper:variant=memory:openai:gpt-4o"),
    ]
    maze = plan_ablation("maze", "eeb:local", level=1)
    assert [(s.row_label, s.options.get("full_vision")) for s in maze] == [
        ("EEB", None),
        ("Full-Vision", True),
    ]
    assert [s.options.get("props") for s in plan_ablation("match2", "eeb")] == [None, False]
    with pytest.raises(ValueError, match="No paper ablation"):
        plan_ablation("tictactoe", "gamebot")


# ----- the runner with scripted models ------------------------------------------------


async def test_eeb_agent_through_the_runner(tmp_path: Path, scripted_models: Any) -> None:
    spec = plan_eval(
        "maze", "eeb:maze9", level=1, sweep={"map_index": [1, 2]}, options={"max_steps": 6}
    )
    report = await run_eval(spec, tmp_path, progress=False)
    assert (report.played, report.errors) == (2, 0)
    for m in report.metrics:
        assert m["steps"] <= 6 and m["api_calls"] == m["steps"]
    table = rows(report.table)
    assert table["eeb:maze9"][0] == "2"
    again = await run_eval(spec, tmp_path, progress=False)
    assert (again.played, again.skipped) == (0, 2)


async def test_re_asked_minesweeper_answers_count_as_steps(
    tmp_path: Path, scripted_models: Any
) -> None:
    spec = plan_eval(
        "minesweeper",
        "minesweeper:variant=baseline:garbage",
        options={"mines": 1},
        episodes=1,
        max_retries=1,
    )
    report = await run_eval(spec, tmp_path, progress=False)
    [m] = report.metrics
    # Five decisions, two answers each: the fallback's invalid step stands for one, the
    # re-asked one adds a step and an invalid step of its own.
    assert (m["win"], m["steps"], m["invalid_steps"]) == (False, 10, 10)
    paper = plan_eval(
        "minesweeper", "minesweeper:variant=baseline:garbage", options={"mines": 1}, episodes=1
    )
    [p] = (await run_eval(paper, tmp_path, progress=False)).metrics
    assert (p["steps"], p["invalid_steps"], p["status"]) == (5, 5, "invalid_limit")


async def test_reported_cells_reach_the_table(tmp_path: Path, scripted_models: Any) -> None:
    spec = plan_eval(
        "minesweeper",
        "minesweeper:variant=cells:cells",
        options={"mines": 2, "rows": 5, "cols": 5},
        episodes=3,
    )
    report = await run_eval(spec, tmp_path, progress=False)
    assert all(m["cell_reports"] == m["steps"] for m in report.metrics)
    reasoning = report.table.split("Moves checked against the logic solver (ours)")[1]
    cells = rows(reasoning)["2 | minesweeper:variant=cells:cells"]
    assert cells[-2:] == ["1.00", "1.00"]  # Safe F1, Mine F1: the oracle reports the truth
    assert cells[3] == "0.00"  # Wrong %: the oracle never contradicts the solver


# ----- the CLI -------------------------------------------------------------------------


def test_cli_eval_with_search_players(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(
        capsys,
        "maze",
        "--level",
        "2",
        "--player",
        "maze_explorer",
        "--sweep",
        "map_index=1..3",
        "--out",
        str(tmp_path),
    )
    assert code == 0
    assert tables(out)[0][0] == [
        "Model",
        "Samp.",
        "Suc.Rate",
        "A.Score",
        "A.steps",
        "A.Explor.",
        "A.Gold",
        "Rem.HP",
        "A.kills",
        "A.Barr.",
    ]
    assert rows(out)["maze_explorer"][0] == "3"
    code, out, _ = cli(
        capsys,
        "match2",
        "--level",
        "easy",
        "--player",
        "match2_greedy",
        "--sweep",
        "map_index=1,2",
        "--out",
        str(tmp_path),
    )
    assert code == 0 and "Clear/Step" in out
    assert rows(out)["match2_greedy"][0] == "2" and rows(out)["match2_greedy"][-1] == "-"
    code, out, _ = cli(
        capsys, "minesweeper", "--player", "minesweeper_solver", "--out", str(tmp_path)
    )
    assert code == 0
    table = rows(out.split("Moves checked")[0])
    assert list(table) == [f"{k} | minesweeper_solver" for k in (1, 2, 3)]
    assert all(cells[2] == "0.00" for cells in table.values())  # no invalid steps
    assert "30 played now" in out


def test_cli_scripted_llm_player(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], scripted_models: Any
) -> None:
    code, out, _ = cli(
        capsys,
        "minesweeper",
        "--player",
        "minesweeper:variant=memory:garbage",
        "-o",
        "rows=3",
        "-o",
        "cols=3",
        "--episodes",
        "2",
        "--out",
        str(tmp_path),
    )
    assert code == 0
    table = rows(out)
    assert table["1 | minesweeper:variant=memory:garbage"] == ["0.00", "5.00", "5.00"]
    assert list(table) == [f"{k} | minesweeper:variant=memory:garbage" for k in (1, 2, 3)]
    code, out, _ = cli(
        capsys,
        "minesweeper",
        "--player",
        "minesweeper:variant=tips:oracle",
        "-o",
        "mines=1",
        "--episodes",
        "3",
        "--out",
        str(tmp_path),
    )
    table = rows(out.split("Moves checked")[0])
    assert code == 0 and table["1 | minesweeper:variant=tips:oracle"][0] == "1.00"


def test_cli_ablation_prints_table1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], scripted_models: Any
) -> None:
    code, out, _ = cli(
        capsys,
        "minesweeper",
        "--ablation",
        "--model",
        "garbage",
        "--episodes",
        "1",
        "-o",
        "rows=3",
        "-o",
        "cols=3",
        "--out",
        str(tmp_path),
    )
    assert code == 0
    table1 = rows(out.split("Moves checked")[0])
    variants = ["Baseline", "+ Examples", "+ Step Back Prompting", "+ Tips and Tricks", "+ Memory"]
    expected = [f"{m} | {v}" for m in (1, 2, 3) for v in variants]
    assert list(table1) == expected
    assert all(cells == ["0.00", "5.00", "5.00"] for cells in table1.values())
    assert out.count("results: ") == 5
    assert "Win rule: paper (every mine flagged and every safe cell revealed" in out

    # report reads the five files in their names' (hash) order, and still prints the
    # paper's row order under the rule's name.
    files = sorted(str(p) for p in tmp_path.glob("*.jsonl"))
    assert main(["report", *files, "--out", str(tmp_path / "report"), "--no-plots"]) == 0
    capsys.readouterr()
    text = (tmp_path / "report" / "report.md").read_text()
    section = text.split("## minesweeper")[1].split("Moves checked")[0].split("\n## ")[0]
    assert "Win rule: paper (" in section
    assert list(rows(section)) == expected
    # the report's Table 1 is the one eval printed, cell for cell.
    printed = [t for t in tables(out) if t[0][:3] == ["Mines", "Model", "Winning Rate"]]
    assert tables(section) == printed[-1:]
    code, out, _ = cli(
        capsys,
        "maze",
        "--ablation",
        "--player",
        "maze_explorer",
        "--level",
        "1",
        "--sweep",
        "map_index=1..2",
        "--out",
        str(tmp_path),
    )
    assert code == 0 and list(rows(out)) == ["EEB", "Full-Vision"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["maze"], "give the evaluated player with --player"),
        (
            ["minesweeper", "--ablation", "--player", "minesweeper:variant=memory:garbage"],
            "give the model with --model",
        ),
        (["maze", "--ablation"], "ablation needs the evaluated --player"),
        (
            ["maze", "--player", "minesweeper:variant=memory:garbage", "--sweep", "map_index=1"],
            "cannot play 'maze'; it plays minesweeper.",
        ),
        (["bandit", "--ablation", "--player", "random"], "No paper ablation"),
    ],
)
def test_cli_bad_input_is_a_clear_error(
    argv: list[str],
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    scripted_models: Any,
) -> None:
    code, _, err = cli(capsys, *argv, "--out", str(tmp_path))
    assert code == 2 and message in err


def test_cli_eval_maze_can_print_the_released_a_score(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["maze", "--level", "1", "--player", "maze_explorer", "--sweep", "map_index=1..3"]
    code, out, _ = cli(capsys, *argv, "--out", str(tmp_path), "--released-score")
    assert code == 0
    header = tables(out)[0][0]
    assert header[3:5] == ["A.Score", "A.Score(rel.)"]
    [path] = tmp_path.glob("*.jsonl")
    episodes = [json.loads(line) for line in path.read_text().splitlines()]
    metrics = [e["metrics"] for e in episodes if e.get("kind", "episode") == "episode"]
    assert len(metrics) == 3
    cells = rows(out)["maze_explorer"]
    paper = sum(m["score"] for m in metrics) / 3  # the paper: mean cumulative reward
    released = sum(m["custom_score"] for m in metrics) / 3  # the released script
    assert (float(cells[2]), float(cells[3])) == (round(paper, 2), round(released, 2))
    code, _, err = cli(capsys, "match2", "--player", "match2_greedy", "--released-score")
    assert code == 2 and "--released-score adds a column to the maze table" in err


def test_table1_names_each_rows_win_rule_when_they_differ() -> None:
    table = FAMILIES["minesweeper"].table
    episode = {"mines": 1, "win": True, "steps": 2, "invalid_steps": 0}
    text = table(
        {
            "+ Memory": [{**episode, "win_rule": "flags"}],
            "Baseline": [{**episode, "win_rule": "paper"}, {**episode, "win": False}],
        }
    )
    assert text.splitlines()[0].startswith("Win rules differ between rows: each row names")
    assert [cells[1] for cells in tables(text)[0][1:]] == [
        "Baseline [win_rule=not recorded]",
        "Baseline [win_rule=paper]",
        "+ Memory [win_rule=flags]",
    ]
    old = table({"mine": [episode]})  # recorded before the metrics named the rule
    assert old.startswith("Win rule: not recorded")


def test_report_prints_exactly_the_tables_eval_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for argv in (
        ["maze", "--level", "1", "--player", "maze_explorer", "--sweep", "map_index=1..2"],
        ["minesweeper", "--player", "minesweeper_solver", "-o", "mines=1", "--episodes", "2"],
    ):
        out_dir = tmp_path / argv[0]
        code, out, _ = cli(capsys, *argv, "--out", str(out_dir), "-q")
        assert code == 0 and table_blocks(out)
        assert main(["report", str(out_dir), "--no-plots"]) == 0
        assert table_blocks(capsys.readouterr().out) == table_blocks(out)
