"""Reports: exact tables of a scripted results folder, bad input, plots and the CLI."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from langgraph_games.cli import main
from langgraph_games.eval import ArenaSpec, ResultsFile, run_arena
from langgraph_games.eval.reports.report import build_report, write_report
from langgraph_games.eval.running.runner import EvalSpec, run_eval
from support import install_scripted_strategies
from table_support import tables

ROUNDS = [
    {"kind": "round", "label": "expver", "split": "test", "round": 1, "success_rate": 0.4,
     "score": 120.0, "steps": 30.5, "truths_added": 3, "truths_merged": 0, "reverted": False},
    {"kind": "round", "label": "expver", "split": "test", "round": 2, "success_rate": 0.6,
     "score": 310.0, "steps": 28.0, "truths_added": 2, "truths_merged": 1, "reverted": False},
    {"kind": "round", "label": "expver", "split": "test", "round": 3, "success_rate": 0.5,
     "score": 250.0, "steps": 29.0, "truths_added": 1, "truths_merged": 1, "reverted": True},
    {"kind": "round", "label": "no-truthweaver", "split": "test", "round": 1,
     "success_rate": 0.4, "score": 100.0},
    {"kind": "round", "label": "no-truthweaver", "split": "test", "round": 2,
     "success_rate": 0.45, "score": 150.0},
]  # fmt: skip


def _crafter_episode(index: int, unlocked: dict[str, int], reward: float) -> dict[str, Any]:
    return {
        "kind": "episode",
        "episode_id": f"crafter{index}",
        "label": "spring",
        "game": "crafter-v1",
        "family": "crafter",
        "status": "finished",
        "result": {"status": "truncated", "returns": [reward], "steps": 100},
        "metrics": {
            "reward": reward,
            "length": 100,
            "done": False,
            "died": False,
            "unlocked": unlocked,
            "num_unlocked": len(unlocked),
            "depth": 1 if unlocked else 0,
            "smartplay_score": 0,
        },
    }


def _fix_timings(value: Any) -> Any:
    """Timings vary from run to run; the scripted folder pins them."""
    if isinstance(value, dict):
        return {
            k: 0.25 if k == "latency_s" else 0.0 if k in ("started_at", "duration_s") else
            _fix_timings(v) for k, v in value.items()
        }  # fmt: skip
    if isinstance(value, list):
        return [_fix_timings(v) for v in value]
    return value


def _pin(path: Path) -> Path:
    records = ResultsFile(path).read().records
    path.write_text("".join(json.dumps(_fix_timings(r)) + "\n" for r in records))
    return path


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A scripted results folder: two arenas, three evaluation families, Crafter, rounds."""
    out = tmp_path_factory.mktemp("results")

    async def play() -> dict[str, Path]:
        files = {}
        ttt = ArenaSpec(game="tictactoe", players=["perfect", "sloppy", "clumsy"], matches=2)
        files["tictactoe"] = (await run_arena(ttt, out, progress=False)).results_path
        c4 = ArenaSpec(game="connect4", players=["minimax:depth=1"], matches=2)
        files["connect4"] = (await run_arena(c4, out, progress=False)).results_path
        for name, spec in {
            "maze": EvalSpec(game="maze", options={"level": 1, "map_set": "eval"},
                             agent="maze_explorer", sweep={"map_index": [1, 2]}),
            "minesweeper": EvalSpec(game="minesweeper", agent="minesweeper_solver", repeats=2),
            "bandit": EvalSpec(game="bandit", agent="random", repeats=2),
        }.items():  # fmt: skip
            files[name] = (await run_eval(spec, out, progress=False)).results_path
        return files

    with pytest.MonkeyPatch.context() as monkeypatch:
        install_scripted_strategies(monkeypatch)
        files = asyncio.run(play())
    files = {name: _pin(path) for name, path in files.items()}
    crafter = out / "crafter.jsonl"
    for i, (unlocked, reward) in enumerate(
        [({"collect_wood": 10, "place_table": 40}, 2.0), ({"collect_wood": 7}, 1.0)]
    ):
        ResultsFile(crafter).append(_crafter_episode(i, unlocked, reward))
    files["crafter"] = crafter
    rounds = out / "train-maze.jsonl"
    for record in ROUNDS:
        ResultsFile(rounds).append(record)
    files["rounds"] = rounds
    return files


def _lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.strip().splitlines()]


TICTACTOE = """
## tictactoe-v1: outcome (O) and intermediate (I) scores

Protocol: paper protocol except: matches per pair 2 (paper: 20), re-asks 2 (paper: 0), max tokens none (paper: 4096).

| player   | matches   | W-D-L   | O     | I    | P1-f1   | P2-f1   | I re-asked   | invalid %   | ambiguous   | fallbacks   | tokens in   | tokens out   | s/decision   |
|----------|-----------|---------|-------|------|---------|---------|--------------|-------------|-------------|-------------|-------------|--------------|--------------|
| clumsy   | 6         | 4-0-2   | 0.33  | 0.44 | 0.33    | 0.55    | 0.00         | 37.5        | 0           | 0           | 14399       | 364          | 0.09         |
| perfect  | 6         | 2-1-3   | -0.17 | 1.00 | 1.00    | 1.00    | -            | 0.0         | 0           | 0           | 12860       | 304          | 0.07         |
| sloppy   | 6         | 2-1-3   | -0.17 | 0.40 | 0.29    | 0.52    | -            | 0.0         | 0           | 0           | 12860       | 315          | 0.07         |
| random   | 6         | 2-2-2   | 0.00  | -    | -       | -       | -            | 0.0         | 0           | 0           | 0           | 0            | 0.07         |

I scores each decision's first answer (before any feedback); 'I re-asked' scores the answers given after feedback.

### Head to head (W-D-L of the row player)

|         | clumsy   | perfect   | sloppy   | random   |
|---------|----------|-----------|----------|----------|
| clumsy  |          | 1-0-1     | 1-0-1    | 2-0-0    |
| perfect | 1-0-1    |           | 1-0-1    | 0-1-1    |
| sloppy  | 1-0-1    | 1-0-1     |          | 0-1-1    |
| random  | 0-0-2    | 1-1-0     | 1-1-0    |          |
"""  # noqa: E501

CROSS_GAME = """
## GAMEBoT: O and I per game (the paper's Table 2)

| player          | tictactoe-v1 O   | tictactoe-v1 I   | connect4-v1 O   | connect4-v1 I   | Avg. O   | Avg. I   | Avg.   | games   |
|-----------------|------------------|------------------|-----------------|-----------------|----------|----------|--------|---------|
| perfect         | -0.17            | 1.00             |                 |                 | -0.17    | 1.00     | 0.42   | 1/2     |
| clumsy          | 0.33             | 0.44             |                 |                 | 0.33     | 0.44     | 0.39   | 1/2     |
| sloppy          | -0.17            | 0.40             |                 |                 | -0.17    | 0.40     | 0.12   | 1/2     |
| minimax:depth=1 |                  |                  | 1.00            | -               | 1.00     | -        | -      | 1/2     |
| random          | 0.00             | -                | -1.00           | -               | -0.50    | -        | -      | 2/2     |

Avg. O and Avg. I: the means of each player's O and I over its games; Avg.: their mean (GAMEBoT's Table 2). '-' for I: no answer scored (a player without subproblem answers has no Avg. I or Avg.).

games: how many games a player's averages are over; a blank cell is a game it did not play, left out of its averages (which are then not the paper's averages over every game).
"""  # noqa: E501

EPISODES = """
## maze (EvoEmpirBench)

| Model         | Samp.   | Suc.Rate   | A.Score   | A.steps   | A.Explor.   | A.Gold   | Rem.HP   | A.kills   | A.Barr.   |
|---------------|---------|------------|-----------|-----------|-------------|----------|----------|-----------|-----------|
| maze_explorer | 2       | 100.00     | 3355.00   | 13.00     | 68.06       | 70.00    | 3.00     | 0.00      | 0.00      |

## minesweeper (Minesweeper Agent)

Win rule: paper (every mine flagged and every safe cell revealed, as the paper states it)

| Mines   | Model              | Winning Rate   | Average Steps   | Average Invalid Steps   |
|---------|--------------------|----------------|-----------------|-------------------------|
| 3       | minesweeper_solver | 1.00           | 5.50            | 0.00                    |

Moves checked against the logic solver (ours)

| Mines   | Model              | Checked   | Proven %   | Guesses %   | Wrong %   | Avoidable guesses %   | Safe F1   | Mine F1   |
|---------|--------------------|-----------|------------|-------------|-----------|-----------------------|-----------|-----------|
| 3       | minesweeper_solver | 11        | 72.73      | 27.27       | 0.00      | 0.00                  | -         | -         |

## crafter (SPRING / SmartPlay)

| agent   | episodes   | score %   | reward   | depth   | steps   | defaulted %   | calls/step   | tokens/step   | s/step   |
|---------|------------|-----------|----------|---------|---------|---------------|--------------|---------------|----------|
| spring  | 2          | 0.47      | 1.5±0.5  | 1       | 100.00  | -             | -            | -             | -        |

Achievement unlock rates (% of episodes)

| achievement        | spring   |
|--------------------|----------|
| collect_coal       | 0.00     |
| collect_diamond    | 0.00     |
| collect_drink      | 0.00     |
| collect_iron       | 0.00     |
| collect_sapling    | 0.00     |
| collect_stone      | 0.00     |
| collect_wood       | 100.00   |
| defeat_skeleton    | 0.00     |
| defeat_zombie      | 0.00     |
| eat_cow            | 0.00     |
| eat_plant          | 0.00     |
| make_iron_pickaxe  | 0.00     |
| make_iron_sword    | 0.00     |
| make_stone_pickaxe | 0.00     |
| make_stone_sword   | 0.00     |
| make_wood_pickaxe  | 0.00     |
| make_wood_sword    | 0.00     |
| place_furnace      | 0.00     |
| place_plant        | 0.00     |
| place_stone        | 0.00     |
| place_table        | 50.00    |
| wake_up            | 0.00     |
"""  # noqa: E501

SMARTPLAY = """
## SmartPlay: human-normalised scores (Table 2)

| agent   | Bandit   | RPS   | Hanoi   | MessengerL1   | MessengerL2   | Crafter   | Minecraft   |
|---------|----------|-------|---------|---------------|---------------|-----------|-------------|
| random  | 0.48     | -     | -       | -             | -             | -         | -           |

Minecraft column: Minecraft (MinedojoCreative0) cannot run offline: SmartPlay plays it through MineDojo, which downloads and builds a Minecraft Java instance when installed and run, and pins gym==0.21; none of that is possible without network access, so the package has no Minecraft game and its Table 2 column stays empty.

## Capability scores (challenge-weighted normalised scores; weight level - 1, as released)

| capability                         | random   |
|------------------------------------|----------|
| Long Text Understanding            | -        |
| Reasoning with Object Dependencies | -        |
| Instruction/Rule Following         | -        |
| Planning Ahead                     | -        |
| Generalization                     | 0.48     |
| Understanding the Odds             | 0.48     |
| Learning from Interactions         | 0.48     |
| Error/Mistake Handling             | -        |
| Spatial Reasoning                  | -        |

## Raw scores (Table 4)

| agent   | Bandit   |
|---------|----------|
| random  | 21.50    |

## Per setting

| agent   | setting   | episodes   | score   | completion   | reward   | steps   | unusable answers   | truncated   |
|---------|-----------|------------|---------|--------------|----------|---------|--------------------|-------------|
| random  | Bandit    | 2          | 21.50   | -            | -8.00    | 50.0    | 0/100              | 0           |
"""  # noqa: E501

ROUNDS_TABLE = """
## Training rounds (ExpVer)

| run                   | round   | success %   | score   | steps   | added   | merged   | superseded   | refused   | reverted   | active truths   |
|-----------------------|---------|-------------|---------|---------|---------|----------|--------------|-----------|------------|-----------------|
| expver (test)         | 1       | 40.00       | 120.00  | 30.50   | 3       | 0        | 0            | 0         | no         | -               |
| expver (test)         | 2       | 60.00       | 310.00  | 28.00   | 2       | 1        | 0            | 0         | no         | -               |
| expver (test)         | 3       | 50.00       | 250.00  | 29.00   | 1       | 1        | 0            | 0         | yes        | -               |
| no-truthweaver (test) | 1       | 40.00       | 100.00  | -       | -       | -        | -            | -         | -          | -               |
| no-truthweaver (test) | 2       | 45.00       | 150.00  | -       | -       | -        | -            | -         | -          | -               |
"""  # noqa: E501


def _check_tables(report: Any, tictactoe: str) -> None:
    sections = dict(report.sections)
    assert _lines(sections[f"arena {tictactoe}"]) == _lines(TICTACTOE)
    assert _lines(sections["arena games"]) == _lines(CROSS_GAME)
    assert _lines(sections["episodes"]) == _lines(EPISODES)
    assert _lines(sections["smartplay"]) == _lines(SMARTPLAY)
    assert _lines(sections["rounds"]) == _lines(ROUNDS_TABLE)


def test_exact_tables_of_a_scripted_results_folder(results: dict[str, Path]) -> None:
    report = build_report(list(results.values()))
    _check_tables(report, results["tictactoe"].name)
    assert [title for title, _ in report.sections] == [
        f"arena {results['tictactoe'].name}",
        f"arena {results['connect4'].name}",
        "arena games",
        "episodes",
        "smartplay",
        "rounds",
    ]
    assert report.notes == []
    # perfect answers every subproblem right; the head-to-head is each row's own W-D-L.
    perfect = next(r for r in report.arena_rows if r["player"] == "perfect")
    assert perfect["I"] == 1.0 and (perfect["wins"], perfect["draws"], perfect["losses"]) == (
        2, 1, 3,
    )  # fmt: skip


def _copy_with(path: Path, folder: Path, extra_lines: list[str]) -> Path:
    target = folder / path.name
    target.write_text(path.read_text() + "".join(extra_lines))
    manifest = path.with_suffix(".manifest.json")
    if manifest.exists():
        target.with_suffix(".manifest.json").write_text(manifest.read_text())
    return target


def test_bad_input_is_skipped_with_reasons_and_the_rest_is_reported(
    results: dict[str, Path], tmp_path: Path
) -> None:
    ttt_records = ResultsFile(results["tictactoe"]).read().records
    pong = {**ttt_records[0], "game": "curling-v1", "match_id": "pong0001"}
    other_spec = {**ttt_records[1], "spec_hash": "0123456789ab", "match_id": "other001"}
    malformed = {"kind": "match", "game": "tictactoe-v1", "match_id": "bad00001",
                 "status": "finished", "seats": ["perfect", "random"]}  # fmt: skip
    tictactoe = _copy_with(
        results["tictactoe"],
        tmp_path,
        [json.dumps(r) + "\n" for r in (pong, other_spec, malformed, {"kind": "banana"})]
        + ['{"kind": "match", "match_id": "trunc'],  # a crashed run's last line
    )
    maze_record = ResultsFile(results["maze"]).read().records[0]
    failed = {**maze_record, "episode_id": "failed01", "status": "error",
              "error": "ConnectionError: endpoint down"}  # fmt: skip
    failed.pop("metrics")
    maze = _copy_with(results["maze"], tmp_path, [json.dumps(failed) + "\n"])
    others = [results[k] for k in ("connect4", "minesweeper", "bandit", "crafter", "rounds")]
    report = build_report([tictactoe, maze, *others])
    _check_tables(report, tictactoe.name)
    n = len(ttt_records)
    registered = next(n for n in report.notes if "registered: " in n).split("(registered: ")[1]
    registered = registered.split(")")[0]
    assert "tictactoe-v1" in registered and "curling-v1" not in registered
    name = tictactoe.name
    assert report.notes == [
        f"{name} line {n + 5}: truncated last line (a crashed run); skipped",
        f"{name} line {n + 4}: unknown record kind 'banana' (known: match, episode, round); "
        "skipped",
        f"{name} line {n + 1}: game 'curling-v1' is not registered here (registered: "
        f"{registered}); 1 record(s) skipped",
        f"{name} line {n + 2}: spec 0123456789ab differs from the file's spec "
        f"{ttt_records[0]['spec_hash']} (from its manifest); mixed specs are not summarised "
        "together, 1 record(s) skipped",
        f"{name} line {n + 3}: malformed (match record without result.returns, "
        "result.players); skipped",
        f"{maze.name} line 3: episode failed01 failed: ConnectionError: endpoint down; left out",
    ]
    # Without a manifest, the file's spec is the one most of its records have.
    tictactoe.with_suffix(".manifest.json").unlink()
    again = build_report([tictactoe])
    assert "(from most of its records)" in again.notes[3]


def _check_png(path: Path) -> None:
    import matplotlib.image as mpimg

    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert path.stat().st_size > 5_000
    pixels = mpimg.imread(path)
    assert pixels.shape[0] > 200 and pixels.shape[1] > 300
    assert float(pixels[..., :3].std()) > 0.02  # not a blank canvas


def test_plots_are_drawn_and_not_empty(results: dict[str, Path], tmp_path: Path) -> None:
    report = build_report(list(results.values()))
    written = write_report(report, tmp_path)
    assert written.plots_skipped is None
    assert sorted(p.name for p in written.plots) == [
        "achievements.png",
        "arena_by_game.png",
        "episodes_crafter.png",
        "episodes_maze.png",
        "episodes_minesweeper.png",
        "episodes_smartplay.png",
        "learning_curves.png",
        "o_vs_i.png",
    ]
    for path in written.plots:
        _check_png(path)
    text = written.markdown.read_text()
    assert text.count("![") == 8 and "## GAMEBoT: O and I per game" in text
    assert sorted(p.name for p in written.csv) == sorted(
        f"{results[k].stem}.csv" for k in ("tictactoe", "connect4")
    )


def test_o_against_i_correlation() -> None:
    from langgraph_games.eval.reports.plots import pearson

    # perfect (1.00, 0.17), sloppy (0.40, 0.17), clumsy (0.37, 0.00): the paper's I-O link.
    assert pearson([1.0, 0.4, 0.37], [1 / 6, 1 / 6, 0.0]) == pytest.approx(0.5361, abs=1e-4)
    assert pearson([1.0, 1.0], [0.0, 1.0]) is None
    assert pearson([0.5, 0.5, 0.5], [0.0, 1.0, 0.2]) is None


def test_without_matplotlib_the_report_says_plots_were_skipped(
    results: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    for name in [m for m in sys.modules if m.split(".")[0] == "matplotlib"] + ["matplotlib"]:
        monkeypatch.setitem(sys.modules, name, None)  # as if it were not installed
    monkeypatch.delitem(sys.modules, "langgraph_games.eval.reports.plots", raising=False)
    written = write_report(build_report([results["rounds"]]), tmp_path)
    assert written.plots == []
    assert written.plots_skipped is not None
    assert written.plots_skipped.startswith("plots skipped: matplotlib is not installed")
    assert "pip install -e '.[plots]' in a source checkout" in written.plots_skipped
    assert written.plots_skipped in written.markdown.read_text()


def test_report_command(
    results: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = [str(p) for p in results.values()]
    assert main(["report", *files, "--out", str(tmp_path / "rep")]) == 0
    out = capsys.readouterr().out
    assert _lines(CROSS_GAME)[2] in out and "## Training rounds (ExpVer)" in out
    assert f"report: {tmp_path / 'rep' / 'report.md'}" in out
    assert f"wrote {tmp_path / 'rep' / 'plots' / 'o_vs_i.png'}" in out
    assert main(["report", str(results["bandit"]), "--no-plots", "--out", str(tmp_path)]) == 0
    assert "plots were not asked for (--no-plots)" in capsys.readouterr().out
    junk = tmp_path / "junk.jsonl"
    junk.write_text('{"kind": "banana"}\n{"kind": "match", "match_id": "half')
    assert main(["report", str(junk)]) == 2
    err = capsys.readouterr().err
    assert "nothing to report in" in err and "line 2: truncated last line" in err


def test_the_same_player_and_game_in_two_files_are_kept_apart(
    results: dict[str, Path], tmp_path: Path
) -> None:
    again = tmp_path / "rerun.jsonl"
    again.write_text(results["tictactoe"].read_text())
    report = build_report([results["tictactoe"], again])
    players = [r["player"] for r in report.arena_rows]
    assert players[:4] == ["clumsy", "perfect", "sloppy", "random"]
    assert players[4:] == [f"{p} [rerun]" for p in players[:4]]
    assert report.notes[0] == (
        "rerun.jsonl: clumsy also played tictactoe-v1 in another file; its row in the "
        "cross-game table and plots is 'clumsy [rerun]'"
    )


def test_every_table_in_report_md_renders_as_a_markdown_table(
    results: dict[str, Path], tmp_path: Path
) -> None:
    written = write_report(build_report(list(results.values())), tmp_path, plots=False)
    text = written.markdown.read_text()
    found = tables(text)
    # Every table kind: arena per-player and head-to-head (two games), the cross-game
    # table, maze, Minesweeper Table 1 and its solver check, Crafter and its unlock rates,
    # SmartPlay's four, training rounds.
    headers = [table[0][:2] for table in found]
    assert headers == [
        ["player", "matches"], ["", "clumsy"],
        ["player", "matches"], ["", "minimax:depth=1"],
        ["player", "tictactoe-v1 O"],
        ["Model", "Samp."],
        ["Mines", "Model"], ["Mines", "Model"],
        ["agent", "episodes"], ["achievement", "spring"],
        ["agent", "Bandit"], ["capability", "random"], ["agent", "Bandit"],
        ["agent", "setting"],
        ["run", "round"],
        ["player", "calls"],
    ]  # fmt: skip
    # Nothing that looks like a table row is left to render as a paragraph: every line
    # starting with a pipe is a row of a parsed table (or its header separator).
    piped = [line for line in text.splitlines() if line.startswith("|")]
    assert len(piped) == sum(len(table) + 1 for table in found)
    # The terminal prints the same tables.
    assert tables(build_report(list(results.values())).markdown()) == found
